"""The baccara banque dealing kernel: real shoes, two tableaux against one banker, one coup after another.

One call, ``deal_banque_shoes(table, n_shoes, rng, counts)``, deals ``n_shoes`` shoes of the
:class:`BanqueKernelTable` (the point values ``values`` of the shoe's cards, the draw tables, the burn,
the cut card) and adds every coup into the integer :class:`BanqueCounts`. It deals the way the table
does (:func:`solver.sessions.deal.deal_banque`):

* the shoe is shuffled by the simulator's one shuffle (:func:`solver.simulate.kernel.shuffle`:
  Fisher–Yates, each card drawn uniformly from those not yet placed by Lemire's method,
  :func:`~solver.simulate.kernel.card_pick`) and burned (none, a fixed count, or the first card turned
  and as many more burned as it counts, a ten burning 10); then every position a coup can reach (up
  to :data:`COUP_CARDS` past the cut card, or per coup allowed) is shuffled before the first coup,
  and the coups deal the shuffled cards in order;
* a coup: one card to Player 1 (tableau 1, the banker's right), one to Player 2, one to the banker,
  twice. A banker's natural, or two players' naturals, end the coup; a player's natural settles his
  tableau. Each player without a natural draws on 0–4, stands on 6–7 and at 5 draws with the
  probability of his table (Player 1 ``p1[atom, a, b]``; Player 2 ``p2[atom, a, b, s1]``, ``s1`` what
  tableau 1 showed: a third card 0–9, STOOD or NATURAL); Player 1 acts first. Then the banker, having
  seen both tableaux, draws once with probability ``btab[a, b, s1, s2]``, against both;
* the team's shared random device: with several atoms (a correlated team strategy, a joint law of
  the two players' choices) the coup's atom is drawn with the cumulative probabilities ``lam_cum``
  when a player faces a free 5, before either acts; a Nash (independent) strategy has one atom;
* coups until the cut card appears (the card behind which ``cut`` cards remain), the coup in progress
  finished; ``first_only`` deals one coup per shoe. A uniform is drawn for a decision only where its
  probability lies strictly between 0 and 1.

Counts (int64, added to):
    pos_counts[k, o]: coups at position k of their shoe (0 = first) by joint outcome o
        (:data:`solver.banque.deal.OUTCOMES`: the banker's result against tableau 1 and tableau 2).
    first_detail[key]: first coups by :func:`detail_key`.
    first_cards[v]: point values among the six cards every first coup deals.
    moments[i, j]: sum over shoes of x_i x_j (i <= j), x = (1, the shoe's coups by joint outcome (9),
        its coups, its first coup's joint outcome as nine indicators).

The random stream, per shoe: the burn's picks, the picks of the positions shuffled ahead, then the
atoms' and mixed decisions' ``rng.random()`` in the order the coups meet them. (Before 0.4.0 each card
was drawn as the coup dealt it, as ``floor(rng.random() m)``, uniform up to a bias below ``m / 2^53``:
the same seed dealt other shoes then.)

The function is written in plain Python (:func:`deal_banque_shoes`, the reference and the ``python``
engine) and compiled by numba (``numba``, the default, cached on disk); both consume the generator's
uniforms in the same order and give identical tallies for one seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from solver.simulate.kernel import BURN_FIXED, BURN_TURN, register_numba, shuffle

__all__ = ["N_DETAIL", "N_MOMENTS", "BanqueCounts", "BanqueKernelTable", "deal_banque_shoes", "detail_key", "engine"]

STOOD = 10
NATURAL = 11
SIGHTS = 12
N_ENDED = 9
N_DETAIL = N_ENDED + 8 * SIGHTS * SIGHTS * 2
"""Detail keys: 9 for coups ended by naturals (by joint outcome), then one per (banker's two-card
total 0–7, sight of tableau 1, sight of tableau 2, banker drew)."""
N_MOMENTS = 20
COUP_CARDS = 9  # the most cards one banque coup deals


class BanqueKernelTable(NamedTuple):
    """What the banque kernel deals, the same for every shoe of a run.

    Attributes:
        values: int64, the point value of each card; max_coups: the most coups a shoe holds.
        lam_cum: the team's atoms' cumulative probabilities; p1, p2, btab: float64 draw tables.
        burn_mode: a :class:`~solver.simulate.kernel.BurnMode`'s code; burn_count: a fixed burn's cards.
        cut: cards behind the cut card; first_only: one coup per freshly shuffled shoe.
    """

    values: np.ndarray
    max_coups: int
    lam_cum: np.ndarray
    p1: np.ndarray
    p2: np.ndarray
    btab: np.ndarray
    burn_mode: int
    burn_count: int
    cut: int
    first_only: bool


class BanqueCounts(NamedTuple):
    """The integer arrays a call adds to (their meaning: the module docstring)."""

    pos_counts: np.ndarray
    first_detail: np.ndarray
    first_cards: np.ndarray
    moments: np.ndarray


def detail_key(ended: bool, outcome: int, banker_total: int, sight1: int, sight2: int, drew: int) -> int:
    """The detail of a coup: its joint outcome when naturals ended it, else the banker's decision in
    context (his two-card total, what each tableau showed, whether he drew).

    >>> detail_key(True, 4, 9, 11, 11, 0), detail_key(False, 4, 0, 0, 0, 0), N_DETAIL
    (4, 9, 2313)
    """
    if ended:
        return outcome
    return N_ENDED + ((banker_total * SIGHTS + sight1) * SIGHTS + sight2) * 2 + drew


def deal_banque_shoes(table: BanqueKernelTable, n_shoes: int, rng: Any, counts: BanqueCounts) -> int:
    """Deal ``n_shoes`` banque shoes of ``table`` and add their coups to ``counts``; returns the coups dealt."""
    cards = table.values.copy()
    lam_cum = table.lam_cum
    p1 = table.p1
    p2 = table.p2
    btab = table.btab
    max_coups = table.max_coups
    pos_counts = counts.pos_counts
    n = len(cards)
    last = n - table.cut
    n_atoms = len(lam_cum)
    x = np.zeros(N_MOMENTS, dtype=np.int64)
    hand = np.zeros(6, dtype=np.int64)
    total_coups = 0
    for _shoe in range(n_shoes):
        top = 0
        n_burn = 0
        if table.burn_mode == BURN_FIXED:
            n_burn = table.burn_count
        elif table.burn_mode == BURN_TURN:
            shuffle(cards, 0, 1, rng)
            c = cards[0]
            top = 1
            n_burn = 10 if c == 0 else c
        shuffle(cards, top, top + n_burn, rng)
        top += n_burn
        # the positions the coups can reach (the coup in progress when the cut card appears), shuffled ahead
        ahead = min(n, max(last, top) + COUP_CARDS, top + max_coups * COUP_CARDS)
        shuffle(cards, top, ahead, rng)
        for i in range(N_MOMENTS):
            x[i] = 0
        x[0] = 1
        coup = 0
        while coup < max_coups:
            for i in range(6):  # Player 1, Player 2, banker, twice
                hand[i] = cards[top]
                top += 1
            t1 = (hand[0] + hand[3]) % 10
            t2 = (hand[1] + hand[4]) % 10
            tb = (hand[2] + hand[5]) % 10
            s1 = NATURAL if t1 >= 8 else STOOD
            s2 = NATURAL if t2 >= 8 else STOOD
            ended = tb >= 8 or (t1 >= 8 and t2 >= 8)
            drew = 0
            final = tb
            if not ended:
                atom = 0
                if n_atoms > 1 and (t1 == 5 or t2 == 5):
                    u = rng.random()
                    while atom < n_atoms - 1 and u >= lam_cum[atom]:
                        atom += 1
                if t1 < 8:
                    q = p1[atom, hand[0], hand[3]]
                    if q >= 1.0 or (q > 0.0 and rng.random() < q):
                        c = cards[top]
                        top += 1
                        s1 = c
                        t1 = (t1 + c) % 10
                if t2 < 8:
                    q = p2[atom, hand[1], hand[4], s1]
                    if q >= 1.0 or (q > 0.0 and rng.random() < q):
                        c = cards[top]
                        top += 1
                        s2 = c
                        t2 = (t2 + c) % 10
                r = btab[hand[2], hand[5], s1, s2]
                if r >= 1.0 or (r > 0.0 and rng.random() < r):
                    c = cards[top]
                    top += 1
                    final = (tb + c) % 10
                    drew = 1
            # the banker's result against each tableau: a natural there met his two cards
            b1 = tb if s1 == NATURAL else final
            b2 = tb if s2 == NATURAL else final
            r1 = 1 if b1 > t1 else (-1 if t1 > b1 else 0)
            r2 = 1 if b2 > t2 else (-1 if t2 > b2 else 0)
            o = (r1 + 1) * 3 + r2 + 1
            pos_counts[coup, o] += 1
            x[1 + o] += 1
            if coup == 0:
                if ended:
                    counts.first_detail[o] += 1
                else:
                    counts.first_detail[N_ENDED + ((tb * SIGHTS + s1) * SIGHTS + s2) * 2 + drew] += 1
                for i in range(6):
                    counts.first_cards[hand[i]] += 1
                x[11 + o] += 1
            coup += 1
            if table.first_only or top > last:  # the cut card has appeared during this coup
                break
        x[10] = coup
        total_coups += coup
        for i in range(N_MOMENTS):
            for k in range(i, N_MOMENTS):
                counts.moments[i, k] += x[i] * x[k]
    return total_coups


ENGINES = ("numba", "python")
_COMPILED: list[Callable[..., int]] = []


def engine(name: str | None = None) -> Callable[..., int]:
    """The dealing function of an engine of :data:`ENGINES`: by default numba's compilation of
    :func:`deal_banque_shoes` (compiled on first use, cached on disk); ``python`` the function itself.

    >>> engine("python") is deal_banque_shoes
    True
    """
    if name == "python":
        return deal_banque_shoes
    if name not in (None, "numba"):
        raise ValueError(f"unknown dealing engine {name!r} (one of {', '.join(ENGINES)})")
    if not _COMPILED:
        from numba import njit

        from solver.store.jitcache import drop_stale

        register_numba()
        drop_stale(__file__, "deal_banque_shoes")
        _COMPILED.append(njit(cache=True, nogil=True)(deal_banque_shoes))
    return _COMPILED[0]
