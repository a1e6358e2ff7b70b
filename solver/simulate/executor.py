"""Mapping seeded chunks of work over an executor: this process, local processes, or a Dask cluster.

:func:`map_chunks` is used by every long run (the simulator, counting studies, the table's sessions)
and :func:`map_in_order` by the exact sweeps (chemin de fer and banque over shoes, θ, commissions).
They take a picklable function and a lazy iterable of tasks; :func:`map_chunks` yields
``(index, result)`` as chunks finish, keeping a bounded number in flight, so memory stays flat however
long the run. Callers whose reduction depends on order put the results back in index order (:func:`in_order`);
integer sums do not care. :func:`map_shared` is the same with a value every task reads (a simulator's draw
tables, a counting study's compiled law): built once in this process, sent once to each worker and
kept there for the whole run, so no chunk pays for unpickling or rebuilding it.

Guarantees:

* the results are the tasks' own, whatever the executor: tasks travel in batches of consecutive chunks
  (about :data:`~solver.simulate.tasks.BATCH_SECONDS` of work each, and
  :data:`~solver.simulate.tasks.DASK_BATCH_SECONDS` on Dask, sized from the time the chunks took so
  far), so the executor's cost per task stays a small part of the work, and each chunk's result comes
  back apart;
* workers are started safely. A process may fork only while it runs one thread (a fork copies one
  thread; a lock another thread held stays locked in the child, which is what Python 3.12 warns
  about): so local workers are forked from this process when it runs one thread, as the command line
  does (it keeps numpy's BLAS to one thread: :func:`keep_one_thread`), and otherwise, e.g. in a
  notebook or the test suite, from a forkserver, a single-threaded process started once (its
  numerical libraries held to one thread) that forks the workers;
* worker processes die with their parent however it ends (Ctrl-C, SIGTERM, SIGHUP, SIGKILL, a crash):
  the parent stops them when interrupted, and each asks the kernel to kill it when its parent dies and
  watches the process that started the run; workers leave Ctrl-C to that process;
* at most :data:`MAX_WORKERS_PER_CORE` processes per core, whatever is asked;
* on Dask (:mod:`solver.simulate.cluster`): a scheduler that cannot be reached is one
  :class:`~solver.errors.InputError`; a cluster that fails mid-run, or is left without a worker for
  longer than the run's stated wait, is one :class:`~solver.errors.RunError`.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import count
from typing import Any, TypeVar

from solver.errors import InputError
from solver.simulate.tasks import IN_FLIGHT_PER_WORKER, Batches, Idle, Scheduler, numbered, run_batch

T = TypeVar("T")
R = TypeVar("R")
S = TypeVar("S")

MAX_WORKERS_PER_CORE = 4
"""More local processes than this many per core only add start-up time and memory."""

ONE_THREAD = (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)
"""The variables that hold numerical libraries to one thread (numpy's OpenBLAS starts a thread per core
on import otherwise). The solver's work is integers, compiled loops and one process per core: none
of it gains from a BLAS thread pool."""


def keep_one_thread() -> None:
    """Hold numerical libraries to one thread (:data:`ONE_THREAD`, where the user set nothing), before
    they load: the process can then fork its workers safely, the cheapest start."""
    for name in ONE_THREAD:
        os.environ.setdefault(name, "1")


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def max_workers() -> int:
    """The most local processes a run starts: :data:`MAX_WORKERS_PER_CORE` per core."""
    return MAX_WORKERS_PER_CORE * default_workers()


def threads() -> int:
    """The threads this process runs (the operating system's count: libraries' threads included)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:  # pragma: no cover - not Linux: count Python's own and assume the worst
        import threading

        return max(2, threading.active_count())


def map_chunks(
    fn: Callable[[T], R],
    tasks: Iterable[T | Idle],
    workers: int = 1,
    scheduler: Scheduler | None = None,
    initialize: Callable[[], Any] | None = None,
) -> Iterator[tuple[int, R]]:
    """``(index, fn(task))`` for every task, as they finish.

    Args:
        fn: a module-level (picklable) function.
        tasks: the tasks, consumed lazily; a source that may wait for its next task (a live stream)
            yields :data:`~solver.simulate.tasks.IDLE` when it has none ready, so the results in flight
            are not held back.
        workers: local processes (1: in this process); capped at :func:`max_workers`.
        scheduler: a Dask scheduler (overrides ``workers``).
        initialize: called once in this process before worker processes start (e.g. to compile a kernel).
    """
    return map_shared(call, fn, tasks, workers, scheduler, initialize)


