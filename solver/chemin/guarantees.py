"""Exact rational helpers of the additive game: the guarantees f and h, the slopes, the normal form
(exact linear algebra is :mod:`solver.exact.linalg`)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from solver.chemin.game import Coefficients
from solver.errors import ModelError
from solver.exact.numbers import numerators

# -- exact helpers ----------------------------------------------------------------------------------


def _banker_slope_numerators(c: Coefficients, q: list[Fraction]) -> tuple[list[int], list[int], int]:
    """The banker's slopes given q over the common denominator d·D: (numerators, q's numerators, d)."""
    nums, d = numerators(q)
    s = c.b * d + (np.array(nums, dtype=object) @ c.G if len(q) else 0)
    return [int(x) for x in s], nums, d


def _ponte_slope_numerators(c: Coefficients, r: list[Fraction]) -> tuple[list[int], list[int], int]:
    """The ponte's slopes given r over the common denominator d·D: (numerators, r's numerators, d)."""
    nums, d = numerators(r)
    s = c.a * d + (c.G @ np.array(nums, dtype=object) if len(r) else 0)
    return [int(x) for x in s], nums, d


def banker_slopes(c: Coefficients, q: list[Fraction]) -> list[Fraction]:
    """Exact gain of drawing over standing in each banker set, given q (per unit, not per denominator)."""
    s, _, d = _banker_slope_numerators(c, q)
    return [Fraction(x, d * c.denominator) for x in s]


def ponte_slopes(c: Coefficients, r: list[Fraction]) -> list[Fraction]:
    """Exact change of the payoff when the ponte draws in each of his sets, given r."""
    s, _, d = _ponte_slope_numerators(c, r)
    return [Fraction(x, d * c.denominator) for x in s]


def banker_slope_signs(c: Coefficients, q: list[Fraction]) -> list[int]:
    """The banker's slopes given q, each times the same positive integer: integers with the slopes'
    signs and zeros, for the many tests that need no more (no Fraction is built)."""
    return _banker_slope_numerators(c, q)[0]


def ponte_slope_signs(c: Coefficients, r: list[Fraction]) -> list[int]:
    """The ponte's slopes given r, each times the same positive integer (their signs and zeros)."""
    return _ponte_slope_numerators(c, r)[0]


def ponte_guarantee(c: Coefficients, q: list[Fraction]) -> Fraction:
    """f(q): the most the banker can get against q (the ponte's guarantee); summed in integers over
    the common denominator d·D of the base and the slopes."""
    s, nums, d = _banker_slope_numerators(c, q)
    base = c.c0 * d + sum(int(a) * x for a, x in zip(c.a, nums))
    return Fraction(base + sum(x for x in s if x > 0), c.denominator * d)


def banker_guarantee(c: Coefficients, r: list[Fraction]) -> Fraction:
    """h(r): the least the ponte can hold the banker to against r (the banker's guarantee), in integers."""
    s, nums, d = _ponte_slope_numerators(c, r)
    base = c.c0 * d + sum(int(b) * x for b, x in zip(c.b, nums))
    return Fraction(base + sum(x for x in s if x < 0), c.denominator * d)


MAX_NORMAL_FORM = 2**16
"""Largest number of payoff entries a normal form is expanded to (rows × columns)."""


def normal_form(c: Coefficients) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], np.ndarray]:
    """The normal-form payoff matrix of an additive game, where it is small enough to write down.

    Rows are the ponte's pure strategies (a 0/1 choice per set), columns the banker's; entries are
    exact Fractions ``E(q, r)`` for those pure choices.

    Raises:
        ModelError: more than :data:`MAX_NORMAL_FORM` entries (the parlor games: use the additive form).

    >>> from solver.cards import Shoe
    >>> from solver.chemin.game import build_game
    >>> rows, cols, A = normal_form(build_game(Shoe.decks(8), 1, "casino").gross)
    >>> A.shape
    (2, 4)
    """
    m, n = c.G.shape
    if 2 ** (m + n) > MAX_NORMAL_FORM:
        raise ModelError(f"the normal form would have 2^{m} x 2^{n} entries; too large to write down")
    rows = [tuple((k >> j) & 1 for j in range(m)) for k in range(2**m)]
    cols = [tuple((k >> i) & 1 for i in range(n)) for k in range(2**n)]
    Q = np.array(rows, dtype=object).reshape(2**m, m)
    R = np.array(cols, dtype=object).reshape(2**n, n)
    ints = c.c0 + (Q @ c.a).reshape(-1, 1) + (R @ c.b).reshape(1, -1) + (Q @ c.G) @ R.T
    D = c.denominator
    return rows, cols, np.array([[Fraction(int(x), D) for x in row] for row in ints], dtype=object)
