"""Exact real algebraic numbers, and polynomials in one variable with rational coefficients.

The one home of both. Polynomials are tuples of Fractions, lowest degree first, with no trailing
zeros (``(1, -1)`` is 1 − α): their arithmetic, division, exact evaluation and evaluation over an
interval, used here and by :mod:`solver.exact.numberfield` (arithmetic in Q(α), baccara banque's
irrational equilibria).

A commission game's equilibrium changes form where a polynomial in α changes sign (its coefficients
come from the exact game), so the breakpoints are real roots of polynomials with rational
coefficients: rational where the polynomial has a rational root, algebraic otherwise. An
:class:`Algebraic` is held canonically as an irreducible primitive integer polynomial with a
positive leading coefficient and the rank of the root among its real roots (so two equal numbers
are equal as values of this type), with an isolating interval of rationals refined by bisection
when a comparison or a sign needs it. Signs of polynomials at an algebraic number are exact: zero
iff the irreducible polynomial divides, otherwise read off an interval the polynomial has no root
in (Sturm sequences, by sympy).

>>> golden = real_roots((Fraction(-1), Fraction(-1), Fraction(1)), Fraction(0), Fraction(2))[0]
>>> golden.text(), golden.decimal(6), golden.sign_of((Fraction(-8, 5), Fraction(1)))
('1/2 + sqrt(5)/2', '1.618034', 1)
>>> Algebraic.rational(Fraction(1, 20)) < golden
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from solver.exact.numbers import decimal_str, primitive

Poly = tuple[Fraction, ...]
"""A polynomial: its coefficients, lowest degree first, no trailing zeros."""


def poly(*coefficients: int | Fraction) -> Poly:
    """A polynomial from its coefficients, lowest degree first, trailing zeros dropped."""
    return as_poly(coefficients)


def as_poly(coefficients: Iterable[int | Fraction]) -> Poly:
    """:func:`poly` of an iterable."""
    out = [Fraction(c) for c in coefficients]
    while out and out[-1] == 0:
        out.pop()
    return tuple(out)


def padd(p: Poly, q: Poly) -> Poly:
    """p + q."""
    n = max(len(p), len(q))
    return poly(*((p[k] if k < len(p) else 0) + (q[k] if k < len(q) else 0) for k in range(n)))


def psub(p: Poly, q: Poly) -> Poly:
    """p − q."""
    n = max(len(p), len(q))
    return poly(*((p[k] if k < len(p) else 0) - (q[k] if k < len(q) else 0) for k in range(n)))


def pscale(p: Poly, c: Fraction | int) -> Poly:
    """c p."""
    return poly(*(c * x for x in p))


def pmul(p: Poly, q: Poly) -> Poly:
    if not p or not q:
        return ()
    out = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, x in enumerate(p):
        if x:
            for j, y in enumerate(q):
                out[i + j] += x * y
    return poly(*out)


def pdivmod(p: Poly, q: Poly) -> tuple[Poly, Poly]:
    """Quotient and remainder of p by q ≠ 0: p = quotient · q + remainder, deg remainder < deg q.

    >>> pdivmod(poly(-1, 0, 1), poly(1, 1))
    ((Fraction(-1, 1), Fraction(1, 1)), ())
    """
    a, b = list(p), q
    quotient = [Fraction(0)] * max(0, len(a) - len(b) + 1)
    while len(a) >= len(b) and a:
        f = a[-1] / b[-1]
        shift = len(a) - len(b)
        quotient[shift] = f
        a = list(as_poly(x - f * (b[i - shift] if 0 <= i - shift < len(b) else 0) for i, x in enumerate(a)))
    return as_poly(quotient), tuple(a)


def pderivative(p: Poly) -> Poly:
    """p′."""
    return as_poly(k * p[k] for k in range(1, len(p)))


def interpolate(xs: list[Fraction], ys: list[Fraction]) -> Poly:
    """The polynomial of degree < len(xs) through the points (Lagrange)."""
    out: Poly = ()
    for k, (xk, yk) in enumerate(zip(xs, ys)):
        term: Poly = poly(yk)
        for t, xt in enumerate(xs):
            if t != k:
                term = pscale(pmul(term, poly(-xt, 1)), 1 / (xk - xt))
        out = padd(out, term)
    return out


def peval(p: Poly, x: Fraction) -> Fraction:
    """p(x), exactly (Horner)."""
    total = Fraction(0)
    for c in reversed(p):
        total = total * x + c
    return total


def pbounds(p: Poly, lo: Fraction, hi: Fraction) -> tuple[Fraction, Fraction]:
    """Bounds of p on [lo, hi], by Horner's rule in interval arithmetic."""
    a = b = Fraction(0)
    for c in reversed(p):
        products = (a * lo, a * hi, b * lo, b * hi)
        a, b = min(products) + c, max(products) + c
    return a, b


