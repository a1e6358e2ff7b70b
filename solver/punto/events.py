"""The events a bet can pay on, as data: conditions over the outcome of a coup or its first cards.

A :class:`Condition` is a conjunction of *terms*, each an event name and the set of values it may
take; it is called on an :class:`~solver.deal.tree.Outcomes` table (one row per coup detail) and returns a
boolean column. Conditions are hashable values, printable, and readable from a bet file
(:func:`condition_from_mapping`), so a designer describes a bet without writing Python.

Coup events (:data:`COUP_EVENTS`), functions of the coup's detail (solver.deal.tree):

========================  =======================================================================
``winner``                ``banker``, ``player`` or ``tie``
``player_total``          the player's final total, 0–9 (``banker_total`` likewise)
``player_two_card_total`` the total of the player's first two cards, 0–9 (``banker_...`` likewise)
``player_cards``          cards the player ended with, 2 or 3 (``banker_cards`` likewise)
``cards``                 cards dealt in the coup, 4, 5 or 6
``natural``               the coup ended on a natural (a two-card 8 or 9 on either side)
``player_natural``        the player's first two cards total 8 or 9 (``banker_natural`` likewise)
``margin``                the difference of the final totals, 0–9
``player_third_card``     the value of the player's third card, 0–9, or ``none`` (``banker_...``)
``high_card``             the highest point value among all the cards dealt, 0–9
========================  =======================================================================

First-card events (:data:`FIRST_CARD_EVENTS`), functions of the ranks and suits of the player's and
the banker's first two cards (they need a shoe known by rank, and for suits by suit):
``player_pair`` (same rank), ``player_suited`` (same suit), ``player_perfect_pair`` (same rank and
suit), and ``banker_pair``, ``banker_suited``, ``banker_perfect_pair``.

A condition uses events of one kind only: the outcome of the coup and its first cards are computed
by different exact routes (:mod:`solver.punto.bet` and :mod:`solver.punto.pairs`).

>>> c = Condition.of(winner="banker", banker_total=6, banker_cards=3)
>>> c
Condition(winner=banker, banker_total=6, banker_cards=3)
>>> c.first_cards
False
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.errors import InputError

if TYPE_CHECKING:  # numpy is imported where a condition is read on an outcome table
    import numpy as np

    from solver.deal.outcome import Outcomes

WINNERS = ("banker", "player", "tie")


def winner_column(t: Outcomes) -> np.ndarray:
    """0 where the banker wins, 1 where the player wins, 2 on a tie."""
    import numpy as np

    return np.where(t.b_total > t.p_total, 0, np.where(t.p_total > t.b_total, 1, 2))


@dataclass(frozen=True)
class Event:
    """One event: its name, what it means, the values it takes, and its column (coup events)."""

    name: str
    meaning: str
    domain: tuple[int, ...]
    column: Callable[[Outcomes], np.ndarray] | None  # None: a first-card event
    kind: str = "int"  # "int", "bool", "winner" or "card" (0-9 or none)

    def label(self, value: int) -> str:
        """How a value of this event is written."""
        if self.kind == "winner":
            return WINNERS[value]
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind == "card" and value < 0:
            return "none"
        return str(value)

    def parse(self, raw: object, where: str) -> frozenset[int]:
        """The set of values a user wrote for this event (one value, or a list of them)."""
        items = list(raw) if isinstance(raw, (list, tuple)) else [raw]
        if not items:
            raise InputError(f"{where}: give at least one value")
        out = set()
        for item in items:
            out.add(self._parse_one(item, where))
        return frozenset(out)

    def _parse_one(self, item: object, where: str) -> int:
        if self.kind == "bool":
            if isinstance(item, bool):
                return int(item)
            raise InputError(f"{where}: expected true or false, got {item!r}")
        if self.kind == "winner":
            if isinstance(item, str) and item.strip().lower() in WINNERS:
                return WINNERS.index(item.strip().lower())
            raise InputError(f"{where}: expected banker, player or tie, got {item!r}")
        if self.kind == "card" and isinstance(item, str) and item.strip().lower() == "none":
            return -1
        if isinstance(item, bool) or not isinstance(item, int) or item not in self.domain:
            allowed = ", ".join(self.label(v) for v in self.domain)
            raise InputError(f"{where}: expected one of {allowed}, got {item!r}")
        return item


_BOOL = (0, 1)
_DIGITS = tuple(range(10))
_EVENTS: list[Event] = [
    Event("winner", "who wins: banker, player or tie", (0, 1, 2), winner_column, "winner"),
    Event("player_total", "the player's final total", _DIGITS, lambda t: t.p_total),
    Event("banker_total", "the banker's final total", _DIGITS, lambda t: t.b_total),
    Event("player_two_card_total", "the total of the player's first two cards", _DIGITS, lambda t: t.p_two),
    Event("banker_two_card_total", "the total of the banker's first two cards", _DIGITS, lambda t: t.b_two),
    Event("player_cards", "cards the player ended with", (2, 3), lambda t: t.p_cards),
    Event("banker_cards", "cards the banker ended with", (2, 3), lambda t: t.b_cards),
    Event("cards", "cards dealt in the coup", (4, 5, 6), lambda t: t.p_cards + t.b_cards),
    Event("natural", "the coup ended on a natural", _BOOL, lambda t: t.natural.astype("int64"), "bool"),
    Event("player_natural", "the player's first two cards total 8 or 9", _BOOL, lambda t: (t.p_two >= 8).astype("int64"), "bool"),
    Event("banker_natural", "the banker's first two cards total 8 or 9", _BOOL, lambda t: (t.b_two >= 8).astype("int64"), "bool"),
    Event("margin", "the difference of the final totals", _DIGITS, lambda t: abs(t.p_total - t.b_total)),
    Event("player_third_card", "the value of the player's third card, or none", (-1, *_DIGITS), lambda t: t.p_third, "card"),
    Event("banker_third_card", "the value of the banker's third card, or none", (-1, *_DIGITS), lambda t: t.b_third, "card"),
    Event("high_card", "the highest point value among the cards dealt", _DIGITS, lambda t: t.high),
]
_FIRST: list[Event] = [
    Event(f"{side}_{what}", f"the {side}'s first two cards {meaning}", _BOOL, None, "bool")
    for side in ("player", "banker")
    for what, meaning in (
        ("pair", "are of the same rank"),
        ("suited", "are of the same suit"),
        ("perfect_pair", "are of the same rank and suit"),
    )
]

COUP_EVENTS: dict[str, Event] = {e.name: e for e in _EVENTS}
"""Events of the coup's outcome, by name."""

