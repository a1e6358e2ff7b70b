"""The tests of structure: what no test of a marginal law can see.

A shoe dealt without replacement, of the stated size, freshly shuffled for every shoe, leaves marks
that the law of the outcomes, of the coup's detail and of the cards' proportions do not show: the
rate of equal ranks among a coup's cards depends on the shoe's size, consecutive shoes are
independent, and no long run of cards comes twice. Each test below is exact at any sample size: its
statistic has exactly the stated mean under a correct engine (the exact laws of
:mod:`solver.crosscheck.shoelaw`), and its variance is the exact one or, for the test of the next
shoe, the conditional one of a martingale over shoes; the normal law of the standardised statistic
is then the only approximation, and it improves as the sample grows.

* **pairs**: the number of equal-kind pairs among the first four cards of each held coup, a
  z-score against its exact mean and variance. It sees a shoe of the wrong size (7 decks labelled 8)
  and dealing with replacement (no depletion).
* **serial**: consecutive held coups' outcomes, ``S = Σ_i x_i y_{i+1}ᵀ`` with ``x = e(w) − p``: a
  martingale whose conditional covariance is ``(Σ x xᵀ) ⊗ (diag p − p pᵀ)``, so
  ``tr(A⁻¹ S C⁻¹ Sᵀ)`` is chi-square with 4 degrees of freedom (the runs of outcomes).
* **shoe composition** (marked shoes): Pearson's spread ``Q`` of the kinds among each shoe's first
  half, summed over shoes, against its exact mean and variance (two-sided): too tight is a smaller
  shoe than stated, too wide no depletion.
* **next shoe** (marked shoes): ``Σ_s Σ_k (c_{s,k} − K_s p_k)(y_{s+1,k} − m p_k) / p_k`` between
  the cards of a shoe and the first ``m`` cards of the next. The next shoe's start is independent of
  the shoe before and exactly hypergeometric, so this is a martingale over shoes, with conditional
  variance ``uᵀ D Cov(y) D u``. Cards left behind the cut card and put back unshuffled on top of the
  next shoe make it strongly negative.
* **repeats**: runs of coups (or shoes' first cards) that repeat an earlier one exactly. A run long
  enough that a correct engine repeats one with probability under ``alpha / 1000`` is used (bounded
  with :func:`~solver.crosscheck.shoelaw.sequence_bound`), so one repeat rejects; the p-value is
  Markov's bound ``λ / r`` for ``r`` repeats when at most ``λ`` are expected.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from solver.crosscheck.shoelaw import pair_law, pair_mean, pair_variance, sequence_bound, spread_moments
from solver.crosscheck.stats import TestResult, chi2_power_lambda, chi2_test, two_sided_p, z_detectable, z_score
from solver.crosscheck.tally import CardStream, ShoeTallies, coup_codes, repeated_rows, windows

MAX_RUN = 64
"""The longest run of coups the repeat test compares (a shoe so small that no shorter run is rare enough
is not tested for repeats)."""

REPEAT_MARGIN = Fraction(1, 1000)
"""A repeat test's run is long enough that a correct engine repeats one with probability at most
this fraction of the test's false-alarm rate."""


def _kind(by_rank: bool) -> str:
    return "rank" if by_rank else "value"


def pairs_test(hist: np.ndarray, counts: tuple[int, ...], infinite: bool, by_rank: bool, alpha: float) -> TestResult:
    """Equal-kind pairs among the first four cards of each held coup, against their exact law."""
    n = int(hist.sum())
    total = int(np.dot(np.arange(len(hist)), hist))
    mean, var = pair_mean(counts, infinite), pair_variance(counts, infinite)
    se = math.sqrt(float(var) / n)
    z = z_score(Fraction(total, n), mean, se)
    rate = pair_law(counts, infinite)
    note = (
        f"{total / n:.5f} equal-{_kind(by_rank)} pairs a coup, exact {float(mean):.5f} ({mean}); "
        f"all four different {hist[0] / n:.5f} (exact {float(rate[0]):.5f})"
    )
    return TestResult(
        "pairs",
        "z",
        z,
        0,
        two_sided_p(z),
        alpha,
        two_sided_p(z) < alpha,
        z_detectable(alpha) * se,
        f"shift of the mean number of equal-{_kind(by_rank)} pairs among a coup's first four cards",
        note,
    )


