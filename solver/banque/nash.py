"""Nash equilibria of the three-person game: Player 1, Player 2 and the banker.

Player 1 minimises E[R1], Player 2 minimises E[R2] (each his own tableau), the banker maximises
θ E[R1] + (1 − θ) E[R2] net of the tax. Each payoff is multilinear and holds a side's variables
linearly, so a profile is an equilibrium iff every side plays, set by set, a best reply to the signs
of its exact slopes: draw where drawing gains, stand where it loses, mix only where the slope is zero.

Finding one. Fictitious play in floats proposes a profile; its mixed sets J (Player 1), K (Player 2)
and the banker's nearly indifferent cells M give a *support*. On a support the equilibrium solves

    S_i(x, y) = 0 for i in M   (the banker indifferent: bilinear in the players' mixed sets),
    T_j(y, r) = 0 for j in J   (Player 1 indifferent),   U_k(x, r) = 0 for k in K  (Player 2),

a square polynomial system, solved exactly with a lexicographic Gröbner basis (sympy). Its solution
can be irrational: the players' probabilities are then elements of a number field Q(α)
(:mod:`solver.banque.algebraic`), never rounded. The candidate is then certified: the exact slopes
of all three sides are computed in that field and every best-reply condition is checked exactly.
Supports are tried in order of plausibility until one certifies.

Uniqueness is not decided by this search (the search does not enumerate every support).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from solver.banque.algebraic import Algebraic, Field
from solver.banque.forms import Payoff, is_best_reply
from solver.banque.linalg import solve_square
from solver.banque.polysys import solve_near
from solver.errors import SolverError

FP_ITERATIONS = 1000
"""Fictitious-play rounds of the float proposal."""
MIXED = 0.02
"""A float average further than this from 0 and 1 marks a set as a candidate for mixing."""
MAX_TRIES = 400
"""Supports tried before giving up."""


@dataclass(frozen=True)
class NashAnswer:
    """A certified Nash equilibrium: the three strategies (exact: Fraction or Algebraic), the field, the payoffs."""

    x: tuple[Any, ...]
    y: tuple[Any, ...]
    r: tuple[Any, ...]
    field: Field | None
    banker_payoff: Any
    result1: Any
    result2: Any
    support: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    method: str


def fictitious_play(pb: Payoff, p1: Payoff, p2: Payoff, rounds: int = FP_ITERATIONS,
                    start: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
                    first_round: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Float fictitious play: every side best-replies to the others' running averages."""
    m1, m2, n = pb.sizes()
    x, y, r = start if start is not None else (np.full(m1, 0.5), np.full(m2, 0.5), np.full(n, 0.5))
    x, y, r = x.copy(), y.copy(), r.copy()
    for t in range(first_round, first_round + rounds):
        bx = (p1.float_slopes("x", x, y, r) < 0).astype(float)
        by = (p2.float_slopes("y", x, y, r) < 0).astype(float)
        br = (pb.float_slopes("r", x, y, r) > 0).astype(float)
        a = 1.0 / (t + 1)
        x += a * (bx - x)
        y += a * (by - y)
        r += a * (br - r)
    return x, y, r


def _poly(p: Payoff, rows: np.ndarray, side_skip: str, pure: Mapping[str, Sequence[Fraction]],
          var: dict[str, dict[int, int]]) -> dict[int, dict[tuple[int, ...], int]]:
    """The slopes of ``side_skip`` at the indices in ``rows``, as sparse integer polynomials in the support
    variables (``var[side][index]`` is a variable number; other sets take their pure value)."""
    j, k, i = p.monomials
    own = {"x": j, "y": k, "r": i}[side_skip]
    nvar = sum(len(v) for v in var.values())
    wanted = set(int(q) for q in rows)
    out: dict[int, dict[tuple[int, ...], int]] = {q: {} for q in wanted}
    cols = {"x": j, "y": k, "r": i}
    sel = np.nonzero(np.isin(own, list(wanted)))[0]
    for m in sel.tolist():
        c = int(p.coef[m])
        expo = [0] * nvar
        for side in ("x", "y", "r"):
            if side == side_skip:
                continue
            idx = int(cols[side][m])
            if idx < 0:
                continue
            if idx in var[side]:
                expo[var[side][idx]] += 1
            else:
                val = pure[side][idx]
                if val == 0:
                    c = 0
                    break
        if c:
            key = tuple(expo)
            poly = out[int(own[m])]
            poly[key] = poly.get(key, 0) + c
    return out


