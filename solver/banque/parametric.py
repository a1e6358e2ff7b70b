"""A complete Nash search when Player 1 has one set: every equilibrium lies at a point of a finite
partition of his draw probability x, or solves one polynomial equation on a piece of it.

Under information 1 or 2 Player 1 has one set and every banker cell sees at most one of Player 2's
sets, so with x fixed the game falls apart into small games of Player 2 against the banker
(:mod:`solver.banque.subgame`), whose equilibria form finitely many components, and Player 1's slope T
is a sum of one part per small game. A profile is an equilibrium iff each small game is at an
equilibrium and x is a best reply to T: x = 0 with T ≥ 0, x = 1 with T ≤ 0, or 0 < x < 1 with T = 0.

The partition. The components' form changes only where a cell's breakpoint reaches y = 0 or y = 1
(c + a x = 0, c + b + (a + d) x = 0), where it runs off (b + d x = 0), where two cells of one small
game share a breakpoint ((c_i + a_i x)(b_j + d_j x) = (c_j + a_j x)(b_i + d_i x), a quadratic), where a
cell's weight in U vanishes (e0 + e1 x = 0), where a cell no set of Player 2 reaches changes sign
(c + a x = 0), and where U, with the cells as they stand on a stretch between breakpoints, vanishes
(linear in x on each piece of the first partition). These are rational or quadratic numbers, sorted
exactly (:class:`solver.exact.algebraic.Algebraic`). At each of them the small games are solved exactly
and T's range checked (:func:`solve_at`). Inside each open piece every small game keeps the same
components, each giving y, the free cell's probability and T's part as rational functions of x (a
breakpoint y = −(c + a x)/(b + d x), the cell's probability from U = 0); for every combination the
numerator of T is a polynomial whose real roots in the piece are isolated exactly (a sign-variation
count first proves most pieces root-free), and each root is solved at (exactly, in Q(x)).

The search is therefore complete: x = 0, x = 1, every point of the partition and every root on every
piece; an equilibrium exists (Nash), so it is always found, unless a point or piece is undecided (too
many free cells at one point, a combination count past a bound, a piece where the components are not
of the generic form), which the answer then names. Every answer is certified by exact best replies of
all three sides before it is returned.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import gcd, isqrt
from typing import Any

import numpy as np

from solver.banque.forms import Payoff
from solver.banque.subgame import Cell, Choice, Component, Group, Undecided, choose, components, layout
from solver.exact.algebraic import Algebraic, Poly, as_poly, padd, pmul, rational_between, real_roots, sorted_algebraic
from solver.exact.numberfield import Field
from solver.exact.quadratic import Quadratic

MAX_COMBINATIONS = 256
"""Most combinations of the small games' components tried on one open piece of the partition."""


@dataclass(frozen=True)
class SplitGame:
    """Banque with one set for Player 1, split by Player 2's sets (:mod:`solver.banque.subgame`).

    ``groups``: one per set of Player 2 (k = 0, 1, ...), then the cells no set reaches (k = −1);
    ``fixed``: per banker cell, the action its slope's sign fixes on the whole box (1 draw, 0 stand),
    or −1 for a live cell (its slope can vanish); ``t0``: T's constant.
    """

    groups: tuple[Group, ...]
    fixed: tuple[int, ...]
    t0: int

    @property
    def live(self) -> int:
        return sum(len(g.cells) for g in self.groups)


