"""Support enumeration when each player has one set (information 1 or 2, a blind second player).

Each banker cell's slope is bilinear in the two players' probabilities, S = c + a x + b y + d x y, so the
candidate equilibria can be listed: both players pure; one pure and the other mixing against one cell
(the cell's slope is then linear in him); both mixing with the banker pure (each player's slope is
affine in the other's probability, region by region); both mixing against two cells (the common roots
of two bilinear equations: a quadratic). Each candidate is screened in floats, then solved and
certified exactly by :func:`solver.banque.support.try_support`.
"""

from __future__ import annotations

import itertools

import numpy as np

from solver.banque.forms import Payoff
from solver.banque.support import NashAnswer, try_support


def one_set_each(pb: Payoff, p1: Payoff, p2: Payoff) -> NashAnswer | None:
    """Support enumeration when each player has one set (information 1 or 2, a blind second player).

    In order: both players pure; one pure and the other mixing against one banker cell (each cell's
    slope is then linear in the mixing player's probability); both mixing with the banker pure (the
    regions met on a grid: each player's slope is affine in the other's probability); both mixing
    against two banker cells (:func:`_pairs`). Candidates are screened in floats, then solved and
    certified exactly.
    """
    n = pb.sizes()[2]
    zero = np.zeros(n)

    def reply(x: float, y: float) -> np.ndarray:
        return (pb.float_slopes("r", np.array([x]), np.array([y]), zero) > 0).astype(float)

    def attempt(J: list[int], K: list[int], M: list[int], x: float, y: float, r: np.ndarray) -> NashAnswer | None:
        found = try_support(pb, p1, p2, J, K, M, np.array([x]), np.array([y]), r)
        return found if isinstance(found, NashAnswer) else None

    for x0, y0 in itertools.product((0.0, 1.0), repeat=2):
        r = reply(x0, y0)
        s1 = p1.float_slopes("x", np.array([x0]), np.array([y0]), r)[0]
        s2 = p2.float_slopes("y", np.array([x0]), np.array([y0]), r)[0]
        if (s1 <= 0) == (x0 == 1.0) and (s2 <= 0) == (y0 == 1.0):
            found = attempt([], [], [], x0, y0, r)
            if found is not None:
                return found
    coef = _bilinear(pb)
    c0, cx, cy, cxy = coef.T
    for mixing in ("y", "x"):
        for fixed in (0.0, 1.0):
            with np.errstate(divide="ignore", invalid="ignore"):
                if mixing == "y":
                    roots = -(c0 + cx * fixed) / (cy + cxy * fixed)
                else:
                    roots = -(c0 + cy * fixed) / (cx + cxy * fixed)
            for cell in np.nonzero(np.isfinite(roots) & (roots > 1e-9) & (roots < 1 - 1e-9))[0].tolist():
                x, y = (fixed, float(roots[cell])) if mixing == "y" else (float(roots[cell]), fixed)
                r = reply(x, y)
                other, mine = (p1, p2) if mixing == "y" else (p2, p1)
                side = "y" if mixing == "y" else "x"
                lo = mine.float_slopes(side, np.array([x]), np.array([y]), _set(r, cell, 0.0, cell, 0.0))[0]
                hi = mine.float_slopes(side, np.array([x]), np.array([y]), _set(r, cell, 1.0, cell, 1.0))[0]
                if lo == hi:
                    continue
                t = lo / (lo - hi)
                if not -1e-9 <= t <= 1 + 1e-9:
                    continue
                rr = _set(r, cell, t, cell, t)
                oside = "x" if side == "y" else "y"
                so = other.float_slopes(oside, np.array([x]), np.array([y]), rr)[0]
                if (so <= 0) != (fixed == 1.0) and abs(so) > 1e-12:
                    continue
                J, K = ([], [0]) if mixing == "y" else ([0], [])
                found = attempt(J, K, [cell], x, y, rr)
                if found is not None:
                    return found
    seen: set[bytes] = set()
    grid = np.linspace(0.02, 0.98, 13)
    for x0, y0 in itertools.product(grid, grid):
        r = reply(float(x0), float(y0))
        key = r.tobytes()
        if key in seen:
            continue
        seen.add(key)
        a1 = p1.float_slopes("x", np.array([0.0]), np.array([0.0]), r)[0]
        b1 = p1.float_slopes("x", np.array([0.0]), np.array([1.0]), r)[0] - a1
        a2 = p2.float_slopes("y", np.array([0.0]), np.array([0.0]), r)[0]
        b2 = p2.float_slopes("y", np.array([1.0]), np.array([0.0]), r)[0] - a2
        if b1 == 0 or b2 == 0:
            continue
        y, x = -a1 / b1, -a2 / b2
        if 1e-9 < x < 1 - 1e-9 and 1e-9 < y < 1 - 1e-9 and np.array_equal(reply(x, y), r):
            found = attempt([0], [0], [], x, y, r)
            if found is not None:
                return found
    return _pairs(pb, p1, p2)


