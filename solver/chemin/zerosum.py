"""The zero-sum game: Foster's algorithm, the LP snapped to rationals, uniqueness and the optimal sets."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from solver.chemin.game import Coefficients
from solver.chemin.guarantees import banker_guarantee, banker_slope_signs, ponte_guarantee, ponte_slope_signs
from solver.errors import SolverError
from solver.exact.linalg import independent_rows, rank, solve_square
from solver.exact.lp import FLOAT_TOL, linear_program
from solver.exact.numbers import in_unit_interval

_ZERO, _ONE = Fraction(0), Fraction(1)

MAX_TIGHT = 10
"""Most banker cells left indifferent at a candidate for which the banker's reply is searched exhaustively."""


def foster(c: Coefficients) -> tuple[Fraction, Fraction, Fraction]:
    """Minimise f over q in [0, 1] for one ponte set (Foster's algorithm).

    Returns (q*, left slope, right slope) of f at q*, exactly (per denominator units).
    """
    a = int(c.a[0])
    G = [int(x) for x in c.G[0]]
    b = [int(x) for x in c.b]
    # Slope just right of 0: cells on at 0+ are those with b > 0, or b == 0 and G > 0.
    slope = Fraction(a + sum(g for bi, g in zip(b, G) if bi > 0 or (bi == 0 and g > 0)))
    left0 = Fraction(a + sum(g for bi, g in zip(b, G) if bi > 0 or (bi == 0 and g < 0)))
    if slope >= 0:
        return Fraction(0), left0, slope
    points: dict[Fraction, int] = {}
    for bi, g in zip(b, G):
        if (0 < -bi < g) if g > 0 else (g < -bi < 0):  # the breakpoint -bi/g lies in (0, 1)
            x = Fraction(-bi, g)
            points[x] = points.get(x, 0) + abs(g)
    for x in sorted(points):
        left = slope
        slope += points[x]
        if slope >= 0:
            return x, left, slope
    return Fraction(1), slope, slope


def _banker_for_interior(
    c: Coefficients, q: list[Fraction], target_j: list[int], slopes: list[int], r_hint: list[float] | None
) -> list[Fraction] | None:
    """Banker strategy: forced cells by slope sign; tight cells solve the ponte's indifference."""
    n = len(slopes)
    r = [_ONE if s > 0 else _ZERO for s in slopes]
    tight = [i for i in range(n) if slopes[i] == 0]
    if not target_j or not tight:
        return r
    D = c.denominator
    if r_hint is not None:
        for i in tight:
            if r_hint[i] > 1 - FLOAT_TOL:
                r[i] = Fraction(1)
        free = [i for i in tight if FLOAT_TOL < r_hint[i] < 1 - FLOAT_TOL]
    else:
        free = tight
    rows = [[Fraction(int(c.G[j][i]), D) for i in free] for j in target_j]
    # Every cell outside ``free`` is at 0 or 1 here: the fixed part of each equation is an integer sum.
    free_set = set(free)
    on = [i for i in range(n) if r[i] and i not in free_set]
    rhs = [-Fraction(int(c.a[j]) + sum(int(c.G[j][i]) for i in on), D) for j in target_j]
    if len(free) == len(target_j):
        sol = solve_square(rows, rhs)
        if sol is None:
            return None
        for i, x in zip(free, sol):
            r[i] = x
        return r
    if len(target_j) == 1:
        # One equation: give every tight cell of the needed sign the same probability λ.
        need = rhs[0]
        pos = [k for k, i in enumerate(free) if rows[0][k] != 0 and (rows[0][k] > 0) == (need > 0)]
        total = sum((rows[0][k] for k in pos), Fraction(0))
        if need == 0:
            return r
        if total == 0:
            return None
        lam = need / total
        for k in pos:
            r[free[k]] = lam
        return r
    # Several equations, more free cells than equations: keep a basis, the rest at their rounded hint.
    cols = [[rows[e][k] for e in range(len(target_j))] for k in range(len(free))]
    basis = independent_rows(cols, len(target_j))
    if len(basis) < len(target_j):
        return None
    for k in range(len(free)):
        if k not in basis:
            r[free[k]] = Fraction(round(r_hint[free[k]])) if r_hint is not None else Fraction(0)
    rhs2 = [
        rhs[e] - sum((rows[e][k] * r[free[k]] for k in range(len(free)) if k not in basis), Fraction(0))
        for e in range(len(target_j))
    ]
    sol = solve_square([[rows[e][k] for k in basis] for e in range(len(target_j))], rhs2)
    if sol is None:
        return None
    for k, x in zip(basis, sol):
        r[free[k]] = x
    return r


