"""Exact real algebraic numbers: elements of a number field Q(α), α a real root of an irreducible polynomial.

A three-person equilibrium can be irrational (two banker cells mixed make the players' draw
probabilities the common root of two bilinear equations). Such numbers are kept exactly: a
:class:`Field` is α, given by its minimal polynomial m (integer coefficients, irreducible over Q) and
an isolating interval (lo, hi) with rational ends, in which m changes sign and is monotonic (so α is
its only root there); an :class:`Algebraic` is a polynomial in α of degree below deg m with rational
coefficients. Arithmetic is polynomial arithmetic modulo m; a number is zero iff its polynomial is
(m is irreducible); its sign is read by interval evaluation on the isolating interval, bisected until
the evaluation excludes zero. Decimals are printed beside, never instead.

sympy is used only to build fields (factorising a polynomial, isolating its real roots); the
arithmetic and the signs are plain Python integers and Fractions.

>>> F = Field.from_polynomial([-2, 0, 1], Fraction(1), Fraction(2))      # α = √2
>>> a = F.element([Fraction(1), Fraction(1)])                          # 1 + √2
>>> a * a == 3 + 2 * F.generator, (a * a - 3).sign(), (1 / a).decimal(6)
(True, 1, '0.414214')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

Poly = list[Fraction]
"""A polynomial as coefficients, constant term first."""


def _trim(p: Poly) -> Poly:
    p = list(p)
    while p and p[-1] == 0:
        p.pop()
    return p


def _mul(a: Poly, b: Poly) -> Poly:
    if not a or not b:
        return []
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return _trim(out)


def _divmod(a: Poly, b: Poly) -> tuple[Poly, Poly]:
    a = _trim(a)
    b = _trim(b)
    q = [Fraction(0)] * max(0, len(a) - len(b) + 1)
    while len(a) >= len(b) and a:
        f = a[-1] / b[-1]
        shift = len(a) - len(b)
        q[shift] = f
        a = _trim([x - f * (b[i - shift] if 0 <= i - shift < len(b) else 0) for i, x in enumerate(a)])
    return _trim(q), a


def _sub(a: Poly, b: Poly) -> Poly:
    n = max(len(a), len(b))
    zero = Fraction(0)
    return _trim([(a[i] if i < len(a) else zero) - (b[i] if i < len(b) else zero) for i in range(n)])


def _eval_interval(p: Poly, lo: Fraction, hi: Fraction) -> tuple[Fraction, Fraction]:
    """Bounds of p on [lo, hi] by Horner's rule in interval arithmetic."""
    a = b = Fraction(0)
    for c in reversed(p):
        products = (a * lo, a * hi, b * lo, b * hi)
        a, b = min(products) + c, max(products) + c
    return a, b


def _eval(p: Poly, x: Fraction) -> Fraction:
    out = Fraction(0)
    for c in reversed(p):
        out = out * x + c
    return out


