"""The main bets of punto banco and the commission-free variants' Banker bets.

Banker pays 1 − commission to 1 (0.95 at the usual 5 %), Player 1 to 1, ties push both; Tie pays 8
to 1 (or 9, or the seed casino's 1 to 1). EZ Baccarat's Banker pays 1 to 1 but pushes a banker win
with a three-card 7; Super 6's pays 1 to 2 on a banker win with a 6. Dragon 7 and Panda 8 are EZ
Baccarat's side bets.

>>> banker_bet().tiers[0].pays, tie_bet(9).name
(Fraction(19, 20), 'tie_9to1')
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from solver.errors import ModelError
from solver.exact.numbers import exact
from solver.punto.bet import Bet, Tier
from solver.punto.events import Condition
from solver.rules.tableau import STANDARD_COMMISSION

BANKER_WINS = Condition.of(winner="banker")
PLAYER_WINS = Condition.of(winner="player")
TIE = Condition.of(winner="tie")


def _commission(commission: Fraction | int | str) -> Fraction:
    alpha = exact(commission, "commission")
    if not 0 <= alpha < 1:
        raise ModelError(f"the commission must lie in [0, 1), got {alpha}")
    return alpha


def percent_text(x: Fraction) -> str:
    """``100 x`` as a short exact decimal where it terminates (``5``, ``2.5``), else a fraction."""
    p = x * 100
    for places in range(7):
        scaled = p * 10**places
        if scaled.denominator == 1:
            s = str(abs(scaled.numerator)).rjust(places + 1, "0")
            return ("-" if p < 0 else "") + (f"{s[:-places]}.{s[-places:]}" if places else s)
    return str(p)


@lru_cache(maxsize=64)
def banker_bet(commission: Fraction | int | str = STANDARD_COMMISSION, name: str = "banker") -> Bet:
    """Banker: wins when the banker's total is higher, paid ``1 − commission`` to 1; ties push."""
    alpha = _commission(commission)
    return Bet(
        name,
        f"Banker, pays {1 - alpha} to 1 ({percent_text(alpha)}% commission), ties push",
        (Tier(1 - alpha, BANKER_WINS, "banker wins"), Tier(Fraction(0), TIE, "tie")),
    )


@lru_cache(maxsize=64)
def player_bet() -> Bet:
    """Player: wins when the player's total is higher, paid 1 to 1; ties push."""
    return Bet(
        "player", "Player, pays 1 to 1, ties push", (Tier(Fraction(1), PLAYER_WINS, "player wins"), Tier(Fraction(0), TIE, "tie"))
    )


@lru_cache(maxsize=64)
def tie_bet(pays: int = 8) -> Bet:
    """Tie: wins on equal totals, paid ``pays`` to 1; loses otherwise."""
    return Bet(f"tie_{pays}to1", f"Tie, pays {pays} to 1", (Tier(Fraction(pays), TIE, "tie"),))


@lru_cache(maxsize=64)
def ez_banker_bet() -> Bet:
    """EZ Baccarat's no-commission Banker: pays 1 to 1, but a banker win with a three-card 7 pushes."""
    return Bet(
        "ez_banker",
        "EZ Baccarat Banker, 1 to 1, push on a banker win with a three-card 7",
        (
            Tier(Fraction(0), Condition.of(winner="banker", banker_total=7, banker_cards=3), "banker wins with a three-card 7"),
            Tier(Fraction(1), BANKER_WINS, "banker wins otherwise"),
            Tier(Fraction(0), TIE, "tie"),
        ),
    )


@lru_cache(maxsize=64)
def super6_banker_bet() -> Bet:
    """Super 6 (commission-free Banker): pays 1 to 1, but 1 to 2 on a banker win with a total of 6."""
    return Bet(
        "banker_super6",
        "Super 6 (commission-free) Banker, 1 to 1, pays 1 to 2 on a banker win with a 6",
        (
            Tier(Fraction(1, 2), Condition.of(winner="banker", banker_total=6), "banker wins with a 6"),
            Tier(Fraction(1), BANKER_WINS, "banker wins otherwise"),
            Tier(Fraction(0), TIE, "tie"),
        ),
    )


@lru_cache(maxsize=64)
def dragon7_bet(pays: int = 40) -> Bet:
    """Dragon 7 side bet: the banker wins with a three-card 7; pays ``pays`` to 1."""
    return Bet(
        "dragon7",
        f"Dragon 7: banker wins with a three-card 7, pays {pays} to 1",
        (Tier(Fraction(pays), Condition.of(winner="banker", banker_total=7, banker_cards=3), "banker wins with a three-card 7"),),
    )


@lru_cache(maxsize=64)
def panda8_bet(pays: int = 25) -> Bet:
    """Panda 8 side bet: the player wins with a three-card 8; pays ``pays`` to 1."""
    return Bet(
        "panda8",
        f"Panda 8: player wins with a three-card 8, pays {pays} to 1",
        (Tier(Fraction(pays), Condition.of(winner="player", player_total=8, player_cards=3), "player wins with a three-card 8"),),
    )


@lru_cache(maxsize=64)
def main_bets(commission: Fraction | int | str = STANDARD_COMMISSION, tie_pays: tuple[int, ...] = (8, 9)) -> tuple[Bet, ...]:
    """Banker, Player, and the Tie at each of ``tie_pays`` to 1 (8 and 9 to 1 by default)."""
    return (banker_bet(commission), player_bet(), *(tie_bet(p) for p in tie_pays))


@lru_cache(maxsize=64)
def variant_bets() -> tuple[Bet, ...]:
    """EZ Baccarat's no-commission Banker and its Dragon 7 and Panda 8 side bets."""
    return (ez_banker_bet(), dragon7_bet(), panda8_bet())
