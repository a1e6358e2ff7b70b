"""Statistics of a simulation: estimates with standard errors, by coup position, and the cut-card effect.

Every number here is an *estimate* with its standard error (SE) and a normal confidence interval.

* First coup of each shoe. Shoes are independent, so the first coups are an i.i.d. sample whose law
  is exactly the enumerator's; proportions and bet means have the usual SE, ``sd / sqrt(shoes)``.
* Whole shoe. The per-coup average over every coup dealt is a ratio ``R = Σ_s X_s / Σ_s C_s`` of
  per-shoe sums (``X_s`` wins, or a bet's net result, in shoe ``s``; ``C_s`` its coups). Coups of one
  shoe are dependent, shoes are not: the SE is the delta-method (linearisation) one over shoes,
  ``SE² = Σ_s z_s² / (S (S − 1))`` with ``z_s = (X_s − R C_s) / mean(C)`` (Cochran, *Sampling
  Techniques*, 3rd ed., §6.4, the ratio estimator).
* Cut-card effect: whole shoe minus first coup. When the exact first-coup law is given, it is
  ``R − p_exact`` with the SE of ``R``; otherwise the paired difference of the two estimates from the
  same shoes, linearised the same way with ``z_s − (Y_s − F)``.

The kernel keeps, per shoe, the vector x = (1, banker wins, player wins, ties, coups, first coup won
by banker, by player, tied) and sums x xᵀ over shoes; every estimate above is a linear or ratio
statistic of x, so these integer moments give all the SEs exactly as if every shoe had been kept.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from statistics import NormalDist

import numpy as np

from solver.rules.tableau import outcome_names
from solver.simulate.config import SimConfig
from solver.simulate.run import Tallies

DEFAULT_LEVEL = 0.95


@dataclass(frozen=True)
class Estimate:
    """A simulated number: estimate, standard error, and the number of independent units behind it.

    With fewer than two units no error can be estimated: ``se`` is NaN, :attr:`has_error` is False,
    and there is no confidence interval (the renderers say so instead of printing ± 0).
    """

    value: float
    se: float
    units: int

    @property
    def has_error(self) -> bool:
        """Whether the standard error could be estimated (two units or more)."""
        return not math.isnan(self.se)

    def ci(self, level: float = DEFAULT_LEVEL) -> tuple[float, float]:
        """Normal confidence interval at ``level`` (NaN ends without a standard error)."""
        z = NormalDist().inv_cdf(0.5 + level / 2)
        return (self.value - z * self.se, self.value + z * self.se)

    def as_dict(self, level: float = DEFAULT_LEVEL) -> dict[str, float | int | None]:
        if not self.has_error:
            return {"estimate": self.value, "se": None, "ci_low": None, "ci_high": None, "units": self.units}
        lo, hi = self.ci(level)
        return {"estimate": self.value, "se": self.se, "ci_low": lo, "ci_high": hi, "units": self.units}


def _se(variance_sum: float, divisor: float, units: float) -> float:
    """``sqrt(variance_sum / divisor)``, or NaN with fewer than two units (no error can be estimated)."""
    if units < 2:
        return math.nan
    return math.sqrt(max(variance_sum, 0.0) / divisor)


@dataclass(frozen=True)
class ShoeMoments:
    """Estimates from the per-shoe moment tallies every simulator keeps (punto banco and chemin de fer
    with ``k = 3`` outcomes, baccara banque with ``k = 9`` joint outcomes).

    ``upper[i, j]`` (i ≤ j) is the sum over shoes of x_i x_j, where x = (1, the shoe's coups by outcome
    (k), its coups, its first coup's outcome as k indicators). A functional is a vector of weights on
    the k outcomes (an outcome's indicator, or a bet's net result per unit staked); the first coups are
    independent (one per shoe), and the whole-shoe mean is a ratio estimator over shoes.
    """

    upper: np.ndarray
    k: int

    def _moments(self) -> tuple[np.ndarray, np.ndarray, int, int, int]:
        u = self.upper.astype(np.float64)
        m = u + u.T - np.diag(np.diag(u))
        return m, m[0], 1, 1 + self.k, 2 + self.k  # moments, sums, where X, C and Y start

    def first_coup(self, functionals: list[tuple[str, np.ndarray]]) -> dict[str, Estimate]:
        """Each functional's mean on the first coup of a shoe."""
        m, s, _, _, y = self._moments()
        n = s[0]
        out = {}
        for name, a in functionals:
            u = np.zeros(len(s))
            u[y : y + self.k] = a
            mean = float(u @ s / n)
            out[name] = Estimate(mean, _se(float(u @ m @ u / n) - mean**2, n - 1, n), int(n))
        return out

    def whole_shoe(self, functionals: list[tuple[str, np.ndarray]]) -> dict[str, Estimate]:
        """Each functional's mean over every coup dealt (the ratio estimator over shoes)."""
        m, s, x, c, _ = self._moments()
        n, coups = s[0], s[c]
        out = {}
        for name, a in functionals:
            u = np.zeros(len(s))
            u[x : x + self.k] = a
            r = float(u @ s / coups)
            w = (u - r * np.eye(len(s))[c]) / (coups / n)
            out[name] = Estimate(r, _se(float(w @ m @ w), n * (n - 1), n), int(n))
        return out

    def cut_card_effect(
        self, functionals: list[tuple[str, np.ndarray]], exact: Mapping[str, Fraction] | None
    ) -> dict[str, Estimate]:
        """Whole-shoe mean minus the first-coup value: against the exact value where ``exact`` has the
        name, else paired with the simulated first coups of the same shoes."""
        m, s, x, c, y = self._moments()
        n, coups = s[0], s[c]
        whole = self.whole_shoe(functionals)
        out = {}
        for name, a in functionals:
            if exact is not None and name in exact:
                w = whole[name]
                out[name] = Estimate(w.value - float(exact[name]), w.se, w.units)
                continue
            u, v = np.zeros(len(s)), np.zeros(len(s))
            u[x : x + self.k] = a
            v[y : y + self.k] = a
            r, f = float(u @ s / coups), float(v @ s / n)
            e = np.eye(len(s))
            z = (u - r * e[c]) / (coups / n) - (v - f * e[0])
            out[name] = Estimate(r - f, _se(float(z @ m @ z), n * (n - 1), n), int(n))
        return out

    def coups_per_shoe(self) -> Estimate:
        """The mean number of coups a shoe deals."""
        m, s, _, c, _ = self._moments()
        n = s[0]
        mean = s[c] / n
        return Estimate(float(mean), _se(m[c, c] / n - mean**2, n - 1, n), int(n))


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Tallies of a simulation with everything needed to say what they estimate.

    Attributes:
        config: the table simulated.
        seed: the seed (int) of the run; the same seed gives the same tallies on any executor.
        tallies: the integer tallies.
        elapsed: wall-clock seconds; ``workers``: local processes, or the scheduler's address.
        exact: optional exact first-coup values, keyed like :meth:`first_coup` (→ Fraction), from the
            enumerator; when given, the cut-card effect is measured against them.
    """

    config: SimConfig
    seed: int
    tallies: Tallies
    elapsed: float
    workers: str
    exact: Mapping[str, Fraction] | None = None
    level: float = DEFAULT_LEVEL
    method: str = field(default="simulation: shuffled shoes dealt coup by coup (solver.simulate)")

    @property
    def outcomes(self) -> tuple[str, str, str]:
        """Outcome names: banker, player (ponte in chemin de fer), tie."""
        return outcome_names(self.config.game)

    @property
    def n_shoes(self) -> int:
        return self.tallies.n_shoes

    @property
    def n_coups(self) -> int:
        return self.tallies.n_coups

    @property
    def moments(self) -> ShoeMoments:
        """The per-shoe moments behind every estimate."""
        return ShoeMoments(self.tallies.moments, 3)

    def _bet_vectors(self) -> list[tuple[str, np.ndarray]]:
        return [("bet:" + p.name, np.array([float(v) for v in p.vector()])) for p in self.config.payouts]

    def _functionals(self) -> list[tuple[str, np.ndarray]]:
        """(key, weights on the three outcomes) for every outcome (``outcome:banker``...) and bet (``bet:banker``...)."""
        eye = np.eye(3)
        return [("outcome:" + name, eye[i]) for i, name in enumerate(self.outcomes)] + self._bet_vectors()

    def first_coup(self) -> dict[str, Estimate]:
        """Each outcome's probability and each bet's mean on the first coup of a shoe.

        Keys: ``outcome:banker``, ``outcome:player`` (``outcome:ponte``), ``outcome:tie``, then
        ``bet:NAME`` for each bet the engine settles (net result per unit staked).
        """
        return self.moments.first_coup(self._functionals())

    def whole_shoe(self) -> dict[str, Estimate]:
        """Each outcome's share and each bet's mean over every coup dealt (the ratio estimator)."""
        return self.moments.whole_shoe(self._functionals())

    def cut_card_effect(self) -> dict[str, Estimate]:
        """Whole-shoe average minus first-coup value, per outcome and bet, with its SE.

        Against the exact first-coup law when :attr:`exact` has the name, else paired.
        """
        return self.moments.cut_card_effect(self._functionals(), self.exact)

    def effect_reference(self) -> str:
        """What the cut-card effect is measured against."""
        if self.exact is not None:
            return "exact first-coup law (enumerator)"
        return "simulated first coups of the same shoes (paired)"

    def by_position(self) -> list[tuple[int, int, dict[str, Estimate]]]:
        """For each coup position k (1 = first) with coups: (k, coups, outcome share estimates)."""
        rows = []
        for k, counts in enumerate(self.tallies.pos_counts):
            total = int(counts.sum())
            if total == 0:
                continue
            est = {}
            for i, name in enumerate(self.outcomes):
                p = counts[i] / total
                est[name] = Estimate(float(p), _se(p * (1 - p), total - 1, total), total)
            rows.append((k + 1, total, est))
        return rows

    def coups_per_shoe(self) -> Estimate:
        """Mean coups per shoe."""
        return self.moments.coups_per_shoe()