@dataclass(eq=False)
class Field:
    """Q(α): α the only root of the irreducible ``minpoly`` (integers, constant first) in (lo, hi)."""

    minpoly: tuple[int, ...]
    lo: Fraction
    hi: Fraction
    _poly: Poly = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._poly = [Fraction(c) for c in self.minpoly]
        if len(self._poly) < 2:
            raise ValueError("a minimal polynomial has degree at least 1")
        if _eval(self._poly, self.lo) * _eval(self._poly, self.hi) >= 0:
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
    def generator(self) -> Algebraic:
        return self.element([Fraction(0), Fraction(1)])

    def element(self, coefficients: Sequence[Any]) -> Algebraic:
        """The number Σ c_i α^i (reduced modulo the minimal polynomial)."""
        _, r = _divmod([Fraction(c) for c in coefficients], self._poly)
        return Algebraic(self, tuple(r))

    def refine(self, width: Fraction | None) -> None:
        """Bisect the isolating interval until m' keeps one sign on it and it is at most ``width`` wide."""
        deriv = [i * c for i, c in enumerate(self._poly)][1:]
        while True:
            dlo, dhi = _eval_interval(deriv, self.lo, self.hi)
            if (dlo > 0 or dhi < 0) and (width is None or self.hi - self.lo <= width):
                return
            mid = (self.lo + self.hi) / 2
            v = _eval(self._poly, mid)
            if v == 0:  # pragma: no cover - an irreducible polynomial of degree > 1 has no rational root
                raise ValueError("the minimal polynomial has a rational root: it is not irreducible")
            if v * _eval(self._poly, self.lo) < 0:
                self.hi = mid
            else:
                self.lo = mid

    def bounds(self, p: Poly) -> tuple[Fraction, Fraction]:
        """Rational bounds of p(α), from the current isolating interval."""
        return _eval_interval(p, self.lo, self.hi)

    def spec(self) -> dict[str, object]:
        """JSON-ready: the minimal polynomial (constant first) and the isolating interval."""
        return {"minimal_polynomial": [str(c) for c in self.minpoly], "interval": [str(self.lo), str(self.hi)]}


@dataclass(frozen=True, eq=False)
class Algebraic:
    """An element of a :class:`Field`: coefficients of its polynomial in α (constant first)."""

    field: Field
    coefficients: tuple[Fraction, ...]

    def _coerce(self, other: Any) -> Algebraic | None:
        if isinstance(other, Algebraic):
            if other.field is not self.field:
                raise ValueError("numbers of different fields")
            return other
        if isinstance(other, (int, Fraction)):
            return Algebraic(self.field, tuple(_trim([Fraction(other)])))
        return None

    def __add__(self, other: Any) -> Algebraic:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        n = max(len(self.coefficients), len(o.coefficients))
        zero = Fraction(0)
        c = [(self.coefficients[i] if i < len(self.coefficients) else zero)
             + (o.coefficients[i] if i < len(o.coefficients) else zero) for i in range(n)]
        return Algebraic(self.field, tuple(_trim(c)))

    __radd__ = __add__

    def __neg__(self) -> Algebraic:
        return Algebraic(self.field, tuple(-c for c in self.coefficients))

    def __sub__(self, other: Any) -> Algebraic:
        o = self._coerce(other)
        return NotImplemented if o is None else self + (-o)

    def __rsub__(self, other: Any) -> Algebraic:
        return (-self) + other

    def __mul__(self, other: Any) -> Algebraic:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return self.field.element(_mul(list(self.coefficients), list(o.coefficients)))

    __rmul__ = __mul__

    def inverse(self) -> Algebraic:
        """1 / self, by the extended Euclidean algorithm modulo the minimal polynomial."""
        if not self.coefficients:
            raise ZeroDivisionError("division by zero in a number field")
        r0, r1 = list(self.field._poly), list(self.coefficients)
        s0: Poly = []
        s1: Poly = [Fraction(1)]
        while len(_trim(r1)) > 1:
            q, r = _divmod(r0, r1)
            r0, r1 = r1, r
            s0, s1 = s1, _sub(s0, _mul(q, s1))
        c = _trim(r1)[0]
        return self.field.element([x / c for x in s1])

    def __truediv__(self, other: Any) -> Algebraic:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return self * o.inverse()

    def __rtruediv__(self, other: Any) -> Algebraic:
        return self.inverse() * other

    def is_zero(self) -> bool:
        return not self.coefficients

    def rational(self) -> Fraction | None:
        """The number as a Fraction when it is rational (a constant polynomial), else None."""
        return self.coefficients[0] if len(self.coefficients) == 1 else (Fraction(0) if not self.coefficients else None)

    def sign(self) -> int:
        """−1, 0 or 1, exactly."""
        if not self.coefficients:
            return 0
        p = list(self.coefficients)
        while True:
            lo, hi = self.field.bounds(p)
            if lo > 0:
                return 1
            if hi < 0:
                return -1
            self.field.refine((self.field.hi - self.field.lo) / 2)

    def interval(self, width: Fraction) -> tuple[Fraction, Fraction]:
        """Rational bounds on the number, at most ``width`` apart."""
        p = list(self.coefficients) or [Fraction(0)]
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
        return (self - other).sign()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Algebraic, int, Fraction)):
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
        return f"Algebraic({self.decimal(12)}…)"