def _certify(pb: Payoff, p1: Payoff, p2: Payoff, x: list[Any], y: list[Any], r: list[Any]) -> bool:
    """Exact best-reply checks for all three sides."""
    if not all(0 <= v <= 1 for v in list(x) + list(y) + list(r)):
        return False
    return (not is_best_reply(x, p1.slopes("x", x, y, r), maximise=False)
            and not is_best_reply(y, p2.slopes("y", x, y, r), maximise=False)
            and not is_best_reply(r, pb.slopes("r", x, y, r), maximise=True))


def _float_poly(poly: dict[tuple[int, ...], int]) -> tuple[np.ndarray, np.ndarray]:
    expos = np.array(list(poly.keys()), dtype=np.int64).reshape(len(poly), -1)
    coefs = np.array([float(c) for c in poly.values()])
    scale = np.max(np.abs(coefs)) if len(coefs) else 1.0
    return expos, coefs / (scale or 1.0)


def _float_root(polys: list[dict[tuple[int, ...], int]], start: np.ndarray) -> np.ndarray | None:
    """Newton's method (scipy's hybrid) on a square polynomial system, from ``start``."""
    if not polys:
        return start
    from scipy.optimize import root

    fp = [_float_poly(p) for p in polys]

    def f(v: np.ndarray) -> np.ndarray:
        return np.array([float(np.sum(c * np.prod(v[None, :] ** e, axis=1))) for e, c in fp])

    for method, options in (("hybr", {"xtol": 1e-14}), ("lm", {"xtol": 1e-15, "ftol": 1e-15})):
        sol = root(f, start, method=method, options=options)
        if np.max(np.abs(f(sol.x))) <= 1e-10:
            return sol.x
    return None


def _support_candidates(values: np.ndarray, slopes: np.ndarray) -> tuple[list[int], list[int]]:
    """Indices clearly mixed, and indices possibly mixed (near a bound, or with a small slope)."""
    closeness = np.minimum(values, 1 - values)
    scale = float(np.max(np.abs(slopes))) if len(slopes) else 1.0
    clear = [q for q in range(len(values)) if closeness[q] > MIXED]
    maybe = [q for q in range(len(values)) if q not in clear
             and (closeness[q] > 1e-3 or abs(slopes[q]) < 1e-4 * (scale or 1.0))]
    return clear, maybe


def _subsets(clear: list[int], maybe: list[int], limit: int = 3) -> list[list[int]]:
    out = [clear]
    for size in range(1, min(limit, len(maybe)) + 1):
        out += [sorted(clear + list(c)) for c in itertools.combinations(maybe, size)]
    for size in range(1, min(2, len(clear)) + 1):
        out += [sorted(set(clear) - set(c)) for c in itertools.combinations(clear, size)]
    return out


