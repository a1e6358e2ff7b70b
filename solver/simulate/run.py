"""Splitting a simulation into seeded chunks and mapping them over an executor.

Reproducibility: the work is cut into chunks of a fixed number of shoes that depends only on the
table (never on the number of workers), chunk ``i`` draws from ``Generator(PCG64(children[i]))`` with
``children = SeedSequence(seed).spawn(n_chunks)``, and every tally is an integer sum. So the same
seed gives the same result, bit for bit, on one worker, on many, or on a Dask cluster.

Executors: in this process (``workers=1``), local processes (``concurrent.futures``, the default,
one per core), or an existing Dask ``distributed`` scheduler (``scheduler="tcp://host:8786"``;
the optional extra ``baccarat-solver[dask]``, imported only then; the workers need this package).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING

import numpy as np

from solver.errors import InputError
from solver.simulate import kernel
from solver.simulate.config import SimConfig

if TYPE_CHECKING:
    from concurrent.futures import Future

CHUNK_COUPS = 1 << 19
"""About this many coups per chunk (a few tens of milliseconds of work)."""

MIN_CHUNKS_PER_PROCESS = 2
"""A worker process is started for every this many chunks, at most: a run of a few chunks (a million
coups or so, tens of milliseconds of dealing) is dealt sooner, and with less CPU, in this process
than in processes that must first start."""

DASK_CONNECT_TIMEOUT = "10s"
IN_FLIGHT_PER_WORKER = 4  # chunks queued per worker: memory stays flat however long the run

_BURN_CODES = {"none": kernel.BURN_NONE, "fixed": kernel.BURN_FIXED, "turn": kernel.BURN_TURN,
               "turn-redeal": kernel.BURN_TURN_REDEAL}


@dataclass
class Tallies:
    """Integer tallies of a batch of shoes (see :mod:`solver.simulate.kernel` for their meaning)."""

    n_shoes: int
    n_coups: int
    pos_counts: np.ndarray
    first_detail: np.ndarray
    first_cards: np.ndarray
    burn_winner: np.ndarray
    moments: np.ndarray

    @classmethod
    def zeros(cls, max_coups: int) -> Tallies:
        return cls(0, 0, np.zeros((max_coups, 3), np.int64), np.zeros(kernel.N_DETAIL, np.int64),
                   np.zeros(10, np.int64), np.zeros((11, 3), np.int64), np.zeros((kernel.N_MOMENTS,) * 2, np.int64))

    def add(self, other: Tallies) -> None:
        self.n_shoes += other.n_shoes
        self.n_coups += other.n_coups
        for name in ("pos_counts", "first_detail", "first_cards", "burn_winner", "moments"):
            getattr(self, name).__iadd__(getattr(other, name))


def deal(config: SimConfig, n_shoes: int, rng: np.random.Generator, engine: str | None = None) -> Tallies:
    """Deal ``n_shoes`` shoes with one generator, in this process.

    ``engine``: one of :data:`solver.simulate.kernel.ENGINES` (``python`` is the slow reference and the
    simple loop); by default the C kernel. Every engine gives the same tallies for the same generator.
    """
    codes, value_of = config.kernel_cards()
    t = Tallies.zeros(config.max_coups)
    fn = kernel.engine(engine)
    ptab, btab = config.strategy.float_tables()  # fresh writable float arrays: one compiled signature
    coups = fn(codes, value_of, n_shoes, config.max_coups, ptab, btab,
               _BURN_CODES[config.burn.mode], config.burn.count, config.cut, config.extra_coup, rng,
               t.pos_counts, t.first_detail, t.first_cards, t.burn_winner, t.moments)
    t.n_shoes, t.n_coups = n_shoes, int(coups)
    return t


def chunk_sizes(config: SimConfig, n_shoes: int) -> list[int]:
    """Shoes per chunk: a fixed size from the table alone, the last chunk taking the remainder."""
    size = max(1, int(CHUNK_COUPS / config.expected_coups_per_shoe()))
    full, rest = divmod(n_shoes, size)
    return [size] * full + ([rest] if rest else [])


def shoes_for_coups(config: SimConfig, coups: int) -> int:
    """The number of whole shoes that deal about ``coups`` coups."""
    return max(1, math.ceil(coups / config.expected_coups_per_shoe()))


def _run_chunk(task: tuple[SimConfig, int, np.random.SeedSequence]) -> Tallies:
    config, n_shoes, seed = task
    return deal(config, n_shoes, np.random.Generator(np.random.PCG64(seed)))


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def workers_used(config: SimConfig, n_shoes: int, workers: int | None = None) -> int:
    """The local processes a run of ``n_shoes`` shoes deals in: ``workers`` (default
    :func:`default_workers`), but no more than one per :data:`MIN_CHUNKS_PER_PROCESS` chunks."""
    n = default_workers() if workers is None else workers
    if n < 1:
        raise InputError(f"--workers must be at least 1, got {n}")
    return max(1, min(n, len(chunk_sizes(config, n_shoes)) // MIN_CHUNKS_PER_PROCESS))


def run_tallies(
    config: SimConfig,
    n_shoes: int,
    seed: int | np.random.SeedSequence = 0,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Tallies:
    """Deal ``n_shoes`` shoes in seeded chunks over an executor; the result depends only on the seed.

    Args:
        config: the table.
        n_shoes: how many shoes.
        seed: an int or a SeedSequence.
        workers: local processes (default all cores; 1 runs in this process); see :func:`workers_used`.
        scheduler: address of a Dask distributed scheduler; overrides ``workers``.
        progress: called with the number of shoes done so far.
    """
    if n_shoes < 1:
        raise InputError("deal at least one shoe")
    sizes = chunk_sizes(config, n_shoes)
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    tasks = ((config, n, child) for n, child in zip(sizes, ss.spawn(len(sizes))))
    total = Tallies.zeros(config.max_coups)

    def finished(t: Tallies) -> None:  # integer sums: the order chunks finish in does not matter
        total.add(t)
        if progress is not None:
            progress(total.n_shoes)

    fn = kernel.engine()  # the C kernel, or numba (compiled or loaded once, before the workers fork)
    if scheduler is not None:
        _run_dask(scheduler, tasks, finished)
        return total
    n_workers = workers_used(config, n_shoes, workers)
    if n_workers == 1:
        for task in tasks:
            finished(_run_chunk(task))
        return total
    if fn is not kernel.c_kernel():
        _warm_up(config)  # numba compiles (or loads) per signature: once, before the workers fork
    import multiprocessing  # only here: a run in this process needs neither (nor pickle)
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(n_workers, mp_context=ctx) as ex:
        pending: set[Future[Tallies]] = set()
        while True:
            for task in islice(tasks, IN_FLIGHT_PER_WORKER * n_workers - len(pending)):
                pending.add(ex.submit(_run_chunk, task))
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                finished(f.result())
    return total


def _warm_up(config: SimConfig) -> None:
    deal(config, 1, np.random.default_rng(0))


def _run_dask(address: str, tasks: Iterator[tuple[SimConfig, int, np.random.SeedSequence]],
              finished: Callable[[Tallies], None]) -> None:
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise InputError("--scheduler needs Dask's distributed scheduler: pip install 'baccarat-solver[dask]'") from None
    try:
        client = Client(address, timeout=DASK_CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as e:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    try:
        window = IN_FLIGHT_PER_WORKER * max(1, sum(client.ncores().values()))
        running = dask_completed([client.submit(_run_chunk, t, pure=False) for t in islice(tasks, window)])
        for f in running:
            finished(f.result())
            f.release()
            for t in islice(tasks, 1):
                running.add(client.submit(_run_chunk, t, pure=False))
    finally:
        client.close()