def lp_proposal(c: Coefficients, engine: str | None = None) -> tuple[list[float], list[float]]:
    """Propose (q, r) in floats with HiGHS: min a·q + Σ t s.t. t_i ≥ b_i + G_i·q, t ≥ 0, q in [0,1].

    The LP's row duals are the banker's strategy r. ``engine``: ``highspy`` or ``scipy``
    (:func:`solver.exact.lp.linear_program`); by default highspy where it is installed. The
    answer is only a proposal: :func:`zero_sum` snaps it to rationals and :func:`solve` certifies it.
    """
    m, n = c.G.shape
    # Scale so that the largest coefficient is 1: HiGHS's tolerances (1e-7) are absolute.
    scale = max([int(np.abs(v).max()) for v in (c.a, c.b, c.G) if v.size] + [1])
    # float(x) / scale: one rounding, as int(x) / scale, while the integers are below 2^53 (every finite shoe's
    # coefficients up to about 8 decks); beyond, a proposal may differ in its last bits, which snapping absorbs.
    a, b, G = (np.asarray(v, dtype=float).reshape(v.shape) / float(scale) for v in (c.a, c.b, c.G))
    cost = np.concatenate([a, np.ones(n)])
    A = np.hstack([G.T, -np.eye(n)])
    found = linear_program(
        cost, A_ub=A, b_ub=-b, lo=np.zeros(m + n), hi=np.concatenate([np.ones(m), np.full(n, np.inf)]), engine=engine
    )
    if found is None:
        raise SolverError("the linear program failed: HiGHS found no optimum")
    q = [float(v) for v in found.x[:m]]
    r = [float(-v) for v in found.ineq_duals]
    return q, r


def _snap_q(c: Coefficients, q_hat: list[float]) -> list[Fraction]:
    """Exact q from a float proposal: bounds as read, interior coordinates from tight cells."""
    m = len(q_hat)
    q = [Fraction(0) if x < FLOAT_TOL else Fraction(1) if x > 1 - FLOAT_TOL else None for x in q_hat]
    interior = [j for j in range(m) if q[j] is None]
    if not interior:
        return [x for x in q if x is not None]
    if len(interior) == 1:
        # One mixed set, the others at 0 or 1: minimise f along that coordinate exactly (Foster).
        j = interior[0]
        fixed = [int(x) if x is not None else 0 for x in q]
        restricted = Coefficients(
            c0=0,
            a=np.array([c.a[j]], dtype=object),
            b=c.b + sum((c.G[k] * fixed[k] for k in range(m) if k != j), np.zeros(len(c.b), dtype=object)),
            G=c.G[j : j + 1],
            denominator=c.denominator,
        )
        x, _, _ = foster(restricted)
        return [x if k == j else Fraction(fixed[k]) for k in range(m)]
    D = c.denominator
    qf = np.array(q_hat)
    s_hat = np.array([int(x) / D for x in c.b]) + qf @ np.array([[int(x) / D for x in row] for row in c.G]).reshape(m, -1)
    scale = max(1e-12, float(np.max(np.abs(s_hat))) if len(s_hat) else 1.0)
    tight = sorted(range(len(s_hat)), key=lambda i: abs(s_hat[i]))
    tight = [
        i for i in tight if abs(s_hat[i]) <= 1e-7 * max(1.0, scale) and any(c.G[j][i] != 0 for j in interior)
    ]  # a cell that does not involve them cannot pin them
    rows_all = [[Fraction(int(c.G[j][i]), D) for j in interior] for i in tight]
    known_q = {j: x for j, x in enumerate(q) if x is not None}

    def solve_with(pick: tuple[int, ...]) -> list[Fraction] | None:
        rows = [rows_all[k] for k in pick]
        rhs = []
        for k in pick:
            i = tight[k]
            known = sum((Fraction(int(c.G[j][i]), D) * x for j, x in known_q.items()), Fraction(0))
            rhs.append(-(Fraction(int(c.b[i]), D) + known))
        sol = solve_square(rows, rhs)
        if sol is None or not all(0 <= x <= 1 for x in sol):
            return None
        full = dict(known_q)
        full.update(zip(interior, sol))
        return [full[j] for j in range(m)]

    # Several cells may look tight within the float tolerance: try every independent choice among the
    # closest few and keep the exact minimiser of f.
    from itertools import combinations

    best: tuple[Fraction, list[Fraction]] | None = None
    for pick in combinations(range(min(len(tight), MAX_TIGHT)), len(interior)):
        if rank([rows_all[k] for k in pick]) < len(interior):
            continue
        cand = solve_with(pick)
        if cand is None:
            continue
        f = ponte_guarantee(c, cand)
        if best is None or f < best[0]:
            best = (f, cand)
    if best is None:
        raise SolverError("could not read an exact ponte strategy from the LP answer")
    return best[1]


