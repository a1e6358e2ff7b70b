"""Chemin de fer as a function of the commission: the equilibrium's exact pieces over a range of α.

With commission α the banker's net slope in cell i is, over the shoe's common denominator,

    s_i(q; α) = (1 − α)(bW_i + Σ_j GW_ji q_j) − (bL_i + Σ_j GL_ji q_j),

affine in α, while the ponte's gross slope g_j(r) = a_j + Σ_i G_ji r_i does not depend on α at all.
So an equilibrium keeps its *form* (which sets are pure, at which value, and which are mixed) over
an interval of α on which:

- the banker's mixed cells stay mixed at the same probabilities (they make the ponte indifferent,
  and his indifference does not involve α);
- the ponte's mixed sets follow q(α), the solution of the banker's indifference equations
  s_i(q; α) = 0 in his mixed cells: by Cramer's rule q_j(α) = N_j(α) / Δ(α), polynomials of degree
  at most the number of mixed sets;
- every condition stays true: each q_j(α) in [0, 1], each pure banker cell's slope of the right sign
  (a rational function N/Δ of α), Δ(α) ≠ 0.

The form changes where one of these polynomials changes sign: a *breakpoint*, an algebraic number
(:class:`~solver.algebraic.Algebraic`; rational where the polynomial has a rational root). The payoffs
are rational functions of α on each piece. :func:`commission_sweep` walks a range [lo, hi] ⊆ [0, 1/10]:
solve exactly at a rational α (:func:`~solver.equilibrium.solve`), read the form, compute its piece
(the largest interval around α where its conditions hold, found exactly from the roots of the
condition polynomials), and continue just past the piece's end until the range is covered.

Uniqueness is decided where it is decided for one α: at each piece's sample point (one ponte set:
every equilibrium enumerated; several: the case analysis of :mod:`solver.equilibrium.cases`). At a
breakpoint both neighbouring pieces' limits are equilibria (the conditions are closed); where they
differ, the equilibrium there is not unique, and every banker strategy between the two limits is an
equilibrium too when the ponte's limits agree (the banker's replies to one q form a convex set).

>>> from solver.cards import Shoe
>>> sweep = commission_sweep(Shoe.decks(6), 1, "casino")
>>> [p.lo.text() for p in sweep.pieces], sweep.pieces[0].ponte[0].text()
(['0'], '1')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from solver.algebraic import Algebraic, Poly, padd, peval, pmul, poly, pscale, rational_between, real_roots, sorted_algebraic
from solver.cards import Shoe
from solver.equilibrium.cases import key_text
from solver.equilibrium.exact import rank
from solver.errors import ModelError, SolverError
from solver.game import MAX_COMMISSION, Coefficients, Game, Model, build_game

MAX_SOLVES = 200
"""The most single-α solves a sweep makes before it gives up (a range with too many pieces)."""

ALPHA: Poly = poly(0, 1)
ONE_MINUS_ALPHA: Poly = poly(1, -1)


@dataclass(frozen=True)
class RationalFunction:
    """N(α) / D(α), exactly (polynomials lowest degree first)."""

    numerator: Poly
    denominator: Poly

    def at(self, alpha: Fraction) -> Fraction:
        return peval(self.numerator, alpha) / peval(self.denominator, alpha)

    def sympy(self):  # type: ignore[no-untyped-def]
        import sympy

        a = sympy.Symbol("alpha")

        def expr(p: Poly):  # type: ignore[no-untyped-def]
            return sum(sympy.Rational(c.numerator, c.denominator) * a**k for k, c in enumerate(p))

        return sympy.factor(sympy.cancel(expr(self.numerator) / expr(self.denominator)))

    def text(self) -> str:
        """The function in lowest terms, written in ``alpha`` (``"1"``, ``"(3*alpha - 2)/(5*alpha + 7)"``)."""
        return str(self.sympy())

    @property
    def constant(self) -> Fraction | None:
        """The value, when the function does not depend on α."""
        f = self.sympy()
        return None if f.free_symbols else Fraction(int(f.p), int(f.q))


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
        return (tuple(f.at(alpha) for f in self.ponte), self.banker, self.banker_payoff.at(alpha),
                self.ponte_payoff.at(alpha))


@dataclass(frozen=True, eq=False)
class CommissionSweep:
    """The equilibrium of one shoe and model over a range of commissions, piece by piece.

    Attributes:
        game: the game (its win and loss forms do not depend on α; its own commission is ``lo``).
        lo, hi: the range.
        pieces: consecutive pieces covering [lo, hi]; neighbours share an end.
        overlaps: intervals where two pieces' forms hold at once (two distinct equilibria).
        solves: how many single-α solves the sweep made.
    """

    game: Game
    lo: Fraction
    hi: Fraction
    pieces: tuple[Piece, ...]
    overlaps: tuple[tuple[Algebraic, Algebraic], ...]
    solves: int

    @property
    def breakpoints(self) -> tuple[Algebraic, ...]:
        """Where the form changes: the shared ends of neighbouring pieces."""
        return tuple(p.hi for p in self.pieces[:-1])

    def piece_at(self, alpha: Fraction) -> Piece:
        """The first piece containing a rational α."""
        for p in self.pieces:
            if p.contains(alpha):
                return p
        raise ModelError(f"commission {alpha} is outside the sweep [{self.lo}, {self.hi}]")


# -- one piece ----------------------------------------------------------------------------------------


def _game_at(game: Game, alpha: Fraction) -> Game:
    m = game.model
    return dataclasses.replace(game, model=Model(m.information, m.freedom, alpha))


def _det(matrix: list[list[Poly]]) -> Poly:
    """Determinant of a small matrix of polynomials (Laplace expansion; at most five rows)."""
    n = len(matrix)
    if n == 0:
        return poly(1)
    if n == 1:
        return matrix[0][0]
    total: Poly = ()
    for c in range(n):
        minor = [row[:c] + row[c + 1:] for row in matrix[1:]]
        term = pmul(matrix[0][c], _det(minor))
        total = padd(total, term if c % 2 == 0 else pscale(term, -1))
    return total


def _basis(rows: list[list[Fraction]], want_rows: bool) -> list[int]:
    """Indices of a maximal independent set of rows (or, transposed, of columns), greedily."""
    vectors = rows if want_rows else [list(col) for col in zip(*rows)] if rows else []
    chosen: list[int] = []
    for k in range(len(vectors)):
        if rank([vectors[i] for i in chosen] + [vectors[k]]) == len(chosen) + 1:
            chosen.append(k)
    return chosen


def _piece(game: Game, sol_q: tuple[Fraction, ...], sol_r: tuple[Fraction, ...], alpha0: Fraction,
           unique: bool | None, lo: Fraction, hi: Fraction) -> Piece:
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
        Aj = [r[:c] + [rhs[k]] + r[c + 1:] for k, r in enumerate(A)]
        numer[j] = _det(Aj)
    N = [numer[j] if j in numer else pscale(delta, fixed[j]) for j in range(m)]  # q_j = N_j / Δ

    def slope_numerator(i: int) -> Poly:
        """Δ(α) · s_i(q(α); α), over the shoe's denominator."""
        w = pscale(delta, int(W.b[i]))
        lo_ = pscale(delta, int(L.b[i]))
        for j in range(m):
            if N[j]:
                w = padd(w, pscale(N[j], int(W.G[j][i])))
                lo_ = padd(lo_, pscale(N[j], int(L.G[j][i])))
        return padd(pmul(ONE_MINUS_ALPHA, w), pscale(lo_, -1))

    inequalities: list[Poly] = []  # each P(α) >= 0 on the piece
    equations: list[Poly] = []
    for j in solved:
        inequalities += [pmul(N[j], delta), pmul(padd(delta, pscale(N[j], -1)), delta)]
    for i in range(n):
        if game.inert_banker[i]:
            continue
        s = slope_numerator(i)
        if i in mixed_b:
            if i not in basis_rows and s:
                equations.append(s)
        elif sol_r[i] == 1:
            inequalities.append(pmul(s, delta))
        else:
            inequalities.append(pscale(pmul(s, delta), -1))
    lo_end, hi_end, open_lo, open_hi = _component(inequalities, equations, delta, alpha0, lo, hi)

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
        lo=lo_end, hi=hi_end, sample=alpha0,
        ponte=tuple(RationalFunction(N[j], delta) if j in numer else _constant(sol_q[j]) for j in range(m)),
        banker=tuple(sol_r), banker_payoff=banker, ponte_payoff=ponte,
        mixed_ponte=tuple(keys_p[j] for j in mixed_p), mixed_banker=tuple(keys_b[i] for i in mixed_b),
        unique=unique, open_lo=open_lo, open_hi=open_hi, delta=delta, numerators=tuple(N),
    )


