"""Sides, information sets and exact behaviour strategies: one vocabulary for every layer.

A decision in baccarat is taken by one *side* (:class:`Side`) holding two cards, having seen what
the rules let him see. Its :class:`InfoSet` says exactly that: the side, his two-card total (or his
two cards, where the information model lets him tell compositions apart), and what he saw before
acting: for chemin de fer's banker, the ponte's third card 0–9 or that the ponte *stood*
(:data:`STOOD`); for baccara banque's banker, one such sight per tableau, where a tableau settled by
a natural shows :data:`NATURAL`; for banque's second player, what he saw of tableau 1 (when the
model lets his choice depend on it).

A :class:`Strategy` is one exact, frozen behaviour strategy for every side of a coup: the rules (a
:class:`~solver.rules.Tableau`, whose fixed cells say draw or stand) and, for some information sets,
the probability of drawing, as a :class:`~fractions.Fraction`. Its views serve every layer: the
vector a game's solver works with (:meth:`Strategy.vector`), the card-indexed draw tables the
simulator deals with (:meth:`Strategy.tables`), and the tableau it plays when it depends on totals
only (:meth:`Strategy.on_totals`).

Words follow the rule sheets: the *ponte* (punto banco's player) and the *banker*; *draw* and
*stand* are actions (:class:`~solver.rules.Action`), *stood* is what the banker saw. Strings appear
only at the JSON and command-line boundary, through :func:`format_infoset` / :func:`parse_infoset`.

>>> s = InfoSet(Side.BANKER, 3, seen=(9,))
>>> format_infoset(s), parse_infoset("0+6/S", Side.BANKER)
('3/9', InfoSet(banker 0+6/S))
>>> from solver.rules import CHEMIN_CASINO
>>> KS = Strategy(CHEMIN_CASINO, {InfoSet(Side.PONTE, 5): Fraction(9, 11),
...                              InfoSet(Side.BANKER, 3, seen=(9,)): Fraction(1),
...                              InfoSet(Side.BANKER, 5, seen=(4,)): Fraction(0)})
>>> KS.draw(Side.PONTE, (2, 3)), KS.draw(Side.BANKER, (1, 2), 9), KS.draw(Side.BANKER, (6, 0), STOOD)
(Fraction(9, 11), Fraction(1, 1), Fraction(0, 1))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

import numpy as np

from solver.errors import InputError, ModelError
from solver.numbers import exact, fraction_str
from solver.rules import CHEMIN_CASINO, PUNTO_BANCO, STOOD, Action, Tableau

__all__ = [
    "ALL_FREE", "KEMENY_SNELL", "NATURAL", "PUNTO_STRATEGY", "STOOD", "InfoSet", "Side", "Strategy", "composition",
    "compositions_of", "format_infoset", "parse_choice", "parse_infoset", "parse_seen", "seen_label",
    "strategy_from_cells",
]

NATURAL = 11
"""What is seen of a tableau settled by a natural (baccara banque)."""


class Side(Enum):
    """Who decides."""

    PONTE = "ponte"
    """Chemin de fer's ponte (punto banco's player): free at 5."""
    BANKER = "banker"
    """The banker: acts last, having seen the ponte's (or both tableaux') third card or that he stood."""
    PLAYER1 = "player1"
    """Baccara banque: the tableau on the banker's right, who acts first."""
    PLAYER2 = "player2"
    """Baccara banque: the tableau on the banker's left, who acts second."""

    @property
    def is_banker(self) -> bool:
        return self is Side.BANKER

    def __repr__(self) -> str:
        return f"Side.{self.name}"


def seen_label(seen: int) -> str:
    """How a sight is written: a third card ``0``–``9``, ``S`` (stood) or ``N`` (a natural)."""
    if 0 <= seen <= 9:
        return str(seen)
    if seen == STOOD:
        return "S"
    if seen == NATURAL:
        return "N"
    raise ValueError(f"not a sight: {seen!r}")


def parse_seen(text: str) -> int:
    """Inverse of :func:`seen_label` (case-insensitive)."""
    t = text.strip().upper()
    if len(t) == 1 and t.isdigit():
        return int(t)
    if t == "S":
        return STOOD
    if t == "N":
        return NATURAL
    raise InputError(f"what was seen is a third card 0-9, S (stood) or N (natural), got {text.strip()!r}")


