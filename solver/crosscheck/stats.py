"""The statistics the cross-check's tests share: Pearson's chi-square, z-scores, and their power.

Every test reports the smallest deviation it detects with probability :data:`POWER` at its sample
size and false-alarm rate: for a chi-square with noncentrality ``λ`` needed (``ncx2``), the divergence
``λ / n``; for a z-score, ``(z_{α/2} + z_{0.8})`` standard errors.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from statistics import NormalDist

import numpy as np

from solver.crosscheck.law import MIN_EXPECTED, POWER


@dataclass(frozen=True)
class TestResult:
    """One test of the cross-check.

    Attributes:
        name: what is tested.
        kind: ``chi2``, ``z``, or ``count`` (repeats: the statistic counts them).
        statistic: the chi-square statistic, or the z-score.
        df: degrees of freedom (chi-square) or 0.
        p_value: probability of a statistic at least as extreme under the exact law.
        alpha: the false-alarm rate of this test.
        rejected: ``p_value < alpha``.
        detectable: smallest deviation detected with probability 0.8 at this size (see ``detectable_what``).
        detectable_what: what that deviation measures.
        note: observed versus expected, in words.
    """

    name: str
    kind: str
    statistic: float
    df: int
    p_value: float
    alpha: float
    rejected: bool
    detectable: float
    detectable_what: str
    note: str = ""


@cache
def chi2_power_lambda(df: int, alpha: float) -> float:
    """The noncentrality at which a chi-square test at ``alpha`` rejects with probability POWER
    (remembered: a cross-check asks for the same few degrees of freedom at one rate)."""
    from scipy import stats

    crit = stats.chi2.isf(alpha, df)
    lo, hi = 0.0, 10.0
    while stats.ncx2.sf(crit, df, hi) < POWER:
        hi *= 2
    for _ in range(80):
        mid = (lo + hi) / 2
        if stats.ncx2.sf(crit, df, mid) < POWER:
            lo = mid
        else:
            hi = mid
    return hi


def pooled_cells(observed: np.ndarray, expected_p: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The cells a chi-square reads, as (observed, expected counts): the cells of positive probability,
    those with expected count under :data:`MIN_EXPECTED` pooled into one (folded into the smallest other
    cell when the pool itself falls short). The pooling depends on the expected counts alone."""
    obs = np.asarray(observed, dtype=np.float64)
    p = np.asarray(expected_p, dtype=np.float64)
    keep = p > 0
    obs, exp = obs[keep], p[keep] * n
    small = exp < MIN_EXPECTED
    if small.any():
        pooled_o, pooled_e = obs[small].sum(), exp[small].sum()
        obs, exp = obs[~small], exp[~small]
        if pooled_e >= MIN_EXPECTED or len(obs) == 0:
            obs, exp = np.append(obs, pooled_o), np.append(exp, pooled_e)
        else:  # fold the pooled cell into the smallest remaining one
            i = int(np.argmin(exp))
            obs[i] += pooled_o
            exp[i] += pooled_e
    return obs, exp


def chi2_test(
    name: str, observed: np.ndarray, expected_p: np.ndarray, n: int, alpha: float, scale: float = 1.0, per: str = "coup"
) -> TestResult:
    """Pearson's chi-square, cells with expected count under 5 pooled; ``scale`` divides the statistic."""
    from scipy import stats

    obs = np.asarray(observed, dtype=np.float64)
    p = np.asarray(expected_p, dtype=np.float64)
    impossible = obs[p == 0].sum()
    if impossible > 0:
        return TestResult(
            name,
            "chi2",
            math.inf,
            0,
            0.0,
            alpha,
            True,
            0.0,
            "",
            f"{int(impossible)} coups fell where the exact law has probability 0",
        )
    obs, exp = pooled_cells(obs, p, n)
    df = len(obs) - 1
    if df < 1:
        return TestResult(name, "chi2", 0.0, 0, 1.0, alpha, False, math.inf, "too few coups for this test")
    x2 = float(((obs - exp) ** 2 / exp).sum()) / scale
    pv = float(stats.chi2.sf(x2, df))
    lam = chi2_power_lambda(df, alpha)
    worst = int(np.argmax(np.abs(obs - exp) / np.sqrt(exp)))
    note = f"{len(obs)} cells; largest deviation: {int(obs[worst])} observed, {exp[worst]:.1f} expected"
    return TestResult(name, "chi2", x2, df, pv, alpha, pv < alpha, lam * scale / n, f"divergence sum (q-p)^2/p per {per}", note)


def z_score(observed: Fraction | float, mean: Fraction, se: float) -> float:
    """(observed − mean) / se; where the exact law leaves no spread (se = 0, e.g. a shoe that cannot pair),
    0 when the observation is the law's one value and infinite otherwise."""
    if se > 0:
        return (float(observed) - float(mean)) / se
    return 0.0 if observed == mean else math.inf


def z_test(name: str, total: float, n: int, mean: Fraction, var: Fraction, alpha: float) -> TestResult:
    """A bet's mean net result over ``n`` coups against its exact mean, with its exact variance (two-sided)."""
    sd = math.sqrt(float(var))
    observed = total / n
    se = sd / math.sqrt(n)
    z = z_score(observed, mean, se)
    pv = two_sided_p(z)
    detect = z_detectable(alpha) * se
    note = f"mean {observed:+.6f} per unit staked, exact {float(mean):+.6f} ({mean})"
    return TestResult(name, "z", z, 0, pv, alpha, pv < alpha, detect, "shift of the mean per unit staked", note)


def two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z, accurate in the far tail (scipy's survival function)."""
    from scipy import stats

    return float(2 * stats.norm.sf(abs(z))) if math.isfinite(z) else 0.0


def normal() -> NormalDist:
    """The standard normal distribution."""
    return NormalDist()


def z_detectable(alpha: float) -> float:
    """Standard errors a two-sided z-test at ``alpha`` needs for power :data:`POWER`: ``z_{α/2} + z_{0.8}``."""
    nd = normal()
    return -nd.inv_cdf(alpha / 2) + nd.inv_cdf(POWER)  # the upper alpha/2 quantile, accurate at tiny alpha
