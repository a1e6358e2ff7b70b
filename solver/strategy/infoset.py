"""Sides and information sets: who decides, what he holds, what he saw; and how they are written.

>>> s = InfoSet(Side.BANKER, 3, seen=(9,))
>>> format_infoset(s), parse_infoset("0+6/S", Side.BANKER)
('3/9', InfoSet(banker 0+6/S))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from solver.errors import InputError, ModelError
from solver.rules.tableau import STOOD

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


COMPOSITIONS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(10) for b in range(a, 10))
"""The 55 two-card compositions ``(a, b)``, ``a <= b``, in this order (the index of a hand in the
games' tables)."""


def compositions_of(total: int) -> tuple[tuple[int, int], ...]:
    """The two-card compositions ``(a, b)``, ``a <= b``, with ``(a + b) mod 10 == total``.

    >>> compositions_of(5)
    ((0, 5), (1, 4), (2, 3), (6, 9), (7, 8))
    """
    return tuple(c for c in COMPOSITIONS if sum(c) % 10 == total)


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

    def __init__(
        self, side: Side, total: int | None = None, cards: tuple[int, int] | None = None, seen: Iterable[int] = ()
    ) -> None:
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

    def __hash__(self) -> int:
        """The fields' hash, kept after its first use: strategies are dicts over hundreds of sets."""
        found = self.__dict__.get("_hash")
        if found is None:
            found = hash((self.side, self.total, self.cards, self.seen))
            object.__setattr__(self, "_hash", found)
        return found

    def __reduce__(self) -> tuple[type[InfoSet], tuple[Side, int, tuple[int, int] | None, tuple[int, ...]]]:
        """Pickled by its fields alone: a kept hash is valid only in the process that computed it."""
        return (InfoSet, (self.side, self.total, self.cards, self.seen))

    @cached_property
    def text(self) -> str:
        """:func:`format_infoset` of this set (kept: certificates and reports write each set many times)."""
        return self.own + "".join("/" + seen_label(x) for x in self.seen)

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
    return s.text


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
        raise InputError(
            f"cannot read the {side.value}'s information set {text.strip()!r} (written like 5, 0+5, 3/9 or 0+6/S)"
        ) from None
