"""The shoe-independent part of a chemin de fer game: the deal tree's paths, grouped by the decisions.

Under a tableau and an information model (:mod:`solver.chemin.game`), each path of the deal tree
(:func:`solver.deal.tree.deal_tree`) is keyed by the ponte's free information set j (−1 where his decision
is fixed), whether he drew, the banker's free set i (−1), whether he drew, and the outcome (0 tie,
1 the banker wins, 2 the ponte wins):

    key = ((((j + 1)·2 + ponte drew)·(n + 1) + (i + 1))·2 + banker drew)·3 + outcome,

n being the number of banker sets (:class:`PathKey`, the one codec of these keys; :class:`DetailKey` for
the keys by the coup's detail). :func:`structure` groups the paths by key once per tableau and
model (:class:`solver.deal.tree.Grouping`); a shoe then only weighs the groups. Grouping half a million
paths takes a few hundredths of a second per model, so the grouping is also kept in the on-disk cache
(:mod:`solver.store.cache`) under a key that hashes this module's source with the tableau and the model: a
changed key layout never reads a stale entry.

>>> from solver.rules.tableau import CHEMIN_PARLOR
>>> st = structure(CHEMIN_PARLOR, 1)
>>> [str(s) for s in st.ponte_sets], len(st.banker_sets), int(st.grouping.count.sum()) == st.tree.size
(['5'], 88, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from solver.cards import Shoe
from solver.deal.tree import N_DETAIL, DealTree, Grouping, deal_tree, multiset_weights
from solver.rules.tableau import Tableau
from solver.store.cache import entry_key, load_arrays, save_arrays
from solver.strategy import COMPOSITIONS, InfoSet, Side, compositions_of

COMPOSITION_INDEX = np.full((10, 10), -1, dtype=np.int64)
"""Two-card compositions a <= b, indexed 0..54 (the index of a hand), looked up by either order."""
for _k, (_a, _b) in enumerate(COMPOSITIONS):
    COMPOSITION_INDEX[_a, _b] = COMPOSITION_INDEX[_b, _a] = _k

_GROUPING_ARRAYS = {"keys", "starts", "multiset", "count"}


def _ponte_sets(tab: Tableau, information: int) -> tuple[InfoSet, ...]:
    """The ponte's free information sets: his totals (information 1, 2) or their compositions (3)."""
    totals = tab.free_player_totals()
    if information < 3:
        return tuple(InfoSet(Side.PONTE, t) for t in totals)
    return tuple(InfoSet(Side.PONTE, cards=c) for t in totals for c in compositions_of(t))


def _ponte_index(tree: DealTree, information: int, sets: tuple[InfoSet, ...]) -> np.ndarray:
    """Index of the ponte's information set on each path (−1 where his decision was not free)."""
    if information < 3:
        lookup = np.full(10, -1, dtype=np.int64)
        for j, s in enumerate(sets):
            lookup[s.total] = j
        return np.where(tree.p_free, lookup[tree.p_two], -1)
    lookup = np.full(len(COMPOSITIONS), -1, dtype=np.int64)
    for j, s in enumerate(sets):
        assert s.cards is not None
        lookup[COMPOSITION_INDEX[s.cards]] = j
    comp = COMPOSITION_INDEX[tree.cards[:, 0], tree.cards[:, 2]]
    return np.where(tree.p_free, lookup[comp], -1)


def _banker_raw(tree: DealTree, information: int) -> np.ndarray:
    """Raw banker cell code: (total or composition) × 11 + seen."""
    seen = tree.seen.astype(np.int64)
    if information == 1:
        own = tree.b_two.astype(np.int64)
    else:
        own = COMPOSITION_INDEX[tree.cards[:, 1], tree.cards[:, 3]]
    return own * 11 + seen


def _banker_set(code: int, information: int) -> InfoSet:
    own, seen = divmod(code, 11)
    if information == 1:
        return InfoSet(Side.BANKER, own, seen=(seen,))
    return InfoSet(Side.BANKER, cards=COMPOSITIONS[own], seen=(seen,))


def _banker_free_codes(tab: Tableau, information: int) -> list[int]:
    """All free banker cell codes of the model, reachable or not, in canonical order."""
    codes = []
    for t, s in tab.free_banker_cells():
        if information == 1:
            codes.append(t * 11 + s)
        else:
            codes.extend(k * 11 + s for k, (a, b) in enumerate(COMPOSITIONS) if (a + b) % 10 == t)
    return sorted(codes)