def _component(inequalities: list[Poly], equations: list[Poly], delta: Poly, alpha0: Fraction,
               lo: Fraction, hi: Fraction) -> tuple[Algebraic, Algebraic, bool, bool]:
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


# -- the sweep ----------------------------------------------------------------------------------------


def commission_sweep(shoe: Shoe, information: int, freedom: str, lo: Fraction | int | str = 0,
                     hi: Fraction | int | str = MAX_COMMISSION,
                     progress: Callable[[Fraction], None] | None = None) -> CommissionSweep:
    """The equilibrium of chemin de fer on ``shoe`` for every commission α in [lo, hi], exactly.

    Args:
        shoe, information, freedom: the game (see :func:`solver.game.build_game`).
        lo, hi: the range, within [0, 1/10], lo <= hi.
        progress: called with each α solved.

    Raises:
        ModelError: the range is reversed or leaves [0, 1/10].
        SolverError: more than :data:`MAX_SOLVES` solves were needed.
    """
    from solver.equilibrium import solve
    from solver.numbers import exact

    a, b = exact(lo, "commission"), exact(hi, "commission")
    if not 0 <= a <= b <= MAX_COMMISSION:
        raise ModelError(f"a commission range runs from low to high within [0, 1/10], got {a}..{b}")
    game = build_game(shoe, information, freedom, a)
    found: list[Piece] = []
    pieces: list[Piece] = []
    overlaps: list[tuple[Algebraic, Algebraic]] = []
    solves = 0

    def piece_at(alpha: Fraction) -> Piece:
        nonlocal solves
        solves += 1
        if solves > MAX_SOLVES:
            raise SolverError(f"more than {MAX_SOLVES} solves for the commission range {a}..{b}")
        if progress is not None:
            progress(alpha)
        s = solve(_game_at(game, alpha))
        p = _piece(s.game, s.q, s.r, alpha, s.unique_equilibrium if alpha else (s.unique_ponte and s.unique_banker), a, b)
        found.append(p)
        return p

    first = piece_at(a)
    pieces.append(first)
    covered = first.hi
    end = Algebraic.rational(b)
    while covered < end:
        # The piece that starts where the covered part ends: one found already, or solve just beyond;
        # a solve that lands in a later piece narrows the search.
        nxt = next((p for p in found if p.lo == covered and covered < p.hi), None)
        if nxt is None:
            bound = sorted_algebraic([p.lo for p in found if covered < p.lo] + [end])[0]
            p = piece_at(rational_between(covered, bound))
            if covered < p.lo:
                continue
            if p.lo < covered:
                overlaps.append((p.lo, covered))
            nxt = p
        pieces.append(nxt)
        covered = nxt.hi
    return CommissionSweep(game, a, b, tuple(pieces), tuple(overlaps), solves)


