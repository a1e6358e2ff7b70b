"""Exact solutions of small polynomial systems with rational coefficients (sympy's Gröbner bases).

A system is given as sparse integer (or rational) polynomials: dicts from exponent tuples to
coefficients. Its solutions are returned exactly: Fractions when rational, else elements of one
number field (:mod:`solver.exact.numberfield`). The lexicographic basis must be zero-dimensional and in
shape position (each variable linear in itself given the later ones); otherwise the answer is None
(undecided), never a guess.

>>> solve_near([{(1, 0): 1, (0, 0): -1}, {(1, 1): 1, (0, 0): -2}], [1.0, 2.0])
[Fraction(1, 1), Fraction(2, 1)]
>>> real_solutions([{(2,): 1, (0,): -2}], 1)   # x² = 2 has no root in [0, 1]
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from solver.exact.numberfield import Field

Poly = dict[tuple[int, ...], Any]


def _symbols(n: int) -> list[Any]:
    from sympy import Symbol

    return [Symbol(f"v{q}") for q in range(n)]


def _expr(poly: Poly, syms: list[Any]) -> Any:
    from sympy import Rational

    out: Any = 0
    for expo, c in poly.items():
        c = Fraction(c)
        term: Any = Rational(c.numerator, c.denominator)
        for s, d in zip(syms, expo):
            if d:
                term = term * s**d
        out = out + term
    return out


def evaluate(poly: Poly, values: Sequence[Any]) -> Any:
    """A polynomial (exponent tuple → coefficient) at exact values (Fraction or FieldElement), by
    repeated products (no powers: a number field's elements multiply, they do not exponentiate).

    >>> evaluate({(2, 0): 3, (0, 1): -1, (0, 0): 1}, [Fraction(1, 2), Fraction(1, 4)])
    Fraction(3, 2)
    """
    total: Any = 0
    for expo, c in poly.items():
        term: Any = c
        for v, d in zip(values, expo):
            for _ in range(d):
                term = term * v
        total = total + term
    return total


def _value(expr: Any, syms: list[Any], values: dict[int, Any]) -> Any:
    """A sympy polynomial with rational coefficients evaluated at exact values (Fraction or FieldElement)."""
    from sympy import Poly as SPoly

    if not expr.free_symbols:
        return Fraction(int(expr.p), int(expr.q))
    gens = sorted(expr.free_symbols, key=syms.index)
    terms = {expo: Fraction(int(c.p), int(c.q)) for expo, c in SPoly(expr, *gens).terms()}
    return evaluate(terms, [values[syms.index(g)] for g in gens])


def _roots(last: Any, var: Any) -> list[Any]:
    """The real roots of a univariate polynomial, exactly, with their float values."""
    from sympy import Poly as SPoly
    from sympy import Rational, factor_list

    out: list[Any] = []
    _, factors = factor_list(SPoly(last, var))
    for f, _ in factors:
        fp = SPoly(f, var)
        coeffs = [int(c) for c in reversed(fp.all_coeffs())]
        for (lo, hi), _mult in fp.intervals(eps=Rational(1, 10**12)):
            lo_f, hi_f = Fraction(int(lo.p), int(lo.q)), Fraction(int(hi.p), int(hi.q))
            if len(coeffs) == 2:
                out.append(Fraction(-coeffs[0], coeffs[1]))
            elif lo_f == hi_f:  # pragma: no cover - an irreducible factor of degree > 1 has no rational root
                out.append(lo_f)
            else:
                out.append(Field.from_polynomial(coeffs, lo_f, hi_f).generator)
    return out


def _back_substitute(gb: Any, syms: list[Any], alpha: Any) -> list[Any] | None:
    n = len(syms)
    from sympy import Poly as SPoly

    values: dict[int, Any] = {n - 1: alpha}
    for q in range(n - 2, -1, -1):
        found = None
        for g in gb.exprs:
            if syms[q] in g.free_symbols and g.free_symbols <= set(syms[q:]):
                pg = SPoly(g, syms[q])
                if pg.degree() == 1:
                    a1, a0 = (_value(t, syms, values) for t in pg.all_coeffs())
                    if a1 != 0:
                        found = -a0 / a1
                        break
        if found is None:
            return None
        values[q] = found
    return [values[q] for q in range(n)]


def _basis(polys: list[Poly], n: int) -> tuple[Any, list[Any]] | None:
    from sympy import groebner

    syms = _symbols(n)
    try:
        gb = groebner([_expr(p, syms) for p in polys], *syms, order="lex")
    except Exception:  # pragma: no cover - a sympy failure leaves the system undecided
        return None
    return gb, syms


def real_solutions(polys: list[Poly], n: int) -> list[list[Any]] | None:
    """Every real solution in [0, 1]^n, exactly; None when undecided (not zero-dimensional, or not in
    shape position)."""
    if n == 0:
        return [[]] if all(not any(Fraction(c) for c in p.values()) for p in polys) else []
    found = _basis(polys, n)
    if found is None:
        return None
    gb, syms = found
    if list(gb.exprs) == [1]:
        return []
    if not gb.is_zero_dimensional:
        return None
    last = [g for g in gb.exprs if g.free_symbols <= {syms[-1]}]
    if len(last) != 1:
        return None
    out = []
    for alpha in _roots(last[0], syms[-1]):
        point = _back_substitute(gb, syms, alpha)
        if point is None:
            return None
        if all(0 <= v <= 1 for v in point):
            out.append(point)
    return out


def solve_near(polys: list[Poly], guess: list[float], tolerance: float = 1e-4) -> list[Any] | None:
    """The real solution of a square system nearest a float ``guess`` (within ``tolerance``), exactly."""
    n = len(guess)
    if n == 0:
        return []
    found = _basis(polys, n)
    if found is None:
        return None
    gb, syms = found
    if list(gb.exprs) == [1]:
        return None
    last = [g for g in gb.exprs if g.free_symbols <= {syms[-1]}]
    if len(last) != 1:
        return None
    roots = sorted(_roots(last[0], syms[-1]), key=lambda a: abs(float(a) - guess[-1]))
    if not roots or abs(float(roots[0]) - guess[-1]) > tolerance:
        return None
    point = _back_substitute(gb, syms, roots[0])
    if point is None or any(abs(float(v) - g) > tolerance for v, g in zip(point, guess)):
        return None
    return point
