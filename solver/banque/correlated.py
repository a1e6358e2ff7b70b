"""The correlated cooperative solution: the two players as one team with a shared random device.

The team's strategy is (λ, v) (:mod:`solver.banque.team`); the game against the banker is zero-sum
(no tax) and its value is a linear program, the team's guarantee min f:

    minimise  obj · z(w) + Σ_i t_i   subject to   t_i ≥ s_i(z(w)),  t ≥ 0,
              Σ_a λ_a = 1,  0 ≤ v_a,k ≤ λ_a,                         (w = (λ, v), z the moments)

whose dual prices of the constraints t_i ≥ s_i are the banker's draw probabilities r_i. HiGHS proposes
(w, r) in floats; the team's strategy is snapped to rationals by solving exactly the equations of
its support (the cells where the banker is indifferent, and Σ λ = 1), the banker's by solving the
team's indifference equations on those cells; then f(z*) = h(r*) is checked in exact rationals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product
from typing import Any

import numpy as np

from solver.banque.team import TeamView
from solver.errors import SolverError
from solver.exact.linalg import independent_rows, solve_square
from solver.exact.lp import FLOAT_TOL, linear_program

MAX_SEARCH = 10
"""Most indifferent cells searched exhaustively when a snapped banker strategy does not certify."""


@dataclass(frozen=True)
class TeamStrategy:
    """A correlated team strategy: λ_a for Player 1's pure strategy a, and v_a,k = λ_a × P(draw at k | a)."""

    atoms: tuple[tuple[int, ...], ...]
    lam: tuple[Fraction, ...]
    v: tuple[tuple[Fraction, ...], ...]

    def player1_marginal(self) -> tuple[Fraction, ...]:
        m1 = len(self.atoms[0]) if self.atoms else 0
        return tuple(sum((la for a, la in zip(self.atoms, self.lam) if a[j]), Fraction(0)) for j in range(m1))

    def player2_marginal(self) -> tuple[Fraction, ...]:
        m2 = len(self.v[0]) if self.v else 0
        return tuple(sum((va[k] for va in self.v), Fraction(0)) for k in range(m2))

    def support(self) -> list[tuple[tuple[int, ...], Fraction, tuple[Fraction, ...]]]:
        """(Player 1's pure strategy, its probability, Player 2's conditional draw probabilities)."""
        return [(a, la, tuple(x / la for x in va)) for a, la, va in zip(self.atoms, self.lam, self.v) if la > 0]