FIRST_CARD_EVENTS: dict[str, Event] = {e.name: e for e in _FIRST}
"""Events of the player's and the banker's first two cards (ranks and suits), by name."""

EVENTS: dict[str, Event] = {**COUP_EVENTS, **FIRST_CARD_EVENTS}
"""Every event a :class:`Condition` can name."""


@dataclass(frozen=True)
class Condition:
    """A conjunction of event terms: each ``(event name, allowed values)`` must hold.

    Build with :meth:`of` (keyword arguments: a value or an iterable of values; winners as strings,
    a missing third card as ``-1``) or from a user's mapping with :func:`condition_from_mapping`.
    """

    terms: tuple[tuple[str, frozenset[int]], ...]

    def __post_init__(self) -> None:
        kinds = {name in FIRST_CARD_EVENTS for name, _ in self.terms}
        for name, _ in self.terms:
            if name not in EVENTS:
                raise InputError(f"unknown event {name!r} (known: {', '.join(EVENTS)})")
        if len(kinds) > 1:
            raise InputError("a condition may use events of the coup or of the first cards, not both")
        object.__setattr__(self, "_first_cards", kinds == {True})

    @classmethod
    def of(cls, **terms: object) -> Condition:
        """A condition from keyword terms, e.g. ``Condition.of(winner="tie", banker_total=(8, 9))``."""
        out = []
        for name, raw in terms.items():
            if name not in EVENTS:
                raise InputError(f"unknown event {name!r} (known: {', '.join(EVENTS)})")
            out.append((name, EVENTS[name].parse(raw, name)))
        return cls(tuple(out))

    @property
    def first_cards(self) -> bool:
        """Whether this condition is on the first cards' ranks and suits (else on the coup)."""
        return bool(self.__dict__["_first_cards"])

    def __call__(self, t: Outcomes) -> np.ndarray:
        """The rows of a coup table where every term holds."""
        if self.first_cards:
            raise InputError("a condition on the first cards cannot be read from the coup's outcome table")
        import numpy as np

        mask = np.ones(t.size, dtype=bool)
        for name, values in self.terms:
            col = COUP_EVENTS[name].column(t)  # type: ignore[misc]
            mask &= np.isin(col, sorted(values))
        return mask

    def holds(self, values: Mapping[str, int]) -> bool:
        """Whether the condition holds for one assignment of event values (first-card events)."""
        return all(values[name] in allowed for name, allowed in self.terms)

    def __repr__(self) -> str:
        parts = []
        for name, values in self.terms:
            ev = EVENTS[name]
            shown = [ev.label(v) for v in sorted(values)]
            parts.append(f"{name}={shown[0] if len(shown) == 1 else '|'.join(shown)}")
        return f"Condition({', '.join(parts)})"


ALWAYS = Condition(())
"""The condition that always holds."""


def condition_from_mapping(mapping: Mapping[str, object], where: str) -> Condition:
    """Read a condition a user wrote (a table of event = value or list of values).

    Raises:
        InputError: an unknown event or a value it cannot take, naming ``where`` and the key.
    """
    if not isinstance(mapping, Mapping):
        raise InputError(f"{where}: expected a table of events, got {type(mapping).__name__}")
    terms = []
    for name, raw in mapping.items():
        if name not in EVENTS:
            raise InputError(f"{where}.{name}: unknown event (known: {', '.join(EVENTS)})")
        terms.append((name, EVENTS[name].parse(raw, f"{where}.{name}")))
    try:
        return Condition(tuple(terms))
    except InputError as e:
        raise InputError(f"{where}: {e}") from None


def describe_events(names: Iterable[str] | None = None) -> list[tuple[str, str, str]]:
    """(name, values, meaning) for each event, for the documentation and ``--help``."""
    out = []
    for name in names if names is not None else EVENTS:
        ev = EVENTS[name]
        out.append((name, ", ".join(ev.label(v) for v in ev.domain), ev.meaning))
    return out
