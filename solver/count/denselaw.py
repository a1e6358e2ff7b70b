"""The exact per-shoe law in float64 over a dense trie: the counting kernel's fast route for shoes of
up to 8 decks.

**The dense trie.** Write a multiset of card values as its sorted value sequence. Level ``k`` holds
the multisets of ``k`` values, ordered by their last value ``v``, then by the multiplicity of ``v``,
then recursively by their parent (the sequence without its last value). Level ``k + 1``, block ``v``
(the multisets whose last value is ``v``) is then the prefix of level ``k`` whose last value is at most
``v``, each with ``v`` appended, in the same order: by induction its nodes are sorted by the
multiplicity of ``v`` (1 from a parent whose last value is below ``v``, ``m + 1`` from one ending in
``m`` copies of ``v``). On a shoe of ``n_v`` cards of value ``v`` a node's weight (its falling-factorial
product ``w = ∏_v n_v (n_v − 1) … (n_v − k_v + 1)``) is its parent's times ``n_v − m``, ``m`` the copies
of ``v`` in the parent; so the whole of block ``v`` is a few *runs*: a contiguous slice of level ``k``
times one scalar (``n_v`` on the parents below ``v``, ``n_v − m`` on each sub-block of multiplicity
``m``). Level ``k`` has ``C(9 + k, k)`` nodes (1, 10, 55, 220, 715, 2,002, 5,005). A run is one scalar
times a contiguous vector, with no gather: the compiler vectorises it (SIMD multiplies).

**The sums.** A joint key's weight is ``Σ count × w(multiset) × pad(size)`` over its (key, multiset)
pairs, ``pad(s) = (N − s)(N − s − 1) … (N − 5)``, in segments of one key and one size. The pairs of a
segment that lie in one run of their level share the factor ``f`` that run multiplies by, so their sum
is ``f × Σ count × w(parent)``: a *task*, a dot product of a coefficient vector (the path counts, 0
between them) with a contiguous slice of the parents' level where the pairs fill at least
:data:`DENSE_FILL` of it (vectorised), else a list of (parent, count) read by index. The deepest level
(5,005 nodes for six cards) is thus never formed, and :func:`dense_trie` keeps only the runs of the
nodes some task reads, and their ancestors. A task with ``f ≤ 0`` adds nothing (``f < 0`` only where
the parents hold more cards of ``v`` than the shoe, weight 0) and is skipped.

**Why float64 is exact here.** Every number the float kernel forms is a non-negative integer at most
``D = N (N − 1) … (N − 5)``: a node's weight counts the ordered ways to draw ``k_v`` distinct cards of
each value, at most ``N (N − 1) … (N − k + 1) ≤ D`` (where ``k_v > n_v`` the chain of factors meets 0
before any negative one, so the weight is 0); a term ``count × w`` times ``pad`` is the total weight of
``count`` disjoint card sequences, so any sum of a segment's terms (all non-negative) is at most the
segment's whole sum, itself at most ``D / pad`` (all paths together weigh ``D``); a task's sum is at
most ``f`` times itself, a sum of its segment's terms, as ``f ≥ 1``. Path counts are at most
``6! = 720``, exact in float32 (:data:`COEF`). For ``D < 2^53`` (up to 458 cards: 8 decks, 416 cards,
give ``D ≈ 5.0 × 10^15 < 2^53 ≈ 9.0 × 10^15``; 9 decks do not) every such integer is a float64
exactly, so every product, sum and fused multiply-add of them is exact, *in any order*: the
reassociation that vectorising the dot products needs changes nothing. The segment sums are then
int64, and everything after (the pads, the residual key ``D − Σ``, the payouts) is the int64 kernel's
own arithmetic (:func:`solver.count.fastlaw.numerators`), so the numerators are the same integers.
:func:`float_exact` is the guard; a larger shoe takes the int64 kernel.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from solver.count.lawparts import settle, shoe_tables
from solver.deal.weights import MAX_CARDS
from solver.errors import ModelError

COEF = np.float32
"""The coefficients' type: path counts (at most 720) are exact in float32, half the bytes of float64."""

ROUTES = ("auto", "float", "int64")
"""The kernel routes (:func:`use_float`)."""

FLOAT_EXACT = 2**53
"""Every integer up to this one is a float64 exactly."""

DENSE_FILL = 0.25
"""A task's pairs are read as a dense coefficient vector when they fill at least this share of their
range of parents (else by index)."""


