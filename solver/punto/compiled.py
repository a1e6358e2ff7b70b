"""Sets of coup bets compiled against a fixed tableau: built once, cached on disk, evaluated on any shoe
by exact integer sums (the fast route; :func:`reference_results` is the row-by-row reference).

Compiling gives every path of the deal tree the tier each bet pays on it, and groups the paths by that
*joint key* and by the multiset of card values they use: ``(key, multiset, number of paths)`` triples.
On a shoe, a key weighs ``Σ count × pad[size] × ∏_v (n_v)_{k_v}`` over its triples
(:mod:`solver.deal.weights`), computed in Python integers along the trie of the multisets, one segment of
triples per key and multiset size. A compiled set read back from the disk cache is evaluated without
numpy, so ``baccarat punto`` does without importing it (the numpy arrays, :attr:`CompiledBets.grouping`
and the rest, are built on first use, for the counting kernel).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from operator import mul
from typing import TYPE_CHECKING, Any

from solver.cards import Shoe
from solver.deal.weights import Gather, MultisetTrie, denominator, gather, multiset_trie, pads
from solver.punto.bet import Bet, BetResult, evaluate, result_from_weights
from solver.punto.events import Condition
from solver.rules.tableau import PUNTO_BANCO, Tableau, fixed_tableau
from solver.store.cache import entry_key, load_plain, save_arrays

if TYPE_CHECKING:
    import numpy as np

    from solver.deal.tree import Grouping

# -- compiled sets of coup bets ------------------------------------------------------------------------


@dataclass(frozen=True)
class Segment:
    """The triples of one key whose multisets hold ``size`` cards, by number of paths: ``nodes[j]`` are
    the trie nodes of the multisets that ``counts[j]`` paths use (so a shoe costs one multiplication per
    distinct count, and a sum of node weights picked at C speed, :func:`solver.deal.weights.gather`)."""

    key: int
    size: int
    counts: tuple[int, ...]
    nodes: tuple[tuple[int, ...], ...]

    @cached_property
    def _plan(self) -> tuple[tuple[int, ...], Gather, tuple[tuple[int, Gather], ...]]:
        """The counts and one gather of the multisets that alone have their count, and the other groups."""
        singles = [(c, n[0]) for c, n in zip(self.counts, self.nodes) if len(n) == 1]
        groups = tuple((c, gather(n)) for c, n in zip(self.counts, self.nodes) if len(n) > 1)
        return tuple(c for c, _ in singles), gather([n for _, n in singles]), groups

    def weight(self, node_weights: Sequence[int]) -> int:
        """``Σ count × node weight`` over the segment's triples."""
        counts, singles, groups = self._plan
        total: int = sum(map(mul, counts, singles(node_weights))) + sum([c * sum(g(node_weights)) for c, g in groups])
        return total


