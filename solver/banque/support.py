"""The exact side of the Nash search: one support solved, completed and certified.

A *support* is Player 1's mixed sets J, Player 2's K and the banker's indifferent cells M. On it the
equilibrium solves the banker's indifference S_i(x, y) = 0 (i in M) and the players' T_j(y, r) = 0,
U_k(x, r) = 0: a square polynomial system. It is solved in floats first (Newton's method; a filter,
never a proof), then exactly: the players' probabilities from the banker's indifference alone when it
pins them (a lexicographic Gröbner basis, :mod:`solver.banque.polysys`), else from the whole system; the
banker's strategy is then completed exactly over every indifferent cell so that the players stay best
replies; and all three sides' best replies are checked exactly (:func:`certify_profile`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from solver.banque.forms import Payoff, is_best_reply
from solver.banque.polysys import solve_near
from solver.exact.linalg import solve_square
from solver.exact.numberfield import Field, FieldElement


@dataclass(frozen=True)
class NashAnswer:
    """A certified Nash equilibrium: the three strategies (exact: Fraction or FieldElement), the field, the
    payoffs, how it was found, and where the search proved there is none."""

    x: tuple[Any, ...]
    y: tuple[Any, ...]
    r: tuple[Any, ...]
    field: Field | None
    banker_payoff: Any
    result1: Any
    result2: Any
    support: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    method: str
    refuted: tuple[Fraction, ...] = ()
    """Values of Player 1's draw probability at 5 (one set) where the search proved no equilibrium lies."""


def _poly(
    p: Payoff, rows: np.ndarray, side_skip: str, pure: Mapping[str, Sequence[Fraction]], var: dict[str, dict[int, int]]
) -> dict[int, dict[tuple[int, ...], int]]:
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


def certify_profile(pb: Payoff, p1: Payoff, p2: Payoff, x: list[Any], y: list[Any], r: list[Any]) -> bool:
    """Exact best-reply checks for all three sides."""
    if not all(0 <= v <= 1 for v in list(x) + list(y) + list(r)):
        return False
    return (
        not is_best_reply(x, p1.slopes("x", x, y, r), maximise=False)
        and not is_best_reply(y, p2.slopes("y", x, y, r), maximise=False)
        and not is_best_reply(r, pb.slopes("r", x, y, r), maximise=True)
    )


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
            found: np.ndarray = sol.x
            return found
    return None


def try_support(
    pb: Payoff,
    p1: Payoff,
    p2: Payoff,
    J: list[int],
    K: list[int],
    M: list[int],
    xf: np.ndarray,
    yf: np.ndarray,
    rf: np.ndarray,
    values: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> Any:
    """Solve one support. Returns a certified answer; or, when ``values`` (the current pure values) are
    given and the float solution is not an equilibrium, (x, y, r, change) with the support change the
    active-set walk should make next; or None."""
    walking = values is not None
    if values is None:
        sx, sy, sr = p1.float_slopes("x", xf, yf, rf), p2.float_slopes("y", xf, yf, rf), pb.float_slopes("r", xf, yf, rf)
        values = ((sx < 0).astype(float), (sy < 0).astype(float), (sr > 0).astype(float))
    pure = {side: [Fraction(int(round(min(1.0, max(0.0, v))))) for v in vals] for side, vals in zip("xyr", values)}
    var = {
        "x": {j: n for n, j in enumerate(J)},
        "y": {k: len(J) + n for n, k in enumerate(K)},
        "r": {i: len(J) + len(K) + n for n, i in enumerate(M)},
    }
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
    x[J], y[K], r[M] = sol[: len(J)], sol[len(J) : len(J) + len(K)], sol[len(J) + len(K) :]
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
    if re_ is None or not certify_profile(pb, p1, p2, xe, ye, re_):
        return walk()
    values_all = xe + ye + re_
    fields = {v.field for v in values_all if isinstance(v, FieldElement)}
    field = fields.pop() if fields else None
    mixed_r = tuple(q for q, v in enumerate(re_) if 0 < v < 1)
    return NashAnswer(
        x=tuple(xe),
        y=tuple(ye),
        r=tuple(re_),
        field=field,
        banker_payoff=pb.value(xe, ye, re_),
        result1=p1.value(xe, ye, re_),
        result2=p2.value(xe, ye, re_),
        support=(tuple(J), tuple(K), mixed_r),
        method="fictitious play (floats) proposes a support; the players' mixed probabilities solved exactly from "
        "its equations (Gröbner basis), the banker's from the players' indifference (exact vertex search); "
        "certified by exact best-reply checks of all three sides",
    )


MAX_INDIFFERENT = 10
"""Most indifferent banker cells searched for the banker's completion."""


def _banker_completion(
    pb: Payoff, p1: Payoff, p2: Payoff, x: list[Any], y: list[Any], J: list[int], K: list[int], hint: np.ndarray
) -> list[Any] | None:
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
        return not is_best_reply(x, p1.slopes("x", x, y, rr), maximise=False) and not is_best_reply(
            y, p2.slopes("y", x, y, rr), maximise=False
        )

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
        corners = sorted(
            itertools.product((0, 1), repeat=len(rest)), key=lambda c: sum(abs(v - hint[tight[q]]) for q, v in zip(rest, c))
        )
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


def _violation(
    pb: Payoff, p1: Payoff, p2: Payoff, x: np.ndarray, y: np.ndarray, r: np.ndarray, J: list[int], K: list[int], M: list[int]
) -> tuple[str, int, str] | None:
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
