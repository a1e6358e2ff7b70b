"""What a counting study found: estimates with standard errors, and the distribution of the edge.

Every number here is an *estimate* from the shoes dealt, with its standard error (SE); each coup's
edge inside it is exact. Shoes are independent, coups of one shoe are not, so:

* per-shoe figures (units won per shoe, bets per shoe) are means over shoes, ``SE = sd / sqrt(S)``;
* per-coup figures (the mean edge over every coup, units per 100 coups, the frequency of a positive
  edge, the average edge when betting) are ratios of per-shoe sums, with the delta-method SE over
  shoes, ``SE² = Σ_s z_s² / (S (S − 1))``, ``z_s = (X_s − R C_s) / mean(C)`` (Cochran, *Sampling
  Techniques*, 3rd ed., §6.4), as in :mod:`solver.simulate.stats`.

Two routes estimate the same expectation and must agree within their standard errors: the mean of
the exact edges over every coup, and the mean of the simulated results of the same bets on the same
coups (:meth:`BetStudy.agreement`). The player's expected win is estimated from the exact edges of
the coups he bets (the sum of conditional expectations: the same mean as his results, far less noise);
his simulated results are reported beside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from solver.count import dealer
from solver.count.config import CountConfig, LinearCount
from solver.count.run import CountTallies
from solver.simulate import Estimate

QUANTILES = (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99)


@dataclass(frozen=True)
class Play:
    """One way of betting (perfect play, or a count): how often, and what it wins, per shoe and per 100 coups."""

    bets_per_shoe: Estimate
    frequency: Estimate  # share of coups bet
    win_per_shoe: Estimate  # expected units won per shoe: the sum of the exact edges of the coups bet
    win_per_100: Estimate  # the same per 100 coups dealt
    average_edge: Estimate  # mean exact edge of the coups bet
    result_per_shoe: Estimate  # the simulated results of the same bets, for comparison


@dataclass(frozen=True)
class BetStudy:
    """One bet's counting study.

    Attributes:
        name, description: of the bet.
        mean_edge: the player's exact expected value per unit, averaged over every coup dealt.
        mean_result: the simulated net result per unit, averaged over the same coups.
        difference: ``mean_edge − mean_result`` with its paired SE (should be within a few SEs of 0).
        positive: the share of coups whose exact edge is positive (for the player).
        perfect: betting exactly when the edge is positive.
        count: betting when the count's true count reaches its threshold, if a count was given.
        linear_count: that count.
        quantiles: the exact edge's quantiles over all coups (to the histogram's 1/1000).
        lowest, highest: the smallest and largest exact edge met.
        by_depth: ``(unseen cards from, to, coups, mean edge, share positive)`` per 26 cards.
    """

    name: str
    description: str
    mean_edge: Estimate
    mean_result: Estimate
    difference: Estimate
    positive: Estimate
    perfect: Play
    count: Play | None
    linear_count: LinearCount | None
    quantiles: tuple[tuple[float, float], ...]
    lowest: float
    highest: float
    by_depth: tuple[tuple[int, int, int, float, float], ...]

    def agreement(self) -> float:
        """``difference / SE``: how many standard errors separate the two routes."""
        d = self.difference
        return d.value / d.se if d.se > 0 else (0.0 if d.value == 0 else math.inf)


@dataclass(frozen=True, eq=False)
class CountResult:
    """A counting study's result, with its provenance.

    Attributes:
        config: what was dealt and studied.
        seed: the seed; the same seed gives the same result on any executor.
        n_shoes, n_coups: how much was dealt.
        coups_per_shoe: mean coups a shoe.
        bets: one :class:`BetStudy` per bet, in the order asked.
        elapsed: wall-clock seconds; ``workers``: local processes, or the scheduler's address.
        method: how the numbers were obtained.
    """

    config: CountConfig
    seed: int
    n_shoes: int
    n_coups: int
    coups_per_shoe: Estimate
    bets: tuple[BetStudy, ...]
    elapsed: float
    workers: str
    method: str = field(
        default="simulated shoes (solver.count); at every coup the exact edge of each bet on the "
        "composition the player knows (solver.count.fastlaw: exact integers, summed in float64 where every sum "
        "stays below 2^53, else in int64); estimates over shoes with SEs"
    )

    def bet(self, name: str) -> BetStudy:
        for b in self.bets:
            if b.name == name:
                return b
        raise KeyError(name)

    @property
    def evaluations(self) -> int:
        """Exact evaluations made: one per bet per coup."""
        return self.n_coups * len(self.bets)


class _Moments:
    """Estimates from a run's moment sums. Every sum is :func:`math.fsum` of the terms in one order, so an
    estimate is the same float on any numpy and BLAS (a matrix product may sum in any order: numpy 2.4
    changed a standard error's last digit)."""

    def __init__(self, t: CountTallies) -> None:
        u = t.moments
        self.m = (u + u.T - np.diag(np.diag(u))).tolist()
        self.s = self.m[0]
        self.n = float(self.s[0])

    def unit(self, i: int) -> list[float]:
        e = [0.0] * len(self.s)
        e[i] = 1.0
        return e

    def _dot(self, u: list[float], v: list[float]) -> float:
        return math.fsum(a * b for a, b in zip(u, v))

    def _form(self, u: list[float]) -> float:
        """``u · M · u``."""
        return math.fsum(a * m * b for a, row in zip(u, self.m) if a for m, b in zip(row, u) if b)

    def mean(self, u: list[float], scale: float = 1.0) -> Estimate:
        n = self.n
        mean = self._dot(u, self.s) / n
        var = (self._form(u) - n * mean * mean) / max(n - 1, 1)
        return Estimate(scale * mean, scale * math.sqrt(max(var, 0.0) / n), int(n))

    def ratio(self, u: list[float], v: list[float], scale: float = 1.0) -> Estimate:
        n = self.n
        den = self._dot(v, self.s)
        if den == 0:
            return Estimate(0.0, 0.0, int(n))
        r = self._dot(u, self.s) / den
        w = [(a - r * b) / (den / n) for a, b in zip(u, v)]
        return Estimate(scale * r, scale * math.sqrt(max(self._form(w), 0.0) / (n * max(n - 1, 1))), int(n))


def _play(mo: _Moments, o: int, first: int) -> Play:
    coups = mo.unit(1)
    n_bets, ev, res = mo.unit(o + first), mo.unit(o + first + 1), mo.unit(o + first + 2)
    return Play(
        bets_per_shoe=mo.mean(n_bets),
        frequency=mo.ratio(n_bets, coups),
        win_per_shoe=mo.mean(ev),
        win_per_100=mo.ratio(ev, coups, 100.0),
        average_edge=mo.ratio(ev, n_bets),
        result_per_shoe=mo.mean(res),
    )


def _quantiles(hist: np.ndarray) -> tuple[tuple[float, float], ...]:
    total = int(hist.sum())
    if total == 0:
        return ()
    cum = np.cumsum(hist)
    out = []
    for q in QUANTILES:
        i = int(np.searchsorted(cum, q * total))
        out.append((q, -1.0 + (i + 0.5) / 1000.0 if i < dealer.HIST_BINS - 1 else 1.0))
    return tuple(out)


def summarize(config: CountConfig, tallies: CountTallies, seed: int, elapsed: float, workers: str) -> CountResult:
    """The :class:`CountResult` of a study's tallies."""
    mo = _Moments(tallies)
    coups = mo.unit(1)
    studies = {}
    for b, (bet, count) in enumerate(config.ordered):
        o = 2 + dealer.PER_BET * b
        ev, res = mo.unit(o), mo.unit(o + 1)
        depth = []
        for k, c in enumerate(tallies.depth_coups.tolist()):
            if c:
                depth.append(
                    (
                        k * dealer.DEPTH,
                        (k + 1) * dealer.DEPTH - 1,
                        int(c),
                        float(tallies.depth_ev[b, k] / c),
                        float(tallies.depth_positive[b, k] / c),
                    )
                )
        studies[bet.name] = BetStudy(
            name=bet.name,
            description=bet.description,
            mean_edge=mo.ratio(ev, coups),
            mean_result=mo.ratio(res, coups),
            difference=mo.ratio([a - b for a, b in zip(ev, res)], coups),
            positive=mo.ratio(mo.unit(o + 2), coups),
            perfect=_play(mo, o, 2),
            count=_play(mo, o, 5) if count is not None else None,
            linear_count=count,
            quantiles=_quantiles(tallies.hist[b]),
            lowest=float(tallies.ev_min[b]),
            highest=float(tallies.ev_max[b]),
            by_depth=tuple(depth),
        )
    return CountResult(
        config=config,
        seed=seed,
        n_shoes=tallies.n_shoes,
        n_coups=tallies.n_coups,
        coups_per_shoe=mo.mean(coups),
        bets=tuple(studies[b.name] for b in config.bets),
        elapsed=elapsed,
        workers=workers,
    )