def split(pb: Payoff, p1: Payoff, p2: Payoff) -> SplitGame | None:
    """The split form of the game, or None when it does not apply (Player 1 has several sets, or a cell
    sees two of Player 2's sets)."""
    m1, m2, n = pb.sizes()
    if m1 != 1:
        return None
    owner = np.full(n, -1, dtype=np.int64)
    for p in (pb, p1, p2):
        j, k, i = p.monomials
        nz = np.array([c != 0 for c in p.coef], dtype=bool) & (k >= 0) & (i >= 0)
        for kk, ii in set(zip(k[nz].tolist(), i[nz].tolist())):
            if owner[ii] not in (-1, kk):
                return None
            owner[ii] = kk
    s = np.zeros((n, 4), dtype=object)
    j, k, i = pb.monomials
    sel = i >= 0
    np.add.at(s, (i[sel], (j[sel] >= 0).astype(int) + 2 * (k[sel] >= 0).astype(int)), pb.coef[sel])
    u = np.zeros((m2, 2), dtype=object)
    e = np.zeros((n, 2), dtype=object)
    j, k, i = p2.monomials
    for jj, kk, ii, c in zip(j.tolist(), k.tolist(), i.tolist(), p2.coef.tolist()):
        if kk >= 0 and c:
            if ii < 0:
                u[kk, int(jj >= 0)] += c
            else:
                e[ii, int(jj >= 0)] += c
    t = np.zeros((n, 2), dtype=object)
    tk = np.zeros(m2, dtype=object)
    t0 = 0
    j, k, i = p1.monomials
    for jj, kk, ii, c in zip(j.tolist(), k.tolist(), i.tolist(), p1.coef.tolist()):
        if jj < 0 or not c:
            continue
        if ii < 0:
            if kk < 0:
                t0 += int(c)
            else:
                tk[kk] += c
        else:
            t[ii, int(kk >= 0)] += c
    fixed = []
    cells: dict[int, list[Cell]] = {kk: [] for kk in [*range(m2), -1]}
    for q in range(n):
        c0, a, b, d = (int(v) for v in s[q])
        corners = (c0, c0 + a, c0 + b, c0 + a + b + d)
        if min(corners) > 0 or max(corners) < 0:
            fixed.append(1 if corners[0] > 0 else 0)
        else:
            fixed.append(-1)
            cells[int(owner[q])].append(Cell(q, (c0, a, b, d), (int(e[q, 0]), int(e[q, 1])), (int(t[q, 0]), int(t[q, 1]))))
    groups = []
    for kk in [*range(m2), -1]:
        uu = [int(u[kk, 0]), int(u[kk, 1])] if kk >= 0 else [0, 0]
        tt = [int(tk[kk]) if kk >= 0 else 0, 0]
        for q in range(n):
            if fixed[q] == 1 and int(owner[q]) == kk:
                uu[0] += int(e[q, 0])
                uu[1] += int(e[q, 1])
                tt[0] += int(t[q, 0])
                tt[1] += int(t[q, 1])
        groups.append(Group(kk, tuple(cells[kk]), (uu[0], uu[1]), (tt[0], tt[1])))
    return SplitGame(tuple(groups), tuple(fixed), t0)


# -- one x ------------------------------------------------------------------------------------------------


def solve_at(game: SplitGame, x: Any) -> Choice | None:
    """An equilibrium with Player 1 at x (0, 1, or mixed: T = 0), as a choice per small game; None if
    there is none (proved: every component of every small game enumerated)."""
    target = 1 if x == 0 else -1 if x == 1 else 0
    per_group = [components(g, x) for g in game.groups]
    return choose(per_group, Fraction(game.t0), target)


def profile(game: SplitGame, x: Any, choice: Choice, m2: int) -> tuple[list[Any], list[Any], list[Any]]:
    """The three strategies of a choice: x, y per set of Player 2, r per banker cell."""
    r: list[Any] = [Fraction(max(a, 0)) for a in game.fixed]
    y: list[Any] = [Fraction(0)] * m2
    for comp, value in choice.picks:
        g = comp.group
        yk, free = comp.realise(value, x)
        if g.k >= 0:
            y[g.k] = yk
        for q in comp.drawn:
            r[g.cells[q].index] = Fraction(1)
        for q, v in zip(comp.free, free):
            r[g.cells[q].index] = v
    return [x], y, r


# -- the partition --------------------------------------------------------------------------------------

ZERO, ONE = Algebraic.rational(0), Algebraic.rational(1)


