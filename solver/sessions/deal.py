"""Dealing at the table: shuffled shoes, and coups played under exact draw tables.

The session engine deals its own coups, one at a time, because the money rules act between coups
(and, at baccara banque, the banker's drawing may depend on the stakes). The shoe follows the
simulator's conventions (:mod:`solver.simulate.config`): a uniformly random order of the shoe's cards
(``Generator.permutation``), the burn (none, a fixed count, or the first card turned and as many
burned as it counts, a ten-valued card 10), and coups until the cut card appears — the card at index
``size − cut`` is dealt — the coup in progress being finished.

Cards are dealt by rank (``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``) when the shoe is known by rank,
and by value otherwise (``0`` for a ten-valued card of unknown rank), so the log can say which cards
came out. The shoe is laid out by value before it is shuffled (the tens first, then the aces, …), so a
seed deals the same values whether the ranks are known or not.

Decisions follow the exact draw tables of a :class:`~solver.strategy.Strategy`, indexed by the cards
(:class:`CheminPlay`; ``Strategy.tables()``, and ``Solution.strategy`` for a solved game). A mixed
decision with probability ``p = n/d`` is drawn exactly, ``u < n`` for ``u`` uniform on ``0..d−1``
(:func:`bernoulli`): no floats anywhere.

Baccara banque plays through :class:`BanquePlay`, an interface the banque solver can plug into. Until
it does, :class:`CheminOnEachTableau` plays chemin de fer's strategy on each tableau: each player as a
ponte, and the banker, seeing two tableaux, takes chemin de fer's decision for each; where the two
disagree he takes the one that serves the larger stake (tableau 1, on his right, on equal stakes).

>>> from solver.simulate import KEMENY_SNELL
>>> play = CheminPlay.of(KEMENY_SNELL)
>>> play.ponte_draw((2, 3)), play.banker_draw((1, 2), 9), play.banker_draw((5, 0), 4)
(Fraction(9, 11), Fraction(1, 1), Fraction(0, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Protocol

import numpy as np

from solver.cards import RANK_VALUE, RANKS, Shoe
from solver.errors import InputError
from solver.rules.tableau import SEEN_LABELS, STOOD, Action, Tableau
from solver.simulate.config import Burn
from solver.strategy import NATURAL, Strategy

ONE, ZERO = Fraction(1), Fraction(0)
TEN_VALUED = len(RANKS)
"""The code of a ten-valued card of unknown rank (a shoe known by value only)."""
CARD_VALUE: tuple[int, ...] = (*RANK_VALUE, 0)
"""Point value of each card code: the rank indices of :data:`~solver.cards.RANKS`, then :data:`TEN_VALUED`."""
CARD_NAME: tuple[str, ...] = (*RANKS, "0")
"""How the log writes each card code."""


class Outcome(Enum):
    """Who won a coup (or a tableau)."""

    BANKER = "banker"
    PONTE = "ponte"
    TIE = "tie"


def bernoulli(rng: np.random.Generator, p: Fraction) -> bool:
    """True with probability ``p`` exactly; draws nothing when ``p`` is 0 or 1.

    ``u`` uniform on ``0..d−1`` (``Generator.integers`` below 2^62, else rejection from random bytes);
    true when ``u < n``, for ``p = n/d``.
    """
    if p >= 1:
        return True
    if p <= 0:
        return False
    n, d = p.numerator, p.denominator
    if d < 1 << 62:
        return int(rng.integers(0, d)) < n
    k = (d.bit_length() + 7) // 8
    while True:
        u = int.from_bytes(rng.bytes(k), "little") >> (8 * k - d.bit_length())
        if u < d:
            return u < n


class CheminPlay:
    """Chemin de fer's drawing under an exact :class:`~solver.strategy.Strategy`, as card-indexed tables.

    ``ponte_draw(cards)`` reads the ponte's table ``P[p1][p2]`` and ``banker_draw(cards, seen)`` the
    banker's ``B[b1][b2][seen]`` (``seen``: the ponte's third card 0–9 or
    :data:`~solver.rules.tableau.STOOD`), both as Fractions, from :meth:`Strategy.tables`.
    """

    def __init__(self, strategy: Strategy) -> None:
        P, B = strategy.tables()
        self.strategy = strategy
        self.name = strategy.name
        self.player = [[Fraction(P[a, b]) for b in range(10)] for a in range(10)]
        self.banker = [[[Fraction(B[a, b, s]) for s in range(11)] for b in range(10)] for a in range(10)]

    @classmethod
    def of(cls, strategy: object) -> CheminPlay:
        """``strategy`` itself if it is a :class:`CheminPlay`, else the play of a :class:`Strategy`.

        Raises:
            InputError: anything else.
        """
        if isinstance(strategy, CheminPlay):
            return strategy
        if isinstance(strategy, Strategy):
            return cls(strategy)
        raise InputError(f"the table plays an exact strategy (solver.strategy.Strategy), not {type(strategy).__name__}")

    def ponte_draw(self, cards: tuple[int, int]) -> Fraction:
        return self.player[cards[0]][cards[1]]

    def banker_draw(self, cards: tuple[int, int], seen: int) -> Fraction:
        return self.banker[cards[0]][cards[1]][seen]

    def breaks(self, tableau: Tableau) -> list[str]:
        """The cells of ``tableau`` this play's tables override (``P4``, ``B7/S``): where the tableau
        fixes the action and some hand of that total draws otherwise, or mixes.

        >>> from solver.rules.tableau import CHEMIN_CASINO
        >>> from solver.simulate import KEMENY_SNELL
        >>> CheminPlay.of(KEMENY_SNELL).breaks(CHEMIN_CASINO)
        []
        """
        out: list[str] = []

        def fixed(action: Action, p: Fraction, cell: str) -> None:
            if action is not Action.FREE and p != (1 if action is Action.DRAW else 0) and cell not in out:
                out.append(cell)

        for a in range(10):
            for b in range(10):
                t = (a + b) % 10
                if t >= 8:
                    continue
                fixed(tableau.player_action(t), self.player[a][b], f"P{t}")
                for seen in range(11):
                    fixed(tableau.banker_action(t, seen), self.banker[a][b][seen], f"B{t}/{SEEN_LABELS[seen]}")
        return out


class BanquePlay(Protocol):
    """Drawing at baccara banque: what the banque solver's strategies will implement.

    ``player_draw(tableau, cards, seen)``: the probability that the player of ``tableau`` (1 right, 2
    left) holding ``cards`` draws, having seen ``seen`` (tableau 2's player: what tableau 1 showed —
    a third card, STOOD or NATURAL; tableau 1's: nothing). ``banker_draw(cards, seen, stakes)``: the
    banker's probability of drawing, having seen each tableau (a third card 0–9, STOOD or NATURAL)
    with the sums at stake on each.
    """

    name: str

    def player_draw(self, tableau: int, cards: tuple[int, int], seen: tuple[int, ...]) -> Fraction: ...

    def banker_draw(self, cards: tuple[int, int], seen: tuple[int, int], stakes: tuple[Fraction, Fraction]) -> Fraction: ...


class CheminOnEachTableau:
    """:class:`BanquePlay` from chemin de fer's strategy, tableau by tableau (the default until the
    banque solver plugs in).

    Each player draws as chemin de fer's ponte. The banker takes chemin de fer's decision against each
    tableau still in play (not settled by a natural); where the two disagree, the decision for the
    tableau with the larger stake (tableau 1 on equal stakes).

    >>> from solver.simulate import KEMENY_SNELL
    >>> p = CheminOnEachTableau(CheminPlay.of(KEMENY_SNELL))
    >>> p.banker_draw((3, 0), (9, 8), (Fraction(10), Fraction(50)))   # 3 v 9 draws, 3 v 8 stands
    Fraction(0, 1)
    """

    def __init__(self, chemin: CheminPlay) -> None:
        self.chemin = chemin
        self.name = (
            f"chemin de fer on each tableau ({chemin.name}); where the tableaux disagree the banker plays for the larger stake"
        )

    def player_draw(self, tableau: int, cards: tuple[int, int], seen: tuple[int, ...]) -> Fraction:
        return self.chemin.ponte_draw(cards)

    def banker_draw(self, cards: tuple[int, int], seen: tuple[int, int], stakes: tuple[Fraction, Fraction]) -> Fraction:
        live = [t for t in (0, 1) if seen[t] != NATURAL]
        r = [self.chemin.banker_draw(cards, seen[t]) if seen[t] != NATURAL else ZERO for t in (0, 1)]
        if len(live) == 1:
            return r[live[0]]
        if r[0] == r[1]:
            return r[0]
        return r[0] if stakes[0] >= stakes[1] else r[1]


class ShoeDealer:
    """Cards from shuffled shoes, one at a time, with the burn and the cut card.

    ``cards`` are the shoe's card codes (:func:`shoe_cards`). :meth:`new_shoe` shuffles and
    burns; :meth:`code` deals the next card's code and :meth:`card` its value; :attr:`cut_seen` says
    whether the cut card has appeared, :attr:`burned` which cards the burn took, :attr:`left` how many
    remain.
    """

    def __init__(self, cards: Sequence[int], burn: Burn, cut: int, rng: np.random.Generator) -> None:
        self.cards = np.asarray(cards, dtype=np.int64)
        self.burn = burn
        self.last = len(self.cards) - cut
        self.rng = rng
        self.order: list[int] = []
        self.top = 0
        self.burned: tuple[int, ...] = ()

    def new_shoe(self) -> None:
        self.order = self.rng.permutation(self.cards).tolist()
        self.top = 0
        if self.burn.mode == "fixed":
            self.top = self.burn.count
        elif self.burn.mode == "turn":
            turned = CARD_VALUE[self.order[0]]
            self.top = 1 + (10 if turned == 0 else turned)
        self.burned = tuple(self.order[: self.top])

    def code(self) -> int:
        c = self.order[self.top]
        self.top += 1
        return c

    def card(self) -> int:
        return CARD_VALUE[self.code()]

    @property
    def cut_seen(self) -> bool:
        return self.top > self.last

    @property
    def left(self) -> int:
        return len(self.order) - self.top


@dataclass(frozen=True)
class CheminHand:
    """One chemin de fer coup as dealt: the ponte's and the banker's cards (values), who won, and the
    cards' codes (``ponte_codes``, ``banker_codes``; see :data:`CARD_NAME`)."""

    ponte: tuple[int, ...]
    banker: tuple[int, ...]
    outcome: Outcome
    ponte_codes: tuple[int, ...] = ()
    banker_codes: tuple[int, ...] = ()


