"""The exact enumeration of coups: the only place card probabilities are made.

A coup deals Player, Banker, Player, Banker, then third cards as the tableau says. A *path* is one
sequence of card values a coup can follow; where the tableau leaves a decision free, both branches
are paths. The set of paths depends on the tableau only, not on the shoe, so it is built once
(:func:`deal_tree`) and reused for every shoe.

Exact weights (docs/design.md, "The mathematics the code respects"). Count ordered sequences of
physical cards, every coup padded to six cards: a path that uses k cards with values v1..vk from a
shoe holding n_v cards of value v (N in all) has weight
``n_v1 (n_v2 - [v2 = v1]) ... × (N - k)(N - k - 1) ... (N - 5)``, and the weights of the paths of any
pure strategy sum to the common denominator ``N (N - 1) ... (N - 5)`` exactly. The weight depends on
the path only through the *multiset* of its values, ∏_v (n_v)_{k_v} × (N - k)_{6 - k} with (x)_j the
falling factorial, so a shoe is evaluated on the few thousand multisets of at most six values rather
than on the paths. For an infinite deck (dealing with replacement) the falling factorials become
powers: weight ∏_v c_v^{k_v} × 13^{6-k} over the denominator 13^6, with c_v the number of ranks of
value v (4 for value 0, else 1).

Everything is integer. numpy int64 is used when the denominator fits (up to 24 decks or so, since
8 decks give 4,998,398,275,503,360 < 2^63); Python integers (object arrays) otherwise.

>>> denominator(Shoe.decks(8))
4998398275503360
>>> tree = deal_tree()
>>> int(multiset_weights(tree, Shoe.decks(8))[tree.multiset].sum()) == denominator(Shoe.decks(8))
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

import numpy as np

from solver.cards import Shoe
from solver.deal.weights import INT64_LIMIT, MAX_CARDS, denominator, value_weights
from solver.rules.tableau import PUNTO_BANCO, STOOD, Action, Tableau
from solver.store.cache import entry_key, load_arrays, save_arrays

NO_CARD = -1


N_DETAIL = 800
"""Number of detail keys (:func:`detail_key`)."""


def detail_key(p_total: Any, b_total: Any, p_drew: Any, b_drew: Any, natural: Any) -> Any:
    """The code 0–799 of a coup's detail: final totals, who drew a third card, natural.

    Works on ints and, elementwise, on numpy integer arrays. The simulator's kernel tallies first
    coups by the same code.

    >>> detail_key(9, 2, 0, 0, 1), detail_parts(737)
    (737, (9, 2, 0, 0, 1))
    """
    return p_total * 80 + b_total * 8 + p_drew * 4 + b_drew * 2 + natural


def detail_parts(key: int) -> tuple[int, int, int, int, int]:
    """Inverse of :func:`detail_key`: ``(player total, banker total, player drew, banker drew, natural)``."""
    return key // 80, key // 8 % 10, key >> 2 & 1, key >> 1 & 1, key & 1


@dataclass(frozen=True, eq=False)
class DealTree:
    """Every path a coup can follow under one tableau, as parallel numpy columns.

    Columns (one entry per path): ``cards`` (P × 6 values in deal order P, B, P, B, then the
    player's and the banker's third cards in the order dealt; ``-1`` where unused), ``p_two`` and
    ``b_two`` (two-card totals), ``p_third`` (player's third card or -1), ``b_third``, ``p_total``
    and ``b_total`` (final totals), ``natural`` (coup ended on a natural), ``p_free`` / ``b_free``
    (the decision taken on this path was free), ``p_drew`` / ``b_drew``, and ``multiset`` (row of
    :attr:`multisets`, the counts of each value the path uses).
    """

    tableau: Tableau
    cards: np.ndarray
    p_two: np.ndarray
    b_two: np.ndarray
    p_third: np.ndarray
    b_third: np.ndarray
    p_total: np.ndarray
    b_total: np.ndarray
    natural: np.ndarray
    p_free: np.ndarray
    b_free: np.ndarray
    p_drew: np.ndarray
    b_drew: np.ndarray
    multiset: np.ndarray
    multisets: np.ndarray
    _groupings: dict[str, Grouping] = field(default_factory=dict, repr=False)

    @property
    def size(self) -> int:
        """Number of paths."""
        return int(self.p_total.shape[0])

    @property
    def seen(self) -> np.ndarray:
        """The banker's column: the player's third card, or :data:`STOOD`."""
        return np.where(self.p_third >= 0, self.p_third, STOOD)

    def grouping(self, name: str, key: Callable[[DealTree], np.ndarray]) -> Grouping:
        """Group paths by an integer key (computed once per tree and name, then cached)."""
        g = self._groupings.get(name)
        if g is None:
            g = Grouping.build(key(self), self.multiset)
            self._groupings[name] = g
        return g


def _expand(cols: dict[str, np.ndarray], repeats: np.ndarray) -> dict[str, np.ndarray]:
    return {k: np.repeat(v, repeats, axis=0) for k, v in cols.items()}


def _branch(cols: dict[str, np.ndarray], action: np.ndarray, who: str) -> dict[str, np.ndarray]:
    """Split rows by the action codes 0 = stand, 1 = draw, 2 = free (both), dealing 0–9 on a draw."""
    n_branches = np.where(action == 2, 2, 1)
    out = _expand(cols, n_branches)
    a = np.repeat(action, n_branches)
    row = np.repeat(np.arange(len(action)), n_branches)
    second = np.zeros(len(a), dtype=bool)
    second[1:] = row[1:] == row[:-1]
    drew = np.where(a == 2, second, a == 1)  # a free row's first copy stands, its second draws
    out[f"{who}_free"] = a == 2
    out[f"{who}_drew"] = drew
    # Every drawing row becomes ten rows, one per third-card value.
    reps = np.where(drew, 10, 1)
    out = _expand(out, reps)
    drew_r = np.repeat(drew, reps)
    pos = np.arange(len(drew_r)) - np.repeat(np.cumsum(reps) - reps, reps)
    out[f"{who}_third"] = np.where(drew_r, pos, NO_CARD).astype(np.int8)
    return out


_ACTION_CODE = {Action.STAND: 0, Action.DRAW: 1, Action.FREE: 2}


def unique_inverse(code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(code, return_inverse=True)``, by one sort of each code packed with its row number into
    an int64 (a plain sort is several times quicker than the argsort np.unique does); np.unique itself
    where a code is negative or too large to pack.

    >>> unique_inverse(np.array([7, 3, 7, 0]))
    (array([0, 3, 7]), array([2, 1, 2, 0]))
    """
    n = len(code)
    shift = max(1, (n - 1).bit_length())
    if n == 0 or int(code.min()) < 0 or int(code.max()) >> (62 - shift):
        uniq, inverse = np.unique(code, return_inverse=True)
        return uniq, inverse.ravel()
    packed = np.sort((code.astype(np.int64) << shift) | np.arange(n, dtype=np.int64))
    value = packed >> shift
    first = np.empty(n, dtype=bool)
    first[0] = True
    np.not_equal(value[1:], value[:-1], out=first[1:])
    inverse = np.empty(n, dtype=np.int64)
    inverse[packed & ((1 << shift) - 1)] = np.cumsum(first) - 1
    return value[first], inverse


_TREE_ARRAYS = (
    "cards",
    "p_two",
    "b_two",
    "p_third",
    "b_third",
    "p_total",
    "b_total",
    "natural",
    "p_free",
    "b_free",
    "p_drew",
    "b_drew",
    "multiset",
    "multisets",
)


@cache
def deal_tree(tab: Tableau = PUNTO_BANCO) -> DealTree:
    """All coup paths under a tableau (shoe-independent; cached in memory and on disk, see solver.store.cache).

    >>> deal_tree().size, len(deal_tree().multisets)
    (339400, 6958)
    """
    key = entry_key("tree", tab)
    stored = load_arrays("tree", key)
    if stored is not None and set(stored) == set(_TREE_ARRAYS):
        return DealTree(tableau=tab, **stored)  # type: ignore[arg-type]
    tree = build_deal_tree(tab)
    save_arrays("tree", key, {name: getattr(tree, name) for name in _TREE_ARRAYS})
    return tree


def build_deal_tree(tab: Tableau) -> DealTree:
    """Enumerate every coup path under a tableau (what :func:`deal_tree` caches)."""
    p1, b1, p2, b2 = (a.ravel().astype(np.int8) for a in np.indices((10, 10, 10, 10)))
    cols: dict[str, np.ndarray] = {"p1": p1, "b1": b1, "p2": p2, "b2": b2}
    p_two = (p1 + p2) % 10
    b_two = (b1 + b2) % 10
    natural = (p_two >= 8) | (b_two >= 8)
    cols["natural"] = natural
    player_codes = np.array([_ACTION_CODE[a] for a in tab.player] + [0, 0], dtype=np.int8)
    p_action = np.where(natural, 0, player_codes[p_two])
    cols = _branch(cols, p_action, "p")
    p_two = (cols["p1"] + cols["p2"]) % 10
    b_two = (cols["b1"] + cols["b2"]) % 10
    banker_codes = np.array([[_ACTION_CODE[a] for a in row] for row in tab.banker] + [[0] * 11] * 2, dtype=np.int8)
    seen = np.where(cols["p_third"] >= 0, cols["p_third"], STOOD)
    b_action = np.where(cols["natural"], 0, banker_codes[b_two, seen])
    cols = _branch(cols, b_action, "b")

    p1, b1, p2, b2 = cols["p1"], cols["b1"], cols["p2"], cols["b2"]
    p_third, b_third = cols["p_third"], cols["b_third"]
    n = len(p1)
    cards = np.full((n, MAX_CARDS), NO_CARD, dtype=np.int8)
    cards[:, 0], cards[:, 1], cards[:, 2], cards[:, 3] = p1, b1, p2, b2
    # Third cards in the order dealt: the player's first, then the banker's.
    has_p = p_third >= 0
    cards[:, 4] = np.where(has_p, p_third, b_third)
    cards[:, 5] = np.where(has_p, b_third, NO_CARD)
    p_two = ((p1 + p2) % 10).astype(np.int8)
    b_two = ((b1 + b2) % 10).astype(np.int8)
    p_total = np.where(has_p, (p_two + p_third) % 10, p_two).astype(np.int8)
    b_total = np.where(b_third >= 0, (b_two + b_third) % 10, b_two).astype(np.int8)

    # A multiset's code: its count of each value as a base-7 digit (Σ over the cards of 7^value).
    power = np.concatenate(([0], 7 ** np.arange(10, dtype=np.int64)))  # power[v + 1] = 7^v, power[0] = 0
    code = power[cards[:, 0] + 1]
    for j in range(1, MAX_CARDS):
        code += power[cards[:, j] + 1]
    uniq, inverse = unique_inverse(code)
    multisets = uniq[:, None] // power[1:] % 7

    return DealTree(
        tableau=tab,
        cards=cards,
        p_two=p_two,
        b_two=b_two,
        p_third=p_third,
        b_third=b_third,
        p_total=p_total,
        b_total=b_total,
        natural=cols["natural"],
        p_free=cols["p_free"],
        b_free=cols["b_free"],
        p_drew=cols["p_drew"],
        b_drew=cols["b_drew"],
        multiset=inverse.astype(np.int64).ravel(),
        multisets=multisets,
    )


@dataclass(frozen=True, eq=False)
class Grouping:
    """Paths grouped by an integer key, pre-reduced to (key, multiset, number of paths) triples.

    Evaluating a shoe is then ``sums[key] = Σ count × weight[multiset]`` over a few thousand
    triples, exactly.
    """

    keys: np.ndarray
    starts: np.ndarray
    multiset: np.ndarray
    count: np.ndarray

    @classmethod
    def build(cls, key: np.ndarray, multiset: np.ndarray) -> Grouping:
        key = np.asarray(key, dtype=np.int64)
        n_ms = int(multiset.max()) + 1
        combined = key * n_ms + multiset
        pairs, count = np.unique(combined, return_counts=True)
        pair_key = pairs // n_ms
        keys, starts = np.unique(pair_key, return_index=True)
        return cls(keys=keys, starts=starts, multiset=pairs % n_ms, count=count.astype(np.int64))

    def evaluate(self, weights: np.ndarray) -> np.ndarray:
        """Exact sum of path weights for each key (int64 or object array, like ``weights``)."""
        terms = self.count.astype(weights.dtype) * weights[self.multiset]
        if weights.dtype == object:
            bounds = list(self.starts) + [len(terms)]
            return np.array([sum(terms[a:b], 0) for a, b in zip(bounds[:-1], bounds[1:])], dtype=object)
        sums: np.ndarray = np.add.reduceat(terms, self.starts)
        return sums


class HasMultisets(Protocol):
    """Anything that carries a tree's multisets (a :class:`DealTree`, an outcome index, compiled bets)."""

    @property
    def multisets(self) -> np.ndarray: ...


def multiset_weights(tree: HasMultisets, shoe: Shoe) -> np.ndarray:
    """Exact weight of every multiset of the tree for this shoe (padded to six cards).

    int64 when the shoe's denominator fits, else Python integers in an object array.
    """
    ks = tree.multisets
    total = ks.sum(axis=1)
    table, pad = value_weights(shoe)
    dtype: type = np.int64 if denominator(shoe) <= INT64_LIMIT else object
    ff: np.ndarray = np.array(table, dtype=dtype)
    w: np.ndarray = np.array(pad, dtype=dtype)[total]
    for v in range(10):
        w = w * ff[v][ks[:, v]]
    return w