@dataclass(frozen=True)
class ZeroSumAnswer:
    """An exact optimal pair of the zero-sum game, not yet certified (:func:`solver.chemin.solve.solve` does).

    Attributes:
        q: the ponte's draw probability in each of his sets.
        r: the banker's in each of his.
        method: how the pair was found.
    """

    q: list[Fraction]
    r: list[Fraction]
    method: str


def zero_sum(c: Coefficients) -> ZeroSumAnswer:
    """Exact optimal (q, r) of the zero-sum game with payoff c (banker maximises), uncertified."""
    m = c.G.shape[0]
    if m == 1:
        q0, left, right = foster(c)
        q = [q0]
        slopes = banker_slope_signs(c, q)
        interior = [0] if 0 < q0 < 1 else []
        r = _banker_for_interior(c, q, interior, slopes, None)
        if r is None:
            raise SolverError("no exact banker strategy at the ponte's optimum")
        if not interior:
            # At a bound, keep the ponte's choice a best response: tight cells toward the needed sign.
            r = [_ONE if s > 0 else _ZERO for s in slopes]
            for i, s in enumerate(slopes):
                if s == 0 and (int(c.G[0][i]) > 0) == (q0 == 0):
                    r[i] = Fraction(1)
        return ZeroSumAnswer(q, r, "Foster's algorithm (exact breakpoint walk of f)")
    q_hat, r_hat = lp_proposal(c)
    q = _snap_q(c, q_hat)
    slopes = banker_slope_signs(c, q)
    interior = [j for j in range(m) if 0 < q[j] < 1]
    r = _banker_for_interior(c, q, interior, slopes, r_hat)
    if r is None or not in_unit_interval(r) or banker_guarantee(c, r) != ponte_guarantee(c, q):
        # The LP's dual vertex did not snap cleanly (a degenerate support): search the indifferent
        # cells' box exactly instead.
        inert = tuple(c.b[i] == 0 and not any(c.G[:, i]) for i in range(len(c.b)))
        r = banker_reply(c, c, q, inert)
    if r is None:
        raise SolverError("could not read an exact banker strategy from the LP answer")
    if not interior:
        ps = ponte_slope_signs(c, r)
        for j in range(m):
            if (q[j] == 0 and ps[j] < 0) or (q[j] == 1 and ps[j] > 0):
                raise SolverError("the snapped strategies are not in equilibrium")
    return ZeroSumAnswer(q, r, "linear program (HiGHS) snapped to rationals on its support")


