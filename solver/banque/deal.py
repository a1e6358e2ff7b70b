"""The exact enumeration of a baccara banque coup.

Dealing. One card to Player 1, one to Player 2, one to the banker, twice; then third cards as the
players and the banker act, in that order. A coup uses 6 to 9 cards. Naturals (8 or 9 on two cards)
are shown at once: a banker's natural, or two players' naturals, end the coup; one player's natural
settles his tableau (he wins: the banker has no natural) and the coup goes on against the other.

Exact weights (as in :mod:`solver.deal.tree`, padded to nine cards). A deal whose cards have the value
counts k_v (K cards in all) from a shoe holding n_v cards of value v (N in all) has the integer weight
``∏_v (n_v)_{k_v} × (N − K)_{9 − K}`` over the common denominator ``N (N − 1) … (N − 8)``; the weight
depends on the multiset of values only, not on who holds which card. The infinite deck (dealing with
replacement) has ``∏_v c_v^{k_v} × 13^{9 − K}`` over ``13^9``, with c_v the ranks of value v.

Factorisation. What a hand contributes to a key (a decision, a sight, a final total) depends on the
hand alone; the coupling between the three hands is only through the weight of their union. So a
coup is enumerated in three shoe-independent pieces, built once per information model and cached:

* ``count[(I1, I2), R]``: the number of ordered deals of the two players' hands that show the
  interfaces I1, I2 (player information set, branch, sight, final total) and use the multiset R
  (4 to 6 cards);
* ``index[R, hB]``: the row of the multiset R ⊎ hB in the table of all multisets of at most nine
  values, for every banker hand hB (composition, stand or third card);
* the key of every (I1, I2, IB) triple: Player 1's set and branch, Player 2's set and branch, the
  banker's cell (his total or composition, and what he saw of each tableau) and branch, and the joint
  outcome (the banker's result against each tableau).

A shoe then costs the weights of the 92,378 multisets, a gather, one sparse product and a reduction.
Weights can exceed int64 (six decks: (312)_9 ≈ 2.7 × 10^22), so the integer arithmetic runs in wide
limbs in int64 (every partial sum is bounded below 2^62, checked) and the limbs are joined in Python
integers at the end: exact for any shoe.

>>> from solver.cards import Shoe
>>> e = enumerate_coup(Shoe.infinite(), 1)
>>> e.denominator == 13 ** 9
True
>>> sum(e.constant) + int(sum(e.weight[(e.d1 != 0) & (e.d2 != 0) & (e.db != 0)])) == e.denominator
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver.cards import Shoe
from solver.deal.weights import denominator as padded_denominator
from solver.deal.weights import value_weights
from solver.errors import ModelError, ShoeError
from solver.rules.tableau import CHEMIN_CASINO, Action
from solver.strategy import COMPOSITIONS, NATURAL, STOOD

MAX_CARDS = 9
"""The most cards one banque coup can use: 2 + 2 + 2, and three third cards."""

LIMB_BITS = 30
"""The narrowest limbs the enumeration accepts (wider ones are used when the sums allow)."""
SIGHTS = 12
"""What is seen of a tableau: a third card 0–9, STOOD (10) or NATURAL (11)."""

LIVE_COMPOSITIONS: tuple[tuple[int, int], ...] = tuple(c for c in COMPOSITIONS if sum(c) % 10 < 8)
"""The 44 compositions without a natural, in the order of the banker's cells under information 2 and 3."""

FIVES: tuple[tuple[int, int], ...] = tuple(c for c in COMPOSITIONS if sum(c) % 10 == 5)
"""The compositions of a player's free 5: (0,5), (1,4), (2,3), (6,9), (7,8)."""

OUTCOMES: tuple[tuple[int, int], ...] = tuple((r1, r2) for r1 in (-1, 0, 1) for r2 in (-1, 0, 1))
"""Joint outcomes (R1, R2): the banker's result against tableau 1 and tableau 2 (1 win, 0 tie, −1 loss)."""


