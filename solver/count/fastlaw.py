"""Exact per-shoe laws at counting speed: a compiled kernel over the grouped multisets.

A set of coup bets compiled against the deal tree (:func:`solver.punto.compile_bets`) groups the paths
by joint key (which tier each bet pays) and multiset of card values. On a shoe with ``n_v`` cards of
value ``v`` (``N`` in all) the weight of a path using the multiset ``k`` is

    w(k) = ∏_v n_v (n_v − 1) … (n_v − k_v + 1) × (N − |k|)(N − |k| − 1) … (N − 5),

so each key's exact weight is ``S[key] = Σ count × w(k)`` over its (key, multiset) pairs. The kernel
(:func:`numerators`) computes the falling-factorial products along a *trie* of the multisets written
as sorted value sequences, one multiplication per node in breadth-first order, then the sums key by
key, in int64: every
partial sum is a sum of positive path weights of one key, at most the denominator
``D = N (N − 1) … (N − 5)`` (below 2^63 up to about 24 decks; :class:`FastLaw` checks the shoe). One
key, the one with the most pairs, is left out and taken as ``D − Σ`` of the others.

A bet's expected value per unit, with tier payouts ``p_t`` (a loss −1), is
``Σ_t (p_t + 1) P(t) − 1``; with ``s`` the least common denominator of the payouts its numerator over
``s D`` is the integer ``Σ_key m_key S[key] − s D``, ``m_key = s (p_t + 1)`` on the paying keys.
:meth:`FastLaw.numerators` returns these exactly; they equal the reference route's fractions
(tests/test_count.py).

**The float64 route** (:mod:`solver.count.denselaw`, the default where it is exact). The same sums
over a *dense* trie (the multisets of up to five values, in an order where each level is a few
contiguous slices of the one above times one scalar each: vectorised multiplies, no gathers), each
key's pairs summed as dot products of coefficient vectors with their parents' weights, times the
last card's factor. Every number it forms is a non-negative integer at most ``D`` (a node's weight counts
ordered draws of its cards, at most ``N (N − 1) … (N − k + 1)``; a term or partial sum of a segment is
a total weight of disjoint card sequences, at most the segment's sum), so in float64 it is exact, in
any order of summation, as long as ``D < 2^53``: up to 458 cards (8 decks: ``D ≈ 5.0 × 10^15``,
``2^53 ≈ 9.0 × 10^15``; not 9 decks). The segment sums are then int64 and the rest is this kernel's
arithmetic, so the numerators are the same integers; a larger shoe takes the int64 kernel
(:func:`solver.count.denselaw.float_exact`).

The kernels are plain Python compiled by numba (:func:`compiled`, :func:`solver.count.denselaw.compiled`);
the uncompiled functions give the same integers.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from solver.cards import Shoe
from solver.count import denselaw, lawparts
from solver.count.denselaw import DENSE_FILL, DenseLaw, dense_trie, use_float
from solver.count.lawparts import settle, shoe_tables
from solver.deal.tree import unique_inverse
from solver.deal.weights import INT64_LIMIT, MAX_CARDS, denominator, multiset_trie
from solver.errors import ModelError
from solver.punto import Bet, compile_bets
from solver.punto.compiled import bets_key
from solver.rules.tableau import PUNTO_BANCO, Tableau, fixed_tableau


def trie_of(multisets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A trie of multisets written as sorted value sequences, its nodes in breadth-first order.

    Returns ``(parent, factor, node_of)``: node ``i + 1`` (node 0 is the empty root) adds one card to
    node ``parent[i]``, multiplying its weight by table entry ``factor[i] = 8 v + b`` (the card's value
    ``v`` and the ``b`` cards of that value already in the parent: ``n_v − b``); ``node_of[m]`` is
    multiset ``m``'s node. Breadth-first order makes every parent's weight ready a whole level before
    its children need it, so the products pipeline.

    >>> trie_of(np.array([[2, 0, 0, 0, 0, 0, 0, 1, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]]))
    (array([0, 1, 2]), array([ 0,  1, 56]), array([3, 1]))
    """
    trie, node_of = multiset_trie(multisets.tolist())
    return (np.array(trie.parent, dtype=np.int64), np.array(trie.factor, dtype=np.int64), np.array(node_of, dtype=np.int64))