def unique_ponte(c: Coefficients, q: list[Fraction], r: list[Fraction]) -> bool:
    """Sufficient test: q is the only ponte strategy making (q, r) an equilibrium.

    Coordinates where the ponte's slope under r is non-zero are forced; each banker set mixed
    strictly inside (0, 1) gives an equation b_i + G_i·q = 0; full rank pins q.
    """
    m = len(q)
    ps = ponte_slope_signs(c, r)
    free = [j for j in range(m) if ps[j] == 0]
    if not free:
        return True
    rows = [[Fraction(int(c.G[j][i])) for j in free] for i in range(len(r)) if 0 < r[i] < 1]
    return bool(rows) and rank(rows) == len(free)


def unique_banker(c: Coefficients, q: list[Fraction], r: list[Fraction]) -> bool:
    """Sufficient test: r is the only banker strategy making (q, r) an equilibrium.

    Cells where the banker's slope under q is non-zero are forced; each ponte set mixed strictly
    inside (0, 1) gives an equation a_j + G_j·r = 0; full column rank on the unforced cells pins r.
    """
    bs = banker_slope_signs(c, q)
    free = [i for i in range(len(r)) if bs[i] == 0]
    if not free:
        return True
    rows = [[Fraction(int(c.G[j][i])) for i in free] for j in range(len(q)) if 0 < q[j] < 1]
    return bool(rows) and len(free) <= len(rows) and rank(rows) == len(free)


def banker_reply(
    banker_form: Coefficients, ponte_form: Coefficients, q: list[Fraction], inert: tuple[bool, ...] | None = None
) -> list[Fraction] | None:
    """A banker best reply to q under ``banker_form`` to which q is a ponte best reply under ``ponte_form``.

    Forced cells follow the sign of their slope. The indifferent cells T are searched at the vertices
    of the polytope of replies that keep q a best reply: |J| cells of T solve equations of the ponte's
    slope (J: his mixed sets, whose slope must be 0, and, where that is not enough, some pure sets whose
    best-reply inequality is tight there), the others sit at 0 or 1; the ponte's pure sets must then be
    best replies. Every non-empty bounded polytope has such a vertex, so the search is complete: None
    means no reply exists, or T has more than :data:`MAX_TIGHT` cells.
    """
    from itertools import combinations, product

    slopes = banker_slope_signs(banker_form, q)
    r = [_ONE if s > 0 else _ZERO for s in slopes]
    tight = [i for i, s in enumerate(slopes) if s == 0 and not (inert and inert[i])]
    if len(tight) > MAX_TIGHT:
        return None
    D = ponte_form.denominator
    mixed = [j for j, x in enumerate(q) if 0 < x < 1]
    pure = [j for j, x in enumerate(q) if not 0 < x < 1]

    def ponte_ok(rr: list[Fraction]) -> bool:
        ps = ponte_slope_signs(ponte_form, rr)
        return all((x == 0 and p >= 0) or (x == 1 and p <= 0) or (0 < x < 1 and p == 0) for x, p in zip(q, ps))

    # The mixed sets' equations alone first (the vertices where no pure set is indifferent), then with
    # one, two, ... pure sets' inequalities tight.
    for extra in range(len(tight) - len(mixed) + 1):
        for tight_pure in combinations(pure, extra):
            equations = mixed + list(tight_pure)
            for basis in combinations(tight, len(equations)):
                rest = [i for i in tight if i not in basis]
                for corner in product((Fraction(0), Fraction(1)), repeat=len(rest)):
                    rr = list(r)
                    for i, v in zip(rest, corner):
                        rr[i] = v
                    if equations:
                        rows = [[Fraction(int(ponte_form.G[j][i]), D) for i in basis] for j in equations]
                        # Outside the basis every cell is at 0 or 1: each equation's known part is an integer sum.
                        rhs = [
                            -Fraction(
                                int(ponte_form.a[j])
                                + sum(int(ponte_form.G[j][i]) for i in range(len(rr)) if rr[i] and i not in basis),
                                D,
                            )
                            for j in equations
                        ]
                        sol = solve_square(rows, rhs)
                        if sol is None or not all(0 <= x <= 1 for x in sol):
                            continue
                        for i, x in zip(basis, sol):
                            rr[i] = x
                    if ponte_ok(rr):
                        return rr
    return None