def _bilinear(pb: Payoff) -> np.ndarray:
    """Each banker cell's slope as c + a x + b y + d x y (floats), with one set per player."""
    n = pb.sizes()[2]
    coef = np.zeros((n, 4))
    j, k, i = pb.monomials
    sel = i >= 0
    col = (j[sel] >= 0).astype(int) + 2 * (k[sel] >= 0).astype(int)
    np.add.at(coef, (i[sel], col), pb.floats[sel])
    return coef


def _pairs(pb: Payoff, p1: Payoff, p2: Payoff) -> NashAnswer | None:
    """Both players mixing their one set each, the banker mixing two cells: every pair of cells.

    Each banker slope is bilinear, S_i = c + a x + b y + d x y; two of them vanish together at the roots
    of a quadratic in x. Every root in the open square is completed in floats (the two cells' draw
    probabilities from the players' indifference) and, if that is an equilibrium in floats, solved and
    certified exactly.
    """
    n = pb.sizes()[2]
    c0, cx, cy, cxy = _bilinear(pb).T
    corners = np.stack([c0, c0 + cx, c0 + cy, c0 + cx + cy + cxy])
    live = np.nonzero((corners.min(axis=0) < 0) & (corners.max(axis=0) > 0))[0]  # the slope can vanish
    a_idx, b_idx = np.triu_indices(len(live), 1)
    # Both orientations: y is recovered from the first cell, which must involve it.
    a, b = np.concatenate([live[a_idx], live[b_idx]]), np.concatenate([live[b_idx], live[a_idx]])
    qa = cx[b] * cxy[a] - cxy[b] * cx[a]
    qb = c0[b] * cxy[a] + cx[b] * cy[a] - cy[b] * cx[a] - cxy[b] * c0[a]
    qc = c0[b] * cy[a] - cy[b] * c0[a]
    size = np.maximum(np.maximum(np.abs(qa), np.abs(qb)), np.abs(qc))
    ok = size > 0
    qa, qb, qc, a, b, size = qa[ok] / size[ok], qb[ok] / size[ok], qc[ok] / size[ok], a[ok], b[ok], size[ok]
    disc = qb * qb - 4 * qa * qc
    candidates = []
    with np.errstate(divide="ignore", invalid="ignore"):
        sq = np.sqrt(np.maximum(disc, 0))
        linear = np.abs(qa) < 1e-12
        roots = [np.where(linear, -qc / qb, (-qb + sq) / (2 * qa)), np.where(linear, np.nan, (-qb - sq) / (2 * qa))]
    for xs in roots:
        good = (disc >= 0) & np.isfinite(xs) & (xs > 1e-9) & (xs < 1 - 1e-9)
        with np.errstate(divide="ignore", invalid="ignore"):
            ys = -(c0[a] + cx[a] * xs) / (cy[a] + cxy[a] * xs)
        good &= np.isfinite(ys) & (ys > 1e-9) & (ys < 1 - 1e-9)
        candidates += [(float(xs[q]), float(ys[q]), int(a[q]), int(b[q])) for q in np.nonzero(good)[0]]
    for xr, yr, ia, ib in candidates:
        xf, yf = np.array([xr]), np.array([yr])
        sr = pb.float_slopes("r", xf, yf, np.zeros(n))
        r = (sr > 0).astype(float)
        # The players' slopes are affine in (r_a, r_b): solve for indifference.
        base, ea, eb = (_player_slopes(p1, p2, xf, yf, _set(r, ia, va, ib, vb)) for va, vb in ((0, 0), (1, 0), (0, 1)))
        ea, eb = ea - base, eb - base
        mat = np.column_stack([ea, eb])
        if abs(np.linalg.det(mat)) < 1e-300:
            continue
        ra, rb = np.linalg.solve(mat, -base)
        if not (-1e-9 <= ra <= 1 + 1e-9 and -1e-9 <= rb <= 1 + 1e-9):
            continue
        found = try_support(pb, p1, p2, [0], [0], [ia, ib], xf, yf, _set(r, ia, ra, ib, rb))
        if isinstance(found, NashAnswer):
            return found
    return None


def _player_slopes(p1: Payoff, p2: Payoff, x: np.ndarray, y: np.ndarray, r: np.ndarray) -> np.ndarray:
    return np.array([p1.float_slopes("x", x, y, r)[0], p2.float_slopes("y", x, y, r)[0]])


def _set(r: np.ndarray, ia: int, va: float, ib: int, vb: float) -> np.ndarray:
    out = r.copy()
    out[ia], out[ib] = va, vb
    return out
