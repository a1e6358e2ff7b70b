"""One side's linear system in a case of the commission game, and exact proofs that it has no solution.

A *case* (see :mod:`solver.chemin.commission.cases`) gives some coordinates of both sides a state: draw,
stand or indifferent. For one side (the *own* side), its equilibrium strategies in the case are the
points x of a box (a coordinate that draws is 1, one that stands is 0, the others range over
[0, 1]) that satisfy one *row* for every coordinate k of the other side that has a state:

    ℓ_k(x) = σ_k · (c_k + Σ_v A_kv x_v)  ≥ 0   (k draws or stands),      = 0   (k is indifferent),

where c_k + A_k·x is k's slope (the banker's NET slope when the own side is the ponte, the ponte's
GROSS slope when it is the banker) and σ_k = +1 or −1 makes the row say "k's state is a best
reply": a banker cell that draws needs s_i ≥ 0, a ponte set that draws needs g_j ≤ 0.

Farkas' lemma, box kept whole: the system has no solution iff there are multipliers y (≥ 0 on
inequalities, any sign on equations) with

    max over the box of Σ_k y_k ℓ_k(x) < 0,

the maximum taken coordinate by coordinate (the sum is affine). :func:`refutes` checks such
multipliers exactly, in integers. They are found by :func:`refutation`: from the equations alone
where they are inconsistent or pin a point outside the system, else from a float linear program
(HiGHS) whose support is solved exactly; a float answer is only a proposal.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from functools import cached_property

import numpy as np

from solver.exact import numbers
from solver.exact.linalg import rank, solve_any
from solver.exact.lp import FLOAT_TOL, linear_program
from solver.strategy import Side


class CaseState(IntEnum):
    """A coordinate's state in a case of the commission game: closed conditions, which may overlap."""

    DRAW = 0
    """The coordinate's slope favours drawing (draws, or is at 1)."""
    STAND = 1
    """The slope favours standing (stands, or is at 0)."""
    INDIFFERENT = 2
    """The slope is zero: the other side is indifferent there, and the coordinate may mix."""


DRAW, STAND, INDIFFERENT = CaseState
"""The states by name (also each one's index in :data:`solver.chemin.commission.cases.STATES`)."""

FORCED = 1e-9
"""A slope this far from 0 (rows scaled to max-norm 1) at every float vertex is taken as one-signed."""


@dataclass(frozen=True)
class SideSystem:
    """One side's data: its open coordinates, and the slope rows the other side's coordinates give it.

    Row k is ``const[k] + coef[k] · x``; ``favour_draw`` is the sign σ a row takes when k draws
    (+1 for the banker's cells, whose slope must be ≥ 0 to draw; −1 for the ponte's sets).
    """

    side: Side
    keys: tuple[str, ...]
    const: tuple[int, ...]
    coef: tuple[tuple[int, ...], ...]
    favour_draw: int

    @cached_property
    def scaled(self) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """Every row scaled to max-norm 1, unsigned and in floats (for proposals only): the matrix of
        ``coef[k] / scale[k]``, the vector of ``const[k] / scale[k]``, and the integer scales."""
        scale = [max([abs(c)] + [abs(x) for x in row] + [1]) for c, row in zip(self.const, self.coef)]
        matrix = np.array([[x / big for x in row] for row, big in zip(self.coef, scale)]).reshape(len(scale), len(self.keys))
        return matrix, np.array([c / big for c, big in zip(self.const, scale)]), scale

    @cached_property
    def parts(self) -> tuple[list[list[int]], list[list[int]], list[int], list[int]]:
        """Each row's positive and negative parts, coordinate by coordinate, and their sums."""
        pos = [[max(0, x) for x in row] for row in self.coef]
        neg = [[min(0, x) for x in row] for row in self.coef]
        return pos, neg, [sum(p) for p in pos], [sum(n) for n in neg]

    @cached_property
    def _ranges_seen(self) -> dict[tuple[tuple[int, ...], tuple[int, ...]], list[tuple[int, int]]]:
        return {}

    def row_ranges(self, draws: list[int], stands: list[int]) -> list[tuple[int, int]]:
        """:meth:`row_range` of every row (remembered per box: a search meets the same box of one side often)."""
        key = (tuple(draws), tuple(stands))
        found = self._ranges_seen.get(key)
        if found is None:
            found = self._ranges_seen[key] = [self.row_range(k, draws, stands) for k in range(len(self.const))]
        return found

    def row_range(self, k: int, draws: list[int], stands: list[int]) -> tuple[int, int]:
        """The least and greatest value of row k, ``const[k] + coef[k]·x``, over the box in which the
        coordinates ``draws`` are 1, ``stands`` 0 and the others range over [0, 1] (exact integers)."""
        pos, neg, pos_sum, neg_sum = self.parts
        p, n = pos[k].__getitem__, neg[k].__getitem__
        c = self.const[k]
        return (
            c + neg_sum[k] + sum(map(p, draws)) - sum(map(n, stands)),
            c + pos_sum[k] + sum(map(n, draws)) - sum(map(p, stands)),
        )


