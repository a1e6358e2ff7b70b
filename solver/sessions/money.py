"""Amounts of money at the table: exact, never negative, written as integers or ``"p/q"``.

Every amount the session engine handles is a :class:`~fractions.Fraction` (5 % of a bank of 150 is
15/2, and a banco à deux on a bank of 75 is 75/2 each): money is never rounded, so the sum of the
seats' bankrolls, the bank, the garage and the house's take is conserved *exactly* from coup to coup.
At the JSON boundary an amount is a JSON integer when it is whole and a ``"p/q"`` string otherwise
(:func:`amount_json`); floats are refused on the way in (:func:`parse_amount`).

>>> parse_amount("15/2", "a stake"), parse_amount(100, "a bank")
(Fraction(15, 2), 100)
>>> amount_json(Fraction(15, 2)), amount_json(Fraction(100))
('15/2', 100)
"""

from __future__ import annotations

from fractions import Fraction

from solver.errors import InputError
from solver.exact.numbers import exact, fraction_str

Amount = Fraction
"""An exact, non-negative sum of money."""

ZERO: Fraction = 0  # type: ignore[assignment]  # an int: see whole()

MAX_AMOUNT = 10**15
"""The largest amount a policy or an option may give (a thousand million million units): the summaries'
float statistics of a session's money stay finite (1e190 overflowed them)."""


def parse_amount(x: object, what: str) -> Fraction:
    """An exact non-negative amount from an int, a Fraction, or a string such as ``"150"`` or ``"15/2"``.

    Raises:
        InputError: a float (not exact), a bool, not a number, a negative amount, or one above
            :data:`MAX_AMOUNT`.
    """
    if isinstance(x, bool) or isinstance(x, float) or not isinstance(x, (int, str, Fraction)):
        raise InputError(f'{what}: write amounts as whole numbers or exact fractions such as "15/2", got {x!r}')
    value = exact(x, what)
    if value < 0:
        raise InputError(f"{what} must not be negative, got {fraction_str(value)}")
    if value > MAX_AMOUNT:
        given = fraction_str(value)
        raise InputError(f"{what}: at most {MAX_AMOUNT:,}, got {given if len(given) <= 40 else given[:37] + '...'}")
    return whole(value)


def whole(x: Fraction | int) -> Fraction:
    """``x`` as a Python ``int`` when it is whole, else as it is.

    The engine's fast path: whole amounts (most stakes and bankrolls) are kept as ints, which mix
    exactly with Fractions (``int + Fraction`` is the exact Fraction sum) and add about fifty times
    faster. The annotation says Fraction because every operation on the result is exact rational
    arithmetic all the same.

    >>> whole(Fraction(30, 3)), whole(Fraction(15, 2))
    (10, Fraction(15, 2))
    """
    return x.numerator if x.denominator == 1 else x  # type: ignore[return-value]


def part(x: Fraction | int, n: int) -> Fraction:
    """``x / n`` exactly (never the float that ``/`` makes of two ints), as :func:`whole` returns it.

    >>> part(75, 2), part(100, 10)
    (Fraction(75, 2), 10)
    """
    return whole(Fraction(x) / n)


def amount_json(x: Fraction | int) -> int | str:
    """An amount as JSON: an integer when whole, else the string ``"p/q"`` (never a float)."""
    if not isinstance(x, (int, Fraction)):
        raise TypeError(f"an amount is exact (int or Fraction), got {x!r}")
    x = Fraction(x)
    return x.numerator if x.denominator == 1 else fraction_str(x)


def amount_from_json(x: object, what: str = "amount") -> Fraction:
    """Inverse of :func:`amount_json` (for readers of the log); negative amounts are allowed here
    (a seat's result can be a loss)."""
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise InputError(f'{what}: an amount is a JSON integer or a "p/q" string, got {x!r}')
    return exact(x, what)
