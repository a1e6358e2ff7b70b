"""The independent cooperative solution: the team restricted to independent (product) choices.

Against the banker the team now mixes Player 1's and Player 2's choices independently: moments
z[j, k] = x_j y_k. For a fixed banker strategy the team's best reply is pure either way, so
max_r min over product strategies = max_r min over correlated ones = v, the correlated value; but
min over product strategies of the team's guarantee f can exceed v. The independent cooperative
equilibrium (Downton and Lockwood's solution, in Ethier and Lee's name) exists iff some product
strategy is optimal in the correlated game.

Deciding it exactly. Fix one optimal banker strategy r* (from the correlated solution). In a zero-sum
game a team strategy is optimal iff it is a best reply to r* and r* is a best reply to it. So a
product strategy (x, y) is optimal iff

* every pure strategy in its support is a team best reply to r*: Player 1's pure strategies a in the
  support have the least cost, and on each Player 2 set the sign of his slope g_a,k(r*) over those a
  allows y_k (negative: draw, positive: stand, zero: free);
* r* is a best reply to z(x, y): the banker's slope s_i(x y) is zero where r*_i is mixed, ≥ 0 where
  r*_i = 1, ≤ 0 where r*_i = 0: bilinear equations and inequalities in the mixed sets.

Every pattern of Player 1 (each set stands, draws or mixes) is tried; the equations are solved
exactly (all their real solutions in the box, by a lexicographic Gröbner basis) and the inequalities
checked exactly. All patterns infeasible proves that no independent cooperative equilibrium exists.

When it does not exist, the team's best guarantee with independent choices, min f over product
strategies, is searched in floats and the best point found is made exact; its guarantee f is exact
for that strategy. That it is the minimum is not proved (the problem is not convex).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from solver.banque.correlated import CorrelatedAnswer
from solver.banque.polysys import evaluate, real_solutions, solve_near
from solver.banque.team import TeamView
from solver.exact.numberfield import FieldElement

Poly = dict[tuple[int, ...], int]


@dataclass(frozen=True)
class IndependentAnswer:
    """The independent cooperative solution, or the team's best guarantee with independent choices.

    Attributes:
        exists: True (an optimal product strategy exists: the equilibrium), False (proved not to exist),
            None (not decided).
        x, y: the product strategy: optimal when ``exists``, else the best found.
        banker: the banker's optimal strategy r* (when ``exists``), else None.
        value: the banker's expected payoff: the value when ``exists``, else the team's guarantee f at (x, y).
        optimal: the guarantee is proved the best among product strategies (True when ``exists``).
        method: how the answer was obtained.
    """

    exists: bool | None
    x: tuple[Any, ...]
    y: tuple[Any, ...]
    banker: tuple[Fraction, ...] | None
    value: Any
    optimal: bool
    method: str


def _cell_polys(
    view: TeamView, fixed_x: list[Any], fixed_y: list[Any], var: dict[tuple[str, int], int]
) -> tuple[Poly, list[Poly]]:
    """The team's base part and every cell's slope as integer polynomials in the free variables."""
    p = view.payoff
    j, k, i = p.monomials
    nvar = len(var)
    base: Poly = {}
    cells: list[Poly] = [{} for _ in range(view.shape[2])]
    for jj, kk, ii, c in zip(j.tolist(), k.tolist(), i.tolist(), p.coef.tolist()):
        expo = [0] * nvar
        coef = Fraction(c)
        for side, idx, fixed in (("x", jj, fixed_x), ("y", kk, fixed_y)):
            if idx < 0:
                continue
            if (side, idx) in var:
                expo[var[side, idx]] += 1
            else:
                coef *= fixed[idx]
        if coef == 0:
            continue
        target = base if ii < 0 else cells[ii]
        key = tuple(expo)
        target[key] = target.get(key, 0) + coef  # type: ignore[assignment]
    return base, cells


def _separate_linear(eqs: list[Poly], nvar: int) -> list[list[Any]] | None:
    """The solutions in [0, 1]^nvar when every equation is linear in a single variable (each variable then
    has its own equations: one common root or none), without a Gröbner basis; None if not of that form."""
    value: dict[int, Fraction] = {}
    for e in eqs:
        used = {q for expo in e for q, d in enumerate(expo) if d}
        if len(used) != 1 or any(d > 1 for expo in e for d in expo):
            return None
        (q,) = used
        a = sum((Fraction(c) for expo, c in e.items() if expo[q] == 1), Fraction(0))
        b = sum((Fraction(c) for expo, c in e.items() if expo[q] == 0), Fraction(0))
        if a == 0:
            if b != 0:
                return []
            continue
        root = -b / a
        if value.setdefault(q, root) != root:
            return []
    if len(value) < nvar:
        return None
    point = [value[q] for q in range(nvar)]
    return [point] if all(0 <= v <= 1 for v in point) else []


def _feasible(eqs: list[Poly], ineqs: list[tuple[Poly, int]], nvar: int, open_vars: set[int]) -> tuple[bool | None, list[Any]]:
    """Whether some point of [0, 1]^nvar (open in ``open_vars``) satisfies the equations and the sign
    conditions (poly · sign ≥ 0); with a witness. None: undecided."""
    if nvar == 0:
        ok = all(evaluate(e, []) == 0 for e in eqs) and all(evaluate(p, []) * s >= 0 for p, s in ineqs)
        return ok, []
    used = sorted({q for e in eqs for expo in e for q, d in enumerate(expo) if d})
    rest = [q for q in range(nvar) if q not in used]
    if used:
        sub = [{tuple(expo[q] for q in used): c for expo, c in e.items()} for e in eqs]
        sols = _separate_linear(sub, len(used))
        if sols is None:
            sols = real_solutions(sub, len(used))
        if sols is None:
            return None, []
    else:
        sols = [[]]
    undecided = False
    for sol in sols:
        if any(used[n] in open_vars and (v == 0 or v == 1) for n, v in enumerate(sol)):
            continue
        point: list[Any] = [None] * nvar
        for n, q in enumerate(used):
            point[q] = sol[n]
        # The remaining variables: each condition must be linear in at most one of them.
        lo = {q: Fraction(0) for q in rest}
        hi = {q: Fraction(1) for q in rest}
        strict = {q: (q in open_vars) for q in rest}
        ok = True
        for poly, sign in ineqs:
            parts: dict[int, Any] = {}
            const: Any = 0
            for expo, c in poly.items():
                term: Any = c
                free_q = None
                for q, d in enumerate(expo):
                    if not d:
                        continue
                    if q in rest:
                        if free_q is not None or d > 1:
                            return None, []
                        free_q = q
                    else:
                        term = term * point[q] ** d
                if free_q is None:
                    const = const + term
                else:
                    parts[free_q] = parts.get(free_q, 0) + term
            parts = {q: v for q, v in parts.items() if v != 0}
            if len(parts) > 1:
                undecided = True
                ok = False
                break
            if not parts:
                if const * sign < 0:
                    ok = False
                    break
                continue
            ((q, a),) = parts.items()
            if isinstance(a, FieldElement) or isinstance(const, FieldElement):
                undecided = True
                ok = False
                break
            bound = Fraction(-const) / Fraction(a)  # a·v + const has the sign `sign` from here on
            if (a > 0) == (sign > 0):
                lo[q] = max(lo[q], bound)
            else:
                hi[q] = min(hi[q], bound)
        if not ok:
            continue
        if any(lo[q] > hi[q] or (strict[q] and (lo[q] >= 1 or hi[q] <= 0 or lo[q] == hi[q])) for q in rest):
            continue
        for q in rest:
            point[q] = (lo[q] + hi[q]) / 2
        return True, point
    return (None if undecided else False), []


def independent(
    view: TeamView, corr: CorrelatedAnswer, seeds: Sequence[tuple[Sequence[Any], Sequence[Any]]] = ()
) -> IndependentAnswer:
    """Decide whether an independent cooperative equilibrium exists, exactly; find it, or the team's best
    guarantee with independent choices (see the module docstring). ``seeds`` are product strategies to
    start the search from (a Nash equilibrium's, say: its guarantee is the banker's payoff there)."""
    r = list(corr.banker)
    const, slopes = view.atom_parts(r)
    costs = [c + sum((g for g in gs if g < 0), 0) for c, gs in zip(const, slopes)]
    best = min(costs)
    m1, m2, n = view.shape
    undecided = False
    for pattern in itertools.product(("0", "1", "m"), repeat=m1):
        atoms = [q for q, a in enumerate(view.atoms) if all(p == "m" or int(p) == a[j] for j, p in enumerate(pattern))]
        if any(costs[q] != best for q in atoms):
            continue
        fixed_y: list[Any] = [Fraction(0)] * m2
        free_y = []
        ok = True
        for k in range(m2):
            signs = {(slopes[q][k] > 0) - (slopes[q][k] < 0) for q in atoms}
            if signs <= {0}:
                free_y.append(k)
            elif signs <= {0, 1}:
                fixed_y[k] = Fraction(0)
            elif signs <= {0, -1}:
                fixed_y[k] = Fraction(1)
            else:
                ok = False
        if not ok:
            continue
        free_x = [j for j, p in enumerate(pattern) if p == "m"]
        fixed_x: list[Any] = [Fraction(int(p)) if p != "m" else Fraction(0) for p in pattern]
        var = {("x", j): n for n, j in enumerate(free_x)}
        var.update({("y", k): len(free_x) + n for n, k in enumerate(free_y)})
        _, cells = _cell_polys(view, fixed_x, fixed_y, var)
        eqs = [cells[i] for i in range(n) if 0 < r[i] < 1 and cells[i]]
        ineqs = [(cells[i], 1 if r[i] == 1 else -1) for i in range(n) if r[i] in (0, 1) and cells[i]]
        verdict, point = _feasible(eqs, ineqs, len(var), set(range(len(free_x))))
        if verdict is None:
            undecided = True
            continue
        if verdict:
            x = list(fixed_x)
            y = list(fixed_y)
            for (side, q), v in var.items():
                (x if side == "x" else y)[q] = point[v]
            z = view.product_moments(x, y)
            if view.guarantee_team(z) != corr.value:  # pragma: no cover - the conditions above imply it
                continue
            return IndependentAnswer(
                True,
                tuple(x),
                tuple(y),
                tuple(r),
                corr.value,
                True,
                "support patterns against an optimal banker strategy, solved exactly; "
                "certified by f(x y) = h(r*) in exact arithmetic",
            )
    x, y = _best_product(view, [([float(v) for v in sx], [float(v) for v in sy]) for sx, sy in seeds])
    for sx, sy in seeds:  # an exact seed no worse than the point found is kept
        if view.guarantee_team(view.product_moments(list(sx), list(sy))) < view.guarantee_team(view.product_moments(x, y)):
            x, y = list(sx), list(sy)
    value = view.guarantee_team(view.product_moments(x, y))
    how = (
        "no independent cooperative equilibrium: every support pattern is infeasible (exact); "
        if not undecided
        else "existence not decided (a support pattern could not be decided exactly); "
    )
    return IndependentAnswer(
        None if undecided else False,
        tuple(x),
        tuple(y),
        None,
        value,
        False,
        how + "best guarantee with independent choices searched in floats, exact at the "
        "strategy found; its optimality is not proved",
    )


def _best_product(view: TeamView, seeds: Sequence[tuple[list[float], list[float]]] = ()) -> tuple[list[Any], list[Any]]:
    """The product strategy with the least guarantee found: a float search (multi-start, Powell), then an
    exact polish (the cells at their kinks solved exactly for the interior variables, each coordinate
    then the simplest rational within 10^-12 of it) kept if its exact guarantee is no worse than the
    float point made rational. Not claimed optimal."""
    from scipy.optimize import minimize

    m1, m2, _ = view.shape
    obj, cells, _ = view.lp_matrices()

    def moments(v: np.ndarray) -> np.ndarray:
        return np.outer(np.append(1.0, v[:m1]), np.append(1.0, v[m1:])).ravel()

    def f(v: np.ndarray) -> float:
        z = moments(np.clip(v, 0, 1))
        return float(obj @ z + np.maximum(cells @ z, 0).sum())

    rng = np.random.default_rng(2015)
    starts = [np.array(sx + sy) for sx, sy in seeds]
    starts += [np.full(m1 + m2, 0.5), np.ones(m1 + m2)] + [rng.random(m1 + m2) for _ in range(6)]
    box = [(0, 1)] * (m1 + m2)
    best = min((minimize(f, s, method="Powell", bounds=box) for s in starts), key=lambda r: r.fun)
    # Powell stops within about 1e-4 of a minimum; from the best start, it is run again to the floats'
    # precision, where the cells that meet at the minimum are plain (the exact polish below finds them)
    # and the point does not depend on the search's path (nor on scipy's version).
    tight = minimize(f, best.x, method="Powell", bounds=box, options={"xtol": 1e-12, "ftol": 1e-15, "maxiter": 100_000})
    best = tight if tight.fun <= best.fun else best
    v = np.clip(best.x, 0, 1)
    rounded: list[Any] = [Fraction(float(t)).limit_denominator(10**12) for t in v]
    snapped: list[Any] = [Fraction(round(t)) if min(t, 1 - t) <= 1e-3 else q for t, q in zip(v, rounded)]
    candidates = [rounded, snapped]
    interior = [q for q in range(m1 + m2) if 1e-3 < v[q] < 1 - 1e-3]
    slopes = cells @ moments(v)
    scale = float(np.max(np.abs(slopes))) or 1.0
    kinks = [i for i in np.argsort(np.abs(slopes)).tolist() if abs(slopes[i]) < 1e-7 * scale][: 2 * len(interior) + 2]
    if interior and len(kinks) >= len(interior):
        fixed_x = [Fraction(round(t)) for t in v[:m1]]
        fixed_y = [Fraction(round(t)) for t in v[m1:]]
        var = {(("x", q) if q < m1 else ("y", q - m1)): n for n, q in enumerate(interior)}
        _, polys = _cell_polys(view, fixed_x, fixed_y, var)
        for pick in itertools.combinations(kinks, len(interior)):
            sol = solve_near([polys[i] for i in pick], [float(v[q]) for q in interior], tolerance=1e-5)
            if sol is not None:
                point: list[Any] = list(fixed_x) + list(fixed_y)
                for n, q in enumerate(interior):
                    point[q] = _rational_near(sol[n])
                candidates.append(point)
                break
    scored = [(view.guarantee_team(view.product_moments(c[:m1], c[m1:])), n, c) for n, c in enumerate(candidates)]
    _, _, chosen = min(scored, key=lambda t: (t[0], -t[1]))
    return list(chosen[:m1]), list(chosen[m1:])


def _rational_near(v: Any) -> Fraction:
    """A polished coordinate as a rational: itself, or for an algebraic number the fraction with the least
    denominator up to 10^12 nearest it, from its exact isolating interval (so the same on any machine,
    whatever floats led to it)."""
    if isinstance(v, (int, Fraction)):
        return Fraction(v)
    exact = v.rational()
    if exact is not None:
        return Fraction(exact)
    lo, hi = v.interval(Fraction(1, 10**30))
    middle: Fraction = (lo + hi) / 2
    return middle.limit_denominator(10**12)
