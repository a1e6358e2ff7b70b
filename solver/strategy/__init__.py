"""Sides, information sets and exact behaviour strategies: one vocabulary for every layer.

A decision in baccarat is taken by one *side* (:class:`Side`) holding two cards, having seen what
the rules let him see. Its :class:`InfoSet` says exactly that: the side, his two-card total (or his
two cards, where the information model lets him tell compositions apart), and what he saw before
acting: for chemin de fer's banker, the ponte's third card 0–9 or that the ponte *stood*
(:data:`STOOD`); for baccara banque's banker, one such sight per tableau, where a tableau settled by
a natural shows :data:`NATURAL`; for banque's second player, what he saw of tableau 1 (when the
model lets his choice depend on it).

A :class:`Strategy` is one exact, frozen behaviour strategy for every side of a coup: the rules (a
:class:`~solver.rules.tableau.Tableau`, whose fixed cells say draw or stand) and, for some information sets,
the probability of drawing, as a :class:`~fractions.Fraction`. Its views serve every layer: the
vector a game's solver works with (:meth:`Strategy.vector`), the card-indexed draw tables the
simulator deals with (:meth:`Strategy.tables`), and the tableau it plays when it depends on totals
only (:meth:`Strategy.on_totals`).

Words follow the rule sheets: the *ponte* (punto banco's player) and the *banker*; *draw* and
*stand* are actions (:class:`~solver.rules.tableau.Action`), *stood* is what the banker saw. Strings appear
only at the JSON and command-line boundary, through :func:`format_infoset` / :func:`parse_infoset`.

>>> from solver.rules.tableau import CHEMIN_CASINO
>>> KS = Strategy(CHEMIN_CASINO, {InfoSet(Side.PONTE, 5): Fraction(9, 11),
...                              InfoSet(Side.BANKER, 3, seen=(9,)): Fraction(1),
...                              InfoSet(Side.BANKER, 5, seen=(4,)): Fraction(0)})
>>> KS.draw(Side.PONTE, (2, 3)), KS.draw(Side.BANKER, (1, 2), 9), KS.draw(Side.BANKER, (6, 0), STOOD)
(Fraction(9, 11), Fraction(1, 1), Fraction(0, 1))
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from solver.errors import InputError
from solver.exact.numbers import exact
from solver.rules.tableau import CHEMIN_CASINO, PUNTO_BANCO, STOOD, Tableau
from solver.strategy.behaviour import ALL_FREE, Strategy
from solver.strategy.infoset import (
    COMPOSITIONS,
    NATURAL,
    InfoSet,
    Side,
    composition,
    compositions_of,
    format_infoset,
    parse_infoset,
    parse_seen,
    seen_label,
)

__all__ = [
    "ALL_FREE",
    "COMPOSITIONS",
    "KEMENY_SNELL",
    "NATURAL",
    "PUNTO_STRATEGY",
    "STOOD",
    "InfoSet",
    "Side",
    "Strategy",
    "composition",
    "compositions_of",
    "format_infoset",
    "parse_choice",
    "parse_infoset",
    "parse_seen",
    "seen_label",
    "strategy_from_cells",
]


def parse_choice(text: str) -> tuple[InfoSet, Fraction]:
    """Read one choice as written on the command line (``--draw``): ``P5=9/11``, ``B3/9=D``, ``B0+6/S=0``.

    ``P`` is the ponte and ``B`` the banker, then the information set as :func:`format_infoset`
    writes it, ``=``, and ``D`` (draw), ``S`` (stand) or an exact probability of drawing.

    >>> parse_choice("P5=9/11"), parse_choice("b3/9=d")
    ((InfoSet(ponte 5), Fraction(9, 11)), (InfoSet(banker 3/9), Fraction(1, 1)))

    Raises:
        InputError: naming what is wrong (the side, the cell, or the probability).
    """
    cell, sep, value = text.partition("=")
    cell = cell.strip().upper()
    if not sep or len(cell) < 2 or cell[0] not in "PB":
        raise InputError(f"a choice is written P<total>=<p> or B<total>/<seen>=<p> (e.g. P5=9/11, B3/9=D), got {text!r}")
    side = Side.PONTE if cell[0] == "P" else Side.BANKER
    infoset = parse_infoset(cell[1:], side)
    if len(infoset.seen) != (1 if side is Side.BANKER else 0) or NATURAL in infoset.seen:
        where = (
            "the ponte's cell is his total or two cards (P5, P2+3)"
            if side is Side.PONTE
            else "the banker's cell is his total or two cards and what he saw (B3/9, B6/S)"
        )
        raise InputError(f"cannot read the cell {cell!r}: {where}")
    word = value.strip().upper()
    if word in ("D", "DRAW"):
        return infoset, Fraction(1)
    if word in ("S", "STAND"):
        return infoset, Fraction(0)
    p = exact(value, f"the probability of drawing in {cell}")
    if not 0 <= p <= 1:
        raise InputError(f"the probability of drawing in {cell} must lie in [0, 1], got {value.strip()}")
    return infoset, p


def strategy_from_cells(tab: Tableau, cells: Iterable[str], name: str = "") -> Strategy:
    """A strategy on a tableau with choices read by :func:`parse_choice` (e.g. ``["P5=9/11", "B3/9=D"]``).

    Raises:
        InputError: a choice cannot be read.
        ModelError: a free cell of the tableau is left without a choice.
    """
    choices = dict(parse_choice(c) for c in cells)
    return Strategy(tab, choices, name).check()


PUNTO_STRATEGY = Strategy(PUNTO_BANCO, {}, "punto banco tableau")
"""Punto banco's fixed tableau."""

KEMENY_SNELL = Strategy(
    CHEMIN_CASINO,
    {
        InfoSet(Side.PONTE, 5): Fraction(9, 11),
        InfoSet(Side.BANKER, 3, seen=(9,)): Fraction(1),
        InfoSet(Side.BANKER, 5, seen=(4,)): Fraction(0),
    },
    "casino tableau; ponte draws at 5 with probability 9/11 (Kemeny-Snell); banker draws at 3/9, stands at 5/4",
)
"""Chemin de fer on the casino tableau with the ponte's Kemeny–Snell mixture at 5.

A simple mixed strategy on totals (the solver's own certified strategies are
:attr:`solver.chemin.solve.Solution.strategy`); its exact law is the mixture of two enumerator laws.
"""