def call(fn: Callable[[T], R], task: T) -> R:
    """``fn(task)``: :func:`map_chunks` as :func:`map_shared` with the function as the shared value."""
    return fn(task)


def map_shared(
    fn: Callable[[S, T], R],
    shared: S,
    tasks: Iterable[T | Idle],
    workers: int = 1,
    scheduler: Scheduler | None = None,
    initialize: Callable[[], Any] | None = None,
) -> Iterator[tuple[int, R]]:
    """``(index, fn(shared, task))`` for every task, as they finish; ``shared`` is sent once to each
    worker and kept there for the run (see the module docstring)."""
    indexed = numbered(tasks)
    if scheduler is not None:
        try:
            from solver.simulate.cluster import run_on_dask
        except ImportError as e:
            if (e.name or "").split(".")[0] not in ("distributed", "dask"):
                raise
            raise InputError("--scheduler needs Dask's distributed scheduler: pip install 'baccarat-solver[dask]'") from None
        yield from run_on_dask(fn, shared, indexed, scheduler)
        return
    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    n = min(workers, max_workers())
    if n == 1:
        for item in indexed:
            if not isinstance(item, Idle):
                yield item[0], fn(shared, item[1])
        return
    if initialize is not None:
        initialize()
    yield from _processes(fn, shared, indexed, n)


def map_in_order(
    fn: Callable[[T], R],
    items: Sequence[T],
    workers: int = 1,
    scheduler: Scheduler | None = None,
    progress: Callable[[int], None] | None = None,
    initialize: Callable[[], Any] | None = None,
) -> list[R]:
    """``[fn(item) for item in items]``, in the items' order, computed over the executor (a sweep's
    solves: the same results as in this process). ``progress`` is called with the number done;
    ``initialize`` as :func:`map_chunks` says."""
    done = map_chunks(fn, items, min(workers, max(1, len(items))), scheduler, initialize)
    if progress is not None:
        done = _counted(done, progress)
    return list(in_order(done))


def _counted(results: Iterator[tuple[int, R]], progress: Callable[[int], None]) -> Iterator[tuple[int, R]]:
    for n, result in enumerate(results, start=1):
        progress(n)
        yield result


def in_order(results: Iterable[tuple[int, R]]) -> Iterator[R]:
    """The results of :func:`map_chunks` or :func:`map_shared` in the tasks' order, each as soon as it and
    every one before it are in (a stream's answers, in input order).

    >>> list(in_order([(1, "b"), (0, "a"), (3, "d"), (2, "c")]))
    ['a', 'b', 'c', 'd']
    """
    waiting: dict[int, R] = {}
    done = 0
    for i, r in results:
        waiting[i] = r
        while done in waiting:
            yield waiting.pop(done)
            done += 1


# -- local processes ---------------------------------------------------------------------------------

_SHARED: dict[int, Any] = {}
"""In a worker process: the shared values of the runs it serves, by run."""
_RUNS = count()


