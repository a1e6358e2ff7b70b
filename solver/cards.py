"""Cards, point values and the shoe.

A baccarat card counts its rank's pip value modulo 10: the ace counts 1, two to nine their pips, and
the ten and the court cards (J, Q, K) count 0. A :class:`Shoe` is the multiset of cards still to be
dealt. It is known either rank by rank (13 counts, needed by side bets on pairs) or only by point
value (10 counts, all the main game needs); where the ranks are known it may also be known suit by
suit (52 counts, needed by side bets on suits such as Perfect Pairs). A shoe given by rank counts
that are multiples of four holds the four suits of each rank in equal numbers; one whose rank counts
are not (or from which cards of unknown suit were removed) has unknown suits, unless its 52 counts
are given. An *infinite* shoe deals with replacement from the
13 equally likely ranks; Ethier calls this dealing A, and a finite shoe dealt without replacement
dealing B.

>>> shoe = Shoe.decks(8)
>>> shoe.size, shoe.values
(416, (128, 32, 32, 32, 32, 32, 32, 32, 32, 32))
>>> parse_shoe(decks="8", remove="5,5,K").values[0], parse_shoe(decks="8", remove="5,5,K").values[5]
(127, 30)
>>> Shoe.infinite()
Shoe(inf)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from solver.errors import ShoeError

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, in the order used by every rank-indexed tuple."""

RANK_VALUE: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)
"""Point value of each rank in :data:`RANKS`."""

CARDS_PER_RANK_PER_DECK = 4

MAX_DECKS = 1_000_000
"""The most decks a shoe may hold (52 million cards): the exact enumeration works far beyond what any
table uses, but a number typed by mistake must not send it into hours of arithmetic."""

MAX_COUNT = CARDS_PER_RANK_PER_DECK * MAX_DECKS * 4
"""The most cards of one value a shoe may hold (ten-valued cards of :data:`MAX_DECKS` decks)."""

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
"""The four suits (spades, hearts, diamonds, clubs); a suit-indexed tuple of 52 counts is rank-major:
``4 r + s`` is rank ``r`` of :data:`RANKS` in suit ``s`` of :data:`SUITS`."""

_SUIT_ALIASES = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}

# What users may type for one card: a rank, or a point value 0-9 (0 = any ten-valued card).
_RANK_ALIASES = {"A": 0, "1": 0, "T": 9, "10": 9, "J": 10, "Q": 11, "K": 12}
_RANK_ALIASES.update({str(p): p - 1 for p in range(2, 10)})


def card_token(token: str) -> tuple[int | None, int]:
    """Read one card as users write it: ``A``, ``2``–``9``, ``T``/``10``, ``J``, ``Q``, ``K``, or ``0``.

    Returns ``(rank index or None, point value)``; ``0`` names a ten-valued card of unknown rank.

    >>> card_token("K"), card_token("0"), card_token("a"), card_token("7")
    ((12, 0), (None, 0), (0, 1), (6, 7))
    """
    t = token.strip().upper()
    if t == "0":
        return None, 0
    if t in _RANK_ALIASES:
        rank = _RANK_ALIASES[t]
        return rank, RANK_VALUE[rank]
    raise ShoeError(f"unknown card {_short(token.strip())!r} (use A, 2-9, T or 10, J, Q, K, or 0 for a ten-valued card)")


def card_token_suited(token: str) -> tuple[int | None, int, int | None]:
    """Read one card with an optional suit: ``KS``, ``10h``, ``A♠``; or a card as :func:`card_token` reads it.

    Returns ``(rank index or None, point value, suit index or None)``.

    >>> card_token_suited("KS"), card_token_suited("10h"), card_token_suited("5")
    ((12, 0, 0), (9, 0, 1), (4, 5, None))
    """
    t = token.strip().upper()
    if len(t) >= 2 and t[-1] in _SUIT_ALIASES and t[:-1] != "0":
        try:
            rank, value = card_token(t[:-1])
        except ShoeError:
            raise ShoeError(
                f"unknown card {_short(token.strip())!r} (a rank A, 2-9, T or 10, J, Q, K, then optionally a suit S, H, D or C)"
            ) from None
        return rank, value, _SUIT_ALIASES[t[-1]]
    rank, value = card_token(t)
    return rank, value, None