def serial_test(table: np.ndarray, p: Sequence[float], alpha: float, what: str = "coups") -> TestResult:
    """Consecutive held coups' outcomes against independence: a martingale chi-square with
    ``(k − 1)²`` degrees of freedom for ``k`` outcome classes (4 for banker, player, tie); fewer when
    the earlier coups of the pairs span fewer classes, e.g. all alike."""
    from scipy import stats

    t = np.asarray(table, dtype=np.float64)
    m = t.sum()
    q = np.asarray(p, dtype=np.float64)
    k = len(q) - 1  # the classes' indicators less their mean sum to 0: the last is left out
    rows, cols = t.sum(axis=1), t.sum(axis=0)
    s = t - np.outer(q, cols) - np.outer(rows, q) + m * np.outer(q, q)
    a = np.diag(rows) - np.outer(q, rows) - np.outer(rows, q) + m * np.outer(q, q)
    c = np.diag(q) - np.outer(q, q)
    s2, a2, c2 = s[:k, :k], a[:k, :k], c[:k, :k]
    df = k * int(np.linalg.matrix_rank(a2))
    x2 = float(np.trace(np.linalg.pinv(a2) @ s2 @ np.linalg.solve(c2, s2.T)))
    pv = float(stats.chi2.sf(x2, df))
    same = np.trace(t) / m
    note = (
        f"{int(m):,} pairs of consecutive {what}; the same outcome twice running {same:.5f} of the time "
        f"(independent: {float(q @ q):.5f})"
    )
    return TestResult(
        "serial",
        "chi2",
        x2,
        df,
        pv,
        alpha,
        pv < alpha,
        float(chi2_power_lambda(df, alpha) / m),
        "divergence sum (q-p)^2/p of consecutive outcomes from independence",
        note,
    )


def shoe_card_test(t: ShoeTallies, counts: tuple[int, ...], alpha: float) -> TestResult:
    """The kinds among the first half of every shoe against the shoe's proportions (hypergeometric)."""
    size = sum(counts)
    p = np.array([c / size for c in counts])
    n = t.comp_len * t.comp_shoes
    return chi2_test("card law", t.comp[0], p, n, alpha, scale=(size - t.comp_len) / (size - 1), per="card")


def spread_test(t: ShoeTallies, counts: tuple[int, ...], alpha: float) -> TestResult:
    """Pearson's spread of the kinds among each shoe's first half, summed over shoes (two-sided)."""
    if t.impossible is not None:
        return TestResult("shoe composition", "z", math.inf, 0, 0.0, alpha, True, 0.0, "", t.impossible)
    size, length, shoes = sum(counts), t.comp_len, t.comp_shoes
    total = Fraction(0)
    for k, c in enumerate(counts):
        if c:
            mu = Fraction(length * c, size)
            total += (int(t.comp[1, k]) - 2 * mu * int(t.comp[0, k]) + shoes * mu * mu) / mu
    mean, var = spread_moments(counts, length)
    se = math.sqrt(float(var) / shoes)
    z = z_score(total / shoes, mean, se)
    note = (
        f"{shoes:,} shoes; spread of a shoe's first {length} cards {float(total / shoes):.4f} on average, exact {float(mean):.4f}"
    )
    pv = two_sided_p(z)
    return TestResult(
        "shoe composition",
        "z",
        z,
        0,
        pv,
        alpha,
        pv < alpha,
        z_detectable(alpha) * se / float(mean),
        "relative change of the spread of the cards within a shoe",
        note,
    )


def next_shoe_test(t: ShoeTallies, counts: tuple[int, ...], alpha: float) -> TestResult:
    """A shoe's cards against the next shoe's first cards: zero correlation when shoes are shuffled apart."""
    size, m, pairs = sum(counts), t.next_len, t.next_pairs
    live = [k for k, c in enumerate(counts) if c]
    p = {k: Fraction(counts[k], size) for k in live}
    cy, c, ky, kc = (t.next_vec[i] for i in range(4))
    stat = sum(
        ((int(cy[k]) - m * p[k] * int(c[k]) - p[k] * int(ky[k]) + m * p[k] * p[k] * t.next_k1) / p[k] for k in live), Fraction(0)
    )
    factor = Fraction(m * (size - m), size - 1)
    var = Fraction(0)
    for k in live:
        for j in live:
            uu = int(t.next_cc[k, j]) - p[j] * int(kc[k]) - p[k] * int(kc[j]) + p[k] * p[j] * t.next_kk
            cov = factor * ((p[k] if k == j else 0) - p[k] * p[j])
            var += cov * uu / (p[k] * p[j])
    z = float(stat) / math.sqrt(float(var)) if var > 0 else 0.0
    pv = two_sided_p(z)
    note = f"{pairs:,} pairs of consecutive shoes; the next shoe's first {m} cards"
    return TestResult(
        "next shoe",
        "z",
        z,
        0,
        pv,
        alpha,
        pv < alpha,
        z_detectable(alpha) / math.sqrt(pairs),
        f"correlation of a shoe's cards with the next shoe's first {m} (per pair of shoes)",
        note,
    )


