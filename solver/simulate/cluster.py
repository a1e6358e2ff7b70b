"""Running seeded chunks on a Dask ``distributed`` cluster (the optional extra ``baccarat-solver[dask]``,
imported only here; the workers need this package installed).

What a run sends: the shared value of :func:`solver.simulate.executor.map_shared` once to each worker,
as a worker plugin (:class:`SharedValue`) keyed by a digest of its pickled bytes, which the scheduler
also installs on workers that join later and which outlives any worker; then batches of chunks
(:class:`solver.simulate.tasks.Batches`, about :data:`~solver.simulate.tasks.DASK_BATCH_SECONDS` of
work each: a Dask task has a cost of its own) that name it by that digest. A worker killed mid-run loses
only its batches, which Dask runs again elsewhere; the results are the same.

Failures a user can act on, each one line: a scheduler that cannot be reached, or does not answer
within :data:`DASK_CONNECT_TIMEOUT`, is an :class:`~solver.errors.InputError`
(exit code 2); a cluster that fails mid-run, and a cluster left without any worker for longer than the
run's wait (:attr:`~solver.simulate.tasks.DaskScheduler.worker_wait`, ``--worker-wait``), a
:class:`~solver.errors.RunError` (exit code 3), saying how long it waited and how to wait longer.
"""

from __future__ import annotations

import hashlib
import pickle
import sys
import threading
import time
from collections.abc import Callable, Iterator
from itertools import count
from typing import Any, TypeVar

from distributed.diagnostics.plugin import WorkerPlugin

from solver.errors import InputError, RunError
from solver.simulate.tasks import DASK_BATCH_SECONDS, IN_FLIGHT_PER_WORKER, Batches, DaskScheduler, Idle, Scheduler, run_batch

T = TypeVar("T")
R = TypeVar("R")
S = TypeVar("S")

DASK_CONNECT_TIMEOUT = "10s"
POLL_SECONDS = 1.0
"""How often a run that is waiting for results looks at the cluster's workers."""
MAX_TASK_BYTES = 2 * 2**20
"""A batch whose tasks weigh more than this many bytes goes to the cluster in consecutive parts
(:func:`parts`): a Dask task carries its arguments through the scheduler, which warns past 10 MB (half
a second of ``punto --shoes`` chunks is up to 19 MB of shoes)."""


def parts(batch: list[tuple[int, T]], limit: int = MAX_TASK_BYTES) -> Iterator[list[tuple[int, T]]]:
    """A batch cut into consecutive parts whose tasks weigh at most ``limit`` bytes together, as Dask
    weighs an object (:func:`dask.sizeof.sizeof`: an array's bytes, without pickling it); a task larger
    than that alone is a part of its own.

    >>> import numpy as np
    >>> tasks = [(0, np.zeros(8)), (1, np.zeros(8)), (2, np.zeros(1))]
    >>> [[i for i, _ in p] for p in parts(tasks, limit=100)]
    [[0], [1, 2]]
    """
    from dask.sizeof import sizeof

    part: list[tuple[int, T]] = []
    size = 0
    for item in batch:
        weight = sizeof(item[1])
        if part and size + weight > limit:
            yield part
            part, size = [], 0
        part.append(item)
        size += weight
    if part:
        yield part


_SHARED: dict[str, Any] = {}
"""In a worker: the shared values installed by plugins, by digest."""
_HOLDERS: dict[str, set[str]] = {}
_LOCK = threading.Lock()
_PLUGINS = count()


class SharedValue(WorkerPlugin):
    """A worker plugin that keeps one run's shared value in every worker, by the digest of its bytes."""

    idempotent = False

    def __init__(self, digest: str, payload: bytes, name: str) -> None:
        self.digest, self.payload, self.name = digest, payload, name

    def setup(self, worker: Any) -> None:
        with _LOCK:
            if self.digest not in _SHARED:
                _SHARED[self.digest] = pickle.loads(self.payload)
            _HOLDERS.setdefault(self.digest, set()).add(self.name)

    def teardown(self, worker: Any) -> None:
        with _LOCK:
            holders = _HOLDERS.get(self.digest, set())
            holders.discard(self.name)
            if not holders:
                _HOLDERS.pop(self.digest, None)
                _SHARED.pop(self.digest, None)


def _run_dask_batch(fn: Callable[[S, T], R], digest: str, batch: list[T]) -> tuple[list[R], float]:
    shared = _SHARED.get(digest)
    if shared is None:
        raise RunError("a Dask worker started the run's chunks before the run's tables reached it")
    return run_batch(fn, shared, batch)


