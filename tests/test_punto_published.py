"""Punto banco against published values.

Sources:
- [WoO-B] Wizard of Odds, "Baccarat", Appendix 1 (combinatorial analysis, 8 and 6 decks): counts of
  six-card sequences won by banker, player, tie, and the house edges 1.0579 % (Banker),
  1.2351 % (Player), 14.3596 % (Tie at 8 to 1), 4.8440 % (Tie at 9 to 1), 8 decks.
- [WoO-EZ] Wizard of Odds, "EZ Baccarat": 8 decks, Banker (push on a three-card banker 7 win)
  1.0183 %, Dragon 7 at 40 to 1 7.6113 %, Panda 8 at 25 to 1 10.1876 %.
- [WoO-P] Wizard of Odds, "Baccarat", side bets: Player Pair / Banker Pair at 11 to 1, house edge
  10.36 % with 8 decks and 11.25 % with 6.
Each is compared at the precision the source printed; the exact fraction is pinned beside it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from solver.cards import Shoe
from solver.punto import punto_banco
from solver.report import percent_str

EIGHT = punto_banco(Shoe.decks(8))


def test_eight_deck_counts_woo_b() -> None:
    # [WoO-B], 8 decks
    assert EIGHT.counts == {
        "banker": 2_292_252_566_437_888,
        "player": 2_230_518_282_592_256,
        "tie": 475_627_426_473_216,
    }
    assert EIGHT.denominator == 4_998_398_275_503_360


def test_six_deck_counts_woo_b() -> None:
    # [WoO-B], 6 decks
    r = punto_banco(Shoe.decks(6))
    assert (r.counts["banker"], r.counts["player"], r.counts["tie"]) == (
        403_095_751_234_560,
        392_220_492_728_832,
        83_552_962_932_288,
    )
    assert sum(r.counts.values()) == r.denominator == 312 * 311 * 310 * 309 * 308 * 307


@pytest.mark.parametrize(
    ("bet", "published"),
    [
        ("banker", "1.0579"),
        ("player", "1.2351"),
        ("tie_8to1", "14.3596"),
        ("tie_9to1", "4.8440"),  # [WoO-B]
        ("ez_banker", "1.0183"),
        ("dragon7", "7.6113"),
        ("panda8", "10.1876"),
    ],  # [WoO-EZ]
)
def test_eight_deck_edges(bet: str, published: str) -> None:
    assert percent_str(EIGHT.bet(bet).edge, 4) == published


def test_eight_deck_exact_edges_pinned() -> None:
    # Our exact refinement of [WoO-B]'s rounded figures.
    assert EIGHT.bet("banker").edge == Fraction(114753351728, 10847218479825)
    assert EIGHT.bet("player").edge == Fraction(241149546272, 19524993263685)
    assert EIGHT.bet("banker").ev == Fraction(19, 20) * EIGHT.banker - EIGHT.player
    assert EIGHT.bet("tie_8to1").ev == 9 * EIGHT.tie - 1


@pytest.mark.parametrize(("decks", "published"), [(8, "10.36"), (6, "11.25")])
def test_pair_side_bets_woo_p(decks: int, published: str) -> None:
    r = punto_banco(Shoe.decks(decks))
    assert percent_str(r.bet("player_pair").edge, 2) == published  # [WoO-P]
    assert r.bet("banker_pair").edge == r.bet("player_pair").edge
    # Exact: P(pair) = 13 * C(4d, 2) / C(52d, 2) = (4d - 1) / (52d - 1); edge = 1 - 12 P(pair).
    assert r.bet("player_pair").edge == 1 - 12 * Fraction(4 * decks - 1, 52 * decks - 1)


def test_pair_bets_need_ranks() -> None:
    by_value = punto_banco(Shoe.decks(8).remove(["0"]))  # a ten of unknown rank: ranks are forgotten
    assert "player_pair" not in {b.name for b in by_value.bets}
    by_rank = punto_banco(Shoe.decks(1).remove(["K", "K", "K", "K"]))
    assert by_rank.bet("player_pair").win == Fraction(12 * 4 * 3, 48 * 47)


def test_commission_is_a_parameter() -> None:
    free = punto_banco(Shoe.decks(8), commission=0)
    assert free.bet("banker").ev == EIGHT.banker - EIGHT.player
    with pytest.raises(TypeError):
        punto_banco(Shoe.decks(8), commission=0.05)  # type: ignore[arg-type]
