"""Holding simulated coups against the exact law: ours, or a dealing engine's file of coups.

The exact law of one coup dealt from a freshly shuffled shoe comes from the enumerator only
(:func:`solver.outcome.outcomes` for a fixed tableau; for a strategy on totals that mixes at a few
cells, the exact mixture of the pure tableaux' laws, multilinear in the cell probabilities; for a
chemin de fer solution, ``solver.game.strategy_law`` when it is available, or any law passed in).

The tests, each at false-alarm rate ``alpha / m`` (Bonferroni over the ``m`` tests run, so the whole
cross-check wrongly rejects a correct engine with probability at most ``alpha``, 0.001 by default):

* **outcome law**: Pearson's chi-square of banker / player / tie counts (2 degrees of freedom);
* **detail law**: chi-square over the coup's detail (final totals, who drew a third card, natural),
  the rows of :class:`~solver.outcome.OutcomeTable`, cells with expected count under 5 pooled. It sees
  a wrong tableau cell long before the outcome law does;
* **card law**: the point values of the four cards every coup deals against ``n_v / N``; their
  counts are multivariate hypergeometric, so Pearson's statistic is divided by ``(N − 4)/(N − 1)``
  (9 degrees of freedom). It sees a shoe of the wrong composition;
* **burn law** (our simulator, when the burn turns a card): outcome by the turned card's value
  against ``P(turned = v) P(outcome | shoe less one card of value v)``. It sees a burn that leaks;
* **bets**: each bet's mean net result as the engine settled it, as a z-score against the exact
  expected value with the exact variance (two-sided). It sees a wrong settlement.

Power: for each test the report gives the smallest deviation it detects with probability 0.8 at
this sample size and rate: for a bet, the shift of its mean; for a chi-square, the smallest
divergence ``D = Σ (q − p)² / p`` (with the matching shift of P(banker) against P(player)).

The tests assume independent coups with the first-coup law. That is exact for our simulator's
first-coup mode. Coups dealt through whole shoes are slightly dependent, and their average law is
shifted by the cut-card effect (see docs/simulate.md: of the order of 10^-5 for punto banco, far below
what 10^8 coups can detect): state this when you hold a file of whole shoes.

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
from solver.crosscheck.sample import (
    Sample,
    read_coups,
    sample_from_simulation,
)
from solver.crosscheck.verdict import (
    CrossCheck,
    TestResult,
    crosscheck,
)

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
    "Sample",
    "read_coups",
    "sample_from_simulation",
    "CrossCheck",
    "TestResult",
    "crosscheck",
]