def composition(a: int, b: int) -> tuple[int, int]:
    """Two card values in canonical order (smaller first)."""
    return (a, b) if a <= b else (b, a)


def compositions_of(total: int) -> tuple[tuple[int, int], ...]:
    """The two-card compositions ``(a, b)``, ``a <= b``, with ``(a + b) mod 10 == total``.

    >>> compositions_of(5)
    ((0, 5), (1, 4), (2, 3), (6, 9), (7, 8))
    """
    return tuple((a, b) for a in range(10) for b in range(a, 10) if (a + b) % 10 == total)


@dataclass(frozen=True)
class InfoSet:
    """One information set: who decides, what he holds, and what he saw.

    Attributes:
        side: the side that decides.
        total: his two-card total 0–7.
        cards: his two cards ``(a, b)`` with ``a <= b`` when he can tell compositions apart, else ``None``.
        seen: what he saw before acting, in the order dealt: chemin de fer's banker, the ponte's third
            card or :data:`STOOD`; banque's banker, one sight per tableau (third card, STOOD or
            :data:`NATURAL`); banque's second player, what he saw of tableau 1; the ponte, nothing.
    """

    side: Side
    total: int
    cards: tuple[int, int] | None = None
    seen: tuple[int, ...] = ()

    def __init__(self, side: Side, total: int | None = None, cards: tuple[int, int] | None = None,
                 seen: Iterable[int] = ()) -> None:
        if not isinstance(side, Side):
            raise TypeError(f"side must be a Side, got {side!r}")
        if cards is not None:
            a, b = composition(*cards)
            if not (0 <= a <= 9 and 0 <= b <= 9):
                raise ModelError(f"card values run from 0 to 9, got {cards!r}")
            cards = (a, b)
            if total is None:
                total = (a + b) % 10
            elif total != (a + b) % 10:
                raise ModelError(f"cards {a}+{b} do not make the total {total}")
        if total is None or isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= 7:
            raise ModelError(f"a decision is taken on a two-card total from 0 to 7, got {total!r}")
        sights = tuple(int(s) for s in seen)
        for s in sights:
            if not (0 <= s <= 9 or s in (STOOD, NATURAL)):
                raise ModelError(f"not a sight: {s!r} (a third card 0-9, STOOD or NATURAL)")
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "seen", sights)

    @property
    def own(self) -> str:
        """What the side holds, as written: ``5`` or ``1+4``."""
        return f"{self.cards[0]}+{self.cards[1]}" if self.cards is not None else str(self.total)

    @property
    def coarse(self) -> InfoSet:
        """The same decision seen on totals only (the composition forgotten)."""
        return self if self.cards is None else InfoSet(self.side, self.total, None, self.seen)

    def sort_key(self) -> tuple[int, int, int, int, tuple[int, ...]]:
        """Canonical order: by side, total, composition, then what was seen."""
        side = list(Side).index(self.side)
        a, b = self.cards if self.cards is not None else (-1, -1)
        return (side, self.total, a, b, self.seen)

    def __repr__(self) -> str:
        return f"InfoSet({self.side.value} {format_infoset(self)})"

    def __str__(self) -> str:
        return format_infoset(self)


def format_infoset(s: InfoSet) -> str:
    """The written form of an information set, without its side: ``5``, ``0+5``, ``3/9``, ``0+6/S``, ``4/S/N``.

    The side is known from where the string stands (a JSON key under ``ponte`` or ``banker``).
    """
    return s.own + "".join("/" + seen_label(x) for x in s.seen)


def parse_infoset(text: str, side: Side) -> InfoSet:
    """Inverse of :func:`format_infoset` for a given side.

    Raises:
        InputError: not an information set as written by :func:`format_infoset`.
    """
    parts = text.strip().split("/")
    own = parts[0].strip()
    try:
        if "+" in own:
            a_text, _, b_text = own.partition("+")
            a, b = int(a_text), int(b_text)
            if not (0 <= a <= 9 and 0 <= b <= 9):
                raise ValueError
            return InfoSet(side, cards=(a, b), seen=[parse_seen(p) for p in parts[1:]])
        if not own.isdigit():
            raise ValueError
        return InfoSet(side, int(own), seen=[parse_seen(p) for p in parts[1:]])
    except (ValueError, ModelError):
        raise InputError(f"cannot read the {side.value}'s information set {text.strip()!r} (written like 5, 0+5, 3/9 "
                         "or 0+6/S)") from None