def integer_coefficients(p: Poly) -> tuple[int, ...]:
    """The primitive integer polynomial with the same roots and the sign of p's leading coefficient."""
    return tuple(primitive(p))


def _sympy_poly(coefficients: tuple[int, ...]):  # type: ignore[no-untyped-def]
    import sympy

    return sympy.Poly(list(reversed(coefficients)), sympy.Symbol("x"))


def irreducible_factors(coefficients: Iterable[int]) -> list[tuple[int, ...]]:
    """The distinct irreducible factors over Q of an integer polynomial (constant term first), each
    primitive with a positive leading coefficient, in sympy's order (by sympy).

    >>> irreducible_factors([-2, 0, 2])
    [(-1, 1), (1, 1)]
    """
    _, factors = _sympy_poly(tuple(coefficients)).factor_list()
    out = []
    for f, _mult in factors:
        ints = tuple(int(c) for c in reversed(f.all_coeffs()))
        out.append(ints if ints[-1] > 0 else tuple(-c for c in ints))
    return out


@dataclass(frozen=True)
class Algebraic:
    """A real algebraic number: root number ``index`` (ascending, from 0) of the irreducible ``poly``.

    ``poly`` is primitive with integer coefficients, lowest degree first, positive leading
    coefficient; degree 1 for a rational. ``lo`` and ``hi`` isolate the root (``lo == hi`` for a
    rational); they are not part of the value.
    """

    poly: tuple[int, ...]
    index: int
    lo: Fraction = field(compare=False)
    hi: Fraction = field(compare=False)

    @classmethod
    def rational(cls, x: Fraction | int) -> Algebraic:
        x = Fraction(x)
        return cls((-x.numerator, x.denominator), 0, x, x)

    @property
    def is_rational(self) -> bool:
        return len(self.poly) == 2

    @property
    def value(self) -> Fraction:
        """The number itself, when rational."""
        if not self.is_rational:
            raise ValueError(f"{self.text()} is irrational")
        return self.lo

    def refined(self) -> Algebraic:
        """The same number with its isolating interval halved."""
        if self.is_rational:
            return self
        mid = (self.lo + self.hi) / 2
        f = tuple(Fraction(c) for c in self.poly)
        at_lo, at_mid = peval(f, self.lo), peval(f, mid)
        if at_mid == 0:  # cannot happen for an irreducible polynomial of degree >= 2 at a rational
            raise AssertionError("an irreducible polynomial of degree >= 2 vanished at a rational")
        lo, hi = (self.lo, mid) if (at_lo < 0) != (at_mid < 0) else (mid, self.hi)
        return Algebraic(self.poly, self.index, lo, hi)

    def sign_of(self, p: Poly) -> int:
        """The sign of the polynomial p at this number, exactly."""
        if not p:
            return 0
        if self.is_rational:
            v = peval(p, self.lo)
            return (v > 0) - (v < 0)
        target = _sympy_poly(integer_coefficients(p))
        if target.rem(_sympy_poly(self.poly)).is_zero:
            return 0
        here = self
        while target.count_roots(here.lo, here.hi) > 0:
            here = here.refined()
        v = peval(p, here.lo)
        return (v > 0) - (v < 0)

    def __lt__(self, other: Algebraic) -> bool:
        if self == other:
            return False
        a, b = self, other
        while not (a.hi < b.lo or b.hi < a.lo):
            a, b = a.refined(), b.refined()
        return a.hi < b.lo

    def __le__(self, other: Algebraic) -> bool:
        return self == other or self < other

    def approximations(self, width: Fraction) -> tuple[Fraction, Fraction]:
        """Rationals lo <= self <= hi with hi − lo <= width."""
        here = self
        while here.hi - here.lo > width:
            here = here.refined()
        return here.lo, here.hi

    def decimal(self, digits: int) -> str:
        """Rounded to ``digits`` decimals (half to even), exactly: the interval is refined until both
        of its ends round alike."""
        here = self
        while True:
            a, b = decimal_str(here.lo, digits), decimal_str(here.hi, digits)
            if a == b:
                return a
            here = here.refined()

    def text(self) -> str:
        """Exact: ``p/q``; a quadratic irrational in radicals; else sympy's CRootOf."""
        if self.is_rational:
            v = self.lo
            return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
        return str(self.sympy())

    def sympy(self) -> Any:
        """The number as a sympy expression (Rational, radicals for degree 2, else CRootOf)."""
        import sympy

        if self.is_rational:
            return sympy.Rational(self.lo.numerator, self.lo.denominator)
        p = _sympy_poly(self.poly)
        if p.degree() == 2:
            c, b, a = (sympy.Integer(k) for k in self.poly)
            root = (-b + (1 if self.index == 1 else -1) * sympy.sqrt(b * b - 4 * a * c)) / (2 * a)
            return sympy.radsimp(sympy.expand(root))
        return sympy.CRootOf(p.as_expr(), self.index)


