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

:class:`BanqueEngine` deals baccara banque the same way, from draw tables given as plain numbers (the
strategy it plays), in the banque file format.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

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


# -- baccara banque ---------------------------------------------------------------------------------------

STOOD, NATURAL = 10, 11
"""What a tableau showed the hands after it, as the strategy tables index it: a third card 0-9, or these."""


@dataclass(frozen=True)
class BanqueStrategy:
    """The draw probabilities a banque engine plays, as plain nested tuples of floats: the team's atoms'
    probabilities ``lam``; per atom Player 1's at cards (a, b), ``p1[atom][a][b]``, and Player 2's having
    seen s1 of tableau 1, ``p2[atom][a][b][s1]``; the banker's having seen s1 and s2, ``banker[a][b][s1][s2]``.
    Only the players' choice at 5 and the banker's decisions are read: the players' rule on 0-4 and 6-7 is
    written out below."""

    lam: tuple[float, ...]
    p1: tuple[tuple[tuple[float, ...], ...], ...]
    p2: tuple[tuple[tuple[tuple[float, ...], ...], ...], ...]
    banker: tuple[tuple[tuple[tuple[float, ...], ...], ...], ...]


@dataclass(frozen=True, eq=False)
class BanqueEngine:
    """A baccara banque table dealt in plain Python, written from the rule sheet.

    One card to Player 1 (tableau 1), one to Player 2, one to the banker, twice. The banker's natural,
    or both players', ends the coup; a player's natural stands and meets the banker's two cards. Each
    player without a natural draws on 0-4, stands on 6-7, and at 5 draws with his strategy's probability
    (Player 1 first; Player 2's may depend on what tableau 1 showed); then the banker draws once, with
    his strategy's probability given both tableaux, against both. With several atoms (a correlated team)
    the coup's atom is drawn first. The banker's result per unit of total stake is theta R1 +
    (1 - theta) R2, less the tax on his net win. Shoes are shuffled by ``random.shuffle``, dealt to the
    cut card (the coup in progress finished), no burn; each coup is written in the banque file format.

    Faults it can plant: ``ignore_tableau2`` (the banker decides as if tableau 2 had stood whenever
    tableau 1 is live), ``stands`` (that player, 1 or 2, always stands at 5), ``tax_taken=False`` (the
    settlement leaves the tax out), ``stale`` (the cards behind the cut card go back, unshuffled, on top
    of the next shoe).
    """

    strategy: BanqueStrategy
    decks: int = 6
    cut: int = 10
    first_coup_only: bool = False
    mark_shoes: bool = True
    theta: Fraction = Fraction(1, 2)
    tax: Fraction = Fraction(0)
    settle: bool = False
    ignore_tableau2: bool = False
    stands: int = 0
    tax_taken: bool = True
    stale: bool = False

    def lines(self, coups: int, seed: int) -> Iterator[str]:
        """The file's lines (each ending in a newline): ``coups`` coups, the last shoe cut short."""
        rng = random.Random(seed)
        shoe = [r for r in RANKS for _ in range(4 * self.decks)]
        left: list[str] = []
        dealt = 0
        while dealt < coups:
            if self.first_coup_only and not self.stale:
                cards = rng.sample(shoe, 9)  # the top of a freshly shuffled shoe: a coup deals at most 9
            elif self.stale and left:
                rest = list(shoe)
                for c in left:
                    rest.remove(c)
                rng.shuffle(rest)
                cards = left + rest
            else:
                cards = list(shoe)
                rng.shuffle(cards)
            if self.mark_shoes:
                yield "shoe\n"
            top = 0
            while dealt < coups:
                line, used = self._coup(cards, top, rng)
                top += used
                yield line
                dealt += 1
                if self.first_coup_only or top > len(shoe) - self.cut:
                    break
            left = cards[top:]

    def _coup(self, cards: list[str], top: int, rng: random.Random) -> tuple[str, int]:
        s = self.strategy
        hand = cards[top : top + 6]
        used = 6
        v = [POINTS[c] for c in hand]
        t1, t2, tb = (v[0] + v[3]) % 10, (v[1] + v[4]) % 10, (v[2] + v[5]) % 10
        places: list[str] = []
        final = tb
        if not (tb >= 8 or (t1 >= 8 and t2 >= 8)):
            atom, u = 0, rng.random()
            while atom < len(s.lam) - 1 and u >= sum(s.lam[: atom + 1]):
                atom += 1
            sight = [NATURAL if t1 >= 8 else STOOD, NATURAL if t2 >= 8 else STOOD]
            totals = [t1, t2]
            for k in (0, 1):
                a, b = v[k], v[k + 3]
                q = s.p1[atom][a][b] if k == 0 else s.p2[atom][a][b][sight[0]]
                total = totals[k]
                five = total == 5 and self.stands != k + 1 and rng.random() < q
                if total < 8 and (total <= 4 or five):
                    card = cards[top + used]
                    used += 1
                    places.append(card)
                    sight[k], totals[k] = POINTS[card], (total + POINTS[card]) % 10
                else:
                    places.append("-")
            s2 = STOOD if self.ignore_tableau2 and sight[0] != NATURAL else sight[1]
            r = s.banker[v[2]][v[5]][sight[0]][s2]
            if r >= 1 or (r > 0 and rng.random() < r):
                card = cards[top + used]
                used += 1
                places.append(card)
                final = (tb + POINTS[card]) % 10
            t1, t2 = totals
            while places and places[-1] == "-":  # the file format lets the trailing stands go
                places.pop()
        b1 = tb if (v[0] + v[3]) % 10 >= 8 else final
        b2 = tb if (v[1] + v[4]) % 10 >= 8 else final
        r1 = (b1 > t1) - (t1 > b1)
        r2 = (b2 > t2) - (t2 > b2)
        line = ",".join(hand + places) + ";" + "".join({1: "B", -1: "P", 0: "T"}[r] for r in (r1, r2))
        if self.settle:
            x = self.theta * r1 + (1 - self.theta) * r2
            if self.tax_taken and x > 0:
                x -= self.tax * x
            line += f";banker={x},player1={-r1},player2={-r2}"
        return line + "\n", used