def _check_counts(counts: Iterable[object], what: str) -> tuple[int, ...]:
    out = []
    for c in counts:
        if isinstance(c, bool) or not isinstance(c, int):
            raise ShoeError(f"{what} must be whole numbers, got {c!r}")
        if c < 0:
            raise ShoeError(f"{what} must not be negative, got {c}")
        if c > MAX_COUNT:
            raise ShoeError(f"{what} must be at most {MAX_COUNT:,} ({MAX_DECKS:,} decks' worth)")
        out.append(c)
    return tuple(out)


@dataclass(frozen=True)
class Shoe:
    """An immutable shoe: counts of cards by point value, and by rank where known.

    Construct with :meth:`decks`, :meth:`from_values`, :meth:`from_ranks` or :meth:`infinite`, or
    from what a user typed with :func:`parse_shoe`. A finite shoe must hold at least six cards, the
    most one coup can use.

    Attributes:
        values: ten counts, by point value 0–9 (0 = tens and court cards). For an infinite shoe,
            the relative weights of the values in one deck: ``(4, 1, 1, ..., 1)``.
        ranks: thirteen counts in the order of :data:`RANKS`, or ``None`` when the shoe was given
            by point value only.
        is_infinite: dealing with replacement (Ethier's dealing A).
        suits: 52 counts by rank and suit (see :data:`SUITS`), or ``None`` when the suits are not
            known. Set whenever they are: :meth:`decks`, :meth:`from_ranks` with rank counts that
            are multiples of four (equal numbers of each suit), :meth:`from_suits`.
    """

    values: tuple[int, ...]
    ranks: tuple[int, ...] | None = None
    is_infinite: bool = False
    suits: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        values = _check_counts(self.values, "card counts")
        if len(values) != 10:
            raise ShoeError(f"a shoe needs 10 counts by point value, got {len(values)}")
        object.__setattr__(self, "values", values)
        if self.ranks is not None:
            ranks = _check_counts(self.ranks, "card counts")
            if len(ranks) != 13:
                raise ShoeError(f"a shoe by rank needs 13 counts, got {len(ranks)}")
            by_value = [0] * 10
            for r, n in enumerate(ranks):
                by_value[RANK_VALUE[r]] += n
            if tuple(by_value) != values:
                raise ShoeError("rank counts and value counts disagree")
            object.__setattr__(self, "ranks", ranks)
        if self.suits is not None:
            suits = _check_counts(self.suits, "card counts")
            if len(suits) != 52 or self.ranks is None:
                raise ShoeError(f"a shoe by suit needs 52 counts and its 13 rank counts, got {len(suits)}")
            if not self.is_infinite and tuple(sum(suits[4 * r : 4 * r + 4]) for r in range(13)) != self.ranks:
                raise ShoeError("suit counts and rank counts disagree")
            object.__setattr__(self, "suits", suits)
        if not self.is_infinite and sum(values) < 6:
            raise ShoeError(f"a shoe must hold at least 6 cards to finish any coup, this one holds {sum(values)}")
        if self.is_infinite and sum(values) == 0:
            raise ShoeError("an infinite shoe needs some card with positive weight")

    # -- constructors -------------------------------------------------------------------------

    @classmethod
    def decks(cls, d: int) -> Shoe:
        """``d`` standard 52-card decks."""
        if isinstance(d, bool) or not isinstance(d, int) or d < 1:
            raise ShoeError(f"the number of decks must be a positive whole number, got {d!r}")
        if d > MAX_DECKS:
            raise ShoeError(f"the number of decks must be at most {MAX_DECKS:,}")
        return cls.from_ranks([CARDS_PER_RANK_PER_DECK * d] * 13)

    @classmethod
    def infinite(cls) -> Shoe:
        """An infinite deck: every card drawn with replacement from 52 equally likely cards."""
        return cls(values=(4, 1, 1, 1, 1, 1, 1, 1, 1, 1), ranks=(1,) * 13, is_infinite=True, suits=(1,) * 52)

    @classmethod
    def from_ranks(cls, counts: Iterable[int]) -> Shoe:
        """A finite shoe from 13 counts by rank (A, 2, ..., 10, J, Q, K).

        Where every count is a multiple of four the four suits of each rank are taken to be in equal
        numbers; otherwise the suits are unknown (give them with :meth:`from_suits`).
        """
        ranks = _check_counts(counts, "card counts")
        if len(ranks) != 13:
            raise ShoeError(f"a shoe by rank needs 13 counts, got {len(ranks)}")
        by_value = [0] * 10
        for r, n in enumerate(ranks):
            by_value[RANK_VALUE[r]] += n
        return cls(values=tuple(by_value), ranks=ranks, suits=_equal_suits(ranks))

    @classmethod
    def from_suits(cls, counts: Iterable[int]) -> Shoe:
        """A finite shoe from 52 counts by rank and suit, rank-major (A♠ A♥ A♦ A♣ 2♠ ... K♣)."""
        suits = _check_counts(counts, "card counts")
        if len(suits) != 52:
            raise ShoeError(f"a shoe by suit needs 52 counts, got {len(suits)}")
        ranks = tuple(sum(suits[4 * r : 4 * r + 4]) for r in range(13))
        return replace(cls.from_ranks(ranks), suits=suits)

    @classmethod
    def from_values(cls, counts: Iterable[int]) -> Shoe:
        """A finite shoe from 10 counts by point value (0 = ten-valued cards, then 1 to 9)."""
        return cls(values=tuple(counts))

    # -- views --------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of cards (for an infinite shoe, the total of the value weights, 13)."""
        return sum(self.values)

    @property
    def full_decks(self) -> int | None:
        """``d`` when this is exactly ``d`` full decks, else ``None``."""
        if self.is_infinite or self.ranks is None or len(set(self.ranks)) != 1:
            return None
        if self.suits is None or len(set(self.suits)) != 1:
            return None
        per_rank = self.ranks[0]
        if per_rank % CARDS_PER_RANK_PER_DECK or per_rank == 0:
            return None
        return per_rank // CARDS_PER_RANK_PER_DECK

    def remove(self, cards: Iterable[str]) -> Shoe:
        """The shoe after taking out the named cards (see :func:`card_token_suited`).

        Removing a ``0`` (a ten-valued card of unknown rank) forgets the shoe's rank counts; removing
        a card without its suit (``K`` rather than ``KS``) forgets its suit counts.
        """
        if self.is_infinite:
            raise ShoeError("cannot remove cards from an infinite shoe (it deals with replacement)")
        values = list(self.values)
        ranks = list(self.ranks) if self.ranks is not None else None
        suits = list(self.suits) if self.suits is not None else None
        for token in cards:
            rank, value, suit = card_token_suited(token)
            if values[value] == 0:
                raise ShoeError(f"cannot remove {token.strip()}: no card of value {value} is left in the shoe")
            values[value] -= 1
            if ranks is not None:
                if rank is None:
                    ranks = suits = None
                elif ranks[rank] == 0:
                    raise ShoeError(f"cannot remove {token.strip()}: no {RANKS[rank]} is left in the shoe")
                else:
                    ranks[rank] -= 1
            if suits is not None:
                if suit is None:
                    suits = None
                elif rank is not None and suits[4 * rank + suit] == 0:
                    raise ShoeError(f"cannot remove {token.strip()}: no {RANKS[rank]}{SUITS[suit]} is left in the shoe")
                elif rank is not None:
                    suits[4 * rank + suit] -= 1
        return Shoe(
            values=tuple(values),
            ranks=tuple(ranks) if ranks is not None else None,
            suits=tuple(suits) if suits is not None else None,
        )

    def can_deal(self, values: Iterable[int]) -> bool:
        """Whether the shoe holds all these cards (point values) at once: ``(5, 5)`` needs two fives.

        >>> Shoe.from_values((4, 1, 1, 1, 1, 1, 1, 1, 1, 1)).can_deal((5, 5)), Shoe.infinite().can_deal((5, 5))
        (False, True)
        """
        need = [0] * 10
        for v in values:
            need[v] += 1
        if self.is_infinite:
            return all(self.values[v] > 0 for v in range(10) if need[v])
        return all(self.values[v] >= need[v] for v in range(10))

    def label(self) -> str:
        """A short human name: ``8 decks``, ``inf``, or the value counts."""
        if self.is_infinite:
            return "inf"
        d = self.full_decks
        if d is not None:
            return f"{d} deck" + ("s" if d > 1 else "")
        return "shoe " + ",".join(map(str, self.values))

    def spec(self) -> dict[str, object]:
        """A JSON-ready description that :func:`shoe_from_spec` reads back."""
        if self.is_infinite:
            return {"dealing": "A", "decks": "inf"}
        d = self.full_decks
        out: dict[str, object] = {"dealing": "B", "values": list(self.values)}
        if d is not None:
            out["decks"] = d
        if self.ranks is not None:
            out["ranks"] = list(self.ranks)
        if self.ranks is not None and self.suits != _equal_suits(self.ranks):
            out["suits"] = list(self.suits) if self.suits is not None else None
        return out

    def __repr__(self) -> str:
        if self.is_infinite:
            return "Shoe(inf)"
        d = self.full_decks
        return f"Shoe(decks={d})" if d is not None else f"Shoe(values={self.values})"


