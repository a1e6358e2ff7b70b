"""Exact rational helpers of the additive game: the guarantees f and h, the slopes, and the normal form
(:func:`normal_form`: the payoff matrices, for nashpy and Gambit); exact linear algebra is
:mod:`solver.exact.linalg`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from solver.chemin.game import Coefficients, Game
from solver.errors import ModelError
from solver.exact.numbers import numerators
from solver.strategy import Side

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


def pure_payoffs(c: Coefficients) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], np.ndarray]:
    """One payoff form at every pair of pure strategies: ``(rows, columns, matrix)``, rows the ponte's
    0/1 choices per set (1 = draw), columns the banker's, entries the exact Fractions ``E(q, r)``.

    Raises:
        ModelError: more than :data:`MAX_NORMAL_FORM` entries (the parlor games: use the additive form).
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


@dataclass(frozen=True, eq=False)
class NormalForm:
    """Chemin de fer in normal form: every pure strategy of each side, and each side's exact payoff.

    Attributes:
        game: the game.
        rows: the ponte's pure strategies, each a 0/1 choice (1: draw) per set of ``game.ponte_sets``.
        columns: the banker's, per set of ``game.banker_sets``.
        ponte: the ponte's payoff, P(ponte wins) − P(banker wins): rows × columns, Fractions (object dtype).
        banker: the banker's payoff net of the commission, (1 − α) P(banker wins) − P(ponte wins); with
            α = 0 it is ``-ponte`` (zero-sum).
    """

    game: Game
    rows: tuple[tuple[int, ...], ...]
    columns: tuple[tuple[int, ...], ...]
    ponte: np.ndarray
    banker: np.ndarray

    @property
    def matrices(self) -> tuple[np.ndarray, np.ndarray]:
        """``(ponte, banker)``: the row and the column player's payoffs, as ``nashpy.Game(*nf.matrices)`` takes them."""
        return self.ponte, self.banker

    def strategies(self, side: Side) -> tuple[tuple[int, ...], ...]:
        """One side's pure strategies (the rows for the ponte, the columns for the banker)."""
        return self.rows if side is Side.PONTE else self.columns

    def label(self, side: Side, k: int) -> str:
        """The side's k-th pure strategy in words, e.g. ``draw 3/9, stand 5/4``."""
        sets = self.game.ponte_sets if side is Side.PONTE else self.game.banker_sets
        return ", ".join(f"{'draw' if x else 'stand'} {s}" for s, x in zip(sets, self.strategies(side)[k])) or "no choice"

    def mixture(self, side: Side, draw: Sequence[Fraction]) -> np.ndarray:
        """The mixed strategy (over this side's pure strategies) of the behaviour strategy that draws with
        probability ``draw[k]`` in its k-th set, independently: each pure strategy's exact probability."""
        out = []
        for pure in self.strategies(side):
            w = Fraction(1)
            for p, x in zip(draw, pure):
                w *= p if x else 1 - p
            out.append(w)
        return np.array(out, dtype=object)


def normal_form(game: Game) -> NormalForm:
    """The normal form of a chemin de fer game, where it is small enough to write down (the casino games:
    2^m ponte strategies × 2^n banker strategies, m and n the free sets).

    Raises:
        ModelError: more than :data:`MAX_NORMAL_FORM` entries (the parlor games: use the additive form).

    >>> from solver.cards import Shoe
    >>> from solver.chemin.game import build_game
    >>> nf = normal_form(build_game(Shoe.decks(8), 1, "casino"))
    >>> nf.ponte.shape, nf.label(Side.BANKER, 1)
    ((2, 4), 'draw 3/9, stand 5/4')
    >>> bool((nf.banker == -nf.ponte).all())
    True
    """
    rows, cols, gross = pure_payoffs(game.gross)
    _, _, net = pure_payoffs(game.net) if not game.zero_sum else (rows, cols, gross)
    return NormalForm(game, tuple(rows), tuple(cols), -gross, net)