def roots01(coefficients: Sequence[int]) -> list[Algebraic]:
    """The real roots in [0, 1] of an integer polynomial of degree at most 2 (constant first), exactly.

    >>> [r.text() for r in roots01([-1, 0, 2])]
    ['sqrt(2)/2']
    """
    c = list(coefficients) + [0] * (3 - len(coefficients))
    c0, c1, c2 = c[0], c[1], c[2]
    found: list[Algebraic] = []
    if c2 == 0:
        if c1 != 0:
            found.append(Algebraic.rational(Fraction(-c0, c1)))
    else:
        disc = c1 * c1 - 4 * c2 * c0
        if disc < 0:
            return []
        s = isqrt(disc)
        if s * s == disc:
            found += [Algebraic.rational(Fraction(-c1 + s, 2 * c2)), Algebraic.rational(Fraction(-c1 - s, 2 * c2))]
        else:
            g = gcd(gcd(c0, c1), c2) * (1 if c2 > 0 else -1)
            a0, a1, a2 = c0 // g, c1 // g, c2 // g
            d = a1 * a1 - 4 * a2 * a0
            s = isqrt(d)  # √d lies strictly between s and s + 1
            found.append(Algebraic((a0, a1, a2), 0, Fraction(-a1 - s - 1, 2 * a2), Fraction(-a1 - s, 2 * a2)))
            found.append(Algebraic((a0, a1, a2), 1, Fraction(-a1 + s, 2 * a2), Fraction(-a1 + s + 1, 2 * a2)))
    return [r for r in found if ZERO <= r <= ONE]


def _inside(cell: Cell, x: Algebraic) -> bool:
    """Whether the cell's breakpoint at x lies in [0, 1] (where two breakpoints meet, it matters only
    there; where it runs off, b + d x = 0, the point is in the partition already)."""
    c, a, b, d = cell.s
    v = as_number(x)
    beta = b + d * v
    if beta == 0:
        return False
    y = -(c + a * v) / beta
    return bool(0 <= y <= 1)


def first_polynomials(game: SplitGame) -> list[tuple[tuple[int, ...], Cell | None]]:
    """The polynomials (in x, constant first, degree ≤ 2) whose roots make the first partition: where a
    breakpoint reaches 0 or 1 or runs off, a cell's weight in U vanishes, a cell no set of Player 2
    reaches changes sign, or two cells of one small game share a breakpoint (then with the first of the
    two cells: the meeting matters only where its breakpoint lies in [0, 1])."""
    out: list[tuple[tuple[int, ...], Cell | None]] = []
    for g in game.groups:
        for n, cell in enumerate(g.cells):
            c, a, b, d = cell.s
            polys = [(c, a)] if g.k < 0 else [(c, a), (c + b, a + d), (b, d), cell.e]
            out += [(p, None) for p in polys]
            for other in g.cells[n + 1 :] if g.k >= 0 else ():
                c2, a2, b2, d2 = other.s
                out.append(((c * b2 - c2 * b, c * d2 + a * b2 - c2 * d - a2 * b, a * d2 - a2 * d), cell))
    return out


def _first_points(game: SplitGame) -> list[Algebraic]:
    """The points of the first partition, ascending (0 and 1 among them)."""
    out = [ZERO, ONE]
    for p, cell in first_polynomials(game):
        out += [x for x in roots01(p) if cell is None or _inside(cell, x)]
    return sorted_algebraic(out)


def partition(game: SplitGame) -> list[Algebraic]:
    """Every point of the partition in [0, 1], ascending (see the module docstring)."""
    first = _first_points(game)
    more: list[Algebraic] = []
    for lo, hi in zip(first, first[1:]):
        s = rational_between(lo, hi)
        for g in game.groups:
            if g.k < 0:
                continue
            for drawn in layout(g, s).stretches:
                u0 = g.u[0] + sum(g.cells[q].e[0] for q in drawn)
                u1 = g.u[1] + sum(g.cells[q].e[1] for q in drawn)
                more += [r for r in roots01((u0, u1)) if lo < r < hi]
    return sorted_algebraic(first + more)


# -- an open piece ----------------------------------------------------------------------------------------


def branch(comp: Component) -> tuple[Poly, Poly] | None:
    """T's part along a component of an open piece as a rational function of x (numerator, denominator),
    or None when the component is not of the generic form (a stretch, or several cells free at once)."""
    g = comp.group
    if comp.y_end is not None or len(comp.free) > 1:
        return None
    f_sum = g.t[0] + sum(g.cells[q].t[0] for q in comp.drawn)
    g_sum = g.t[1] + sum(g.cells[q].t[1] for q in comp.drawn)
    if not comp.free:
        if comp.y == 0:
            return as_poly([f_sum]), as_poly([1])
        if comp.y == 1:
            return as_poly([f_sum + g_sum]), as_poly([1])
        return None
    cell = g.cells[comp.free[0]]
    c, a, b, d = cell.s
    ny, dy = as_poly([-c, -a]), as_poly([b, d])  # y = −(c + a x)/(b + d x)
    u0 = g.u[0] + sum(g.cells[q].e[0] for q in comp.drawn)
    u1 = g.u[1] + sum(g.cells[q].e[1] for q in comp.drawn)
    nr, dr = as_poly([-u0, -u1]), as_poly(cell.e)  # the free cell's r from U = 0
    f, gg = cell.t
    num = padd(
        padd(pmul(as_poly([f_sum]), pmul(dy, dr)), pmul(as_poly([g_sum]), pmul(ny, dr))),
        pmul(padd(pmul(as_poly([f]), dy), pmul(as_poly([gg]), ny)), nr),
    )
    return num, pmul(dy, dr)