def numerators(
    counts: np.ndarray,
    size: int,
    parent: np.ndarray,
    factor: np.ndarray,
    segments: np.ndarray,
    segment_key: np.ndarray,
    segment_size: np.ndarray,
    pair_node: np.ndarray,
    pair_count: np.ndarray,
    residual: int,
    multiplier: np.ndarray,
    scale: np.ndarray,
    table: np.ndarray,
    weights: np.ndarray,
    pads: np.ndarray,
    sums: np.ndarray,
    out: np.ndarray,
) -> int:
    """Every bet's exact EV numerator over ``scale × D`` into ``out``, on a shoe of ``counts`` by value
    (``size`` cards); returns ``D``.

    The trie (:func:`trie_of`) gives every used multiset's falling-factorial product; the (key,
    multiset) pairs come in segments of one key and one multiset size (``segments[s]:segments[s + 1]``,
    key ``segment_key[s]``, size ``segment_size[s]``), so each segment's sum is multiplied once by the
    padding ``(N − size)(N − size − 1) … (N − 5)``. The residual key has no pairs: it is ``D`` minus the
    others. ``multiplier[key, bet]`` is ``scale (pays + 1)`` on the bet's paying keys, 0 elsewhere.
    ``table`` (80), ``weights`` (one per trie node and the root), ``pads`` (7) and ``sums`` (one per
    key: the key weights, on return) are scratch space.
    """
    shoe_tables(counts, size, table, pads)
    weights[0] = 1
    for i in range(len(parent)):
        weights[i + 1] = weights[parent[i]] * table[factor[i]]
    for k in range(len(sums)):
        sums[k] = 0
    for s in range(len(segment_key)):
        acc = 0
        for p in range(segments[s], segments[s + 1]):
            acc += pair_count[p] * weights[pair_node[p]]
        sums[segment_key[s]] += acc * pads[segment_size[s]]
    d: int = pads[0]
    settle(sums, d, residual, multiplier, scale, out)
    return d


_COMPILED: dict[str, Callable[..., Any]] = {}


def compiled() -> Callable[..., Any]:
    """The numba-compiled :func:`numerators` (compiled on first use, cached on disk)."""
    if "numerators" not in _COMPILED:
        from numba import njit

        from solver.store.jitcache import drop_stale

        lawparts.register()
        drop_stale(__file__, "numerators")
        _COMPILED["numerators"] = njit(cache=True, nogil=True)(numerators)
    return _COMPILED["numerators"]


