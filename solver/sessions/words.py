"""The table's words as typed values: the games, the kinds of banque, banco calls, events, why a session ended.

Inside the package every such word is a member of a :class:`~enum.StrEnum` and code compares members,
never strings. A member *is* its string (``Event.GARAGE == "garage"``), so the JSON log and summary keep
the words they always had; text read back from the outside goes through one function,
:func:`parse_word`, which names the choices when the text is not one of them.

>>> Event.BANK_PASSES, Event.BANK_PASSES.value
(<Event.BANK_PASSES: 'bank passes'>, 'bank passes')
>>> parse_word(CallKind, "a_deux", "banco")
<CallKind.A_DEUX: 'a_deux'>
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

from solver.errors import InputError


class Game(StrEnum):
    """Which game the table plays."""

    CHEMIN = "chemin"
    """Chemin de fer: the bank goes round the table."""
    BANQUE = "banque"
    """Baccara banque: one bank for the session against two tableaux."""


class BanqueKind(StrEnum):
    """Baccara banque's two ways of holding the bank."""

    LIMITEE = "limitee"
    """A fixed bank; stakes are covered up to it; busted when it cannot cover the minimum stake."""
    OUVERTE = "ouverte"
    """The banker covers every stake, topping the bank up (or giving it up); no banco calls."""


class CallKind(StrEnum):
    """A banco call (``suivi``: a banco again by the seat that lost the last one)."""

    SUIVI = "suivi"
    """The seat that lost the last banco calls again, before anyone else."""
    SOLO = "solo"
    """Banco: the whole bank (at baccara banque on the caller's tableau); every other stake refused."""
    A_DEUX = "a_deux"
    """Banco à deux (chemin de fer): the caller and the next à deux caller take half each."""
    AVEC = "avec"
    """Banco avec la table (chemin de fer): half the bank; the others stake up to the other half."""
    MARCHE = "marche"
    """Banco et la table marche (chemin de fer): avec la table, and the caller takes what the table leaves."""
    CHEVAL = "cheval"
    """Banco à cheval (baccara banque): the whole bank, half on each tableau."""


class Event(StrEnum):
    """What can happen around a coup, in the order a coup can raise them."""

    BANCO_DOUBLE = "banco double"
    """A seat doubled a new bank (co-banker)."""
    GARAGE = "garage"
    """The stakes fell short of the bank: the excess went to the garage; the reduced sum is the bank."""
    BANK_RAISED = "bank raised"
    """The banker raised the bank to cover every stake (chemin de fer)."""
    TOP_UP = "top up"
    """The banker topped the bank up to cover every stake (banque ouverte)."""
    SUITE = "suite"
    """The banker passed the hand after his wins."""
    SUITE_TAKEN = "suite taken"
    """A seat took the bank offered at its amount."""
    AUCTION = "auction"
    """The bank went to the highest bid."""
    BANK_PASSES = "bank passes"
    """The bank passed to the next seat in turn."""
    BUSTED = "busted"
    """Baccara banque: the bank could not go on (limitée: below the minimum stake; ouverte: the banker
    cannot put up the minimum banco)."""
    BANK_GIVEN_UP = "bank given up"
    """Banque ouverte: the banker could not top the bank up to the stakes, and gave it up."""
    REBANK = "rebank"
    """Banque limitée, by the house's leave: the busted banker put up the original sum again."""
    SESSION_ENDS = "session ends"
    """The session ended; bank and garage went back to their owners."""


class End(StrEnum):
    """Why a session ended."""

    SHOES_FINISHED = "shoes finished"
    """The session's last shoe was dealt to its cut card."""
    NO_BANKER = "no one can hold the bank"
    """No seat would take the bank or could put up the minimum banco."""
    STAKES_SHORT = "the pontes' stakes fall short of the minimum banco"
    """The stakes the pontes offer for the next coup add up to less than the minimum banco."""
    NO_BID = "no one bids for the bank"
    """Baccara banque: the bank was busted or given up and its auction drew no bid."""


W = TypeVar("W", bound=StrEnum)


def parse_word(kind: type[W], text: object, what: str) -> W:
    """The member of ``kind`` written ``text``.

    Raises:
        InputError: ``text`` is not one of the words, naming ``what`` and the choices.
    """
    try:
        if not isinstance(text, str):
            raise ValueError(text)
        return kind(text)
    except ValueError:
        choices = ", ".join(m.value for m in kind)
        raise InputError(f"{what} is one of {choices}, got {text!r}") from None
