"""Exact arithmetic in a real quadratic field Q(√d), with signs decided in integers.

A number a + b√d (a, b rational, d a positive integer that is not a square) is held by its two
rational coordinates. Its sign needs no approximation: a and b of one sign give it; otherwise it is
the sign of the larger of a² and b²d. This is the fast form of a quadratic irrational (where the
general :class:`solver.exact.numberfield.FieldElement` bisects an isolating interval); :meth:`Quadratic.in_field`
gives the same number in that form.

>>> r2 = Quadratic.root(2)
>>> (r2 * r2, (r2 - Fraction(7, 5)).sign(), 1 / (1 + r2) == r2 - 1)
(Fraction(2, 1), 1, True)
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import isqrt
from typing import Any

from solver.exact.numberfield import FieldElement


class Quadratic:
    """a + b√d, exactly (d > 1 not a square; b = 0 makes it rational)."""

    __slots__ = ("a", "b", "d")

    def __init__(self, a: Fraction | int, b: Fraction | int, d: int) -> None:
        if isinstance(a, float) or isinstance(b, float):
            raise TypeError("a quadratic number is exact: no floats")
        self.a, self.b, self.d = Fraction(a), Fraction(b), d

    @classmethod
    def root(cls, d: int) -> Quadratic:
        """√d (d > 1, not a square)."""
        if d < 2 or isqrt(d) ** 2 == d:
            raise ValueError(f"√{d} is not a quadratic irrational")
        return cls(0, 1, d)

    def _coerce(self, other: Any) -> Quadratic | None:
        if isinstance(other, Quadratic):
            if other.d != self.d and other.b and self.b:
                raise ValueError("numbers of different quadratic fields")
            return other
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool):
            return Quadratic(other, 0, self.d)
        return None

    def __add__(self, other: Any) -> Any:
        o = self._coerce(other)
        return NotImplemented if o is None else _make(self.a + o.a, self.b + o.b, self.d)

    __radd__ = __add__

    def __neg__(self) -> Quadratic:
        return Quadratic(-self.a, -self.b, self.d)

    def __sub__(self, other: Any) -> Any:
        o = self._coerce(other)
        return NotImplemented if o is None else _make(self.a - o.a, self.b - o.b, self.d)

    def __rsub__(self, other: Any) -> Any:
        o = self._coerce(other)
        return NotImplemented if o is None else _make(o.a - self.a, o.b - self.b, self.d)

    def __mul__(self, other: Any) -> Any:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return _make(self.a * o.a + self.b * o.b * self.d, self.a * o.b + self.b * o.a, self.d)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Any:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        norm = o.a * o.a - o.b * o.b * self.d
        if norm == 0:
            raise ZeroDivisionError("division by zero in a quadratic field")
        return _make((self.a * o.a - self.b * o.b * self.d) / norm, (self.b * o.a - self.a * o.b) / norm, self.d)

    def __rtruediv__(self, other: Any) -> Any:
        o = self._coerce(other)
        return NotImplemented if o is None else o / self

    def sign(self) -> int:
        """−1, 0 or 1, exactly."""
        sa = (self.a > 0) - (self.a < 0)
        sb = (self.b > 0) - (self.b < 0)
        if sb == 0 or sa == sb:
            return sa if sa else sb
        if sa == 0:
            return sb
        left, right = self.a * self.a, self.b * self.b * self.d
        return sa if left > right else sb

    def _cmp(self, other: Any) -> int:
        diff = self - other
        return diff.sign() if isinstance(diff, Quadratic) else (diff > 0) - (diff < 0)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Quadratic, int, Fraction)):
            return self._cmp(other) == 0
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.a) if self.b == 0 else hash((self.a, self.b, self.d))

    def __lt__(self, other: Any) -> bool:
        return self._cmp(other) < 0

    def __le__(self, other: Any) -> bool:
        return self._cmp(other) <= 0

    def __gt__(self, other: Any) -> bool:
        return self._cmp(other) > 0

    def __ge__(self, other: Any) -> bool:
        return self._cmp(other) >= 0

    def __float__(self) -> float:
        return float(self.a) + float(self.b) * math.sqrt(self.d)

    def __repr__(self) -> str:
        return f"Quadratic({self.a} + {self.b}·√{self.d})"

    def rational(self) -> Fraction | None:
        """The number as a Fraction when b = 0, else None."""
        return self.a if self.b == 0 else None

    def in_field(self, root: FieldElement, sign: int) -> FieldElement:
        """The same number in the field of ``root`` = (−a1 + sign·√d)/(2 a2), a root of a2 t² + a1 t + a0
        with a1² − 4 a2 a0 = d (so √d = sign·(2 a2 root + a1))."""
        a0, a1, a2 = root.field.minpoly
        if a1 * a1 - 4 * a2 * a0 != self.d:
            raise ValueError("the field's discriminant is not this number's")
        return root.field.element([self.a + self.b * sign * a1, self.b * sign * 2 * a2])


def _make(a: Fraction, b: Fraction, d: int) -> Any:
    """a + b√d; a Fraction when b = 0 (so rational results leave the field)."""
    return a if b == 0 else Quadratic(a, b, d)
