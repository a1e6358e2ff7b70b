"""The exact weight of a multiset of card values on a shoe, in plain Python (no numpy).

A coup's path deals at most six cards; on a shoe with ``n_v`` cards of value ``v`` (``N`` in all) a path
whose cards hold ``k_v`` of each value (``k`` in all) is dealt in

    w(k) = pad[k] × ∏_v (n_v)_{k_v},     pad[k] = (N − k)_{6 − k},

ways out of ``D = (N)_6`` (coups are padded to six cards so that every path has one denominator); for the
infinite deck ``(n_v)_j`` becomes ``c_v^j`` and ``pad[k]`` becomes ``13^{6 − k}`` (:func:`value_weights`).

A :class:`MultisetTrie` computes the products of many multisets at once: each multiset is written as its
values in increasing order, and the trie of those sequences shares every prefix, so a shoe costs one
multiplication per node (adding a card of value ``v`` to a prefix holding ``b`` of them multiplies by
``n_v − b``, or by ``c_v`` for the infinite deck). The nodes come level by level, so a level is one pass of
C-level ``map`` over the level before: the exact product of all 6,958 multisets of punto banco's paths
takes about a third of a millisecond in Python integers, which are exact at any shoe size.

This module holds what the command line needs to price bets on a shoe without importing numpy (the deal
tree itself, :mod:`solver.deal.tree`, is built with numpy and read back from the disk cache).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import itemgetter, mul

from solver.cards import Shoe

INT64_LIMIT = 2**63 - 1
MAX_CARDS = 6
FACTOR_STRIDE = 8
"""A node's factor is coded ``8 v + b``: a card of value ``v`` added to a prefix holding ``b`` of them."""


def falling(x: int, k: int) -> int:
    """Falling factorial x (x - 1) ... (x - k + 1); 0 when x < k.

    >>> falling(416, 6)
    4998398275503360
    """
    out = 1
    for i in range(k):
        out *= x - i
    return max(out, 0) if x >= 0 else 0


def denominator(shoe: Shoe, cards: int = MAX_CARDS) -> int:
    """The common denominator of all coup weights: N (N−1) … (N−5), or 13^6 for an infinite deck (for a
    game whose coups are padded to ``cards`` cards, N (N−1) … (N−cards+1) or 13^cards)."""
    if shoe.is_infinite:
        return int(shoe.size**cards)  # int ** int is typed Any (a negative power is a float)
    return falling(shoe.size, cards)


def pads(shoe: Shoe, cards: int = MAX_CARDS) -> list[int]:
    """``pad[k]``: the ways to deal the other cards of a coup after ``k`` ((N − k)_{cards − k}, or
    N^{cards − k} for an infinite deck).

    >>> pads(Shoe.decks(1), 2)
    [2652, 51, 1]
    """
    size = shoe.size
    if shoe.is_infinite:
        return [size ** (cards - k) for k in range(cards + 1)]
    return [falling(size - k, cards - k) for k in range(cards + 1)]


def value_weights(shoe: Shoe, cards: int = MAX_CARDS) -> tuple[list[list[int]], list[int]]:
    """The factors of a multiset's weight, coups padded to ``cards`` cards: ``per[v][j]``, the ways to
    deal j cards of value v ((n_v)_j, or c_v^j for the infinite deck), and ``pad[k]`` (:func:`pads`). A
    multiset with counts k_v (k in all) weighs ``pad[k] × ∏_v per[v][k_v]``.

    >>> per, pad = value_weights(Shoe.decks(1), 2)
    >>> per[0], pad
    ([1, 16, 240], [2652, 51, 1])
    """
    n = shoe.values
    if shoe.is_infinite:
        return [[n[v] ** j for j in range(cards + 1)] for v in range(10)], pads(shoe, cards)
    return [[falling(n[v], j) for j in range(cards + 1)] for v in range(10)], pads(shoe, cards)


def factor_table(shoe: Shoe) -> list[int]:
    """Entry ``8 v + b``: what adding a card of value ``v`` to a prefix holding ``b`` of them multiplies a
    weight by: ``n_v − b`` (0 once the shoe has no more), or ``c_v`` for the infinite deck."""
    n = shoe.values
    if shoe.is_infinite:
        return [n[v] for v in range(10) for _ in range(FACTOR_STRIDE)]
    return [max(n[v] - b, 0) for v in range(10) for b in range(FACTOR_STRIDE)]


@dataclass(frozen=True, eq=False)
class MultisetTrie:
    """The trie of multisets of card values written as sorted value sequences, node by node in
    breadth-first order (node 0 is the empty root).

    Attributes:
        parent: node ``i + 1``'s parent (a node of the level before).
        factor: node ``i + 1``'s factor code ``8 v + b`` (:func:`factor_table`).
        levels: ``levels[d]`` is the first node of depth ``d + 1`` (and ``levels[-1]`` the node count).
    """

    parent: tuple[int, ...]
    factor: tuple[int, ...]
    levels: tuple[int, ...]

    @cached_property
    def _gathers(self) -> tuple[tuple[Gather, Gather], ...]:
        return tuple(
            (gather(self.parent[a - 1 : b - 1]), gather(self.factor[a - 1 : b - 1]))
            for a, b in zip(self.levels[:-1], self.levels[1:])
        )

    def weights(self, shoe: Shoe) -> list[int]:
        """Every node's product ``∏_v (n_v)_{k_v}`` on ``shoe`` (exact integers; unpadded)."""
        table = factor_table(shoe)
        w = [1]
        for parents, factors in self._gathers:
            w += map(mul, parents(w), factors(table))
        return w

    def depth(self, node: int) -> int:
        """The number of cards at ``node``."""
        return sum(1 for start in self.levels[:-1] if node >= start)


Gather = Callable[[Sequence[int]], tuple[int, ...]]
"""A function picking fixed items out of a sequence (:func:`gather`)."""


def gather(indices: Sequence[int]) -> Gather:
    """A function picking the items at ``indices`` out of a sequence, as a tuple, at C speed.

    >>> gather([2, 0])("abc"), gather([1])("abc"), gather([])("abc")
    (('c', 'a'), ('b',), ())
    """
    if len(indices) > 1:
        return itemgetter(*indices)
    return lambda seq: tuple(seq[i] for i in indices)


def multiset_trie(rows: Iterable[Sequence[int]]) -> tuple[MultisetTrie, list[int]]:
    """The trie of multisets given as rows of ten counts, and each row's node.

    >>> trie, node_of = multiset_trie([(2, 0, 0, 0, 0, 0, 0, 1, 0, 0), (1, 0, 0, 0, 0, 0, 0, 0, 0, 0)])
    >>> trie.parent, trie.factor, trie.levels, node_of
    ((0, 1, 2), (0, 1, 56), (1, 2, 3, 4), [3, 1])
    >>> trie.weights(Shoe.decks(1))[3] == 16 * 15 * 4
    True
    """
    seqs = [tuple(v for v in range(10) for _ in range(row[v])) for row in rows]
    node_id: dict[tuple[int, ...], int] = {(): 0}
    parent: list[int] = []
    factor: list[int] = []
    levels = [1]
    for depth in range(1, max((len(q) for q in seqs), default=0) + 1):
        for prefix in sorted({q[:depth] for q in seqs if len(q) >= depth}):
            node_id[prefix] = len(parent) + 1
            parent.append(node_id[prefix[:-1]])
            factor.append(FACTOR_STRIDE * prefix[-1] + prefix[:-1].count(prefix[-1]))
        levels.append(len(parent) + 1)
    return MultisetTrie(tuple(parent), tuple(factor), tuple(levels)), [node_id[q] for q in seqs]