def connect(address: str, timeout: float | None = None) -> Any:
    """A Dask client for the scheduler at ``address``, or one clear error within the timeout.

    Raises:
        InputError: the address is not a scheduler's, or the scheduler does not answer in time (also
            one that accepts the connection and never answers).
    """
    from distributed import Client

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
        raise InputError(f"cannot reach the Dask scheduler at {address}: {reason(box['error'])}")
    return box["client"]


def reason(e: BaseException) -> str:
    """An exception's first line, shortened, for a one-line message."""
    text = str(e).strip()
    return (text.splitlines()[0] if text else type(e).__name__)[:200]


def quiet_dask_logs() -> None:
    """Leave failures to our one line: distributed's own loggers otherwise print tracebacks to stderr
    (e.g. a CancelledError while closing the client of a scheduler that died mid-run)."""
    import logging

    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in ("distributed", "tornado", "asyncio")]
    for name in ("distributed", "tornado", "asyncio", *names):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


class WorkerWatch:
    """Whether the cluster has been left without a worker for longer than the run's wait."""

    def __init__(self, client: Any, scheduler: DaskScheduler) -> None:
        self.client, self.scheduler = client, scheduler
        self.alone_since: float | None = None

    def check(self) -> None:
        """Raises RunError once no worker has been connected for ``worker_wait`` seconds."""
        if self.client.nthreads():
            self.alone_since = None
            return
        now = time.monotonic()
        if self.alone_since is None:
            self.alone_since = now
            wait = self.scheduler.worker_wait
            sys.stderr.write(
                f"baccarat: note: no Dask worker is connected to {self.scheduler.address}; waiting up to {wait:g} s for one\n"
            )
        if now - self.alone_since >= self.scheduler.worker_wait:
            address, wait = self.scheduler.address, self.scheduler.worker_wait
            raise RunError(
                f"no Dask worker is left at {address}: none joined within {wait:g} s "
                f"(start one with 'dask worker {address}', or wait longer with --worker-wait SECONDS)"
            )


def run_on_dask(
    fn: Callable[[S, T], R], shared: S, indexed: Iterator[tuple[int, T] | Idle], scheduler: Scheduler
) -> Iterator[tuple[int, R]]:
    """:func:`solver.simulate.executor.map_shared` on a Dask cluster."""
    spec = scheduler if isinstance(scheduler, DaskScheduler) else DaskScheduler(scheduler)
    client = connect(spec.address)
    quiet_dask_logs()
    name = None
    try:
        from distributed import wait

        payload = pickle.dumps(shared, protocol=pickle.HIGHEST_PROTOCOL)
        digest = hashlib.sha256(payload).hexdigest()[:32]
        name = f"baccarat-shared-{digest}-{next(_PLUGINS)}"
        client.register_plugin(SharedValue(digest, payload, name), name=name)
        watch = WorkerWatch(client, spec)
        batches = Batches(DASK_BATCH_SECONDS)
        pending: dict[Any, list[int]] = {}
        while True:
            window = IN_FLIGHT_PER_WORKER * max(1, sum(client.nthreads().values()))
            while len(pending) < window:
                batch = batches.take(indexed)
                if not batch:
                    break
                for part in parts(batch):
                    f = client.submit(_run_dask_batch, fn, digest, [t for _, t in part], pure=False)
                    pending[f] = [i for i, _ in part]
            if not pending:
                if batches.exhausted:
                    break
                continue  # the source is idle and nothing is in flight: ask it again
            try:
                done, _ = wait(list(pending), timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
            except TimeoutError:
                done = set()
            if not done:
                watch.check()
                continue
            for f in done:
                indices = pending.pop(f)
                results, seconds = f.result()
                f.release()
                batches.record(seconds, len(indices))
                yield from zip(indices, results)
    except (KeyboardInterrupt, GeneratorExit, InputError, RunError):
        raise
    except Exception as e:  # the scheduler or a worker failed mid-run
        raise RunError(f"the Dask cluster at {spec.address} failed during the run: {reason(e)}") from None
    finally:
        try:
            if name is not None:
                client.unregister_worker_plugin(name)
        except Exception:  # a dead cluster has nothing left to unregister
            pass
        try:
            client.close(timeout=2)
        except Exception:  # closing a dead cluster must not hide what happened
            pass