def _equal_suits(ranks: tuple[int, ...]) -> tuple[int, ...] | None:
    """The four suits of each rank in equal numbers, where the rank counts allow it."""
    return tuple(n // 4 for n in ranks for _ in SUITS) if all(n % 4 == 0 for n in ranks) else None


def _parse_int_list(text: str, what: str) -> list[int]:
    parts = [p.strip() for p in text.split(",")]
    if any(len(p) > len(str(MAX_COUNT)) for p in parts):
        raise ShoeError(f"{what}: a count of more than {len(str(MAX_COUNT))} digits is too large (at most {MAX_COUNT:,})")
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise ShoeError(f"{what} must be comma-separated whole numbers, got {_short(text)!r}") from None


def _short(text: str, most: int = 60) -> str:
    """``text`` cut short for an error message."""
    return text if len(text) <= most else text[:most] + "..."


def parse_decks(text: str) -> list[Shoe]:
    """Parse ``--decks``: a positive whole number, ``inf``, or a comma-separated list of them.

    >>> parse_decks("1,8,inf")
    [Shoe(decks=1), Shoe(decks=8), Shoe(inf)]
    """
    shoes = []
    for part in str(text).split(","):
        p = part.strip().lower()
        if p in ("inf", "infinite", "∞"):
            shoes.append(Shoe.infinite())
            continue
        if len(p) > len(str(MAX_DECKS)):
            raise ShoeError(f"--decks: at most {MAX_DECKS:,} decks, got a number of {len(p)} digits")
        try:
            d = int(p)
        except ValueError:
            raise ShoeError(f"--decks takes a positive whole number or 'inf', got {_short(part.strip())!r}") from None
        if d < 1:
            raise ShoeError(f"--decks takes a positive whole number or 'inf', got {d}")
        shoes.append(Shoe.decks(d))
    return shoes


def parse_shoe(decks: str | None = None, shoe: str | None = None, remove: str | None = None) -> Shoe:
    """Build one shoe from the command-line syntax ``--decks`` / ``--shoe`` / ``--remove``.

    ``shoe`` is 10 counts by point value (0 first), 13 by rank (A, 2, ..., 10, J, Q, K), or 52 by
    rank and suit (A♠ A♥ A♦ A♣ 2♠ ... K♣);
    ``decks`` a single deck count or ``inf``; ``remove`` cards to take out. With neither ``decks``
    nor ``shoe``, 8 decks.

    >>> parse_shoe(shoe="4,1,1,1,1,1,1,1,1,1").values
    (4, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    """
    if decks is not None and shoe is not None:
        raise ShoeError("give either --decks or --shoe, not both")
    if shoe is not None:
        counts = _parse_int_list(shoe, "--shoe")
        if len(counts) == 10:
            result = Shoe.from_values(counts)
        elif len(counts) == 13:
            result = Shoe.from_ranks(counts)
        elif len(counts) == 52:
            result = Shoe.from_suits(counts)
        else:
            raise ShoeError(f"--shoe takes 10 counts by point value or 13 by rank, got {len(counts)}")
    else:
        found = parse_decks(decks if decks is not None else "8")
        if len(found) != 1:
            raise ShoeError("give one deck count here, not a list")
        result = found[0]
    if remove:
        result = result.remove(t for t in remove.split(",") if t.strip())
    return result


def shoe_from_spec(spec: dict[str, object]) -> Shoe:
    """Inverse of :meth:`Shoe.spec`."""
    if spec.get("dealing") == "A":
        return Shoe.infinite()
    if "suits" in spec:
        if spec["suits"] is None:
            return replace(Shoe.from_ranks(spec["ranks"]), suits=None)  # type: ignore[arg-type]
        return Shoe.from_suits(spec["suits"])  # type: ignore[arg-type]
    if "ranks" in spec:
        return Shoe.from_ranks(spec["ranks"])  # type: ignore[arg-type]
    return Shoe.from_values(spec["values"])  # type: ignore[arg-type]
