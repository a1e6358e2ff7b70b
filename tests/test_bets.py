"""The bet machinery: two exact routes agree, the first cards' law against brute force, breakdowns,
conditions, the catalogue's names and families, user bet files and their errors, suits."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Shoe
from solver.deal.weights import denominator
from solver.errors import BaccaratError, InputError, ModelError, ShoeError
from solver.punto import (
    Bet,
    Condition,
    Tier,
    bet_from_name,
    bets_from_names,
    catalogue,
    compile_bets,
    first_cards_law,
    punto_banco,
    read_bet_file,
    reference_results,
    sqrt_str,
)

COUP_BETS = tuple(b for b in catalogue() if not b.first_cards)


def assert_same(a, b) -> None:
    assert [(r.name, r.ev, r.tiers) for r in a] == [(r.name, r.ev, r.tiers) for r in b]


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=0, max_size=60))
def test_compiled_route_equals_reference_route(removed: list[int]) -> None:
    """The compiled sums, in plain Python integers and in numpy, against the outcome table row by row."""
    shoe = Shoe.decks(2).remove(str(("A", 2, 3, 4, 5, 6, 7, 8, 9, "T", "J", "Q", "K")[r]) for r in removed)
    reference = reference_results(COUP_BETS, shoe)
    for route in ("plain", "numpy"):
        compiled, winners, d = compile_bets(COUP_BETS).results(shoe, route)
        assert_same(compiled, reference)
        assert sum(winners) == d


@pytest.mark.parametrize(
    "shoe", [Shoe.infinite(), Shoe.decks(40), Shoe.decks(3000), Shoe.from_values((6, 1, 0, 0, 0, 0, 0, 0, 0, 0))]
)
def test_routes_agree_on_edge_shoes(shoe: Shoe) -> None:
    """Among them a shoe whose denominator passes 2^63 (numpy then sums Python integers)."""
    compiled = compile_bets(COUP_BETS)
    plain, numpy_route = compiled.key_weights(shoe, "plain"), compiled.key_weights(shoe, "numpy")
    assert plain == numpy_route and sum(plain) == denominator(shoe)
    assert_same(compiled.results(shoe, "plain")[0], reference_results(COUP_BETS, shoe))
    with pytest.raises(ValueError, match="unknown route"):
        compiled.key_weights(shoe, "float")


def test_breakdown_is_a_law() -> None:
    for r in punto_banco(Shoe.decks(8), bets=catalogue()).bets:
        assert sum(t.probability for t in r.tiers) == 1
        assert sum(t.contribution for t in r.tiers) == r.ev
        assert r.win + r.lose + r.push == 1
        assert r.variance == sum(t.pays**2 * t.probability for t in r.tiers) - r.ev**2 >= 0
        if r.push:
            assert r.edge_excluding_pushes == r.edge / (1 - r.push)
        assert r.element_of_risk == r.edge


def test_banker_edge_excluding_ties() -> None:
    r = punto_banco(Shoe.decks(8))
    b = r.bet("banker")
    assert b.edge_excluding_pushes == -(Fraction(19, 20) * r.banker - r.player) / (r.banker + r.player)
    assert r.bet("tie_8to1").edge_excluding_pushes is None


def test_sqrt_str_is_exactly_rounded() -> None:
    assert sqrt_str(Fraction(2), 6) == "1.414214" and sqrt_str(Fraction(0), 2) == "0.00"
    assert sqrt_str(Fraction(9, 4), 0) == "2"  # 1.5 rounds half up
    for x in (Fraction(42503, 1000), Fraction(1, 3), Fraction(10**6 + 1)):
        s = sqrt_str(x, 9)
        lo, hi = Fraction(s) - Fraction(1, 2 * 10**9), Fraction(s) + Fraction(1, 2 * 10**9)
        assert lo * lo <= x <= hi * hi


# -- the first cards ----------------------------------------------------------------------------------


def brute_first_cards(cards: list[tuple[int, int]]) -> Counter[tuple[int, int]]:
    """Every ordered four distinct physical cards (rank, suit): the classes of (P1, P2) and (B1, B2)."""
    law: Counter[tuple[int, int]] = Counter()
    for p1, b1, p2, b2 in itertools.permutations(range(len(cards)), 4):

        def cls(a: int, b: int) -> int:
            return int(cards[a][0] == cards[b][0]) | 2 * int(cards[a][1] == cards[b][1])

        law[cls(p1, p2), cls(b1, b2)] += 1
    return law


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=6, max_size=11))
def test_first_cards_law_equals_brute_force(picks: list[int]) -> None:
    suits = [picks.count(t) for t in range(52)]
    shoe = Shoe.from_suits(suits)
    cards = [(t // 4, t % 4) for t in picks]
    law = first_cards_law(shoe)
    assert law.denominator == len(cards) * (len(cards) - 1) * (len(cards) - 2) * (len(cards) - 3)
    assert +Counter(law.weights) == +brute_first_cards(cards)
    ranks_only = first_cards_law(shoe, suits=False)
    for p in (0, 1):
        for b in (0, 1):
            assert ranks_only.weights[p, b] == sum(w for (x, y), w in law.weights.items() if (x & 1, y & 1) == (p, b))


def test_first_cards_with_replacement_are_independent() -> None:
    law = first_cards_law(Shoe.infinite())
    pair = Fraction(4, 52)  # same rank (any suit) dealing with replacement from 52 equally likely cards
    perfect = Fraction(1, 52)
    assert law.probability(lambda p, b: p & 1 and b & 1) == pair * pair
    assert law.probability(lambda p, b: p == 3 and b == 3) == perfect * perfect


def test_suits_follow_the_shoe() -> None:
    eight = Shoe.decks(8)
    assert eight.suits == (8,) * 52
    assert eight.remove(["KS"]).suits[48:] == (7, 8, 8, 8)
    assert eight.remove(["K"]).suits is None  # a king of unknown suit: the suits are unknown
    assert Shoe.from_ranks([5] * 13).suits is None and Shoe.from_ranks([4] * 13).suits == (1,) * 52
    with pytest.raises(ShoeError, match="no KC"):
        Shoe.from_suits([1] * 51 + [0]).remove(["KC", "KC"])
    with pytest.raises(ModelError, match="suits"):
        punto_banco(eight.remove(["K"]), bets=bets_from_names("perfect_pairs"))
    r = punto_banco(eight.remove(["K"]), bets=catalogue(), skip_unsettled=True)
    assert ("perfect_pairs", "the shoe's suits are unknown") in r.omitted
    assert r.bet("either_pair").win > 0


def test_a_suited_removal_changes_perfect_pairs_exactly() -> None:
    shoe = Shoe.decks(2).remove(["AS"])  # one ace of spades left
    suits = shoe.suits
    assert suits is not None and suits[0] == 1
    n = shoe.size
    lines = {t.label: t.probability for t in punto_banco(shoe, bets=bets_from_names("perfect_pairs")).bet("perfect_pairs").tiers}
    # The player's first two cards are any two positions of the shoe: sum over the 52 kinds of card.
    assert lines["player perfect pair"] == Fraction(sum(m * (m - 1) for m in suits), n * (n - 1))


# -- conditions, names, files --------------------------------------------------------------------------


def test_condition_values_and_errors() -> None:
    c = Condition.of(winner=("banker", "tie"), player_third_card="none")
    assert repr(c) == "Condition(winner=banker|tie, player_third_card=none)"
    with pytest.raises(InputError, match="unknown event"):
        Condition.of(winer="banker")
    with pytest.raises(InputError, match="expected one of"):
        Condition.of(banker_total=10)
    with pytest.raises(InputError, match="not both"):
        Condition.of(winner="banker", banker_pair=True)
    with pytest.raises(ModelError, match="not both"):
        Bet("mixed", "", (Tier(1, Condition.of(winner="banker")), Tier(1, Condition.of(banker_pair=True))))
    with pytest.raises(ModelError, match="at least 0"):
        Tier(-1, Condition.of(winner="banker"))


def test_names_and_families() -> None:
    r = punto_banco(Shoe.decks(8), bets=bets_from_names("tie:9,tie_9to1,banker:4%,banker_4pct,tie_on_7:45,dragon7:40"))
    assert r.bet("tie:9").ev == r.bet("tie_9to1").ev
    assert r.bet("banker:4%").ev == r.bet("banker_4pct").ev
    assert r.bet("dragon7:40").ev == punto_banco(Shoe.decks(8)).bet("dragon7").ev
    tie7 = r.bet("tie_on_7:45")
    assert tie7.win < r.tie and tie7.ev == 46 * tie7.win - 1
    with pytest.raises(InputError, match="unknown bet 'nope'; catalogued bets: banker"):
        bet_from_name("nope")
    with pytest.raises(InputError, match="at least 0"):
        bet_from_name("tie:-1")
    assert len({b.name for b in catalogue()}) == len(catalogue())


TOML = """
[[bet]]
name = "tie_on_7"
description = "Tie on 7, pays 45 to 1"

