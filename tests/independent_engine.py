"""An independent dealing engine for testing the cross-check: plain Python, written from the rules.

It never imports the package: the shoe is a list of rank names, shuffled by the standard library's
``random.shuffle``; punto banco's tableau is written out as ``if`` statements (the published rules:
the player draws on 0-5; the banker draws on 0-2, on 3 unless the player's third card is an 8, on 4
against 2-7, on 5 against 4-7, on 6 against 6-7, and on 0-5 when the player stood). It deals the way a
table does: a burn (the punto banco custom turns the first card and burns as many more as it counts,
a ten-valued card burning 10), coups until the cut card appears, the coup in progress finished. Each
coup is written in the cross-check's file format, with a ``shoe`` line before each shoe if asked.

Faults it can plant (all legal coup by coup, so only the statistics can see them):

* ``decks``: the shoe it really deals (label the file with another size to plant "7 decks labelled 8");
* ``replacement``: every card drawn with replacement from the full shoe (no depletion);
* ``stale``: the cards left behind the cut card go back, unshuffled, on top of the next shoe
  (the discards are shuffled, the remainder is forgotten);
* ``redeal``: every ``redeal``-th shoe is the previous shoe again, unshuffled.

With ``game="chemin"`` it deals chemin de fer as Kemeny and Snell's players play it, written out
from the casinos' rule sheet: the ponte draws on 0-4, stands on 6-7 and at 5 draws with probability
9/11; the banker draws on 0-2; on 3 unless the ponte's third card is an 8 (drawing against a 9, his
free choice); on 4 against 2-7; on 5 against 5-7 (standing against a 4, his free choice); on 6
against 6-7; never on 7; and on 0-5 when the ponte stood. A five-card coup where the ponte stood is
written with ``-`` in fifth place, as the file format asks; a ponte's draw never is.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
POINTS = {r: (i + 1) % 10 if i < 9 else 0 for i, r in enumerate(RANKS)}


@dataclass(frozen=True)
class Engine:
    """A punto banco table dealt in plain Python."""

    decks: int = 8
    cut: int = 14
    burn: bool = True
    first_coup_only: bool = False
    mark_shoes: bool = True
    replacement: bool = False
    stale: bool = False
    redeal: int = 0
    settle: bool = False
    game: str = "punto"

    def lines(self, coups: int, seed: int, shoes: int | None = None, record: list[list[str]] | None = None) -> Iterator[str]:
        """The file's lines (each ending in a newline): ``coups`` coups (the last shoe cut short), or
        ``shoes`` whole shoes; ``record`` receives the cards each shoe took off its top, in order."""
        rng = random.Random(seed)
        shoe = [r for r in RANKS for _ in range(4 * self.decks)]
        left: list[str] = []
        previous: list[str] = []
        dealt = shoe_number = 0
        while (dealt < coups) if shoes is None else (shoe_number < shoes):
            shoe_number += 1
            if self.redeal and shoe_number % self.redeal == 0 and previous:
                cards = list(previous)
            elif self.first_coup_only and not self.stale:
                cards = rng.sample(shoe, 17)  # the top of a freshly shuffled shoe: a burn of up to 11, a coup of 6
            elif self.stale and left:
                rest = list(shoe)
                for c in left:
                    rest.remove(c)
                rng.shuffle(rest)
                cards = left + rest
            else:
                cards = list(shoe)
                rng.shuffle(cards)
            previous = list(cards)
            if self.mark_shoes:
                yield "shoe\n"
            deal = _Dealer(cards, rng if self.replacement else None, shoe, rng)
            if self.burn:
                turned = deal.next()
                for _ in range(POINTS[turned] or 10):
                    deal.next()
            while dealt < coups or shoes is not None:
                yield self._coup(deal)
                dealt += 1
                if self.first_coup_only or deal.top > len(shoe) - self.cut:
                    break
            left = cards[deal.top :]
            if record is not None:
                record.append(cards[: deal.top])

    def _coup(self, deal: _Dealer) -> str:
        cards = [deal.next() for _ in range(4)]
        p = (POINTS[cards[0]] + POINTS[cards[2]]) % 10
        b = (POINTS[cards[1]] + POINTS[cards[3]]) % 10
        chemin = self.game == "chemin"
        if p < 8 and b < 8:
            third = None
            if p <= 4 or (p == 5 and (not chemin or deal.rng.random() < 9 / 11)):
                card = deal.next()
                cards.append(card)
                third = POINTS[card]
                p = (p + third) % 10
            if (chemin_banker_draws if chemin else banker_draws)(b, third):
                card = deal.next()
                if chemin and third is None:
                    cards.append("-")
                cards.append(card)
                b = (b + POINTS[card]) % 10
        outcome = "B" if b > p else "P" if p > b else "T"
        line = ",".join(cards) + ";" + outcome
        if self.settle:
            banker, player, tie = {"B": ("19/20", "-1", "-1"), "P": ("-1", "1", "-1"), "T": ("0", "0", "8")}[outcome]
            line += f";banker={banker},player={player},tie_8to1={tie}"
        return line + "\n"


def chemin_banker_draws(banker: int, third: int | None) -> bool:
    """The chemin de fer banker's rule with Kemeny and Snell's free choices (draw at 3 against a 9,
    stand at 5 against a 4); third: the ponte's third card's points, None if he stood."""
    if third is None:
        return banker <= 5
    return (
        banker <= 2
        or (banker == 3 and third != 8)
        or (banker == 4 and 2 <= third <= 7)
        or (banker == 5 and 5 <= third <= 7)
        or (banker == 6 and third in (6, 7))
    )


def banker_draws(banker: int, third: int | None) -> bool:
    """The punto banco banker's rule (third: the player's third card's points, None if he stood)."""
    if third is None:
        return banker <= 5
    return (
        banker <= 2
        or (banker == 3 and third != 8)
        or (banker == 4 and 2 <= third <= 7)
        or (banker == 5 and 4 <= third <= 7)
        or (banker == 6 and third in (6, 7))
    )


class _Dealer:
    """Cards off the top of a shuffled shoe, or drawn with replacement from the full shoe."""

    def __init__(self, cards: list[str], replacement: random.Random | None, full: list[str], rng: random.Random) -> None:
        self.cards, self.replacement, self.full, self.top, self.rng = cards, replacement, full, 0, rng

    def next(self) -> str:
        self.top += 1
        if self.replacement is not None:
            return self.replacement.choice(self.full)
        return self.cards[self.top - 1]


def text(engine: Engine, coups: int, seed: int) -> str:
    """The whole file as one string (for small runs)."""
    return "".join(engine.lines(coups, seed))