def _lp(view: TeamView) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Float proposal: (λ, v, r, slopes s_i at the proposal)."""
    from scipy.sparse import bmat, csr_matrix, eye, hstack

    obj, cells, to_moments = view.lp_matrices()
    na = len(view.atoms)
    m2, n = view.shape[1], view.shape[2]
    nw = na * (1 + m2)
    a_cells = cells @ to_moments
    rows, cols, vals = [], [], []
    for a in range(na):
        for k in range(m2):
            r = a * m2 + k
            rows += [r, r]
            cols += [na + a * m2 + k, a]
            vals += [1.0, -1.0]
    bound_v = csr_matrix((vals, (rows, cols)), shape=(na * m2, nw))
    a_ub = bmat([[a_cells, -eye(n)], [bound_v, None]], format="csr") if m2 else hstack([a_cells, -eye(n)], format="csr")
    cost = np.concatenate([to_moments.T @ obj, np.ones(n)])
    a_eq = np.concatenate([np.ones(na), np.zeros(nw - na + n)])[None, :]
    res = linear_program(cost, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), A_eq=a_eq, b_eq=np.ones(1))
    if res is None:
        raise SolverError("the team's linear program failed: HiGHS found no optimum")
    w = res.x[:nw]
    r = np.clip(-res.ineq_duals[:n], 0.0, 1.0)
    return w[:na], w[na:].reshape(na, m2), r, a_cells @ w


def _snap_team(view: TeamView, lam: np.ndarray, v: np.ndarray, s_hat: np.ndarray) -> tuple[list[Fraction], list[list[Fraction]]]:
    """Exact (λ, v) on the support read from the float proposal."""
    na, (m1, m2, _) = len(view.atoms), view.shape
    pos = [a for a in range(na) if lam[a] > FLOAT_TOL]
    status: dict[tuple[int, int], str] = {}
    for a in pos:
        for k in range(m2):
            status[a, k] = "0" if v[a, k] < FLOAT_TOL else "top" if v[a, k] > lam[a] - FLOAT_TOL else "in"
    unknowns = [("l", a, -1) for a in pos] + [("v", a, k) for (a, k), s in status.items() if s == "in"]

    def contrib(u: tuple[str, int, int]) -> list[int]:
        """Moments that unknown u adds 1 to."""
        kind, a, k = u
        js = [-1] + [j for j in range(m1) if view.atoms[a][j]]
        ks = [-1] + [kk for kk in range(m2) if status[a, kk] == "top"] if kind == "l" else [k]
        return [(j + 1) * (m2 + 1) + (kk + 1) for j in js for kk in ks]

    p = view.payoff
    _, _, icol = p.monomials
    scale = max(1e-300, float(np.max(np.abs(s_hat))) if len(s_hat) else 1.0)
    tight = [i for i in np.argsort(np.abs(s_hat)) if abs(s_hat[i]) <= 1e-7 * scale]
    rows = [[Fraction(1 if u[0] == "l" else 0) for u in unknowns]]
    rhs = [Fraction(1)]
    by_cell: dict[int, dict[int, int]] = {int(i): {} for i in tight}
    for mo, ii, c in zip(view.moment.tolist(), icol.tolist(), p.coef.tolist()):
        if ii in by_cell:
            by_cell[ii][mo] = by_cell[ii].get(mo, 0) + c
    for i in tight:
        row = by_cell[int(i)]
        rows.append([Fraction(sum(row.get(mo, 0) for mo in contrib(u))) for u in unknowns])
        rhs.append(Fraction(0))
    pick = independent_rows(rows, len(unknowns))
    if len(pick) < len(unknowns) or pick[0] != 0:
        raise SolverError("could not read an exact team strategy from the LP answer (degenerate support)")
    sol = solve_square([rows[q] for q in pick], [rhs[q] for q in pick])
    if sol is None:
        raise SolverError("could not read an exact team strategy from the LP answer (singular support)")
    values = dict(zip(unknowns, sol))
    lam_x = [values.get(("l", a, -1), Fraction(0)) for a in range(na)]
    v_x = [[Fraction(0)] * m2 for _ in range(na)]
    for a in pos:
        for k in range(m2):
            v_x[a][k] = lam_x[a] if status[a, k] == "top" else values.get(("v", a, k), Fraction(0))
    if any(x < 0 for x in lam_x) or any(not 0 <= v_x[a][k] <= lam_x[a] for a in range(na) for k in range(m2)):
        raise SolverError("the snapped team strategy is not a strategy")
    return lam_x, v_x


def snap_banker(
    view: TeamView, lam: list[Fraction], v: list[list[Fraction]], r_hat: Sequence[float], best_reply_of: TeamView | None = None
) -> list[Fraction] | None:
    """An exact banker strategy that keeps the team's strategy (λ, v) a best reply under ``view``'s payoff
    and is itself a best reply to it under ``best_reply_of``'s (default: the same, the zero-sum game);
    certified exactly, or None if the search fails.

    Zero-sum: certified by f(z) = h(r). With a tax (``best_reply_of`` the banker's net payoff, ``view``
    the gross one the team minimises): the team's payoff at (z, r) equals its best-reply value h(r), and
    the banker's cells follow the signs of his net slopes.
    """
    z = view.moments(lam, v)
    _, slopes = (best_reply_of or view).cell_slopes(z)
    r = [Fraction(1) if s > 0 else Fraction(0) for s in slopes]
    dead = view.payoff.dead("r") & (best_reply_of.payoff.dead("r") if best_reply_of is not None else True)
    tight = [i for i, s in enumerate(slopes) if s == 0 and not dead[i]]
    na, m2 = len(view.atoms), view.shape[1]
    pos = [a for a in range(na) if lam[a] > 0]
    tops = {a: [k for k in range(m2) if v[a][k] == lam[a]] for a in pos}
    interior = [(a, k) for a in pos for k in range(m2) if 0 < v[a][k] < lam[a]]
    target = view.guarantee_team(z) if best_reply_of is None else None
    base_z, gross_slopes = view.cell_slopes(z)

    def equations(rr: list[Fraction], free: list[int]) -> tuple[list[list[Fraction]], list[Fraction]]:
        """The team's indifference equations, linear in the free cells: rows and right-hand sides."""
        rows, rhs = [], []
        base = list(rr)
        for i in free:
            base[i] = Fraction(0)
        const0, g0 = view.atom_parts(base)
        parts = view.cell_parts(free)
        unit = []
        for i in free:
            dc, dg = parts[i]
            unit.append(([a + b for a, b in zip(const0, dc)], [[a + b for a, b in zip(ra, rb)] for ra, rb in zip(g0, dg)]))
        # Player 2 indifferent where v is interior.
        for a, k in interior:
            rows.append([u[1][a][k] - g0[a][k] for u in unit])
            rhs.append(-g0[a][k])

        # Equal costs across the atoms played.
        def cost(c: list[Any], g: list[list[Any]], a: int) -> Any:
            return c[a] + sum((g[a][k] for k in tops[a]), 0)

        for a in pos[1:]:
            a0 = pos[0]
            rows.append([cost(u[0], u[1], a) - cost(const0, g0, a) - cost(u[0], u[1], a0) + cost(const0, g0, a0) for u in unit])
            rhs.append(cost(const0, g0, a0) - cost(const0, g0, a))
        return rows, rhs

    def certify(rr: list[Fraction]) -> bool:
        if not all(0 <= x <= 1 for x in rr):
            return False
        if target is not None:
            return bool(view.guarantee_banker(rr) == target)
        played = (base_z + sum((s * x for s, x in zip(gross_slopes, rr)), Fraction(0))) / view.payoff.denominator
        return bool(view.guarantee_banker(rr) == played)

    # First: the LP's dual, the undetermined cells at their float values (rounded, or near rationals, or
    # all at 0 or 1) except a basis that solves the team's indifference equations exactly.
    if tight:
        rows0, _ = equations(r, tight)
        order = sorted(range(len(tight)), key=lambda q: -min(r_hat[tight[q]], 1 - r_hat[tight[q]]))
        cols = [[rows0[e][q] for e in range(len(rows0))] for q in order]
        basis = [order[q] for q in independent_rows(cols, len(rows0))]
        pick = independent_rows(rows0, len(basis))
        fills: list[Callable[[int], Fraction]] = [
            lambda q: Fraction(round(float(r_hat[tight[q]]))),
            lambda q: Fraction(float(min(1.0, max(0.0, r_hat[tight[q]])))).limit_denominator(10**6),
            lambda q: Fraction(0),
            lambda q: Fraction(1),
        ]
        for fill in fills:
            cand = list(r)
            for q in range(len(tight)):
                cand[tight[q]] = fill(q)
            if basis:
                rows, rhs = equations(cand, tight)
                sol = solve_square(
                    [[rows[e][q] for q in basis] for e in pick],
                    [
                        rhs[e] - sum((rows[e][q] * cand[tight[q]] for q in range(len(tight)) if q not in basis), Fraction(0))
                        for e in pick
                    ],
                )
                if sol is None:
                    continue
                for q, x in zip(basis, sol):
                    cand[tight[q]] = x
            if certify(cand):
                return cand
    elif certify(r):
        return r
    # Then: a vertex of the feasible set of the indifferent cells (equalities, and the team's pure
    # choices' inequalities), proposed by a small LP in floats and solved exactly on its active set.
    if tight:
        found = _vertex(view, r, tight, equations, pos, tops, v, lam, m2)
        if found is not None and certify(found):
            return found
    # Last: the vertices of the indifferent cells' box (few cells only).
    if len(tight) > MAX_SEARCH:
        return None
    rows_all, _ = equations(r, tight)
    need = len(independent_rows(rows_all)) if rows_all else 0
    for chosen in combinations(range(len(tight)), need):
        basis = list(chosen)
        rest = [q for q in range(len(tight)) if q not in basis]
        for corner in product((Fraction(0), Fraction(1)), repeat=len(rest)):
            cand = list(r)
            for q, x in zip(rest, corner):
                cand[tight[q]] = x
            if basis:
                rows, rhs = equations(cand, [tight[q] for q in basis])
                pick = independent_rows(rows, len(basis))
                if len(pick) < len(basis):
                    continue
                sol = solve_square([rows[e] for e in pick], [rhs[e] for e in pick])
                if sol is None:
                    continue
                for q, x in zip(basis, sol):
                    cand[tight[q]] = x
            if certify(cand):
                return cand
    return None