def compare(ponte: int, banker: int) -> Outcome:
    return Outcome.BANKER if banker > ponte else Outcome.PONTE if ponte > banker else Outcome.TIE


def deal_chemin(dealer: ShoeDealer, play: CheminPlay, rng: np.random.Generator) -> CheminHand:
    """Deal one coup: ponte, banker, ponte, banker; naturals; the ponte's then the banker's choice."""
    pc = [dealer.code()]
    bc = [dealer.code()]
    pc.append(dealer.code())
    bc.append(dealer.code())
    p, b = [CARD_VALUE[c] for c in pc], [CARD_VALUE[c] for c in bc]
    pt, bt = (p[0] + p[1]) % 10, (b[0] + b[1]) % 10
    if pt < 8 and bt < 8:
        seen = STOOD
        if bernoulli(rng, play.ponte_draw((p[0], p[1]))):
            pc.append(dealer.code())
            seen = CARD_VALUE[pc[2]]
            p.append(seen)
            pt = (pt + seen) % 10
        if bernoulli(rng, play.banker_draw((b[0], b[1]), seen)):
            bc.append(dealer.code())
            b.append(CARD_VALUE[bc[2]])
            bt = (bt + b[2]) % 10
    return CheminHand(tuple(p), tuple(b), compare(pt, bt), tuple(pc), tuple(bc))


