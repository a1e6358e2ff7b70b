"""Baccara banque's model words as typed values: what the second player sees, the banker's freedom, the
solution concept.

Each is a :class:`~enum.StrEnum`: a member equals its written form (``SecondPlayer.SEES_FIRST ==
"sees-first"``), so JSON, certificates and file names keep their strings byte for byte, while the code
compares members. Text becomes a member at the command line and JSON edges only, through each word's
``parse`` (one line of error for anything else); a member is written back as its ``value``.

>>> SecondPlayer.parse("sees-first") is SecondPlayer.SEES_FIRST, Concept.NASH.value
(True, 'nash')
>>> Freedom.parse("saloon")
Traceback (most recent call last):
...
solver.errors.ModelError: freedom must be parlor or casino, got 'saloon'
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

from solver.errors import ModelError

W = TypeVar("W", bound=StrEnum)


def _parse(kind: type[W], text: object, message: str) -> W:
    if isinstance(text, kind):
        return text
    if isinstance(text, str):
        try:
            return kind(text)
        except ValueError:
            pass
    raise ModelError(f"{message}, got {text!r}")


class SecondPlayer(StrEnum):
    """What Player 2's choice at 5 may depend on."""

    BLIND = "blind"
    """Not on tableau 1: the literature's simplification (Ethier and Lee's model)."""
    SEES_FIRST = "sees-first"
    """On what he saw of tableau 1 (its third card, S stood or N natural): the game as it is played."""

    @classmethod
    def parse(cls, text: object) -> SecondPlayer:
        """The member written ``text``.

        Raises:
            ModelError: not ``blind`` or ``sees-first``.
        """
        return _parse(cls, text, "the second player is blind or sees-first")


class Freedom(StrEnum):
    """Which of the banker's decisions are his to make."""

    PARLOR = "parlor"
    """Every cell."""
    CASINO = "casino"
    """Where chemin de fer's casino tableau gives the live tableaux no common fixed action."""

    @classmethod
    def parse(cls, text: object) -> Freedom:
        """The member written ``text``.

        Raises:
            ModelError: not ``parlor`` or ``casino``.
        """
        return _parse(cls, text, "freedom must be parlor or casino")


class Concept(StrEnum):
    """A solution concept of the three-person game."""

    NASH = "nash"
    """A Nash equilibrium of Player 1, Player 2 and the banker."""
    CORRELATED = "correlated"
    """The correlated cooperative solution: the players as one team with a shared random device."""
    INDEPENDENT = "independent"
    """The independent cooperative solution: the team choosing independently (it exists for some θ only)."""

    @classmethod
    def parse(cls, text: object) -> Concept:
        """The member written ``text``.

        Raises:
            ModelError: not one of the three.
        """
        if isinstance(text, cls):
            return text
        if isinstance(text, str):
            try:
                return cls(text)
            except ValueError:
                pass
        names = ", ".join(c.value for c in cls)
        raise ModelError(f"unknown concept {text!r} (choose from {names} or all)")
