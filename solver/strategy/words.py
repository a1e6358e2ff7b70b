"""The model's words as typed values: which baccarat, how free the banker is, what each side sees.

Inside the code a model word is one of these values, never a string or a bare int; strings appear only at
the command line and in JSON, through one parse/format pair: :meth:`Word.parse` (a clear
:class:`~solver.errors.ModelError` for anything else) and the value itself (``str(Freedom.PARLOR)`` is
``"parlor"``, ``int(Information.BANKER_CARDS)`` is ``2``). Being a :class:`~enum.StrEnum` or an
:class:`~enum.IntEnum`, each value also compares equal to its written form, so JSON and certificates
written from them keep their strings and numbers byte for byte (docs/design.md, "Invariants").

>>> Freedom.parse("parlor"), Information.parse(3), Baccarat.parse("chemin")
(Freedom.PARLOR, Information.BOTH_CARDS, Baccarat.CHEMIN)
>>> str(Freedom.CASINO), int(Information.TOTALS), Freedom.CASINO == "casino"
('casino', 1, True)
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Self

from solver.errors import ModelError


class Word(StrEnum):
    """A model word written as a string: parsed once at the edge, then typed."""

    @classmethod
    def parse(cls, text: object, what: str | None = None) -> Self:
        """The member written ``text`` (a member passes through), or a :class:`ModelError` naming the choices."""
        if isinstance(text, cls):
            return text
        for member in cls:
            if text == member.value:
                return member
        words = ", ".join(m.value for m in cls)
        raise ModelError(f"{what or cls.__name__.lower()} must be one of {words}, got {text!r}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class Baccarat(Word):
    """Which of the three games is played."""

    PUNTO = "punto"
    """Punto banco: fixed drawing rules, bets against the house."""
    CHEMIN = "chemin"
    """Chemin de fer: one ponte against the banker, who keeps free decisions."""
    BANQUE = "banque"
    """Baccara banque: one banker against two tableaux, one decision for both."""


class Freedom(Word):
    """Which of the banker's cells are his to choose (the ponte is free at 5 in every one)."""

    CASINO = "casino"
    """The casino's rule sheet: free at 3 when giving a 9 and at 5 when giving a 4; every other cell fixed."""
    PARLOR = "parlor"
    """The parlor game: every banker decision free (Kemeny and Snell's game on an infinite deck)."""
    HOUSE = "house"
    """A house's own rule sheet (:mod:`solver.rules.house`): its tableau's free cells, named by the sheet."""


class Information(IntEnum):
    """What each side knows when he decides (Ethier's information models 1, 2, 3)."""

    TOTALS = 1
    """Each side sees only his own two-card total."""
    BANKER_CARDS = 2
    """The banker sees his two cards (their composition), the ponte only his total."""
    BOTH_CARDS = 3
    """Both sides see their two cards."""

    @classmethod
    def parse(cls, value: object, what: str = "information") -> Information:
        """The model numbered ``value`` (1, 2 or 3; a member passes through), or a :class:`ModelError`."""
        if isinstance(value, cls):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            for member in cls:
                if value == member.value:
                    return member
        raise ModelError(f"{what} must be 1, 2 or 3, got {value!r}")

    def __repr__(self) -> str:
        return f"Information.{self.name}"

    def __str__(self) -> str:
        return str(self.value)