# -- checks -------------------------------------------------------------------------------------------


def check_solves(sweep: CommissionSweep, alphas: list[Fraction]) -> list[str]:
    """Compare each piece, evaluated at the given rational α, with a fresh exact solve there.

    Returns one line per disagreement (none: the sweep agrees with every solve).
    """
    from solver.equilibrium import solve

    problems = []
    for alpha in alphas:
        s = solve(_game_at(sweep.game, alpha))
        q, r, banker, ponte = sweep.piece_at(alpha).at(alpha)
        if (q, r, banker, ponte) != (s.q, s.r, s.banker_payoff, s.ponte_payoff):
            problems.append(f"alpha = {alpha}: the piece gives another equilibrium than a fresh solve")
    return problems


def equilibrium_at(game: Game, piece: Piece, theta: Algebraic) -> bool:
    """Whether the piece's formulas, continued to the algebraic α = theta, give an equilibrium there.

    Every sign is computed exactly in Q(theta), from the game's own win and loss forms: each ponte set
    must be a best reply to r (gross slopes, not depending on α), each banker cell to q(theta) (net
    slope Δ·s_i, with the sign of Δ), and each q_j(theta) in [0, 1].
    """
    W, L = game.win, game.loss
    m, n = len(game.ponte_sets), len(game.banker_sets)
    delta, N, r = piece.delta, piece.numerators, piece.banker
    sd = theta.sign_of(delta)
    if sd == 0:
        return False
    for j in range(m):
        if theta.sign_of(pmul(N[j], delta)) < 0 or theta.sign_of(pmul(padd(delta, pscale(N[j], -1)), delta)) < 0:
            return False
        g = int(W.a[j]) - int(L.a[j]) + sum((int(W.G[j][i]) - int(L.G[j][i])) * r[i] for i in range(n) if r[i])
        sq = theta.sign_of(pmul(N[j], delta))  # q_j > 0 ?
        s1 = theta.sign_of(pmul(padd(delta, pscale(N[j], -1)), delta))  # q_j < 1 ?
        if (g > 0 and sq > 0) or (g < 0 and s1 > 0):
            return False
    for i in range(n):
        w = pscale(delta, int(W.b[i]))
        lo_ = pscale(delta, int(L.b[i]))
        for j in range(m):
            if N[j]:
                w = padd(w, pscale(N[j], int(W.G[j][i])))
                lo_ = padd(lo_, pscale(N[j], int(L.G[j][i])))
        s = theta.sign_of(padd(pmul(ONE_MINUS_ALPHA, w), pscale(lo_, -1))) * sd
        if (s > 0 and r[i] != 1) or (s < 0 and r[i] != 0):
            return False
    return True