@dataclass(frozen=True, eq=False)
class CompiledBets:
    """A set of coup bets compiled against a fixed tableau (shoe-independent, built once).

    Attributes:
        bets: the bets, in order.
        tableau: the fixed tableau.
        trie: the trie of the multisets of card values the tableau's paths use.
        segments: the ``(key, multiset, number of paths)`` triples, by key and multiset size.
        key_tiers: per joint key, the tier of each bet (``len(bet.tiers)`` = loss) and, compiled with
            the winner, last the winner (0 banker, 1 player, 2 tie).
        stored: the arrays the set is stored as (:data:`STORED`), numpy or flat lists.
    """

    bets: tuple[Bet, ...]
    tableau: Tableau
    trie: MultisetTrie
    segments: tuple[Segment, ...]
    key_tiers: tuple[tuple[int, ...], ...]
    stored: dict[str, Any]

    @property
    def winner(self) -> bool:
        """Whether the keys carry the winner."""
        return bool(self.key_tiers) and len(self.key_tiers[0]) > len(self.bets)

    @cached_property
    def grouping(self) -> Grouping:
        """The triples as numpy arrays: ``keys`` 0 … K − 1, ``starts``, ``multiset`` (a row of
        :attr:`multisets`) and ``count``."""
        import numpy as np

        from solver.deal.tree import Grouping

        a = {name: np.asarray(self.stored[name], dtype=np.int64) for name in ("starts", "multiset", "count")}
        return Grouping(keys=np.arange(len(a["starts"]), dtype=np.int64), **a)

    @cached_property
    def multisets(self) -> np.ndarray:
        """The multisets of card values the tableau's paths use (rows of ten counts)."""
        from solver.deal.outcome import tree_multisets

        return tree_multisets(self.tableau)

    @cached_property
    def tiers(self) -> np.ndarray:
        """:attr:`key_tiers` as a ``(keys, columns)`` int64 array."""
        import numpy as np

        return np.array(self.key_tiers, dtype=np.int64).reshape(len(self.key_tiers), -1)

    def key_weights(self, shoe: Shoe, route: str = "auto") -> list[int]:
        """Exact weight of each joint key on ``shoe`` (Python integers).

        ``route``: ``plain`` (Python integers along the trie), ``numpy`` (the deal tree's vectorised
        sums, :func:`solver.deal.tree.multiset_weights`; about 1.7 times faster a shoe), or ``auto``: numpy
        where a process has already imported it, plain where not (pricing one shoe then saves the import,
        which costs more than a hundred shoes). The routes give the same integers (tests/test_bets.py).
        """
        if route not in ROUTES:
            raise ValueError(f"unknown route {route!r} (one of {', '.join(ROUTES)})")
        if route == "numpy" or (route == "auto" and "numpy" in sys.modules):
            from solver.deal.tree import multiset_weights

            return [int(x) for x in self.grouping.evaluate(multiset_weights(self, shoe)).tolist()]
        w = self.trie.weights(shoe)
        pad = pads(shoe)
        sums = [0] * len(self.key_tiers)
        for s in self.segments:
            sums[s.key] += pad[s.size] * s.weight(w)
        return sums

    @cached_property
    def _columns(self) -> tuple[tuple[Gather, ...], ...]:
        """Per column of :attr:`key_tiers` (each bet, then the winner), per value (tier; or banker, player,
        tie), a gather of the keys that take it."""
        sizes = [len(bet.tiers) + 1 for bet in self.bets] + ([3] if self.winner else [])
        return tuple(
            tuple(gather([k for k, row in enumerate(self.key_tiers) if row[b] == t]) for t in range(n))
            for b, n in enumerate(sizes)
        )

    def tier_weights(self, shoe: Shoe, route: str = "auto") -> tuple[list[list[int]], list[int], int]:
        """``(per bet: weight of each tier then of the loss, winner weights [banker, player, tie], D)``."""
        sums = self.key_weights(shoe, route)
        out = [[sum(g(sums)) for g in column] for column in self._columns]
        winners = out.pop() if self.winner else []
        return out, winners, denominator(shoe)

    def results(self, shoe: Shoe, route: str = "auto") -> tuple[tuple[BetResult, ...], list[int], int]:
        """``(the exact law of every bet, winner weights [banker, player, tie], D)`` on ``shoe``."""
        weights, winners, d = self.tier_weights(shoe, route)
        return tuple(result_from_weights(bet, w[:-1], w[-1], d) for bet, w in zip(self.bets, weights)), winners, d


ROUTES = ("auto", "plain", "numpy")
"""How :meth:`CompiledBets.key_weights` sums a shoe."""

STORED = (
    "starts",
    "multiset",
    "count",
    "tiers",
    "trie_parent",
    "trie_factor",
    "trie_levels",
    "pair_node",
    "segment_starts",
    "segment_sizes",
)
"""The int64 arrays a compiled set is stored as (one cache entry)."""


def compile_bets(bets: Sequence[Bet], tab: Tableau = PUNTO_BANCO, winner: bool = True) -> CompiledBets:
    """Compile coup bets against a fixed tableau (cached for equal bets and tableau).

    Every path of the deal tree gets the tier each bet pays on it; paths are grouped by that joint
    tier (with the winner, unless ``winner`` is false) and by the multiset of card values they use,
    so evaluating a shoe is one exact integer sum per (joint tier, multiset) pair.

    Raises:
        ModelError: a bet reads the first cards, or the tableau leaves decisions free.
    """
    return _compile(tuple(bets), fixed_tableau(tab), winner)


@lru_cache(maxsize=64)
def _compile(bets: tuple[Bet, ...], tab: Tableau, winner: bool = True) -> CompiledBets:
    key = bets_key("bets", bets, tab, winner)
    stored = load_plain("bets", key) if key is not None else None
    if stored is not None and set(stored) == set(STORED):
        return _assemble(bets, tab, {name: values for name, (values, _) in stored.items()}, stored["tiers"][1])
    arrays = _build(bets, tab, winner)
    if key is not None:
        save_arrays("bets", key, arrays, keep=BET_SETS_KEPT)
    return _assemble(bets, tab, {name: a.ravel().tolist() for name, a in arrays.items()}, arrays["tiers"].shape)


def _assemble(bets: tuple[Bet, ...], tab: Tableau, flat: dict[str, list[int]], tier_shape: tuple[int, ...]) -> CompiledBets:
    """A compiled set from its stored arrays (flat lists)."""
    trie = MultisetTrie(tuple(flat["trie_parent"]), tuple(flat["trie_factor"]), tuple(flat["trie_levels"]))
    nodes, count = flat["pair_node"], flat["count"]
    key_starts = flat["starts"] + [len(count)]
    bounds = flat["segment_starts"] + [len(count)]
    segments = []
    key = 0
    for a, b, size in zip(bounds[:-1], bounds[1:], flat["segment_sizes"]):
        while key_starts[key + 1] <= a:
            key += 1
        by_count: dict[int, list[int]] = {}
        for node, c in zip(nodes[a:b], count[a:b]):
            by_count.setdefault(c, []).append(node)
        segments.append(Segment(key, size, tuple(by_count), tuple(tuple(n) for n in by_count.values())))
    width = tier_shape[1] if len(tier_shape) > 1 else 0
    tiers = flat["tiers"]
    key_tiers = tuple(tuple(tiers[k * width : (k + 1) * width]) for k in range(len(flat["starts"])))
    return CompiledBets(bets, tab, trie, tuple(segments), key_tiers, flat)