def sign_variations_bound(p: Poly, lo: Fraction, hi: Fraction) -> int:
    """An upper bound on the number of roots of p in the open interval (lo, hi) (Descartes' rule of signs
    after the map x = (lo + hi t)/(1 + t) of (0, ∞) onto (lo, hi)); 0 proves there is none.

    >>> sign_variations_bound(as_poly([-1, 0, 2]), Fraction(0), Fraction(1))
    1
    >>> sign_variations_bound(as_poly([1, 0, 1]), Fraction(0), Fraction(1))
    0
    """
    n = len(p) - 1
    # q(t) = (1 + t)^n p((lo + hi t)/(1 + t)) = Σ_k p_k (lo + hi t)^k (1 + t)^(n − k)
    q: Poly = ()
    for k, c in enumerate(p):
        term: Poly = as_poly([c])
        for _ in range(k):
            term = pmul(term, as_poly([lo, hi]))
        for _ in range(n - k):
            term = pmul(term, as_poly([1, 1]))
        q = padd(q, term)
    signs = [1 if v > 0 else -1 for v in q if v != 0]
    return sum(1 for a, b in zip(signs, signs[1:]) if a != b)


def piece_roots(pieces: Sequence[Sequence[Component]], t0: int, lo: Algebraic, hi: Algebraic, sample: Fraction) -> Iterator[Any]:
    """Candidate x in the open piece (lo, hi): for each combination of the small games' components, the
    roots of T's numerator there (or ``sample`` when T vanishes all along the piece).

    Raises:
        Undecided: a component not of the generic form, or too many combinations.
    """
    branches = []
    for comps in pieces:
        bs = [branch(c) for c in comps]
        if any(b is None for b in bs):
            raise Undecided("a small game's equilibria are not of the generic form on this piece")
        branches.append(bs)
    count = 1
    for bs in branches:
        count *= len(bs)
    if count > MAX_COMBINATIONS:
        raise Undecided(f"{count} combinations of the small games' equilibria on one piece")
    a, b = lo.lo, hi.hi
    for combo in product(*branches):
        num: Poly = as_poly([t0])
        den: Poly = as_poly([1])
        for n_k, d_k in combo:  # type: ignore[misc]
            num, den = padd(pmul(num, d_k), pmul(n_k, den)), pmul(den, d_k)
        if not num:
            yield sample
            continue
        if len(num) < 2 or sign_variations_bound(num, a, b) == 0:
            continue
        for root in real_roots(num, a, b):
            if lo < root < hi:
                yield root


def as_number(x: Algebraic) -> Any:
    """A point of the partition as an exact number: a Fraction, a :class:`Quadratic` (degree 2: exact
    signs in integers), or the generator of its number field."""
    if x.is_rational:
        return x.value
    if len(x.poly) == 3:
        a0, a1, a2 = x.poly
        s = 1 if x.index == 1 else -1  # a2 > 0: the larger root takes +√d
        return Quadratic(Fraction(-a1, 2 * a2), Fraction(s, 2 * a2), a1 * a1 - 4 * a2 * a0)
    return Field.from_polynomial(x.poly, x.lo, x.hi).generator


def in_field(values: Sequence[Any], x: Algebraic) -> list[Any]:
    """Values computed at the point x, with every quadratic irrational moved into x's number field
    (:class:`~solver.exact.numberfield.FieldElement`, the form certification and certificates read)."""
    if not any(isinstance(v, Quadratic) for v in values):
        return list(values)
    root = Field.from_polynomial(x.poly, x.lo, x.hi).generator
    s = 1 if x.index == 1 else -1
    return [v.in_field(root, s) if isinstance(v, Quadratic) else v for v in values]
