"""Bets as data, and punto banco answered exactly.

A :class:`Bet` is a name and a payout rule: a function from the outcome table of one coup to the
bettor's net result per unit staked in each row (a win of ``p`` to 1 is ``p``, a loss ``-1``, a push
``0``). Its expected value is then an exact sum over the table; the house edge is minus that, per
unit staked (pushes included in the stake, the convention of the published tables).

Main bets (punto banco): Banker pays 1 − commission to 1 (0.95 at the usual 5 %), Player 1 to 1,
ties push both; Tie pays 8 to 1 (or 9 to 1). Variants and side bets are further :class:`Bet` values
over the same table; none of them touches the enumerator.

>>> result = punto_banco(Shoe.decks(8))
>>> result.banker, result.tie
(Fraction(8954111587648, 19524993263685), Fraction(619306544887, 6508331087895))
>>> result.bet("banker").edge
Fraction(114753351728, 10847218479825)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from solver.cards import Shoe
from solver.deal import OutcomeTable, outcomes
from solver.errors import ModelError
from solver.numbers import exact
from solver.rules import PUNTO_BANCO

Predicate = Callable[[OutcomeTable], np.ndarray]

STANDARD_COMMISSION = Fraction(1, 20)


@dataclass(frozen=True)
class Bet:
    """A bet as data: payout tiers over the outcome table.

    ``tiers`` is a sequence of ``(net payout per unit, predicate)``; a row takes the payout of the
    first predicate it satisfies (0 is a push) and loses the stake (−1) if it satisfies none.
    Predicates are vectorised: they map an :class:`~solver.deal.OutcomeTable` to a boolean array.
    """

    name: str
    description: str
    tiers: tuple[tuple[Fraction, Predicate], ...]

    def __repr__(self) -> str:
        return f"Bet({self.name!r})"


@dataclass(frozen=True)
class BetResult:
    """The exact law of one bet's result per unit staked.

    Attributes:
        name, description: of the bet.
        win, lose, push: exact probabilities.
        ev: expected net result per unit staked; ``edge`` is ``-ev`` (the house edge).
    """

    name: str
    description: str
    win: Fraction
    lose: Fraction
    push: Fraction
    ev: Fraction

    @property
    def edge(self) -> Fraction:
        """House edge per unit staked (pushes count as stakes)."""
        return -self.ev


def evaluate(bet: Bet, table: OutcomeTable) -> BetResult:
    """The exact result law of a bet on one coup described by ``table``."""
    open_rows = np.ones(len(table.weights), dtype=bool)
    win = push = 0
    ev = Fraction(0)
    for pay, predicate in bet.tiers:
        rows = open_rows & predicate(table)
        open_rows &= ~rows
        w = table.weight(rows)
        ev += pay * w
        if pay > 0:
            win += w
        elif pay == 0:
            push += w
        else:
            raise ModelError(f"bet {bet.name}: a tier must pay at least 0 (a loss is what no tier matches)")
    lose = table.weight(open_rows)
    d = table.denominator
    return BetResult(
        name=bet.name,
        description=bet.description,
        win=Fraction(win, d),
        lose=Fraction(lose, d),
        push=Fraction(push, d),
        ev=(ev - lose) / d,
    )


# -- the main bets ------------------------------------------------------------------------------


def _banker_wins(t: OutcomeTable) -> np.ndarray:
    return t.b_total > t.p_total


def _player_wins(t: OutcomeTable) -> np.ndarray:
    return t.p_total > t.b_total


def _tie(t: OutcomeTable) -> np.ndarray:
    return t.p_total == t.b_total


def _banker_three_card_7(t: OutcomeTable) -> np.ndarray:
    return (t.b_total == 7) & (t.b_cards == 3)


def banker_bet(commission: Fraction | int | str = STANDARD_COMMISSION) -> Bet:
    """Banker: wins when the banker's total is higher, paid ``1 − commission`` to 1; ties push."""
    alpha = exact(commission, "commission")
    if not 0 <= alpha < 1:
        raise ModelError(f"the commission must lie in [0, 1), got {alpha}")
    return Bet(
        "banker",
        f"Banker, pays {1 - alpha} to 1 ({alpha * 100}% commission), ties push",
        ((1 - alpha, _banker_wins), (Fraction(0), _tie)),
    )


def player_bet() -> Bet:
    """Player: wins when the player's total is higher, paid 1 to 1; ties push."""
    return Bet("player", "Player, pays 1 to 1, ties push", ((Fraction(1), _player_wins), (Fraction(0), _tie)))


def tie_bet(pays: int = 8) -> Bet:
    """Tie: wins on equal totals, paid ``pays`` to 1; loses otherwise."""
    return Bet(f"tie_{pays}to1", f"Tie, pays {pays} to 1", ((Fraction(pays), _tie),))


def ez_banker_bet() -> Bet:
    """EZ Baccarat's no-commission Banker: pays 1 to 1, but a banker win with a three-card 7 pushes."""
    return Bet(
        "ez_banker",
        "EZ Baccarat Banker, 1 to 1, push on a banker win with a three-card 7",
        ((Fraction(0), lambda t: _banker_wins(t) & _banker_three_card_7(t)), (Fraction(1), _banker_wins), (Fraction(0), _tie)),
    )


