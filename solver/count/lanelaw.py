"""The exact per-shoe law of eight shoes at once, one per lane of the vector registers, and of shoes
too large for :mod:`solver.count.denselaw`'s float64 route (the batch route of ``baccarat punto
--shoes``, :mod:`solver.count.batch`).

**Lanes.** Over the dense trie with every task sparse, each node, table entry, pad and key holds a row
of :data:`~solver.count.lawparts.LANES` numbers, one per shoe; a (key, multiset) pair then costs one
row of its parent's weights times its path count, a vector multiply-add for all the shoes
(:mod:`solver.count.lanes`). Exact in float64 where ``D < 2^53``, by the float route's own argument.

**Two channels past 2^53.** The same sums in float64 (rounded) and modulo 2^64 in ``uint64`` (exact:
unsigned arithmetic wraps). Every term of a key's float sum is a product of non-negative exact
integers, so the float sum is within :func:`wide_error` of the exact weight ``S`` in any order of
summation; where that is at most :data:`WIDE_ERROR`, ``S`` is the one integer congruent to the
``uint64`` sum ``L`` within it: ``S = L + 2^64 round((F − L) / 2^64)``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from solver.count.denselaw import DenseLaw
from solver.count.lawparts import LANES
from solver.deal.weights import MAX_CARDS


def dot_rows(weights: Any, pair_node: Any, pair_count: Any, start: Any, stop: Any, out: Any) -> None:
    """``out[0:LANES] = Σ_p pair_count[p] × weights[LANES pair_node[p] : LANES pair_node[p] + LANES]`` over
    ``start <= p < stop``: plain Python, the twin of :data:`solver.count.lanes.dot_rows` (one vector
    multiply-add a pair, which :func:`lane_sums` calls once compiled)."""
    out[:LANES] = 0
    for p in range(start, stop):
        row = LANES * pair_node[p]
        out[:LANES] += pair_count[p] * weights[row : row + LANES]


def scale_rows(weights: Any, src: Any, dst: Any, rows: Any, table: Any, factor: Any) -> None:
    """For ``i < rows`` the row of ``weights`` at ``dst + LANES i`` becomes the row at ``src + LANES i`` times
    ``table[factor:factor + LANES]``: plain Python, the twin of :data:`solver.count.lanes.scale_rows`."""
    for i in range(rows):
        at = LANES * i
        weights[dst + at : dst + at + LANES] = weights[src + at : src + at + LANES] * table[factor : factor + LANES]


DOT_ROWS: Callable[..., Any] = dot_rows
SCALE_ROWS: Callable[..., Any] = scale_rows


def lane_sums(
    counts: np.ndarray,
    sizes: np.ndarray,
    wide: bool,
    run_src: np.ndarray,
    run_dst: np.ndarray,
    run_len: np.ndarray,
    run_factor: np.ndarray,
    seg_tasks: np.ndarray,
    task_factor: np.ndarray,
    task_pairs: np.ndarray,
    pair_node: np.ndarray,
    pair_count: np.ndarray,
    pair_count_u: np.ndarray,
    segment_key: np.ndarray,
    segment_size: np.ndarray,
    weights: Any,
    weights_u: Any,
    table: Any,
    table_u: Any,
    pads: Any,
    pads_u: Any,
    sums: Any,
    sums_u: Any,
) -> None:
    """Every key's weight but the residual's on :data:`LANES` shoes at once (``counts[l]``, ``sizes[l]``),
    lane ``l`` of row ``key`` of ``sums`` (entry ``key × LANES + l``), in float64 over a dense trie whose
    tasks are all sparse (:func:`solver.count.denselaw.dense_trie` with ``fill`` infinite). Every scratch
    array holds a row of :data:`LANES` entries per node, table entry, pad or key, so a pair costs one row
    of its parent's weights for every lane at once (:data:`solver.count.lanes.dot_rows`, a vector
    multiply-add) and no dense coefficient (no zeros).

    With ``wide``, the same sums also modulo 2^64 in ``uint64`` into ``sums_u`` (exact: unsigned
    arithmetic wraps); a shoe's exact weight is then the one integer congruent to ``sums_u`` within
    :func:`wide_error` of ``sums`` (:func:`solver.count.batch.price`). Without, ``sums`` is exact where
    :func:`solver.count.denselaw.float_exact` holds (the argument of :mod:`solver.count.denselaw`: every
    number formed is an integer at most ``D``). A task whose factor is not positive is not skipped as in
    :func:`solver.count.denselaw.float_numerators` (lanes differ): its parents' weights are exactly 0 in
    both channels (their chain of factors meets ``0``), so it adds 0. ``pair_count_u`` is ``pair_count``
    as ``uint64``; ``weights`` (a row per node), ``table`` (80 rows), ``pads`` (7), ``sums`` (a row per
    key) and their ``_u`` twins are flat scratch arrays, the rows indexed unsigned (numba then drops its
    wraparound test).
    """
    lanes = np.uint64(LANES)
    for lane in range(LANES):
        for v in range(10):
            for b in range(8):
                table[(8 * v + b) * LANES + lane] = counts[lane, v] - b
                table_u[(8 * v + b) * LANES + lane] = np.uint64(counts[lane, v] - b)  # modulo 2^64: negatives wrap
        for k in range(MAX_CARDS + 1):
            p = 1.0
            pu = np.uint64(1)
            for j in range(MAX_CARDS - k):
                p *= sizes[lane] - k - j
                pu *= np.uint64(sizes[lane] - k - j)
            pads[k * LANES + lane] = p
            pads_u[k * LANES + lane] = pu
        weights[lane] = 1.0
        weights_u[lane] = np.uint64(1)
    for r in range(len(run_len)):
        f = np.uint64(run_factor[r]) * lanes
        src = np.uint64(run_src[r]) * lanes
        dst = np.uint64(run_dst[r]) * lanes
        SCALE_ROWS(weights, src, dst, np.uint64(run_len[r]), table, f)
        if wide:
            SCALE_ROWS(weights_u, src, dst, np.uint64(run_len[r]), table_u, f)
    sums[:] = 0.0
    sums_u[:] = 0
    acc = np.zeros(LANES)
    part = np.zeros(LANES)
    acc_u = np.zeros(LANES, np.uint64)
    part_u = np.zeros(LANES, np.uint64)
    for s in range(len(segment_key)):
        acc[:] = 0.0
        acc_u[:] = 0
        for t in range(seg_tasks[s], seg_tasks[s + 1]):
            DOT_ROWS(weights, pair_node, pair_count, task_pairs[t], task_pairs[t + 1], part)
            f = np.uint64(task_factor[t]) * lanes
            for lane in range(lanes):
                acc[lane] += table[f + lane] * part[lane]
            if wide:
                DOT_ROWS(weights_u, pair_node, pair_count_u, task_pairs[t], task_pairs[t + 1], part_u)
                for lane in range(lanes):
                    acc_u[lane] += table_u[f + lane] * part_u[lane]
        key_row = np.uint64(segment_key[s]) * lanes
        pad_row = np.uint64(segment_size[s]) * lanes
        for lane in range(lanes):
            sums[key_row + lane] += acc[lane] * pads[pad_row + lane]
            sums_u[key_row + lane] += acc_u[lane] * pads_u[pad_row + lane]


def wide_terms(law: DenseLaw, segment_key: np.ndarray, keys: int) -> int:
    """The most rounded operations any term of one key's float sum in :func:`lane_sums` passes through:
    four multiplications forming a parent's weight (levels up to 5 from the exact first level), one by
    its path count, one by the task's factor, one by the padding, and at most ``n − 1`` additions in any
    order of summing the key's ``n`` terms (every dense coefficient and sparse pair of its tasks, and
    one per task and per segment).
    """
    terms = np.zeros(keys, dtype=np.int64)
    for s in range(len(segment_key)):
        for t in range(int(law.seg_tasks[s]), int(law.seg_tasks[s + 1])):
            terms[segment_key[s]] += int(law.task_len[t]) + int(law.task_pairs[t + 1] - law.task_pairs[t]) + 1
        terms[segment_key[s]] += 1
    return 7 + max((int(t) for t in terms.tolist()), default=0)


def wide_error(size: int, rounded: int) -> Fraction:
    """A bound on ``|float sum − exact sum|`` for every key of :func:`lane_sums` on a shoe of ``size``
    cards: ``γ_h D`` with ``γ_h = h u / (1 − h u)``, ``u = 2^−53``, ``h`` = ``rounded``
    (:func:`wide_terms`). Every term is a product of non-negative exact integers (table entries, path
    counts, pads), so each computed term is its exact value times at most ``h`` factors ``(1 + δ)``,
    ``|δ| ≤ u``, in any order of evaluation (fused multiply-adds round less), and the computed sum is
    within ``γ_h`` of the exact sum, itself at most ``D`` (Higham, *Accuracy and Stability of Numerical
    Algorithms*, 2nd ed. 2002, Lemma 3.1 and §3.1).

    >>> round(wide_error(416, 20_000))  # 8 decks: within 11,099 of the exact weight (about 5 x 10^15)
    11099
    >>> wide_error(52_000, 20_000) < 2**61 < wide_error(200_000, 20_000)  # see WIDE_ERROR
    True
    """
    d = 1
    for j in range(MAX_CARDS):
        d *= max(size - j, 1)
    hu = Fraction(rounded, 2**53)
    return hu / (1 - hu) * d


WIDE_ERROR = 2**61
""":func:`lane_sums` is exact (``wide``) where :func:`wide_error` is at most this: with ``L`` the sum modulo 2^64
and ``F`` the float sum, ``(F − float(L)) / 2^64`` is then within ``(2^61 + 2^10 + 2^49) / 2^64 < 1/2``
of the whole number ``(S − L) / 2^64`` (``float(L)`` rounds by at most ``2^10``, the subtraction by
``2^−53`` of at most ``2^102``), so rounding it recovers ``S``."""


def wide_exact(size: int, rounded: int) -> bool:
    """Whether :func:`lane_sums` (``wide``) recovers every key's exact weight on a shoe of ``size`` cards.

    >>> wide_exact(52_000, 20_000), wide_exact(200_000, 20_000)
    (True, False)
    """
    return wide_error(size, rounded) <= WIDE_ERROR


_COMPILED: dict[str, Callable[..., Any]] = {}


def compiled_lanes() -> Callable[..., Any]:
    """The numba-compiled :func:`lane_sums` (compiled on first use, cached on disk), its float sums
    allowed to reassociate and fuse (exact below 2^53 in any order; the bound of :func:`wide_error`
    holds in any order)."""
    global DOT_ROWS, SCALE_ROWS
    if "lane_sums" not in _COMPILED:
        from numba import njit

        from solver.count import lanes
        from solver.store.jitcache import drop_stale

        DOT_ROWS, SCALE_ROWS = lanes.dot_rows, lanes.scale_rows  # vector rows, compiled into the kernel
        drop_stale(__file__, "lane_sums")
        _COMPILED["lane_sums"] = njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})(lane_sums)
    return _COMPILED["lane_sums"]