def float_exact(size: int) -> bool:
    """Whether the float kernel is exact on a shoe of ``size`` cards: ``D = size (size − 1) … (size − 5)``
    (or, below six cards, every falling product) below 2^53.

    >>> float_exact(416), float_exact(458), float_exact(459), float_exact(468), float_exact(3)
    (True, True, False, False, True)
    """
    d = 1
    for j in range(MAX_CARDS):
        d *= max(size - j, 1)
    return d < FLOAT_EXACT


def use_float(size: int, route: str) -> bool:
    """Whether a kernel ``route`` (``auto``: float64 where :func:`float_exact` holds; ``float``; ``int64``)
    takes the float kernel on a shoe of ``size`` cards.

    >>> use_float(416, "auto"), use_float(468, "auto"), use_float(416, "int64")
    (True, False, False)

    Raises:
        ModelError: an unknown route, or ``float`` where it would not be exact.
    """
    if route not in ROUTES:
        raise ModelError(f"the kernel route is one of {', '.join(ROUTES)}, got {route!r}")
    exact = float_exact(size)
    if route == "float" and not exact:
        raise ModelError(f"float64 sums are not exact on a shoe of {size} cards; use the int64 kernel")
    return exact and route != "int64"


def levels(depth: int) -> list[list[tuple[int, ...]]]:
    """The dense trie's levels ``0 … depth`` as sorted value sequences, in the order of the module docstring.

    >>> [len(level) for level in levels(6)]
    [1, 10, 55, 220, 715, 2002, 5005]
    >>> levels(2)[2][:4]
    [(0, 0), (0, 1), (1, 1), (0, 2)]
    """
    out: list[list[tuple[int, ...]]] = [[()]]
    for _ in range(depth):
        out.append([q + (v,) for v in range(10) for q in out[-1] if not q or q[-1] <= v])
    return out


@dataclass(frozen=True, eq=False)
class DenseLaw:
    """A set of (key, multiset) pairs ready for the float kernel (see the module docstring).

    Attributes:
        run_src, run_dst, run_len, run_factor: node ``run_dst + i`` is node ``run_src + i`` times table
            entry ``run_factor`` (``8 v + m``: ``n_v − m``), ``i < run_len``; in level order.
        nodes: the node weights array's length (the root is node 0).
        seg_tasks: segment ``s``'s tasks are ``seg_tasks[s]:seg_tasks[s + 1]``.
        task_factor, task_node, task_coef, task_len: a task's pairs all add the same value (table entry
            ``task_factor``) to their parents; its dense part is ``coef[task_coef + j]`` times the
            weight of node ``task_node + j``, ``j < task_len``.
        coef: the dense coefficients (path counts, 0 where a parent has no pair of the task).
        task_pairs, pair_node, pair_count: a task's other pairs (parent node, path count),
            ``task_pairs[t]:task_pairs[t + 1]``.
    """

    run_src: np.ndarray
    run_dst: np.ndarray
    run_len: np.ndarray
    run_factor: np.ndarray
    nodes: int
    seg_tasks: np.ndarray
    task_factor: np.ndarray
    task_node: np.ndarray
    task_coef: np.ndarray
    task_len: np.ndarray
    coef: np.ndarray
    task_pairs: np.ndarray
    pair_node: np.ndarray
    pair_count: np.ndarray

    def arguments(self) -> tuple[np.ndarray, ...]:
        """The float kernel's shoe-independent arrays, in order."""
        return (
            self.run_src,
            self.run_dst,
            self.run_len,
            self.run_factor,
            self.seg_tasks,
            self.task_factor,
            self.task_node,
            self.task_coef,
            self.task_len,
            self.coef,
            self.task_pairs,
            self.pair_node,
            self.pair_count,
        )

    @property
    def computed(self) -> int:
        """Node weights the kernel computes per shoe."""
        return int(self.run_len.sum())


def level_runs(parents: list[tuple[int, ...]]) -> list[tuple[int, int, int, int]]:
    """The runs from one level to the next, as ``(parent index, child index, length, 8 v + m)`` within
    the two levels.

    >>> level_runs(levels(1)[1])[:4]
    [(0, 0, 1, 1), (0, 1, 1, 8), (1, 2, 1, 9), (0, 3, 2, 16)]
    """
    runs = []
    dst = 0
    for v in range(10):
        end = sum(1 for q in parents if not q or q[-1] <= v)  # the parents ending at most in v: a prefix
        factors = [8 * v + (q.count(v) if q and q[-1] == v else 0) for q in parents[:end]]
        i = 0
        while i < end:
            j = i
            while j < end and factors[j] == factors[i]:
                j += 1
            runs.append((i, dst + i, j - i, factors[i]))
            i = j
        dst += end
    return runs