@dataclass(frozen=True, eq=False)
class FastLaw:
    """A set of coup bets ready for the kernels (shoe-independent; see the module docstring).

    Attributes:
        bets: the bets.
        tableau: the fixed tableau.
        parent, factor: the trie of the multisets that carry weight for some key but the residual.
        segments, segment_key, segment_size, pair_node, pair_count: the (key, multiset, number of
            paths) triples in segments of one key and one multiset size (see :func:`numerators`).
        residual: the key left out, taken as D minus the others.
        multiplier: ``(keys, bets)``, ``scale_b (pays + 1)`` on each bet's paying keys.
        scale: each bet's payout denominator (the least common multiple of its tiers').
        tiers: ``(keys, bets)`` tier of each bet at each key (``len(bet.tiers)`` is the loss).
        winner: whether the keys also carry the winner (last column of the compiled tiers).
        dense: the same pairs over the dense trie, for the float64 route.
    """

    bets: tuple[Bet, ...]
    tableau: Tableau
    parent: np.ndarray
    factor: np.ndarray
    segments: np.ndarray
    segment_key: np.ndarray
    segment_size: np.ndarray
    pair_node: np.ndarray
    pair_count: np.ndarray
    residual: int
    multiplier: np.ndarray
    scale: np.ndarray
    tiers: np.ndarray
    winner: bool
    dense: DenseLaw

    @property
    def keys(self) -> int:
        """Number of joint keys."""
        return int(self.multiplier.shape[0])

    @property
    def largest_multiplier(self) -> int:
        """The largest ``scale (pays + 1)``: with the denominator it bounds every int64 sum."""
        return int(max(self.multiplier.max(initial=0), self.scale.max(initial=1)))

    def check(self, shoe: Shoe) -> int:
        """The shoe's denominator, after checking that every sum of the kernel fits in int64.

        Raises:
            ModelError: an infinite shoe, or one too large for exact int64 sums with these payouts.
        """
        if shoe.is_infinite:
            raise ModelError("the counting kernel deals finite shoes")
        d = denominator(shoe)
        if d * (self.largest_multiplier + 1) > INT64_LIMIT:
            raise ModelError(
                f"a shoe of {shoe.size} cards is too large for exact int64 sums with payouts up to "
                f"{self.largest_multiplier}; use the exact route (solver.punto) instead"
            )
        return d

    def scratch(self) -> tuple[np.ndarray, ...]:
        """Work arrays for :func:`numerators`: (factor table, node weights, pads, key sums, numerators)."""
        return (
            np.zeros(80, np.int64),
            np.zeros(len(self.parent) + 1, np.int64),
            np.zeros(MAX_CARDS + 1, np.int64),
            np.zeros(self.keys, np.int64),
            np.zeros(len(self.bets), np.int64),
        )

    def dense_scratch(self) -> tuple[np.ndarray, ...]:
        """Work arrays for :func:`solver.count.denselaw.float_numerators`, as :meth:`scratch`."""
        return (
            np.zeros(80),
            np.zeros(self.dense.nodes),
            np.zeros(MAX_CARDS + 1, np.int64),
            np.zeros(self.keys, np.int64),
            np.zeros(len(self.bets), np.int64),
        )

    def arguments(self) -> tuple[np.ndarray, ...]:
        """The kernel's shoe-independent arguments, in order, after ``counts`` and ``size``."""
        return (self.parent, self.factor, self.segments, self.segment_key, self.segment_size, self.pair_node, self.pair_count)

    def dense_arguments(self) -> tuple[np.ndarray, ...]:
        """The float kernel's shoe-independent arrays, in order, after ``counts`` and ``size`` (then come
        ``residual``, ``multiplier``, ``scale`` and :meth:`dense_scratch`)."""
        return (*self.dense.arguments(), self.segment_key, self.segment_size)

    def kernel(self, shoe: Shoe, route: str = "auto", compiled_kernel: bool = True) -> Callable[..., int]:
        """A function ``(multiplier, scale, out) -> D`` running one kernel on ``shoe``: ``route`` is
        ``float`` (float64 over the dense trie), ``int64`` (the trie above), or ``auto`` (``float`` where
        it is exact: :func:`solver.count.denselaw.use_float`).

        Raises:
            ModelError: a shoe too large for exact int64 sums, an unknown route, or ``float`` where it
                would not be exact.
        """
        self.check(shoe)
        counts = np.array(shoe.values, dtype=np.int64)
        dense = use_float(shoe.size, route)
        fn: Callable[..., Any] = denselaw.float_numerators if dense else numerators
        if compiled_kernel:
            fn = denselaw.compiled() if dense else compiled()
        args = self.dense_arguments() if dense else self.arguments()
        work = (self.dense_scratch() if dense else self.scratch())[:-1]
        return lambda m, s, out: int(fn(counts, shoe.size, *args, self.residual, m, s, *work, out))

    def numerators(self, shoe: Shoe, compiled_kernel: bool = True, route: str = "auto") -> tuple[list[int], int]:
        """``(each bet's EV numerator, D)``: the EV of bet ``b`` is ``numerator_b / (scale_b D)``."""
        out = np.zeros(len(self.bets), np.int64)
        d = self.kernel(shoe, route, compiled_kernel)(self.multiplier, self.scale, out)
        return [int(x) for x in out], d

    def evs(self, shoe: Shoe, compiled_kernel: bool = True, route: str = "auto") -> list[Fraction]:
        """Each bet's exact expected value per unit staked on ``shoe``."""
        nums, d = self.numerators(shoe, compiled_kernel, route)
        return [Fraction(n, int(s) * d) for n, s in zip(nums, self.scale)]

    def key_weights(self, shoe: Shoe, compiled_kernel: bool = True, route: str = "auto") -> list[int]:
        """Exact weight of every joint key on ``shoe`` (the residual as ``D`` minus the others)."""
        out = np.zeros(self.keys, np.int64)
        self.kernel(shoe, route, compiled_kernel)(np.eye(self.keys, dtype=np.int64), np.zeros(self.keys, np.int64), out)
        return [int(x) for x in out]


LAW_ARRAYS = (
    "parent",
    "factor",
    "segments",
    "segment_key",
    "segment_size",
    "pair_node",
    "pair_count",
    "multiplier",
    "scale",
    "tiers",
)
"""The arrays of a :class:`FastLaw` kept in the disk cache (with its dense trie's and its residual)."""

DENSE_ARRAYS = tuple(f.name for f in dataclasses.fields(DenseLaw) if f.name != "nodes")