@dataclass(frozen=True)
class RepeatPlan:
    """What the repeat test compares: the first ``length`` cards of every shoe long enough (``shoes``),
    or every run of ``length`` consecutive held coups; ``expected`` bounds the repeats a correct engine
    makes (at most :data:`REPEAT_MARGIN` of the test's rate)."""

    shoes: bool
    length: int
    expected: Fraction


def repeat_plan(
    stream: CardStream, held: np.ndarray, marked: bool, counts: tuple[int, ...], infinite: bool, alpha: float, coup_cards: int = 4
) -> RepeatPlan | None:
    """The shortest run rare enough to compare at false-alarm rate ``alpha``, or None where there is
    none (a file too short, or a shoe too small, for a run that rare) or fewer than two to compare.
    Every coup deals at least ``coup_cards`` cards, so no coup is likelier than its first ``coup_cards``."""
    limit = REPEAT_MARGIN * Fraction(alpha)
    if marked:
        _, length = stream.shoe_bounds()
        cap = min(int(length.max()), sum(counts) // 2) if len(length) else 0
        for run in range(1, cap + 1):
            long = int((length >= run).sum())
            expected = comb(long, 2) * sequence_bound(counts, run, infinite)
            if expected <= limit:
                if long >= 2:
                    return RepeatPlan(True, run, expected)
                break
    one = sequence_bound(counts, coup_cards, infinite)
    n = len(held)
    for width in range(1, min(n, MAX_RUN) + 1):
        expected = comb(n - width + 1, 2) * one**width
        if expected <= limit:
            return RepeatPlan(False, width, expected) if n - width + 1 >= 2 else None
    return None


def repeats_test(
    stream: CardStream,
    held: np.ndarray,
    marked: bool,
    counts: tuple[int, ...],
    infinite: bool,
    by_rank: bool,
    alpha: float,
    coup_cards: int = 4,
) -> TestResult | None:
    """Runs of coups, or shoes' first cards, that repeat an earlier run exactly (a re-dealt shoe, a
    generator restarted from the same state); None where :func:`repeat_plan` finds no run to compare."""
    plan = repeat_plan(stream, held, marked, counts, infinite, alpha, coup_cards)
    if plan is None:
        return None
    kind = _kind(by_rank)
    run = plan.length
    if plan.shoes:
        first, length = stream.shoe_bounds()
        long = length >= run
        rows = stream.kinds(by_rank)[first[long][:, None] + np.arange(run)]
        found, at = repeated_rows(rows)
        where = ""
        if found:
            line = int(stream.coup_lines[stream.shoe_starts[np.flatnonzero(long)[at]]])
            where = f"; the first: the shoe that starts at line {line}"
        return _repeat_result(
            found,
            plan.expected,
            alpha,
            f"{int(long.sum()):,} shoes compared by their first {run} {kind}s{where}",
            f"shoe whose first {run} cards repeat an earlier shoe's",
        )
    rows = windows(coup_codes(stream, held, by_rank), run)
    found, at = repeated_rows(rows)
    where = f"; the first at line {int(stream.coup_lines[held[at]])}" if found else ""
    return _repeat_result(
        found,
        plan.expected,
        alpha,
        f"{len(rows):,} runs of {run} consecutive coups compared{where}",
        f"run of {run} consecutive coups repeated",
    )


def _repeat_result(found: int, expected: Fraction, alpha: float, note: str, what: str) -> TestResult:
    pv = 1.0 if not found else min(1.0, float(expected) / found)
    return TestResult(
        "repeats", "count", float(found), 0, pv, alpha, pv < alpha, 1.0, what + " (one rejects)", f"{found} repeated; {note}"
    )