@cache
def trie_structure(
    depth: int,
) -> tuple[list[int], list[dict[tuple[int, ...], int]], list[list[tuple[int, int, int, int]]], list[np.ndarray]]:
    """The dense trie up to ``depth`` cards, whatever the bets (cached): each level's offset among the
    nodes, each level's index of its sequences, the runs from each level to the next
    (:func:`level_runs`) and, for each child of those, its run.

    >>> trie_structure(6)[0]
    [0, 1, 11, 66, 286, 1001, 3003, 8008]
    """
    lv = levels(depth)
    offset = [0]
    for level in lv:
        offset.append(offset[-1] + len(level))
    index = [{q: i for i, q in enumerate(level)} for level in lv]
    runs = [level_runs(lv[k]) for k in range(depth)]
    run_of = [np.repeat(np.arange(len(r)), [n for _, _, n, _ in r]) for r in runs]  # child index -> run
    return offset, index, runs, run_of


def dense_trie(pair_multiset: np.ndarray, segments: np.ndarray, pair_count: np.ndarray, fill: float = DENSE_FILL) -> DenseLaw:
    """Build the dense trie and the tasks for pairs given by their multisets (rows of ten counts, at least
    one card each), in segments ``segments[s]:segments[s + 1]`` of one key and one size, with their path
    counts. A pair's weight is its parent's (the multiset without its largest value) times one factor:
    the trie stops a level short of the largest multisets, and the pairs sharing a segment and a run
    of the last level are one task, their sum multiplied once by the run's factor.

    >>> d = dense_trie(np.array([[2, 0, 0, 0, 0, 0, 0, 1, 0, 0], [0, 1, 0, 0, 0, 0, 0, 0, 0, 0]]),
    ...                np.array([0, 1, 2]), np.array([5, 3]))
    >>> d.computed, d.task_factor.tolist(), d.task_len.tolist(), d.coef.tolist()
    (2, [56, 8], [1, 1], [5.0, 3.0])
    """
    size = [int(k) for k in pair_multiset.sum(axis=1).tolist()]
    if min(size, default=1) < 1:
        raise ValueError("a pair's multiset has at least one card")
    depth = max(size, default=1)
    offset, index, runs, run_of = trie_structure(depth)
    seqs = [tuple(v for v in range(10) for _ in range(row[v])) for row in pair_multiset.tolist()]
    needed = np.zeros(offset[depth], dtype=bool)  # parents read by some task, and their ancestors
    tasks: list[tuple[int, int, list[int], list[tuple[int, int]]]] = []  # factor, node, dense, (parent, count)
    seg_tasks = [0]
    for s in range(len(segments) - 1):
        a, b = int(segments[s]), int(segments[s + 1])
        by_run: dict[int, dict[int, int]] = {}  # the segment's pairs by run of their level: parent -> count
        for p in range(a, b):
            k = len(seqs[p])
            child = index[k][seqs[p]]
            r = int(run_of[k - 1][child])
            src, dst, _, _ = runs[k - 1][r]
            parent = offset[k - 1] + src + child - dst
            by_run.setdefault(r, {})
            by_run[r][parent] = by_run[r].get(parent, 0) + int(pair_count[p])
        k = len(seqs[a]) if b > a else 1
        for r, pairs in sorted(by_run.items()):
            lo, hi = min(pairs), max(pairs) + 1
            if len(pairs) >= fill * (hi - lo):
                tasks.append((runs[k - 1][r][3], lo, [pairs.get(i, 0) for i in range(lo, hi)], []))
                needed[lo:hi] = True
            else:
                tasks.append((runs[k - 1][r][3], 0, [], sorted(pairs.items())))
                needed[list(pairs)] = True
        seg_tasks.append(len(tasks))
    for k in range(depth - 1, 0, -1):  # the ancestors: a needed node needs its parent
        for src, dst, n, _ in runs[k - 1]:
            needed[offset[k - 1] + src : offset[k - 1] + src + n] |= needed[offset[k] + dst : offset[k] + dst + n]
    weight_runs = []
    for k in range(depth - 1):
        for src, dst, n, f in runs[k]:
            kept = np.flatnonzero(needed[offset[k + 1] + dst : offset[k + 1] + dst + n])
            if len(kept):
                lo, hi = int(kept[0]), int(kept[-1]) + 1
                weight_runs.append((offset[k] + src + lo, offset[k + 1] + dst + lo, hi - lo, f))

    def i64(x: Any) -> np.ndarray:
        return np.array(x, dtype=np.int64).reshape(-1)

    wr = np.array(weight_runs, dtype=np.int64).reshape(-1, 4)
    sparse = [pair for t in tasks for pair in t[3]]
    return DenseLaw(
        i64(wr[:, 0]),
        i64(wr[:, 1]),
        i64(wr[:, 2]),
        i64(wr[:, 3]),
        max(offset[depth], 1),
        i64(seg_tasks),
        i64([t[0] for t in tasks]),
        i64([t[1] for t in tasks]),
        i64(np.cumsum([0] + [len(t[2]) for t in tasks])[:-1]),
        i64([len(t[2]) for t in tasks]),
        np.array([c for t in tasks for c in t[2]], dtype=COEF),
        i64(np.cumsum([0] + [len(t[3]) for t in tasks])),
        i64([n for n, _ in sparse]),
        np.array([c for _, c in sparse], dtype=COEF),
    )