def box(side: SideSystem, own: dict[int, int]) -> tuple[list[int], list[int]]:
    """Bounds of a side's open coordinates in a case (``own``: coordinate → state)."""
    n = len(side.keys)
    lo, hi = [0] * n, [1] * n
    for v, s in own.items():
        if s == DRAW:
            lo[v] = 1
        elif s == STAND:
            hi[v] = 0
    return lo, hi


def rows(side: SideSystem, other: dict[int, int]) -> list[tuple[int, int, bool]]:
    """The rows of a side's system in a case: (other side's coordinate, sign σ, is an equation)."""
    out = []
    for k, s in sorted(other.items()):
        if s == INDIFFERENT:
            out.append((k, 1, True))
        else:
            out.append((k, side.favour_draw if s == DRAW else -side.favour_draw, False))
    return out


def primitive(y: dict[int, Fraction]) -> dict[int, int]:
    """The same multipliers scaled to coprime integers (zeros dropped; a positive scale changes no sign)."""
    y = {k: w for k, w in y.items() if w}
    return dict(zip(y, numbers.primitive(y.values())))


def refutes(side: SideSystem, own: dict[int, int], other: dict[int, int], y: dict[int, Fraction] | dict[int, int]) -> bool:
    """Exact: the multipliers ``y`` (on signed rows) show the side's system has no solution."""
    ints = primitive({k: Fraction(w) for k, w in y.items()})
    if not ints:
        return False
    lo, hi = box(side, own)
    signs = {k: (sign, eq) for k, sign, eq in rows(side, other)}
    total = 0
    coef = [0] * len(side.keys)
    for k, w in ints.items():
        if k not in signs or (w < 0 and not signs[k][1]):
            return False
        ws = w * signs[k][0]
        total += ws * side.const[k]
        for v, c in enumerate(side.coef[k]):
            if c:
                coef[v] += ws * c
    total += sum(c * (hi[v] if c > 0 else lo[v]) for v, c in enumerate(coef))
    return total < 0


def equations(
    side: SideSystem, own: dict[int, int], other: dict[int, int]
) -> tuple[list[int], list[int], list[list[Fraction]], list[Fraction]]:
    """The case's equations on the side's free coordinates: (free coordinates, equation rows, matrix, rhs)."""
    lo, hi = box(side, own)
    free = [v for v in range(len(side.keys)) if lo[v] < hi[v]]
    eqs = [k for k, _, eq in rows(side, other) if eq]
    matrix = [[Fraction(side.coef[k][v]) for v in free] for k in eqs]
    rhs = [-Fraction(side.const[k] + sum(side.coef[k][v] * lo[v] for v in range(len(lo)) if lo[v] == hi[v])) for k in eqs]
    return free, eqs, matrix, rhs


def refutation(
    side: SideSystem, own: dict[int, int], other: dict[int, int], witnesses: list[np.ndarray] | None = None
) -> dict[int, int] | None:
    """Coprime integer multipliers showing the side's system has no solution in a case, or None.

    ``witnesses`` are float points of earlier systems of this side: one that fits this system too (to
    a tolerance) saves the linear program, and a feasible program's point is added to them.
    """
    draws = [v for v, s in own.items() if s == DRAW]
    stands = [v for v, s in own.items() if s == STAND]
    rs = rows(side, other)
    ranges = side.row_ranges(draws, stands) if len(draws) + len(stands) <= 8 else None
    for k, sign, eq in rs:  # the commonest: one row fails on the whole box
        least, most = ranges[k] if ranges is not None else side.row_range(k, draws, stands)
        for w in (1, -1) if eq else (1,):
            if (most if w * sign > 0 else -least) < 0:  # the most w·σ·ℓ_k reaches on the box
                return {k: w}
    lo, hi = box(side, own)
    found = _from_equations(side, own, other, rs, lo, hi)
    if found is not None or not rs:
        return found
    floats = _scaled_rows(side, rs)
    if witnesses:
        A, c, _ = floats
        is_eq = np.array([r[2] for r in rs], dtype=bool)
        points = np.clip(np.array(witnesses), lo, hi)  # points of this box: the witnesses with this case's fixed coordinates
        val = c + points @ A.T
        if np.any(np.all(val >= -FLOAT_TOL, axis=1) & np.all(np.abs(val[:, is_eq]) <= FLOAT_TOL, axis=1)):
            return None
    return _from_linear_program(side, own, other, rs, lo, hi, floats, witnesses)