def _as_probability(x: object, where: InfoSet) -> Fraction:
    if isinstance(x, Action):
        if x is Action.FREE:
            raise ModelError(f"{where}: a strategy says draw, stand or a probability, not free")
        return Fraction(1 if x is Action.DRAW else 0)
    if isinstance(x, (bool, float)) or not isinstance(x, (int, Fraction)):
        raise TypeError(f"{where}: a draw probability is an exact int or Fraction, got {x!r}")
    p = Fraction(x)
    if not 0 <= p <= 1:
        raise ModelError(f"{where}: a draw probability must lie in [0, 1], got {fraction_str(p)}")
    return p


@dataclass(frozen=True, eq=False)
class Strategy:
    """An exact behaviour strategy for both sides of a chemin de fer (or punto banco) coup.

    ``draw(side, cards, seen)`` is the probability of drawing: the choice given for the information
    set of those two cards (by composition) if there is one, else for their total, else the
    tableau's fixed action. A FREE cell with no choice given is an error, raised when it is asked for
    (:meth:`check` asks for every cell).

    Attributes:
        tableau: the rules: fixed cells and free cells.
        choices: information set → probability of drawing (read-only; ponte sets have no ``seen``,
            banker sets one sight).
        name: a short description.
    """

    tableau: Tableau
    choices: Mapping[InfoSet, Fraction] = field(default_factory=dict)
    name: str = ""

    def __post_init__(self) -> None:
        checked: dict[InfoSet, Fraction] = {}
        for s, p in dict(self.choices).items():
            if not isinstance(s, InfoSet):
                raise TypeError(f"strategy keys are InfoSets, got {s!r}")
            if s.side not in (Side.PONTE, Side.BANKER):
                raise ModelError(f"{s}: a chemin de fer strategy is for the ponte and the banker")
            if len(s.seen) != (1 if s.side is Side.BANKER else 0) or NATURAL in s.seen:
                raise ModelError(f"{s}: the banker's sets say what he saw (a third card or S); the ponte's say nothing")
            checked[s] = _as_probability(p, s)
        object.__setattr__(self, "choices", MappingProxyType(dict(sorted(checked.items(), key=lambda kv: kv[0].sort_key()))))
        if not self.name:
            object.__setattr__(self, "name", self.tableau.name + (" " + self.describe_choices() if checked else ""))

    # -- lookups ------------------------------------------------------------------------------------

    def draw(self, side: Side, cards: tuple[int, int], seen: int | None = None) -> Fraction:
        """The probability that ``side`` holding ``cards`` (no natural on either side) draws.

        Raises:
            ModelError: the rules leave this decision free and the strategy does not say.
        """
        a, b = cards
        total = (a + b) % 10
        look = STOOD if seen is None else seen
        sights: tuple[int, ...] = () if side is Side.PONTE else (look,)
        fine = InfoSet(side, cards=(a, b), seen=sights)
        p = self.choices.get(fine)
        if p is None:
            p = self.choices.get(fine.coarse)
        if p is not None:
            return p
        action = self.tableau.player_action(total) if side is Side.PONTE else self.tableau.banker_action(total, look)
        if action is Action.FREE:
            raise ModelError(f"the {side.value}'s decision at {format_infoset(fine.coarse)} is free under the "
                             f"{self.tableau.name} tableau and this strategy does not say how to play it")
        return Fraction(1 if action is Action.DRAW else 0)

    def probability(self, infoset: InfoSet) -> Fraction:
        """The probability of drawing in an information set of any coarseness.

        A set on totals is answered only when the strategy plays every composition of that total
        alike.

        Raises:
            ModelError: the set is on totals but the strategy tells its compositions apart.
        """
        if infoset in self.choices:
            return self.choices[infoset]
        seen = infoset.seen[0] if infoset.seen else None
        if infoset.cards is not None:
            return self.draw(infoset.side, infoset.cards, seen)
        values = {self.draw(infoset.side, c, seen) for c in compositions_of(infoset.total)}
        if len(values) > 1:
            raise ModelError(f"{infoset}: this strategy plays the compositions of {infoset.total} differently")
        return values.pop()

    def vector(self, sets: Iterable[InfoSet]) -> list[Fraction]:
        """The probabilities of drawing in ``sets``, in their order (a game's q or r)."""
        return [self.probability(s) for s in sets]

    def missing(self) -> tuple[str, ...]:
        """The tableau's free cells this strategy does not say how to play, written ``P5``, ``B3/9``."""
        out = []
        for t in self.tableau.free_player_totals():
            if not all(self._covers(Side.PONTE, c, None) for c in compositions_of(t)):
                out.append(f"P{t}")
        for t, seen in self.tableau.free_banker_cells():
            if not all(self._covers(Side.BANKER, c, seen) for c in compositions_of(t)):
                out.append(f"B{t}/{seen_label(seen)}")
        return tuple(out)

    def _covers(self, side: Side, cards: tuple[int, int], seen: int | None) -> bool:
        fine = InfoSet(side, cards=cards, seen=() if seen is None else (seen,))
        return fine in self.choices or fine.coarse in self.choices

    def check(self) -> Strategy:
        """Raise now if a free cell of the tableau has no choice; returns self.

        Raises:
            ModelError: naming every free cell left without a choice.
        """
        missing = self.missing()
        if missing:
            raise ModelError(f"the {self.tableau.name} tableau leaves {', '.join(missing)} free and this strategy does "
                             "not say how to play " + ("it" if len(missing) == 1 else "them")
                             + " (draw, stand or a probability, e.g. --draw " + missing[0] + "=1/2)")
        return self

    # -- views --------------------------------------------------------------------------------------

    def tables(self) -> tuple[np.ndarray, np.ndarray]:
        """Exact draw tables by cards: ``P[p1, p2]`` (10 × 10) and ``B[b1, b2, seen]`` (10 × 10 × 11).

        Object arrays of Fractions; hands with a natural hold 0 (no decision is taken there).
        """
        cached = self.__dict__.get("_tables")
        if cached is not None:
            return cached
        self.check()
        P = np.full((10, 10), Fraction(0), dtype=object)
        B = np.full((10, 10, 11), Fraction(0), dtype=object)
        for a in range(10):
            for b in range(10):
                if (a + b) % 10 >= 8:
                    continue
                P[a, b] = self.draw(Side.PONTE, (a, b))
                for s in range(11):
                    B[a, b, s] = self.draw(Side.BANKER, (a, b), s)
        P.setflags(write=False)
        B.setflags(write=False)
        object.__setattr__(self, "_tables", (P, B))
        return P, B

    def float_tables(self) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`tables` in float64, for the dealing kernel (the only place floats are made)."""
        P, B = self.tables()
        return P.astype(np.float64), B.astype(np.float64)

    def mixed(self) -> tuple[tuple[InfoSet, Fraction], ...]:
        """The information sets played with a probability strictly between 0 and 1, in canonical order."""
        return tuple((s, p) for s, p in self.choices.items() if 0 < p < 1)

    def is_mixed(self) -> bool:
        """Whether any decision is left to chance."""
        return bool(self.mixed())

    def on_totals(self) -> bool:
        """Whether the strategy depends on the sides' totals only (no choice is given by composition)."""
        return all(s.cards is None for s in self.choices)

    def as_tableau(self) -> Tableau:
        """The tableau this strategy plays on totals: pure choices become DRAW or STAND, mixed ones FREE.

        Raises:
            ModelError: the strategy depends on compositions (see :meth:`on_totals`).
        """
        if not self.on_totals():
            raise ModelError(f"strategy {self.name!r} depends on the cards, not only on the totals")

        def act(p: Fraction) -> Action:
            return Action.DRAW if p == 1 else Action.STAND if p == 0 else Action.FREE

        player = {s.total: act(p) for s, p in self.choices.items() if s.side is Side.PONTE}
        banker = {(s.total, s.seen[0]): act(p) for s, p in self.choices.items() if s.side is Side.BANKER}
        return self.tableau.with_player(player).with_banker(banker)

    def breaks_rules(self) -> tuple[InfoSet, ...]:
        """Choices that override a cell the tableau fixes (a deviation from the rules, e.g. a faulty engine)."""
        out = []
        for s, p in self.choices.items():
            action = (self.tableau.player_action(s.total) if s.side is Side.PONTE
                      else self.tableau.banker_action(s.total, s.seen[0]))
            if action is not Action.FREE and p != (1 if action is Action.DRAW else 0):
                out.append(s)
        return tuple(out)

    def describe_choices(self) -> str:
        """The choices as written on the command line: ``P5=9/11,B3/9=D``."""
        def word(p: Fraction) -> str:
            return "D" if p == 1 else "S" if p == 0 else fraction_str(p)

        return ",".join(f"{'P' if s.side is Side.PONTE else 'B'}{format_infoset(s)}={word(p)}"
                        for s, p in self.choices.items())

    def __repr__(self) -> str:
        return f"Strategy({self.name!r})"

    def __reduce__(self) -> tuple[type[Strategy], tuple[Tableau, dict[InfoSet, Fraction], str]]:
        # The read-only mapping does not pickle; a strategy travels to worker processes as its parts.
        return (Strategy, (self.tableau, dict(self.choices), self.name))

    def with_choices(self, choices: Mapping[InfoSet, object], name: str = "") -> Strategy:
        """A copy with some choices added or replaced."""
        merged: dict[InfoSet, object] = dict(self.choices)
        merged.update(choices)
        return Strategy(self.tableau, merged, name)  # type: ignore[arg-type]

    # -- constructors -------------------------------------------------------------------------------

    @classmethod
    def from_tables(cls, player: object, banker: object, name: str = "draw tables",
                    tableau: Tableau | None = None) -> Strategy:
        """A strategy from exact draw tables indexed by cards (``P[p1][p2]``, ``B[b1][b2][seen]``).

        Every hand without a natural gets a choice by composition; the tables must not depend on the
        order of a hand's two cards.

        Raises:
            ModelError: wrong shapes, floats, probabilities outside [0, 1], or order-dependent tables.
        """
        P = np.asarray(player, dtype=object)
        B = np.asarray(banker, dtype=object)
        if P.shape != (10, 10) or B.shape != (10, 10, 11):
            raise ModelError(f"draw tables have shapes (10, 10) for the ponte and (10, 10, 11) for the banker, "
                             f"got {P.shape} and {B.shape}")
        if any(isinstance(x, float) for x in list(P.flat) + list(B.flat)):
            raise ModelError("exact draw tables hold Fractions or ints, not floats")
        choices: dict[InfoSet, Fraction] = {}
        for a in range(10):
            for b in range(a, 10):
                if (a + b) % 10 >= 8:
                    continue
                if P[a][b] != P[b][a] or any(B[a][b][s] != B[b][a][s] for s in range(11)):
                    raise ModelError(f"draw tables must depend on a hand's composition, not its order ({a}+{b})")
                choices[InfoSet(Side.PONTE, cards=(a, b))] = P[a][b]
                for s in range(11):
                    choices[InfoSet(Side.BANKER, cards=(a, b), seen=(s,))] = B[a][b][s]
        return cls(tableau or ALL_FREE, choices, name)


ALL_FREE = Tableau("free", player=(Action.FREE,) * 8, banker=((Action.FREE,) * 11,) * 8)
"""A tableau that fixes nothing: the rules of a strategy given entirely by its draw tables."""


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
        where = "the ponte's cell is his total or two cards (P5, P2+3)" if side is Side.PONTE else \
            "the banker's cell is his total or two cards and what he saw (B3/9, B6/S)"
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
    {InfoSet(Side.PONTE, 5): Fraction(9, 11), InfoSet(Side.BANKER, 3, seen=(9,)): Fraction(1),
     InfoSet(Side.BANKER, 5, seen=(4,)): Fraction(0)},
    "casino tableau; ponte draws at 5 with probability 9/11 (Kemeny-Snell); banker draws at 3/9, stands at 5/4",
)
"""Chemin de fer on the casino tableau with the ponte's Kemeny–Snell mixture at 5.

A simple mixed strategy on totals (the solver's own certified strategies are
:attr:`solver.equilibrium.Solution.strategy`); its exact law is the mixture of two enumerator laws.
"""
