"""Iterated strict dominance in baccara banque, with exact margins.

A decision is strictly dominant when its slope keeps one sign whatever the other sides do among the
choices still open. Each slope is multilinear, so its least value over the open box is exact and cheap:

* a banker cell's slope is affine in Player 2's choices once Player 1's are fixed: the least value is
  the least, over Player 1's pure strategies (at most 2^5), of the constant plus each Player 2 term at
  its worse end;
* a player's slope is affine in the banker's cells once the other player's choices are fixed, so its
  least value is, over the other player's pure strategies, the constant plus each cell at its worse end.
  The other player's sets are split into groups that share no cell, and each group is enumerated alone
  (Player 2 under ``sees-first`` has twelve sets, one group per sight of tableau 1).

Rounds repeat until nothing changes. Each step records the side, the set, the dominant action and its
margin: the least gain of that action over the other, over every choice still open, per unit of total
stake (or of the player's tableau), exactly.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.banque.forms import Payoff

MAX_GROUP = 12
"""Largest group of the other player's sets enumerated jointly (2^12 pure strategies)."""


@dataclass(frozen=True)
class BanqueDominance:
    """One decision settled by iterated strict dominance (``side``: player1, player2 or banker; ``index`` into
    the game's sets of that side; ``action``: "D" or "S"; ``margin`` > 0, exact)."""

    side: str
    index: int
    action: str
    margin: Fraction


def _groups(pairs: list[tuple[int, int]], members: list[int]) -> list[list[int]]:
    """Connected groups of ``members`` linked by sharing a cell (pairs: (member, cell))."""
    parent = {m: m for m in members}

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    by_cell: dict[int, int] = {}
    for m, c in pairs:
        if m not in parent or c < 0:  # an absent cell links nothing
            continue
        if c in by_cell:
            parent[find(m)] = find(by_cell[c])
        else:
            by_cell[c] = m
    groups: dict[int, list[int]] = {}
    for m in members:
        groups.setdefault(find(m), []).append(m)
    return list(groups.values())


def _least(
    terms: list[tuple[int, int, int, int]],
    lo: dict[str, list[int]],
    hi: dict[str, list[int]],
    first: str,
    second: str,
    n_first: int,
) -> int | None:
    """Least value over the box of Σ c · first[a] · second[b] (indices −1: absent), the ``first`` side
    enumerated by groups, the ``second`` side taken at its worse end term by term. None: a group too big."""
    open_first = [q for q in range(n_first) if lo[first][q] != hi[first][q]]
    groups = _groups([(a, b) for _, a, b, _ in terms if a >= 0], open_first)
    if any(len(g) > MAX_GROUP for g in groups):
        return None
    owner = {q: n for n, g in enumerate(groups) for q in g}
    # Split the terms: those whose first-side index is open belong to its group; the others to no group.
    by_group: list[list[tuple[int, int, int]]] = [[] for _ in groups]
    loose: list[tuple[int, int, int]] = []
    for c, a, b, _ in terms:
        fa = 1 if a < 0 else None
        if a >= 0 and a not in owner:
            fa = lo[first][a]
        if fa is not None:
            loose.append((c * fa, -1, b))
        else:
            by_group[owner[a]].append((c, a, b))

    def worst(rows: list[tuple[Any, int, int]], values: dict[int, int]) -> Any:
        # Σ over cells b of min over second[b] in [lo, hi] of (Σ coefficients) · second[b].
        per_b: dict[int, Any] = {}
        for c, a, b in rows:
            v = c if a < 0 else c * values[a]
            per_b[b] = per_b.get(b, 0) + v
        total: Any = 0
        for b, v in per_b.items():
            if b < 0:
                total += v
            else:
                total += min(v * lo[second][b], v * hi[second][b])
        return total

    # Terms of different groups may share a cell of the second side only if ... they cannot (groups are
    # linked by shared cells), so the minimum is a sum over groups; loose terms go with their own cells.
    total: Any = 0
    group_cells = [{b for _, _, b in rows} for rows in by_group]
    # Loose terms sharing a cell with a group must be minimised jointly with it.
    shared = [[t for t in loose if t[2] in cells and t[2] >= 0] for cells in group_cells]
    alone = [t for t in loose if t[2] < 0 or not any(t[2] in cells for cells in group_cells)]
    total += worst(alone, {})
    for g, rows, extra in zip(groups, by_group, shared):
        best = None
        for bits in itertools.product((0, 1), repeat=len(g)):
            values = dict(zip(g, bits))
            val = worst(rows + extra, values)
            best = val if best is None else min(best, val)
        total += best
    return int(total)


def iterated_dominance(banker: Payoff, result1: Payoff, result2: Payoff) -> tuple[BanqueDominance, ...]:
    """Iterated strict dominance for the three sides.

    ``banker`` is the banker's payoff (maximised); ``result1`` and ``result2`` are what Player 1 and Player 2
    minimise: E[R1] and E[R2] in the three-person game; for the team (the cooperative solutions) the
    banker's gross payoff θ R1 + (1 − θ) R2, passed as both.
    """
    m1, m2, n = banker.sizes()
    # Bounds stay 0 and 1 (a settled decision is pure), so the arithmetic is in integers.
    lo = {"x": [0] * m1, "y": [0] * m2, "r": [0] * n}
    hi = {"x": [1] * m1, "y": [1] * m2, "r": [1] * n}
    steps: list[BanqueDominance] = []
    rows = {side: _slope_terms(p, side) for p, side in ((banker, "r"), (result1, "x"), (result2, "y"))}
    changed = True
    while changed:
        changed = False
        for side, name, n_side, maximise, first, second in (
            ("r", "banker", n, True, "x", "y"),
            ("x", "player1", m1, False, "y", "r"),
            ("y", "player2", m2, False, "x", "r"),
        ):
            p = {"r": banker, "x": result1, "y": result2}[side]
            sizes = {"x": m1, "y": m2, "r": n}
            for q in range(n_side):
                if lo[side][q] == hi[side][q]:
                    continue
                terms = rows[side].get(q, [])
                low = _least(terms, lo, hi, first, second, sizes[first])
                high = _least([(-c, a, b, d) for c, a, b, d in terms], lo, hi, first, second, sizes[first])
                if low is None or high is None:
                    continue
                high = -high
                gain_draw = low if maximise else -high  # least gain of drawing over standing
                gain_stand = -high if maximise else low
                if gain_draw > 0 or gain_stand > 0:
                    action = "D" if gain_draw > 0 else "S"
                    margin = Fraction(gain_draw if action == "D" else gain_stand, p.denominator)
                    steps.append(BanqueDominance(name, q, action, margin))
                    lo[side][q] = hi[side][q] = 1 if action == "D" else 0
                    changed = True
    return tuple(steps)


def _slope_terms(p: Payoff, side: str) -> dict[int, list[tuple[int, int, int, int]]]:
    """Per index of ``side``: its slope's terms (coefficient, first-side index, second-side index, 0)."""
    j, k, i = p.monomials
    own, first, second = {"r": (i, j, k), "x": (j, k, i), "y": (k, j, i)}[side]
    out: dict[int, list[tuple[int, int, int, int]]] = {}
    for c, o, a, b in zip(p.coef.tolist(), own.tolist(), first.tolist(), second.tolist()):
        if o >= 0 and c:
            out.setdefault(o, []).append((int(c), a, b, 0))
    return out