def _vertex(
    view: TeamView,
    r: list[Fraction],
    tight: list[int],
    equations: Any,
    pos: list[int],
    tops: dict[int, list[int]],
    v: list[list[Fraction]],
    lam: list[Fraction],
    m2: int,
) -> list[Fraction] | None:
    """A point of {r_T in [0, 1]^T: the team's indifference equations; Player 2's pure choices in the atoms
    played stay best replies} at a vertex found by HiGHS, then solved exactly on its active constraints."""
    base = list(r)
    for i in tight:
        base[i] = Fraction(0)
    eq_rows, eq_rhs = equations(base, tight)
    const0, g0 = view.atom_parts(base)
    parts = view.cell_parts(tight)
    # Inequalities: sign(g_a,k) as Player 2 plays in atom a (top: g <= 0, bottom: g >= 0), written as <= 0.
    in_rows, in_rhs = [], []
    for a in pos:
        for k in range(m2):
            if 0 < v[a][k] < lam[a]:
                continue
            sign = 1 if v[a][k] == lam[a] else -1
            in_rows.append([sign * parts[i][1][a][k] for i in tight])
            in_rhs.append(-sign * g0[a][k])
    del const0
    scale = max([abs(float(x)) for row in eq_rows + in_rows for x in row] + [1e-300])

    def scaled(rows: list[Any]) -> np.ndarray | None:
        return np.array([[float(x) / scale for x in row] for row in rows]) if rows else None

    def scaled_rhs(rhs: list[Any]) -> np.ndarray | None:
        return np.array([float(x) / scale for x in rhs]) if rhs else None

    res = linear_program(
        np.zeros(len(tight)),
        A_ub=scaled(in_rows),
        b_ub=scaled_rhs(in_rhs),
        A_eq=scaled(eq_rows),
        b_eq=scaled_rhs(eq_rhs),
        hi=np.ones(len(tight)),
    )
    if res is None:
        return None
    rf = res.x
    # Active constraints: equalities, tight inequalities, variables at a bound.
    active_rows = [list(row) for row in eq_rows]
    active_rhs = list(eq_rhs)
    for row, rhs in zip(in_rows, in_rhs):
        if abs(sum(float(x) * t for x, t in zip(row, rf)) - float(rhs)) <= FLOAT_TOL * scale:
            active_rows.append(list(row))
            active_rhs.append(rhs)
    for q, t in enumerate(rf):
        if t < FLOAT_TOL or t > 1 - FLOAT_TOL:
            e = [Fraction(0)] * len(tight)
            e[q] = Fraction(1)
            active_rows.append(e)
            active_rhs.append(Fraction(0 if t < 0.5 else 1))
    pick = independent_rows(active_rows, len(tight))
    if len(pick) < len(tight):
        return None
    sol = solve_square([active_rows[q] for q in pick], [active_rhs[q] for q in pick])
    if sol is None:
        return None
    out = list(r)
    for i, x in zip(tight, sol):
        out[i] = x
    return out


