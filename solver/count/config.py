"""What a counting study deals and studies: the table, the bets, what the player knows, the counts.

>>> c = CountConfig.punto(Shoe.decks(8), bets_from_names("dragon7,panda8"))
>>> c.table.cut, c.table.burn.mode, c.knowledge, c.type_level
(14, <BurnMode.TURN: 'turn'>, 'unseen', 'rank')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from solver.cards import RANK_VALUE, RANKS, Shoe
from solver.errors import InputError, ModelError
from solver.exact.numbers import exact, fraction_str
from solver.punto import Bet, bets_from_names  # noqa: F401  (doctest)
from solver.punto.events import Condition
from solver.punto.pairs import PAIR, SUITED
from solver.punto.pricing import settles
from solver.simulate import SimConfig

KNOWLEDGE = ("unseen", "remaining")
DECKS = ("unseen", "shoe")
TAG_ORDER_VALUES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
"""Ten tags are read in this order (the literature's: ace to nine, then the ten-valued cards)."""

MAX_TAG = 10**6
"""The largest tag in magnitude, and the largest numerator and denominator of a true count: the
dealer compares ``52 q RC >= p × cards`` in int64 (:mod:`solver.count.dealer`)."""


@dataclass(frozen=True)
class LinearCount:
    """A linear count: a tag per rank, and the true count at which the player bets.

    The running count adds the tag of every card seen; the true count divides it by the decks not yet
    seen (unseen cards / 52); the player bets when the true count is at least ``threshold``.

    Attributes:
        tags: thirteen tags by rank (A, 2, ..., 10, J, Q, K).
        threshold: the true count at which to bet (exact).
        source: where the tags came from (user, or the effects of removal of a bet).
    """

    tags: tuple[int, ...]
    threshold: Fraction
    source: str = "user"

    def __post_init__(self) -> None:
        if len(self.tags) != 13 or any(isinstance(t, bool) or not isinstance(t, int) for t in self.tags):
            raise InputError(f"a count needs 13 whole-number tags by rank, got {len(self.tags)}")
        if any(abs(t) > MAX_TAG for t in self.tags):
            raise InputError(f"a tag is at most {MAX_TAG:,} in magnitude, got {max(self.tags, key=abs)}")
        threshold = exact(self.threshold, "threshold")
        if abs(threshold.numerator) > MAX_TAG or threshold.denominator > MAX_TAG:
            raise InputError(f"a true count's numerator and denominator are at most {MAX_TAG:,}, got {fraction_str(threshold)}")
        object.__setattr__(self, "threshold", threshold)

    @classmethod
    def parse(cls, text: str, threshold: Fraction | int | str, source: str = "user") -> LinearCount:
        """Tags as users write them: 10 values in the order A, 2, ..., 9, T, or 13 by rank A, ..., K.

        Raises:
            InputError: not 10 or 13 whole numbers.
        """
        parts = [p.strip() for p in text.split(",") if p.strip()]
        try:
            values = [int(p) for p in parts]
        except ValueError:
            raise InputError(f"--tags takes whole numbers separated by commas, got {text!r}") from None
        if len(values) == 10:
            by_value = {RANK_VALUE[r]: 0 for r in range(13)}
            for i, t in enumerate(values):
                by_value[(i + 1) % 10] = t
            values = [by_value[RANK_VALUE[r]] for r in range(13)]
        elif len(values) != 13:
            raise InputError(f"--tags takes 10 tags (A, 2, ..., 9, T) or 13 (A, 2, ..., 10, J, Q, K), got {len(values)}")
        return cls(tuple(values), exact(threshold, "--true-count"), source)

    def label(self) -> str:
        """The tags as text, ten-valued ranks merged where their tags agree."""
        if len(set(self.tags[9:])) == 1:
            return ", ".join(f"{name} {t:+d}" for name, t in zip(TAG_ORDER_VALUES, list(self.tags[:9]) + [self.tags[9]]))
        return ", ".join(f"{RANKS[r]} {t:+d}" for r, t in enumerate(self.tags))

    def describe(self) -> dict[str, object]:
        return {"tags": list(self.tags), "threshold": fraction_str(self.threshold), "source": self.source}


@dataclass(frozen=True)
class CountConfig:
    """A counting study.

    Attributes:
        table: the table dealt (shoe, burn, cut card, extra coup), validated by the simulator's rules.
        bets: the bets studied (coup bets and bets on the first cards).
        counts: per bet a :class:`LinearCount` or ``None`` (perfect play only).
        knowledge: what the player knows: ``unseen`` (every card dealt and the turned burn card; his
            edge is taken on the cards he has not seen) or ``remaining`` (every card out of the shoe,
            the burned ones too; his edge is taken on the cards left in the shoe, and he counts them).
        decks: what the true count divides the running count by, in decks of 52: ``unseen`` (the cards
            not yet seen) or ``shoe`` (the cards left in the shoe).
    """

    table: SimConfig
    bets: tuple[Bet, ...]
    counts: tuple[LinearCount | None, ...] = field(default=())
    knowledge: str = "unseen"
    decks: str = "unseen"

    def __post_init__(self) -> None:
        if not self.bets:
            raise InputError("study at least one bet")
        if self.knowledge not in KNOWLEDGE:
            raise ModelError(f"knowledge must be unseen or remaining, got {self.knowledge!r}")
        if self.decks not in DECKS:
            raise ModelError(f"the true count's decks are unseen or shoe, got {self.decks!r}")
        if not self.counts:
            object.__setattr__(self, "counts", (None,) * len(self.bets))
        if len(self.counts) != len(self.bets):
            raise InputError("give one count (or none) per bet")
        if self.table.first_coup_only:
            raise ModelError("a counting study deals whole shoes")
        for b in self.bets:
            why = settles(b, self.table.shoe)
            if why is not None:
                raise ModelError(f"bet {b.name} cannot be studied on this shoe: {why}")
        if any(c is not None for c in self.counts) and self.table.shoe.ranks is None:
            raise ModelError("a count needs the shoe's ranks (tags are by rank)")

    @classmethod
    def punto(
        cls,
        shoe: Shoe,
        bets: Sequence[Bet],
        counts: Sequence[LinearCount | None] = (),
        knowledge: str = "unseen",
        decks: str = "unseen",
        **table: object,
    ) -> CountConfig:
        """Punto banco with the customs (turn and burn, cut 14) unless ``table`` says otherwise."""
        return cls(SimConfig.punto(shoe, **table), tuple(bets), tuple(counts), knowledge, decks)

    @property
    def coup_bets(self) -> tuple[Bet, ...]:
        return tuple(b for b in self.bets if not b.first_cards)

    @property
    def first_card_bets(self) -> tuple[Bet, ...]:
        return tuple(b for b in self.bets if b.first_cards)

    @property
    def ordered(self) -> tuple[tuple[Bet, LinearCount | None], ...]:
        """(bet, count) in the kernel's order: coup bets first, then bets on the first cards."""
        pairs = list(zip(self.bets, self.counts))
        return tuple([p for p in pairs if not p[0].first_cards] + [p for p in pairs if p[0].first_cards])

    @property
    def type_level(self) -> str:
        """How the kernel tells cards apart: ``suit`` (rank and suit), ``rank``, or ``value``."""
        if any(b.needs_suits for b in self.bets):
            return "suit"
        return "rank" if self.table.shoe.ranks is not None else "value"

    def card_types(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(cards, value_of, rank_of, suit_of)``: one type per physical card, and each type's value,
        rank (−1 unknown) and suit (0 where suits are not told apart)."""
        shoe = self.table.shoe
        if self.type_level == "suit":
            counts = shoe.suits
            t = np.arange(52)
            rank_of, suit_of = t // 4, t % 4
        elif self.type_level == "rank":
            counts = shoe.ranks
            rank_of, suit_of = np.arange(13), np.zeros(13, dtype=np.int64)
        else:
            counts = shoe.values
            rank_of, suit_of = np.arange(10), np.zeros(10, dtype=np.int64)
        assert counts is not None
        value_of = (
            np.array([RANK_VALUE[r] for r in rank_of], dtype=np.int64)
            if self.type_level != "value"
            else np.arange(10, dtype=np.int64)
        )
        cards = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
        return cards, value_of, rank_of.astype(np.int64), suit_of.astype(np.int64)

    def tag_matrix(self) -> np.ndarray:
        """``(bets, types)`` tags in the kernel's bet order (zeros where a bet has no count)."""
        _, _, rank_of, _ = self.card_types()
        out = np.zeros((len(self.bets), len(rank_of)), dtype=np.int64)
        for b, (_, count) in enumerate(self.ordered):
            if count is not None:
                out[b] = [count.tags[r] for r in rank_of]
        return out

    def describe(self) -> dict[str, object]:
        """A JSON-ready description."""
        return {
            **self.table.describe(),
            "bets": [b.name for b in self.bets],
            "knowledge": self.knowledge,
            "true_count_decks": self.decks,
            "counts": [c.describe() if c is not None else None for c in self.counts],
        }


def first_card_tables(bets: Sequence[Bet], suits: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(multiplier, scale, pays)`` of bets on the first cards by (player class, banker class).

    ``multiplier[f, p, b]`` is ``scale (pays + 1)`` where the classes pay, ``pays[f, p, b]`` the net
    result (−1 for a loss); classes as in :mod:`solver.punto.pairs` (4 with suits, else 2).
    """
    import math

    n = 4 if suits else 2
    mult = np.zeros((len(bets), 4, 4), dtype=np.int64)
    pays = np.full((len(bets), 4, 4), -1.0)
    scale = np.ones(len(bets), dtype=np.int64)
    for f, bet in enumerate(bets):
        scale[f] = math.lcm(*(t.pays.denominator for t in bet.tiers))
        for p in range(n):
            for b in range(n):
                values = {}
                for side, c in (("player", p), ("banker", b)):
                    values[f"{side}_pair"] = int(bool(c & PAIR))
                    values[f"{side}_suited"] = int(bool(c & SUITED))
                    values[f"{side}_perfect_pair"] = int(c == PAIR | SUITED)
                for tier in bet.tiers:
                    assert isinstance(tier.when, Condition)
                    if tier.when.holds(values):
                        mult[f, p, b] = int(scale[f] * (tier.pays + 1))
                        pays[f, p, b] = float(tier.pays)
                        break
    return mult, scale, pays
