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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from solver.deal.tree import N_DETAIL
from solver.errors import InputError
from solver.simulate import kernel
from solver.simulate.config import BURN_CODES, SimConfig
from solver.simulate.executor import default_workers, map_chunks, max_workers

if TYPE_CHECKING:
    pass

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

    ARRAYS: ClassVar[tuple[str, ...]] = (
        "pos_counts",
        "first_detail",
        "first_cards",
        "burn_winner",
        "moments",
        "first_pairs",
        "serial",
        "comp",
        "next_vec",
        "next_cc",
        "shoe_counts",
    )
    """The tallies the kernel adds to, in its order of arguments."""

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


def deal(config: SimConfig, n_shoes: int, rng: np.random.Generator, engine: str | None = None) -> Tallies:
    """Deal ``n_shoes`` shoes with one generator, in this process.

    ``engine``: one of :data:`solver.simulate.kernel.ENGINES` (``python`` is the slow reference and the
    simple loop); by default the C kernel. Every engine gives the same tallies for the same generator.
    """
    codes, value_of = config.kernel_cards()
    t = Tallies.zeros(config.max_coups)
    fn = kernel.engine(engine)
    ptab, btab = config.strategy.float_tables()  # fresh writable float arrays: one compiled signature
    comp_len, next_len = kernel.shoe_test_lengths(config.shoe.size) if config.shoe_tallies else (0, 0)
    # One coup a shoe (the cross-check's mode) never reaches the cut card: a shoe smaller than the
    # game's customary cut still deals it (the cut is only kept inside the shoe).
    cut = min(config.cut, config.shoe.size) if config.first_coup_only else config.cut
    coups = fn(
        codes,
        value_of,
        n_shoes,
        config.max_coups,
        ptab,
        btab,
        BURN_CODES[config.burn.mode],
        config.burn.count,
        cut,
        config.extra_coup,
        rng,
        *(getattr(t, name) for name in Tallies.ARRAYS),
        comp_len,
        next_len,
    )
    t.n_shoes, t.n_coups = n_shoes, int(coups)
    return t


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


def _run_chunk(task: tuple[SimConfig, int, np.random.SeedSequence]) -> Tallies:
    config, n_shoes, seed = task
    return deal(config, n_shoes, np.random.Generator(np.random.PCG64(seed)))


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
    tasks = ((config, n, child) for n, child in zip(chunk_sizes(config, n_shoes), chunk_seeds(seed)))
    total = Tallies.zeros(config.max_coups)

    def finished(t: Tallies) -> None:  # integer sums: the order chunks finish in does not matter
        total.add(t)
        if progress is not None:
            progress(total.n_shoes)

    fn = kernel.engine()  # the C kernel, or numba (compiled or loaded once, before the workers fork)
    n_workers = 1 if scheduler is not None else workers_used(config, n_shoes, workers)
    warm_up = None if fn is kernel.c_kernel() else (lambda: _warm_up(config))  # numba: compile once, before forking
    for _, t in map_chunks(_run_chunk, tasks, n_workers, scheduler, warm_up):
        finished(t)
    return total


def _warm_up(config: SimConfig) -> None:
    deal(config, 1, np.random.default_rng(0))
