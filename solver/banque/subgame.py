"""Player 2 against the banker when Player 1's draw probability x is fixed: one small game per set.

Under information 1 or 2 Player 1 has one set (his 5), where he draws with probability x, and every
banker cell i sees at most one of Player 2's sets, k(i) (blind: his one set; sees-first: his 5 after
what tableau 1 showed, which the cell shows too). The three sides' slopes (gains of drawing over
standing, integers over each payoff's denominator, which changes no sign) are then

    S_i(x, y) = c_i + a_i x + (b_i + d_i x) y_k(i)                    the banker's, cell i;
    U_k(x, r) = u0_k + u1_k x + Σ_{i ∈ C_k} (e0_i + e1_i x) r_i       Player 2's, set k;
    T(y, r)   = t0 + Σ_k t_k y_k + Σ_i (f_i + g_i y_k(i)) r_i         Player 1's

(each side's variables enter every deal at most once, so no slope holds its own side). With x fixed
the game falls apart into one small game per set k of Player 2 (y_k against his cells C_k) and the
cells no set of Player 2 reaches (their slope depends on x alone); Player 1's slope T is a sum of one
part per small game.

One small game, exactly. y is a best reply where U ≥ 0 (y = 0), U ≤ 0 (y = 1) or U = 0 (y mixed);
the banker's cells follow the signs of S_i(x, y), which change at the breakpoints
y = −(c + a x)/(b + d x). Every equilibrium of the small game therefore sits at y = 0, at y = 1, at a
breakpoint (the cells whose slope vanishes there free in [0, 1]) or in an open stretch between two of
them where U vanishes: finitely many *components*, each a point y (or a stretch) with the polytope of
its free cells {r ∈ [0, 1]^F : U(r) ≥ 0, ≤ 0 or = 0}. Listing them is complete: every equilibrium of
the small game lies in one. Over a component T's part is linear in the free cells (and, over a
stretch, affine in y for fixed cells), so its range is a closed interval, found exactly at the
polytope's vertices (:func:`box_extremes`); any value in it is reached by a point of the component
(:meth:`Component.realise`).

Numbers are exact: Fractions, or elements of one number field when x is irrational.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

from solver.errors import SolverError

MAX_FREE = 12
"""Most cells of one small game left free at one point whose constrained vertices are enumerated
(2^12 · 12 candidates); beyond it the point is not decided (:class:`Undecided`)."""
MAX_CHOICES = 4096
"""Most combinations of the small games' components kept while adding up Player 1's slope."""


class Undecided(SolverError):
    """A point of the search the exact enumeration does not decide (too many free cells or choices)."""


@dataclass(frozen=True)
class Cell:
    """A live banker cell: its index among the game's banker cells and its slopes' integer coefficients.

    ``s``: (c, a, b, d) of S = c + a x + (b + d x) y; ``e``: (e0, e1) of its term in U;
    ``t``: (f, g) of its term (f + g y) r in T.
    """

    index: int
    s: tuple[int, int, int, int]
    e: tuple[int, int]
    t: tuple[int, int]


@dataclass(frozen=True)
class Group:
    """Player 2's set ``k`` and the live cells it reaches (``k`` = −1: the cells no set reaches).

    ``u``: (u0, u1) of U, the fixed cells drawn folded in; ``t``: (constant, slope in y) of T's part
    from this set and its fixed cells, so that T's part is t0 + t1 y + Σ_live (f + g y) r.
    """

    k: int
    cells: tuple[Cell, ...]
    u: tuple[int, int]
    t: tuple[int, int]


@dataclass(frozen=True)
class Component:
    """Equilibria of one small game: y (or the stretch [y, y_end]), the cells drawn, the free ones.

    ``mode``: what the free cells must keep U at: +1 U ≥ 0 (y = 0), −1 U ≤ 0 (y = 1), 0 U = 0.
    ``lo``, ``hi``: the range of T's part over the component; ``at_lo``, ``at_hi``: where it is reached
    (y, the free cells' values).
    """

    group: Group
    y: Any
    y_end: Any
    drawn: tuple[int, ...]
    free: tuple[int, ...]
    mode: int
    lo: Any
    hi: Any
    at_lo: tuple[Any, tuple[Any, ...]]
    at_hi: tuple[Any, tuple[Any, ...]]

    def realise(self, v: Any, x: Any) -> tuple[Any, tuple[Any, ...]]:
        """A point of the component where T's part equals ``v`` (lo ≤ v ≤ hi): (y, free cells' values)."""
        if v == self.lo:
            return self.at_lo
        if v == self.hi:
            return self.at_hi
        (y0, r0), (y1, r1) = self.at_lo, self.at_hi
        if y0 == y1:  # one point y: the segment between the two vertices, along which T is linear
            lam = (v - self.lo) / (self.hi - self.lo)
            return y0, tuple(a + lam * (b - a) for a, b in zip(r0, r1))
        # A stretch (the free cells' polytope does not depend on y): from (y0, r0) move y to y1 (T is
        # affine in y for fixed cells), then the cells from r0 to r1 at y1 (T is linear in them).
        mid = part(self.group, x, y1, self.drawn, self.free, r0)
        if v <= mid:
            lam = (v - self.lo) / (mid - self.lo)
            return y0 + lam * (y1 - y0), r0
        lam = (v - mid) / (self.hi - mid)
        return y1, tuple(a + lam * (b - a) for a, b in zip(r0, r1))


def part(group: Group, x: Any, y: Any, drawn: Sequence[int], free: Sequence[int], r_free: Sequence[Any]) -> Any:
    """T's part of one small game at (y, r): t0 + t1 y + Σ (f + g y) r over the cells drawn and free."""
    total: Any = group.t[0] + group.t[1] * y
    for q in drawn:
        f, g = group.cells[q].t
        total = total + f + g * y
    for q, rq in zip(free, r_free):
        f, g = group.cells[q].t
        total = total + (f + g * y) * rq
    return total


