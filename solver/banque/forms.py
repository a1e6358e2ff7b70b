"""Expected payoffs of baccara banque as multilinear forms, evaluated exactly (or in floats to propose).

A :class:`Payoff` is one expected payoff Σ_o u(o) P_o of the game (:mod:`solver.banque.game`): one
integer coefficient per monomial x_j y_k r_i over a denominator. Its *slopes* are the partial
derivatives: the gain of drawing over standing in one information set, the others fixed. Because
every monomial holds each side's variable at most once, a slope does not depend on that side's own
strategy, and a side's best reply is chosen set by set from the signs of its slopes.

Values are exact: Fractions (computed as integers over a common denominator) or any exact number
type closed under + and × with integers (the algebraic numbers of :mod:`solver.exact.numberfield`).

>>> from solver.cards import Shoe
>>> from solver.banque.game import BanqueModel, build_banque, RESULT_1
>>> g = build_banque(Shoe.infinite(), BanqueModel(1, "blind", "casino"))
>>> p = payoff(g, RESULT_1)
>>> p.value([Fraction(1)], [Fraction(1)], [Fraction(0)] * len(g.banker_sets)) == sum(
...     pr * r1 for (r1, _), pr in g.outcome_law([Fraction(1)], [Fraction(1)], [Fraction(0)] * 204).items())
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from solver.banque.game import BanqueGame
from solver.exact.numberfield import Field, FieldElement
from solver.exact.numbers import numerators, quotient

SIDES = ("x", "y", "r")
"""The three sides' variables: Player 1 (x), Player 2 (y), the banker (r)."""