@dataclass(frozen=True)
class CorrelatedAnswer:
    """The certified correlated cooperative solution of a zero-sum banque game."""

    value: Fraction
    team: TeamStrategy
    banker: tuple[Fraction, ...]
    method: str


def correlated(view: TeamView) -> CorrelatedAnswer:
    """Solve the team-versus-banker game with a shared random device, exactly, and certify it.

    ``view`` is the banker's payoff seen by the team (the team minimises it, the banker maximises it).

    Raises:
        SolverError: the LP failed or its answer could not be turned into a certified exact one.
    """
    lam_f, v_f, r_f, s_hat = _lp(view)
    lam, v = _snap_team(view, lam_f, v_f, s_hat)
    r = snap_banker(view, lam, v, r_f.tolist())
    if r is None:
        raise SolverError("could not find an exact banker strategy certifying the team's LP optimum")
    f = view.guarantee_team(view.moments(lam, v))
    h = view.guarantee_banker(r)
    if f != h:  # pragma: no cover - snap_banker only returns certified strategies
        raise SolverError(f"certification failed: f = {f} but h = {h}")
    team = TeamStrategy(view.atoms, tuple(lam), tuple(tuple(x) for x in v))
    return CorrelatedAnswer(
        value=f,
        team=team,
        banker=tuple(r),
        method="linear program (HiGHS) over the team's correlated strategies, snapped to "
        "rationals on its support; certified by f(z) = h(r) in exact rationals",
    )