def _holds(u: Any, mode: int) -> bool:
    return bool(u >= 0) if mode > 0 else bool(u <= 0) if mode < 0 else bool(u == 0)


def box_extremes(w: Sequence[Any], e: Sequence[Any], u0: Any, mode: int) -> tuple[tuple[Any, tuple[Any, ...]], ...] | None:
    """Least and greatest Σ w_q r_q over {r ∈ [0, 1]^F : u0 + Σ e_q r_q ≥ 0, ≤ 0 or = 0 (``mode`` +1, −1, 0)}.

    A linear function over a polytope is extreme at a vertex; this polytope's vertices are the box's
    vertices that satisfy the condition and the points where its boundary u0 + e·r = 0 crosses an edge
    of the box (every coordinate but one at 0 or 1). Cells with e_q = 0 do not touch the condition and
    are set apart (each at its better end). Returns ((min, r), (max, r)) or None (empty).

    >>> box_extremes([Fraction(1)], [Fraction(2)], Fraction(-1), 0)
    ((Fraction(1, 2), (Fraction(1, 2),)), (Fraction(1, 2), (Fraction(1, 2),)))
    """
    tied = [q for q in range(len(w)) if e[q] != 0]
    loose = [q for q in range(len(w)) if e[q] == 0]
    if len(tied) > MAX_FREE:
        raise Undecided(f"{len(tied)} banker cells free at one point")
    candidates: list[tuple[Any, ...]] = []
    for bits in product((0, 1), repeat=len(tied)):
        u = u0 + sum((e[q] for q, b in zip(tied, bits) if b), 0)
        if _holds(u, mode):
            candidates.append(tuple(Fraction(b) for b in bits))
    for n, q in enumerate(tied):
        others = [p for p in tied if p != q]
        for bits in product((0, 1), repeat=len(others)):
            rest = u0 + sum((e[p] for p, b in zip(others, bits) if b), 0)
            rq = -rest / e[q]
            if 0 < rq < 1:
                point: list[Any] = [Fraction(b) for b in bits]
                point.insert(n, rq)
                candidates.append(tuple(point))
    if not candidates:
        return None
    scored = [(sum((w[q] * v for q, v in zip(tied, c)), 0), c) for c in candidates]
    low = min(scored, key=lambda s: s[0])
    high = max(scored, key=lambda s: s[0])

    def full(c: tuple[Any, ...], best: int) -> tuple[Any, ...]:
        out: list[Any] = [Fraction(0)] * len(w)
        for q, v in zip(tied, c):
            out[q] = v
        for q in loose:
            out[q] = Fraction(1 if (w[q] > 0) == (best > 0) and w[q] != 0 else 0)
        return tuple(out)

    extra_lo = sum((w[q] for q in loose if w[q] < 0), 0)
    extra_hi = sum((w[q] for q in loose if w[q] > 0), 0)
    return (low[0] + extra_lo, full(low[1], -1)), (high[0] + extra_hi, full(high[1], 1))


