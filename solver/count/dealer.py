"""The counting kernel: real shoes dealt coup by coup, each coup's exact edges taken before it is dealt.

One call, ``deal_and_count(table, law, bets, n_shoes, rng, counts)``, deals ``n_shoes`` shoes of the
table and adds to the counts (four structs: :mod:`solver.count.inputs`). It deals with the table's
procedure and the simulator's random stream (:mod:`solver.simulate.kernel`): the burn (none, a fixed
count, or turn the first card and burn as many more as it counts, a ten burning 10), then every
position the coups can reach, shuffled by the simulator's one shuffle
(:func:`solver.simulate.kernel.shuffle`: Fisher–Yates, each card drawn uniformly by Lemire's method),
so for one generator a study deals the cards the simulator deals (before 0.4.0 this kernel drew each
card as ``floor(u m)`` when the coup dealt it, a stream of its own); coups until the cut card appears,
the coup in progress finished, optionally one more. Cards are physical: a type per card (its rank, or
rank and suit where a bet reads suits).

Before each coup the kernel takes, on the composition the player is assumed to know, every bet's exact
expected value (for bets on the coup's outcome :func:`solver.count.denselaw.float_numerators` where
``dense_route``, its float64 sums exact on shoes of up to 458 cards, else
:func:`solver.count.fastlaw.numerators`, the same integers; for pair and suit bets the first
cards' moments of :func:`solver.punto.pairs.first_card_moments`), as an integer
numerator over ``scale × D``; decides the bets of perfect play (numerator > 0) and of the count (true
count at or above the threshold, compared exactly: ``52 q RC >= p × cards`` for a threshold ``p/q``,
``cards`` the cards not yet seen, or those left in the shoe);
deals the coup and settles every bet. What the player knows is one of: ``unseen`` (he sees every card
dealt and the turned burn card, not the cards burned face down; his edge is taken on every card he has
not seen, which by exchangeability is the law of the next coup given what he saw) or ``remaining`` (he
knows every card out of the shoe, the burned ones too: his edge is taken on the cards left in the
shoe, and his count counts the burned cards).

Per shoe it keeps x = (1, coups, then per bet: Σ EV, Σ result, perfect-play bets, Σ EV and Σ result
on them, count bets, Σ EV and Σ result on them) and adds x xᵀ to ``moments``; per bet a histogram of
the EV (bins of 1/1000 on [−1, 1), one bin for EV >= 1), the number of coups with EV > 0, the
smallest and largest EV, and by depth (unseen cards // 26) the coups, Σ EV and coups with EV > 0.
Everything but the float sums of EVs and results is an integer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from solver.count import denselaw, fastlaw
from solver.count.inputs import Bets, Counts, Law, Table
from solver.punto.pairs import first_card_moments
from solver.simulate.kernel import BURN_FIXED, BURN_TURN, COUP_CARDS, register_numba, shuffle

STOOD = 10
HIST_BINS = 2001  # EV in [-1, 1) by 1/1000, then EV >= 1
DEPTH = 26  # cards per depth bucket
PER_BET = 8  # entries of x per bet

NUMERATORS: Callable[..., Any] = fastlaw.numerators
FLOAT_NUMERATORS: Callable[..., Any] = denselaw.float_numerators
FIRST_CARD_MOMENTS: Callable[..., Any] = first_card_moments


def deal_and_count(table: Table, law: Law, bets: Bets, n_shoes: int, rng: Any, counts: Counts) -> int:
    """Deal ``n_shoes`` shoes of ``table``, adding to ``counts`` (see the module docstring); returns the
    coups dealt."""
    cards = table.cards.copy()
    value_of = table.value_of
    n = len(cards)
    n_types = len(value_of)
    b_coup = law.multiplier.shape[1]
    b_first = bets.first_mult.shape[0]
    n_bets = b_coup + b_first
    last = n - table.cut
    width = 2 + PER_BET * n_bets
    x = np.zeros(width, dtype=np.float64)
    hand = np.zeros(4, dtype=np.int64)
    first_types = np.zeros(4, dtype=np.int64)
    known_t = np.zeros(n_types, dtype=np.int64)  # the composition assumed known, by type
    comp_v = np.zeros(10, dtype=np.int64)
    int_table = np.zeros(80, np.int64)
    weights = np.zeros(len(law.parent) + 1, np.int64)
    float_table = np.zeros(80, np.float64)
    float_weights = np.zeros(law.dense_nodes, np.float64)
    pads = np.zeros(7, np.int64)
    sums = np.zeros(law.multiplier.shape[0], np.int64)
    nums = np.zeros(max(b_coup, 1), np.int64)
    mom = np.zeros((4, 4), np.int64)
    joint = np.zeros((4, 4), np.int64)
    basis = np.array([[1, -1, -1, 1], [0, 1, 0, -1], [0, 0, 1, -1], [0, 0, 0, 1]], dtype=np.int64)
    if not bets.use_suits:
        basis = np.array([[1, -1, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], dtype=np.int64)
    n_groups = np.array([13, 4], dtype=np.int64)
    ev = np.zeros(n_bets, dtype=np.float64)
    num_all = np.zeros(n_bets, dtype=np.int64)
    rc = np.zeros(n_bets, dtype=np.int64)
    count_bet = np.zeros(n_bets, dtype=np.bool_)
    n_classes = 4 if bets.use_suits else 2
    total_coups = 0
    for _shoe in range(n_shoes):
        for t in range(n_types):
            known_t[t] = 0
        for i in range(n):
            known_t[cards[i]] += 1
        known = n
        unseen = n  # cards the counter has not seen
        for b in range(n_bets):
            rc[b] = 0
        top = 0
        n_burn = 0
        if table.burn_mode == BURN_FIXED:
            n_burn = table.burn_count
        elif table.burn_mode == BURN_TURN:
            shuffle(cards, 0, 1, rng)
            c = cards[0]
            top = 1
            known_t[c] -= 1  # turned face up: seen
            known -= 1
            unseen -= 1
            for b in range(n_bets):
                rc[b] += bets.tags[b, c]
            v = value_of[c]
            n_burn = 10 if v == 0 else v
        shuffle(cards, top, top + n_burn, rng)
        for _b in range(n_burn):
            c = cards[top]
            top += 1
            if not table.unseen_mode:  # the burned cards are known too: gone from the shoe, and bets.counted
                known_t[c] -= 1
                known -= 1
                unseen -= 1
                for b in range(n_bets):
                    rc[b] += bets.tags[b, c]
        # the positions the coups can reach, shuffled before the first coup (as the simulator does)
        ahead = min(n, max(last, top) + 2 * COUP_CARDS, top + table.max_coups * COUP_CARDS)
        shuffle(cards, top, ahead, rng)
        for i in range(width):
            x[i] = 0.0
        x[0] = 1.0
        coup = 0
        stop_after = False
        while coup < table.max_coups:
            # -- exact EVs on the known composition, and the decisions ---------------------------------
            if b_coup > 0:
                for v in range(10):
                    comp_v[v] = 0
                for t in range(n_types):
                    comp_v[value_of[t]] += known_t[t]
                if law.dense_route:
                    d = FLOAT_NUMERATORS(
                        comp_v,
                        known,
                        law.run_src,
                        law.run_dst,
                        law.run_len,
                        law.run_factor,
                        law.seg_tasks,
                        law.task_factor,
                        law.task_node,
                        law.task_coef,
                        law.task_len,
                        law.coef,
                        law.task_pairs,
                        law.dense_node,
                        law.dense_count,
                        law.segment_key,
                        law.segment_size,
                        law.residual,
                        law.multiplier,
                        law.scale,
                        float_table,
                        float_weights,
                        pads,
                        sums,
                        nums,
                    )
                else:
                    d = NUMERATORS(
                        comp_v,
                        known,
                        law.parent,
                        law.factor,
                        law.segments,
                        law.segment_key,
                        law.segment_size,
                        law.pair_node,
                        law.pair_count,
                        law.residual,
                        law.multiplier,
                        law.scale,
                        int_table,
                        weights,
                        pads,
                        sums,
                        nums,
                    )
                for b in range(b_coup):
                    num_all[b] = nums[b]
                    ev[b] = nums[b] / (law.scale[b] * d)
            if b_first > 0:
                FIRST_CARD_MOMENTS(known_t, table.rank_of, table.suit_of, n_groups, mom)
                den4 = known * (known - 1) * (known - 2) * (known - 3)
                for i in range(n_classes):
                    for k in range(n_classes):
                        acc = 0
                        for a in range(4):
                            for a2 in range(4):
                                acc += basis[i, a] * basis[k, a2] * mom[a, a2]
                        joint[i, k] = acc
                for f in range(b_first):
                    acc = -bets.first_scale[f] * den4
                    for i in range(n_classes):
                        for k in range(n_classes):
                            acc += bets.first_mult[f, i, k] * joint[i, k]
                    num_all[b_coup + f] = acc
                    ev[b_coup + f] = acc / (bets.first_scale[f] * den4)
            bucket = unseen // DEPTH
            counts.depth_coups[bucket] += 1
            for b in range(n_bets):
                e = ev[b]
                left = unseen if table.decks_unseen else n - top
                count_bet[b] = bets.counted[b] and 52 * bets.threshold_den[b] * rc[b] >= bets.threshold_num[b] * left
                x[2 + PER_BET * b] += e
                counts.depth_ev[b, bucket] += e
                if num_all[b] > 0:
                    counts.positive[b] += 1
                    counts.depth_positive[b, bucket] += 1
                if e < counts.ev_min[b]:
                    counts.ev_min[b] = e
                if e > counts.ev_max[b]:
                    counts.ev_max[b] = e
                hb = int((e + 1.0) * 1000.0)
                if hb < 0:
                    hb = 0
                if hb >= HIST_BINS:
                    hb = HIST_BINS - 1
                counts.hist[b, hb] += 1
            # -- the coup --------------------------------------------------------------------------------
            for i in range(4):
                c = cards[top]
                top += 1
                first_types[i] = c
                hand[i] = value_of[c]
            p1 = hand[0]
            b1 = hand[1]
            p2 = hand[2]
            b2 = hand[3]
            high = max(max(p1, p2), max(b1, b2))
            pt = (p1 + p2) % 10
            bt = (b1 + b2) % 10
            p_two = pt
            b_two = bt
            p3 = -1
            b3 = -1
            drawn = 4
            if pt < 8 and bt < 8:
                seen = STOOD
                q = table.ptab[p1, p2]
                if q >= 1.0 or (q > 0.0 and rng.random() < q):
                    c = cards[top]
                    top += 1
                    p3 = value_of[c]
                    seen = p3
                    pt = (pt + p3) % 10
                    high = max(high, p3)
                    drawn += 1
                r = table.btab[b1, b2, seen]
                if r >= 1.0 or (r > 0.0 and rng.random() < r):
                    c = cards[top]
                    top += 1
                    b3 = value_of[c]
                    bt = (bt + b3) % 10
                    high = max(high, b3)
                    drawn += 1
            for i in range(top - drawn, top):  # every card of the coup is seen
                c = cards[i]
                known_t[c] -= 1
                known -= 1
                unseen -= 1
                for b in range(n_bets):
                    rc[b] += bets.tags[b, c]
            # -- settle ------------------------------------------------------------------------------
            code = (((p_two * 10 + b_two) * 11 + p3 + 1) * 11 + b3 + 1) * 10 + high
            f0, f1, f2, f3 = first_types[0], first_types[1], first_types[2], first_types[3]
            pc = int(table.rank_of[f0] == table.rank_of[f2])
            bc = int(table.rank_of[f1] == table.rank_of[f3])
            if bets.use_suits:
                pc += 2 * int(table.suit_of[f0] == table.suit_of[f2])
                bc += 2 * int(table.suit_of[f1] == table.suit_of[f3])
            for b in range(n_bets):
                if b < b_coup:
                    result = bets.tier_pays[b, bets.detail_tier[b, code]]
                else:
                    result = bets.first_pays[b - b_coup, pc, bc]
                o = 2 + PER_BET * b
                x[o + 1] += result
                if num_all[b] > 0:
                    x[o + 2] += 1.0
                    x[o + 3] += ev[b]
                    x[o + 4] += result
                if count_bet[b]:
                    x[o + 5] += 1.0
                    x[o + 6] += ev[b]
                    x[o + 7] += result
            coup += 1
            if stop_after:
                break
            if top > last:
                if table.extra_coup:
                    stop_after = True
                else:
                    break
        x[1] = coup
        total_coups += coup
        for i in range(width):
            for k in range(i, width):
                counts.moments[i, k] += x[i] * x[k]
    return total_coups


_COMPILED: list[Callable[..., int]] = []


def compiled() -> Callable[..., int]:
    """The numba-compiled :func:`deal_and_count`, with its helpers compiled (on first use, cached on disk)."""
    global NUMERATORS, FLOAT_NUMERATORS, FIRST_CARD_MOMENTS
    if not _COMPILED:
        from numba import njit

        from solver.store.jitcache import drop_stale

        register_numba()
        # the laws, the first cards' moments and the shuffle are compiled into the dealer
        drop_stale(__file__, "deal_and_count")
        NUMERATORS = fastlaw.compiled()
        FLOAT_NUMERATORS = denselaw.compiled()
        FIRST_CARD_MOMENTS = njit(cache=True, nogil=True)(first_card_moments)
        _COMPILED.append(njit(cache=True, nogil=True)(deal_and_count))
    return _COMPILED[0]
