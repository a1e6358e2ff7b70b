"""The cross-check's tests as a registry: each test says when it applies to a sample, and runs.

A test (:class:`SampleTest`) is a small object. Given a :class:`SampleView` (the sample, the exact law,
and what the two imply: the kinds the cards are counted by, the pairs, the shoes' tallies) it says
whether it *applies* (the sample holds what the test reads, and enough of it) and it *runs* at a
false-alarm rate, returning a :class:`~solver.crosscheck.stats.TestResult`: its statistic, its p-value
and the smallest deviation it detects with probability 0.8 (its power). :func:`select` keeps the tests
that apply, in the order of :data:`REGISTRY` (then one test per bet settled), and the verdict runs
each at ``alpha / m`` for the ``m`` it kept: the Bonferroni count is the number of tests that apply.

The repeats test alone needs its rate to say whether it applies (it compares runs long enough that a
correct engine repeats one with probability under a thousandth of its rate, and a file too short for
such a run is not tested). A test that ``needs_rate`` is asked after the others, at the rate it gets if
it applies: ``alpha / (m + k)`` for the ``m`` others that apply and the ``k`` tests that need a rate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Protocol

import numpy as np

from solver.cards import Shoe
from solver.crosscheck.law import ExactLaw, Law, Settles
from solver.crosscheck.sample import Sample
from solver.crosscheck.stats import TestResult, chi2_test, pooled_cells, z_test
from solver.crosscheck.structure import (
    next_shoe_test,
    pairs_test,
    repeat_plan,
    repeats_test,
    serial_test,
    shoe_card_test,
    spread_test,
)
from solver.crosscheck.tally import CardStream, ShoeTallies, pair_histogram, shoe_tallies

MIN_SERIAL_PAIRS = 10
"""The serial test reads at least this many pairs of consecutive held coups."""


@dataclass(frozen=True, eq=False)
class SampleView:
    """A sample seen against an exact law: what every test reads, derived once.

    Attributes:
        sample, law: the coups and the exact law of a first coup.
        counts: cards of each kind in the law's shoe: by rank where both the shoe and the coups name
            ranks, else by point value.
        by_rank: the kinds are ranks.
        held: a file's indices of the coups held to the first-coup law (empty for our simulator).
        pairs: held coups by their equal-kind pairs among their first four cards, or None.
        shoes: the marked shoes' tallies (a file's, or our simulator's), or None (an infinite shoe).
        payouts: the correct settlement of each bet the sample reports settled.
        burn: the exact outcome law given the turned burn card's value, when tested.
        outcome_p, detail_p, serial_p: the law's probabilities as floats, for the statistics.
    """

    sample: Sample
    law: Law
    counts: tuple[int, ...]
    by_rank: bool
    held: np.ndarray
    pairs: np.ndarray | None
    shoes: ShoeTallies | None
    payouts: tuple[Settles, ...]
    burn: Mapping[int, Mapping[str, Fraction]] | None
    outcome_p: np.ndarray
    detail_p: np.ndarray
    serial_p: np.ndarray

    @classmethod
    def of(
        cls,
        sample: Sample,
        law: Law,
        payouts: Sequence[Settles] | None = None,
        burn: Mapping[int, Mapping[str, Fraction]] | None = None,
    ) -> SampleView:
        """The view of a sample (``payouts``: the correct settlements, default the law's)."""
        pays = tuple(payouts) if payouts is not None else law.settlements()
        shoe = law.shoe
        stream = sample.stream
        by_rank = shoe.ranks is not None and (stream.by_rank if stream is not None else sample.by_rank)
        counts = shoe.ranks if by_rank and shoe.ranks is not None else shoe.values
        held = sample.held if sample.held is not None else np.zeros(0, np.int64)
        pairs = sample.pairs
        if stream is not None and pairs is None and len(held):
            pairs = pair_histogram(stream.first_four(held, by_rank))
        shoes = sample.shoe_tallies
        if sample.by_rank != by_rank and stream is None:
            pairs = shoes = None  # counted by ranks as dealt, but the law's shoe is known by value only
        if shoes is None and stream is not None and sample.whole_shoes and not shoe.is_infinite:
            shoes = shoe_tallies(stream, counts, by_rank, shoe.label())
        if shoe.is_infinite:
            shoes = None
        detail_p = np.zeros(law.detail_size)
        for k, q in (law.detail or {}).items():
            detail_p[k] = float(q)
        return cls(
            sample,
            law,
            counts,
            by_rank,
            held,
            pairs,
            shoes,
            tuple(p for p in pays if p.name in sample.bets),
            burn,
            np.array([float(q) for q in law.vector()]),
            detail_p,
            np.array([float(q) for q in law.serial_vector()]),
        )

    @property
    def n(self) -> int:
        """Coups held to the exact first-coup law."""
        return self.sample.n

    @property
    def shoe(self) -> Shoe:
        return self.law.shoe

    @property
    def stream(self) -> CardStream | None:
        return self.sample.stream

    @property
    def half_shoes(self) -> bool:
        """Some marked shoe dealt half its cards: the card law reads the shoes' first halves."""
        return self.shoes is not None and self.shoes.comp_shoes > 0

    def detail_runs(self) -> bool:
        """The detail law has two cells of 5 expected coups or more (a property of the expected counts
        alone: the pooling is tried on them)."""
        s, law = self.sample, self.law
        if s.detail is None or law.detail is None:
            return False
        return len(pooled_cells(self.detail_p * s.n, self.detail_p, s.n)[0]) > 1


class SampleTest(Protocol):
    """One test of the cross-check: when it applies, and how it runs."""

    @property
    def needs_rate(self) -> bool:
        """Whether :meth:`applies` reads the rate (asked after the tests that do not)."""

    def applies(self, view: SampleView, rate: float) -> bool:
        """Whether the sample holds what the test reads, and enough of it, at this rate."""

    def run(self, view: SampleView, rate: float) -> TestResult:
        """The test at false-alarm rate ``rate``: its statistic, p-value and power."""


class _Fixed:
    needs_rate = False


class OutcomeLaw(_Fixed):
    """Pearson's chi-square of the held coups' outcomes; for banker, player and tie its power is also
    the shift of P(banker) against P(player) it detects."""

    def applies(self, view: SampleView, rate: float) -> bool:
        return True

    def run(self, view: SampleView, rate: float) -> TestResult:
        n, pw, law = view.n, view.outcome_p, view.law
        t = chi2_test("outcome law", view.sample.winner, pw, n, rate)
        if not isinstance(law, ExactLaw):
            return t
        names = law.names
        shift = math.sqrt(t.detectable / (1 / pw[0] + 1 / pw[1])) if math.isfinite(t.detectable) else math.inf
        obs = ", ".join(f"{k} {c / n:.5f} (exact {float(q):.5f})" for k, c, q in zip(names, view.sample.winner, law.vector()))
        return replace(t, detectable=shift, detectable_what=f"shift of P({names[0]}) against P({names[1]})", note=obs)


class DetailLaw(_Fixed):
    """Chi-square over the coup's detail, cells under 5 expected pooled."""

    def applies(self, view: SampleView, rate: float) -> bool:
        return view.detail_runs()

    def run(self, view: SampleView, rate: float) -> TestResult:
        assert view.sample.detail is not None
        return chi2_test("detail law", view.sample.detail, view.detail_p, view.n, rate)


class CardLaw(_Fixed):
    """The cards every held coup deals against the shoe (hypergeometric: the statistic divided by
    ``(N − c)/(N − 1)`` for ``c`` cards a coup); with marked shoes, every card of each shoe's first half."""

    def applies(self, view: SampleView, rate: float) -> bool:
        return (view.sample.cards is not None and not view.shoe.is_infinite) or view.half_shoes

    def run(self, view: SampleView, rate: float) -> TestResult:
        if view.half_shoes:
            assert view.shoes is not None
            return shoe_card_test(view.shoes, view.counts, rate)
        assert view.sample.cards is not None
        size, c = view.shoe.size, view.law.cards_per_coup
        pc = np.array([k / size for k in view.shoe.values])
        return chi2_test("card law", view.sample.cards, pc, c * view.n, rate, scale=(size - c) / (size - 1), per="card")


class BurnLaw(_Fixed):
    """The outcome by the turned burn card's value, against the law of the shoe less that card."""

    def applies(self, view: SampleView, rate: float) -> bool:
        return view.sample.burn is not None and view.burn is not None

    def run(self, view: SampleView, rate: float) -> TestResult:
        assert view.sample.burn is not None and view.burn is not None
        shoe, names = view.shoe, view.law.names
        pb = np.zeros((10, len(names)))
        for v, cond in view.burn.items():
            for i, name in enumerate(names):
                pb[v, i] = float(Fraction(shoe.values[v], shoe.size) * cond[name])
        return chi2_test("burn law", view.sample.burn.ravel(), pb.ravel(), int(view.sample.burn.sum()), rate)


class Pairs(_Fixed):
    """Equal-kind pairs among the held coups' first four cards (:func:`~solver.crosscheck.structure.pairs_test`)."""

    def applies(self, view: SampleView, rate: float) -> bool:
        return view.pairs is not None

    def run(self, view: SampleView, rate: float) -> TestResult:
        assert view.pairs is not None
        return pairs_test(view.pairs, view.counts, view.shoe.is_infinite, view.by_rank, rate)


class Serial(_Fixed):
    """Consecutive held coups' outcome classes against independence (:func:`~solver.crosscheck.structure.serial_test`)."""

    def applies(self, view: SampleView, rate: float) -> bool:
        return view.sample.serial is not None and int(view.sample.serial.sum()) >= MIN_SERIAL_PAIRS

    def run(self, view: SampleView, rate: float) -> TestResult:
        assert view.sample.serial is not None
        what = "shoes' first coups" if view.sample.whole_shoes else "coups"
        return serial_test(view.sample.serial, tuple(view.serial_p), rate, what)


class ShoeComposition(_Fixed):
    """The spread of the kinds within each marked shoe's first half (:func:`~solver.crosscheck.structure.spread_test`)."""

    def applies(self, view: SampleView, rate: float) -> bool:
        return view.shoes is not None and (view.half_shoes or view.shoes.impossible is not None)

    def run(self, view: SampleView, rate: float) -> TestResult:
        assert view.shoes is not None
        return spread_test(view.shoes, view.counts, rate)


class NextShoe(_Fixed):
    """A marked shoe's cards against the next shoe's first cards (:func:`~solver.crosscheck.structure.next_shoe_test`)."""

    def applies(self, view: SampleView, rate: float) -> bool:
        return view.shoes is not None and view.shoes.next_pairs > 0

    def run(self, view: SampleView, rate: float) -> TestResult:
        assert view.shoes is not None
        return next_shoe_test(view.shoes, view.counts, rate)


class Repeats:
    """A file's runs of coups, or shoes' first cards, repeated (:func:`~solver.crosscheck.structure.repeats_test`)."""

    needs_rate = True

    def applies(self, view: SampleView, rate: float) -> bool:
        s = view.stream
        if s is None:
            return False
        infinite, cards = view.shoe.is_infinite, view.law.cards_per_coup
        return repeat_plan(s, view.held, view.sample.whole_shoes, view.counts, infinite, rate, cards) is not None

    def run(self, view: SampleView, rate: float) -> TestResult:
        assert view.stream is not None
        infinite, cards = view.shoe.is_infinite, view.law.cards_per_coup
        t = repeats_test(view.stream, view.held, view.sample.whole_shoes, view.counts, infinite, view.by_rank, rate, cards)
        assert t is not None
        return t


@dataclass(frozen=True)
class Settlement(_Fixed):
    """One bet's mean net result as the engine settled it, a z-score against the exact mean with the
    exact variance (two-sided)."""

    payout: Settles

    def applies(self, view: SampleView, rate: float) -> bool:
        return self.payout.name in view.sample.bets

    def run(self, view: SampleView, rate: float) -> TestResult:
        law, p = view.law, self.payout
        total, _ = view.sample.bets[p.name]
        return z_test(law.bet_test_name(p.name), total, view.n, law.bet_mean(p), law.bet_variance(p), rate)


REGISTRY: tuple[SampleTest, ...] = (
    OutcomeLaw(),
    DetailLaw(),
    CardLaw(),
    BurnLaw(),
    Pairs(),
    Serial(),
    ShoeComposition(),
    NextShoe(),
    Repeats(),
)
"""The tests of every cross-check, in the order they are reported; the bets' tests follow."""


def select(view: SampleView, alpha: float) -> tuple[SampleTest, ...]:
    """The tests that apply to the view at the whole cross-check's rate ``alpha``, in report order:
    :data:`REGISTRY`, then a :class:`Settlement` test for each bet the sample reports settled."""
    tests = (*REGISTRY, *(Settlement(p) for p in view.payouts))
    fixed = [t for t in tests if not t.needs_rate and t.applies(view, alpha)]
    late = [t for t in tests if t.needs_rate]
    rate = alpha / (len(fixed) + len(late))
    chosen = {id(t) for t in fixed} | {id(t) for t in late if t.applies(view, rate)}
    return tuple(t for t in tests if id(t) in chosen)
