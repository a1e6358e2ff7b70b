"""Nash equilibria proposed in floats and solved on their support: the search where no complete one applies.

Under information 3 Player 1 has five sets, and Player 2's sets share banker cells, so the game does not
split into small games of one set each (:mod:`solver.banque.parametric`). Here fictitious play in floats
proposes a profile; its mixed sets J (Player 1), K (Player 2) and the banker's nearly indifferent cells
M give a *support*. On a support the equilibrium solves

    S_i(x, y) = 0 for i in M   (the banker indifferent: bilinear in the players' mixed sets),
    T_j(y, r) = 0 for j in J   (Player 1 indifferent),   U_k(x, r) = 0 for k in K  (Player 2),

a square polynomial system, solved exactly with a lexicographic Gröbner basis (sympy). Its solution
can be irrational: the players' probabilities are then elements of a number field Q(α)
(:mod:`solver.exact.numberfield`), never rounded. The candidate is then certified: the exact slopes
of all three sides are computed in that field and every best-reply condition is checked exactly.

This search is not exhaustive: it tries the supports the float proposals suggest, and a support that
fails in floats is not refuted exactly. That it finds nothing proves nothing (:func:`support_search`
says how many supports it tried).
"""

from __future__ import annotations

import itertools

import numpy as np

from solver.banque.forms import Payoff
from solver.banque.support import NashAnswer, try_support

FP_ITERATIONS = 1000
"""Fictitious-play rounds of the float proposal."""
MIXED = 0.02
"""A float average further than this from 0 and 1 marks a set as a candidate for mixing."""
MAX_TRIES = 400
"""Supports tried before giving up."""


def fictitious_play(
    pb: Payoff,
    p1: Payoff,
    p2: Payoff,
    rounds: int = FP_ITERATIONS,
    start: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    first_round: int = 1,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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


def _support_candidates(values: np.ndarray, slopes: np.ndarray) -> tuple[list[int], list[int]]:
    """Indices clearly mixed, and indices possibly mixed (near a bound, or with a small slope)."""
    closeness = np.minimum(values, 1 - values)
    scale = float(np.max(np.abs(slopes))) if len(slopes) else 1.0
    clear = [q for q in range(len(values)) if closeness[q] > MIXED]
    maybe = [q for q in range(len(values)) if q not in clear and (closeness[q] > 1e-3 or abs(slopes[q]) < 1e-4 * (scale or 1.0))]
    return clear, maybe


def _subsets(clear: list[int], maybe: list[int], limit: int = 3) -> list[list[int]]:
    out = [clear]
    for size in range(1, min(limit, len(maybe)) + 1):
        out += [sorted(clear + list(c)) for c in itertools.combinations(maybe, size)]
    for size in range(1, min(2, len(clear)) + 1):
        out += [sorted(set(clear) - set(c)) for c in itertools.combinations(clear, size)]
    return out


def support_search(
    pb: Payoff,
    p1: Payoff,
    p2: Payoff,
    inert: tuple[tuple[bool, ...], ...],
    rounds: int | None = None,
    hint: NashAnswer | None = None,
) -> tuple[NashAnswer | None, int, tuple[np.ndarray, np.ndarray, np.ndarray] | None]:
    """A certified Nash equilibrium from supports proposed in floats, or None; the supports tried; and
    fictitious play's last averages (None if it did not run).

    Fictitious play proposes averages; the support they suggest is then refined in floats by an
    active-set walk (a set whose best reply contradicts its pure value joins the mixed sets, a mixed
    value leaving [0, 1] is fixed at the bound it crossed) until the support's equations give a float
    equilibrium, which is then solved and certified exactly. If that fails, fictitious play runs longer
    and nearby supports are tried (at most :data:`MAX_TRIES`).

    Args:
        pb: the banker's payoff (he maximises it); p1, p2: E[R1] and E[R2] (each player minimises his).
        inert: per side, the sets whose choice changes nothing (kept at stand).
        rounds: fictitious play's first run (default :data:`FP_ITERATIONS`; then 3, 12 and 24 times as many).
        hint: an equilibrium of a nearby game (the previous θ of a sweep): its support is tried first.
    """
    tried = [0]
    rounds = FP_ITERATIONS if rounds is None else rounds
    if hint is not None:
        hx, hy, hr = (np.array([float(v) for v in vals]) for vals in (hint.x, hint.y, hint.r))
        found = _active_set(pb, p1, p2, hx, hy, hr, tried)
        if found is not None:
            return found, tried[0], None
    state: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    done = 0
    for chunk in (rounds, 3 * rounds, 12 * rounds, 24 * rounds):
        state = fictitious_play(pb, p1, p2, chunk, start=state, first_round=done + 1)
        done += chunk
        xf, yf, rf = (v.copy() for v in state)
        for q, dead in enumerate(inert[2]):
            if dead:
                rf[q] = 0.0
        found = _active_set(pb, p1, p2, xf, yf, rf, tried)
        if found is not None:
            return found, tried[0], state
    assert state is not None
    xf, yf, rf = state
    sx, sy, sr = p1.float_slopes("x", xf, yf, rf), p2.float_slopes("y", xf, yf, rf), pb.float_slopes("r", xf, yf, rf)
    jc, jm = _support_candidates(xf, sx)
    kc, km = _support_candidates(yf, sy)
    rclear, rmaybe = _support_candidates(rf, sr)
    order = sorted(rclear + rmaybe, key=lambda q: -min(rf[q], 1 - rf[q]))[:10]
    for J in _subsets(jc, jm):
        for K in _subsets(kc, km):
            nmix = len(J) + len(K)
            for size in range(min(nmix, len(order)), -1, -1):
                for M in itertools.combinations(order, size):
                    tried[0] += 1
                    if tried[0] > MAX_TRIES:
                        return None, tried[0] - 1, state
                    found = try_support(pb, p1, p2, list(J), list(K), list(M), xf, yf, rf)
                    if found is not None:
                        return found, tried[0], state
    return None, tried[0], state


SEARCH_BUDGET = 120
"""Most supports solved in floats by the search from one fictitious-play proposal."""


def _active_set(
    pb: Payoff, p1: Payoff, p2: Payoff, xf: np.ndarray, yf: np.ndarray, rf: np.ndarray, tried: list[int]
) -> NashAnswer | None:
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
        tried[0] += 1
        start = (
            np.where(np.isin(np.arange(len(xf)), J), xf, vals[0]),
            np.where(np.isin(np.arange(len(yf)), K), yf, vals[1]),
            np.where(np.isin(np.arange(len(rf)), M), rf, vals[2]),
        )
        found = try_support(pb, p1, p2, J, K, M, *start, values=vals)
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