def float_numerators(
    counts: np.ndarray,
    size: int,
    run_src: np.ndarray,
    run_dst: np.ndarray,
    run_len: np.ndarray,
    run_factor: np.ndarray,
    seg_tasks: np.ndarray,
    task_factor: np.ndarray,
    task_node: np.ndarray,
    task_coef: np.ndarray,
    task_len: np.ndarray,
    coef: Any,
    task_pairs: np.ndarray,
    pair_node: np.ndarray,
    pair_count: np.ndarray,
    segment_key: np.ndarray,
    segment_size: np.ndarray,
    residual: int,
    multiplier: np.ndarray,
    scale: np.ndarray,
    table: np.ndarray,
    weights: Any,
    pads: np.ndarray,
    sums: np.ndarray,
    out: np.ndarray,
) -> int:
    """Every bet's exact EV numerator over ``scale × D`` into ``out``, as
    :func:`solver.count.fastlaw.numerators` (the same integers) but with the node weights and segment
    sums in float64 over the dense trie; returns ``D``. Exact only where :func:`float_exact` holds.

    A task whose factor is not positive adds nothing (its parents' weights are 0 where it is negative)
    and is skipped: every float formed is then at most a sum of its segment's terms.
    ``table`` (80, float64), ``weights`` (``DenseLaw.nodes``, float64), ``pads`` (7, int64) and ``sums``
    (one per key, int64) are scratch space. ``weights`` and ``coef`` are indexed with unsigned sums
    (numba then drops its wraparound test and vectorises), which numpy's type stubs read as floats:
    they are typed ``Any``.
    """
    shoe_tables(counts, size, table, pads)
    weights[0] = 1.0
    for r in range(len(run_len)):
        f = table[run_factor[r]]
        src = np.uint64(run_src[r])  # unsigned indices: no wraparound test, so the loop vectorises
        dst = np.uint64(run_dst[r])
        for i in range(np.uint64(run_len[r])):
            weights[dst + i] = weights[src + i] * f
    for k in range(len(sums)):
        sums[k] = 0
    for s in range(len(segment_key)):
        acc = 0.0
        for t in range(seg_tasks[s], seg_tasks[s + 1]):
            f = table[task_factor[t]]
            if f <= 0.0:
                continue
            part = 0.0
            c0 = np.uint64(task_coef[t])
            w0 = np.uint64(task_node[t])
            for j in range(np.uint64(task_len[t])):
                part += coef[c0 + j] * weights[w0 + j]
            for p in range(task_pairs[t], task_pairs[t + 1]):
                part += pair_count[p] * weights[pair_node[p]]
            acc += f * part
        sums[segment_key[s]] += np.int64(acc) * pads[segment_size[s]]
    d: int = pads[0]
    settle(sums, d, residual, multiplier, scale, out)
    return d


_COMPILED: dict[str, Callable[..., Any]] = {}


def compiled() -> Callable[..., Any]:
    """The numba-compiled :func:`float_numerators` (compiled on first use, cached on disk), allowed to
    reassociate and fuse float sums (exact here: see the module docstring)."""
    if "float_numerators" not in _COMPILED:
        from numba import njit

        from solver.count import lawparts
        from solver.store.jitcache import drop_stale

        lawparts.register()
        drop_stale(__file__, "float_numerators")
        _COMPILED["float_numerators"] = njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})(float_numerators)
    return _COMPILED["float_numerators"]
