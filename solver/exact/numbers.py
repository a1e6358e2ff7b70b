"""Exact numbers at the boundary: reading what users type, and writing reduced fractions.

Every number a user gives (a commission, a probability, a stake share θ, a false-alarm rate) is read
by :func:`exact` into a :class:`~fractions.Fraction`; floats are refused, because ``0.1`` as a float is
not one tenth. Every exact number the program writes goes through :func:`fraction_str`. Inputs are
bounded in length (:data:`MAX_NUMBER_CHARS`) and in exponent (:data:`MAX_EXPONENT`, checked before the
power is computed), so a pasted megabyte of digits or ``1e999999999`` is an error, not an
hour of arithmetic.

>>> exact("0.05"), exact("1/20"), exact(0), exact(" 5% ")
(Fraction(1, 20), Fraction(1, 20), Fraction(0, 1), Fraction(1, 20))
>>> fraction_str(Fraction(6, 4)), fraction_str(Fraction(-3))
('3/2', '-3')
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from solver.errors import InputError

MAX_NUMBER_CHARS = 100
"""The longest number a user may type (digits, sign, point, slash and exponent together)."""

MAX_EXPONENT = 100
"""The largest power of ten a number may be written with, either way (``1e100``, ``1e-100``): checked
before the power is computed, so ``1e999999999`` is an error, not an hour of arithmetic."""

_DIGITS = r"[0-9](?:_?[0-9])*"
_RATIO = re.compile(rf"[+-]?{_DIGITS}/{_DIGITS}")
_DECIMAL = re.compile(rf"([+-]?(?:{_DIGITS}(?:\.(?:{_DIGITS})?)?|\.{_DIGITS}))(?:e([+-]?{_DIGITS}))?")
"""What :func:`exact` reads: ASCII digits (an underscore between two of them allowed), a ratio ``p/q``
or a decimal with an optional exponent."""


def exact(x: object, what: str = "value") -> Fraction:
    """An exact number from an int, a Fraction, or a string such as ``0.05``, ``1/20``, ``5%`` or ``1e-3``.

    Raises:
        TypeError: ``x`` is a float (not exact) or of another type; a programming error.
        InputError: a string that is not a number, or longer than :data:`MAX_NUMBER_CHARS`.
    """
    if isinstance(x, bool):
        raise TypeError(f"{what}: expected a number, got a bool")
    if isinstance(x, float):
        raise TypeError(f"{what}: floats are not exact; pass a Fraction, an int or a decimal string")
    if isinstance(x, (int, Fraction)):
        return Fraction(x)
    if isinstance(x, str):
        text = x.strip()
        if len(text) > MAX_NUMBER_CHARS:
            raise InputError(f"{what}: a number of {len(text)} characters is too long (at most {MAX_NUMBER_CHARS})")
        percent = text.endswith("%")
        if percent:
            text = text[:-1].strip()
        value = _literal(text.lower(), what, x.strip())
        return value / 100 if percent else value
    raise TypeError(f"{what}: cannot make an exact number from {type(x).__name__}")


def _literal(text: str, what: str, given: str) -> Fraction:
    """A ratio or a decimal (lower case), its exponent bounded before any power is computed."""
    if _RATIO.fullmatch(text):
        numerator, denominator = text.split("/")
        if int(denominator) == 0:
            raise InputError(f"{what}: {given!r} divides by zero")
        return Fraction(int(numerator), int(denominator))
    m = _DECIMAL.fullmatch(text)
    if m is None:
        raise InputError(f"{what} must be a number such as 0.05 or 1/20, got {given!r}")
    mantissa, power = m.group(1), m.group(2)
    if power is None:
        return Fraction(mantissa)
    if abs(int(power)) > MAX_EXPONENT:
        raise InputError(f"{what}: the exponent of {given!r} is out of range (at most {MAX_EXPONENT} either way)")
    return Fraction(mantissa) * Fraction(10) ** int(power)


def fraction_str(x: Fraction | int) -> str:
    """An exact number as ``p/q`` in lowest terms, or ``p`` when it is whole."""
    if type(x) is int:
        return str(x)
    if type(x) is not Fraction:
        x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def decimal_str(x: Fraction | int, digits: int) -> str:
    """``x`` rounded to ``digits`` decimals (half to even), computed exactly from the Fraction.

    >>> decimal_str(Fraction(-1, 8), 2), decimal_str(Fraction(5, 2), 0), decimal_str(Fraction(1, 3), 4)
    ('-0.12', '2', '0.3333')
    """
    scaled = round(Fraction(x) * 10**digits)
    sign = "-" if scaled < 0 else ""
    s = str(abs(scaled)).rjust(digits + 1, "0")
    return f"{sign}{s[:-digits]}.{s[-digits:]}" if digits > 0 else f"{sign}{s}"


def probability(x: object, what: str = "probability") -> Fraction:
    """:func:`exact`, and in [0, 1].

    >>> probability("9/11")
    Fraction(9, 11)
    """
    p = exact(x, what)
    if not 0 <= p <= 1:
        raise InputError(f"{what} must lie in [0, 1], got {fraction_str(p)}")
    return p


def in_unit_interval(xs: Iterable[Fraction | int]) -> bool:
    """Whether every x lies in [0, 1], read from numerators and (positive) denominators: the same answer
    as ``0 <= x <= 1`` without a Fraction comparison per x (strategies have hundreds of coordinates).

    >>> [in_unit_interval(xs) for xs in ([Fraction(0), Fraction(1, 3), 1], [Fraction(4, 3)], [Fraction(-1, 2)])]
    [True, False, False]
    """
    return all(0 <= x.numerator <= x.denominator for x in xs)


def numerators(xs: Iterable[Fraction]) -> tuple[list[int], int]:
    """``xs`` over their least common denominator d: the integer numerators and d.

    >>> numerators([Fraction(1, 2), Fraction(2, 3), Fraction(1)])
    ([3, 4, 6], 6)
    """
    xs = list(xs)
    d = math.lcm(*(x.denominator for x in xs)) if xs else 1
    return [x.numerator * (d // x.denominator) for x in xs], d


def primitive(xs: Iterable[Fraction]) -> list[int]:
    """The same ratios as coprime integers: ``xs`` times the positive rational that makes them so (the
    signs kept; all zeros stay zeros).

    >>> primitive([Fraction(1, 2), Fraction(-3, 4), Fraction(0)])
    [2, -3, 0]
    """
    ints, _ = numerators(xs)
    g = math.gcd(*ints) or 1
    return [x // g for x in ints]


def quotient(num: Any, d: Any) -> Any:
    """num / d, exactly: a Fraction when both are integers (Python's ``/`` would make a float), else
    the numbers' own division (Fractions, number-field elements).

    >>> quotient(6, 4), quotient(Fraction(3), 2)
    (Fraction(3, 2), Fraction(3, 2))
    """
    if isinstance(num, int) and isinstance(d, int):
        return Fraction(num, d)
    return num / d
