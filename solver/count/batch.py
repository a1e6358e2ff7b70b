"""Batches of shoes priced exactly at the counting kernel's speed (``baccarat punto --shoes``).

A batch prices every bet of a set on many shoes. Each shoe's answer is a row of exact integers, its
*values* (:class:`BatchLaw`, "Values"): the denominators, the three winners' weights, and per bet the
weight of each line of its pay table, of a loss, of a win and of a push, and its EV numerator over
``scale × denominator``. They are exactly the integers :func:`solver.punto.punto_banco` reduces into
Fractions (:func:`solver.count.batch_rows.result` builds its :class:`~solver.punto.PuntoResult` from them,
:func:`solver.count.batch_rows.values_of` the other way), computed by one compiled kernel (:func:`price`) per chunk of shoes:

* the coup bets' joint keys by the counting kernel's dense trie, eight shoes at a time, one per
  vector lane (:func:`solver.count.lanelaw.lane_sums`): in float64, exact while ``D < 2^53`` (up to
  8 decks) by the float route's own argument, or, on larger shoes, in float64 and modulo 2^64, the
  exact integer being the one congruent to the second within the proven error of the first
  (:func:`solver.count.lanelaw.wide_error`; up to about 2,000 decks);
* the residual key, every pay-table line and the winners as 128-bit sums of keys, the wins, pushes and
  EV numerators as small integer combinations of them (:mod:`solver.exact.wide`);
* bets on the first cards by the first cards' moments (:func:`solver.punto.pairs.first_card_moments`,
  int64, exact up to 55,000 cards), combined into each line's weight.

A shoe no kernel route is exact for (the infinite deck, dealt with replacement; a shoe of more cards
than :attr:`BatchLaw.max_cards`) is priced by :func:`solver.punto.punto_banco` in Python integers and
its values read off the result. Rows are independent: a chunk can be priced anywhere
(:func:`price_chunk`, picklable, for :func:`solver.simulate.executor.map_chunks`) and the rows put back
in input order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from solver.cards import Shoe
from solver.count import lanelaw, lawparts
from solver.count.denselaw import float_exact
from solver.count.fastlaw import FastLaw, fast_law
from solver.count.lanelaw import wide_exact, wide_terms
from solver.count.shoe_arrays import Kind
from solver.deal.weights import MAX_CARDS
from solver.exact.wide import add, from_int, mul_small, sub
from solver.punto import Bet, compile_bets
from solver.punto.pairs import CLASS_BASIS, PAIR, RANK_CLASS_BASIS, SUITED, first_card_moments
from solver.rules.tableau import PUNTO_BANCO, Tableau

SPARSE = math.inf
"""The dense share of the batch's dense trie (:func:`solver.count.denselaw.dense_trie`): none, every task a
list of (parent, path count), for :func:`solver.count.lanelaw.lane_sums`."""

WIDTH_LIMIT = 2**126
"""Every value of a kernel row is below this in absolute value (signed 128-bit sums never wrap)."""

MOMENTS_LIMIT = 2**63
"""The first cards' moments are int64: every partial sum (at most ``N^4 + 4 N^3 + 6 N^2``) below this."""


D, D4, BANKER, PLAYER, TIE = range(5)
"""Value indices: the coup's denominator ``N (N − 1) … (N − 5)``, the first four cards' ``N (N − 1)
(N − 2) (N − 3)`` (``T^6``, ``T^4`` dealing with replacement), and the weights of the three winners."""


