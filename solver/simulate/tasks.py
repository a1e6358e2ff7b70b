"""What the executors share (:mod:`solver.simulate.executor` for this process and local processes,
:mod:`solver.simulate.cluster` for Dask): tasks sent in batches sized from the time tasks take, the
function a worker runs on a batch, and where a run goes instead of local processes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Final, TypeVar

from solver.errors import InputError

T = TypeVar("T")
R = TypeVar("R")
S = TypeVar("S")

DEFAULT_WORKER_WAIT = 60.0
"""Seconds a Dask run waits while no worker is connected before it fails (``--worker-wait``)."""
IN_FLIGHT_PER_WORKER = 4  # batches queued per worker: memory stays flat however long the run
BATCH_SECONDS = 0.1
"""About this much CPU time of work is sent to a local worker at once (a few milliseconds of overhead a
batch)."""
DASK_BATCH_SECONDS = 0.5
"""About this much CPU time of work is sent to a Dask worker at once: a Dask task costs its worker some
5 ms of CPU besides the work (its messages, its state, its event loop), a twentieth of a batch of
:data:`BATCH_SECONDS`; measured on ``simulate --coups 1e8``, two workers cost 1.11 to 1.18 × the CPU of
one process with batches of 0.1 s, 1.07 × with 0.4 s (docs/benchmarks.md, "Scaling out")."""
MAX_BATCH = 64


@dataclass(frozen=True)
class DaskScheduler:
    """A Dask distributed scheduler to run on, and how long a run waits, in seconds, while no worker
    is connected before it fails (:data:`DEFAULT_WORKER_WAIT`)."""

    address: str
    worker_wait: float = DEFAULT_WORKER_WAIT

    def __post_init__(self) -> None:
        if not 0 <= self.worker_wait <= 10**7:
            raise InputError(f"--worker-wait takes seconds from 0 to 10^7, got {self.worker_wait:g}")

    def __str__(self) -> str:
        return self.address


Scheduler = str | DaskScheduler
"""Where a run goes instead of local processes: a scheduler's address, or a :class:`DaskScheduler`."""


class Idle:
    """The type of :data:`IDLE`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "IDLE"


IDLE: Final = Idle()
"""What a source of tasks yields when it has none ready yet (a stream still being written, such as
``baccarat punto --shoes -`` reading a live tracker): the executor stops taking tasks and hands back the
results in flight as they come, then asks again. A source yields it only after waiting a while for a task
(it is asked again at once when nothing is in flight); it takes no task's index."""


def numbered(tasks: Iterable[T | Idle]) -> Iterator[tuple[int, T] | Idle]:
    """The tasks with their indices 0, 1, …, and :data:`IDLE` where the source yields it."""
    i = 0
    for task in tasks:
        if isinstance(task, Idle):
            yield IDLE
        else:
            yield i, task
            i += 1


class Batches:
    """How many consecutive tasks go to a worker at once: about ``seconds`` of work (default
    :data:`BATCH_SECONDS`), from the time the tasks done so far took (at most :data:`MAX_BATCH`); one
    until a task has been timed. :attr:`exhausted` is set once the tasks are all taken."""

    def __init__(self, seconds: float = BATCH_SECONDS) -> None:
        self.batch_seconds = seconds
        self.seconds = 0.0
        self.tasks = 0
        self.exhausted = False

    def record(self, seconds: float, tasks: int) -> None:
        self.seconds += seconds
        self.tasks += tasks

    def size(self) -> int:
        if not self.tasks:
            return 1
        each = self.seconds / self.tasks
        return max(1, min(MAX_BATCH, int(self.batch_seconds / each) if each > 0 else MAX_BATCH))

    def take(self, numbered: Iterator[tuple[int, T] | Idle]) -> list[tuple[int, T]]:
        """The next batch of numbered tasks (:func:`numbered`): fewer where the source is idle
        (:data:`IDLE`) or ends (then :attr:`exhausted` is set); empty if no task is ready."""
        batch: list[tuple[int, T]] = []
        size = self.size()
        while len(batch) < size:
            item = next(numbered, None)
            if item is None:
                self.exhausted = True
                break
            if isinstance(item, Idle):
                break
            batch.append(item)
        return batch


def run_batch(fn: Callable[[S, T], R], shared: S, batch: list[T]) -> tuple[list[R], float]:
    """In a worker: every task of a batch, in order, and the CPU time they took."""
    start = time.process_time()
    out = [fn(shared, task) for task in batch]
    return out, time.process_time() - start