LAWS_KEPT = 16
"""Prepared sets of bets kept in the disk cache (the least recently used go first)."""


def fast_law(bets: Sequence[Bet], tab: Tableau = PUNTO_BANCO, winner: bool = False, fill: float = DENSE_FILL) -> FastLaw:
    """Prepare coup bets for the kernels (``fill``: see :func:`solver.count.denselaw.dense_trie`).

    Built once and kept in the disk cache (:mod:`solver.store.cache`) for bets that are data: building
    the tries takes a few tenths of a second, reading them back a millisecond.

    Raises:
        ModelError: a bet reads the first cards (see :mod:`solver.count.pairs`).
    """
    from solver.store.cache import load_arrays, save_arrays

    bets = tuple(bets)
    key = bets_key("fastlaw", bets, tab, winner, fill)
    stored = load_arrays("fastlaw", key) if key is not None else None
    if stored is not None and set(stored) == {*LAW_ARRAYS, *(f"dense_{n}" for n in DENSE_ARRAYS), "residual", "nodes"}:
        dense = DenseLaw(nodes=int(stored["nodes"][0]), **{n: stored[f"dense_{n}"] for n in DENSE_ARRAYS})
        return FastLaw(
            bets,
            fixed_tableau(tab),
            residual=int(stored["residual"][0]),
            winner=winner,
            dense=dense,
            **{n: stored[n] for n in LAW_ARRAYS},
        )
    law = build_fast_law(bets, tab, winner, fill)
    if key is not None:
        arrays = {n: getattr(law, n) for n in LAW_ARRAYS}
        arrays |= {f"dense_{n}": getattr(law.dense, n) for n in DENSE_ARRAYS}
        arrays |= {"residual": np.array([law.residual], np.int64), "nodes": np.array([law.dense.nodes], np.int64)}
        save_arrays("fastlaw", key, arrays, keep=LAWS_KEPT)
    return law


def build_fast_law(bets: tuple[Bet, ...], tab: Tableau, winner: bool, fill: float) -> FastLaw:
    """:func:`fast_law` built afresh from the compiled bets (numpy)."""
    c = compile_bets(bets, tab, winner=winner)
    g = c.grouping
    n_keys = len(g.keys)
    ends = np.append(g.starts, len(g.multiset))
    residual = int(np.argmax(np.diff(ends)))
    keep = np.ones(len(g.multiset), dtype=bool)
    keep[ends[residual] : ends[residual + 1]] = False
    key_of_pair = np.repeat(np.arange(n_keys), np.diff(ends))[keep]
    used, pair_used = unique_inverse(g.multiset[keep])
    parent, factor, node_of = trie_of(c.multisets[used])
    size_of_pair = c.multisets.sum(axis=1)[g.multiset[keep]]
    order = np.lexsort((size_of_pair, key_of_pair))
    seg_id = key_of_pair[order] * (MAX_CARDS + 1) + size_of_pair[order]
    seg_values, seg_starts = np.unique(seg_id, return_index=True)
    scales = [math.lcm(*(t.pays.denominator for t in b.tiers)) if b.tiers else 1 for b in bets]
    returns = [[int(s * (t.pays + 1)) for t in b.tiers] for s, b in zip(scales, bets)]
    for s, r, b in zip(scales, returns, bets):  # checked in Python integers, before numpy would overflow
        if max([s, *r]) > INT64_LIMIT:
            raise ModelError(f"the payouts of {b.name} are too large for the counting kernel's exact int64 sums")
    scale = np.array(scales, dtype=np.int64)
    multiplier = np.zeros((n_keys, len(bets)), dtype=np.int64)
    for j, _ in enumerate(bets):
        pays = np.array([*returns[j], 0], dtype=np.int64)
        multiplier[:, j] = pays[c.tiers[:, j]]

    def as64(a: Any) -> np.ndarray:
        return np.ascontiguousarray(a, dtype=np.int64)

    segments, pair_count = as64(np.append(seg_starts, len(order))), as64(g.count[keep][order])
    dense = dense_trie(c.multisets[g.multiset[keep][order]], segments, pair_count, fill)
    return FastLaw(
        bets,
        c.tableau,
        parent,
        factor,
        segments,
        as64(seg_values // (MAX_CARDS + 1)),
        as64(seg_values % (MAX_CARDS + 1)),
        as64(node_of[pair_used.ravel()[order]]),
        pair_count,
        residual,
        multiplier,
        scale,
        c.tiers[:, : len(bets)],
        winner,
        dense,
    )
