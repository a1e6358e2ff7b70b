"""One piece of the commission game's equilibrium: its form, its formulas in α, and its interval.

An equilibrium (q, r) solved at a rational α₀ has a *form*: which sets are pure (and at which value)
and which are mixed. Along α the banker's mixed cells keep their probabilities (they make the ponte
indifferent, and his gross slopes do not involve α) and the ponte's mixed sets follow the banker's
indifference, s_i(q; α) = 0 in the mixed cells, solved by Cramer's rule: q_j(α) = N_j(α) / Δ(α).
The form stays an equilibrium while every condition holds: each q_j(α) in [0, 1], each pure banker
cell's net slope of the right sign (the polynomial Δ·N_i(α) ≥ 0 after the sign), Δ(α) ≠ 0.
:func:`piece_of` finds the largest interval around α₀ where they hold, exactly: between consecutive
real roots of the condition polynomials every sign is constant, so each gap is tested at one
rational point (:mod:`solver.exact.algebraic`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.chemin.commission.cases import key_text
from solver.chemin.game import Coefficients, Game, Model
from solver.exact.algebraic import (
    Algebraic,
    Poly,
    padd,
    peval,
    pmul,
    poly,
    pscale,
    rational_between,
    real_roots,
    sorted_algebraic,
)
from solver.exact.linalg import independent_rows

ONE_MINUS_ALPHA: Poly = poly(1, -1)


@dataclass(frozen=True)
class RationalFunction:
    """N(α) / D(α), exactly (polynomials lowest degree first)."""

    numerator: Poly
    denominator: Poly

    def at(self, alpha: Fraction) -> Fraction:
        return peval(self.numerator, alpha) / peval(self.denominator, alpha)

    def sympy(self) -> Any:
        import sympy

        a = sympy.Symbol("alpha")

        def expr(p: Poly):  # type: ignore[no-untyped-def]
            return sum(sympy.Rational(c.numerator, c.denominator) * a**k for k, c in enumerate(p))

        return sympy.factor(sympy.cancel(expr(self.numerator) / expr(self.denominator)))

    def text(self) -> str:
        """The function in lowest terms, written in ``alpha`` (``"1"``, ``"(3*alpha - 2)/(5*alpha + 7)"``)."""
        return str(self.sympy())


def _constant(x: Fraction) -> RationalFunction:
    return RationalFunction(poly(x), poly(1))


@dataclass(frozen=True, eq=False)
class Piece:
    """One form of the equilibrium over a closed interval of α (open at an end where Δ vanishes).

    Attributes:
        lo, hi: the interval's ends.
        sample: the rational α at which the form was solved and certified.
        ponte: q_j(α) for each ponte set (``game.ponte_sets`` order).
        banker: r_i for each free banker set (constant on the piece).
        banker_payoff, ponte_payoff: the banker's net and the ponte's expected payoffs, functions of α.
        mixed_ponte, mixed_banker: the sets played with a probability strictly between 0 and 1.
        unique: whether the equilibrium is the only one at ``sample`` (None: not decided).
        open_lo, open_hi: an end where the form's formulas break down (a pole), not in the piece.
    """

    lo: Algebraic
    hi: Algebraic
    sample: Fraction
    ponte: tuple[RationalFunction, ...]
    banker: tuple[Fraction, ...]
    banker_payoff: RationalFunction
    ponte_payoff: RationalFunction
    mixed_ponte: tuple[str, ...]
    mixed_banker: tuple[str, ...]
    unique: bool | None
    open_lo: bool = False
    open_hi: bool = False
    delta: Poly = (Fraction(1),)
    numerators: tuple[Poly, ...] = ()

    def contains(self, alpha: Fraction) -> bool:
        a = Algebraic.rational(alpha)
        return (self.lo < a or (self.lo == a and not self.open_lo)) and (a < self.hi or (a == self.hi and not self.open_hi))

    def at(self, alpha: Fraction) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...], Fraction, Fraction]:
        """(q, r, banker's payoff, ponte's payoff) at a rational α of the piece, exactly."""
        return (tuple(f.at(alpha) for f in self.ponte), self.banker, self.banker_payoff.at(alpha), self.ponte_payoff.at(alpha))


def game_at(game: Game, alpha: Fraction) -> Game:
    """The same game with commission ``alpha`` (its win and loss forms do not depend on α)."""
    m = game.model
    return dataclasses.replace(game, model=Model(m.information, m.freedom, alpha, m.house))


def _det(matrix: list[list[Poly]]) -> Poly:
    """Determinant of a small matrix of polynomials (Laplace expansion; at most five rows)."""
    n = len(matrix)
    if n == 0:
        return poly(1)
    if n == 1:
        return matrix[0][0]
    total: Poly = ()
    for c in range(n):
        minor = [row[:c] + row[c + 1 :] for row in matrix[1:]]
        term = pmul(matrix[0][c], _det(minor))
        total = padd(total, term if c % 2 == 0 else pscale(term, -1))
    return total


def _basis(rows: list[list[Fraction]], want_rows: bool) -> list[int]:
    """Indices of a maximal independent set of rows (or, transposed, of columns), greedily."""
    return independent_rows(rows if want_rows else [list(col) for col in zip(*rows)] if rows else [])


def piece_of(
    game: Game,
    sol_q: tuple[Fraction, ...],
    sol_r: tuple[Fraction, ...],
    alpha0: Fraction,
    unique: bool | None,
    lo: Fraction,
    hi: Fraction,
) -> Piece:
    """The piece of the equilibrium (sol_q, sol_r), solved at alpha0, within [lo, hi]."""
    W, L = game.win, game.loss
    m, n = len(game.ponte_sets), len(game.banker_sets)
    mixed_p = [j for j in range(m) if 0 < sol_q[j] < 1 and not game.inert_ponte[j]]
    mixed_b = [i for i in range(n) if 0 < sol_r[i] < 1 and not game.inert_banker[i]]

    def row(i: int, at: Fraction) -> list[Fraction]:
        return [(1 - at) * int(W.G[j][i]) - int(L.G[j][i]) for j in mixed_p]

    at0 = [row(i, alpha0) for i in mixed_b]
    cols = [mixed_p[c] for c in _basis(at0, want_rows=False)] if at0 else []
    basis_rows = [mixed_b[k] for k in _basis([[r[mixed_p.index(j)] for j in cols] for r in at0], want_rows=True)] if cols else []
    solved = cols[: len(basis_rows)]
    fixed = {j: sol_q[j] for j in range(m) if j not in solved}

    # Cramer's rule: A(α) x = rhs(α) over the solved sets, in the basis rows.
    def coef(i: int, j: int) -> Poly:
        return padd(pscale(ONE_MINUS_ALPHA, int(W.G[j][i])), poly(-int(L.G[j][i])))

    def constant_part(i: int) -> Poly:
        w = int(W.b[i]) + sum(int(W.G[j][i]) * v for j, v in fixed.items())
        lo_ = int(L.b[i]) + sum(int(L.G[j][i]) * v for j, v in fixed.items())
        return padd(pscale(ONE_MINUS_ALPHA, w), poly(-lo_))

    A = [[coef(i, j) for j in solved] for i in basis_rows]
    rhs = [pscale(constant_part(i), -1) for i in basis_rows]
    delta = _det(A)
    numer: dict[int, Poly] = {}
    for c, j in enumerate(solved):
        Aj = [r[:c] + [rhs[k]] + r[c + 1 :] for k, r in enumerate(A)]
        numer[j] = _det(Aj)
    N = [numer[j] if j in numer else pscale(delta, fixed[j]) for j in range(m)]  # q_j = N_j / Δ

    inequalities: list[Poly] = []  # each P(α) >= 0 on the piece
    equations: list[Poly] = []
    for j in solved:
        inequalities += [pmul(N[j], delta), pmul(padd(delta, pscale(N[j], -1)), delta)]
    for i in range(n):
        if game.inert_banker[i]:
            continue
        s = slope_numerator(game, i, N, delta)
        if i in mixed_b:
            if i not in basis_rows and s:
                equations.append(s)
        elif sol_r[i] == 1:
            inequalities.append(pmul(s, delta))
        else:
            inequalities.append(pscale(pmul(s, delta), -1))
    lo_end, hi_end, open_lo, open_hi = component(inequalities, equations, delta, alpha0, lo, hi)

    # Payoffs: E = c0 + a·q + b·r + q·G·r over the denominator, with q = N / Δ.
    def payoff(c: Coefficients) -> Poly:
        Gr = [sum((int(c.G[j][i]) * sol_r[i] for i in range(n) if sol_r[i]), Fraction(0)) for j in range(m)]
        br = sum((int(c.b[i]) * sol_r[i] for i in range(n) if sol_r[i]), Fraction(0))
        out = pscale(delta, int(c.c0) + br)
        for j in range(m):
            out = padd(out, pscale(N[j], int(c.a[j]) + Gr[j]))
        return out

    D = W.denominator
    pw, pl = payoff(W), payoff(L)
    den = pscale(delta, D)
    banker = RationalFunction(padd(pmul(ONE_MINUS_ALPHA, pw), pscale(pl, -1)), den)
    ponte = RationalFunction(padd(pl, pscale(pw, -1)), den)
    keys_p = tuple(key_text(k) for k in game.ponte_sets)
    keys_b = tuple(key_text(k) for k in game.banker_sets)
    return Piece(
        lo=lo_end,
        hi=hi_end,
        sample=alpha0,
        ponte=tuple(RationalFunction(N[j], delta) if j in numer else _constant(sol_q[j]) for j in range(m)),
        banker=tuple(sol_r),
        banker_payoff=banker,
        ponte_payoff=ponte,
        mixed_ponte=tuple(keys_p[j] for j in mixed_p),
        mixed_banker=tuple(keys_b[i] for i in mixed_b),
        unique=unique,
        open_lo=open_lo,
        open_hi=open_hi,
        delta=delta,
        numerators=tuple(N),
    )


def slope_numerator(game: Game, i: int, N: Sequence[Poly], delta: Poly) -> Poly:
    """Δ(α) · s_i(q(α); α): banker cell i's net slope along q_j(α) = N_j(α) / Δ(α), times Δ, over the
    shoe's denominator: (1 − α)(bW_i Δ + Σ_j GW_ji N_j) − (bL_i Δ + Σ_j GL_ji N_j)."""
    W, L = game.win, game.loss
    w = pscale(delta, int(W.b[i]))
    lo = pscale(delta, int(L.b[i]))
    for j, n_j in enumerate(N):
        if n_j:
            w = padd(w, pscale(n_j, int(W.G[j][i])))
            lo = padd(lo, pscale(n_j, int(L.G[j][i])))
    return padd(pmul(ONE_MINUS_ALPHA, w), pscale(lo, -1))


