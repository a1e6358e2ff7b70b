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
    from scipy.optimize import root

    if not polys:
        return start
    fp = [_float_poly(p) for p in polys]

    def f(v: np.ndarray) -> np.ndarray:
        return np.array([float(np.sum(c * np.prod(v[None, :] ** e, axis=1))) for e, c in fp])

    sol = root(f, start, method="hybr", options={"xtol": 1e-14})
    if not sol.success or np.max(np.abs(f(sol.x))) > 1e-10:
        return None
    return sol.x


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
         rounds: int = FP_ITERATIONS) -> NashAnswer:
    """Find and certify one Nash equilibrium (see the module docstring).

    Fictitious play proposes averages; the support they suggest is then refined in floats by an
    active-set walk (a set whose best reply contradicts its pure value joins the mixed sets, a mixed
    value leaving [0, 1] is fixed at the bound it crossed) until the support's equations give a float
    equilibrium, which is then solved and certified exactly. If that fails, fictitious play runs longer
    and nearby supports are tried.

    Args:
        pb: the banker's payoff (he maximises it); p1, p2: E[R1] and E[R2] (each player minimises his).
        inert: per side, the sets whose choice changes nothing (kept at stand).

    Raises:
        SolverError: no support tried gave a certified equilibrium.
    """
    state: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    done = 0
    for chunk in (rounds, 4 * rounds, 8 * rounds):
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
    tight = [q for q, s in enumerate(slopes) if s == 0]
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