@cache
def _irreducible_roots(coefficients: tuple[int, ...]) -> tuple[Algebraic, ...]:
    """Every real root of an integer polynomial, as Algebraic numbers, ascending (with repeats removed)."""
    out: list[Algebraic] = []
    for ints in irreducible_factors(coefficients):
        if len(ints) == 2:
            out.append(Algebraic.rational(Fraction(-ints[0], ints[1])))
            continue
        for k, ((a, b), _m) in enumerate(_sympy_poly(ints).intervals()):
            out.append(Algebraic(ints, k, Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q))))
    return tuple(out)


def real_roots(p: Poly, lo: Fraction, hi: Fraction) -> list[Algebraic]:
    """The distinct real roots of p in [lo, hi], ascending, exactly.

    >>> [r.text() for r in real_roots(poly(-1, 0, 2), Fraction(-1), Fraction(1))]
    ['-sqrt(2)/2', 'sqrt(2)/2']
    """
    if len(p) < 2:
        return []
    ints = integer_coefficients(p)
    if _sympy_poly(ints).count_roots(lo, hi) == 0:
        return []
    a, b = Algebraic.rational(lo), Algebraic.rational(hi)
    found = [r for r in _irreducible_roots(ints) if a <= r <= b]
    return sorted_algebraic(found)


def sorted_algebraic(xs: list[Algebraic]) -> list[Algebraic]:
    """Distinct algebraic numbers, ascending (exact comparisons)."""
    from functools import cmp_to_key

    def order(x: Algebraic, y: Algebraic) -> int:
        return -1 if x < y else (1 if y < x else 0)

    return sorted(dict.fromkeys(xs), key=cmp_to_key(order))


def rational_between(a: Algebraic, b: Algebraic) -> Fraction:
    """A simple rational strictly between a < b (the one with the smallest denominator)."""
    x, y = a, b
    while not x.hi < y.lo:
        x, y = x.refined(), y.refined()
    lo, hi = x.hi, y.lo
    return _simplest_between(lo, hi)


def _simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """The fraction with the smallest denominator in the open interval (lo, hi), lo < hi (continued fractions).

    >>> _simplest_between(Fraction(1, 3), Fraction(1, 2)), _simplest_between(Fraction(3), Fraction(7, 2))
    (Fraction(2, 5), Fraction(10, 3))
    """
    n = math.floor(lo) + 1
    if n < hi:
        return Fraction(n)
    whole = n - 1  # lo and hi lie in [whole, whole + 1]
    a, b = lo - whole, hi - whole
    if a == 0:
        return whole + Fraction(1, math.floor(1 / b) + 1)
    return whole + 1 / _simplest_between(1 / b, 1 / a)
