"""Exact arithmetic in a number field Q(α), α a real root of an irreducible polynomial.

A three-person equilibrium of baccara banque can be irrational (two banker cells mixed make the
players' draw probabilities the common root of two bilinear equations). Such numbers are kept
exactly: a :class:`Field` is α, given by its minimal polynomial m (integer coefficients, irreducible
over Q) and an isolating interval (lo, hi) with rational ends, in which m changes sign and is
monotonic (so α is its only root there); a :class:`FieldElement` is a polynomial in α of degree below
deg m with rational coefficients. Arithmetic is polynomial arithmetic modulo m (the polynomials of
:mod:`solver.exact.algebraic`); a number is zero iff its polynomial is (m is irreducible); its sign is read
by interval evaluation on the isolating interval, bisected until the evaluation excludes zero.
Decimals are printed beside, never instead. (:class:`solver.exact.algebraic.FieldElement` is the other form
of an algebraic number: one root, held canonically, compared with roots of other polynomials.)

sympy is used only to build fields (factorising a polynomial, isolating its real roots); the
arithmetic and the signs are plain Python integers and Fractions.

>>> F = Field.from_polynomial([-2, 0, 1], Fraction(1), Fraction(2))      # α = √2
>>> a = F.element([Fraction(1), Fraction(1)])                          # 1 + √2
>>> a * a == 3 + 2 * F.generator, (a * a - 3).sign(), (1 / a).decimal(6)
(True, 1, '0.414214')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solver.exact.algebraic import Poly, as_poly, irreducible_factors, padd, pbounds, pderivative, pdivmod, peval, pmul, psub
from solver.exact.linalg import nullspace
from solver.exact.numbers import decimal_str


@dataclass(eq=False)
class Field:
    """Q(α): α the only root of the irreducible ``minpoly`` (integers, constant first) in (lo, hi)."""

    minpoly: tuple[int, ...]
    lo: Fraction
    hi: Fraction
    poly: Poly = field(default=(), init=False, repr=False)
    """The minimal polynomial with Fraction coefficients (set from ``minpoly``)."""

    def __post_init__(self) -> None:
        self.poly = as_poly(self.minpoly)
        if len(self.poly) < 2:
            raise ValueError("a minimal polynomial has degree at least 1")
        if peval(self.poly, self.lo) * peval(self.poly, self.hi) >= 0:
            raise ValueError("the minimal polynomial must change sign on the isolating interval")

    @classmethod
    def from_polynomial(cls, coefficients: Sequence[int], lo: Fraction, hi: Fraction) -> Field:
        """The field of the root of an irreducible polynomial (constant term first) isolated in (lo, hi)."""
        f = cls(tuple(int(c) for c in coefficients), Fraction(lo), Fraction(hi))
        f.refine(None)
        return f

    @property
    def degree(self) -> int:
        return len(self.minpoly) - 1

    @property
    def generator(self) -> FieldElement:
        return self.element([Fraction(0), Fraction(1)])

    def element(self, coefficients: Sequence[Any]) -> FieldElement:
        """The number Σ c_i α^i (reduced modulo the minimal polynomial)."""
        return FieldElement(self, pdivmod(as_poly(coefficients), self.poly)[1])

    def refine(self, width: Fraction | None) -> None:
        """Bisect the isolating interval until m' keeps one sign on it and it is at most ``width`` wide."""
        deriv = pderivative(self.poly)
        while True:
            dlo, dhi = pbounds(deriv, self.lo, self.hi)
            if (dlo > 0 or dhi < 0) and (width is None or self.hi - self.lo <= width):
                return
            mid = (self.lo + self.hi) / 2
            v = peval(self.poly, mid)
            if v == 0:  # pragma: no cover - an irreducible polynomial of degree > 1 has no rational root
                raise ValueError("the minimal polynomial has a rational root: it is not irreducible")
            if v * peval(self.poly, self.lo) < 0:
                self.hi = mid
            else:
                self.lo = mid

    def bounds(self, p: Poly) -> tuple[Fraction, Fraction]:
        """Rational bounds of p(α), from the current isolating interval."""
        return pbounds(p, self.lo, self.hi)

    def spec(self) -> dict[str, object]:
        """JSON-ready: the minimal polynomial (constant first) and the isolating interval."""
        return {"minimal_polynomial": [str(c) for c in self.minpoly], "interval": [str(self.lo), str(self.hi)]}


