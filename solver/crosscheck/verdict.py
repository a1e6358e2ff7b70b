"""The cross-check: which tests a sample allows, each at its share of the false-alarm rate, and the verdict."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from solver.crosscheck.law import DEFAULT_ALPHA, MIN_EXPECTED, ExactLaw
from solver.crosscheck.sample import Sample
from solver.crosscheck.stats import TestResult, chi2_test, z_test
from solver.crosscheck.structure import (
    next_shoe_test,
    pairs_test,
    repeats_test,
    serial_test,
    shoe_card_test,
    spread_test,
)
from solver.crosscheck.tally import ShoeTallies, pair_histogram, shoe_tallies
from solver.deal.tree import N_DETAIL
from solver.errors import InputError
from solver.punto import STANDARD_COMMISSION
from solver.simulate.config import Payout, default_payouts

__all__ = ["CrossCheck", "TestResult", "crosscheck"]


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


def crosscheck(
    sample: Sample,
    law: ExactLaw,
    payouts: Iterable[Payout] | None = None,
    burn: Mapping[int, Mapping[str, Fraction]] | None = None,
    alpha: Fraction = DEFAULT_ALPHA,
) -> CrossCheck:
    """Hold a sample of coups against the exact law.

    The coups held to the exact first-coup law (every coup of a file that marks no shoes; each shoe's
    first coup otherwise) are tested for their outcome, detail, pairs and serial laws and, where the
    engine reports them, their settlements; the cards of marked shoes for their composition, their
    spread within a shoe and their independence from the shoe before; a file's coups for repeats
    (:mod:`solver.crosscheck.structure`).

    Args:
        sample: the coups (:func:`sample_from_simulation`, :func:`read_coups`).
        law: the exact first-coup law (:func:`exact_law` or :func:`law_from_probabilities`).
        payouts: the correct settlement of the bets (default: the game's, at 5 % commission); tested
            only for the bets the sample reports settled.
        burn: exact outcome law given the turned burn card's value (:func:`burn_laws`), to test a
            sample that records its burns.
        alpha: the cross-check's false-alarm rate, split evenly over its tests.

    Returns:
        A :class:`CrossCheck`; ``passed`` is the verdict.
    """
    if sample.n < 1:
        raise InputError("no coups to check")
    impossible = [str(k) for k, p in law.winner.items() if p == 0]
    if impossible:
        raise InputError(
            f"the exact law of this shoe gives probability 0 to {', '.join(impossible)}: the cross-check's "
            "tests need every outcome possible (such a shoe deals its coups by rule, with nothing to test)"
        )
    least = math.ceil(MIN_EXPECTED / float(min(law.winner.values())))
    if sample.n < least:
        few = f"{sample.n} shoes (the first coup of each is held to the exact law)" if sample.shoes else f"{sample.n}"
        raise InputError(
            f"too few coups to check: {few}; the outcome law needs at least {least} "
            f"(an expected {MIN_EXPECTED:g} of the rarest outcome)"
        )
    pays = tuple(payouts) if payouts is not None else default_payouts(law.game, STANDARD_COMMISSION)
    pays = tuple(p for p in pays if p.name in sample.bets)
    shoe = law.shoe
    stream = sample.stream
    by_rank = shoe.ranks is not None and (stream.by_rank if stream is not None else sample.by_rank)
    counts = shoe.ranks if by_rank and shoe.ranks is not None else shoe.values
    held = sample.held if sample.held is not None else np.zeros(0, np.int64)
    pairs = sample.pairs
    if stream is not None and pairs is None and len(held):
        pairs = pair_histogram(stream.first_four(held, by_rank))
    shoes: ShoeTallies | None = sample.shoe_tallies
    if sample.by_rank != by_rank and stream is None:
        pairs = shoes = None  # counted by ranks as dealt, but the law's shoe is known by value only
    if shoes is None and stream is not None and sample.whole_shoes and not shoe.is_infinite:
        shoes = shoe_tallies(stream, counts, by_rank, shoe.label())
    if shoe.is_infinite:
        shoes = None
    half_shoes = shoes is not None and shoes.comp_shoes > 0
    pd = np.zeros(N_DETAIL)
    for k, q in (law.detail or {}).items():
        pd[k] = float(q)
    # the detail law needs two cells of five expected coups or more (else it is left out, not run empty);
    # that depends on the expected counts alone: the pooling is tried on them
    run_detail = (
        sample.detail is not None
        and law.detail is not None
        and chi2_test("detail law", pd * sample.n, pd, sample.n, float(alpha)).df > 0
    )
    run_cards = (sample.cards is not None and not shoe.is_infinite) or half_shoes
    run_burn = sample.burn is not None and burn is not None
    run_spread = shoes is not None and (half_shoes or shoes.impossible is not None)
    run_next = shoes is not None and shoes.next_pairs > 0
    serial_ready = sample.serial is not None and int(sample.serial.sum()) >= 10
    m = 1 + run_detail + run_cards + run_burn + (pairs is not None) + serial_ready + run_spread + run_next + len(pays)
    repeats = None
    if stream is not None:  # first: a file too short (or a shoe too small) for a rare enough run is not tested
        repeats = repeats_test(stream, held, sample.whole_shoes, counts, shoe.is_infinite, by_rank, float(alpha) / (m + 1))
        m += repeats is not None
    a = float(alpha) / m
    n = sample.n
    tests: list[TestResult] = []
    pw = np.array([float(q) for q in law.vector()])
    t = chi2_test("outcome law", sample.winner, pw, n, a)
    names = law.names
    # the shift of P(banker) against P(player) that the outcome test detects
    shift = math.sqrt(t.detectable / (1 / pw[0] + 1 / pw[1])) if math.isfinite(t.detectable) else math.inf
    obs = ", ".join(f"{k} {c / n:.5f} (exact {float(q):.5f})" for k, c, q in zip(names, sample.winner, law.vector()))
    tests.append(
        TestResult(
            t.name,
            t.kind,
            t.statistic,
            t.df,
            t.p_value,
            t.alpha,
            t.rejected,
            shift,
            f"shift of P({names[0]}) against P({names[1]})",
            obs,
        )
    )
    if run_detail:
        assert sample.detail is not None
        tests.append(chi2_test("detail law", sample.detail, pd, n, a))
    if half_shoes:
        assert shoes is not None
        tests.append(shoe_card_test(shoes, counts, a))
    elif run_cards:
        assert sample.cards is not None
        size = shoe.size
        pc = np.array([c / size for c in shoe.values])
        tests.append(chi2_test("card law", sample.cards, pc, 4 * n, a, scale=(size - 4) / (size - 1), per="card"))
    if run_burn:
        assert sample.burn is not None and burn is not None
        size = shoe.size
        pb = np.zeros((10, 3))
        for v, cond in burn.items():
            for i, name in enumerate(names):
                pb[v, i] = float(Fraction(shoe.values[v], size) * cond[name])
        tests.append(chi2_test("burn law", sample.burn.ravel(), pb.ravel(), int(sample.burn.sum()), a))
    if pairs is not None:
        tests.append(pairs_test(pairs, counts, shoe.is_infinite, by_rank, a))
    if serial_ready:
        assert sample.serial is not None
        tests.append(
            serial_test(sample.serial, (pw[0], pw[1], pw[2]), a, "shoes' first coups" if sample.whole_shoes else "coups")
        )
    if run_spread:
        assert shoes is not None
        tests.append(spread_test(shoes, counts, a))
    if run_next:
        assert shoes is not None
        tests.append(next_shoe_test(shoes, counts, a))
    if repeats is not None:
        tests.append(repeats)
    for p in pays:
        total, _ = sample.bets[p.name]
        tests.append(z_test(f"bet {p.name}", total, n, law.bet_mean(p), law.bet_variance(p), a))
    assert len(tests) == m
    notes = _notes(sample, shoes, stream is not None)
    if sample.detail is not None and law.detail is not None and not run_detail:
        notes = (
            f"the detail law is left out: {n:,} coups held to the exact law are too few for two cells of "
            f"{MIN_EXPECTED:g} expected coups",
            *notes,
        )
    return CrossCheck(sample, law, Fraction(alpha), tuple(tests), notes)


def _notes(sample: Sample, shoes: ShoeTallies | None, is_file: bool) -> tuple[str, ...]:
    out = []
    if sample.whole_shoes:
        out.append(
            f"{sample.total_coups:,} coups in {sample.shoes:,} shoes: the outcome, detail and pair laws, the "
            "serial test and the bets hold each shoe's first coup to the exact law"
        )
        if shoes is not None:
            short = shoes.shoes - shoes.comp_shoes
            if short:
                out.append(
                    f"{short:,} shoe{'s' if short > 1 else ''} dealt fewer than half the shoe "
                    f"({shoes.comp_len} cards) and {'are' if short > 1 else 'is'} left out of the card law "
                    "and the shoe composition (a file that stops in the middle of a shoe has one)"
                )
    elif is_file:
        out.append(
            "the file marks no shoes, so each coup is held to the law of a coup from a freshly shuffled shoe; "
            "coups dealt through whole shoes must be marked (a line 'shoe' before each shoe)"
        )
    if is_file and not sample.bets:
        out.append(
            "the file reports no settlements, so no bet is tested (write them after the outcome: ';B;banker=19/20,player=-1')"
        )
    return tuple(out)
