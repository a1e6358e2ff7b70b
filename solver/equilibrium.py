"""Solving the additive chemin de fer game exactly, with certificates.

Zero-sum (no commission). Given the ponte's q, the banker's best response is chosen cell by cell,
so the ponte's guarantee is the convex piecewise-linear

    f(q) = c0 + a·q + Σ_i max(0, b_i + G_i·q),

and the banker's guarantee is h(r) = c0 + b·r + Σ_j min(0, a_j + G_j·r). By LP duality
min f = max h; a pair with f(q*) = h(r*), checked in exact rationals, is optimal, and that equality
is the certificate. One ponte information set: Foster's algorithm, exact, walking the breakpoints of
f. Several: a linear program (scipy's HiGHS) proposes (q, r) in floats; the answer is snapped to
rationals by solving the equations of its support exactly, and then certified.

With commission α the game is bimatrix: the ponte minimises the banker's gross result, the banker
maximises his net result. The banker's best response depends on the net coefficients only, so an
equilibrium q is an optimal strategy of the zero-sum game on the *net* payoff; the banker's
equilibrium r then makes the ponte indifferent on the *gross* payoff in the ponte's mixed sets. Each
candidate is verified exactly, cell by cell (no player gains by deviating). With one ponte
information set every equilibrium is enumerated (candidates: 0, 1 and the breakpoints of the
banker's net slopes), so uniqueness is decided.

Iterated strict dominance is reported for every game: which cells are settled, by what exact margin.

>>> from solver.cards import Shoe
>>> from solver.game import build_game
>>> s = solve(build_game(Shoe.infinite(), 1, "parlor"))
>>> s.q, s.certified, s.unique_ponte
((Fraction(9, 11),), True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from solver.errors import SolverError
from solver.game import Coefficients, Game

FLOAT_TOL = 1e-9
"""Tolerance used only to read a float LP answer (which bound, which cells tight); never to certify."""


# -- exact helpers ----------------------------------------------------------------------------------


def _common(xs: list[Fraction]) -> tuple[list[int], int]:
    d = math.lcm(*(x.denominator for x in xs)) if xs else 1
    return [int(x * d) for x in xs], d


def banker_slopes(c: Coefficients, q: list[Fraction]) -> list[Fraction]:
    """Exact gain of drawing over standing in each banker set, given q (per unit, not per denominator)."""
    nums, d = _common(q)
    qa = np.array(nums, dtype=object)
    s = c.b * d + (qa @ c.G if len(q) else 0)
    return [Fraction(int(x), d * c.denominator) for x in s]


def ponte_slopes(c: Coefficients, r: list[Fraction]) -> list[Fraction]:
    """Exact change of the payoff when the ponte draws in each of his sets, given r."""
    nums, d = _common(r)
    ra = np.array(nums, dtype=object)
    s = c.a * d + (c.G @ ra if len(r) else 0)
    return [Fraction(int(x), d * c.denominator) for x in s]


def ponte_guarantee(c: Coefficients, q: list[Fraction]) -> Fraction:
    """f(q): the most the banker can get against q (the ponte's guarantee)."""
    base = Fraction(c.c0, c.denominator) + sum((Fraction(int(a), c.denominator) * x for a, x in zip(c.a, q)), Fraction(0))
    return base + sum((s for s in banker_slopes(c, q) if s > 0), Fraction(0))


def banker_guarantee(c: Coefficients, r: list[Fraction]) -> Fraction:
    """h(r): the least the ponte can hold the banker to against r (the banker's guarantee)."""
    base = Fraction(c.c0, c.denominator) + sum((Fraction(int(b), c.denominator) * x for b, x in zip(c.b, r)), Fraction(0))
    return base + sum((s for s in ponte_slopes(c, r) if s < 0), Fraction(0))


def _solve_exact(rows: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """Solve a square system exactly by Gaussian elimination; None if singular."""
    n = len(rows)
    m = [list(r) + [b] for r, b in zip(rows, rhs)]
    for col in range(n):
        piv = next((k for k in range(col, n) if m[k][col] != 0), None)
        if piv is None:
            return None
        m[col], m[piv] = m[piv], m[col]
        for k in range(n):
            if k != col and m[k][col] != 0:
                f = m[k][col] / m[col][col]
                m[k] = [x - f * y for x, y in zip(m[k], m[col])]
    return [m[k][n] / m[k][k] for k in range(n)]


def rank(rows: list[list[Fraction]]) -> int:
    """Exact rank of a matrix of Fractions."""
    m = [list(r) for r in rows]
    rk, ncols = 0, len(m[0]) if m else 0
    for col in range(ncols):
        piv = next((k for k in range(rk, len(m)) if m[k][col] != 0), None)
        if piv is None:
            continue
        m[rk], m[piv] = m[piv], m[rk]
        for k in range(len(m)):
            if k != rk and m[k][col] != 0:
                f = m[k][col] / m[rk][col]
                m[k] = [x - f * y for x, y in zip(m[k], m[rk])]
        rk += 1
    return rk


def _independent_subset(rows: list[list[Fraction]], want: int) -> list[int]:
    """Indices of ``want`` linearly independent rows, greedily (fewer if impossible)."""
    chosen: list[int] = []
    for k in range(len(rows)):
        if len(chosen) == want:
            break
        if rank([rows[i] for i in chosen] + [rows[k]]) == len(chosen) + 1:
            chosen.append(k)
    return chosen


# -- dominance --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DominanceStep:
    """One decision settled by iterated strict dominance.

    ``margin`` is the least gain, over every strategy still open, of ``action`` over the other
    action for the side that decides (banker: net payoff; ponte: minus the banker's gross result),
    unconditional, per unit staked. It is positive.
    """

    player: str  # "banker" or "ponte"
    infoset: str
    action: str  # "D" or "S"
    margin: Fraction


def _range_over_box(const: int, coeffs: list[int], lo: list[Fraction], hi: list[Fraction]) -> tuple[Fraction, Fraction]:
    mn = mx = Fraction(const)
    for g, a, b in zip(coeffs, lo, hi):
        if g:
            x, y = g * a, g * b
            mn += min(x, y)
            mx += max(x, y)
    return mn, mx


def iterated_dominance(game: Game) -> tuple[DominanceStep, ...]:
    """Iterated strict dominance on the free decisions, in rounds until nothing changes.

    Each round first settles every banker set whose net slope has one sign over the open ponte box,
    then every ponte set whose gross slope has one sign over the open banker box.
    """
    net, gross = game.net, game.gross
    m, n = len(game.ponte_sets), len(game.banker_sets)
    qlo, qhi = [Fraction(0)] * m, [Fraction(1)] * m
    rlo, rhi = [Fraction(0)] * n, [Fraction(1)] * n
    steps: list[DominanceStep] = []
    settled_b: set[int] = set()
    settled_p: set[int] = set()
    Gn = [[int(x) for x in row] for row in net.G.T] if m else [[] for _ in range(n)]
    Gg = [[int(x) for x in row] for row in gross.G] if n else [[] for _ in range(m)]
    changed = True
    while changed:
        changed = False
        for i in range(n):
            if i in settled_b:
                continue
            mn, mx = _range_over_box(int(net.b[i]), Gn[i], qlo, qhi)
            if mn > 0 or mx < 0:
                action = "D" if mn > 0 else "S"
                margin = (mn if mn > 0 else -mx) / net.denominator
                steps.append(DominanceStep("banker", game.banker_sets[i], action, margin))
                settled_b.add(i)
                rlo[i] = rhi[i] = Fraction(1 if action == "D" else 0)
                changed = True
        for j in range(m):
            if j in settled_p:
                continue
            mn, mx = _range_over_box(int(gross.a[j]), Gg[j], rlo, rhi)
            # The ponte minimises the banker's gross result: drawing is dominant when the slope is < 0.
            if mn > 0 or mx < 0:
                action = "D" if mx < 0 else "S"
                margin = (-mx if mx < 0 else mn) / gross.denominator
                steps.append(DominanceStep("ponte", game.ponte_sets[j], action, margin))
                settled_p.add(j)
                qlo[j] = qhi[j] = Fraction(1 if action == "D" else 0)
                changed = True
    return tuple(steps)


# -- solutions --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Solution:
    """An exact, certified solution of one chemin de fer game.

    Attributes:
        game: what was solved.
        q: the ponte's draw probability at 5 in each of his sets (``game.ponte_sets`` order).
        r: the banker's draw probability in each free set (``game.banker_sets`` order).
        value: the banker's expected gain per unit, net of commission, at (q, r).
        ponte_payoff, banker_payoff: each side's expected payoff at (q, r).
        certified: zero-sum: f(q) = h(r) exactly; bimatrix: every cell a best response, exactly.
        unique_ponte, unique_banker: optimal strategy proved unique (zero-sum), else False
            (not proved; see ``optimal_set``).
        unique_equilibrium: with commission, the equilibrium proved unique (None: not decided).
        equilibria: with commission and one ponte set, every equilibrium ponte strategy found.
        dominance: the decisions settled by iterated strict dominance.
        method: how the answer was found.
    """

    game: Game
    q: tuple[Fraction, ...]
    r: tuple[Fraction, ...]
    value: Fraction
    ponte_payoff: Fraction
    banker_payoff: Fraction
    certified: bool
    unique_ponte: bool
    unique_banker: bool
    unique_equilibrium: bool | None
    equilibria: tuple[Fraction, ...]
    dominance: tuple[DominanceStep, ...]
    method: str
    optimal_set: tuple[OptimalSet, OptimalSet] | None = None

    def ponte(self) -> dict[str, Fraction]:
        return dict(zip(self.game.ponte_sets, self.q))

    def banker(self) -> dict[str, Fraction]:
        return dict(zip(self.game.banker_sets, self.r))


def _foster(c: Coefficients) -> tuple[Fraction, Fraction, Fraction]:
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
        if g != 0:
            x = Fraction(-bi, g)
            if 0 < x < 1:
                points[x] = points.get(x, 0) + abs(g)
    for x in sorted(points):
        left = slope
        slope += points[x]
        if slope >= 0:
            return x, left, slope
    return Fraction(1), slope, slope


def _banker_for_interior(c: Coefficients, q: list[Fraction], target_j: list[int], slopes: list[Fraction],
                         r_hint: list[float] | None) -> list[Fraction] | None:
    """Banker strategy: forced cells by slope sign; tight cells solve the ponte's indifference."""
    n = len(slopes)
    r = [Fraction(1) if s > 0 else Fraction(0) for s in slopes]
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
    rhs = []
    for j in target_j:
        fixed = sum((Fraction(int(c.G[j][i]), D) * r[i] for i in range(n) if i not in free), Fraction(0))
        rhs.append(-(Fraction(int(c.a[j]), D) + fixed))
    if len(free) == len(target_j):
        sol = _solve_exact(rows, rhs)
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
    basis = _independent_subset(cols, len(target_j))
    if len(basis) < len(target_j):
        return None
    for k in range(len(free)):
        if k not in basis:
            r[free[k]] = Fraction(round(r_hint[free[k]])) if r_hint is not None else Fraction(0)
    rhs2 = [rhs[e] - sum((rows[e][k] * r[free[k]] for k in range(len(free)) if k not in basis), Fraction(0))
            for e in range(len(target_j))]
    sol = _solve_exact([[rows[e][k] for k in basis] for e in range(len(target_j))], rhs2)
    if sol is None:
        return None
    for k, x in zip(basis, sol):
        r[free[k]] = x
    return r


def _lp(c: Coefficients) -> tuple[list[float], list[float]]:
    """Propose (q, r) in floats with HiGHS: min a·q + Σ t s.t. t_i ≥ b_i + G_i·q, t ≥ 0, q in [0,1]."""
    from scipy.optimize import linprog

    m, n = c.G.shape
    # Scale so that the largest coefficient is 1: HiGHS's tolerances (1e-7) are absolute.
    scale = max([abs(int(x)) for x in c.a] + [abs(int(x)) for x in c.b] + [abs(int(x)) for x in c.G.ravel()] + [1])
    a = np.array([int(x) / scale for x in c.a])
    b = np.array([int(x) / scale for x in c.b])
    G = np.array([[int(x) / scale for x in row] for row in c.G]).reshape(m, n)
    cost = np.concatenate([a, np.ones(n)])
    A = np.hstack([G.T, -np.eye(n)])
    res = linprog(cost, A_ub=A, b_ub=-b, bounds=[(0, 1)] * m + [(0, None)] * n, method="highs")
    if res.status != 0:
        raise SolverError(f"the linear program failed: {res.message}")
    q = [float(x) for x in res.x[:m]]
    r = [float(-x) for x in res.ineqlin.marginals]
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
            G=c.G[j:j + 1],
            denominator=c.denominator,
        )
        x, _, _ = _foster(restricted)
        return [x if k == j else Fraction(fixed[k]) for k in range(m)]
    D = c.denominator
    qf = np.array(q_hat)
    s_hat = np.array([int(x) / D for x in c.b]) + qf @ np.array([[int(x) / D for x in row] for row in c.G]).reshape(m, -1)
    scale = max(1e-12, float(np.max(np.abs(s_hat))) if len(s_hat) else 1.0)
    tight = sorted(range(len(s_hat)), key=lambda i: abs(s_hat[i]))
    tight = [i for i in tight if abs(s_hat[i]) <= 1e-7 * max(1.0, scale)
             and any(c.G[j][i] != 0 for j in interior)]  # a cell that does not involve them cannot pin them
    rows_all = [[Fraction(int(c.G[j][i]), D) for j in interior] for i in tight]
    known_q = {j: x for j, x in enumerate(q) if x is not None}

    def solve_with(pick: tuple[int, ...]) -> list[Fraction] | None:
        rows = [rows_all[k] for k in pick]
        rhs = []
        for k in pick:
            i = tight[k]
            known = sum((Fraction(int(c.G[j][i]), D) * x for j, x in known_q.items()), Fraction(0))
            rhs.append(-(Fraction(int(c.b[i]), D) + known))
        sol = _solve_exact(rows, rhs)
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


def zero_sum(c: Coefficients) -> tuple[list[Fraction], list[Fraction], str]:
    """Exact optimal (q, r) of the zero-sum game with payoff c (banker maximises), uncertified."""
    m = c.G.shape[0]
    if m == 1:
        q0, left, right = _foster(c)
        q = [q0]
        slopes = banker_slopes(c, q)
        interior = [0] if 0 < q0 < 1 else []
        r = _banker_for_interior(c, q, interior, slopes, None)
        if r is None:
            raise SolverError("no exact banker strategy at the ponte's optimum")
        if not interior:
            # At a bound, keep the ponte's choice a best response: tight cells toward the needed sign.
            r = [Fraction(1) if s > 0 else Fraction(0) for s in slopes]
            for i, s in enumerate(slopes):
                if s == 0 and (int(c.G[0][i]) > 0) == (q0 == 0):
                    r[i] = Fraction(1)
        return q, r, "Foster's algorithm (exact breakpoint walk of f)"
    q_hat, r_hat = _lp(c)
    q = _snap_q(c, q_hat)
    slopes = banker_slopes(c, q)
    interior = [j for j in range(m) if 0 < q[j] < 1]
    r = _banker_for_interior(c, q, interior, slopes, r_hat)
    if r is None or not all(0 <= x <= 1 for x in r) or banker_guarantee(c, r) != ponte_guarantee(c, q):
        # The LP's dual vertex did not snap cleanly (a degenerate support): search the indifferent
        # cells' box exactly instead.
        inert = tuple(c.b[i] == 0 and not any(c.G[:, i]) for i in range(len(c.b)))
        r = banker_reply(c, c, q, inert)
    if r is None:
        raise SolverError("could not read an exact banker strategy from the LP answer")
    if not interior:
        ps = ponte_slopes(c, r)
        for j in range(m):
            if (q[j] == 0 and ps[j] < 0) or (q[j] == 1 and ps[j] > 0):
                raise SolverError("the snapped strategies are not in equilibrium")
    return q, r, "linear program (HiGHS) snapped to rationals on its support"


def unique_ponte(c: Coefficients, q: list[Fraction], r: list[Fraction]) -> bool:
    """Sufficient test: q is the only ponte strategy making (q, r) an equilibrium.

    Coordinates where the ponte's slope under r is non-zero are forced; each banker set mixed
    strictly inside (0, 1) gives an equation b_i + G_i·q = 0; full rank pins q.
    """
    m = len(q)
    ps = ponte_slopes(c, r)
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
    bs = banker_slopes(c, q)
    free = [i for i in range(len(r)) if bs[i] == 0]
    if not free:
        return True
    rows = [[Fraction(int(c.G[j][i])) for i in free] for j in range(len(q)) if 0 < q[j] < 1]
    return bool(rows) and len(free) <= len(rows) and rank(rows) == len(free)


@dataclass(frozen=True)
class Constraint:
    """A linear constraint on one side's strategy: Σ weights[k] · x_k (relation) rhs."""

    weights: dict[str, Fraction]
    relation: str  # "=", ">=", "<="
    rhs: Fraction


@dataclass(frozen=True)
class OptimalSet:
    """The whole set of one side's optimal strategies in a zero-sum game (DESIGN: given an optimal
    (q*, r*), q is optimal iff q is a best reply to r* and r* to q).

    Sets in ``fixed`` keep their value in every optimal strategy; those in ``free`` range over [0, 1]
    subject to ``constraints``.
    """

    player: str
    fixed: dict[str, Fraction]
    free: tuple[str, ...]
    constraints: tuple[Constraint, ...]


_FLIP = {"=": "=", ">=": "<=", "<=": ">="}


def _normalised(weights: dict[str, Fraction], relation: str, rhs: Fraction) -> Constraint:
    """Scale a constraint so that its weights sum to one (a weighted average), where they can."""
    total = sum(weights.values(), Fraction(0))
    if total == 0:
        return Constraint(weights, relation, rhs)
    rel = relation if total > 0 else _FLIP[relation]
    return Constraint({k: w / total for k, w in weights.items()}, rel, rhs / total)


def optimal_sets(game: Game, q: list[Fraction], r: list[Fraction]) -> tuple[OptimalSet, OptimalSet]:
    """Describe every optimal strategy of each side of a zero-sum game, exactly.

    Given one optimal pair (q*, r*), q is optimal iff q is a best reply to r* and r* is a best reply
    to q (and symmetrically for the banker). So the ponte's optimal set is: coordinates whose slope
    under r* is non-zero are fixed; the others range over [0, 1] subject to, for every banker set i
    whose slope involves them, b_i + G_i·q = 0 (r*_i mixed), >= 0 (r*_i = 1) or <= 0 (r*_i = 0).
    Inequalities that hold on the whole box are dropped. The banker's set is symmetric. Constraints
    are scaled so that their weights sum to one (a weighted average) where they can be.
    """
    c = game.gross
    D = c.denominator
    ps = ponte_slopes(c, r)
    bs = banker_slopes(c, q)
    m, n = len(q), len(r)
    free_q = [j for j in range(m) if ps[j] == 0 and not game.inert_ponte[j]]
    free_r = [i for i in range(n) if bs[i] == 0 and not game.inert_banker[i]]

    def constraint(coef: dict[int, Fraction], const: Fraction, rel: str, names: tuple[str, ...]) -> Constraint | None:
        """const + Σ coef_k x_k (rel) 0 over x in [0, 1]^free; None if it holds on the whole box."""
        if not coef:
            return None
        lo = const + sum((min(Fraction(0), w) for w in coef.values()), Fraction(0))
        hi = const + sum((max(Fraction(0), w) for w in coef.values()), Fraction(0))
        if (rel == ">=" and lo >= 0) or (rel == "<=" and hi <= 0):
            return None
        return _normalised({names[k]: w for k, w in coef.items()}, rel, -const)

    cons_q = []
    for i in range(n):
        coef = {j: Fraction(int(c.G[j][i]), D) for j in free_q if c.G[j][i] != 0}
        const = Fraction(int(c.b[i]), D) + sum((Fraction(int(c.G[j][i]), D) * q[j] for j in range(m) if j not in free_q),
                                               Fraction(0))
        rel = "=" if 0 < r[i] < 1 else (">=" if r[i] == 1 else "<=")
        con = constraint(coef, const, rel, game.ponte_sets)
        if con is not None:
            cons_q.append(con)
    cons_r = []
    for j in range(m):
        coef = {i: Fraction(int(c.G[j][i]), D) for i in free_r if c.G[j][i] != 0}
        const = Fraction(int(c.a[j]), D) + sum((Fraction(int(c.G[j][i]), D) * r[i] for i in range(n) if i not in free_r),
                                               Fraction(0))
        rel = "=" if 0 < q[j] < 1 else ("<=" if q[j] == 1 else ">=")
        con = constraint(coef, const, rel, game.banker_sets)
        if con is not None:
            cons_r.append(con)
    ponte = OptimalSet("ponte", {game.ponte_sets[j]: q[j] for j in range(m) if j not in free_q},
                       tuple(game.ponte_sets[j] for j in free_q), _dedupe(cons_q))
    banker = OptimalSet("banker", {game.banker_sets[i]: r[i] for i in range(n) if i not in free_r},
                        tuple(game.banker_sets[i] for i in free_r), _dedupe(cons_r))
    return ponte, banker


def _dedupe(cons: list[Constraint]) -> tuple[Constraint, ...]:
    """Drop repeats, and inequalities implied by an equality with the same weights."""
    equalities = [c for c in cons if c.relation == "="]
    out: list[Constraint] = []
    for con in cons:
        if con in out:
            continue
        implied = any(
            e.weights == con.weights
            and ((con.relation == "<=" and e.rhs <= con.rhs) or (con.relation == ">=" and e.rhs >= con.rhs))
            for e in equalities
        )
        if not implied:
            out.append(con)
    return tuple(out)


def _bimatrix_one_set(game: Game) -> tuple[list[tuple[Fraction, list[Fraction]]], bool]:
    """Every equilibrium of the commission game with one ponte set; returns them and uniqueness."""
    net, gross = game.net, game.gross
    n = len(game.banker_sets)
    bn = [int(x) for x in net.b]
    Gn = [int(x) for x in net.G[0]]
    ag = int(gross.a[0])
    Gg = [int(x) for x in gross.G[0]]
    cands = {Fraction(0), Fraction(1)}
    for bi, g in zip(bn, Gn):
        if g != 0 and 0 < Fraction(-bi, g) < 1:
            cands.add(Fraction(-bi, g))
    found: list[tuple[Fraction, list[Fraction]]] = []
    degenerate = False
    ordered = sorted(cands)
    for k, q in enumerate(ordered):
        s = [bi * q.denominator + g * q.numerator for bi, g in zip(bn, Gn)]
        forced = ag + sum(Gg[i] for i in range(n) if s[i] > 0)
        tight = [i for i in range(n) if s[i] == 0]
        lo = forced + sum(min(0, Gg[i]) for i in tight)
        hi = forced + sum(max(0, Gg[i]) for i in tight)
        ok = (q == 0 and hi >= 0) or (q == 1 and lo <= 0) or (0 < q < 1 and lo <= 0 <= hi)
        if ok:
            r = [Fraction(1) if x > 0 else Fraction(0) for x in s]
            if q == 0:
                for i in tight:
                    r[i] = Fraction(1 if Gg[i] > 0 else 0)
            elif q == 1:
                for i in tight:
                    r[i] = Fraction(1 if Gg[i] < 0 else 0)
            else:
                need = -forced
                pos = [i for i in tight if Gg[i] != 0 and (Gg[i] > 0) == (need > 0)]
                total = sum(Gg[i] for i in pos)
                if need != 0:
                    for i in pos:
                        r[i] = Fraction(need, total)
            found.append((q, r))
        if k + 1 < len(ordered):
            mid = (q + ordered[k + 1]) / 2
            s_mid = [bi * mid.denominator + g * mid.numerator for bi, g in zip(bn, Gn)]
            if ag + sum(Gg[i] for i in range(n) if s_mid[i] > 0) == 0:
                degenerate = True
    unique = False
    if len(found) == 1 and not degenerate:
        q, r = found[0]
        slopes = banker_slopes(net, [q])
        tight = [i for i in range(n) if slopes[i] == 0]
        unique = not tight or (0 < q < 1 and len(tight) == 1 and Gg[tight[0]] != 0)
    return found, unique


def _nash_ok(game: Game, q: list[Fraction], r: list[Fraction]) -> bool:
    """Exact check: every ponte set minimises the gross result, every banker set maximises net."""
    ps = ponte_slopes(game.gross, r)
    bs = banker_slopes(game.net, q)
    ponte_ok = all((s == 0) or (s > 0 and x == 0) or (s < 0 and x == 1) for s, x in zip(ps, q))
    banker_ok = all((s == 0) or (s > 0 and x == 1) or (s < 0 and x == 0) for s, x in zip(bs, r))
    bounds = all(0 <= x <= 1 for x in list(q) + list(r))
    return ponte_ok and banker_ok and bounds


MAX_TIGHT = 10
"""Most banker cells left indifferent at a candidate for which the banker's reply is searched exhaustively."""


def _banker_reply_for(game: Game, q: list[Fraction]) -> list[Fraction] | None:
    """A banker best reply to q (net payoff) to which q is a best reply for the ponte (gross), or None."""
    return banker_reply(game.net, game.gross, q, game.inert_banker)


def banker_reply(banker_form: Coefficients, ponte_form: Coefficients, q: list[Fraction],
                 inert: tuple[bool, ...] | None = None) -> list[Fraction] | None:
    """A banker best reply to q under ``banker_form`` to which q is a ponte best reply under ``ponte_form``.

    Forced cells follow the sign of their slope. The indifferent cells T are searched at the vertices
    of their box: a subset of |J| cells solves the ponte's indifference equations (J: his mixed
    sets), the others sit at 0 or 1; the ponte's pure sets must then be best replies. Returns None
    when no such vertex exists or T has more than :data:`MAX_TIGHT` cells.
    """
    from itertools import combinations, product

    slopes = banker_slopes(banker_form, q)
    r = [Fraction(1) if s > 0 else Fraction(0) for s in slopes]
    tight = [i for i, s in enumerate(slopes) if s == 0 and not (inert and inert[i])]
    if len(tight) > MAX_TIGHT:
        return None
    D = ponte_form.denominator
    mixed = [j for j, x in enumerate(q) if 0 < x < 1]

    def ponte_ok(rr: list[Fraction]) -> bool:
        ps = ponte_slopes(ponte_form, rr)
        return all((x == 0 and p >= 0) or (x == 1 and p <= 0) or (0 < x < 1 and p == 0) for x, p in zip(q, ps))

    for basis in combinations(tight, len(mixed)):
        rest = [i for i in tight if i not in basis]
        for corner in product((Fraction(0), Fraction(1)), repeat=len(rest)):
            rr = list(r)
            for i, v in zip(rest, corner):
                rr[i] = v
            if mixed:
                rows = [[Fraction(int(ponte_form.G[j][i]), D) for i in basis] for j in mixed]
                rhs = [-(Fraction(int(ponte_form.a[j]), D)
                         + sum((Fraction(int(ponte_form.G[j][i]), D) * rr[i] for i in range(len(rr)) if i not in basis),
                               Fraction(0)))
                       for j in mixed]
                sol = _solve_exact(rows, rhs)
                if sol is None or not all(0 <= x <= 1 for x in sol):
                    continue
                for i, x in zip(basis, sol):
                    rr[i] = x
            if ponte_ok(rr):
                return rr
    return None


def _bimatrix_search(game: Game, dominance: tuple[DominanceStep, ...]) -> tuple[list[Fraction], list[Fraction]] | None:
    """Find one equilibrium of the commission game with several ponte sets, exactly.

    Candidates for q, in order: the optimal ponte strategy of the zero-sum game on the banker's net
    payoff (the banker's replies depend on the net payoff only); then every pure q; then every q with
    one mixed set at a breakpoint of an open banker cell's net slope. Each candidate is kept only if
    a banker reply making it an equilibrium exists (:func:`_banker_reply_for`).
    """
    from itertools import product

    m = len(game.ponte_sets)
    settled_q = {game.ponte_sets.index(d.infoset): Fraction(1 if d.action == "D" else 0)
                 for d in dominance if d.player == "ponte"}
    open_cells = [i for i, k in enumerate(game.banker_sets) if k not in {d.infoset for d in dominance if d.player == "banker"}]

    def attempt(q: list[Fraction]) -> tuple[list[Fraction], list[Fraction]] | None:
        if any(q[j] != v for j, v in settled_q.items()):
            return None
        rr = _banker_reply_for(game, q)
        return (q, rr) if rr is not None else None

    first, _, _ = zero_sum(game.net)
    found = attempt(list(first))
    if found:
        return found
    for corner in product((Fraction(0), Fraction(1)), repeat=m):
        found = attempt(list(corner))
        if found:
            return found
    net = game.net
    from itertools import combinations

    for k in (1, 2):
        for mixed in combinations([j for j in range(m) if j not in settled_q], k):
            others = [j for j in range(m) if j not in mixed]
            for bits in product((0, 1), repeat=len(others)):
                fixed_bits = dict(zip(others, bits))
                for q in _arrangement_vertices(net, open_cells, list(mixed), fixed_bits):
                    found = attempt(q)
                    if found:
                        return found
    return None


def _arrangement_vertices(net: Coefficients, cells: list[int], mixed: list[int], base: dict[int, int]) -> list[list[Fraction]]:
    """Points q with the ``mixed`` coordinates strictly inside (0, 1), the others at ``base``, where
    len(mixed) banker cells' net slopes vanish together: the candidates for an equilibrium q.

    Candidates are found in floats (a quick filter) and then solved exactly.
    """
    from itertools import combinations

    k, m = len(mixed), len(base) + len(mixed)
    D = net.denominator
    const = np.array([float(Fraction(int(net.b[i]) + sum(int(net.G[j][i]) * v for j, v in base.items()), D)) for i in cells])
    coef = np.array([[float(Fraction(int(net.G[j][i]), D)) for j in mixed] for i in cells]).reshape(len(cells), k)
    out: list[list[Fraction]] = []
    seen: set[tuple[Fraction, ...]] = set()
    for pick in combinations(range(len(cells)), k):
        A, rhs = coef[list(pick)], -const[list(pick)]
        if abs(np.linalg.det(A)) < 1e-300:
            continue
        x = np.linalg.solve(A, rhs)
        if not np.all((x > -1e-9) & (x < 1 + 1e-9)):
            continue
        rows = [[Fraction(int(net.G[j][cells[p]]), D) for j in mixed] for p in pick]
        exact_rhs = [-Fraction(int(net.b[cells[p]]) + sum(int(net.G[j][cells[p]]) * v for j, v in base.items()), D) for p in pick]
        sol = _solve_exact(rows, exact_rhs)
        if sol is None or not all(0 < v < 1 for v in sol):
            continue
        key = tuple(sol)
        if key in seen:
            continue
        seen.add(key)
        full = {j: Fraction(v) for j, v in base.items()}
        full.update(zip(mixed, sol))
        out.append([full[j] for j in range(m)])
    return out


def _all_settled(game: Game, dominance: tuple[DominanceStep, ...]) -> bool:
    return len(dominance) == len(game.ponte_sets) + len(game.banker_sets)


def _zero_inert(game: Game, q: list[Fraction], r: list[Fraction]) -> tuple[list[Fraction], list[Fraction]]:
    """Canonical form: a set whose choice cannot change any payoff (inert) stands."""
    q = [Fraction(0) if inert else x for x, inert in zip(q, game.inert_ponte)]
    r = [Fraction(0) if inert else x for x, inert in zip(r, game.inert_banker)]
    return q, r


def solve(game: Game) -> Solution:
    """Solve a chemin de fer game exactly and certify the answer.

    Returns:
        A :class:`Solution` whose ``certified`` is True; an answer that fails certification raises.

    Raises:
        SolverError: the LP failed, or its answer could not be turned into a certified exact one.
    """
    dominance = iterated_dominance(game)
    if game.zero_sum:
        c = game.gross
        q, r, method = zero_sum(c)
        q, r = _zero_inert(game, q, r)
        if not all(0 <= x <= 1 for x in list(q) + list(r)):
            raise SolverError(f"certification failed for {game.label}: a strategy is not a probability")
        f, h = ponte_guarantee(c, q), banker_guarantee(c, r)
        if f != h:
            raise SolverError(f"certification failed for {game.label}: f(q) = {f} but h(r) = {h}")
        if len(q) == 1:
            _, left, right = _foster(c)
            uq = (q[0] == 0 and right > 0) or (q[0] == 1 and left < 0) or (left < 0 < right)
        else:
            uq = unique_ponte(c, q, r)
        ub = unique_banker(c, q, r)
        return Solution(
            game=game, q=tuple(q), r=tuple(r), value=f, ponte_payoff=-f, banker_payoff=f, certified=True,
            unique_ponte=uq, unique_banker=ub, unique_equilibrium=None, equilibria=(),
            dominance=dominance, method=method + "; certified by f(q) = h(r) in exact rationals",
            optimal_set=None if (uq and ub) else optimal_sets(game, q, r),
        )
    if len(game.ponte_sets) == 1:
        found, unique = _bimatrix_one_set(game)
        if not found:
            raise SolverError(f"no equilibrium found for {game.label}")
        q0, r = found[0]
        q = [q0]
        method = "enumeration of all equilibria (one ponte set: candidates 0, 1 and the banker's breakpoints)"
        equilibria = tuple(x for x, _ in found)
    else:
        found_pair = _bimatrix_search(game, dominance)
        if found_pair is None:
            raise SolverError(f"no certified equilibrium found for {game.label}")
        q, r = found_pair
        unique, equilibria = False, ()
        method = ("equilibrium search over the ponte's pure/mixed patterns (first: the zero-sum game on the banker's "
                  "net payoff), banker from the ponte's gross indifference")
    q, r = _zero_inert(game, q, r)
    if len(game.ponte_sets) > 1 and _all_settled(game, dominance):
        unique = True  # iterated strict dominance leaves a single strategy profile
    if not _nash_ok(game, q, r):
        raise SolverError(f"certification failed for {game.label}: the strategies are not in equilibrium")
    net, gross = game.net.value(q, r), game.gross.value(q, r)
    return Solution(
        game=game, q=tuple(q), r=tuple(r), value=net, ponte_payoff=-gross, banker_payoff=net, certified=True,
        unique_ponte=False, unique_banker=False, unique_equilibrium=unique if len(q) == 1 or unique else None,
        equilibria=equilibria, dominance=dominance, method=method + "; certified: every cell a best response, exactly",
    )


def draw_tables(s: Solution) -> tuple[list[list[Fraction]], list[list[list[Fraction]]]]:
    """The solved strategies as draw-probability tables indexed by the actual cards.

    Returns ``(P, B)``: ``P[p1][p2]``, the ponte's probability of drawing holding values p1, p2
    (no natural on either side), and ``B[b1][b2][seen]``, the banker's, with ``seen`` the ponte's
    third card 0–9 or 10 (stood). Fixed cells of the tableau are 0 or 1. These tables cover every
    information model, so a simulator can deal any solved strategy.

    >>> from solver.cards import Shoe
    >>> from solver.game import build_game
    >>> P, B = draw_tables(solve(build_game(Shoe.infinite(), 1, "parlor")))
    >>> P[2][3], P[0][4], B[0][6][10], B[3][3][8]
    (Fraction(9, 11), Fraction(1, 1), Fraction(859, 2288), Fraction(0, 1))
    """
    from solver.game import composition_label
    from solver.rules import SEEN_LABELS, Action

    g = s.game
    tab = g.model.tableau
    info = g.model.information
    ponte, banker = s.ponte(), s.banker()
    P = [[Fraction(0)] * 10 for _ in range(10)]
    B = [[[Fraction(0)] * 11 for _ in range(10)] for _ in range(10)]
    for a in range(10):
        for b in range(10):
            total = (a + b) % 10
            if total >= 8:
                continue
            act = tab.player[total]
            if act is Action.FREE:
                P[a][b] = ponte["5" if info < 3 else composition_label(a, b)]
            else:
                P[a][b] = Fraction(1 if act is Action.DRAW else 0)
            own = str(total) if info == 1 else composition_label(a, b)
            for seen in range(11):
                cell = tab.banker[total][seen]
                if cell is Action.FREE:
                    B[a][b][seen] = banker[f"{own}/{SEEN_LABELS[seen]}"]
                else:
                    B[a][b][seen] = Fraction(1 if cell is Action.DRAW else 0)
    return P, B


def outcome_law(s: Solution) -> dict[str, Fraction]:
    """Exact law of one coup under the solved strategies: ``banker`` wins, ``ponte`` wins, ``tie``.

    >>> from solver.cards import Shoe
    >>> from solver.game import build_game
    >>> law = outcome_law(solve(build_game(Shoe.decks(6), 1, "casino")))
    >>> sum(law.values())
    Fraction(1, 1)
    """
    from solver.game import strategy_law

    P, B = draw_tables(s)
    return strategy_law(s.game.shoe, P, B)
