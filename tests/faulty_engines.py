"""Dealing engines that are wrong on purpose: test doubles for the cross-check, outside the simulator.

Each is a function with the dealing kernel's arguments (:func:`solver.simulate.kernel.deal_shoes`:
``(table, n_shoes, rng, counts) -> coups``), so ``solver.simulate.run.deal(config, n, rng, engine=f)``
deals with it and the cross-check reads its tallies as it reads the simulator's. They are written
here, vectorised over shoes with numpy and from the rules alone, so the production kernels hold no
fault (before 0.4.0 a ``turn-redeal`` burn lived inside all three of them).

* :func:`leaking_burn`: punto banco, one coup per freshly shuffled shoe, the punto banco burn (the
  first card turned, as many more burned as it counts, a ten burning 10), and then the turned card,
  which everyone has seen, dealt again as the player's first card. Every unconditional law is right
  (the turned card is a uniformly drawn card), but the law of the coup given the turned card is not.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solver.simulate.kernel import BURN_TURN, STOOD, Counts, Table

BLOCK = 20_000  # shoes shuffled at once


def leaking_burn(table: Table, n_shoes: int, rng: Any, counts: Counts) -> int:
    """The leaking burn above; returns the coups dealt (one a shoe)."""
    if table.max_coups != 1 or table.burn_mode != BURN_TURN:
        raise ValueError("the leaking burn deals one coup per shoe, with the turned burn")
    if ((table.ptab > 0) & (table.ptab < 1)).any() or ((table.btab > 0) & (table.btab < 1)).any():
        raise ValueError("the leaking burn plays pure strategies only")
    n = len(table.codes)
    reach = min(n, 1 + 10 + 6)  # the turned card, a burn of up to 10, a coup of up to 6
    before = -1
    for first in range(0, n_shoes, BLOCK):
        shoes = min(BLOCK, n_shoes - first)
        cards = np.tile(table.codes, (shoes, 1))
        rows = np.arange(shoes)
        for t in range(reach):  # Fisher–Yates over the positions the table reaches
            j = t + rng.integers(0, n - t, size=shoes)
            cards[rows, t], cards[rows, j] = cards[rows, j], cards[rows, t].copy()
        turned = table.value_of[cards[:, 0]]
        start = 1 + np.where(turned == 0, 10, turned)  # the coup's cards after the burn
        hand = [cards[:, 0]] + [cards[rows, start + k] for k in range(3)]  # the turned card dealt again
        p1, b1, p2, b2 = (table.value_of[h] for h in hand)
        pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
        natural = (pt >= 8) | (bt >= 8)
        p_drew = ~natural & (table.ptab[p1, p2] >= 1)
        third = table.value_of[cards[rows, start + 3]]
        seen = np.where(p_drew, third, STOOD)
        pt = np.where(p_drew, (pt + third) % 10, pt)
        b_drew = ~natural & (table.btab[b1, b2, seen] >= 1)
        banker_card = table.value_of[cards[rows, start + 3 + p_drew]]
        bt = np.where(b_drew, (bt + banker_card) % 10, bt)
        w = np.where(bt > pt, 0, np.where(pt > bt, 1, 2))
        _tally(counts, w, pt, bt, p_drew, b_drew, natural, (p1, b1, p2, b2), turned)
        if table.comp_len or table.next_len:  # the tallies of structure, as the kernel keeps them
            c1, c2, c3, c4 = hand
            pairs = (c1 == c2).astype(int) + (c1 == c3) + (c1 == c4) + (c2 == c3) + (c2 == c4) + (c3 == c4)
            counts.first_pairs[:] += np.bincount(pairs, minlength=7)
            ws = np.concatenate([[before], w]) if before >= 0 else w
            np.add.at(counts.serial, (ws[:-1], ws[1:]), 1)
        before = int(w[-1])
    return n_shoes


def _tally(counts: Counts, w: Any, pt: Any, bt: Any, p_drew: Any, b_drew: Any, natural: Any, values: Any, turned: Any) -> None:
    """The first coups' tallies (:mod:`solver.simulate.kernel`), one coup a shoe."""
    counts.pos_counts[0] += np.bincount(w, minlength=3)
    key = pt * 80 + bt * 8 + p_drew * 4 + b_drew * 2 + natural
    counts.first_detail[:] += np.bincount(key, minlength=len(counts.first_detail))
    counts.first_cards[:] += np.bincount(np.concatenate(values), minlength=10)
    np.add.at(counts.burn_winner, (turned, w), 1)
    x = np.zeros((len(w), len(counts.moments)), dtype=np.int64)  # (1, wins by outcome, coups, first coup's)
    x[:, 0] = 1
    x[np.arange(len(w)), 1 + w] = 1
    x[:, 4] = 1
    x[np.arange(len(w)), 5 + w] = 1
    counts.moments[:] += np.triu(x.T @ x)