def component(
    inequalities: list[Poly], equations: list[Poly], delta: Poly, alpha0: Fraction, lo: Fraction, hi: Fraction
) -> tuple[Algebraic, Algebraic, bool, bool]:
    """The largest interval around alpha0 within [lo, hi] where every inequality P >= 0 holds and Δ ≠ 0.

    Between consecutive roots (of the inequalities and of Δ) every sign is constant, so each gap is
    tested at one rational point; the inequalities then hold at its ends by continuity.
    """
    here = Algebraic.rational(alpha0)
    if equations:  # extra indifference conditions that are not identities: the form holds at isolated α
        return here, here, False, False
    critical = set(real_roots(delta, lo, hi))
    for p in inequalities:
        critical.update(real_roots(p, lo, hi))
    points = sorted_algebraic([*critical, Algebraic.rational(lo), Algebraic.rational(hi)])
    poles = set(real_roots(delta, lo, hi))

    def holds(x: Fraction) -> bool:
        return peval(delta, x) != 0 and all(peval(p, x) >= 0 for p in inequalities)

    def walk(ahead: list[Algebraic], step: Callable[[Algebraic, Algebraic], Fraction]) -> tuple[Algebraic, bool]:
        current = here
        for point in ahead:
            if not holds(step(current, point)):
                return current, False
            if point in poles:
                return point, True
            current = point
        return current, False

    right = [p for p in points if here < p]
    left = [p for p in reversed(points) if p < here]
    hi_end, open_hi = walk(right, rational_between)
    lo_end, open_lo = walk(left, lambda a, b: rational_between(b, a))
    return lo_end, hi_end, open_lo, open_hi