def nash(pb: Payoff, p1: Payoff, p2: Payoff, inert: tuple[tuple[bool, ...], ...],
         rounds: int = FP_ITERATIONS, hint: NashAnswer | None = None) -> NashAnswer:
    """Find and certify one Nash equilibrium (see the module docstring).

    Fictitious play proposes averages; the support they suggest is then refined in floats by an
    active-set walk (a set whose best reply contradicts its pure value joins the mixed sets, a mixed
    value leaving [0, 1] is fixed at the bound it crossed) until the support's equations give a float
    equilibrium, which is then solved and certified exactly. If that fails, fictitious play runs longer
    and nearby supports are tried.

    Args:
        pb: the banker's payoff (he maximises it); p1, p2: E[R1] and E[R2] (each player minimises his).
        inert: per side, the sets whose choice changes nothing (kept at stand).
        hint: an equilibrium of a nearby game (the previous θ of a sweep): its support is tried first.

    Raises:
        SolverError: no support tried gave a certified equilibrium.
    """
    if pb.sizes()[:2] == (1, 1):
        found = _one_set_each(pb, p1, p2)
        if found is not None:
            return found
    if hint is not None:
        start = tuple(np.array([float(v) for v in vals]) for vals in (hint.x, hint.y, hint.r))
        found = _active_set(pb, p1, p2, *start)
        if found is not None:
            return found
    state: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    done = 0
    for chunk in (rounds, 3 * rounds, 12 * rounds, 24 * rounds):
        state = fictitious_play(pb, p1, p2, chunk, start=state, first_round=done + 1)
        done += chunk
        xf, yf, rf = (v.copy() for v in state)
        for q, dead in enumerate(inert[2]):
            if dead:
                rf[q] = 0.0
        found = _active_set(pb, p1, p2, xf, yf, rf)
        if found is not None:
            return found
    assert state is not None
    xf, yf, rf = state
    sx, sy, sr = p1.float_slopes("x", xf, yf, rf), p2.float_slopes("y", xf, yf, rf), pb.float_slopes("r", xf, yf, rf)
    jc, jm = _support_candidates(xf, sx)
    kc, km = _support_candidates(yf, sy)
    rclear, rmaybe = _support_candidates(rf, sr)
    order = sorted(rclear + rmaybe, key=lambda q: -min(rf[q], 1 - rf[q]))[:10]
    tries = 0
    for J in _subsets(jc, jm):
        for K in _subsets(kc, km):
            nmix = len(J) + len(K)
            for size in range(min(nmix, len(order)), -1, -1):
                for M in itertools.combinations(order, size):
                    tries += 1
                    if tries > MAX_TRIES:
                        raise SolverError("no certified Nash equilibrium found (support search exhausted)")
                    found = _try_support(pb, p1, p2, list(J), list(K), list(M), xf, yf, rf)
                    if found is not None:
                        return found
    raise SolverError("no certified Nash equilibrium found (no support certified)")


def _one_set_each(pb: Payoff, p1: Payoff, p2: Payoff) -> NashAnswer | None:
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
        found = _try_support(pb, p1, p2, J, K, M, np.array([x]), np.array([y]), r)
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
        found = _try_support(pb, p1, p2, [0], [0], [ia, ib], xf, yf, _set(r, ia, ra, ib, rb))
        if isinstance(found, NashAnswer):
            return found
    return None


def _player_slopes(p1: Payoff, p2: Payoff, x: np.ndarray, y: np.ndarray, r: np.ndarray) -> np.ndarray:
    return np.array([p1.float_slopes("x", x, y, r)[0], p2.float_slopes("y", x, y, r)[0]])


def _set(r: np.ndarray, ia: int, va: float, ib: int, vb: float) -> np.ndarray:
    out = r.copy()
    out[ia], out[ib] = va, vb
    return out


SEARCH_BUDGET = 120
"""Most supports solved in floats by the search from one fictitious-play proposal."""


def _active_set(pb: Payoff, p1: Payoff, p2: Payoff, xf: np.ndarray, yf: np.ndarray, rf: np.ndarray) -> NashAnswer | None:
    """Best-first search over supports from the one fictitious play suggests (see :func:`nash`).

    Each support is solved in floats; a float equilibrium is solved and certified exactly; otherwise the
    worst violated condition names the next support (a set joins or leaves the mixed ones), tried first.
    The first supports give the banker as many mixed cells as the players have mixed sets, chosen among
    the cells fictitious play mixes most.
    """
    sx, sy, sr = p1.float_slopes("x", xf, yf, rf), p2.float_slopes("y", xf, yf, rf), pb.float_slopes("r", xf, yf, rf)
    closeness = np.minimum(rf, 1 - rf)
    order = [q for q in np.argsort(-closeness)[:8].tolist() if closeness[q] > 1e-3]
    values = ((sx < 0).astype(float), (sy < 0).astype(float), (sr > 0).astype(float))
    queue: list[tuple[list[int], list[int], list[int], tuple[np.ndarray, np.ndarray, np.ndarray]]] = []
    for J in _player_supports(xf):
        for K in _player_supports(yf):
            need = min(len(J) + len(K), len(order))
            queue += [(J, K, sorted(M), values) for M in itertools.combinations(order, need)][:12]
    seen: set[tuple[tuple[int, ...], ...]] = set()
    budget = SEARCH_BUDGET
    while queue and budget:
        J, K, M, vals = queue.pop(0)
        key = (tuple(J), tuple(K), tuple(M))
        if key in seen:
            continue
        seen.add(key)
        budget -= 1
        start = (np.where(np.isin(np.arange(len(xf)), J), xf, vals[0]),
                 np.where(np.isin(np.arange(len(yf)), K), yf, vals[1]),
                 np.where(np.isin(np.arange(len(rf)), M), rf, vals[2]))
        found = _try_support(pb, p1, p2, J, K, M, *start, values=vals)
        if isinstance(found, NashAnswer):
            return found
        if found is None:
            # No float solution on this support: try it without its least mixed player set.
            mixed = [("x", q, xf[q]) for q in J] + [("y", q, yf[q]) for q in K]
            if mixed:
                side, q, _ = min(mixed, key=lambda t: min(t[2], 1 - t[2]))
                nj = [v for v in J if not (side == "x" and v == q)]
                nk = [v for v in K if not (side == "y" and v == q)]
                queue.insert(0, (nj, nk, M[: len(nj) + len(nk)], vals))
            continue
        x, y, r, (side, q, action) = found
        nxt = {"x": list(J), "y": list(K), "r": list(M)}
        if action == "add":
            nxt[side] = sorted(nxt[side] + [q])
        else:
            nxt[side] = [v for v in nxt[side] if v != q]
        queue.insert(0, (nxt["x"], nxt["y"], nxt["r"], (x, y, r)))
    return None


