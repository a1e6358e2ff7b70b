"""Splitting a simulation into seeded chunks and mapping them over an executor.

Reproducibility: the work is cut into chunks of a fixed number of shoes that depends only on the
table (never on the number of workers), chunk ``i`` draws from ``Generator(PCG64(children[i]))`` with
``children = SeedSequence(seed).spawn(n_chunks)``, and every tally is an integer sum. So the same
seed gives the same result, bit for bit, on one worker, on many, or on a Dask cluster.

Executors (:mod:`solver.simulate.executor`): in this process (``workers=1``), local processes (the
default, one per core), or an existing Dask ``distributed`` scheduler (``scheduler="tcp://host:8786"``;
the optional extra ``baccarat-solver[dask]``, imported only then; the workers need this package). The
kernel's table (:class:`Dealer`: the cards, the draw tables, the engine) is built once in this process
and sent once to each worker, which keeps it for every chunk of the run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from solver.deal.tree import N_DETAIL
from solver.errors import InputError
from solver.simulate import engines, kernel
from solver.simulate.config import SimConfig
from solver.simulate.executor import default_workers, map_shared, max_workers
from solver.simulate.tasks import Scheduler

CHUNK_COUPS = 1 << 19
"""About this many coups per chunk (a few tens of milliseconds of work)."""

MIN_CHUNKS_PER_PROCESS = 2
"""A worker process is started for every this many chunks, at most: a run of a few chunks (a million
coups or so, tens of milliseconds of dealing) is dealt sooner, and with less CPU, in this process
than in processes that must first start."""


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
    first_pairs: np.ndarray
    serial: np.ndarray
    comp: np.ndarray
    next_vec: np.ndarray
    next_cc: np.ndarray
    shoe_counts: np.ndarray

    ARRAYS: ClassVar[tuple[str, ...]] = kernel.Counts._fields
    """The tallies the kernel adds to (:class:`solver.simulate.kernel.Counts`)."""

    @classmethod
    def zeros(cls, max_coups: int) -> Tallies:
        codes = kernel.N_CODES
        return cls(
            0,
            0,
            np.zeros((max_coups, 3), np.int64),
            np.zeros(N_DETAIL, np.int64),
            np.zeros(10, np.int64),
            np.zeros((11, 3), np.int64),
            np.zeros((kernel.N_MOMENTS,) * 2, np.int64),
            np.zeros(7, np.int64),
            np.zeros((3, 3), np.int64),
            np.zeros((2, codes), np.int64),
            np.zeros((4, codes), np.int64),
            np.zeros((codes, codes), np.int64),
            np.zeros(kernel.N_SHOE_COUNTS, np.int64),
        )

    def add(self, other: Tallies) -> None:
        self.n_shoes += other.n_shoes
        self.n_coups += other.n_coups
        for name in self.ARRAYS:
            getattr(self, name).__iadd__(getattr(other, name))

    def counts(self) -> kernel.Counts:
        """The arrays as the kernel's struct (the same arrays: the kernel adds to these)."""
        return kernel.Counts(*(getattr(self, name) for name in self.ARRAYS))


Engine = str | Callable[[kernel.Table, int, np.random.Generator, kernel.Counts], int]
"""A dealing engine: a name of :data:`solver.simulate.engines.ENGINES`, or a function with the kernel's
arguments (``deal_shoes(table, n_shoes, rng, counts)``; the tests' faulty engines are such functions)."""


@dataclass(frozen=True, eq=False)
class Dealer:
    """What every chunk of a run deals with: the kernel's table and engine (built once, sent once to
    each worker)."""

    table: kernel.Table
    engine: Engine

    @classmethod
    def of(cls, config: SimConfig, engine: Engine | None = None) -> Dealer:
        """The dealer of a table: by default the C kernel, or numba where it was not built (said once)."""
        return cls(config.kernel_table(), engines.resolve(engine) if not callable(engine) else engine)

    def deal(self, n_shoes: int, rng: np.random.Generator) -> Tallies:
        """Deal ``n_shoes`` shoes with one generator, in this process."""
        t = Tallies.zeros(self.table.max_coups)
        fn = self.engine if callable(self.engine) else engines.engine(self.engine)
        t.n_shoes, t.n_coups = n_shoes, int(fn(self.table, n_shoes, rng, t.counts()))
        return t