def _independent(rows: list[tuple[int, ...]]) -> bool | None:
    """Exactly whether one or two integer rows are linearly independent (None for more rows)."""
    if len(rows) == 1:
        return any(rows[0])
    if len(rows) == 2:
        a, b = rows
        u = next((v for v, x in enumerate(a) if x), None)
        return u is not None and any(a[u] * y != b[u] * x for x, y in zip(a, b))
    return None


def _from_equations(
    side: SideSystem, own: dict[int, int], other: dict[int, int], rs: list[tuple[int, int, bool]], lo: list[int], hi: list[int]
) -> dict[int, int] | None:
    """Refute from the equations: inconsistent, or pinning the free coordinates at a point that breaks a
    bound or an inequality (that row, minus the combination of equations with the same linear part,
    is a negative constant). ``rs``, ``lo``, ``hi``: the case's rows and box."""
    eqs = [k for k, _, eq in rs if eq]
    if not eqs:
        return None
    free = [v for v in range(len(side.keys)) if lo[v] < hi[v]]
    if len(free) > len(eqs):
        # Independent equations are consistent and, fewer than the free coordinates, pin nothing: only
        # dependent ones can refute. One or two rows are tested exactly; more, clearly independent in floats.
        independent = _independent([tuple(side.coef[k][v] for v in free) for k in eqs])
        if independent:
            return None
        if independent is None:
            scaled = np.array([[float(side.coef[k][v]) for v in free] for k in eqs])
            scaled /= np.maximum(np.abs(scaled).max(axis=1, keepdims=True), 1e-300)
            sv = np.linalg.svd(scaled, compute_uv=False)
            if len(sv) == len(eqs) and sv[-1] > 1e-6 * sv[0]:
                return None
    free, eqs, matrix, rhs = equations(side, own, other)
    cols = [[matrix[e][t] for e in range(len(eqs))] for t in range(len(free))]
    point = solve_any(matrix, rhs)
    if point is None:
        lam = solve_any(cols + [rhs], [Fraction(0)] * len(free) + [Fraction(1)])
        y = {k: w for k, w in zip(eqs, lam or []) if w}
        return primitive(y) if y and refutes(side, own, other, y) else None
    if not free or rank(matrix) < len(free):
        return None
    x = [Fraction(v) for v in lo]
    for v, p in zip(free, point):
        x[v] = p
    targets: list[tuple[list[Fraction], dict[int, Fraction]]] = []
    for t, p in enumerate(point):
        unit = [Fraction(1 if u == t else 0) for u in range(len(free))]
        if p > 1:
            targets.append((unit, {}))
        elif p < 0:
            targets.append(([-e for e in unit], {}))
    for k, sign, eq in rows(side, other):
        if not eq and sign * (side.const[k] + sum(c * xv for c, xv in zip(side.coef[k], x))) < 0:
            targets.append(([-sign * Fraction(side.coef[k][v]) for v in free], {k: Fraction(1)}))
    for target, base in targets:
        lam = solve_any(cols, target)
        if lam is None:
            continue
        y = dict(base)
        for k, w in zip(eqs, lam):
            y[k] = y.get(k, Fraction(0)) + w
        if refutes(side, own, other, y):
            return primitive(y)
    return None


def float_rows(side: SideSystem, other: dict[int, int]) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int, bool]], list[int]]:
    """The case's signed rows scaled to max-norm 1, ``A x + c`` (≥ 0, or = 0), and the integer scales."""
    rs = rows(side, other)
    A, c, scales = _scaled_rows(side, rs)
    return A, c, rs, scales