def _player_supports(values: np.ndarray) -> list[list[int]]:
    """Mixed sets to try for one player: those fictitious play mixes clearly, then with each doubtful one."""
    closeness = np.minimum(values, 1 - values)
    clear = [q for q in range(len(values)) if closeness[q] > 0.1]
    doubtful = sorted((q for q in range(len(values)) if MIXED < closeness[q] <= 0.1), key=lambda q: -closeness[q])
    out = [clear]
    for q in doubtful:
        out.append(sorted(out[-1] + [q]))
    if len(values) <= 2 and list(range(len(values))) not in out:
        out.append(list(range(len(values))))  # few sets: also try them all mixed
    return out


def _try_support(pb: Payoff, p1: Payoff, p2: Payoff, J: list[int], K: list[int], M: list[int],
                 xf: np.ndarray, yf: np.ndarray, rf: np.ndarray,
                 values: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> Any:
    """Solve one support. Returns a certified answer; or, when ``values`` (the current pure values) are
    given and the float solution is not an equilibrium, (x, y, r, change) with the support change the
    active-set walk should make next; or None."""
    walking = values is not None
    if values is None:
        sx, sy, sr = p1.float_slopes("x", xf, yf, rf), p2.float_slopes("y", xf, yf, rf), pb.float_slopes("r", xf, yf, rf)
        values = ((sx < 0).astype(float), (sy < 0).astype(float), (sr > 0).astype(float))
    pure = {side: [Fraction(int(round(min(1.0, max(0.0, v))))) for v in vals] for side, vals in zip("xyr", values)}
    var = {"x": {j: n for n, j in enumerate(J)}, "y": {k: len(J) + n for n, k in enumerate(K)},
           "r": {i: len(J) + len(K) + n for n, i in enumerate(M)}}
    e1 = _poly(pb, np.array(M), "r", pure, var)
    e2 = _poly(p1, np.array(J), "x", pure, var)
    e3 = _poly(p2, np.array(K), "y", pure, var)
    system = [e1[i] for i in M] + [e2[j] for j in J] + [e3[k] for k in K]
    start = np.array([xf[j] for j in J] + [yf[k] for k in K] + [rf[i] for i in M])
    sol = _float_root(system, start)
    if sol is None:
        return None
    x = np.array([float(v) for v in pure["x"]])
    y = np.array([float(v) for v in pure["y"]])
    r = np.array([float(v) for v in pure["r"]])
    x[J], y[K], r[M] = sol[: len(J)], sol[len(J): len(J) + len(K)], sol[len(J) + len(K):]
    change = _violation(pb, p1, p2, x, y, r, J, K, M)

    def walk() -> Any:
        if change is None or not walking:
            return None
        side, q, action = change
        vec = {"x": x, "y": y, "r": r}[side]
        if action == "drop":
            vec[q] = 0.0 if vec[q] < 0.5 else 1.0
        return np.clip(x, 0, 1), np.clip(y, 0, 1), np.clip(r, 0, 1), change

    if change is not None and change[0] != "r":
        return walk()
    # The players' part is a float equilibrium: solve it exactly; the banker's part is completed exactly
    # over every indifferent cell (a banker-side violation may only mean a poor choice of M).
    players = len(J) + len(K)
    exact_xy: list[Any] | None = None
    if len(M) >= players:
        # The banker's indifference alone pins the players' mixed sets: solve those equations only.
        jac = _float_jacobian(system[: len(M)], sol)[:, :players]
        rows = _well_conditioned_rows(jac, players)
        if rows is not None:
            sub = [_restrict(system[q], players) for q in rows]
            exact_xy = solve_near(sub, list(sol[:players]))
    if exact_xy is None:
        full = solve_near(system, list(sol))
        exact_xy = None if full is None else full[:players]
    if exact_xy is None:
        return walk()
    xe, ye = list(pure["x"]), list(pure["y"])
    for n, j in enumerate(J):
        xe[j] = exact_xy[n]
    for n, k in enumerate(K):
        ye[k] = exact_xy[len(J) + n]
    if not all(0 <= v <= 1 for v in xe + ye):
        return walk()
    re_ = _banker_completion(pb, p1, p2, xe, ye, J, K, r)
    if re_ is None or not _certify(pb, p1, p2, xe, ye, re_):
        return walk()
    values_all = xe + ye + re_
    fields = {v.field for v in values_all if isinstance(v, Algebraic)}
    field = fields.pop() if fields else None
    mixed_r = tuple(q for q, v in enumerate(re_) if 0 < v < 1)
    return NashAnswer(
        x=tuple(xe), y=tuple(ye), r=tuple(re_), field=field,
        banker_payoff=pb.value(xe, ye, re_), result1=p1.value(xe, ye, re_), result2=p2.value(xe, ye, re_),
        support=(tuple(J), tuple(K), mixed_r),
        method="fictitious play (floats) proposes a support; the players' mixed probabilities solved exactly from "
               "its equations (Gröbner basis), the banker's from the players' indifference (exact vertex search); "
               "certified by exact best-reply checks of all three sides",
    )


MAX_INDIFFERENT = 10
"""Most indifferent banker cells searched for the banker's completion."""


def _banker_completion(pb: Payoff, p1: Payoff, p2: Payoff, x: list[Any], y: list[Any], J: list[int], K: list[int],
                       hint: np.ndarray) -> list[Any] | None:
    """A banker best reply to (x, y) that keeps x and y best replies, exactly; None if there is none.

    Cells with a non-zero exact slope are forced. On the indifferent cells T the conditions are linear:
    Player 1's slope is zero on J and has the sign of his pure choice elsewhere, likewise Player 2; the
    vertices of the box [0, 1]^T are searched (|J| + |K| cells solve the equalities, the rest sit at 0
    or 1), nearest the float hint first.
    """
    slopes = pb.slopes("r", x, y, [0] * pb.sizes()[2])
    r: list[Any] = [Fraction(1) if s > 0 else Fraction(0) for s in slopes]
    dead = pb.dead("r") & p1.dead("r") & p2.dead("r")
    tight = [q for q, s in enumerate(slopes) if s == 0 and not dead[q]]
    if len(tight) > MAX_INDIFFERENT:
        tight = sorted(tight, key=lambda q: -min(hint[q], 1 - hint[q]))[:MAX_INDIFFERENT]
    eqs = [("x", j) for j in J] + [("y", k) for k in K]

    def player_slopes(rr: list[Any]) -> tuple[list[Any], list[Any]]:
        return p1.slopes("x", x, y, rr), p2.slopes("y", x, y, rr)

    def ok(rr: list[Any]) -> bool:
        return (not is_best_reply(x, p1.slopes("x", x, y, rr), maximise=False)
                and not is_best_reply(y, p2.slopes("y", x, y, rr), maximise=False))

    base = player_slopes(r)
    units = []
    for q in tight:
        e = list(r)
        e[q] = Fraction(1)
        s1, s2 = player_slopes(e)
        units.append(([a - b for a, b in zip(s1, base[0])], [a - b for a, b in zip(s2, base[1])]))

    def value(which: str, idx: int, slopes_pair: tuple[list[Any], list[Any]]) -> Any:
        return slopes_pair[0][idx] if which == "x" else slopes_pair[1][idx]

    order = sorted(range(len(tight)), key=lambda q: -min(hint[tight[q]], 1 - hint[tight[q]]))
    for basis in itertools.combinations(order, len(eqs)):
        rest = [q for q in order if q not in basis]
        corners = sorted(itertools.product((0, 1), repeat=len(rest)),
                         key=lambda c: sum(abs(v - hint[tight[q]]) for q, v in zip(rest, c)))
        for corner in corners[:256]:
            cand = list(r)
            for q, v in zip(rest, corner):
                cand[tight[q]] = Fraction(v)
            if eqs:
                cur = player_slopes(cand)
                rows = [[value(w, i, units[q]) for q in basis] for w, i in eqs]
                rhs = [-value(w, i, cur) for w, i in eqs]
                sol = solve_square(rows, rhs)
                if sol is None:
                    continue
                for q, v in zip(basis, sol):
                    cand[tight[q]] = cand[tight[q]] + v
            if all(0 <= v <= 1 for v in cand) and ok(cand):
                return cand
    return None


def _float_jacobian(polys: list[dict[tuple[int, ...], int]], at: np.ndarray) -> np.ndarray:
    out = np.zeros((len(polys), len(at)))
    for n, poly in enumerate(polys):
        e, c = _float_poly(poly)
        for v in range(len(at)):
            de = e.copy()
            coef = c * de[:, v]
            de[:, v] = np.maximum(de[:, v] - 1, 0)
            out[n, v] = float(np.sum(coef * np.prod(at[None, :] ** de, axis=1)))
    return out


def _well_conditioned_rows(jac: np.ndarray, want: int) -> list[int] | None:
    """``want`` rows of the Jacobian that are well conditioned (a nonsingular square block), greedily."""
    if want == 0:
        return []
    chosen: list[int] = []
    for q in np.argsort(-np.linalg.norm(jac, axis=1)).tolist():
        trial = chosen + [q]
        sv = np.linalg.svd(jac[trial], compute_uv=False)
        if sv[-1] > 1e-8 * max(1.0, sv[0]):
            chosen = trial
        if len(chosen) == want:
            return chosen
    return None


def _restrict(poly: dict[tuple[int, ...], int], keep: int) -> dict[tuple[int, ...], int]:
    """A polynomial free of the variables after the first ``keep`` (they do not occur), on those only."""
    out: dict[tuple[int, ...], int] = {}
    for expo, c in poly.items():
        if any(expo[keep:]):
            raise ValueError("the banker's indifference does not involve his own cells")
        out[expo[:keep]] = out.get(expo[:keep], 0) + c
    return out


def _violation(pb: Payoff, p1: Payoff, p2: Payoff, x: np.ndarray, y: np.ndarray, r: np.ndarray,
               J: list[int], K: list[int], M: list[int]) -> tuple[str, int, str] | None:
    """The worst failure of the float profile to be an equilibrium, as a support change, or None.

    A mixed value outside [0, 1] leaves the support ("drop"); a pure value contradicted by its slope
    joins it ("add"). Floats with a tolerance: a filter before the exact solve, never a proof.
    """
    worst: tuple[float, tuple[str, int, str]] | None = None
    for side, vals, mixed in (("x", x, J), ("y", y, K), ("r", r, M)):
        for q in mixed:
            excess = max(-vals[q], vals[q] - 1)
            if excess > 1e-9 and (worst is None or excess > worst[0]):
                worst = (excess, (side, q, "drop"))
    if worst is not None:
        return worst[1]
    for p, side, vals, mixed, maximise in ((p1, "x", x, J, False), (p2, "y", y, K, False), (pb, "r", r, M, True)):
        s = p.float_slopes(side, x, y, r)
        scale = max(1e-300, float(np.max(np.abs(s))) if len(s) else 1.0)
        for q, (v, sl) in enumerate(zip(vals, s)):
            if q in mixed or abs(sl) <= 1e-9 * scale:
                continue
            want = 1.0 if ((sl > 0) == maximise) else 0.0
            if v != want:
                bad = abs(sl) / scale
                if worst is None or bad > worst[0]:
                    worst = (bad, (side, q, "add"))
    return None if worst is None else worst[1]
