"""Running a counting study: the kernel's inputs and seeded chunks, mapped over the simulator's
executor (:func:`solver.simulate.executor.map_chunks`).

Reproducibility, as in the simulator (:mod:`solver.simulate.run`): the work is cut into chunks of a
fixed number of shoes that depends only on the study (never on the number of workers), chunk ``i``
draws from ``Generator(PCG64(children[i]))`` with ``children = SeedSequence(seed).spawn(n_chunks)``,
and the chunks' tallies are added in chunk order (their float sums too), so one seed gives the same
result, bit for bit, in this process, on local processes, or on a Dask cluster.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver.count import dealer
from solver.count.config import CountConfig, first_card_tables
from solver.count.denselaw import use_float
from solver.count.fastlaw import FastLaw, fast_law
from solver.deal.outcome import Outcomes
from solver.errors import InputError
from solver.punto.bet import tier_index
from solver.rules.tableau import PUNTO_BANCO
from solver.simulate.executor import default_workers, map_chunks

CHUNK_COUPS = 1 << 16
"""About this many coups per chunk."""

N_DETAIL_CODES = 10 * 10 * 11 * 11 * 10
_BURN = {"none": dealer.BURN_NONE, "fixed": dealer.BURN_FIXED, "turn": dealer.BURN_TURN}


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


@dataclass(frozen=True, eq=False)
class KernelInputs:
    """Everything the kernel needs that does not change from shoe to shoe."""

    cards: np.ndarray
    value_of: np.ndarray
    rank_of: np.ndarray
    suit_of: np.ndarray
    law: FastLaw
    detail_tier: np.ndarray
    tier_pays: np.ndarray
    first_mult: np.ndarray
    first_scale: np.ndarray
    first_pays: np.ndarray
    use_suits: bool
    tags: np.ndarray
    threshold_num: np.ndarray
    threshold_den: np.ndarray
    counted: np.ndarray


@lru_cache(maxsize=8)
def kernel_inputs(config: CountConfig) -> KernelInputs:
    """The kernel's shoe-independent inputs for a study (cached)."""
    ordered = config.ordered
    coup = tuple(b for b, _ in ordered if not b.first_cards)
    first = tuple(b for b, _ in ordered if b.first_cards)
    law = fast_law(coup, PUNTO_BANCO, winner=False)
    rows = Outcomes.from_keys(np.arange(N_DETAIL_CODES))
    detail_tier = np.zeros((max(len(coup), 1), N_DETAIL_CODES), dtype=np.int64)
    most = max((len(b.tiers) for b in coup), default=0)
    tier_pays = np.full((max(len(coup), 1), most + 1), -1.0)
    for j, bet in enumerate(coup):
        detail_tier[j] = tier_index(bet, rows)
        for i, t in enumerate(bet.tiers):
            tier_pays[j, i] = float(t.pays)
        tier_pays[j, len(bet.tiers) :] = -1.0
    suits = config.type_level == "suit"
    first_mult, first_scale, first_pays = first_card_tables(first, suits)
    cards, value_of, rank_of, suit_of = config.card_types()
    counts = [c for _, c in ordered]
    num = np.array([c.threshold.numerator if c else 0 for c in counts], dtype=np.int64)
    den = np.array([c.threshold.denominator if c else 1 for c in counts], dtype=np.int64)
    counted = np.array([c is not None for c in counts], dtype=np.bool_)
    return KernelInputs(
        cards,
        value_of,
        rank_of,
        suit_of,
        law,
        detail_tier,
        tier_pays,
        first_mult,
        first_scale,
        first_pays,
        suits,
        config.tag_matrix(),
        num,
        den,
        counted,
    )


def deal(config: CountConfig, n_shoes: int, rng: np.random.Generator, compiled: bool = True, route: str = "auto") -> CountTallies:
    """Deal ``n_shoes`` shoes of a study with one generator, in this process.

    ``compiled=False`` runs the same kernel as plain Python (the reference; slow). ``route`` chooses the
    exact law's kernel (:func:`solver.count.denselaw.use_float`, on the whole shoe); every route gives
    the same tallies.
    """
    k = kernel_inputs(config)
    dense = use_float(len(k.cards), route)  # the whole shoe: every composition dealt from it is smaller
    t = CountTallies.zeros(len(config.bets), len(k.cards))
    fn: Callable[..., int] = dealer.compiled() if compiled else dealer.deal_and_count
    table = config.table
    law = k.law
    ptab, btab = table.strategy.float_tables()
    coups = fn(
        k.cards.copy(),
        k.value_of,
        k.rank_of,
        k.suit_of,
        n_shoes,
        table.max_coups,
        _BURN[table.burn.mode],
        table.burn.count,
        table.cut,
        table.extra_coup,
        rng,
        ptab,
        btab,
        config.knowledge == "unseen",
        config.decks == "unseen",
        *law.arguments(),
        law.residual,
        law.multiplier,
        law.scale,
        dense,
        law.dense.nodes,
        *law.dense.arguments(),
        k.detail_tier,
        k.tier_pays,
        k.first_mult,
        k.first_scale,
        k.first_pays,
        k.use_suits,
        k.tags,
        k.threshold_num,
        k.threshold_den,
        k.counted,
        t.moments,
        t.hist,
        t.positive,
        t.ev_min,
        t.ev_max,
        t.depth_coups,
        t.depth_ev,
        t.depth_positive,
    )
    t.n_shoes, t.n_coups = n_shoes, int(coups)
    return t


def chunk_sizes(config: CountConfig, n_shoes: int) -> list[int]:
    """Shoes per chunk: a fixed size from the study alone, the last chunk taking the remainder."""
    size = max(1, int(CHUNK_COUPS / config.table.expected_coups_per_shoe()))
    full, rest = divmod(n_shoes, size)
    return [size] * full + ([rest] if rest else [])


def _run_chunk(task: tuple[CountConfig, int, np.random.SeedSequence]) -> CountTallies:
    config, n_shoes, seed = task
    return deal(config, n_shoes, np.random.Generator(np.random.PCG64(seed)))


def run_study(
    config: CountConfig,
    n_shoes: int,
    seed: int | np.random.SeedSequence = 0,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> CountTallies:
    """Deal ``n_shoes`` shoes in seeded chunks over an executor; the result depends only on the seed.

    Args:
        config: the study.
        n_shoes: how many shoes.
        seed: an int or a SeedSequence.
        workers: local processes (default all cores; 1 runs in this process).
        scheduler: address of a Dask distributed scheduler; overrides ``workers``.
        progress: called with the number of shoes done so far.
    """
    if n_shoes < 1:
        raise InputError("deal at least one shoe")
    sizes = chunk_sizes(config, n_shoes)
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    tasks = ((config, n, child) for n, child in zip(sizes, ss.spawn(len(sizes))))
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

    def warm_up() -> None:  # compile (or load) the kernel once, before any worker process forks
        deal(config, 1, np.random.default_rng(0))

    n_workers = default_workers() if workers is None else workers
    n_workers = min(n_workers, len(sizes)) if n_workers >= 1 else n_workers  # below 1: map_chunks refuses it
    for i, t in map_chunks(_run_chunk, tasks, n_workers, scheduler, warm_up):
        finished(i, t)
    return total
