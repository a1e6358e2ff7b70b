"""One exact behaviour strategy for both sides of a coup, with its views (vector, card tables, tableau)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

import numpy as np

from solver.errors import ModelError
from solver.exact.numbers import fraction_str
from solver.rules.tableau import STOOD, Action, Tableau
from solver.strategy.infoset import NATURAL, InfoSet, Side, compositions_of, format_infoset, seen_label


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
            raise ModelError(
                f"the {side.value}'s decision at {format_infoset(fine.coarse)} is free under the "
                f"{self.tableau.name} tableau and this strategy does not say how to play it"
            )
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
            raise ModelError(
                f"the {self.tableau.name} tableau leaves {', '.join(missing)} free and this strategy does "
                "not say how to play "
                + ("it" if len(missing) == 1 else "them")
                + " (draw, stand or a probability, e.g. --draw "
                + missing[0]
                + "=1/2)"
            )
        return self

    # -- views --------------------------------------------------------------------------------------

    def tables(self) -> tuple[np.ndarray, np.ndarray]:
        """Exact draw tables by cards: ``P[p1, p2]`` (10 × 10) and ``B[b1, b2, seen]`` (10 × 10 × 11).

        Object arrays of Fractions; hands with a natural hold 0 (no decision is taken there).
        """
        cached: tuple[np.ndarray, np.ndarray] | None = self.__dict__.get("_tables")
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
            action = (
                self.tableau.player_action(s.total) if s.side is Side.PONTE else self.tableau.banker_action(s.total, s.seen[0])
            )
            if action is not Action.FREE and p != (1 if action is Action.DRAW else 0):
                out.append(s)
        return tuple(out)

    def describe_choices(self) -> str:
        """The choices as written on the command line: ``P5=9/11,B3/9=D``."""

        def word(p: Fraction) -> str:
            return "D" if p == 1 else "S" if p == 0 else fraction_str(p)

        return ",".join(f"{'P' if s.side is Side.PONTE else 'B'}{format_infoset(s)}={word(p)}" for s, p in self.choices.items())

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
    def from_tables(cls, player: object, banker: object, name: str = "draw tables", tableau: Tableau | None = None) -> Strategy:
        """A strategy from exact draw tables indexed by cards (``P[p1][p2]``, ``B[b1][b2][seen]``).

        Every hand without a natural gets a choice by composition; the tables must not depend on the
        order of a hand's two cards.

        Raises:
            ModelError: wrong shapes, floats, probabilities outside [0, 1], or order-dependent tables.
        """
        P = np.asarray(player, dtype=object)
        B = np.asarray(banker, dtype=object)
        if P.shape != (10, 10) or B.shape != (10, 10, 11):
            raise ModelError(
                f"draw tables have shapes (10, 10) for the ponte and (10, 10, 11) for the banker, got {P.shape} and {B.shape}"
            )
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