@dataclass(frozen=True, eq=False)
class Structure:
    """A tableau and model's paths grouped by key (module docstring), and its information sets."""

    tree: DealTree
    information: int
    grouping: Grouping
    ponte_sets: tuple[InfoSet, ...]
    banker_sets: tuple[InfoSet, ...]
    codes: tuple[int, ...]  # the banker sets' raw cell codes

    @cached_property
    def ponte_index(self) -> np.ndarray:
        """Per path: the ponte's free set, or −1."""
        return _ponte_index(self.tree, self.information, self.ponte_sets)

    @cached_property
    def banker_index(self) -> np.ndarray:
        """Per path: the banker's free set, or −1."""
        return _banker_index(self.tree, self.information, self.codes)

    @cached_property
    def key_parts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The grouping's keys split by :class:`PathKey`: per key ``(j, ponte drew, i, banker drew, outcome)``."""
        return PathKey(len(self.banker_sets)).decode(self.grouping.keys)

    def weights(self, shoe: Shoe) -> np.ndarray:
        """Per key, the exact weight of its paths on ``shoe`` over the shoe's denominator (int64 or Python
        integers, as :func:`solver.deal.tree.multiset_weights` gives them)."""
        return self.grouping.evaluate(multiset_weights(self.tree, shoe))


def _banker_index(tree: DealTree, information: int, codes: tuple[int, ...]) -> np.ndarray:
    """Index of the banker's information set on each path (−1 where his decision was not free)."""
    raw = _banker_raw(tree, information)
    lookup = np.full(int(raw.max()) + 1, -1, dtype=np.int64)
    for i, c in enumerate(codes):
        lookup[c] = i
    return np.where(tree.b_free, lookup[raw], -1)


@dataclass(frozen=True)
class PathKey:
    """The one codec of chemin de fer's path keys under a model with ``banker_sets`` banker sets.

    A path is keyed by the ponte's free set j (−1 where his decision is fixed), whether he drew, the
    banker's free set i (−1), whether he drew, and the outcome (0 tie, 1 the banker wins, 2 the ponte):

        key = ((((j + 1)·2 + ponte drew)·(n + 1) + (i + 1))·2 + banker drew)·3 + outcome.

    :meth:`encode` and :meth:`decode` work on integers and, elementwise, on numpy integer arrays.

    >>> codec = PathKey(banker_sets=88)
    >>> codec.decode(codec.encode(0, 1, 87, 0, 2))
    (0, 1, 87, 0, 2)
    """

    banker_sets: int

    def encode(self, j: Any, p_drew: Any, i: Any, b_drew: Any, outcome: Any) -> Any:
        return ((((j + 1) * 2 + p_drew) * (self.banker_sets + 1) + (i + 1)) * 2 + b_drew) * 3 + outcome

    def decode(self, key: Any) -> tuple[Any, Any, Any, Any, Any]:
        """``(j, ponte drew, i, banker drew, outcome)``: the inverse of :meth:`encode`."""
        n1 = self.banker_sets + 1
        outcome, rest = key % 3, key // 3
        b_drew, rest = rest % 2, rest // 2
        i, rest = rest % n1 - 1, rest // n1
        return rest // 2 - 1, rest % 2, i, b_drew, outcome


@dataclass(frozen=True)
class DetailKey:
    """The codec of the keys that group paths by both sides' free sets and the coup's detail (the
    :func:`solver.deal.tree.detail_key` code 0–799): ``((j + 1)·(n + 1) + (i + 1))·800 + detail``.

    >>> codec = DetailKey(banker_sets=88)
    >>> codec.decode(codec.encode(-1, 5, 737))
    (-1, 5, 737)
    """

    banker_sets: int

    def encode(self, j: Any, i: Any, detail: Any) -> Any:
        return ((j + 1) * (self.banker_sets + 1) + (i + 1)) * N_DETAIL + detail

    def decode(self, key: Any) -> tuple[Any, Any, Any]:
        """``(j, i, detail)``: the inverse of :meth:`encode`."""
        n1 = self.banker_sets + 1
        rest = key // N_DETAIL
        return rest // n1 - 1, rest % n1 - 1, key % N_DETAIL


@lru_cache(maxsize=16)
def structure(tab: Tableau, information: int) -> Structure:
    """The paths of ``tab``'s deal tree grouped under an information model (cached in memory and on disk)."""
    tree = deal_tree(tab)
    codes = tuple(_banker_free_codes(tab, information))
    ponte_sets = _ponte_sets(tab, information)
    key = entry_key("chemin", tab, information)
    stored = load_arrays("chemin", key)
    if stored is not None and set(stored) == _GROUPING_ARRAYS:
        grouping = Grouping(**stored)
    else:
        j, i = _ponte_index(tree, information, ponte_sets), _banker_index(tree, information, codes)
        outcome = np.where(tree.b_total > tree.p_total, 1, np.where(tree.p_total > tree.b_total, 2, 0))
        paths = PathKey(len(codes)).encode(j, tree.p_drew, i, tree.b_drew, outcome)
        grouping = tree.grouping(f"chemin-{information}", lambda _t: paths)
        save_arrays("chemin", key, {name: getattr(grouping, name) for name in _GROUPING_ARRAYS})
    return Structure(tree, information, grouping, ponte_sets, tuple(_banker_set(c, information) for c in codes), codes)
