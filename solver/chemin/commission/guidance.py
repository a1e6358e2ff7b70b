"""Float guidance for the case analysis (:mod:`solver.chemin.commission.cases`): where a side's system lies.

The vertices of a side's system (where few of its coordinates are free) or linear programs give the
range of the other side's slopes over it; the search reads these ranges only to choose which
coordinate to split on and which cells look forced. Nothing here proves anything: every case the
search closes is closed by an exact refutation (:mod:`solver.chemin.commission.systems`).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from solver.chemin.commission.systems import SideSystem, box, float_rows
from solver.exact.lp import linear_program

_VERTEX_TOL = 1e-9  # reads float vertices only: they choose splits, never prove anything


def vertices(side: SideSystem, own: dict[int, int], other: dict[int, int]) -> np.ndarray | None:
    """Float vertices of a side's system, or None when more than three coordinates are free."""
    lo, hi = box(side, own)
    free = [v for v in range(len(side.keys)) if lo[v] < hi[v]]
    k = len(free)
    if k > 3:
        return None
    A, c, rs, _ = float_rows(side, other)
    fixed = np.array([float(x) for x in lo])
    val = c + A @ fixed
    eq = np.array([r[2] for r in rs], dtype=bool)
    if k == 0:
        ok = bool(np.all(val >= -_VERTEX_TOL) and np.all(np.abs(val[eq]) <= _VERTEX_TOL))
        return fixed[None, :] if ok else np.zeros((0, len(lo)))
    GA = np.vstack([A[:, free], -A[eq][:, free], np.eye(k), -np.eye(k)])
    Gc = np.concatenate([val, -val[eq], np.zeros(k), np.ones(k)])
    if k == 1:  # each row alone: the same arithmetic as below, without the batched linear algebra
        g = GA[:, 0]
        good = np.abs(g) > 1e-12
        X = (-Gc[good] / g[good])[:, None]
    else:
        picks = np.array(list(combinations(range(len(Gc)), k)), dtype=np.int64)
        M = GA[picks]
        good = np.abs(np.linalg.det(M)) > 1e-12
        M, picks = M[good], picks[good]
        X = np.linalg.solve(M, -Gc[picks][..., None])[..., 0] if len(M) else np.zeros((0, k))
    if not len(X):
        return np.zeros((0, len(lo)))
    inside = np.all(X @ GA.T + Gc >= -_VERTEX_TOL, axis=1)
    pts = np.tile(fixed, (int(inside.sum()), 1))
    pts[:, free] = X[inside]
    return pts


def ranges(side: SideSystem, own: dict[int, int], other: dict[int, int], cells: list[int]) -> list[tuple[float, float]] | None:
    """Float ranges of the other side's slopes ``cells`` (unsigned, scaled to max-norm 1) over a side's
    system: by its vertices where at most three coordinates are free, else by linear programs.
    None if the system looks empty."""
    matrix, const, _ = side.scaled
    W, w0 = matrix[cells], const[cells]
    verts = vertices(side, own, other)
    if verts is not None:
        if not len(verts):
            return None
        vals = w0[:, None] + W @ verts.T
        return [(float(a), float(b)) for a, b in zip(vals.min(axis=1), vals.max(axis=1))]
    A, c, rs, _ = float_rows(side, other)
    lo, hi = box(side, own)
    ineq = [t for t, r in enumerate(rs) if not r[2]]
    eq = [t for t, r in enumerate(rs) if r[2]]
    out = []
    for t in range(len(cells)):
        ends = []
        for sgn in (1.0, -1.0):
            res = linear_program(
                sgn * W[t],
                A_ub=-A[ineq] if ineq else None,
                b_ub=c[ineq] if ineq else None,
                A_eq=A[eq] if eq else None,
                b_eq=-c[eq] if eq else None,
                lo=lo,
                hi=hi,
            )
            if res is None:
                return None
            ends.append(w0[t] + sgn * res.fun)
        out.append((ends[0], ends[1]))
    return out