@dataclass(frozen=True, eq=False)
class Payoff:
    """An expected payoff as a multilinear form over the game's monomials (integers over ``denominator``)."""

    game: BanqueGame
    coef: np.ndarray
    denominator: int

    @property
    def monomials(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        m = self.game.multilinear
        return m.j, m.k, m.i

    def sizes(self) -> tuple[int, int, int]:
        g = self.game
        return len(g.player1_sets), len(g.player2_sets), len(g.banker_sets)

    @cached_property
    def floats(self) -> np.ndarray:
        """The coefficients divided by the denominator, in float64 (for proposals only)."""
        scale = self.denominator
        return np.array([int(c) / scale for c in self.coef], dtype=np.float64)

    def index(self, side: str) -> np.ndarray:
        return self.monomials[SIDES.index(side)]

    def dead(self, side: str) -> np.ndarray:
        """Per set of ``side``: True when no monomial holding it has a non-zero coefficient in this payoff
        (its choice cannot change this payoff: unreachable, or irrelevant to it, e.g. a tableau settled)."""
        idx = self.index(side)
        live = np.zeros(self.sizes()[SIDES.index(side)], dtype=bool)
        nonzero = np.array([c != 0 for c in self.coef], dtype=bool)
        live[idx[(idx >= 0) & nonzero]] = True
        return ~live

    # -- floats ------------------------------------------------------------------------------------

    def float_terms(self, x: np.ndarray, y: np.ndarray, r: np.ndarray, skip: str | None = None) -> np.ndarray:
        """Per monomial, the coefficient times every factor except ``skip``'s (floats)."""
        out = self.floats.copy()
        for side, v in zip(SIDES, (x, y, r)):
            if side != skip:
                out = out * np.concatenate([np.asarray(v, dtype=np.float64), [1.0]])[self.index(side)]
        return out

    def float_value(self, x: np.ndarray, y: np.ndarray, r: np.ndarray) -> float:
        return float(self.float_terms(x, y, r).sum())

    @cached_property
    def _operators(self) -> dict[str, tuple[Any, int, int]]:
        """Per side, a sparse matrix taking the third side's values (with the absent 1) to a table over
        (own index, second side's index), so that a slope is one sparse product and one small dot."""
        from scipy.sparse import coo_matrix

        m1, m2, n = self.sizes()
        j, k, i = self.monomials
        c = self.floats
        out = {}
        # side: (own index array, own size, second side index array, its size + 1, third index, its size + 1)
        for side, own, no, sec, ns, third, nt in (
            ("x", j, m1, k, m2 + 1, i, n + 1),
            ("y", k, m2, j, m1 + 1, i, n + 1),
            ("r", i, n, j, m1 + 1, k, m2 + 1),
        ):
            sel = own >= 0
            rows = own[sel] * ns + np.where(sec[sel] >= 0, sec[sel], ns - 1)
            cols = np.where(third[sel] >= 0, third[sel], nt - 1)
            mat = coo_matrix((c[sel], (rows, cols)), shape=(no * ns, nt)).tocsr()
            out[side] = (mat, no, ns)
        return out

    def float_slopes(self, side: str, x: np.ndarray, y: np.ndarray, r: np.ndarray) -> np.ndarray:
        """Float slopes of ``side``'s variables at (x, y, r)."""
        mat, no, ns = self._operators[side]
        xs = np.append(np.asarray(x, dtype=np.float64), 1.0)
        ys = np.append(np.asarray(y, dtype=np.float64), 1.0)
        rs = np.append(np.asarray(r, dtype=np.float64), 1.0)
        second, third = {"x": (ys, rs), "y": (xs, rs), "r": (xs, ys)}[side]
        table = (mat @ third).reshape(no, ns)
        out: np.ndarray = table @ second
        return out

    # -- exact -------------------------------------------------------------------------------------

    def exact_terms(
        self, x: Sequence[Any], y: Sequence[Any], r: Sequence[Any], skip: str | None = None
    ) -> tuple[np.ndarray, Any]:
        """Per monomial, the coefficient times every factor except ``skip``'s, and the common scale."""
        out = self.coef
        scale: Any = self.denominator
        for side, v in zip(SIDES, (x, y, r)):
            if side != skip:
                arr, d = scaled(v, absent=True)
                out = out * arr[self.index(side)]
                scale = scale * d
        return out, scale

    def value(self, x: Sequence[Any], y: Sequence[Any], r: Sequence[Any]) -> Any:
        """The exact expected payoff at (x, y, r)."""
        field = _field_of(x, y, r)
        if field is not None:
            rows, scale = self._field_terms(field, x, y, r, None)
            return field.element([Fraction(int(c), scale) for c in rows.sum(axis=0)])
        terms, scale = self.exact_terms(x, y, r)
        return quotient(sum(terms.tolist(), 0), scale)

    def _field_terms(
        self, field: Field, x: Sequence[Any], y: Sequence[Any], r: Sequence[Any], skip: str | None
    ) -> tuple[np.ndarray, int]:
        """Per monomial, the coefficient times the factors as an unreduced integer polynomial in α
        (rows), over a common scale: the field's arithmetic done once per sum, not per term."""
        rows = self.coef.reshape(-1, 1)
        scale = self.denominator
        for side, v in zip(SIDES, (x, y, r)):
            if side == skip:
                continue
            table, d = _field_table(field, v)
            rows = _convolve(rows, table[self.index(side)])
            scale *= d
        return rows, scale

    def slopes(self, side: str, x: Sequence[Any], y: Sequence[Any], r: Sequence[Any]) -> list[Any]:
        """The exact slopes of ``side``'s variables at (x, y, r) (``side``'s own values are ignored)."""
        idx = self.index(side)
        n = self.sizes()[SIDES.index(side)]
        field = _field_of(*(v for s, v in zip(SIDES, (x, y, r)) if s != side))
        if field is not None:
            rows, scale = self._field_terms(field, x, y, r, side)
            sel = idx >= 0
            order = np.argsort(idx[sel], kind="stable")
            keys = idx[sel][order]
            table = np.zeros((n, rows.shape[1]), dtype=object)
            if len(keys):
                starts = np.nonzero(np.r_[True, keys[1:] != keys[:-1]])[0]
                table[keys[starts]] = np.add.reduceat(rows[sel][order], starts, axis=0)
            return [field.element([Fraction(int(c), scale) for c in row]) for row in table]
        terms, scale = self.exact_terms(x, y, r, skip=side)
        sums: list[Any] = [0] * n
        for k, t in zip(idx.tolist(), terms.tolist()):
            if k >= 0:
                sums[k] = sums[k] + t
        return [quotient(s, scale) for s in sums]


def _field_of(*groups: Sequence[Any]) -> Field | None:
    for g in groups:
        for v in g:
            if isinstance(v, FieldElement):
                return v.field
    return None


def _field_table(field: Field, values: Sequence[Any]) -> tuple[np.ndarray, int]:
    """Values (Fractions or elements of ``field``) as integer coefficient rows over a common denominator,
    with a trailing row for an absent factor (the denominator itself)."""
    coeffs = [list(v.coefficients) if isinstance(v, FieldElement) else [Fraction(v)] for v in values]
    d = math.lcm(*(c.denominator for row in coeffs for c in row)) if coeffs else 1
    width = field.degree
    table = np.zeros((len(values) + 1, width), dtype=object)
    for n, row in enumerate(coeffs):
        for k, c in enumerate(row):
            table[n, k] = int(c * d)
    table[len(values), 0] = d
    return table, d


def _convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise product of polynomials given by coefficient rows (object integers)."""
    out = np.zeros((a.shape[0], a.shape[1] + b.shape[1] - 1), dtype=object)
    for i in range(a.shape[1]):
        for j in range(b.shape[1]):
            out[:, i + j] = out[:, i + j] + a[:, i] * b[:, j]
    return out


def scaled(values: Sequence[Any], absent: bool = False) -> tuple[np.ndarray, Any]:
    """Exact values as an object array over a common scale: integers when all are rational.

    With ``absent``, a trailing entry stands for an absent factor (it equals the scale), so that
    indexing with −1 picks it.
    """
    if all(isinstance(v, (int, Fraction)) for v in values):
        ints, d = numerators(Fraction(v) for v in values)
        return np.array(ints + ([d] if absent else []), dtype=object), d
    return np.array(list(values) + ([1] if absent else []), dtype=object), 1


def payoff(game: BanqueGame, u: Sequence[Fraction]) -> Payoff:
    """The expected payoff Σ_o u(o) P_o of ``game`` as a :class:`Payoff`."""
    coef, d = game.multilinear.payoff(u)
    return Payoff(game, coef, d)


def reply(slopes: Sequence[Any], maximise: bool) -> list[Fraction]:
    """A pure best reply set by set: draw where the slope favours drawing, stand otherwise (ties: stand)."""
    if maximise:
        return [Fraction(1 if s > 0 else 0) for s in slopes]
    return [Fraction(1 if s < 0 else 0) for s in slopes]


def is_best_reply(values: Sequence[Any], slopes: Sequence[Any], maximise: bool) -> list[int]:
    """Indices where ``values`` is not a best reply to ``slopes`` (empty: a best reply everywhere).

    A maximiser must draw (1) where the slope is positive, stand (0) where it is negative, and may mix
    only where it is zero; a minimiser the reverse.
    """
    bad = []
    for n, (v, s) in enumerate(zip(values, slopes)):
        sign = (s > 0) - (s < 0)
        if not maximise:
            sign = -sign
        if (sign > 0 and v != 1) or (sign < 0 and v != 0):
            bad.append(n)
    return bad