@dataclass(frozen=True)
class Layout:
    """A small game's y-axis at one x: its points (0, the breakpoints strictly inside, 1), the cells free
    at each point (their slope vanishes there), and the cells drawn on each open stretch between two
    consecutive points (a cell whose slope vanishes for every y is free at every point, drawn nowhere)."""

    points: tuple[Any, ...]
    free: tuple[tuple[int, ...], ...]
    stretches: tuple[tuple[int, ...], ...]
    always: tuple[int, ...]


def _ascending(values: list[Any]) -> list[Any]:
    from functools import cmp_to_key

    if all(isinstance(v, (int, Fraction)) for v in values):
        return sorted(values, key=Fraction)

    def order(p: Any, q: Any) -> int:
        return -1 if p < q else (1 if q < p else 0)

    return sorted(values, key=cmp_to_key(order))


def layout(group: Group, x: Any) -> Layout:
    """The layout of ``group``'s small game at x: a cell's slope S = α + β y is linear in y, so its sign
    just above 0 is that of α (of β where α = 0) and flips where it crosses its breakpoint −α/β."""
    always: list[int] = []
    at0: list[int] = []
    at1: list[int] = []
    start: set[int] = set()
    crossing: dict[Any, list[int]] = {}
    for q, cell in enumerate(group.cells):
        c, a, b, d = cell.s
        alpha, beta = c + a * x, b + d * x
        if alpha == 0 and beta == 0:
            always.append(q)
            continue
        if (alpha if alpha != 0 else beta) > 0:
            start.add(q)
        if beta == 0:
            continue
        if alpha == 0:
            at0.append(q)
            continue
        if alpha + beta == 0:
            at1.append(q)
            continue
        y = -alpha / beta
        if 0 < y < 1:  # equal numbers hash alike (Fractions, quadratic and field numbers are canonical)
            crossing.setdefault(y, []).append(q)
    inside = _ascending(list(crossing))
    points = (Fraction(0), *inside, Fraction(1))
    free = [tuple(always + at0)] + [tuple(always + crossing[y]) for y in inside] + [tuple(always + at1)]
    stretches = [tuple(sorted(start))]
    for y in inside:
        stretches.append(tuple(sorted(set(stretches[-1]) ^ set(crossing[y]))))
    return Layout(points, tuple(free), tuple(stretches), tuple(always))


def components(group: Group, x: Any) -> list[Component]:
    """Every component of the small game of ``group`` at x (see the module docstring), exactly.

    The group of the cells no set of Player 2 reaches (k = −1) has one: its cells follow their signs
    (free where the slope vanishes, unconstrained). Player 2's slope and T's part on each stretch are
    carried from one stretch to the next (a breakpoint changes only the cells that cross it).
    """
    e = [cell.e[0] + cell.e[1] * x for cell in group.cells]
    if group.k < 0:
        alphas = [cell.s[0] + cell.s[1] * x for cell in group.cells]
        drawn = tuple(q for q, v in enumerate(alphas) if v > 0)
        free = tuple(q for q, v in enumerate(alphas) if v == 0)
        sums = _sums(group, e, drawn, Fraction(0), group.t[0], group.t[1])
        found = _component(group, e, Fraction(0), None, drawn, free, None, sums)
        assert found is not None
        return [found]
    lay = layout(group, x)
    per_stretch = [_sums(group, e, lay.stretches[0], group.u[0] + group.u[1] * x, group.t[0], group.t[1])]
    for before, after in zip(lay.stretches, lay.stretches[1:]):
        u0, f0, g0 = per_stretch[-1]
        gone, come = set(before) - set(after), set(after) - set(before)
        u0 = u0 + sum((e[q] for q in come), 0) - sum((e[q] for q in gone), 0)
        f0 = f0 + sum(group.cells[q].t[0] for q in come) - sum(group.cells[q].t[0] for q in gone)
        g0 = g0 + sum(group.cells[q].t[1] for q in come) - sum(group.cells[q].t[1] for q in gone)
        per_stretch.append((u0, f0, g0))
    last = len(lay.points) - 1
    out: list[Component] = []
    for n, p in enumerate(lay.points):
        m = n - 1 if n else 0
        side = lay.stretches[m]
        leave = [q for q in lay.free[n] if q in side]  # free here: out of the stretch's drawn cells
        u0, f0, g0 = per_stretch[m]
        sums = (
            u0 - sum((e[q] for q in leave), 0),
            f0 - sum(group.cells[q].t[0] for q in leave),
            g0 - sum(group.cells[q].t[1] for q in leave),
        )
        drawn = tuple(q for q in side if q not in lay.free[n])
        found = _component(group, e, p, None, drawn, lay.free[n], 1 if n == 0 else -1 if n == last else 0, sums)
        if found is not None:
            out.append(found)
    for n, cells in enumerate(lay.stretches):
        if not lay.always and per_stretch[n][0] != 0:  # a stretch holds equilibria only where U vanishes all along it
            continue
        found = _component(group, e, lay.points[n], lay.points[n + 1], cells, lay.always, 0, per_stretch[n])
        if found is not None:
            out.append(found)
    return out


