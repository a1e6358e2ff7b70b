"""Exact linear algebra over the rationals, or over any exact field (a number field's elements), for
snapping float proposals: the one elimination the solvers of both games use.

Small dense systems only (tens of unknowns). Everything rests on :func:`row_echelon`, Gauss–Jordan
elimination taking as pivot the first nonzero entry of each column in turn, which gives the reduced
row echelon form (unique for a matrix, so every answer below is determined by the matrix alone, not
by the order of the arithmetic). Integers are read as Fractions; other entries (Fractions,
:class:`~solver.exact.numberfield.FieldElement`) are used as they are.

>>> F = Fraction
>>> solve_square([[F(2), F(1)], [F(1), F(3)]], [F(3), F(5)])
[Fraction(4, 5), Fraction(7, 5)]
>>> rank([[1, 2], [2, 4]]), independent_rows([[1, 2], [2, 4], [0, 1]])
(1, [0, 2])
>>> solve_any([[F(1), F(1)], [F(2), F(2)]], [F(1), F(2)]), solve_any([[F(1)], [F(1)]], [F(1), F(2)])
([Fraction(1, 1), Fraction(0, 1)], None)
>>> nullspace([[1, 2, 3]])
[[Fraction(-2, 1), Fraction(1, 1), Fraction(0, 1)], [Fraction(-3, 1), Fraction(0, 1), Fraction(1, 1)]]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any


def exact_row(row: Sequence[Any]) -> list[Any]:
    """A row with its integers made Fractions (so that division is exact)."""
    return [Fraction(x) if isinstance(x, int) else x for x in row]


def row_echelon(rows: Sequence[Sequence[Any]], ncols: int) -> tuple[list[list[Any]], list[int]]:
    """The reduced row echelon form of ``rows`` (pivots sought in the first ``ncols`` columns only, so
    an augmented column is carried along) and its pivot columns. The input is not changed."""
    m = [exact_row(r) for r in rows]
    pivots: list[int] = []
    rk = 0
    for col in range(ncols):
        if rk == len(m):
            break
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
    return m, pivots


def rank(rows: Sequence[Sequence[Any]]) -> int:
    """The exact rank of a matrix."""
    if not rows:
        return 0
    return len(row_echelon(rows, len(rows[0]))[1])


def independent_rows(rows: Sequence[Sequence[Any]], want: int | None = None) -> list[int]:
    """Indices of linearly independent rows, chosen greedily in the given order (a row is taken when
    it is independent of those taken before), at most ``want`` of them."""
    chosen: list[int] = []
    basis: list[list[Any]] = []  # the chosen rows reduced, in echelon form with leading ones
    for n, row in enumerate(rows):
        if want is not None and len(chosen) == want:
            break
        r = exact_row(row)
        for b in basis:
            lead = next(c for c, v in enumerate(b) if v != 0)
            if r[lead] != 0:
                f = r[lead]
                r = [x - f * y for x, y in zip(r, b)]
        lead = next((c for c, v in enumerate(r) if v != 0), -1)
        if lead < 0:
            continue
        p = r[lead]
        r = [x / p for x in r]
        for k, b in enumerate(basis):
            if b[lead] != 0:
                f = b[lead]
                basis[k] = [x - f * y for x, y in zip(b, r)]
        basis.append(r)
        chosen.append(n)
    return chosen


def det(matrix: Sequence[Sequence[Any]]) -> Fraction:
    """Exact determinant (Gaussian elimination over Fractions)."""
    a = [exact_row(r) for r in matrix]
    n, det = len(a), Fraction(1)
    for c in range(n):
        p = next((k for k in range(c, n) if a[k][c] != 0), None)
        if p is None:
            return Fraction(0)
        if p != c:
            a[c], a[p] = a[p], a[c]
            det = -det
        det *= a[c][c]
        for k in range(c + 1, n):
            f = a[k][c] / a[c][c]
            if f:
                a[k] = [x - f * y for x, y in zip(a[k], a[c])]
    return det


def solve_square(rows: Sequence[Sequence[Any]], rhs: Sequence[Any]) -> list[Any] | None:
    """The unique solution of a square system, or None when it is singular."""
    n = len(rows)
    if n == 0:
        return []
    m, pivots = row_echelon([[*r, b] for r, b in zip(rows, rhs)], n)
    if len(pivots) < n:
        return None
    return [m[k][n] for k in range(n)]


def solve_any(matrix: Sequence[Sequence[Any]], rhs: Sequence[Any]) -> list[Any] | None:
    """One exact solution of a linear system, the free unknowns at 0; None if it has none."""
    n = len(matrix[0]) if matrix else 0
    m, pivots = row_echelon([[*r, b] for r, b in zip(matrix, rhs)], n)
    if any(row[n] != 0 for row in m[len(pivots) :]):
        return None
    x: list[Any] = [Fraction(0)] * n
    for k, col in enumerate(pivots):
        x[col] = m[k][n]
    return x


def nullspace(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """A basis of {x : rows · x = 0}: one vector per free column, that column 1, the other free ones 0
    (the basis sympy's ``Matrix.nullspace`` gives)."""
    ncols = len(rows[0]) if rows else 0
    m, pivots = row_echelon(rows, ncols)
    out = []
    for free in (c for c in range(ncols) if c not in pivots):
        x: list[Any] = [Fraction(0)] * ncols
        x[free] = Fraction(1)
        for k, col in enumerate(pivots):
            x[col] = -m[k][free]
        out.append(x)
    return out
