"""One way to map seeded chunks of work over an executor: this process, local processes, or Dask.

:func:`map_chunks` is used by every long simulation (the simulator, the table's sessions, counting
studies). It takes a picklable function and a lazy iterable of tasks and yields ``(index, result)``
as chunks finish, keeping only a bounded number in flight, so memory stays flat however long the run.
Callers whose reduction depends on order put the results back in index order; integer sums do not
care. Guarantees:

* worker processes die with their parent however it ends (Ctrl-C, SIGTERM, SIGHUP, SIGKILL, a crash):
  the parent stops them when interrupted, and each asks the kernel to kill it if the parent dies;
* at most :data:`MAX_WORKERS_PER_CORE` processes per core, whatever is asked;
* a Dask scheduler that cannot be reached, or does not answer within its timeout, is one
  :class:`~solver.errors.InputError`; a cluster that fails mid-run is one :class:`~solver.errors.RunError`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any, TypeVar

from solver.errors import InputError, RunError

T = TypeVar("T")
R = TypeVar("R")

DASK_CONNECT_TIMEOUT = "10s"
IN_FLIGHT_PER_WORKER = 4  # chunks queued per worker: memory stays flat however long the run
MAX_WORKERS_PER_CORE = 4
"""More local processes than this many per core only add start-up time and memory."""


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def max_workers() -> int:
    """The most local processes a run starts: :data:`MAX_WORKERS_PER_CORE` per core."""
    return MAX_WORKERS_PER_CORE * default_workers()


def map_chunks(
    fn: Callable[[T], R],
    tasks: Iterable[T],
    workers: int = 1,
    scheduler: str | None = None,
    initialize: Callable[[], Any] | None = None,
) -> Iterator[tuple[int, R]]:
    """``(index, fn(task))`` for every task, as they finish.

    Args:
        fn: a module-level (picklable) function.
        tasks: the tasks, consumed lazily.
        workers: local processes (1: in this process); capped at :func:`max_workers`.
        scheduler: a Dask scheduler's address (overrides ``workers``).
        initialize: called once in this process before worker processes fork (e.g. to compile a kernel).
    """
    numbered = enumerate(tasks)
    if scheduler is not None:
        yield from _dask(fn, numbered, scheduler)
        return
    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    n = min(workers, max_workers())
    if n == 1:
        for i, task in numbered:
            yield i, fn(task)
        return
    if initialize is not None:
        initialize()
    yield from _processes(fn, numbered, n)


def _processes(fn: Callable[[T], R], numbered: Iterator[tuple[int, T]], n: int) -> Iterator[tuple[int, R]]:
    import multiprocessing  # only here: a run in this process needs neither (nor pickle)
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    ex = ProcessPoolExecutor(n, mp_context=ctx, initializer=die_with_parent, initargs=(os.getpid(),))
    pending: dict[Future[R], int] = {}
    try:
        while True:
            for i, task in islice(numbered, IN_FLIGHT_PER_WORKER * n - len(pending)):
                pending[ex.submit(fn, task)] = i
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                yield pending.pop(f), f.result()
    except BaseException:
        # Interrupted (Ctrl-C, SIGTERM, SIGHUP), failed, or abandoned by the caller: stop the workers
        # now rather than letting them finish the queued chunks.
        ex.shutdown(wait=False, cancel_futures=True)
        for process in list((getattr(ex, "_processes", None) or {}).values()):
            process.terminate()
        raise
    ex.shutdown(wait=True)


def die_with_parent(parent: int) -> None:
    """In a worker process: ask the kernel to kill it when its parent dies (Linux), however the parent
    dies (SIGTERM, SIGKILL, a crash), and leave at once if the parent is already gone."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, 9)  # SIGKILL
    except (OSError, AttributeError):  # pragma: no cover - not Linux: the parent's handlers must do
        pass
    if os.getppid() != parent:
        os._exit(1)


def connect(address: str, timeout: float | None = None) -> Any:
    """A Dask client for the scheduler at ``address``, or one clear error within the timeout.

    Raises:
        InputError: Dask is not installed, the address is not a scheduler's, or the scheduler does not
            answer in time (also one that accepts the connection and never answers).
    """
    import threading

    try:
        from distributed import Client
    except ImportError:
        raise InputError("--scheduler needs Dask's distributed scheduler: pip install 'baccarat-solver[dask]'") from None
    seconds = float(DASK_CONNECT_TIMEOUT.rstrip("s")) if timeout is None else timeout
    box: dict[str, Any] = {}

    def attempt() -> None:
        try:
            box["client"] = Client(address, timeout=f"{seconds}s")
        except BaseException as e:  # any failure becomes the one line below
            box["error"] = e

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(seconds + 5)
    if thread.is_alive():
        raise InputError(f"cannot reach the Dask scheduler at {address}: no answer in {seconds:g} s")
    if "error" in box:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {_reason(box['error'])}")
    return box["client"]


def _reason(e: BaseException) -> str:
    text = str(e).strip()
    return (text.splitlines()[0] if text else type(e).__name__)[:200]


def _quiet_dask_logs() -> None:
    """Leave failures to our one line: distributed's own loggers otherwise print tracebacks to stderr
    (e.g. a CancelledError while closing the client of a scheduler that died mid-run)."""
    import logging

    import distributed  # noqa: F401  (configures its loggers on import: quieten them after that)

    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in ("distributed", "tornado", "asyncio")]
    for name in ("distributed", "tornado", "asyncio", *names):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _dask(fn: Callable[[T], R], numbered: Iterator[tuple[int, T]], address: str) -> Iterator[tuple[int, R]]:
    client = connect(address)
    _quiet_dask_logs()
    try:
        from distributed import as_completed

        window = IN_FLIGHT_PER_WORKER * max(1, sum(client.ncores().values()))
        index: dict[Any, int] = {}

        def submit(i: int, task: T) -> Any:
            f = client.submit(fn, task, pure=False)
            index[f.key] = i
            return f

        running = as_completed([submit(i, t) for i, t in islice(numbered, window)])
        for f in running:
            result = f.result()
            i = index.pop(f.key)
            f.release()
            for j, t in islice(numbered, 1):
                running.add(submit(j, t))
            yield i, result
    except (KeyboardInterrupt, GeneratorExit, InputError):
        raise
    except Exception as e:  # the scheduler or a worker failed mid-run
        raise RunError(f"the Dask cluster at {address} failed during the run: {_reason(e)}") from None
    finally:
        try:
            client.close(timeout=2)
        except Exception:  # closing a dead cluster must not hide what happened
            pass
