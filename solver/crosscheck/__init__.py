"""Holding simulated coups against the exact law: ours, or a dealing engine's file of coups.

The exact law of one coup dealt from a freshly shuffled shoe comes from the enumerator only
(:func:`solver.deal.outcome.outcomes` for a fixed tableau; for a strategy on totals that mixes at a few
cells, the exact mixture of the pure tableaux' laws, multilinear in the cell probabilities; for a
chemin de fer solution, ``solver.chemin.game.strategy_law`` when it is available, or any law passed in).

The coups *held* to that law are every coup of a sample that marks no shoes (each taken to come from
a freshly shuffled shoe: our simulator's first-coup mode, or a file without ``shoe`` lines), and the
first coup of each shoe of a sample that marks its shoes (our simulator dealing whole shoes, or a
file with a ``shoe`` line before each shoe). The first coup of a shoe has the exact law whatever the
burn and the cut card; a later coup of the same shoe does not (its cards come from a depleted shoe,
and which cards depends on the coups before), so the laws below are never applied to it. The cards
of whole shoes are tested instead by laws that are exact for whole shoes.

The tests are a registry (:data:`~solver.crosscheck.registry.REGISTRY`): each says when it applies to
a sample and runs. Every test that applies runs at false-alarm rate ``alpha / m`` (Bonferroni over the
``m`` that apply, so the whole cross-check wrongly rejects a correct engine with probability at most
``alpha``, 0.001 by default). The same registry serves every game: baccara banque's exact law
(:mod:`solver.crosscheck.banque`) and its file of coups (:mod:`solver.crosscheck.banque_coups`) go
through it too. A file's coup that breaks the rules rejects the engine outright (no correct engine
deals one), and no statistical test is run:

* **outcome law**: Pearson's chi-square of banker / player / tie counts (2 degrees of freedom);
* **detail law**: chi-square over the coup's detail (final totals, who drew a third card, natural),
  the rows of :class:`~solver.deal.outcome.OutcomeTable`, cells with expected count under 5 pooled. It sees
  a wrong tableau cell long before the outcome law does;
* **card law**: the point values of the four cards every held coup deals against ``n_v / N``; their
  counts are multivariate hypergeometric, so Pearson's statistic is divided by ``(N − 4)/(N − 1)``
  (9 degrees of freedom). For marked shoes, the kinds of every card of the first half of each shoe,
  divided by ``(N − N/2)/(N − 1)``. It sees a shoe of the wrong composition;
* **burn law** (our simulator, when the burn turns a card): outcome by the turned card's value
  against ``P(turned = v) P(outcome | shoe less one card of value v)``. It sees a burn that leaks;
* **pairs**, **serial**, **shoe composition**, **next shoe**, **repeats**: the structure that no
  marginal law shows: the shoe's size, depletion, independence between coups and between shoes
  (:mod:`solver.crosscheck.structure`);
* **bets**: each bet's mean net result as the engine settled it, as a z-score against the exact
  expected value with the exact variance (two-sided). It sees a wrong settlement; run only where the
  engine reports its settlements (our simulator, or a file that writes them).

Power: for each test the report gives the smallest deviation it detects with probability 0.8 at
this sample size and rate: for a bet, the shift of its mean; for a chi-square, the smallest
divergence ``D = Σ (q − p)² / p`` (with the matching shift of P(banker) against P(player)).

>>> from solver.cards import Shoe
>>> from solver.simulate import PUNTO_STRATEGY
>>> law = exact_law("punto", Shoe.decks(8), PUNTO_STRATEGY)
>>> law.winner["banker"]
Fraction(8954111587648, 19524993263685)
"""

from __future__ import annotations

from solver.crosscheck.law import (
    DEFAULT_ALPHA,
    MAX_MIXED_CELLS,
    MIN_EXPECTED,
    POWER,
    ExactLaw,
    burn_laws,
    exact_law,
    law_from_probabilities,
    mixed_tableau_law,
    tableau_law,
)
from solver.crosscheck.reader import SHOE_MARKER, read_coups
from solver.crosscheck.registry import REGISTRY, SampleTest, SampleView
from solver.crosscheck.sample import RuleBreaks, Sample, sample_from_simulation
from solver.crosscheck.stats import TestResult
from solver.crosscheck.tally import CardStream, ShoeTallies
from solver.crosscheck.verdict import RULES, CrossCheck, crosscheck

__all__ = [
    "DEFAULT_ALPHA",
    "MAX_MIXED_CELLS",
    "MIN_EXPECTED",
    "POWER",
    "ExactLaw",
    "burn_laws",
    "exact_law",
    "law_from_probabilities",
    "mixed_tableau_law",
    "tableau_law",
    "SHOE_MARKER",
    "CardStream",
    "REGISTRY",
    "RULES",
    "RuleBreaks",
    "Sample",
    "SampleTest",
    "SampleView",
    "ShoeTallies",
    "read_coups",
    "sample_from_simulation",
    "CrossCheck",
    "TestResult",
    "crosscheck",
]
