"""Outcome tables: the exact law of one coup by its *outcome key*, for any fixed tableau.

A coup's outcome key is (player's two-card total, banker's two-card total, player's third card or −1,
banker's third card or −1, the highest card value dealt); every column bets read (final totals,
cards per side, naturals, margin, ...) is a function of it. :func:`outcome_index` groups a tableau's
deal-tree paths by (outcome key, multiset of card values) once (cached on disk, see :mod:`solver.store.cache`),
so :func:`outcomes` costs one exact integer sum over those pairs per shoe; the weights themselves are
made by :func:`solver.deal.tree.multiset_weights`, the only place card probabilities are made.

>>> table = outcomes(Shoe.decks(8))
>>> table.denominator
4998398275503360
>>> int(table.weights.sum()) == table.denominator
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from functools import cache

import numpy as np

from solver.cards import Shoe
from solver.deal.tree import DealTree, Grouping, deal_tree, multiset_weights
from solver.deal.weights import denominator
from solver.rules.tableau import PUNTO_BANCO, Tableau, fixed_tableau
from solver.store.cache import entry_key, load_arrays, save_arrays


@dataclass(frozen=True, eq=False)
class Outcomes:
    """What a coup can end as, one row per distinct *outcome key*, without weights (shoe-independent).

    The outcome key of a coup is (player's two-card total, banker's two-card total, player's third card
    or −1, banker's third card or −1, highest card value dealt); every other column is a function of
    it. Bets are predicates over these columns (see :mod:`solver.punto`), so they can be compiled once
    per tableau and evaluated on any shoe.

    Attributes:
        p_total, b_total: final totals.
        p_cards, b_cards: cards each side ended with (2 or 3).
        natural: the coup ended on a natural (a two-card 8 or 9 on either side).
        p_two, b_two: two-card totals.
        p_third, b_third: value of the side's third card, −1 when it did not draw.
        high: the highest point value among all the cards dealt (0–9).
    """

    p_total: np.ndarray
    b_total: np.ndarray
    p_cards: np.ndarray
    b_cards: np.ndarray
    natural: np.ndarray
    p_two: np.ndarray
    b_two: np.ndarray
    p_third: np.ndarray
    b_third: np.ndarray
    high: np.ndarray

    @property
    def size(self) -> int:
        """Number of rows."""
        return int(self.p_total.shape[0])

    @classmethod
    def from_keys(cls, keys: np.ndarray) -> Outcomes:
        """The columns of the keys made by :func:`outcome_key`."""
        keys = np.asarray(keys, dtype=np.int64)
        high = keys % 10
        rest = keys // 10
        b_third = rest % 11 - 1
        rest //= 11
        p_third = rest % 11 - 1
        rest //= 11
        b_two, p_two = rest % 10, rest // 10
        return cls(**outcome_columns(p_two, b_two, p_third, b_third, high))


def outcome_columns(
    p_two: np.ndarray, b_two: np.ndarray, p_third: np.ndarray, b_third: np.ndarray, high: np.ndarray
) -> dict[str, np.ndarray]:
    """Every :class:`Outcomes` column from the outcome key's parts (two-card totals, third cards, highest card)."""
    p_two, b_two = np.asarray(p_two, np.int64), np.asarray(b_two, np.int64)
    p_third, b_third = np.asarray(p_third, np.int64), np.asarray(b_third, np.int64)
    return {
        "p_total": np.where(p_third >= 0, (p_two + p_third) % 10, p_two),
        "b_total": np.where(b_third >= 0, (b_two + b_third) % 10, b_two),
        "p_cards": 2 + (p_third >= 0),
        "b_cards": 2 + (b_third >= 0),
        "natural": (p_two >= 8) | (b_two >= 8),
        "p_two": p_two,
        "b_two": b_two,
        "p_third": p_third,
        "b_third": b_third,
        "high": np.asarray(high, np.int64),
    }


def outcome_key(tree: DealTree) -> np.ndarray:
    """Each path's outcome key as one integer: ``(((p_two·10 + b_two)·11 + p_third + 1)·11 + b_third + 1)·10 + high``."""
    high = tree.cards.max(axis=1).astype(np.int64)
    p3, b3 = tree.p_third.astype(np.int64) + 1, tree.b_third.astype(np.int64) + 1
    key: np.ndarray = (((tree.p_two.astype(np.int64) * 10 + tree.b_two) * 11 + p3) * 11 + b3) * 10 + high
    return key


@dataclass(frozen=True, eq=False)
class OutcomeTable(Outcomes):
    """The exact law of a coup under a fixed tableau, compact enough for any bet to read.

    The rows of :class:`Outcomes` that have positive weight on this shoe, with their ``weights``:
    integer counts of six-card sequences over ``denominator`` (int64, or Python integers in an
    object array for shoes too large for int64).

    Attributes:
        shoe: the shoe dealt from.
        weights: exact integer weights, summing to ``denominator``.
        denominator: N(N−1)…(N−5), or 13^6 for an infinite deck.
    """

    shoe: Shoe
    weights: np.ndarray
    denominator: int

    def weight(self, mask: np.ndarray) -> int:
        """Exact total weight of the rows selected by a boolean array."""
        return int(self.weights[mask].sum())

    def probability(self, mask: np.ndarray) -> Fraction:
        """Exact probability of the rows selected by a boolean array."""
        return Fraction(self.weight(mask), self.denominator)


def outcomes(shoe: Shoe, tab: Tableau = PUNTO_BANCO) -> OutcomeTable:
    """The exact outcome table of one coup from ``shoe`` under a tableau with no free cells.

    Raises:
        ModelError: the tableau leaves decisions free (use the game modules for those).
    """
    index = outcome_index(tab)
    g = index.grouping
    sums = g.evaluate(multiset_weights(index, shoe))
    keep = sums != 0
    cols = Outcomes.from_keys(g.keys[keep])
    return OutcomeTable(
        shoe=shoe, weights=sums[keep], denominator=denominator(shoe), **{f.name: getattr(cols, f.name) for f in fields(Outcomes)}
    )


@dataclass(frozen=True, eq=False)
class OutcomeIndex:
    """A fixed tableau's paths grouped by (outcome key, multiset): all that laws of a coup need.

    Attributes:
        tableau: the tableau (no free cells).
        multisets: the multisets of card values paths use, one row of ten counts each.
        grouping: ``(outcome key, multiset, number of paths)`` triples (:func:`outcome_key`).
    """

    tableau: Tableau
    multisets: np.ndarray
    grouping: Grouping


@cache
def outcome_index(tab: Tableau = PUNTO_BANCO) -> OutcomeIndex:
    """The outcome grouping of a fixed tableau (cached in memory and on disk, see solver.store.cache).

    >>> g = outcome_index().grouping
    >>> len(g.keys), int(g.count.sum())
    (12343, 339400)
    """
    fixed_tableau(tab)
    key = entry_key("outcome", tab)
    stored = load_arrays("outcome", key)
    if stored is not None and set(stored) == {"multisets", "keys", "starts", "multiset", "count"}:
        multisets = stored.pop("multisets")
        return OutcomeIndex(tab, multisets, Grouping(**stored))
    tree = deal_tree(tab)
    g = tree.grouping("outcome", outcome_key)
    save_arrays(
        "outcome",
        key,
        {"multisets": tree.multisets, "keys": g.keys, "starts": g.starts, "multiset": g.multiset, "count": g.count},
    )
    return OutcomeIndex(tab, tree.multisets, g)


@cache
def tree_multisets(tab: Tableau = PUNTO_BANCO) -> np.ndarray:
    """The multisets of card values a tableau's paths use (cached in memory and on disk, see solver.store.cache)."""
    key = entry_key("multisets", tab)
    stored = load_arrays("multisets", key)
    if stored is not None and set(stored) == {"multisets"}:
        return stored["multisets"]
    multisets = outcome_index(tab).multisets
    save_arrays("multisets", key, {"multisets": multisets})
    return multisets
