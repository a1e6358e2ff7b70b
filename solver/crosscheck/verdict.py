"""The cross-check: the registry's tests that apply to a sample, each at its share of the false-alarm rate; the verdict."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from solver.crosscheck.law import DEFAULT_ALPHA, MIN_EXPECTED, ExactLaw, Law, Settles
from solver.crosscheck.registry import SampleView, select
from solver.crosscheck.sample import RuleBreaks, Sample
from solver.crosscheck.stats import TestResult
from solver.errors import InputError

__all__ = ["RULES", "CrossCheck", "TestResult", "crosscheck"]

RULES = "rules"
"""The name of the check that a file's coups follow the rules (a rejection, never a false alarm)."""


@dataclass(frozen=True, eq=False)
class CrossCheck:
    """The verdict of holding a sample against an exact law."""

    sample: Sample
    law: Law
    alpha: Fraction
    tests: tuple[TestResult, ...]
    notes: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        """Coups held to the exact first-coup law."""
        return self.sample.n

    @property
    def statistical(self) -> int:
        """The statistical tests run (the Bonferroni count): every test but the check of the rules."""
        return sum(t.name != RULES for t in self.tests)

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
    law: Law,
    payouts: Iterable[Settles] | None = None,
    burn: Mapping[int, Mapping[str, Fraction]] | None = None,
    alpha: Fraction = DEFAULT_ALPHA,
) -> CrossCheck:
    """Hold a sample of coups against the exact law.

    The coups held to the exact first-coup law (every coup of a file that marks no shoes; each shoe's
    first coup otherwise) are tested for their outcome, detail, pairs and serial laws and, where the
    engine reports them, their settlements; the cards of marked shoes for their composition, their
    spread within a shoe and their independence from the shoe before; a file's coups for repeats
    (:mod:`solver.crosscheck.structure`). Every test of :data:`~solver.crosscheck.registry.REGISTRY`
    that applies to the sample runs, each at ``alpha / m`` for the ``m`` that apply (Bonferroni).

    Args:
        sample: the coups (:func:`sample_from_simulation`, :func:`read_coups`).
        law: the exact first-coup law (:func:`exact_law` or :func:`law_from_probabilities`; baccara
            banque's :func:`~solver.crosscheck.banque.banque_law`).
        payouts: the correct settlement of the bets (default: the law's, at 5 % commission for punto
            banco and chemin de fer); tested only for the bets the sample reports settled.
        burn: exact outcome law given the turned burn card's value (:func:`burn_laws`), to test a
            sample that records its burns.
        alpha: the cross-check's false-alarm rate, split evenly over its tests.

    Returns:
        A :class:`CrossCheck`; ``passed`` is the verdict. A file with coups that break the rules
        (``sample.rule_breaks``) is rejected by them alone, with no statistical test run.

    Raises:
        InputError: no coups, an outcome the law makes impossible, or too few coups for the outcome law.
    """
    if sample.rule_breaks is not None:
        return _broken(sample, law, Fraction(alpha), sample.rule_breaks)
    _check_usable(sample, law)
    view = SampleView.of(sample, law, None if payouts is None else tuple(payouts), burn)
    chosen = select(view, float(alpha))
    rate = float(alpha) / len(chosen)
    tests = tuple(t.run(view, rate) for t in chosen)
    return CrossCheck(sample, law, Fraction(alpha), tests, _notes(view))


def _broken(sample: Sample, law: Law, alpha: Fraction, breaks: RuleBreaks) -> CrossCheck:
    """The rejection of a file with coups that break the rules: certain, so no statistic is needed."""
    line, what = breaks.first[0]
    rules = TestResult(
        RULES,
        "count",
        float(breaks.count),
        0,
        0.0,
        0.0,
        True,
        1.0,
        "coup that breaks the rules (one rejects)",
        f"{breaks.count:,} of {sample.total_coups:,} coups {'breaks' if breaks.count == 1 else 'break'} the rules; "
        f"the first, line {line}: {what}",
    )
    more = breaks.count - len(breaks.first)
    notes = (
        *(f"line {at}: {text}" for at, text in breaks.first[1:]),
        *((f"and {more:,} more coup{'s that break' if more > 1 else ' that breaks'} the rules",) if more else ()),
        "the rules are the tableau's and the strategy's fixed decisions; a correct engine never breaks them",
    )
    return CrossCheck(sample, law, alpha, (rules,), notes)


def _check_usable(sample: Sample, law: Law) -> None:
    if sample.n < 1:
        raise InputError("no coups to check")
    impossible = [name for name, p in zip(law.names, law.vector()) if p == 0]
    if impossible:
        raise InputError(
            f"the exact law of this shoe gives probability 0 to {', '.join(impossible)}: the cross-check's "
            "tests need every outcome possible (such a shoe deals its coups by rule, with nothing to test)"
        )
    least = math.ceil(MIN_EXPECTED / float(min(law.vector())))
    if sample.n < least:
        few = f"{sample.n} shoes (the first coup of each is held to the exact law)" if sample.shoes else f"{sample.n}"
        raise InputError(
            f"too few coups to check: {few}; the outcome law needs at least {least} "
            f"(an expected {MIN_EXPECTED:g} of the rarest outcome)"
        )


def _notes(view: SampleView) -> tuple[str, ...]:
    sample, shoes, is_file = view.sample, view.shoes, view.stream is not None
    out = []
    if sample.detail is not None and view.law.detail is not None and not view.detail_runs():
        out.append(
            f"the detail law is left out: {sample.n:,} coups held to the exact law are too few for two cells of "
            f"{MIN_EXPECTED:g} expected coups"
        )
    punto = isinstance(view.law, ExactLaw)  # punto banco or chemin de fer; else baccara banque
    if sample.whole_shoes:
        held = (
            "the outcome, detail and pair laws, the serial test and the bets hold each shoe's first coup to the exact law"
            if punto
            else "the tests hold each shoe's first coup to the exact law (a later coup comes from a depleted shoe)"
        )
        out.append(f"{sample.total_coups:,} coups in {sample.shoes:,} shoes: {held}")
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
        example = ";B;banker=19/20,player=-1" if punto else ";BP;banker=0,player1=-1,player2=1"
        out.append(f"the file reports no settlements, so no bet is tested (write them after the outcome: '{example}')")
    return tuple(out)
