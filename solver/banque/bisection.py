"""Finding an equilibrium fast: bisection on the sign of Player 1's slope, in exact arithmetic.

Where x = 0 and x = 1 are not equilibria, Player 1 draws at x = 0 (his slope T < 0 whatever the small
games do) and stands at x = 1 (T > 0). Where every small game has one equilibrium (one component, one
value of T's part), T is a function of x, continuous on every piece of the partition of
:mod:`solver.banque.parametric`, so an equilibrium lies where it vanishes or jumps through 0 (at a point
of the partition, where a component spans the jump). Bisection at exact rationals x narrows [a, b]
with T(a) < 0 < T(b). When both ends show the same forms of components (each small game at y = 0,
y = 1, or the same cell's breakpoint, with the same cells drawn), T on (a, b) is one rational function
of x, and its real roots there are candidates; when [a, b] is narrower than :data:`FINEST`, the points
of the partition inside it are. Each candidate is solved exactly and certified by the caller.

This is a fast path, not a proof of anything: where a small game has several equilibria, or no
candidate certifies, :func:`bisect` gives up (None) and the caller runs the complete search.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import numpy as np

from solver.banque.parametric import SplitGame, branch, first_polynomials, roots01
from solver.banque.subgame import Component, Undecided, components, layout
from solver.exact.algebraic import Algebraic, Poly, as_poly, padd, pmul, rational_between, real_roots, sorted_algebraic

FINEST = Fraction(1, 2**64)
"""The narrowest bracket bisected; inside it the points of the partition are tried."""
MAX_STEPS = 200
"""Most bisection steps (a bracket halves each time, so far more than :data:`FINEST` needs)."""

Form = tuple[tuple[Any, ...], ...]


def _form(c: Component) -> tuple[Any, ...]:
    kind = "0" if c.y == 0 and not c.free else "1" if c.y == 1 and not c.free else "b"
    return kind, c.free, c.drawn, c.y_end is None


def state(game: SplitGame, x: Fraction) -> tuple[int, Form, list[Component]] | None:
    """The sign of T at x, the forms of the small games' components and the components, when every small
    game has exactly one equilibrium there with one value of T's part; else None."""
    total: Any = Fraction(game.t0)
    comps = []
    for g in game.groups:
        found = components(g, x)
        if len(found) != 1 or found[0].lo != found[0].hi:
            return None
        comps.append(found[0])
        total = total + found[0].lo
    return (total > 0) - (total < 0), tuple(_form(c) for c in comps), comps


def _branch_roots(comps: list[Component], t0: int, a: Fraction, b: Fraction) -> list[Algebraic]:
    num: Poly = as_poly([t0])
    den: Poly = as_poly([1])
    for c in comps:
        found = branch(c)
        if found is None:
            return []
        n_k, d_k = found
        num, den = padd(pmul(num, d_k), pmul(n_k, den)), pmul(den, d_k)
    if len(num) < 2:
        return []
    lo, hi = Algebraic.rational(a), Algebraic.rational(b)
    return [r for r in real_roots(num, a, b) if lo < r < hi]


def points_between(game: SplitGame, a: Fraction, b: Fraction, screen: Screen | None = None) -> list[Algebraic]:
    """The points of the partition in [a, b], exactly: the first partition's (their polynomials screened
    in floats, a margin wide, then solved exactly) and the zeros of U on the stretches of each piece."""
    polys, coef = screen if screen is not None else _screen(game)
    keep = _near(coef, float(a) - MARGIN - float(b - a), float(b) + MARGIN + float(b - a))
    lo, hi = Algebraic.rational(a), Algebraic.rational(b)
    first = sorted_algebraic([r for n in np.nonzero(keep)[0].tolist() for r in roots01(polys[n]) if lo <= r <= hi])
    out = list(first)
    edges = [lo, *first, hi]
    for left, right in zip(edges, edges[1:]):
        if not left < right:
            continue
        s = rational_between(left, right)
        for g in game.groups:
            if g.k < 0:
                continue
            for drawn in layout(g, s).stretches:
                u0 = g.u[0] + sum(g.cells[q].e[0] for q in drawn)
                u1 = g.u[1] + sum(g.cells[q].e[1] for q in drawn)
                out += [r for r in roots01((u0, u1)) if left < r < right]
    return out


Screen = tuple[list[tuple[int, ...]], np.ndarray]
MARGIN = 1e-9
"""How far outside a bracket a float root may fall and still be solved exactly (floats screen, never decide)."""
FEW = 3
"""A bracket whose first-partition polynomials have at most this many float roots near it has its points tried."""


def _screen(game: SplitGame) -> Screen:
    polys = [p for p, _ in first_polynomials(game)]
    coef = np.array([[float(c) for c in p] + [0.0] * (3 - len(p)) for p in polys], dtype=np.float64).reshape(-1, 3)
    return polys, coef


def _near(coef: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Polynomials of degree ≤ 2 (rows: constant first) with a float root in [lo, hi], or degenerate ones."""
    c0, c1, c2 = coef[:, 0], coef[:, 1], coef[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        lin = -c0 / c1
        disc = c1 * c1 - 4 * c2 * c0
        sq = np.sqrt(np.maximum(disc, 0))
        r1, r2 = (-c1 + sq) / (2 * c2), (-c1 - sq) / (2 * c2)
    quad = c2 != 0
    hit_lin = ~quad & (c1 != 0) & (lin >= lo) & (lin <= hi)
    hit_quad = quad & (disc >= 0) & (((r1 >= lo) & (r1 <= hi)) | ((r2 >= lo) & (r2 <= hi)))
    odd = quad & ~np.isfinite(r1 + r2)  # overflow: keep, to be decided exactly
    hit: np.ndarray = hit_lin | hit_quad | odd
    return hit


def bisect(game: SplitGame) -> Iterator[Any]:
    """Candidate x (Fractions, or :class:`~solver.exact.algebraic.Algebraic` numbers) for an equilibrium,
    as the module docstring describes; stops (without a word) where it cannot go on. A bracket that floats
    show to hold at most :data:`FEW` points of the first partition has them tried at once (an equilibrium
    where Player 1's slope jumps through 0 sits at one)."""
    a, b = Fraction(0), Fraction(1)
    screen = _screen(game)
    try:
        sa, sb = state(game, a), state(game, b)
        if sa is None or sb is None or not (sa[0] < 0 < sb[0]):
            return
        tried: set[tuple[Fraction, Fraction]] = set()
        points_tried = False
        for _ in range(MAX_STEPS):
            if sa[1] == sb[1] and (a, b) not in tried:
                tried.add((a, b))
                yield from _branch_roots(sa[2], game.t0, a, b)
            near = int(_near(screen[1], float(a) - MARGIN, float(b) + MARGIN).sum())
            if b - a < FINEST or (near <= FEW and not points_tried):
                points_tried = True
                yield from points_between(game, a, b, screen)
                if b - a < FINEST:
                    return
            m = (a + b) / 2
            sm = state(game, m)
            if sm is None:
                return
            if sm[0] == 0:
                yield m
                return
            if sm[0] < 0:
                a, sa = m, sm
            else:
                b, sb = m, sm
    except Undecided:
        return
