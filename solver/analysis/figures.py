"""What the figures draw: exact results against deck count, recorded cut-card runs, a seeded simulation.

Computed here, drawn in :mod:`solver.report.figures`. :class:`FigureInputs` computes each family of
results once, when a figure first asks for it: punto banco on every shoe of a list; every chemin de
fer model on every shoe, without and with the casino's commission; and a short seeded simulation of
first coups (:func:`convergence`), whose estimate converges on the exact probability. The cut-card
effect is not simulated here (it needs some 10^10 coups to resolve): :data:`CUT_CARD_RUNS` quotes the
recorded runs of docs/simulate.md, with their commands, as estimates.

>>> from solver.cards import Shoe
>>> c = convergence(Shoe.decks(8), coups=400, seed=1, checkpoints=2)
>>> [p.coups for p in c.points], c.exact
([100, 400], Fraction(8954111587648, 19524993263685))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property

from solver.analysis.depletion import COUNT_SHOES, FIGURE_BETS, EdgeDistribution, RemovalPoint, edge_distribution, removal_curves
from solver.analysis.report import MODELS, REPORT_COMMISSION
from solver.banque import parse_thetas
from solver.banque.committed import THETA_SWEEP, BanqueEntry, banque_entries
from solver.cards import Shoe
from solver.chemin.game import build_game
from solver.chemin.solve import Solution, solve
from solver.punto import PuntoResult, bets_from_names, punto_banco

Z95 = Fraction(196, 100)
"""The two-sided 95 % normal quantile, to the two decimals the intervals are quoted with."""


# -- a simulated estimate converging on the exact value --------------------------------------------


@dataclass(frozen=True)
class ConvergencePoint:
    """After ``coups`` first coups, ``hits`` were won by the banker (integers: the estimate is hits/coups)."""

    coups: int
    hits: int

    @property
    def estimate(self) -> Fraction:
        """The estimate of P(banker): the share of coups the banker won (an estimate, not exact)."""
        return Fraction(self.hits, self.coups)

    def standard_error(self, p: Fraction) -> float:
        """sqrt(p(1 − p)/n) at the exact p (the binomial standard error of the estimate)."""
        return math.sqrt(p * (1 - p) / self.coups)


@dataclass(frozen=True)
class Convergence:
    """A seeded simulation of first coups, each from a freshly shuffled shoe (burn included), so that the
    exact first-coup law applies exactly; the running estimate of P(banker) at each checkpoint.

    Attributes:
        shoe, seed: the simulation's shoe and seed.
        exact: the exact P(banker) of the first coup (the enumerator's).
        points: the running tallies, at geometrically spaced numbers of coups.
        method: how the tallies were obtained.
    """

    shoe: Shoe
    seed: int
    exact: Fraction
    points: tuple[ConvergencePoint, ...]
    method: str = "simulated (solver.simulate: shuffled shoes, turn-and-burn, first coup only); counts exact, estimates not"


def convergence(shoe: Shoe, coups: int, seed: int, checkpoints: int = 25) -> Convergence:
    """Deal ``coups`` first coups of punto banco from freshly shuffled ``shoe`` s, in this process, with one
    seeded generator, and record the banker's wins at geometrically spaced checkpoints.

    Args:
        shoe: a finite shoe.
        coups: how many first coups in all.
        seed: the generator's seed (the same seed deals the same coups).
        checkpoints: how many checkpoints (default 25).
    """
    import numpy as np

    from solver.crosscheck import exact_law
    from solver.simulate import PUNTO_STRATEGY, SimConfig
    from solver.simulate.run import deal

    config = replace(SimConfig.punto(shoe), first_coup_only=True)
    rng = np.random.default_rng(seed)
    points, done, hits = [], 0, 0
    for target in spaced(coups, checkpoints):
        t = deal(config, target - done, rng)
        hits += int(t.pos_counts[0][0])
        done = target
        points.append(ConvergencePoint(done, hits))
    exact = exact_law("punto", shoe, PUNTO_STRATEGY).winner["banker"]
    return Convergence(shoe, seed, exact, tuple(points))


def spaced(coups: int, n: int) -> list[int]:
    """About ``n`` rising numbers of coups from 100 to ``coups``, geometrically spaced.

    >>> spaced(10**6, 5)
    [100, 1000, 10000, 100000, 1000000]
    """
    if n <= 1:
        return [coups]
    start = min(coups, 100)
    out = sorted({round(start * (coups / start) ** (k / (n - 1))) for k in range(n)})
    return [c for c in out if 0 < c <= coups]


# -- the cut-card effect, as recorded ---------------------------------------------------------------


@dataclass(frozen=True)
class CutCardItem:
    """One item of a recorded run, as docs/simulate.md prints it, in units of 10^-6 (estimates)."""

    item: str
    effect: str
    standard_error: str
    low: str
    high: str


@dataclass(frozen=True)
class CutCardRun:
    """A recorded long simulation: what it dealt, the command that ran it, and its estimates."""

    label: str
    heading: str
    command: str
    items: tuple[CutCardItem, ...]


def _items(rows: str) -> tuple[CutCardItem, ...]:
    return tuple(CutCardItem(*row.split()) for row in rows.strip().splitlines())


CUT_CARD_RUNS: tuple[CutCardRun, ...] = (
    CutCardRun(
        "punto banco, 8 decks, cut 14",
        "punto banco, 8 decks, cut 14, turn-and-burn",
        "baccarat simulate --game punto --decks 8 --cut 14 --coups 4e10 --seed 2026 --format json",
        _items("""
        outcome:banker -5.2 2.5 -10.0 -0.3
        outcome:player +3.0 2.5 -1.9 +7.8
        outcome:tie +2.2 1.5 -0.7 +5.1
        bet:banker -7.9 4.6 -16.9 +1.2
        bet:player +8.1 4.8 -1.2 +17.4
        bet:tie_8to1 +19.7 13.2 -6.1 +45.5"""),
    ),
    CutCardRun(
        "chemin de fer, 6 decks, cut 7, Kemeny-Snell play",
        "chemin de fer, 6 decks, cut 7 (before the 7th card",
        "baccarat simulate --game chemin --decks 6 --cut 7 --coups 4e10 --seed 2026 --format json",
        _items("""
        outcome:banker -5.7 2.5 -10.5 -0.8
        outcome:ponte +3.5 2.5 -1.3 +8.4
        outcome:tie +2.2 1.5 -0.7 +5.0
        bet:banker -8.9 4.6 -18.0 +0.2
        bet:ponte +9.2 4.7 -0.1 +18.5"""),
    ),
    CutCardRun(
        "chemin de fer, 6 decks, cut 7, solved play",
        "chemin de fer, 6 decks, cut 7, no burn, the solver's",
        "baccarat simulate --game chemin --decks 6 --cut 7 --strategy solved --coups 2e10 --seed 2026 --format json",
        _items("""
        outcome:banker -3.3 3.5 -10.2 +3.6
        outcome:ponte -3.9 3.5 -10.7 +3.0
        outcome:tie +7.2 2.0 +3.2 +11.2
        bet:banker +0.7 6.6 -12.1 +13.6
        bet:ponte -0.6 6.7 -13.7 +12.6"""),
    ),
    CutCardRun(
        "punto banco, 8 decks, cut 16",
        "punto banco, 8 decks, cut 16, turn-and-burn",
        "baccarat simulate --game punto --decks 8 --cut 16 --coups 1e10 --seed 2026 --format json",
        _items("""
        outcome:banker -6.0 5.0 -15.7 +3.8
        outcome:player +5.0 5.0 -4.8 +14.7
        outcome:tie +1.0 2.9 -4.8 +6.7
        bet:banker -10.6 9.3 -28.8 +7.5
        bet:player +10.9 9.5 -7.7 +29.6
        bet:tie_8to1 +8.9 26.4 -42.8 +60.6"""),
    ),
)
"""The cut-card effect (whole-shoe average minus the exact first coup), as measured in docs/simulate.md
(section "The cut-card effect"): each run's estimate, standard error and 95 % interval, in units of
10^-6, exactly as printed there; ``heading`` is how the page's paragraph for the run begins."""


# -- exact results against deck count --------------------------------------------------------------


ChemKey = tuple[str, int, Fraction]
"""(freedom, information, commission) of a chemin de fer model."""


class FigureInputs:
    """The results the figures draw, each family computed once, on first use.

    Args:
        shoes: the shoes of the by-deck figures (e.g. 1–8 decks and the infinite deck).
        coups, seed: the size and seed of the convergence simulation (on 8 decks).
        progress: called with a short message as each family of results is computed.
        thetas: the values of θ of the banque figure (default :data:`~solver.banque.committed.THETA_SWEEP`).
        count_shoes: the shoes dealt for the edge's distribution (seeded with ``seed``).
    """

    def __init__(
        self,
        shoes: Sequence[Shoe],
        coups: int = 10**6,
        seed: int = 1,
        progress: Callable[[str], None] | None = None,
        thetas: Sequence[Fraction] | None = None,
        count_shoes: int = COUNT_SHOES,
    ) -> None:
        self.shoes = tuple(shoes)
        self.coups, self.seed = coups, seed
        self.commission = REPORT_COMMISSION
        self._progress = progress
        self.thetas = tuple(parse_thetas(THETA_SWEEP) if thetas is None else thetas)
        self.count_shoes = count_shoes

    def _say(self, what: str) -> None:
        if self._progress is not None:
            self._progress(what)

    @cached_property
    def puntos(self) -> tuple[PuntoResult, ...]:
        """Punto banco on each shoe."""
        self._say("punto banco")
        return tuple(punto_banco(s) for s in self.shoes)

    @cached_property
    def chemin(self) -> dict[ChemKey, tuple[Solution, ...]]:
        """Every chemin de fer model of :data:`~solver.analysis.report.MODELS`, without and with the commission:
        one certified solution per shoe, in the order of :attr:`shoes`."""
        out: dict[ChemKey, tuple[Solution, ...]] = {}
        for alpha in (Fraction(0), self.commission):
            for freedom, information in MODELS:
                self._say(f"chemin de fer {freedom} {information}, commission {alpha}")
                out[(freedom, information, alpha)] = tuple(solve(build_game(s, information, freedom, alpha)) for s in self.shoes)
        return out

    @cached_property
    def convergence(self) -> Convergence:
        """The seeded first-coup simulation on 8 decks."""
        self._say(f"simulation of {self.coups} first coups")
        return convergence(Shoe.decks(8), self.coups, self.seed)

    @cached_property
    def banque(self) -> tuple[BanqueEntry, ...]:
        """Baccara banque under the rule sheets' model on the infinite deck, every concept, at each θ."""
        self._say(f"baccara banque at {len(self.thetas)} values of theta")
        return banque_entries([Shoe.infinite()], thetas=self.thetas)

    @cached_property
    def removal(self) -> tuple[RemovalPoint, ...]:
        """The side bets' exact edges on 8 decks as cards of each value leave the shoe."""
        self._say("side bets on depleted shoes")
        return removal_curves(Shoe.decks(8), bets_from_names(FIGURE_BETS))

    @cached_property
    def distribution(self) -> EdgeDistribution:
        """The side bets' exact edges before every coup of seeded 8-deck shoes."""
        self._say(f"exact edges over {self.count_shoes} simulated shoes")
        return edge_distribution(Shoe.decks(8), bets_from_names(FIGURE_BETS), self.count_shoes, self.seed)