@dataclass(frozen=True)
class Junction:
    """What happens at a breakpoint between two pieces.

    ``equilibria``: both pieces' limits are equilibria there (must hold). ``same_ponte``,
    ``same_banker``: whether the two limits' strategies agree; where they do not, the equilibrium at
    the breakpoint is not unique. ``same_banker_payoff``, ``same_ponte_payoff``: whether the payoffs
    agree (the banker's must where the ponte's strategy does: the cells that change are those he is
    indifferent in).
    """

    at: Algebraic
    equilibria: bool
    same_ponte: bool
    same_banker: bool
    same_banker_payoff: bool
    same_ponte_payoff: bool

    @property
    def unique(self) -> bool:
        return self.same_ponte and self.same_banker


def junctions(sweep: CommissionSweep) -> list[Junction]:
    """Each breakpoint, with both neighbouring pieces continued to it and compared exactly."""
    out = []
    for left, right in zip(sweep.pieces, sweep.pieces[1:]):
        theta = left.hi

        def same(f: RationalFunction, g: RationalFunction, theta: Algebraic = theta) -> bool:
            return theta.sign_of(padd(pmul(f.numerator, g.denominator), pscale(pmul(g.numerator, f.denominator), -1))) == 0

        ok = (not left.open_hi and not right.open_lo and equilibrium_at(sweep.game, left, theta)
              and equilibrium_at(sweep.game, right, theta))
        out.append(Junction(
            at=theta, equilibria=ok,
            same_ponte=all(same(f, g) for f, g in zip(left.ponte, right.ponte)),
            same_banker=left.banker == right.banker,
            same_banker_payoff=same(left.banker_payoff, right.banker_payoff),
            same_ponte_payoff=same(left.ponte_payoff, right.ponte_payoff),
        ))
    return out