[[bet.tier]]
pays = 45
when = { winner = "tie", banker_total = 7 }

[[bet]]
name = "stingy_bonus"

[[bet.tier]]
pays = 0.5
label = "natural win"
when = { winner = "player", natural = true }

[[bet.tier]]
pays = "3/2"
when = { winner = "player", margin = [8, 9], player_third_card = [0, 9] }

[[bet]]
name = "twins"

[[bet.tier]]
pays = 100
when = { player_perfect_pair = true, banker_perfect_pair = true }
"""


def test_bet_file_toml_and_json_agree(tmp_path) -> None:
    t = tmp_path / "bets.toml"
    t.write_text(TOML)
    bets = read_bet_file(t)
    assert [b.name for b in bets] == ["tie_on_7", "stingy_bonus", "twins"]
    assert bets[1].tiers[0].pays == Fraction(1, 2) and bets[1].tiers[1].pays == Fraction(3, 2)
    assert bets[1].description.startswith("natural win: 1/2 to 1;")
    j = tmp_path / "bets.json"
    j.write_text(
        json.dumps({"bet": [{"name": "tie_on_7", "tier": [{"pays": 45, "when": {"winner": "tie", "banker_total": 7}}]}]})
    )
    r = punto_banco(Shoe.decks(8), bets=bets + read_bet_file(j)[:0])
    assert r.bet("tie_on_7").ev == punto_banco(Shoe.decks(8), bets=read_bet_file(j)).bet("tie_on_7").ev
    assert r.bet("tie_on_7").ev == punto_banco(Shoe.decks(8), bets=bets_from_names("tie_on_7:45")).bet("tie_on_7:45").ev
    assert r.bet("twins").win == first_cards_law(Shoe.decks(8)).probability(lambda p, b: p == 3 and b == 3)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[[bet]]\nname = "x"\n[[bet.tier]]\npays = -1\nwhen = { winner = "tie" }\n',
            "bet[1].tier[1].pays: a payout must be at least 0",
        ),
        ('[[bet]]\nname = "x"\n[[bet.tier]]\npays = 5\nwhen = { winnr = "tie" }\n', "bet[1].tier[1].when.winnr: unknown event"),
        (
            '[[bet]]\nname = "x"\n[[bet.tier]]\npays = 5\nwhen = { banker_total = 12 }\n',
            "bet[1].tier[1].when.banker_total: expected one of",
        ),
        ('[[bet]]\nname = "x"\n[[bet.tier]]\nwhen = { winner = "tie" }\n', "bet[1].tier[1].pays: missing"),
        ('[[bet]]\nname = "x"\n[[bet.tier]]\npays = 5\nodds = 3\n', "bet[1].tier[1].odds: unknown key"),
        ('[[bet]]\nname = "x"\n', "bet[1].tier: expected a list"),
        ('[[bet]]\nname = "banker"\n[[bet.tier]]\npays = 1\n', "bet[1].name: 'banker' is already taken"),
        (
            '[[bet]]\nname = "x"\n[[bet.tier]]\npays = 1\nwhen = { winner = "tie" }\n[[bet.tier]]\npays = 1\n'
            "when = { banker_pair = true }\n",
            "bet[1].tier: bet x: a pay table reads",
        ),
        ('[[bet]]\nname = "x"\n[[bet.tier]]\npays = "lots"\n', "bet[1].tier[1].pays must be a number"),
        ('[[bets]]\nname = "x"\n', "bets: unknown key"),
        ("[[bet]\n", "not valid TOML"),
    ],
)
def test_bet_file_errors_name_the_key(tmp_path, text: str, message: str) -> None:
    p = tmp_path / "bets.toml"
    p.write_text(text)
    with pytest.raises(InputError) as e:
        read_bet_file(p, reserved=tuple(b.name for b in catalogue()))
    assert message in str(e.value) and str(p) in str(e.value)


def test_bet_file_unreadable() -> None:
    with pytest.raises(BaccaratError, match="cannot read"):
        read_bet_file("/nonexistent/bets.toml")