def _scaled_rows(side: SideSystem, rs: list[tuple[int, int, bool]]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """:func:`float_rows` for the rows ``rs``: (A, c, the integer scales)."""
    matrix, const, scales = side.scaled
    ks = [k for k, _, _ in rs]
    signs = np.array([float(sign) for _, sign, _ in rs])
    return matrix[ks] * signs[:, None], const[ks] * signs, [scales[k] for k in ks]


def _from_linear_program(
    side: SideSystem,
    own: dict[int, int],
    other: dict[int, int],
    rs: list[tuple[int, int, bool]],
    lo: list[int],
    hi: list[int],
    floats: tuple[np.ndarray, np.ndarray, list[int]],
    witnesses: list[np.ndarray] | None = None,
) -> dict[int, int] | None:
    """Refute with multipliers proposed by HiGHS: minimise the largest violation t; the duals of a
    positive optimum are Farkas multipliers. Rebuilt exactly on their support (the coordinates strictly
    inside the box must cancel), else rounded; either way checked by :func:`refutes`. ``rs``, ``lo``,
    ``hi``, ``floats``: the case's rows, box and scaled rows (non-empty)."""
    A, c, scale = floats
    n = A.shape[1]
    owner = [(t, sgn) for t, (_, _, eq) in enumerate(rs) for sgn in ((1, -1) if eq else (1,))]
    which = [t for t, _ in owner]
    flip = np.array([float(sgn) for _, sgn in owner])
    ub = np.empty((len(owner), n + 1))
    ub[:, :n] = A[which] * -flip[:, None]  # row t: −A_t x − t' ≤ c_t; and for an equation also A_t x − t' ≤ −c_t
    ub[:, n] = -1.0
    rhs = c[which] * flip
    found = linear_program(
        np.concatenate([np.zeros(n), [1.0]]),
        A_ub=ub,
        b_ub=rhs,
        lo=np.array([*lo, 0.0], dtype=float),
        hi=np.array([*hi, np.inf], dtype=float),
        presolve=False,
    )
    if found is None:
        return None
    x, duals = found.x, found.ineq_duals
    if x[-1] <= 0:
        if witnesses is not None:
            witnesses.insert(0, np.clip(x[:n], lo, hi))
            del witnesses[8:]
        return None
    yhat = [0.0] * len(rs)
    for (t, sgn), mu in zip(owner, duals.tolist()):
        yhat[t] += sgn * -mu
    support = [t for t in range(len(rs)) if abs(yhat[t]) > FLOAT_TOL]
    xs = x.tolist()
    interior = [v for v in range(n) if lo[v] < hi[v] and FLOAT_TOL < xs[v] < 1 - FLOAT_TOL]
    y = _support_solve(side, rs, support, interior, yhat)
    if y and refutes(side, own, other, y):
        return primitive(y)
    rounded = {}  # the duals rounded, when the support gave nothing
    for t, (k, _, eq) in enumerate(rs):
        w = round(yhat[t] * 2**40)
        if w > 0 or (eq and w):
            rounded[k] = Fraction(w, 2**40 * scale[t])
    return primitive(rounded) if rounded and refutes(side, own, other, rounded) else None


def _support_solve(
    side: SideSystem, rs: list[tuple[int, int, bool]], support: list[int], interior: list[int], yhat: list[float]
) -> dict[int, Fraction] | None:
    """Multipliers on ``support`` that cancel every interior coordinate, the largest one fixed at ±1."""
    if not support:
        return None
    lead = max(support, key=lambda t: abs(yhat[t]))
    others = [t for t in support if t != lead]
    sign_lead = 1 if yhat[lead] > 0 else -1

    def column(t: int, v: int) -> Fraction:
        k, sign, _ = rs[t]
        return Fraction(sign * side.coef[k][v])

    matrix = [[column(t, v) for t in others] for v in interior]
    rhs = [-sign_lead * column(lead, v) for v in interior]
    sol = solve_any(matrix, rhs) if others else ([] if not any(rhs) else None)
    if sol is None:
        return None
    y = {rs[lead][0]: Fraction(sign_lead)}
    for t, w in zip(others, sol):
        y[rs[t][0]] = w
    return y


def pinned_point(side: SideSystem, own: dict[int, int], other: dict[int, int]) -> list[Fraction] | None:
    """The side's point if the case's equations pin its free coordinates, else None."""
    lo, hi = box(side, own)
    if sum(lo[v] < hi[v] for v in range(len(lo))) > sum(s == INDIFFERENT for s in other.values()):
        return None  # more free coordinates than equations
    free, _, matrix, rhs = equations(side, own, other)
    if free and rank(matrix) < len(free):
        return None
    sol = solve_any(matrix, rhs) if free else []
    if sol is None:
        return None
    x = [Fraction(v) for v in box(side, own)[0]]
    for v, s in zip(free, sol):
        x[v] = s
    return x


def shortest_prefix(
    side: SideSystem, own: dict[int, int], other: dict[int, int], y: dict[int, int], links: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The fewest of ``links`` (cell, settled state) that, settled on top of ``own``, let the
    multipliers ``y`` refute the side's system: the cells whose settling lowers the combination's
    maximum over the box the most, first (checked exactly)."""
    signs = {k: sign for k, sign, _ in rows(side, other)}
    combined = [sum(w * signs[k] * side.coef[k][v] for k, w in y.items()) for v in range(len(side.keys))]
    lo, hi = box(side, own)
    most = sum(w * signs[k] * side.const[k] for k, w in y.items()) + sum(
        c * (hi[v] if c > 0 else lo[v]) for v, c in enumerate(combined)
    )
    gain = {i: max(combined[i], 0) - combined[i] * (1 if keep == DRAW else 0) for i, keep in links}
    order = sorted(links, key=lambda link: -gain[link[0]])
    n = 0
    while most >= 0 and n < len(order):  # settling a link lowers the combination's maximum by its gain
        most -= gain[order[n][0]]
        n += 1
    if refutes(side, {**own, **dict(order[:n])}, other, y):
        return order[:n]
    raise AssertionError("the multipliers refute the system with every link settled")