@dataclass(frozen=True, eq=False)
class BatchLaw:
    """A set of bets ready to price batches of shoes (shoe-independent; built once per process).

    Values of a row: :data:`D`, :data:`D4`, the three winners, then per bet ``b`` from ``base[b]``: the
    weight of each pay-table line, of a loss, of a win, of a push, and the EV numerator over
    ``scale_b × den`` (``den`` :data:`D` for a coup bet, :data:`D4` for a bet on the first cards).

    Attributes:
        bets: the bets, in order.
        tableau: the fixed tableau.
        law: the coup bets compiled for the kernels, with the winner.
        base: each bet's first value.
        width: values per row.
        rounded: :func:`solver.count.lanelaw.wide_terms` of the law.
        max_cards: the largest shoe the kernel prices exactly.
    """

    bets: tuple[Bet, ...]
    tableau: Tableau
    law: FastLaw
    base: tuple[int, ...]
    width: int
    rounded: int
    max_cards: int
    arrays: dict[str, np.ndarray]

    def tier_count(self, b: int) -> int:
        """Lines of bet ``b``'s pay table (its loss not counted)."""
        return len(self.bets[b].tiers)

    def loss(self, b: int) -> int:
        """The value index of bet ``b``'s loss weight."""
        return self.base[b] + self.tier_count(b)

    def win(self, b: int) -> int:
        """The value index of bet ``b``'s win weight."""
        return self.loss(b) + 1

    def push(self, b: int) -> int:
        """The value index of bet ``b``'s push weight."""
        return self.loss(b) + 2

    def ev(self, b: int) -> int:
        """The value index of bet ``b``'s EV numerator."""
        return self.loss(b) + 3

    def kept(self, kind: int) -> tuple[int, ...]:
        """The bets a shoe of this kind settles, by index."""
        return tuple(b for b, bet in enumerate(self.bets) if not bet.first_cards or _settled(bet, kind))

    def kernel_route(self, shoe: Shoe) -> bool:
        """Whether :func:`price` is exact on ``shoe`` (else :func:`values_of` a Python result)."""
        return not shoe.is_infinite and shoe.size <= self.max_cards


def _settled(bet: Bet, kind: int) -> bool:
    return kind == Kind.SUITS or (kind == Kind.RANKS and not bet.needs_suits)


def _classes(suits: bool) -> tuple[list[int], tuple[tuple[int, ...], ...], list[int]]:
    """The classes of two cards, their basis rows over the moments, and the moments' columns used."""
    if suits:
        return [0, PAIR, SUITED, PAIR | SUITED], CLASS_BASIS, [0, 1, 2, 3]
    return [0, PAIR], RANK_CLASS_BASIS, [0, 1]


def _first_rows(bets: Sequence[Bet], base: Sequence[int], suits: bool) -> dict[str, np.ndarray]:
    """Each first-card bet's line and loss weights as sums ``Σ coef × M[x, y]`` of the moments."""
    classes, basis, columns = _classes(suits)
    rows: dict[tuple[int, int, int], int] = {}
    for bet, start in zip(bets, base):
        if not bet.first_cards or (bet.needs_suits and not suits):
            continue
        for a, pc in enumerate(classes):
            for b, bc in enumerate(classes):
                values = {}
                for side, c in (("player", pc), ("banker", bc)):
                    values[f"{side}_pair"] = int(bool(c & PAIR))
                    values[f"{side}_suited"] = int(bool(c & SUITED))
                    values[f"{side}_perfect_pair"] = int(c == PAIR | SUITED)
                tier = next((i for i, t in enumerate(bet.tiers) if t.when.holds(values)), len(bet.tiers))  # type: ignore[union-attr]
                for i, x in enumerate(columns):
                    for j, y in enumerate(columns):
                        c = basis[a][i] * basis[b][j]
                        if c:
                            key = (start + tier, x, y)
                            rows[key] = rows.get(key, 0) + c
    kept = [(k, c) for k, c in sorted(rows.items()) if c]
    return {
        "dst": np.array([k[0] for k, _ in kept], dtype=np.int64),
        "x": np.array([k[1] for k, _ in kept], dtype=np.int64),
        "y": np.array([k[2] for k, _ in kept], dtype=np.int64),
        "coef": np.array([c for _, c in kept], dtype=np.int64),
    }