def decimal_of(x: Fraction | Algebraic | int, digits: int) -> str:
    """An exact number rounded to ``digits`` decimals (half to even), as a string; for an irrational
    number the rounding is decided by exact bounds, refined until both round alike."""
    scale = Fraction(10) ** digits
    if not isinstance(x, Algebraic):
        return _format(round(Fraction(x) * scale), digits)
    width = Fraction(1, 10 ** (digits + 2))
    while True:
        lo, hi = x.interval(width)
        a, b = round(lo * scale), round(hi * scale)
        if a == b:
            return _format(a, digits)
        width /= 1000


def _format(n: int, digits: int) -> str:
    sign = "-" if n < 0 else ""
    n = abs(n)
    if digits == 0:
        return f"{sign}{n}"
    s = str(n).rjust(digits + 1, "0")
    return f"{sign}{s[:-digits]}.{s[-digits:]}"


def minimal_polynomial(x: Algebraic) -> list[int]:
    """The minimal polynomial of x over Q (integer coefficients, constant first, positive leading)."""
    from sympy import Poly as SPoly
    from sympy import Rational, Symbol, factor_list, lcm

    t = Symbol("t")
    d = x.field.degree
    # Powers of x in the power basis; the first dependency gives the minimal polynomial.
    powers = [[Fraction(1)] + [Fraction(0)] * (d - 1)]
    cur = x.field.element([1])
    for _ in range(d):
        cur = cur * x
        row = list(cur.coefficients) + [Fraction(0)] * (d - len(cur.coefficients))
        powers.append(row)
    from sympy import Matrix

    for n in range(1, d + 1):
        mat = Matrix([[Rational(p[c].numerator, p[c].denominator) for p in powers[: n + 1]] for c in range(d)])
        null = mat.nullspace()
        if null:
            vec = null[0]
            den = lcm([v.q for v in vec])
            coeffs = [int(v * den) for v in vec]
            poly = SPoly(sum(c * t**i for i, c in enumerate(coeffs)), t)
            _, factors = factor_list(poly)
            for f, _ in factors:
                fp = SPoly(f, t)
                if fp.degree() == n:
                    out = [int(c) for c in reversed(fp.all_coeffs())]
                    return out if out[-1] > 0 else [-c for c in out]
            out = coeffs if coeffs[-1] > 0 else [-c for c in coeffs]
            return out
    raise ValueError("no minimal polynomial found")  # pragma: no cover


def isolate(x: Algebraic) -> tuple[list[int], Fraction, Fraction]:
    """x as a root of its own minimal polynomial, with an isolating interval (m changes sign, monotonic)."""
    m = minimal_polynomial(x)
    if len(m) == 2:
        q = Fraction(-m[0], m[1])
        return m, q, q
    own = Field(tuple(m), *_bracket(x, m))
    own.refine(None)
    return m, own.lo, own.hi


def _bracket(x: Algebraic, m: list[int]) -> tuple[Fraction, Fraction]:
    poly = [Fraction(c) for c in m]
    deriv = [i * c for i, c in enumerate(poly)][1:]
    width = Fraction(1, 2**20)
    while True:
        lo, hi = x.interval(width)
        lo, hi = lo - width, hi + width
        if _eval(poly, lo) * _eval(poly, hi) < 0:
            dlo, dhi = _eval_interval(deriv, lo, hi)
            if dlo > 0 or dhi < 0:
                return lo, hi
        width /= 2**20
