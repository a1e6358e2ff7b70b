"""Exact rational helpers: the guarantees f and h, slopes, Gaussian elimination, rank."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from solver.game import Coefficients

FLOAT_TOL = 1e-9
"""Tolerance used only to read a float LP answer (which bound, which cells tight); never to certify."""


# -- exact helpers ----------------------------------------------------------------------------------


def _common(xs: list[Fraction]) -> tuple[list[int], int]:
    d = math.lcm(*(x.denominator for x in xs)) if xs else 1
    return [int(x * d) for x in xs], d


def banker_slopes(c: Coefficients, q: list[Fraction]) -> list[Fraction]:
    """Exact gain of drawing over standing in each banker set, given q (per unit, not per denominator)."""
    nums, d = _common(q)
    qa = np.array(nums, dtype=object)
    s = c.b * d + (qa @ c.G if len(q) else 0)
    return [Fraction(int(x), d * c.denominator) for x in s]


def ponte_slopes(c: Coefficients, r: list[Fraction]) -> list[Fraction]:
    """Exact change of the payoff when the ponte draws in each of his sets, given r."""
    nums, d = _common(r)
    ra = np.array(nums, dtype=object)
    s = c.a * d + (c.G @ ra if len(r) else 0)
    return [Fraction(int(x), d * c.denominator) for x in s]


def ponte_guarantee(c: Coefficients, q: list[Fraction]) -> Fraction:
    """f(q): the most the banker can get against q (the ponte's guarantee)."""
    base = Fraction(c.c0, c.denominator) + sum((Fraction(int(a), c.denominator) * x for a, x in zip(c.a, q)), Fraction(0))
    return base + sum((s for s in banker_slopes(c, q) if s > 0), Fraction(0))


def banker_guarantee(c: Coefficients, r: list[Fraction]) -> Fraction:
    """h(r): the least the ponte can hold the banker to against r (the banker's guarantee)."""
    base = Fraction(c.c0, c.denominator) + sum((Fraction(int(b), c.denominator) * x for b, x in zip(c.b, r)), Fraction(0))
    return base + sum((s for s in ponte_slopes(c, r) if s < 0), Fraction(0))


def solve_linear(rows: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """Solve a square system exactly by Gaussian elimination; None if singular."""
    n = len(rows)
    m = [list(r) + [b] for r, b in zip(rows, rhs)]
    for col in range(n):
        piv = next((k for k in range(col, n) if m[k][col] != 0), None)
        if piv is None:
            return None
        m[col], m[piv] = m[piv], m[col]
        for k in range(n):
            if k != col and m[k][col] != 0:
                f = m[k][col] / m[col][col]
                m[k] = [x - f * y for x, y in zip(m[k], m[col])]
    return [m[k][n] / m[k][k] for k in range(n)]


def rank(rows: list[list[Fraction]]) -> int:
    """Exact rank of a matrix of Fractions."""
    m = [list(r) for r in rows]
    rk, ncols = 0, len(m[0]) if m else 0
    for col in range(ncols):
        piv = next((k for k in range(rk, len(m)) if m[k][col] != 0), None)
        if piv is None:
            continue
        m[rk], m[piv] = m[piv], m[rk]
        for k in range(len(m)):
            if k != rk and m[k][col] != 0:
                f = m[k][col] / m[rk][col]
                m[k] = [x - f * y for x, y in zip(m[k], m[rk])]
        rk += 1
    return rk


def independent_rows(rows: list[list[Fraction]], want: int) -> list[int]:
    """Indices of ``want`` linearly independent rows, greedily (fewer if impossible)."""
    chosen: list[int] = []
    for k in range(len(rows)):
        if len(chosen) == want:
            break
        if rank([rows[i] for i in chosen] + [rows[k]]) == len(chosen) + 1:
            chosen.append(k)
    return chosen
