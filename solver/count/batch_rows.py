"""A batch's rows of exact integers (:class:`solver.count.batch.BatchLaw`) and the results they are:
the row of a :class:`~solver.punto.PuntoResult` and the result of a row, the same Fractions either way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from solver.cards import Shoe
from solver.count.batch import BANKER, D4, PLAYER, TIE, BatchLaw, D
from solver.deal.weights import MAX_CARDS
from solver.punto import PuntoResult, punto_banco, result_from_weights
from solver.punto.pricing import method_of, settles


def values_of(blaw: BatchLaw, r: PuntoResult) -> list[int]:
    """The row of values of a result of :func:`solver.punto.punto_banco` (Python integers)."""
    row = [0] * blaw.width
    row[D] = r.denominator
    row[BANKER], row[PLAYER], row[TIE] = r.counts["banker"], r.counts["player"], r.counts["tie"]
    by_name = {b.name: b for b in r.bets}
    for b, bet in enumerate(blaw.bets):
        res = by_name.get(bet.name)
        if res is None:
            continue
        den = res.tiers[-1].denominator
        if bet.first_cards:
            row[D4] = den
        weights = [t.weight for t in res.tiers]
        row[blaw.base[b] : blaw.loss(b) + 1] = weights
        row[blaw.win(b)] = sum(w for t, w in zip(bet.tiers, weights) if t.pays > 0)
        row[blaw.push(b)] = sum(w for t, w in zip(bet.tiers, weights) if t.pays == 0)
        row[blaw.ev(b)] = sum(t.pays.numerator * (bet.scale // t.pays.denominator) * w for t, w in zip(bet.tiers, weights))
        row[blaw.ev(b)] -= bet.scale * weights[-1]
    if not row[D4]:
        n = r.shoe.size
        row[D4] = n**4 if r.shoe.is_infinite else n * (n - 1) * (n - 2) * (n - 3)
    return row


def row_ints(hi: np.ndarray, lo: np.ndarray) -> list[int]:
    """One row of 128-bit two's complement pairs as Python integers."""
    out = []
    for h, low in zip(hi.tolist(), lo.tolist()):
        x = (h << 64) | low
        out.append(x - (1 << 128) if h >> 63 else x)
    return out


def result(blaw: BatchLaw, shoe: Shoe, row: Sequence[int], commission: Fraction) -> PuntoResult:
    """The :class:`~solver.punto.PuntoResult` of a row of values: what :func:`solver.punto.punto_banco`
    gives on ``shoe`` with these bets, unsettled ones left out (the same Fractions, tested)."""
    bets = []
    omitted = []
    for b, bet in enumerate(blaw.bets):
        why = settles(bet, shoe)
        if why is not None:
            omitted.append((bet.name, why))
            continue
        den = row[D4] if bet.first_cards else row[D]
        bets.append(result_from_weights(bet, row[blaw.base[b] : blaw.loss(b)], row[blaw.loss(b)], den))
    counts = {"banker": row[BANKER], "player": row[PLAYER], "tie": row[TIE]}
    return PuntoResult(shoe, counts, row[D], tuple(bets), commission, method_of(blaw.tableau), tuple(omitted))


def python_row(blaw: BatchLaw, shoe: Shoe, commission: Fraction) -> list[int]:
    """The row of a shoe outside the kernel's range, by :func:`solver.punto.punto_banco` in Python integers."""
    r = punto_banco(shoe, commission, blaw.bets, skip_unsettled=True, tableau=blaw.tableau, route="plain")
    return values_of(blaw, r)


def factors(shoe: Shoe, row: Sequence[int]) -> list[int]:
    """The ten factors of a row's two denominators: :data:`D`'s six (``N``, ``N − 1``, …, ``N − 5``;
    ``T`` six times dealing with replacement) and :data:`D4`'s four."""
    n = shoe.size
    if not shoe.is_infinite:
        return [n - j for j in range(MAX_CARDS)] + [n - j for j in range(4)]
    m = math.isqrt(math.isqrt(row[D4]))
    assert m**4 == row[D4] and n**6 == row[D]
    return [n] * MAX_CARDS + [m] * 4