def outcome_index(r1: int, r2: int) -> int:
    """Index of the joint outcome (R1, R2) in :data:`OUTCOMES`."""
    return (r1 + 1) * 3 + (r2 + 1)


def _code(values: list[int]) -> int:
    return sum(10**v for v in values)


@lru_cache(maxsize=1)
def multiset_table() -> tuple[np.ndarray, np.ndarray]:
    """Every multiset of at most nine card values: sorted codes (Σ 10^v per card) and counts (rows × 10)."""
    counts = np.zeros((1, 0), dtype=np.int64)
    for _ in range(10):  # append one value's count at a time, keeping the total at most nine
        k = np.arange(MAX_CARDS + 1)
        grown = np.concatenate([np.repeat(counts, len(k), axis=0), np.tile(k, len(counts))[:, None]], axis=1)
        counts = grown[grown.sum(axis=1) <= MAX_CARDS]
    codes = counts @ (10 ** np.arange(10, dtype=np.int64))
    order = np.argsort(codes)
    return codes[order], counts[order]


@lru_cache(maxsize=1)
def add_card_table() -> np.ndarray:
    """``add[m, v]``: the row of the multiset m with one more card of value v (−1 past nine cards)."""
    codes, counts = multiset_table()
    grown = codes[:, None] + (10 ** np.arange(10, dtype=np.int64))[None, :]
    pos = np.searchsorted(codes, grown)
    ok = (pos < len(codes)) & (codes[np.minimum(pos, len(codes) - 1)] == grown) & (counts.sum(axis=1) < MAX_CARDS)[:, None]
    return np.where(ok, pos, -1)


def denominator(shoe: Shoe) -> int:
    """The common denominator of a banque coup: N (N − 1) … (N − 8), or 13^9 for the infinite deck."""
    return padded_denominator(shoe, MAX_CARDS)


def multiset_weights(shoe: Shoe) -> list[int]:
    """Exact weight (padded to nine cards: :func:`solver.deal.tree.value_weights`) of every multiset of
    :func:`multiset_table`, as Python integers, over :func:`denominator`.

    Raises:
        ShoeError: a finite shoe with fewer than nine cards (a banque coup may need nine).
    """
    if not shoe.is_infinite and shoe.size < MAX_CARDS:
        raise ShoeError(f"a banque coup may use nine cards; this shoe holds {shoe.size}")
    _, counts = multiset_table()
    per, pad = value_weights(shoe, MAX_CARDS)
    w = np.array(pad, dtype=object)[counts.sum(axis=1)]
    for v in range(10):
        w = w * np.array(per[v], dtype=object)[counts[:, v]]
    return [int(x) for x in w]