def _derived(bets: Sequence[Bet], base: Sequence[int]) -> tuple[dict[str, np.ndarray], int]:
    """Win, push and EV numerator of every bet as integer combinations of its lines' weights (the
    arithmetic of :func:`solver.punto.result_from_weights`); and the largest coefficient."""
    dst, start, src, coef = [], [0], [], []
    largest = 1
    for bet, b0 in zip(bets, base):
        n = len(bet.tiers)
        loss = b0 + n
        scale = bet.scale
        rows = (
            (loss + 1, [(b0 + i, 1) for i, t in enumerate(bet.tiers) if t.pays > 0]),
            (loss + 2, [(b0 + i, 1) for i, t in enumerate(bet.tiers) if t.pays == 0]),
            (
                loss + 3,
                [(b0 + i, t.pays.numerator * (scale // t.pays.denominator)) for i, t in enumerate(bet.tiers)] + [(loss, -scale)],
            ),
        )
        for target, terms in rows:
            terms = [(s, c) for s, c in terms if c]
            dst.append(target)
            src += [s for s, _ in terms]
            coef += [c for _, c in terms]
            start.append(len(src))
            largest = max([largest] + [abs(c) for _, c in terms])
    arrays = {"dst": dst, "start": start, "src": src, "coef": coef}
    return {k: np.array(v, dtype=np.int64) for k, v in arrays.items()}, largest


def largest_exact(law: FastLaw, rounded: int, largest: int, first_cards: bool) -> int:
    """The most cards on which :func:`price` is exact with these bets: the wide route recovers every key
    (:func:`solver.count.lanelaw.wide_exact`), every value stays below :data:`WIDTH_LIMIT`, and, with
    bets on the first cards, their int64 moments below :data:`MOMENTS_LIMIT`."""

    def fits(n: int) -> bool:
        d = math.prod(n - j for j in range(MAX_CARDS))
        if not (float_exact(n) or wide_exact(n, rounded)) or (largest + 1) * d >= WIDTH_LIMIT:
            return False
        return not first_cards or n**4 + 4 * n**3 + 6 * n**2 < MOMENTS_LIMIT

    lo, hi = 6, 1 << 22  # fits(6) holds; fits(2^22) fails for every set of bets
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return lo


@lru_cache(maxsize=8)
def batch_law(bets: tuple[Bet, ...], tab: Tableau = PUNTO_BANCO) -> BatchLaw:
    """Prepare ``bets`` for batches (cached per process: a worker builds it once for all its chunks).

    Raises:
        ModelError: the tableau leaves a decision free.
    """
    coup = tuple(b for b in bets if not b.first_cards)
    law = fast_law(coup, tab, winner=True, fill=SPARSE)
    compiled = compile_bets(coup, tab, winner=True)
    base = []
    at = TIE + 1
    for bet in bets:
        base.append(at)
        at += len(bet.tiers) + 4
    derived, largest = _derived(bets, base)
    rounded = wide_terms(law.dense, law.segment_key, law.keys)
    first = any(b.first_cards for b in bets)
    arrays: dict[str, np.ndarray] = {
        "pair_count_f": law.dense.pair_count.astype(np.float64),
        "pair_count_u": law.dense.pair_count.astype(np.uint64),
        "coup_base": np.array([base[i] for i, b in enumerate(bets) if not b.first_cards], dtype=np.int64),
        "coup_tier": np.ascontiguousarray(law.tiers, dtype=np.int64).reshape(law.keys, len(coup)),
        "winner": np.ascontiguousarray(compiled.tiers[:, -1], dtype=np.int64),
        **{f"derived_{k}": v for k, v in derived.items()},
        **{f"suits_{k}": v for k, v in _first_rows(bets, base, True).items()},
        **{f"ranks_{k}": v for k, v in _first_rows(bets, base, False).items()},
    }
    return BatchLaw(bets, law.tableau, law, tuple(base), at, rounded, largest_exact(law, rounded, largest, first), arrays)


# -- the kernel ----------------------------------------------------------------------------------------

LANE_SUMS: Callable[..., Any] = lanelaw.lane_sums
FIRST_CARD_MOMENTS: Callable[..., Any] = first_card_moments
TWO64 = 2.0**64
LANES = lawparts.LANES


def price(
    values: np.ndarray,
    types: np.ndarray,
    kind: np.ndarray,
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
    residual: int,
    nodes: int,
    coup_base: np.ndarray,
    coup_tier: np.ndarray,
    winner: np.ndarray,
    suits_dst: np.ndarray,
    suits_x: np.ndarray,
    suits_y: np.ndarray,
    suits_coef: np.ndarray,
    ranks_dst: np.ndarray,
    ranks_x: np.ndarray,
    ranks_y: np.ndarray,
    ranks_coef: np.ndarray,
    derived_dst: np.ndarray,
    derived_start: np.ndarray,
    derived_src: np.ndarray,
    derived_coef: np.ndarray,
    out_hi: np.ndarray,
    out_lo: np.ndarray,
) -> None:
    """Every row of values (:class:`BatchLaw`) of shoes ``values[i]`` (ten counts by point value),
    ``types[i]`` (52 counts by rank and suit for :attr:`Kind.SUITS`, the first 13 by rank for
    :attr:`Kind.RANKS`) of kind ``kind[i]``, into ``out_hi[i]``, ``out_lo[i]`` (zeros on entry), as
    128-bit two's complement pairs. Only for finite shoes within :attr:`BatchLaw.max_cards`.

    The keys' weights come from :func:`solver.count.lanelaw.lane_sums`, :data:`LANES` shoes at a time:
    in float64 alone where ``D < 2^53`` (exact), else with the sums modulo 2^64, the weight being
    ``L + 2^64 round((F − L) / 2^64)`` (``F`` the float sum, ``L`` the sum modulo 2^64, exact by
    :data:`solver.count.lanelaw.WIDE_ERROR`); the residual key is ``D`` minus the others.
    """
    n = values.shape[0]
    n_keys = len(winner)
    u0 = np.uint64(0)
    key_hi = np.zeros((n, n_keys), np.uint64)
    key_lo = np.zeros((n, n_keys), np.uint64)
    sizes = np.zeros(n, np.int64)
    routes = np.zeros(n, np.int64)
    for i in range(n):
        size = 0
        for v in range(10):
            size += values[i, v]
        sizes[i] = size
        dh, dl = u0, np.uint64(1)
        for j in range(MAX_CARDS):
            dh, dl = mul_small(dh, dl, np.uint64(size - j))
            if j == 3:
                out_hi[i, D4], out_lo[i, D4] = dh, dl
        out_hi[i, D], out_lo[i, D] = dh, dl
        routes[i] = 0 if dh == u0 and dl < np.uint64(2**53) else 1
    weights = np.zeros(nodes * LANES)
    weights_u = np.zeros(nodes * LANES, np.uint64)
    table = np.zeros(80 * LANES)
    table_u = np.zeros(80 * LANES, np.uint64)
    pads = np.zeros((MAX_CARDS + 1) * LANES)
    pads_u = np.zeros((MAX_CARDS + 1) * LANES, np.uint64)
    sums = np.zeros(n_keys * LANES)
    sums_u = np.zeros(n_keys * LANES, np.uint64)
    lane_counts = np.zeros((LANES, 10), np.int64)
    lane_sizes = np.zeros(LANES, np.int64)
    group = np.zeros(LANES, np.int64)
    for route in range(2):
        taken = 0
        i = 0
        while i < n or taken > 0:
            if i < n and routes[i] == route:
                group[taken] = i
                taken += 1
            i += 1
            if taken == LANES or (i >= n and taken > 0):
                for lane in range(LANES):
                    j = group[min(lane, taken - 1)]  # a short group repeats its last shoe
                    lane_counts[lane] = values[j]
                    lane_sizes[lane] = sizes[j]
                LANE_SUMS(
                    lane_counts,
                    lane_sizes,
                    route == 1,
                    run_src,
                    run_dst,
                    run_len,
                    run_factor,
                    seg_tasks,
                    task_factor,
                    task_pairs,
                    pair_node,
                    pair_count,
                    pair_count_u,
                    segment_key,
                    segment_size,
                    weights,
                    weights_u,
                    table,
                    table_u,
                    pads,
                    pads_u,
                    sums,
                    sums_u,
                )
                for lane in range(taken):
                    j = group[lane]
                    rh, rl = out_hi[j, D], out_lo[j, D]
                    for k in range(n_keys):
                        if k == residual:
                            continue
                        at = k * LANES + lane
                        if route == 0:
                            high, low = u0, np.uint64(np.int64(sums[at]))
                        else:
                            low = sums_u[at]
                            high = np.uint64(np.int64(np.rint((sums[at] - float(low)) / TWO64)))
                        key_hi[j, k], key_lo[j, k] = high, low
                        rh, rl = sub(rh, rl, high, low)
                    key_hi[j, residual], key_lo[j, residual] = rh, rl
                taken = 0
    moments = np.zeros((4, 4), np.int64)
    suit_rank = np.arange(52) // 4
    suit_suit = np.arange(52) % 4
    rank_rank = np.arange(13)
    rank_suit = np.zeros(13, np.int64)
    groups = np.array([13, 4])
    for i in range(n):
        for k in range(n_keys):
            h, lo = key_hi[i, k], key_lo[i, k]
            w = BANKER + winner[k]
            out_hi[i, w], out_lo[i, w] = add(out_hi[i, w], out_lo[i, w], h, lo)
            for b in range(len(coup_base)):
                t = coup_base[b] + coup_tier[k, b]
                out_hi[i, t], out_lo[i, t] = add(out_hi[i, t], out_lo[i, t], h, lo)
        if kind[i] != 2:
            suits = kind[i] == 0
            if suits:
                FIRST_CARD_MOMENTS(types[i], suit_rank, suit_suit, groups, moments)
            else:
                FIRST_CARD_MOMENTS(types[i, :13], rank_rank, rank_suit, groups, moments)
            dst = suits_dst if suits else ranks_dst
            xs = suits_x if suits else ranks_x
            ys = suits_y if suits else ranks_y
            cs = suits_coef if suits else ranks_coef
            for r in range(len(dst)):
                mh, ml = from_int(moments[xs[r], ys[r]])
                c = cs[r]
                ph, pl = mul_small(mh, ml, np.uint64(c if c > 0 else -c))
                t = dst[r]
                if c > 0:
                    out_hi[i, t], out_lo[i, t] = add(out_hi[i, t], out_lo[i, t], ph, pl)
                else:
                    out_hi[i, t], out_lo[i, t] = sub(out_hi[i, t], out_lo[i, t], ph, pl)
        for r in range(len(derived_dst)):
            ah, al = u0, u0
            for j in range(derived_start[r], derived_start[r + 1]):
                c = derived_coef[j]
                ph, pl = mul_small(out_hi[i, derived_src[j]], out_lo[i, derived_src[j]], np.uint64(c if c > 0 else -c))
                if c > 0:
                    ah, al = add(ah, al, ph, pl)
                else:
                    ah, al = sub(ah, al, ph, pl)
            out_hi[i, derived_dst[r]], out_lo[i, derived_dst[r]] = ah, al


_COMPILED: list[Callable[..., None]] = []


def compiled() -> Callable[..., None]:
    """The numba-compiled :func:`price`, with the kernels it calls (compiled on first use, cached on disk)."""
    global LANE_SUMS, FIRST_CARD_MOMENTS
    if not _COMPILED:
        from numba import njit

        from solver.store.jitcache import drop_stale

        drop_stale(__file__, "price")
        LANE_SUMS = lanelaw.compiled_lanes()
        FIRST_CARD_MOMENTS = njit(cache=True, nogil=True)(first_card_moments)
        _COMPILED.append(njit(cache=True, nogil=True)(price))
    return _COMPILED[0]


def price_rows(blaw: BatchLaw, values: np.ndarray, types: np.ndarray, kinds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(hi, lo)``: the rows of values of a chunk of shoes within the kernel's range (see :func:`price`)."""
    n = len(values)
    hi = np.zeros((n, blaw.width), np.uint64)
    lo = np.zeros((n, blaw.width), np.uint64)
    law, a = blaw.law, blaw.arrays
    d = law.dense
    compiled()(
        np.ascontiguousarray(values, dtype=np.int64),
        np.ascontiguousarray(types, dtype=np.int64),
        np.ascontiguousarray(kinds, dtype=np.int64),
        d.run_src,
        d.run_dst,
        d.run_len,
        d.run_factor,
        d.seg_tasks,
        d.task_factor,
        d.task_pairs,
        d.pair_node,
        a["pair_count_f"],
        a["pair_count_u"],
        law.segment_key,
        law.segment_size,
        law.residual,
        d.nodes,
        a["coup_base"],
        a["coup_tier"],
        a["winner"],
        *(a[f"suits_{k}"] for k in ("dst", "x", "y", "coef")),
        *(a[f"ranks_{k}"] for k in ("dst", "x", "y", "coef")),
        *(a[f"derived_{k}"] for k in ("dst", "start", "src", "coef")),
        hi,
        lo,
    )
    return hi, lo
