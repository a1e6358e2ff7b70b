"""The tests of the cross-check (chi-square and z-scores at a stated false-alarm rate) and the verdict."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from solver.bets import STANDARD_COMMISSION
from solver.crosscheck.law import DEFAULT_ALPHA, MIN_EXPECTED, POWER, ExactLaw
from solver.crosscheck.sample import Sample
from solver.deal import N_DETAIL
from solver.errors import InputError
from solver.simulate.config import Payout, default_payouts

# -- the tests -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TestResult:
    """One test of the cross-check.

    Attributes:
        name: what is tested.
        kind: ``chi2`` or ``z``.
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


@dataclass(frozen=True, eq=False)
class CrossCheck:
    """The verdict of holding a sample against an exact law."""

    sample: Sample
    law: ExactLaw
    alpha: Fraction
    tests: tuple[TestResult, ...]
    notes: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return not any(t.rejected for t in self.tests)

    @property
    def verdict(self) -> str:
        if self.passed:
            return "PASS"
        return "REJECT (" + ", ".join(t.name for t in self.tests if t.rejected) + ")"


def _chi2_power_lambda(df: int, alpha: float) -> float:
    """The noncentrality at which a chi-square test at ``alpha`` rejects with probability POWER."""
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


def _chi2_test(name: str, observed: np.ndarray, expected_p: np.ndarray, n: int, alpha: float,
               scale: float = 1.0, per: str = "coup") -> TestResult:
    """Pearson's chi-square, cells with expected count under 5 pooled; ``scale`` divides the statistic."""
    from scipy import stats

    obs = np.asarray(observed, dtype=np.float64)
    p = np.asarray(expected_p, dtype=np.float64)
    impossible = obs[p == 0].sum()
    if impossible > 0:
        return TestResult(name, "chi2", math.inf, 0, 0.0, alpha, True, 0.0, "",
                          f"{int(impossible)} coups fell where the exact law has probability 0")
    keep = p > 0
    obs, p = obs[keep], p[keep]
    exp = p * n
    small = exp < MIN_EXPECTED
    if small.any():
        pooled_o, pooled_e = obs[small].sum(), exp[small].sum()
        obs, exp, p = obs[~small], exp[~small], p[~small]
        if pooled_e >= MIN_EXPECTED or len(obs) == 0:
            obs, exp, p = np.append(obs, pooled_o), np.append(exp, pooled_e), np.append(p, pooled_e / n)
        else:  # fold the pooled cell into the smallest remaining one
            i = int(np.argmin(exp))
            obs[i] += pooled_o
            exp[i] += pooled_e
            p[i] += pooled_e / n
    df = len(obs) - 1
    if df < 1:
        return TestResult(name, "chi2", 0.0, 0, 1.0, alpha, False, math.inf, "too few coups for this test")
    x2 = float(((obs - exp) ** 2 / exp).sum()) / scale
    pv = float(stats.chi2.sf(x2, df))
    lam = _chi2_power_lambda(df, alpha)
    worst = int(np.argmax(np.abs(obs - exp) / np.sqrt(exp)))
    note = (f"{len(obs)} cells; largest deviation: {int(obs[worst])} observed, {exp[worst]:.1f} expected")
    return TestResult(name, "chi2", x2, df, pv, alpha, pv < alpha, lam * scale / n,
                      f"divergence sum (q-p)^2/p per {per}", note)


def _z_test(name: str, total: float, n: int, mean: Fraction, var: Fraction, alpha: float) -> TestResult:
    sd = math.sqrt(float(var))
    observed = total / n
    se = sd / math.sqrt(n)
    z = (observed - float(mean)) / se if se > 0 else (0.0 if observed == float(mean) else math.inf)
    nd = _normal()
    pv = _two_sided_p(z)
    detect = (-nd.inv_cdf(alpha / 2) + nd.inv_cdf(POWER)) * se  # the upper alpha/2 quantile, accurate at tiny alpha
    note = f"mean {observed:+.6f} per unit staked, exact {float(mean):+.6f} ({mean})"
    return TestResult(name, "z", z, 0, pv, alpha, pv < alpha, detect, "shift of the mean per unit staked", note)