def _build(bets: tuple[Bet, ...], tab: Tableau, winner: bool) -> dict[str, np.ndarray]:
    """Compile from the deal tree (numpy): the arrays of :data:`STORED`."""
    import numpy as np

    from solver.deal.outcome import Outcomes, outcome_index
    from solver.deal.tree import unique_inverse
    from solver.punto.bet import tier_index
    from solver.punto.events import winner_column

    index = outcome_index(tab)
    g = index.grouping
    rows = Outcomes.from_keys(g.keys)
    columns = [tier_index(b, rows) for b in bets] + ([winner_column(rows)] if winner else [])
    per_row = np.stack(columns, axis=1) if columns else np.zeros((len(g.keys), 0), dtype=np.int64)
    joint, joint_of_row = unique_rows(per_row)
    n_pairs, n_ms = len(g.multiset), len(index.multisets)
    row_of_pair = np.repeat(np.arange(len(g.keys)), np.diff(np.append(g.starts, n_pairs)))
    combined = joint_of_row.ravel()[row_of_pair] * n_ms + g.multiset
    pairs, pair_of = unique_inverse(combined)
    count = np.zeros(len(pairs), dtype=np.int64)
    np.add.at(count, pair_of.ravel(), g.count)
    size = index.multisets.sum(axis=1)
    key_of, multiset = pairs // n_ms, pairs % n_ms
    order = np.lexsort((multiset, size[multiset], key_of))  # by key, then multiset size
    key_of, multiset, count = key_of[order], multiset[order], count[order]
    starts = np.searchsorted(key_of, np.arange(len(joint)))
    segment = key_of * 8 + size[multiset]
    segment_starts = np.flatnonzero(np.append(True, segment[1:] != segment[:-1]))
    trie, node_of = multiset_trie(index.multisets.tolist())

    def as64(a: Any) -> np.ndarray:
        return np.ascontiguousarray(a, dtype=np.int64)

    return {
        "starts": as64(starts),
        "multiset": as64(multiset),
        "count": as64(count),
        "tiers": as64(joint),
        "trie_parent": as64(trie.parent),
        "trie_factor": as64(trie.factor),
        "trie_levels": as64(trie.levels),
        "pair_node": as64(np.asarray(node_of)[multiset]),
        "segment_starts": as64(segment_starts),
        "segment_sizes": as64(size[multiset[segment_starts]]),
    }


def forget_compiled_bets() -> None:
    """Forget the compiled bet sets held in memory (the disk cache keeps its entries)."""
    _compile.cache_clear()


BET_SETS_KEPT = 64
"""Compiled bet sets kept in the disk cache (the least recently written go first)."""


def bets_key(name: str, bets: Sequence[Bet], tab: Tableau, winner: bool, *more: object) -> str | None:
    """A disk-cache key for an entry ``name`` derived from bets that are data (conditions, not Python
    predicates), else ``None``; ``more`` says what else the entry depends on.

    The key hashes the package's code (:func:`~solver.store.cache.entry_key`) with the bets, so changed
    code never reads a stale entry.
    """
    if not all(isinstance(t.when, Condition) for b in bets for t in b.tiers):
        return None
    described = tuple((b.name, tuple((str(t.pays), repr(t.when)) for t in b.tiers)) for b in bets)
    return entry_key(name, tab, winner, described, *more)


def unique_rows(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(the distinct rows of a 2-d integer array in lexicographic order, each row's index among them)``."""
    import numpy as np

    if a.shape[1] == 0:
        return a[:1], np.zeros(len(a), dtype=np.int64)
    order = np.lexsort(a.T[::-1])
    s = a[order]
    new = np.ones(len(s), dtype=bool)
    new[1:] = (s[1:] != s[:-1]).any(axis=1)
    ids = np.cumsum(new) - 1
    inverse = np.empty(len(a), dtype=np.int64)
    inverse[order] = ids
    return s[new], inverse


def reference_results(bets: Sequence[Bet], shoe: Shoe, tab: Tableau = PUNTO_BANCO) -> tuple[BetResult, ...]:
    """The reference route: every bet read row by row from the weighted outcome table."""
    from solver.deal.outcome import outcomes

    table = outcomes(shoe, tab)
    return tuple(evaluate(b, table) for b in bets)
