"""Running a counting study: the kernel's inputs and seeded chunks, mapped over the simulator's
executor (:func:`solver.simulate.executor.map_chunks`).

Reproducibility, as in the simulator (:mod:`solver.simulate.run`): the work is cut into chunks of a
fixed number of shoes that depends only on the study (never on the number of workers), chunk ``i``
draws from ``Generator(PCG64(children[i]))`` with ``children = SeedSequence(seed).spawn(n_chunks)``,
and the chunks' tallies are added in chunk order (their float sums too), so one seed gives the same
result, bit for bit, in this process, on local processes, or on a Dask cluster. The kernel's tables
(:class:`Study`: the table, the compiled law, the bets) are built once in this process and sent once
to each worker, which keeps them for every chunk of the run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from solver.count import dealer
from solver.count.config import CountConfig
from solver.count.denselaw import use_float
from solver.count.inputs import Bets, Counts, Law, Table, kernel_structs
from solver.errors import InputError
from solver.simulate.executor import default_workers, map_shared
from solver.simulate.tasks import Scheduler

CHUNK_COUPS = 1 << 16
"""About this many coups per chunk."""


@dataclass
class CountTallies:
    """The kernel's tallies over a batch of shoes (see :mod:`solver.count.dealer`)."""

    n_shoes: int
    n_coups: int
    moments: np.ndarray
    hist: np.ndarray
    positive: np.ndarray
    ev_min: np.ndarray
    ev_max: np.ndarray
    depth_coups: np.ndarray
    depth_ev: np.ndarray
    depth_positive: np.ndarray

    @classmethod
    def zeros(cls, n_bets: int, n_cards: int) -> CountTallies:
        width = 2 + dealer.PER_BET * n_bets
        depths = n_cards // dealer.DEPTH + 1
        return cls(
            0,
            0,
            np.zeros((width, width)),
            np.zeros((n_bets, dealer.HIST_BINS), np.int64),
            np.zeros(n_bets, np.int64),
            np.full(n_bets, np.inf),
            np.full(n_bets, -np.inf),
            np.zeros(depths, np.int64),
            np.zeros((n_bets, depths)),
            np.zeros((n_bets, depths), np.int64),
        )

    def add(self, other: CountTallies) -> None:
        self.n_shoes += other.n_shoes
        self.n_coups += other.n_coups
        for name in ("moments", "hist", "positive", "depth_coups", "depth_ev", "depth_positive"):
            getattr(self, name).__iadd__(getattr(other, name))
        np.minimum(self.ev_min, other.ev_min, out=self.ev_min)
        np.maximum(self.ev_max, other.ev_max, out=self.ev_max)

    def counts(self) -> Counts:
        """The arrays as the kernel's struct (the same arrays: the kernel adds to these)."""
        return Counts(*(getattr(self, name) for name in Counts._fields))


@dataclass(frozen=True, eq=False)
class Study:
    """What every chunk of a study deals with: the kernel's structs (built once, sent once to each
    worker) and whether the kernel runs compiled."""

    table: Table
    law: Law
    bets: Bets
    compiled: bool = True

    @classmethod
    def of(cls, config: CountConfig, compiled: bool = True, route: str = "auto") -> Study:
        """The structs of a study (:func:`kernel_structs`); ``route`` chooses the exact law's kernel
        (:func:`solver.count.denselaw.use_float`, on the whole shoe); every route gives the same tallies."""
        table, law, bets = kernel_structs(config)
        dense = use_float(len(table.cards), route)  # the whole shoe: every composition dealt from it is smaller
        return cls(table, law._replace(dense_route=dense), bets, compiled)

    def deal(self, n_shoes: int, rng: np.random.Generator) -> CountTallies:
        """Deal ``n_shoes`` shoes with one generator, in this process."""
        t = CountTallies.zeros(len(self.bets.counted), len(self.table.cards))
        fn: Callable[..., int] = dealer.compiled() if self.compiled else dealer.deal_and_count
        t.n_shoes, t.n_coups = n_shoes, int(fn(self.table, self.law, self.bets, n_shoes, rng, t.counts()))
        return t


def deal(config: CountConfig, n_shoes: int, rng: np.random.Generator, compiled: bool = True, route: str = "auto") -> CountTallies:
    """Deal ``n_shoes`` shoes of a study with one generator, in this process.

    ``compiled=False`` runs the same kernel as plain Python (the reference; slow). ``route`` chooses the
    exact law's kernel (:func:`solver.count.denselaw.use_float`, on the whole shoe); every route gives
    the same tallies.
    """
    return Study.of(config, compiled, route).deal(n_shoes, rng)


def chunk_sizes(config: CountConfig, n_shoes: int) -> list[int]:
    """Shoes per chunk: a fixed size from the study alone, the last chunk taking the remainder."""
    size = max(1, int(CHUNK_COUPS / config.table.expected_coups_per_shoe()))
    full, rest = divmod(n_shoes, size)
    return [size] * full + ([rest] if rest else [])


def deal_chunk(study: Study, task: tuple[int, np.random.SeedSequence]) -> CountTallies:
    """One chunk of a study: ``n_shoes`` shoes from the chunk's seed."""
    n_shoes, seed = task
    return study.deal(n_shoes, np.random.Generator(np.random.PCG64(seed)))


def run_study(
    config: CountConfig,
    n_shoes: int,
    seed: int | np.random.SeedSequence = 0,
    workers: int | None = None,
    scheduler: Scheduler | None = None,
    progress: Callable[[int], None] | None = None,
) -> CountTallies:
    """Deal ``n_shoes`` shoes in seeded chunks over an executor; the result depends only on the seed.

    Args:
        config: the study.
        n_shoes: how many shoes.
        seed: an int or a SeedSequence.
        workers: local processes (default all cores; 1 runs in this process).
        scheduler: a Dask distributed scheduler (its address); overrides ``workers``.
        progress: called with the number of shoes done so far.
    """
    if n_shoes < 1:
        raise InputError("deal at least one shoe")
    sizes = chunk_sizes(config, n_shoes)
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    tasks = zip(sizes, ss.spawn(len(sizes)))
    total = CountTallies.zeros(len(config.bets), config.table.shoe.size)
    waiting: dict[int, CountTallies] = {}
    done = [0, 0]  # next chunk to add, shoes added

    def finished(i: int, t: CountTallies) -> None:  # add in chunk order: float sums are then reproducible
        waiting[i] = t
        while done[0] in waiting:
            part = waiting.pop(done[0])
            total.add(part)
            done[0] += 1
            done[1] += part.n_shoes
        if progress is not None:
            progress(done[1])

    study = Study.of(config)

    def warm_up() -> None:  # compile (or load) the kernel once, before any worker starts: they inherit it or load it
        study.deal(1, np.random.default_rng(0))

    n_workers = default_workers() if workers is None else workers
    n_workers = min(n_workers, len(sizes)) if n_workers >= 1 else n_workers  # below 1: map_shared refuses it
    for i, t in map_shared(deal_chunk, study, tasks, n_workers, scheduler, warm_up):
        finished(i, t)
    return total
