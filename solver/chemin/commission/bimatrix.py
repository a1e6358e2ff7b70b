"""The commission game (bimatrix): every equilibrium with one ponte set; an exact search with several."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from solver.chemin.dominance import DominanceStep
from solver.chemin.game import Coefficients, Game
from solver.chemin.guarantees import banker_slope_signs, ponte_slope_signs
from solver.chemin.zerosum import banker_reply, zero_sum
from solver.exact.linalg import solve_square
from solver.exact.numbers import in_unit_interval
from solver.rules.tableau import Action
from solver.strategy import Side


def one_set_equilibria(game: Game) -> tuple[list[tuple[Fraction, list[Fraction]]], bool]:
    """Every equilibrium of the commission game with one ponte set; returns them and uniqueness."""
    net, gross = game.net, game.gross
    n = len(game.banker_sets)
    bn = [int(x) for x in net.b]
    Gn = [int(x) for x in net.G[0]]
    ag = int(gross.a[0])
    Gg = [int(x) for x in gross.G[0]]
    cands = {Fraction(0), Fraction(1)}
    for bi, g in zip(bn, Gn):
        if (0 < -bi < g) if g > 0 else (g < -bi < 0):  # the breakpoint -bi/g lies in (0, 1)
            cands.add(Fraction(-bi, g))
    found: list[tuple[Fraction, list[Fraction]]] = []
    degenerate = False
    ordered = sorted(cands)
    for k, q in enumerate(ordered):
        qd, qn = q.denominator, q.numerator
        s = [bi * qd + g * qn for bi, g in zip(bn, Gn)]
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
            md, mn = mid.denominator, mid.numerator
            s_mid = [bi * md + g * mn for bi, g in zip(bn, Gn)]
            if ag + sum(Gg[i] for i in range(n) if s_mid[i] > 0) == 0:
                degenerate = True
    unique = False
    if len(found) == 1 and not degenerate:
        q, r = found[0]
        slopes = banker_slope_signs(net, [q])
        tight = [i for i in range(n) if slopes[i] == 0]
        unique = not tight or (0 < q < 1 and len(tight) == 1 and Gg[tight[0]] != 0)
    return found, unique


def is_equilibrium(game: Game, q: list[Fraction], r: list[Fraction]) -> bool:
    """Exact check: every ponte set minimises the gross result, every banker set maximises net."""
    ps = ponte_slope_signs(game.gross, r)
    bs = banker_slope_signs(game.net, q)
    ponte_ok = all((s == 0) or (s > 0 and x == 0) or (s < 0 and x == 1) for s, x in zip(ps, q))
    banker_ok = all((s == 0) or (s > 0 and x == 1) or (s < 0 and x == 0) for s, x in zip(bs, r))
    bounds = in_unit_interval(list(q) + list(r))
    return ponte_ok and banker_ok and bounds


def _banker_reply_for(game: Game, q: list[Fraction]) -> list[Fraction] | None:
    """A banker best reply to q (net payoff) to which q is a best reply for the ponte (gross), or None."""
    return banker_reply(game.net, game.gross, q, game.inert_banker)


def search_equilibrium(game: Game, dominance: tuple[DominanceStep, ...]) -> tuple[list[Fraction], list[Fraction]] | None:
    """Find one equilibrium of the commission game with several ponte sets, exactly.

    Candidates for q, in order: the optimal ponte strategy of the zero-sum game on the banker's net
    payoff (the banker's replies depend on the net payoff only); then every pure q; then every q with
    one mixed set at a breakpoint of an open banker cell's net slope. Each candidate is kept only if
    a banker reply making it an equilibrium exists (:func:`_banker_reply_for`).
    """
    from itertools import product

    m = len(game.ponte_sets)
    settled_q = {
        game.ponte_sets.index(d.infoset): Fraction(1 if d.action is Action.DRAW else 0)
        for d in dominance
        if d.player is Side.PONTE
    }
    settled_b = {d.infoset for d in dominance if d.player is Side.BANKER}
    open_cells = [i for i, k in enumerate(game.banker_sets) if k not in settled_b]

    def attempt(q: list[Fraction]) -> tuple[list[Fraction], list[Fraction]] | None:
        if any(q[j] != v for j, v in settled_q.items()):
            return None
        rr = _banker_reply_for(game, q)
        return (q, rr) if rr is not None else None

    first = zero_sum(game.net).q
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
        sol = solve_square(rows, exact_rhs)
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


def settled_by_dominance(game: Game, dominance: tuple[DominanceStep, ...]) -> bool:
    return len(dominance) == len(game.ponte_sets) + len(game.banker_sets)
