"""Effects of removal: exact invariants, two exact solves, and the published counts they reproduce.

Sources:
- [J-BT] E. Jacobson, "Card Counting the Big Tiger Baccarat Side Bet" (advancedadvantageplay.com, 2024):
  tags A..T = (0, 0, -1, -1, -1, -2, +1, +2, +2, 0), "a betting correlation of 0.981".
- [J-D7] E. Jacobson, "Co-Card Counting the Dragon and Panda Side Bets in EZ Baccarat" (888casino blog):
  the Dragon 7 count with tags A..T = {0, 0, 0, -1, -1, -1, -1, 2, 2, 0}.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from solver.cards import Shoe
from solver.count.eor import effects_of_removal, round_tags
from solver.errors import InputError, ModelError
from solver.punto import bets_from_names, punto_banco, sqrt_str

BETS = bets_from_names("banker,player,tie_8to1,dragon7,panda8,big_tiger,either_pair,perfect_pairs,player_pair")
DEPLETED = Shoe.decks(2).remove(["KS", "5H", "5D", "9C", "2S", "AH", "7C", "7D", "QS", "QH"])


@pytest.mark.parametrize("shoe", [Shoe.decks(8), DEPLETED])
@pytest.mark.parametrize("by", ["rank", "value"])
def test_effects_weighted_by_the_shoe_sum_to_zero_exactly(shoe: Shoe, by: str) -> None:
    r = effects_of_removal(shoe, BETS, by=by)
    for b in r.bets:
        assert sum(x.cards * x.effect for x in b.removals) == 0, b.name
        assert sum(x.cards for x in b.removals) == shoe.size


def test_an_effect_is_the_difference_of_two_exact_solves() -> None:
    bets = bets_from_names("banker,dragon7,big_tiger,either_pair,player_pair")
    r = effects_of_removal(DEPLETED, bets, by="rank")
    full = punto_banco(DEPLETED, bets=bets)
    for rank in ("A", "5", "9", "K"):
        less = punto_banco(DEPLETED.remove([rank]), bets=bets)
        for b in bets:
            effect = next(x.effect for x in r.bet(b.name).removals if x.card == rank)
            assert effect == less.bet(b.name).ev - full.bet(b.name).ev
    # a suited bet: a king of a random suit, the average of the four suited removals
    pp = bets_from_names("perfect_pairs")
    r = effects_of_removal(DEPLETED, pp, by="rank")
    suits = DEPLETED.suits
    assert suits is not None
    kings = [(s, suits[48 + s]) for s in range(4)]
    n = sum(m for _, m in kings)
    expected = (
        sum(
            (Fraction(m, n) * punto_banco(DEPLETED.remove(["K" + "SHDC"[s]]), bets=pp).bets[0].ev for s, m in kings if m),
            Fraction(0),
        )
        - punto_banco(DEPLETED, bets=pp).bets[0].ev
    )
    assert next(x.effect for x in r.bet("perfect_pairs").removals if x.card == "K") == expected


def test_by_value_merges_the_ranks() -> None:
    by_rank = effects_of_removal(Shoe.decks(8), bets_from_names("dragon7"), by="rank").bet("dragon7")
    by_value = effects_of_removal(Shoe.decks(8), bets_from_names("dragon7"), by="value").bet("dragon7")
    effect = {x.card: x.effect for x in by_rank.removals}
    assert {x.card: x.effect for x in by_value.removals}["T"] == effect["10"] == effect["K"]
    assert {x.card: x.effect for x in by_value.removals}["7"] == effect["7"]


def tags_a_to_t(bet: str) -> tuple[int, ...]:
    r = effects_of_removal(Shoe.decks(8), bets_from_names(bet), by="value", level=2).bet(bet)
    tag = dict(zip((x.card for x in r.removals), r.tags))
    return tuple(tag[c] for c in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T"))


def test_big_tiger_count_j_bt() -> None:
    assert tags_a_to_t("big_tiger") == (0, 0, -1, -1, -1, -2, 1, 2, 2, 0)  # [J-BT]
    r = effects_of_removal(Shoe.decks(8), bets_from_names("big_tiger"), by="value").bet("big_tiger")
    assert r.imbalance == 0 and r.betting_correlation_sign == 1
    assert sqrt_str(r.betting_correlation_squared, 3) == "0.981"  # [J-BT]


def test_dragon7_count_j_d7() -> None:
    assert tags_a_to_t("dragon7") == (0, 0, 0, -1, -1, -1, -1, 2, 2, 0)  # [J-D7]


def test_sampled_correlation_is_reproducible() -> None:
    a = effects_of_removal(Shoe.decks(8), bets_from_names("big_tiger"), by="value", samples=60, seed=3)
    b = effects_of_removal(Shoe.decks(8), bets_from_names("big_tiger"), by="value", samples=60, seed=3)
    assert a.bet("big_tiger").count_correlation == b.bet("big_tiger").count_correlation
    assert 0.5 < a.bet("big_tiger").count_correlation < 1  # type: ignore[operator]


def test_rounding_rule_and_errors() -> None:
    assert round_tags([Fraction(1, 4), Fraction(-1, 2)], 1) == (1, -1)  # 1/2 rounds away from zero
    assert round_tags([Fraction(0)] * 3) == (0, 0, 0)
    with pytest.raises(InputError, match="level"):
        round_tags([Fraction(1)], 0)
    with pytest.raises(ModelError, match="finite"):
        effects_of_removal(Shoe.infinite(), bets_from_names("dragon7"))
    with pytest.raises(ModelError, match="ranks"):
        effects_of_removal(Shoe.decks(8).remove(["0"]), bets_from_names("dragon7"), by="rank")