def _sums(group: Group, e: list[Any], drawn: Sequence[int], u: Any, f: int, g: int) -> tuple[Any, int, int]:
    """U with the cells ``drawn`` (from its own part ``u``), and T's part's constant and slope in y."""
    return (
        u + sum((e[q] for q in drawn), 0),
        f + sum(group.cells[q].t[0] for q in drawn),
        g + sum(group.cells[q].t[1] for q in drawn),
    )


def _component(
    group: Group,
    e: list[Any],
    y: Any,
    y_end: Any,
    drawn: tuple[int, ...],
    free: tuple[int, ...],
    mode: int | None,
    sums: tuple[Any, int, int],
) -> Component | None:
    """The component at the point y (``y_end`` None) or on the open stretch (y, y_end), or None if empty.
    ``sums``: U with the cells drawn, and the constant and slope in y of T's part over them."""
    u0, f0, g0 = sums
    if mode is None:  # no set of Player 2: no condition on the free cells
        u0 = Fraction(0)
        e_free: list[Any] = [Fraction(0)] * len(free)
        mode = 0
    else:
        e_free = [e[q] for q in free]
        reach = (u0 + sum((v for v in e_free if v < 0), 0), u0 + sum((v for v in e_free if v > 0), 0))
        if (mode > 0 and reach[1] < 0) or (mode < 0 and reach[0] > 0) or (mode == 0 and not reach[0] <= 0 <= reach[1]):
            return None
    ends = [y] if y_end is None else [y, y_end]
    found = []
    for end in ends:
        w = [group.cells[q].t[0] + group.cells[q].t[1] * end for q in free]
        ext = box_extremes(w, e_free, u0, mode)
        if ext is None:
            return None
        base = f0 + g0 * end
        (lo, r_lo), (hi, r_hi) = ext
        found.append(((base + lo, (end, r_lo)), (base + hi, (end, r_hi))))
    low = min((f[0] for f in found), key=lambda t: t[0])
    high = max((f[1] for f in found), key=lambda t: t[0])
    return Component(group, y, y_end, drawn, free, mode, low[0], high[0], low[1], high[1])


@dataclass(frozen=True)
class Choice:
    """A point of every small game at one x: per group, the component chosen and the value of T's part."""

    picks: tuple[tuple[Component, Any], ...]


def choose(per_group: Sequence[Sequence[Component]], constant: Any, target: int) -> Choice | None:
    """Components, one per small game, and values in their ranges, such that T = constant + Σ parts
    satisfies ``target`` (+1: T ≥ 0, Player 1 may stand; −1: T ≤ 0, he may draw; 0: T = 0, he may mix);
    None when no choice does (a proof: every combination's range misses the target).

    Raises:
        Undecided: more than :data:`MAX_CHOICES` combinations stay in play.
    """
    sums: list[tuple[Any, Any, tuple[Component, ...]]] = [(constant, constant, ())]
    for comps in per_group:
        grown = [(lo + c.lo, hi + c.hi, trail + (c,)) for lo, hi, trail in sums for c in comps]
        # A range inside another is never needed: the larger one reaches every value it does.
        kept: list[tuple[Any, Any, tuple[Component, ...]]] = []
        for s in grown:
            if any(k[0] <= s[0] and s[1] <= k[1] for k in kept):
                continue
            kept = [k for k in kept if not (s[0] <= k[0] and k[1] <= s[1])] + [s]
        if len(kept) > MAX_CHOICES:
            raise Undecided(f"more than {MAX_CHOICES} combinations of the small games' equilibria")
        sums = kept
    for lo, hi, trail in sums:
        if target == 0 and lo <= 0 <= hi:
            v: Any = Fraction(0)
        elif target > 0 and hi >= 0:
            v = hi
        elif target < 0 and lo <= 0:
            v = lo
        else:
            continue
        slack = v - lo
        picks = []
        for c in trail:
            take = slack if slack <= c.hi - c.lo else c.hi - c.lo
            picks.append((c, c.lo + take))
            slack = slack - take
        return Choice(tuple(picks))
    return None
