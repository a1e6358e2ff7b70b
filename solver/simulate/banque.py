"""Simulating baccara banque: real shoes dealt to two tableaux and one banker, with estimates.

A :class:`BanqueTable` is the table (shoe, the players' and the banker's draw tables, the stake share
θ, the cagnotte τ, burn and cut card); :func:`simulate_banque` deals it in seeded chunks over the
simulator's executors (:func:`solver.simulate.executor.map_chunks`, the chunk seeds of
:func:`solver.simulate.run.chunk_seeds`: the same seed gives the same tallies on any number of
workers) with the kernel of :mod:`solver.simulate.banque_kernel`.

Settlement. The banker's result of a coup per unit of total stake is ``X = θ R1 + (1 − θ) R2``
(R1, R2 his results against tableau 1 and 2: 1, 0 or −1), less the cagnotte ``τ max(0, X)`` on his
net win of the coup, the two tableaux netted (:func:`solver.banque.game.banker_payoff`). It is a
function of the joint outcome, so the engine settles through a vector over the nine joint outcomes
(:attr:`BanqueTable.settlement`; a wrong vector models an engine that settles wrongly).

Estimates (:class:`BanqueSimResult`), each with its standard error, as for the other games
(:mod:`solver.simulate.stats`): the first coup of each shoe (an i.i.d. sample whose law is exactly the
enumerator's), every coup (the ratio estimator over shoes, Cochran §6.4), and the cut-card effect
between them (against the exact first-coup value when given).

>>> import numpy as np
>>> from solver.cards import Shoe
>>> t = BanqueTable(Shoe.decks(6), chemin_draws(), first_coup_only=True)
>>> r = simulate_banque(t, shoes=2000, seed=1, workers=1)
>>> r.n_shoes, r.n_coups, int(r.tallies.first_cards.sum())
(2000, 2000, 12000)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

import numpy as np

from solver.banque.deal import OUTCOMES
from solver.banque.game import RESULT_1, RESULT_2, banker_payoff
from solver.cards import Shoe
from solver.errors import InputError, ModelError
from solver.exact.numbers import exact
from solver.simulate import banque_kernel as bk
from solver.simulate.config import MAX_CARDS, Burn
from solver.simulate.executor import default_workers, map_shared
from solver.simulate.run import CHUNK_COUPS, MIN_CHUNKS_PER_PROCESS, chunk_seeds
from solver.simulate.stats import DEFAULT_LEVEL, Estimate, ShoeMoments
from solver.simulate.tasks import Scheduler

DEFAULT_CUT = 10
"""Cards behind the cut card at baccara banque (the seed's rule sheet: before the tenth card from the end)."""
MIN_CUT = 9
"""A banque coup may need nine cards: the cut card leaves at least that many, for the coup in progress."""
MAX_TAX = Fraction(1, 10)

FUNCTIONALS = ("banker", "tableau1", "tableau2")
"""What the estimates measure: the banker's net result per unit of total stake (as the engine settles),
and his result against tableau 1 and against tableau 2 (R1, R2; each player's result is minus it)."""


@dataclass(frozen=True, eq=False)
class BanqueDraws:
    """The three sides' draw probabilities, indexed by cards, as the kernel reads them (floats).

    Attributes:
        name: what strategy this is.
        lam: the team's atoms' probabilities (one atom, probability 1, for independent choices).
        p1: per atom, Player 1's probability of drawing with cards (a, b): shape (atoms, 10, 10).
        p2: per atom, Player 2's with cards (a, b) having seen s1 of tableau 1: (atoms, 10, 10, 12).
        banker: the banker's with cards (a, b) having seen s1 and s2: (10, 10, 12, 12).
    """

    name: str
    lam: np.ndarray
    p1: np.ndarray
    p2: np.ndarray
    banker: np.ndarray

    def __post_init__(self) -> None:
        k = len(self.lam)
        shapes = ((self.p1, (k, 10, 10)), (self.p2, (k, 10, 10, 12)), (self.banker, (10, 10, 12, 12)))
        if k < 1 or any(np.shape(a) != s for a, s in shapes):
            raise ModelError("draw tables of shapes (atoms, 10, 10), (atoms, 10, 10, 12) and (10, 10, 12, 12) were expected")
        if abs(float(np.sum(self.lam)) - 1) > 1e-12 or np.any(np.asarray(self.lam) < 0):
            raise ModelError("the atoms' probabilities must be non-negative and sum to 1")

    def kernel_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(cumulative λ, p1, p2, banker) as fresh contiguous float64 arrays (one compiled signature)."""
        lam_cum = np.cumsum(np.asarray(self.lam, dtype=np.float64))
        p1, p2, banker = (np.ascontiguousarray(a, dtype=np.float64) for a in (self.p1, self.p2, self.banker))
        return lam_cum, p1, p2, banker


def chemin_draws() -> BanqueDraws:
    """Chemin de fer's casino tableau on each tableau, players drawing at 5 and the banker voting
    with the live tableaux, drawing where they conflict: a simple fixed strategy (for tests and examples)."""
    from solver.rules.tableau import CHEMIN_CASINO, Action

    p1 = np.zeros((1, 10, 10))
    for a in range(10):
        for b in range(10):
            p1[0, a, b] = 1.0 if (a + b) % 10 <= 5 else 0.0
    p2 = np.repeat(p1[:, :, :, None], 12, axis=3)
    banker = np.zeros((10, 10, 12, 12))
    for a in range(10):
        for b in range(10):
            if (a + b) % 10 >= 8:
                continue
            for s1 in range(12):
                for s2 in range(12):
                    live = [s for s in (s1, s2) if s != bk.NATURAL]
                    votes = [CHEMIN_CASINO.banker_action((a + b) % 10, s) for s in live]
                    banker[a, b, s1, s2] = 1.0 if any(v is not Action.STAND for v in votes) else 0.0
    return BanqueDraws("chemin de fer's casino tableau on each tableau", np.ones(1), p1, p2, banker)


@dataclass(frozen=True, eq=False)
class BanqueTable:
    """One simulated baccara banque table.

    Attributes:
        shoe: the starting composition (finite).
        draws: the draw tables dealt.
        theta: tableau 1's share of the total stake; ``tax``: the cagnotte on the banker's net win.
        burn, cut: the burn at the start of each shoe and the cards behind the cut card.
        first_coup_only: one coup per freshly shuffled shoe (the law of each is exactly the enumerator's).
        settlement: the banker's net result per unit of total stake by joint outcome, as the engine settles
            (default :func:`solver.banque.game.banker_payoff`); a wrong one models a wrongly settling engine.
    """

    shoe: Shoe
    draws: BanqueDraws
    theta: Fraction = Fraction(1, 2)
    tax: Fraction = Fraction(0)
    burn: Burn = Burn()
    cut: int = DEFAULT_CUT
    first_coup_only: bool = False
    settlement: tuple[Fraction, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.shoe.is_infinite:
            raise ModelError("the simulator deals physical shoes: give a finite shoe (an infinite deck has no cut card)")
        if self.shoe.size > MAX_CARDS:
            raise ModelError(f"the simulator deals shoes of at most {MAX_CARDS:,} cards (1,000 decks)")
        theta, tax = exact(self.theta, "theta"), exact(self.tax, "the tax")
        if not 0 < theta < 1:
            raise ModelError(f"theta (tableau 1's share of the stake) must lie strictly between 0 and 1, got {theta}")
        if not 0 <= tax <= MAX_TAX:
            raise ModelError(f"the tax must lie in [0, 1/10], got {tax}")
        object.__setattr__(self, "theta", theta)
        object.__setattr__(self, "tax", tax)
        if not self.settlement:
            object.__setattr__(self, "settlement", banker_payoff(theta, tax))
        n = self.shoe.size
        if self.first_coup_only:
            if self.burn.most + 9 > n:
                raise ModelError(f"a shoe of {n} cards cannot hold a burn of up to {self.burn.most} and a banque coup")
        else:
            if self.cut < MIN_CUT:
                raise ModelError(
                    f"the cut card must leave at least {MIN_CUT} cards behind it (a banque coup in "
                    f"progress may need nine), got {self.cut}"
                )
            if self.cut + self.burn.most + 1 > n:
                raise ModelError(f"a shoe of {n} cards cannot hold a burn of up to {self.burn.most} and a cut at {self.cut}")

    @property
    def max_coups(self) -> int:
        return 1 if self.first_coup_only else self.shoe.size // 6 + 1

    def expected_coups_per_shoe(self) -> float:
        """A rough size of a shoe in coups (about 7.4 cards a coup), used only to plan the work."""
        if self.first_coup_only:
            return 1.0
        return max(1.0, (self.shoe.size - self.cut - self.burn.mean) / 7.4 + 0.5)

    def vector(self, name: str) -> tuple[Fraction, ...]:
        """A functional of :data:`FUNCTIONALS` as its value by joint outcome."""
        return {"banker": self.settlement, "tableau1": RESULT_1, "tableau2": RESULT_2}[name]

    def describe(self) -> dict[str, object]:
        return {
            "game": "banque",
            "shoe": self.shoe.spec(),
            "strategy": self.draws.name,
            "theta": str(self.theta),
            "tax": str(self.tax),
            "burn": self.burn.label(),
            "cut": None if self.first_coup_only else self.cut,
            "first_coup_only": self.first_coup_only,
        }


@dataclass
class BanqueTallies:
    """Integer tallies of a batch of banque shoes (see :mod:`solver.simulate.banque_kernel`)."""

    n_shoes: int
    n_coups: int
    pos_counts: np.ndarray
    first_detail: np.ndarray
    first_cards: np.ndarray
    moments: np.ndarray

    ARRAYS: ClassVar[tuple[str, ...]] = bk.BanqueCounts._fields

    @classmethod
    def zeros(cls, max_coups: int) -> BanqueTallies:
        return cls(
            0,
            0,
            np.zeros((max_coups, 9), np.int64),
            np.zeros(bk.N_DETAIL, np.int64),
            np.zeros(10, np.int64),
            np.zeros((bk.N_MOMENTS,) * 2, np.int64),
        )

    def add(self, other: BanqueTallies) -> None:
        self.n_shoes += other.n_shoes
        self.n_coups += other.n_coups
        for name in self.ARRAYS:
            getattr(self, name).__iadd__(getattr(other, name))

    def counts(self) -> bk.BanqueCounts:
        """The arrays as the kernel's struct (the same arrays: the kernel adds to these)."""
        return bk.BanqueCounts(*(getattr(self, name) for name in self.ARRAYS))


def kernel_table(table: BanqueTable) -> bk.BanqueKernelTable:
    """What the banque kernel deals for a table (fresh contiguous arrays: one compiled signature)."""
    values = np.repeat(np.arange(10, dtype=np.int64), table.shoe.values)
    lam_cum, p1, p2, banker = table.draws.kernel_arrays()
    burn = table.burn
    return bk.BanqueKernelTable(
        values, table.max_coups, lam_cum, p1, p2, banker, burn.mode.code, burn.count, table.cut, table.first_coup_only
    )


@dataclass(frozen=True, eq=False)
class BanqueDealer:
    """What every chunk of a banque run deals with: the kernel's table and engine (built once, sent
    once to each worker)."""

    table: bk.BanqueKernelTable
    engine: str

    def deal(self, n_shoes: int, rng: np.random.Generator) -> BanqueTallies:
        t = BanqueTallies.zeros(self.table.max_coups)
        t.n_shoes, t.n_coups = n_shoes, int(bk.engine(self.engine)(self.table, n_shoes, rng, t.counts()))
        return t


def deal_banque(table: BanqueTable, n_shoes: int, rng: np.random.Generator, engine: str | None = None) -> BanqueTallies:
    """Deal ``n_shoes`` shoes with one generator, in this process (``engine``: numba or python)."""
    return BanqueDealer(kernel_table(table), engine or "numba").deal(n_shoes, rng)


def _chunks(table: BanqueTable, n_shoes: int) -> Iterator[int]:
    size = max(1, int(CHUNK_COUPS / 2 / table.expected_coups_per_shoe()))
    full, rest = divmod(n_shoes, size)
    yield from [size] * full
    if rest:
        yield rest


def deal_banque_chunk(dealer: BanqueDealer, task: tuple[int, np.random.SeedSequence]) -> BanqueTallies:
    """One chunk of a banque run: ``n`` shoes from the chunk's seed."""
    n, seed = task
    return dealer.deal(n, np.random.Generator(np.random.PCG64(seed)))


def shoes_for_coups(table: BanqueTable, coups: int) -> int:
    """The number of whole shoes that deal about ``coups`` coups."""
    return max(1, math.ceil(coups / table.expected_coups_per_shoe()))


def simulate_banque(
    table: BanqueTable,
    shoes: int | None = None,
    coups: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    scheduler: Scheduler | None = None,
    progress: Callable[[int], None] | None = None,
    exact: Mapping[str, Fraction] | None = None,
) -> BanqueSimResult:
    """Deal banque shoes in seeded chunks and return the tallies with their statistics.

    Args:
        table: the table; shoes, or coups (about that many, in whole shoes): how much to deal.
        seed: the run's seed; the tallies depend on nothing else (not on the workers).
        workers, scheduler: the executor (:func:`solver.simulate.executor.map_chunks`).
        progress: called with the shoes done so far.
        exact: exact first-coup values of :data:`FUNCTIONALS` for the cut-card effect.
    """
    if (shoes is None) == (coups is None):
        raise InputError("say how much to deal: a number of shoes or a number of coups (one of them)")
    n_shoes = shoes if shoes is not None else shoes_for_coups(table, coups or 0)
    if n_shoes < 1:
        raise InputError("deal at least one shoe")
    if workers is not None and workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    start = time.perf_counter()
    dealer = BanqueDealer(kernel_table(table), "numba")
    sizes = list(_chunks(table, n_shoes))
    tasks = zip(sizes, chunk_seeds(seed))
    n_workers = (
        1
        if scheduler is not None
        else max(1, min(default_workers() if workers is None else workers, len(sizes) // MIN_CHUNKS_PER_PROCESS))
    )
    total = BanqueTallies.zeros(table.max_coups)
    # compiled (or loaded) once in this process before any worker starts: they inherit it or load it
    warm_up = lambda: dealer.deal(1, np.random.default_rng(0))  # noqa: E731
    for _, t in map_shared(deal_banque_chunk, dealer, tasks, n_workers, scheduler, warm_up):
        total.add(t)
        if progress is not None:
            progress(total.n_shoes)
    where = str(scheduler) if scheduler is not None else str(n_workers)
    return BanqueSimResult(table, seed, total, time.perf_counter() - start, where, exact)


@dataclass(frozen=True, eq=False)
class BanqueSimResult:
    """Tallies of a banque simulation with everything needed to say what they estimate."""

    table: BanqueTable
    seed: int
    tallies: BanqueTallies
    elapsed: float
    workers: str
    exact: Mapping[str, Fraction] | None = None
    level: float = DEFAULT_LEVEL
    method: str = "simulation: shuffled shoes dealt coup by coup to two tableaux (solver.simulate.banque)"

    @property
    def n_shoes(self) -> int:
        return self.tallies.n_shoes

    @property
    def n_coups(self) -> int:
        return self.tallies.n_coups

    @property
    def moments(self) -> ShoeMoments:
        """The per-shoe moments behind every estimate (nine joint outcomes)."""
        return ShoeMoments(self.tallies.moments, 9)

    def _vectors(self) -> list[tuple[str, np.ndarray]]:
        return [(name, np.array([float(v) for v in self.table.vector(name)])) for name in FUNCTIONALS]

    def first_coup(self) -> dict[str, Estimate]:
        """Each functional's mean on the first coup of a shoe."""
        return self.moments.first_coup(self._vectors())

    def whole_shoe(self) -> dict[str, Estimate]:
        """Each functional's mean over every coup dealt (the ratio estimator over shoes)."""
        return self.moments.whole_shoe(self._vectors())

    def cut_card_effect(self) -> dict[str, Estimate]:
        """Whole-shoe mean minus the first-coup value: against the exact value when given, else paired."""
        return self.moments.cut_card_effect(self._vectors(), self.exact)

    def coups_per_shoe(self) -> Estimate:
        return self.moments.coups_per_shoe()

    def outcome_shares(self) -> dict[tuple[int, int], float]:
        """The first coups' shares of each joint outcome (R1, R2)."""
        first = self.tallies.pos_counts[0]
        return {o: float(c) / max(1, int(first.sum())) for o, c in zip(OUTCOMES, first)}
