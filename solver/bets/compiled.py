"""Sets of coup bets compiled against a fixed tableau: built once, cached on disk, evaluated on any shoe
by exact integer sums (the fast route; :func:`reference_results` is the row-by-row reference)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver.cache import entry_key, load_arrays, save_arrays
from solver.cards import Shoe
from solver.deal import Grouping, denominator, multiset_weights, unique_inverse
from solver.outcome import Outcomes, fixed_tableau, outcome_index, outcomes, tree_multisets
from solver.rules import PUNTO_BANCO, Tableau

from .core import Bet, BetResult, evaluate, result_from_weights, tier_index
from .events import Condition, winner_column

# -- compiled sets of coup bets ------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CompiledBets:
    """A set of coup bets compiled against a fixed tableau (shoe-independent, built once).

    Attributes:
        bets: the bets, in order.
        tableau: the fixed tableau.
        multisets: the multisets of card values the tableau's paths use (rows of ten counts).
        grouping: ``(joint key, multiset, number of paths)`` triples; a joint key is a row of ``tiers``.
        tiers: ``(keys, bets + 1)``: the tier of each bet (``len(tiers)`` = loss) at each joint key,
            and in the last column the winner (0 banker, 1 player, 2 tie); ``(keys, bets)`` when
            compiled without the winner.
    """

    bets: tuple[Bet, ...]
    tableau: Tableau
    multisets: np.ndarray
    grouping: Grouping
    tiers: np.ndarray

    def key_weights(self, shoe: Shoe) -> np.ndarray:
        """Exact weight of each joint key on ``shoe`` (int64, or Python integers for huge shoes)."""
        return self.grouping.evaluate(multiset_weights(self, shoe))

    def tier_weights(self, shoe: Shoe) -> tuple[list[list[int]], list[int], int]:
        """``(per bet: weight of each tier then of the loss, winner weights [banker, player, tie], D)``."""
        sums = self.key_weights(shoe)
        out = []
        for b, bet in enumerate(self.bets):
            out.append(_sum_by(self.tiers[:, b], sums, len(bet.tiers) + 1))
        winners = _sum_by(self.tiers[:, -1], sums, 3) if self.tiers.shape[1] > len(self.bets) else []
        return out, winners, denominator(shoe)

    def results(self, shoe: Shoe) -> tuple[tuple[BetResult, ...], list[int], int]:
        """``(the exact law of every bet, winner weights [banker, player, tie], D)`` on ``shoe``."""
        weights, winners, d = self.tier_weights(shoe)
        return tuple(result_from_weights(bet, w[:-1], w[-1], d) for bet, w in zip(self.bets, weights)), winners, d


def _sum_by(index: np.ndarray, sums: np.ndarray, n: int) -> list[int]:
    if sums.dtype == object:
        out = [0] * n
        for i, s in zip(index.tolist(), sums.tolist()):
            out[i] += s
        return out
    acc = np.zeros(n, dtype=np.int64)
    np.add.at(acc, index, sums)
    return [int(x) for x in acc]


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
    key = _cache_key(bets, tab, winner)
    stored = load_arrays("bets", key) if key is not None else None
    if stored is not None and set(stored) == {"keys", "starts", "multiset", "count", "tiers"}:
        grouping = Grouping(keys=stored["keys"], starts=stored["starts"], multiset=stored["multiset"], count=stored["count"])
        return CompiledBets(bets, tab, tree_multisets(tab), grouping, stored["tiers"])
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
    keys, starts = np.unique(pairs // n_ms, return_index=True)
    grouping = Grouping(keys=keys, starts=starts, multiset=pairs % n_ms, count=count)
    if key is not None:
        save_arrays("bets", key, {"keys": keys, "starts": starts, "multiset": grouping.multiset, "count": count,
                                  "tiers": joint}, keep=BET_SETS_KEPT)
    return CompiledBets(bets, tab, index.multisets, grouping, joint)


def forget_compiled_bets() -> None:
    """Forget the compiled bet sets held in memory (the disk cache keeps its entries)."""
    _compile.cache_clear()


BET_SETS_KEPT = 64
"""Compiled bet sets kept in the disk cache (the least recently written go first)."""


def _cache_key(bets: tuple[Bet, ...], tab: Tableau, winner: bool) -> str | None:
    """A disk-cache key for bets that are data (conditions, not Python predicates), else ``None``.

    The key hashes the source of the bet machinery (core, this module, the events) with the bets, so changed code never reads
    a stale entry.
    """
    if not all(isinstance(t.when, Condition) for b in bets for t in b.tiers):
        return None
    described = tuple((b.name, tuple((str(t.pays), repr(t.when)) for t in b.tiers)) for b in bets)
    return entry_key("bets", _module_digest(), tab, winner, described)


@lru_cache(maxsize=1)
def _module_digest() -> str:
    import hashlib
    from pathlib import Path

    here = Path(__file__).resolve().parent
    sources = b"".join((here / name).read_bytes() for name in ("core.py", "compiled.py", "events.py"))
    return hashlib.sha256(sources).hexdigest()


def unique_rows(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(the distinct rows of a 2-d integer array in lexicographic order, each row's index among them)``."""
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
    table = outcomes(shoe, tab)
    return tuple(evaluate(b, table) for b in bets)