def _two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z, accurate in the far tail (scipy's survival function)."""
    from scipy import stats

    return float(2 * stats.norm.sf(abs(z))) if math.isfinite(z) else 0.0


def _normal():  # type: ignore[no-untyped-def]
    from statistics import NormalDist

    return NormalDist()


def crosscheck(
    sample: Sample,
    law: ExactLaw,
    payouts: Iterable[Payout] | None = None,
    burn: Mapping[int, Mapping[str, Fraction]] | None = None,
    alpha: Fraction = DEFAULT_ALPHA,
) -> CrossCheck:
    """Hold a sample of coups against the exact law.

    Args:
        sample: the coups (:func:`sample_from_simulation`, :func:`read_coups`).
        law: the exact first-coup law (:func:`exact_law` or :func:`law_from_probabilities`).
        payouts: the correct settlement of the bets (default: the game's, at 5 % commission).
        burn: exact outcome law given the turned burn card's value (:func:`burn_laws`), to test a
            sample that records its burns.
        alpha: the cross-check's false-alarm rate, split evenly over its tests.

    Returns:
        A :class:`CrossCheck`; ``passed`` is the verdict.
    """
    if sample.n < 1:
        raise InputError("no coups to check")
    least = math.ceil(MIN_EXPECTED / float(min(law.winner.values())))
    if sample.n < least:
        raise InputError(f"too few coups to check: {sample.n}; the outcome law needs at least {least} "
                         f"(an expected {MIN_EXPECTED:g} of the rarest outcome)")
    pays = tuple(payouts) if payouts is not None else default_payouts(law.game, STANDARD_COMMISSION)
    pays = tuple(p for p in pays if p.name in sample.bets)
    run_detail = sample.detail is not None and law.detail is not None
    run_cards = sample.cards is not None and not law.shoe.is_infinite
    run_burn = sample.burn is not None and burn is not None
    m = 1 + run_detail + run_cards + run_burn + len(pays)
    a = float(alpha) / m
    n = sample.n
    tests = []
    pw = np.array([float(q) for q in law.vector()])
    t = _chi2_test("outcome law", sample.winner, pw, n, a)
    names = law.names
    # the shift of P(banker) against P(player) that the outcome test detects
    shift = math.sqrt(t.detectable / (1 / pw[0] + 1 / pw[1])) if math.isfinite(t.detectable) else math.inf
    obs = ", ".join(f"{k} {c / n:.5f} (exact {float(q):.5f})" for k, c, q in zip(names, sample.winner, law.vector()))
    tests.append(TestResult(t.name, t.kind, t.statistic, t.df, t.p_value, t.alpha, t.rejected, shift,
                            f"shift of P({names[0]}) against P({names[1]})", obs))
    if run_detail:
        assert sample.detail is not None and law.detail is not None
        pd = np.zeros(N_DETAIL)
        for k, q in law.detail.items():
            pd[k] = float(q)
        tests.append(_chi2_test("detail law", sample.detail, pd, n, a))
    if run_cards:
        assert sample.cards is not None
        size = law.shoe.size
        pc = np.array([c / size for c in law.shoe.values])
        tests.append(_chi2_test("card law", sample.cards, pc, 4 * n, a, scale=(size - 4) / (size - 1), per="card"))
    if run_burn:
        assert sample.burn is not None and burn is not None
        size = law.shoe.size
        pb = np.zeros((10, 3))
        for v, cond in burn.items():
            for i, name in enumerate(names):
                pb[v, i] = float(Fraction(law.shoe.values[v], size) * cond[name])
        nb = int(sample.burn.sum())
        tests.append(_chi2_test("burn law", sample.burn.ravel(), pb.ravel(), nb, a))
    for p in pays:
        total, _ = sample.bets[p.name]
        tests.append(_z_test(f"bet {p.name}", total, n, law.bet_mean(p), law.bet_variance(p), a))
    notes = []
    if sample.whole_shoes:
        notes.append("coups dealt through whole shoes are slightly dependent and their average law differs from "
                     "the first coup's by the cut-card effect; the tests treat them as independent first coups")
    return CrossCheck(sample, law, Fraction(alpha), tuple(tests), tuple(notes))
