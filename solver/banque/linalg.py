"""Exact linear algebra over the rationals (and any exact field), for snapping float proposals.

Small dense systems only (tens of unknowns): fraction-free where it matters little, plain Gaussian
elimination in Fractions otherwise.

>>> solve_square([[Fraction(2), Fraction(1)], [Fraction(1), Fraction(3)]], [Fraction(3), Fraction(5)])
[Fraction(4, 5), Fraction(7, 5)]
>>> independent_rows([[1, 2], [2, 4], [0, 1]])
[0, 2]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any


def _eliminate(rows: list[list[Any]], ncols: int) -> tuple[list[list[Any]], list[int]]:
    """Reduced row echelon form (in place on copies) and the pivot columns."""
    m = [list(r) for r in rows]
    pivots: list[int] = []
    rk = 0
    for col in range(ncols):
        piv = next((k for k in range(rk, len(m)) if m[k][col] != 0), None)
        if piv is None:
            continue
        m[rk], m[piv] = m[piv], m[rk]
        p = m[rk][col]
        m[rk] = [x / p for x in m[rk]]
        for k in range(len(m)):
            if k != rk and m[k][col] != 0:
                f = m[k][col]
                m[k] = [x - f * y for x, y in zip(m[k], m[rk])]
        pivots.append(col)
        rk += 1
        if rk == len(m):
            break
    return m, pivots


def rank(rows: Sequence[Sequence[Any]]) -> int:
    """Exact rank."""
    if not rows:
        return 0
    return len(_eliminate([[Fraction(x) if isinstance(x, int) else x for x in r] for r in rows], len(rows[0]))[1])


def independent_rows(rows: Sequence[Sequence[Any]], want: int | None = None) -> list[int]:
    """Indices of a maximal set of linearly independent rows, chosen greedily in the given order."""
    chosen: list[int] = []
    basis: list[list[Any]] = []
    for n, row in enumerate(rows):
        if want is not None and len(chosen) == want:
            break
        r = [Fraction(x) if isinstance(x, int) else x for x in row]
        # Reduce against the current basis (kept in echelon form with leading ones).
        for b in basis:
            lead = next(c for c, v in enumerate(b) if v != 0)
            if r[lead] != 0:
                f = r[lead]
                r = [x - f * y for x, y in zip(r, b)]
        found = next((c for c, v in enumerate(r) if v != 0), None)
        if found is None:
            continue
        lead = found
        p = r[lead]
        r = [x / p for x in r]
        for k, b in enumerate(basis):
            if b[lead] != 0:
                f = b[lead]
                basis[k] = [x - f * y for x, y in zip(b, r)]
        basis.append(r)
        chosen.append(n)
    return chosen


def solve_square(rows: Sequence[Sequence[Any]], rhs: Sequence[Any]) -> list[Any] | None:
    """The unique solution of a square system, or None when it is singular."""
    n = len(rows)
    if n == 0:
        return []
    aug = [[Fraction(x) if isinstance(x, int) else x for x in r] + [Fraction(b) if isinstance(b, int) else b]
           for r, b in zip(rows, rhs)]
    m, pivots = _eliminate(aug, n)
    if len(pivots) < n or pivots[-1] >= n:
        return None
    return [m[k][n] for k in range(n)]