def _processes(fn: Callable[[S, T], R], shared: S, indexed: Iterator[tuple[int, T] | Idle], n: int) -> Iterator[tuple[int, R]]:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    run = next(_RUNS)
    batches = Batches()
    # The first tasks are taken before the workers start (they fork at the first submit): a source that
    # starts a thread to produce its tasks (a live stream's reader) then counts in how they may start.
    batch = batches.take(indexed)
    ctx = start_context([fn.__module__, getattr(shared, "__module__", None) or fn.__module__])
    if ctx.get_start_method() == "fork":
        release_free_memory()
    before = set(multiprocessing.active_children())
    ex = ProcessPoolExecutor(n, mp_context=ctx, initializer=start_worker, initargs=(os.getpid(), run, shared))
    pending: dict[Future[tuple[list[R], float]], list[int]] = {}
    try:
        while True:
            while len(pending) < IN_FLIGHT_PER_WORKER * n:
                batch = batch or batches.take(indexed)
                if not batch:
                    break
                pending[ex.submit(_run_local_batch, fn, run, [t for _, t in batch])] = [i for i, _ in batch]
                batch = []
            if not pending:
                if batches.exhausted:
                    break
                continue  # the source is idle and nothing is in flight: ask it again
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                indices = pending.pop(f)
                results, seconds = f.result()
                batches.record(seconds, len(indices))
                yield from zip(indices, results)
    except BaseException:
        # Interrupted (Ctrl-C, SIGTERM, SIGHUP), failed, or abandoned by the caller: stop the workers
        # now rather than letting them finish the queued chunks. Every process this pool started, also
        # one an interrupt caught after its start and before the pool recorded it (the signal lands
        # just after the fork): multiprocessing would join it at exit, and the run would hang there.
        ex.shutdown(wait=False, cancel_futures=True)
        pool = set((getattr(ex, "_processes", None) or {}).values())
        for process in pool | (set(multiprocessing.active_children()) - before):
            process.terminate()
        raise
    ex.shutdown(wait=True)


def _run_local_batch(fn: Callable[[S, T], R], run: int, batch: list[T]) -> tuple[list[R], float]:
    return run_batch(fn, _SHARED[run], batch)


def start_context(preload: Sequence[str | None]) -> Any:
    """The multiprocessing context that starts workers safely: ``fork`` where this process runs one
    thread (Linux), else a ``forkserver`` whose server runs one thread and has imported ``preload``."""
    import multiprocessing

    if sys.platform == "linux" and threads() == 1:
        return multiprocessing.get_context("fork")
    from multiprocessing import forkserver

    ctx = multiprocessing.get_context("forkserver")
    modules = sorted({m for m in preload if m and m != "__main__"})
    ctx.set_forkserver_preload(modules)  # this process's __main__ is never run again in the server
    saved = {name: os.environ.get(name) for name in ONE_THREAD}
    try:  # the server starts (once) with this environment: numpy's BLAS there keeps to one thread
        os.environ.update(dict.fromkeys(ONE_THREAD, "1"))
        forkserver.ensure_running()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return ctx


def release_free_memory() -> None:
    """Return the heap's free pages to the operating system (glibc's ``malloc_trim``; nothing elsewhere),
    as this process does just before it forks its workers. Memory the process freed (the temporaries of
    building its tables) stays mapped in its heap, and the forked workers share those pages with it: a
    worker's first allocations land there, and each costs the kernel a copy of a page (copy on write).
    Released, they are fresh zero pages to a worker. Measured on a banque sweep's worker: a first shoe's
    solve took 27,500 page faults, 11,300 once released, and the sweep on two workers 130,000 and
    92,000 (docs/benchmarks.md, "Scaling out"); the release takes about 4 ms."""
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # pragma: no cover - not glibc
        return
    trim(0)


def start_worker(parent: int, run: int, shared: Any) -> None:
    """In a new worker process: die with the run's process (:func:`die_with_parent`), leave Ctrl-C and
    SIGTERM their default meaning (the run's process stops its workers), keep the shared value."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    die_with_parent(parent)
    _SHARED[run] = shared


def die_with_parent(parent: int) -> None:
    """In a worker process: ask the kernel to kill it when its parent dies (Linux), however the parent
    dies (SIGTERM, SIGKILL, a crash); where the parent is a forkserver, also watch the process
    ``parent`` that started the run; leave at once if it is already gone."""
    before = os.getppid()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, 9)  # SIGKILL
    except (OSError, AttributeError):  # pragma: no cover - not Linux: the parent's handlers must do
        pass
    if os.getppid() != before or not _alive(parent):
        os._exit(1)
    if before != parent:
        _watch(parent)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process now holds the number
        return False
    return True


def _watch(pid: int) -> None:
    """A daemon thread that ends this process when process ``pid`` ends (a pidfd where Linux has one)."""
    import threading

    def wait_for_it() -> None:
        try:
            import select

            fd = os.pidfd_open(pid)
            select.select([fd], [], [])
        except (AttributeError, OSError):  # pragma: no cover - no pidfd: look twice a second
            while _alive(pid):
                time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=wait_for_it, name="baccarat-parent-watch", daemon=True).start()