@dataclass(frozen=True)
class BanqueHands:
    """One baccara banque coup as dealt: each tableau's cards, the banker's, each tableau's outcome, and
    the cards' codes (tableau 1, tableau 2, banker; see :data:`CARD_NAME`)."""

    tableaux: tuple[tuple[int, ...], tuple[int, ...]]
    banker: tuple[int, ...]
    outcomes: tuple[Outcome, Outcome]
    codes: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())


def deal_banque(dealer: ShoeDealer, play: BanquePlay, stakes: tuple[Fraction, Fraction], rng: np.random.Generator) -> BanqueHands:
    """Deal one coup: tableau 1, tableau 2, banker, twice; naturals; the players' then the banker's choice.

    A banker's natural settles both tableaux; a player's natural settles his tableau against the
    banker's two cards. The banker then draws (or not) once, against the tableaux still in play.
    """
    hands: list[list[int]] = [[], [], []]
    codes: list[list[int]] = [[], [], []]
    for _ in range(2):
        for h, hc in zip(hands, codes):
            hc.append(dealer.code())
            h.append(CARD_VALUE[hc[-1]])
    totals = [(h[0] + h[1]) % 10 for h in hands]
    bt2 = totals[2]
    seen = [NATURAL, NATURAL]
    if bt2 < 8:
        for t in (0, 1):
            if totals[t] >= 8:
                continue
            before: tuple[int, ...] = () if t == 0 else (seen[0],)
            seen[t] = STOOD
            if bernoulli(rng, play.player_draw(t + 1, (hands[t][0], hands[t][1]), before)):
                codes[t].append(dealer.code())
                c = CARD_VALUE[codes[t][-1]]
                hands[t].append(c)
                totals[t] = (totals[t] + c) % 10
                seen[t] = c
    final = bt2
    if bt2 < 8 and (seen[0] != NATURAL or seen[1] != NATURAL):
        if bernoulli(rng, play.banker_draw((hands[2][0], hands[2][1]), (seen[0], seen[1]), stakes)):
            codes[2].append(dealer.code())
            c = CARD_VALUE[codes[2][-1]]
            hands[2].append(c)
            final = (bt2 + c) % 10
    outcomes = tuple(compare(totals[t], bt2 if seen[t] == NATURAL else final) for t in (0, 1))
    return BanqueHands(
        (tuple(hands[0]), tuple(hands[1])),
        tuple(hands[2]),
        (outcomes[0], outcomes[1]),
        (tuple(codes[0]), tuple(codes[1]), tuple(codes[2])),
    )


def shoe_values(counts: Sequence[int]) -> list[int]:
    """The point values of a shoe's cards from its ten counts by value."""
    return [v for v in range(10) for _ in range(counts[v])]


def shoe_cards(shoe: Shoe) -> list[int]:
    """The codes of a shoe's cards (rank indices, or :data:`TEN_VALUED` for a shoe known by value),
    laid out by value — the ten-valued cards first, then the aces, the twos, … — so that their values
    are :func:`shoe_values` card for card.

    >>> cards = shoe_cards(Shoe.decks(1))
    >>> [CARD_VALUE[c] for c in cards] == shoe_values(Shoe.decks(1).values), CARD_NAME[cards[0]], CARD_NAME[cards[16]]
    (True, '10', 'A')
    """
    if shoe.ranks is None:
        return [TEN_VALUED if v == 0 else v - 1 for v in shoe_values(shoe.values)]
    by_value = sorted(range(len(RANKS)), key=lambda r: (RANK_VALUE[r], r))
    return [r for r in by_value for _ in range(shoe.ranks[r])]