@dataclass(frozen=True, eq=False)
class FieldElement:
    """An element of a :class:`Field`: coefficients of its polynomial in α (constant first)."""

    field: Field
    coefficients: tuple[Fraction, ...]

    def _coerce(self, other: Any) -> FieldElement | None:
        if isinstance(other, FieldElement):
            if other.field is not self.field:
                raise ValueError("numbers of different fields")
            return other
        if isinstance(other, (int, Fraction)):
            return FieldElement(self.field, as_poly([other]))
        return None

    def __add__(self, other: Any) -> FieldElement:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return FieldElement(self.field, padd(self.coefficients, o.coefficients))

    __radd__ = __add__

    def __neg__(self) -> FieldElement:
        return FieldElement(self.field, tuple(-c for c in self.coefficients))

    def __sub__(self, other: Any) -> FieldElement:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return self + (-o)

    def __rsub__(self, other: Any) -> FieldElement:
        out: FieldElement = (-self) + other
        return out

    def __mul__(self, other: Any) -> FieldElement:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return self.field.element(pmul(self.coefficients, o.coefficients))

    __rmul__ = __mul__

    def inverse(self) -> FieldElement:
        """1 / self, by the extended Euclidean algorithm modulo the minimal polynomial."""
        if not self.coefficients:
            raise ZeroDivisionError("division by zero in a number field")
        r0, r1 = self.field.poly, self.coefficients
        s0: Poly = ()
        s1: Poly = (Fraction(1),)
        while len(r1) > 1:
            q, r = pdivmod(r0, r1)
            r0, r1 = r1, r
            s0, s1 = s1, psub(s0, pmul(q, s1))
        c = r1[0]
        return self.field.element([x / c for x in s1])

    def __truediv__(self, other: Any) -> FieldElement:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return self * o.inverse()

    def __rtruediv__(self, other: Any) -> FieldElement:
        out: FieldElement = self.inverse() * other
        return out

    def is_zero(self) -> bool:
        return not self.coefficients

    def rational(self) -> Fraction | None:
        """The number as a Fraction when it is rational (a constant polynomial), else None."""
        return self.coefficients[0] if len(self.coefficients) == 1 else (Fraction(0) if not self.coefficients else None)

    def sign(self) -> int:
        """−1, 0 or 1, exactly."""
        if not self.coefficients:
            return 0
        while True:
            lo, hi = self.field.bounds(self.coefficients)
            if lo > 0:
                return 1
            if hi < 0:
                return -1
            self.field.refine((self.field.hi - self.field.lo) / 2)

    def interval(self, width: Fraction) -> tuple[Fraction, Fraction]:
        """Rational bounds on the number, at most ``width`` apart."""
        p = self.coefficients or (Fraction(0),)
        while True:
            lo, hi = self.field.bounds(p)
            if hi - lo <= width:
                return lo, hi
            self.field.refine((self.field.hi - self.field.lo) / 2)

    def decimal(self, digits: int) -> str:
        """The number rounded to ``digits`` decimals (rounding decided by exact bounds)."""
        return decimal_of(self, digits)

    def __float__(self) -> float:
        lo, hi = self.interval(Fraction(1, 10**18))
        return float((lo + hi) / 2)

    def _cmp(self, other: Any) -> int:
        difference: FieldElement = self - other
        return difference.sign()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (FieldElement, int, Fraction)):
            return self._cmp(other) == 0
        return NotImplemented

    def __hash__(self) -> int:
        r = self.rational()
        return hash(r) if r is not None else hash((id(self.field), self.coefficients))

    def __lt__(self, other: Any) -> bool:
        return self._cmp(other) < 0

    def __le__(self, other: Any) -> bool:
        return self._cmp(other) <= 0

    def __gt__(self, other: Any) -> bool:
        return self._cmp(other) > 0

    def __ge__(self, other: Any) -> bool:
        return self._cmp(other) >= 0

    def __repr__(self) -> str:
        return f"FieldElement({self.decimal(12)}…)"


def decimal_of(x: Fraction | FieldElement | int, digits: int) -> str:
    """An exact number rounded to ``digits`` decimals (half to even), as a string; for an irrational
    number the rounding is decided by exact bounds, refined until both round alike."""
    if not isinstance(x, FieldElement):
        return decimal_str(x, digits)
    width = Fraction(1, 10 ** (digits + 2))
    while True:
        lo, hi = x.interval(width)
        a, b = decimal_str(lo, digits), decimal_str(hi, digits)
        if a == b:
            return a
        width /= 1000


def minimal_polynomial(x: FieldElement) -> list[int]:
    """The minimal polynomial of x over Q (integer coefficients, constant first, positive leading):
    the first linear dependency among 1, x, x², … (their coefficients in the power basis of α)."""
    d = x.field.degree
    powers = [[Fraction(1)] + [Fraction(0)] * (d - 1)]
    cur = x.field.element([1])
    for _ in range(d):
        cur = cur * x
        powers.append(list(cur.coefficients) + [Fraction(0)] * (d - len(cur.coefficients)))
    for n in range(1, d + 1):
        null = nullspace([[p[c] for p in powers[: n + 1]] for c in range(d)])
        if null:
            den = math.lcm(*(v.denominator for v in null[0]))
            coeffs = [int(v * den) for v in null[0]]
            for f in irreducible_factors(coeffs):
                if len(f) == n + 1:
                    return list(f)
            return coeffs if coeffs[-1] > 0 else [-c for c in coeffs]
    raise ValueError("no minimal polynomial found")  # pragma: no cover


def isolate(x: FieldElement) -> tuple[list[int], Fraction, Fraction]:
    """x as a root of its own minimal polynomial, with an isolating interval (m changes sign, monotonic)."""
    m = minimal_polynomial(x)
    if len(m) == 2:
        q = Fraction(-m[0], m[1])
        return m, q, q
    own = Field(tuple(m), *_bracket(x, m))
    own.refine(None)
    return m, own.lo, own.hi


def _bracket(x: FieldElement, m: list[int]) -> tuple[Fraction, Fraction]:
    poly = as_poly(m)
    deriv = pderivative(poly)
    width = Fraction(1, 2**20)
    while True:
        lo, hi = x.interval(width)
        lo, hi = lo - width, hi + width
        if peval(poly, lo) * peval(poly, hi) < 0:
            dlo, dhi = pbounds(deriv, lo, hi)
            if dlo > 0 or dhi < 0:
                return lo, hi
        width /= 2**20