def _limbs(values: list[int], bits: int = LIMB_BITS) -> np.ndarray:
    """Non-negative integers split into int64 limbs of ``bits`` bits: shape (limbs, len)."""
    top = max(values, default=0).bit_length()
    count = max(1, -(-top // bits))
    arr = np.array(values, dtype=object)
    mask = (1 << bits) - 1
    return np.array([((arr >> (bits * k)) & mask).astype(np.int64) for k in range(count)])


# -- hands ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hands:
    """Hand types as parallel arrays: two cards (a <= b), their orderings, third card or −1, value code."""

    a: np.ndarray
    b: np.ndarray
    mult: np.ndarray
    third: np.ndarray
    code: np.ndarray

    @property
    def total(self) -> np.ndarray:
        total: np.ndarray = (self.a + self.b) % 10
        return total

    @property
    def final(self) -> np.ndarray:
        return np.where(self.third >= 0, (self.total + self.third) % 10, self.total)


def _hands(rows: list[tuple[int, int, int]]) -> Hands:
    a = np.array([r[0] for r in rows], dtype=np.int64)
    b = np.array([r[1] for r in rows], dtype=np.int64)
    t = np.array([r[2] for r in rows], dtype=np.int64)
    code = np.array([_code([r[0], r[1]] + ([r[2]] if r[2] >= 0 else [])) for r in rows], dtype=np.int64)
    return Hands(a, b, np.where(a == b, 1, 2), t, code)


def player_hands() -> Hands:
    """A player's hands when he acts, by chemin de fer's tableau for the ponte: naturals and 6–7 stand,
    0–4 draw (ten third cards), 5 both."""
    rows = []
    for a, b in COMPOSITIONS:
        total = (a + b) % 10
        action = CHEMIN_CASINO.player[total] if total < 8 else Action.STAND
        if action != Action.DRAW:
            rows.append((a, b, -1))
        if action != Action.STAND:
            rows.extend((a, b, t) for t in range(10))
    return _hands(rows)


def banker_hands() -> Hands:
    """The banker's hands without a natural: each composition stands or draws one of ten cards."""
    return _hands([(a, b, t) for a, b in LIVE_COMPOSITIONS for t in range(-1, 10)])


# -- interfaces: what of a hand a key can see -------------------------------------------------------


def _player_interface(h: Hands, information: int) -> tuple[np.ndarray, np.ndarray]:
    """Per hand: (set, branch, sight, final) codes, and the interface id of each hand."""
    total = h.total
    at5 = total == 5
    if information == 3:
        five = {c: k for k, c in enumerate(FIVES)}
        idx = np.array([five.get((int(x), int(y)), -1) for x, y in zip(h.a, h.b)], dtype=np.int64)
        pset = np.where(at5, idx, -1)
    else:
        pset = np.where(at5, 0, -1)
    branch = np.where(at5, (h.third >= 0).astype(np.int64), -1)
    sight = np.where(total >= 8, NATURAL, np.where(h.third >= 0, h.third, STOOD))
    attrs = np.stack([pset, branch, sight, h.final], axis=1)
    code = ((attrs[:, 0] + 1) * 3 + attrs[:, 1] + 1) * 120 + attrs[:, 2] * 10 + attrs[:, 3]
    uniq, inv = np.unique(code, return_inverse=True)
    first = np.array([np.nonzero(inv == u)[0][0] for u in range(len(uniq))])
    return attrs[first], inv.ravel()


def banker_own(h: Hands, information: int) -> np.ndarray:
    """The banker's own information per hand: his total (information 1) or composition index (2, 3)."""
    if information == 1:
        return h.total
    live = {c: k for k, c in enumerate(LIVE_COMPOSITIONS)}
    return np.array([live[(int(x), int(y))] for x, y in zip(h.a, h.b)], dtype=np.int64)


@dataclass(frozen=True, eq=False)
class Structure:
    """The shoe-independent part of the enumeration for one information model (see the module doc)."""

    information: int
    count: object  # scipy.sparse.csr_matrix, rows (I1, I2), columns R
    index: np.ndarray  # [R, banker hand] -> row of the multiset table
    banker_mult: np.ndarray
    column_order: np.ndarray  # banker hands sorted by their interface column
    column_starts: np.ndarray
    order: np.ndarray  # (I1, I2, IB) flat index sorted by key
    starts: np.ndarray
    keys: np.ndarray  # (keys × 7): j1, d1, j2, d2, cell, db, outcome
    limb_bits: int  # the widest limbs whose sums cannot overflow int64
    ended_index: np.ndarray  # coups ended by naturals: table rows
    ended_mult: np.ndarray
    ended_outcome: np.ndarray


@lru_cache(maxsize=3)
def structure(information: int) -> Structure:
    """Build (once per information model, cached) the shoe-independent tables of the enumeration."""
    from scipy.sparse import coo_matrix

    if information not in (1, 2, 3):
        raise ModelError(f"information must be 1, 2 or 3, got {information!r}")
    codes, _ = multiset_table()
    ph, bh = player_hands(), banker_hands()
    pattr, pif = _player_interface(ph, 1 if information < 3 else 3)
    npi = len(pattr)
    natural = ph.total >= 8
    # Pairs of player hands, except both naturals (the coup ends; counted with the ended coups).
    g1, g2 = np.meshgrid(np.arange(len(ph.a)), np.arange(len(ph.a)), indexing="ij")
    h1, h2 = g1.ravel(), g2.ravel()
    keep = ~(natural[h1] & natural[h2])
    h1, h2 = h1[keep], h2[keep]
    rcode = ph.code[h1] + ph.code[h2]
    runiq, rcol = np.unique(rcode, return_inverse=True)
    rows = pif[h1] * npi + pif[h2]
    count = coo_matrix((ph.mult[h1] * ph.mult[h2], (rows, rcol.ravel())), shape=(npi * npi, len(runiq))).tocsr()
    count.sum_duplicates()
    # Every R ⊎ banker hand as a row of the multiset table, one card at a time through add_card.
    add = add_card_table().ravel()  # add[m * 10 + v]
    start = np.searchsorted(codes, runiq)
    two = add[add[bh.a[None, :] + 10 * start[:, None]] * 10 + bh.b[None, :]]
    index = np.where(bh.third[None, :] >= 0, add[two * 10 + np.maximum(bh.third, 0)[None, :]], two).astype(np.int32)
    own = banker_own(bh, information)
    draw = bh.third >= 0
    column_key = (own * 2 + draw) * 10 + bh.final
    cuniq, bcol = np.unique(column_key, return_inverse=True)
    bown, bdraw, bfinal = cuniq // 20, cuniq // 10 % 2, cuniq % 10
    # Keys of every (I1, I2, IB) triple.
    i1, i2, ib = (x.ravel() for x in np.meshgrid(np.arange(npi), np.arange(npi), np.arange(len(cuniq)), indexing="ij"))
    p1, p2 = pattr[i1], pattr[i2]
    s1, s2 = p1[:, 2], p2[:, 2]
    fb = bfinal[ib]
    r1 = np.where(s1 == NATURAL, -1, np.sign(fb - p1[:, 3]))
    r2 = np.where(s2 == NATURAL, -1, np.sign(fb - p2[:, 3]))
    cell = bown[ib] * SIGHTS * SIGHTS + s1 * SIGHTS + s2
    keys = np.stack([p1[:, 0], p1[:, 1], p2[:, 0], p2[:, 1], cell, bdraw[ib], (r1 + 1) * 3 + r2 + 1], axis=1)
    radix = np.array([6, 3, 6, 3, 44 * SIGHTS * SIGHTS, 2, 9], dtype=np.int64)
    offset = np.array([1, 1, 1, 1, 0, 0, 0], dtype=np.int64)
    flat = np.zeros(len(keys), dtype=np.int64)
    for c in range(7):
        flat = flat * radix[c] + keys[:, c] + offset[c]
    kuniq, kinv = np.unique(flat, return_inverse=True)
    order = np.argsort(kinv.ravel(), kind="stable")
    starts = np.searchsorted(kinv.ravel()[order], np.arange(len(kuniq)))
    key_rows = keys[order[starts]]
    column_order = np.argsort(bcol.ravel(), kind="stable")
    column_starts = np.searchsorted(bcol.ravel()[column_order], np.arange(len(cuniq)))
    # Overflow guard: limbs are below 2^LIMB_BITS; every key sum is at most that times the key's count
    # of hand triples (with orderings), which must keep int64 sums below 2^62.
    per_column = np.add.reduceat(bh.mult[column_order], column_starts)  # the same for every R
    rows_total = np.asarray(count.sum(axis=1)).ravel()
    per_key = np.add.reduceat(np.outer(rows_total, per_column).ravel()[order], starts)
    limb_bits = 62 - int(per_key.max()).bit_length()  # every partial sum stays below 2^62
    if limb_bits < LIMB_BITS:
        raise AssertionError("limb sums could overflow int64")
    # Coups ended by naturals: the banker's natural (players hold two cards), or both players'.
    two = _hands([(a, b, -1) for a, b in COMPOSITIONS])
    c1, c2, cb = (x.ravel() for x in np.meshgrid(*(np.arange(len(COMPOSITIONS)),) * 3, indexing="ij"))
    t1, t2, tb = two.total[c1], two.total[c2], two.total[cb]
    end = (tb >= 8) | ((t1 >= 8) & (t2 >= 8))
    c1, c2, cb, t1, t2, tb = c1[end], c2[end], cb[end], t1[end], t2[end], tb[end]
    ecode = two.code[c1] + two.code[c2] + two.code[cb]
    return Structure(
        information=information,
        count=count,
        index=index,
        banker_mult=bh.mult,
        column_order=column_order,
        column_starts=column_starts,
        order=order,
        starts=starts,
        keys=key_rows,
        limb_bits=limb_bits,
        ended_index=np.searchsorted(codes, ecode),
        ended_mult=two.mult[c1] * two.mult[c2] * two.mult[cb],
        ended_outcome=(np.sign(tb - t1) + 1) * 3 + np.sign(tb - t2) + 1,
    )


@dataclass(frozen=True, eq=False)
class Enumeration:
    """The exact branch form of a banque coup on one shoe, under one information model.

    One row per key: ``j1`` Player 1's set at 5 (−1: no decision), ``d1`` his branch (1 drew,
    0 stood, −1 no decision); ``j2``, ``d2`` the same for Player 2 (his own hand only: the sight of
    tableau 1 is in the cell); ``cell`` the banker's cell, ``own × 144 + sight1 × 12 + sight2`` with
    ``own`` his total (information 1) or the index of his composition in :data:`LIVE_COMPOSITIONS`;
    ``db`` his branch (1 drew, 0 stood); ``outcome`` the joint outcome (:data:`OUTCOMES`); ``weight``
    the exact integer weight over ``denominator`` (keys of weight 0 are left out). ``constant`` holds,
    per joint outcome, the weight of
    the coups ended by naturals (no decision taken).
    """

    shoe: Shoe
    information: int
    j1: np.ndarray
    d1: np.ndarray
    j2: np.ndarray
    d2: np.ndarray
    cell: np.ndarray
    db: np.ndarray
    outcome: np.ndarray
    weight: np.ndarray
    constant: tuple[int, ...]
    denominator: int


def enumerate_coup(shoe: Shoe, information: int) -> Enumeration:
    """Enumerate a banque coup from ``shoe`` exactly (see the module docstring for the method)."""
    st = structure(information)
    w = multiset_weights(shoe)
    limbs = _limbs(w, st.limb_bits)
    sums = []
    for limb in limbs:
        v = limb[st.index] * st.banker_mult[None, :]
        vb = np.add.reduceat(v[:, st.column_order], st.column_starts, axis=1)
        t = np.asarray(st.count @ vb).ravel()
        sums.append(np.add.reduceat(t[st.order], st.starts))
    weight = np.zeros(len(st.starts), dtype=object)
    for n, s in enumerate(sums):
        weight = weight + (s.astype(object) << (st.limb_bits * n))
    wo = np.array(w, dtype=object)
    ended = [int(sum(st.ended_mult[st.ended_outcome == o] * wo[st.ended_index[st.ended_outcome == o]])) for o in range(9)]
    live = weight != 0
    k = st.keys[live]
    return Enumeration(
        shoe=shoe,
        information=information,
        j1=k[:, 0],
        d1=k[:, 1],
        j2=k[:, 2],
        d2=k[:, 3],
        cell=k[:, 4],
        db=k[:, 5],
        outcome=k[:, 6],
        weight=weight[live],
        constant=tuple(ended),
        denominator=denominator(shoe),
    )