def dragon7_bet(pays: int = 40) -> Bet:
    """Dragon 7 side bet: the banker wins with a three-card 7; pays ``pays`` to 1."""
    return Bet(
        "dragon7",
        f"Dragon 7: banker wins with a three-card 7, pays {pays} to 1",
        ((Fraction(pays), lambda t: _banker_wins(t) & _banker_three_card_7(t)),),
    )


def panda8_bet(pays: int = 25) -> Bet:
    """Panda 8 side bet: the player wins with a three-card 8; pays ``pays`` to 1."""
    return Bet(
        "panda8",
        f"Panda 8: player wins with a three-card 8, pays {pays} to 1",
        ((Fraction(pays), lambda t: _player_wins(t) & (t.p_total == 8) & (t.p_cards == 3)),),
    )


def main_bets(commission: Fraction | int | str = STANDARD_COMMISSION) -> tuple[Bet, ...]:
    """Banker, Player, Tie 8 to 1 and Tie 9 to 1."""
    return (banker_bet(commission), player_bet(), tie_bet(8), tie_bet(9))


def variant_bets() -> tuple[Bet, ...]:
    """EZ Baccarat's no-commission Banker and its Dragon 7 and Panda 8 side bets."""
    return (ez_banker_bet(), dragon7_bet(), panda8_bet())


# -- side bets on ranks ------------------------------------------------------------------------------


def pair_probability(shoe: Shoe) -> Fraction:
    """Exact probability that two given cards of a coup (the player's two, or the banker's) are a pair.

    Any two positions of a shuffled shoe have the law of the first two cards dealt, so this is
    Σ_r n_r (n_r − 1) / (N (N − 1)) over the ranks r, or Σ_r c_r² / (Σ c)² dealing with replacement.

    >>> pair_probability(Shoe.decks(8))
    Fraction(31, 415)

    Raises:
        ModelError: the shoe was given by point value only, so its ranks are unknown.
    """
    if shoe.ranks is None:
        raise ModelError("pair bets need the shoe's ranks; give --decks or 13 counts by rank, and remove cards by rank")
    n = shoe.ranks
    total = sum(n)
    if shoe.is_infinite:
        return Fraction(sum(c * c for c in n), total * total)
    return Fraction(sum(c * (c - 1) for c in n), total * (total - 1))


def pair_bets(shoe: Shoe, pays: int = 11) -> tuple[BetResult, ...]:
    """Player Pair and Banker Pair: the side's first two cards are of the same rank; pays ``pays`` to 1.

    Both have the same law (any two cards of a shuffled shoe). Empty for a shoe known by value only.
    """
    if shoe.ranks is None:
        return ()
    p = pair_probability(shoe)
    return tuple(
        BetResult(name=f"{side}_pair", description=f"{side.capitalize()} Pair: the {side}'s first two cards are a "
                  f"pair, pays {pays} to 1", win=p, lose=1 - p, push=Fraction(0), ev=pays * p - (1 - p))
        for side in ("player", "banker")
    )


# -- punto banco ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PuntoResult:
    """Punto banco on one shoe, exactly.

    Attributes:
        shoe: the shoe.
        counts: six-card sequences won by banker, player, and tied (integers).
        denominator: all six-card sequences, N(N−1)…(N−5) (13^6 weighted, for an infinite deck).
        bets: the exact result law of each bet evaluated.
        commission: the Banker bet's commission.
        method: how the numbers were obtained.
    """

    shoe: Shoe
    counts: dict[str, int]
    denominator: int
    bets: tuple[BetResult, ...]
    commission: Fraction
    method: str = "exact enumeration of every six-card sequence (solver.deal)"

    @property
    def banker(self) -> Fraction:
        """P(banker wins)."""
        return Fraction(self.counts["banker"], self.denominator)

    @property
    def player(self) -> Fraction:
        """P(player wins)."""
        return Fraction(self.counts["player"], self.denominator)

    @property
    def tie(self) -> Fraction:
        """P(tie)."""
        return Fraction(self.counts["tie"], self.denominator)

    def bet(self, name: str) -> BetResult:
        """The result of the bet called ``name``."""
        for b in self.bets:
            if b.name == name:
                return b
        raise KeyError(name)


def punto_banco(
    shoe: Shoe,
    commission: Fraction | int | str = STANDARD_COMMISSION,
    bets: tuple[Bet, ...] | None = None,
) -> PuntoResult:
    """Punto banco on one shoe: the exact outcome law and the exact edge of every bet.

    Args:
        shoe: the shoe to deal from.
        commission: the Banker bet's commission (default 1/20).
        bets: bets to evaluate; default :func:`main_bets`, :func:`variant_bets`, and the pair side
            bets (:func:`pair_bets`) when the shoe's ranks are known.

    Returns:
        A :class:`PuntoResult`.

    >>> r = punto_banco(Shoe.decks(6))
    >>> r.counts["banker"], r.counts["player"], r.counts["tie"]
    (403095751234560, 392220492728832, 83552962932288)
    """
    table = outcomes(shoe, PUNTO_BANCO)
    counts = {"banker": table.weight(_banker_wins(table)), "player": table.weight(_player_wins(table)),
              "tie": table.weight(_tie(table))}
    alpha = exact(commission, "commission")
    chosen = bets if bets is not None else main_bets(alpha) + variant_bets()
    side = pair_bets(shoe) if bets is None else ()
    return PuntoResult(
        shoe=shoe,
        counts=counts,
        denominator=table.denominator,
        bets=tuple(evaluate(b, table) for b in chosen) + side,
        commission=alpha,
    )