def deal(config: SimConfig, n_shoes: int, rng: np.random.Generator, engine: Engine | None = None) -> Tallies:
    """Deal ``n_shoes`` shoes with one generator, in this process.

    ``engine``: one of :data:`solver.simulate.engines.ENGINES` (``python`` is the slow reference and the
    simple loop), or a function with the kernel's arguments; by default the C kernel. Every engine of
    :data:`~solver.simulate.engines.ENGINES` gives the same tallies for the same generator.
    """
    return Dealer.of(config, engine).deal(n_shoes, rng)


def chunk_size(config: SimConfig) -> int:
    """Shoes per chunk: a fixed size from the table alone (never from the number of workers)."""
    return max(1, int(CHUNK_COUPS / config.expected_coups_per_shoe()))


def chunk_count(config: SimConfig, n_shoes: int) -> int:
    """How many chunks ``n_shoes`` shoes are cut into."""
    return -(-n_shoes // chunk_size(config))


def chunk_sizes(config: SimConfig, n_shoes: int) -> Iterator[int]:
    """Shoes per chunk, lazily (a run of any length costs no memory up front): full chunks, the last
    taking the remainder."""
    size = chunk_size(config)
    full, rest = divmod(n_shoes, size)
    for _ in range(full):
        yield size
    if rest:
        yield rest


def chunk_seeds(seed: int | np.random.SeedSequence) -> Iterator[np.random.SeedSequence]:
    """The chunks' seeds, lazily: exactly the children ``SeedSequence(seed).spawn(n)`` would make
    (child ``i`` has spawn key ``(i,)`` after the parent's), without making a list of them."""
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    first = ss.n_children_spawned
    i = first
    while True:
        yield np.random.SeedSequence(ss.entropy, spawn_key=(*ss.spawn_key, i), pool_size=ss.pool_size)
        i += 1


def shoes_for_coups(config: SimConfig, coups: int) -> int:
    """The number of whole shoes that deal about ``coups`` coups."""
    return max(1, math.ceil(coups / config.expected_coups_per_shoe()))


def deal_chunk(dealer: Dealer, task: tuple[int, np.random.SeedSequence]) -> Tallies:
    """One chunk of a run: ``n_shoes`` shoes from the chunk's seed."""
    n_shoes, seed = task
    return dealer.deal(n_shoes, np.random.Generator(np.random.PCG64(seed)))


def workers_used(config: SimConfig, n_shoes: int, workers: int | None = None) -> int:
    """The local processes a run of ``n_shoes`` shoes deals in: ``workers`` (default
    :func:`default_workers`, at most :func:`max_workers`), but no more than one per
    :data:`MIN_CHUNKS_PER_PROCESS` chunks."""
    n = default_workers() if workers is None else workers
    if n < 1:
        raise InputError(f"--workers must be at least 1, got {n}")
    n = min(n, max_workers())
    return max(1, min(n, chunk_count(config, n_shoes) // MIN_CHUNKS_PER_PROCESS))


def run_tallies(
    config: SimConfig,
    n_shoes: int,
    seed: int | np.random.SeedSequence = 0,
    workers: int | None = None,
    scheduler: Scheduler | None = None,
    progress: Callable[[int], None] | None = None,
    engine: Engine | None = None,
) -> Tallies:
    """Deal ``n_shoes`` shoes in seeded chunks over an executor; the result depends only on the seed.

    Args:
        config: the table.
        n_shoes: how many shoes.
        seed: an int or a SeedSequence.
        workers: local processes (default all cores; 1 runs in this process); see :func:`workers_used`.
        scheduler: a Dask distributed scheduler (its address); overrides ``workers``.
        progress: called with the number of shoes done so far.
        engine: the dealing engine (see :func:`deal`).
    """
    if n_shoes < 1:
        raise InputError("deal at least one shoe")
    tasks = zip(chunk_sizes(config, n_shoes), chunk_seeds(seed))
    total = Tallies.zeros(config.max_coups)

    def finished(t: Tallies) -> None:  # integer sums: the order chunks finish in does not matter
        total.add(t)
        if progress is not None:
            progress(total.n_shoes)

    dealer = Dealer.of(config, engine)
    n_workers = 1 if scheduler is not None else workers_used(config, n_shoes, workers)
    # numba: compiled (or loaded) once in this process, before the workers start: they inherit it or load it
    warm_up = (lambda: dealer.deal(1, np.random.default_rng(0))) if dealer.engine == "numba" else None
    for _, t in map_shared(deal_chunk, dealer, tasks, n_workers, scheduler, warm_up):
        finished(t)
    return total
