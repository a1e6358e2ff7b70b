"""The Shoe: construction, parsing of what users type, and validation."""

from __future__ import annotations

import pytest

from solver.cards import Shoe, card_token, parse_decks, parse_shoe, shoe_from_spec
from solver.errors import ShoeError


def test_decks_by_rank_and_value() -> None:
    s = Shoe.decks(6)
    assert s.ranks == (24,) * 13 and s.values == (96,) + (24,) * 9 and s.size == 312
    assert s.full_decks == 6 and s.label() == "6 decks"


def test_thirteen_counts_are_ranks_ten_counts_are_values() -> None:
    by_rank = parse_shoe(shoe="4,4,4,4,4,4,4,4,4,4,4,4,4")
    assert by_rank == Shoe.decks(1)
    by_value = parse_shoe(shoe="16,4,4,4,4,4,4,4,4,4")
    assert by_value.values == by_rank.values and by_value.ranks is None


def test_remove_by_rank_keeps_ranks_zero_forgets_them() -> None:
    s = Shoe.decks(8).remove(["K", "K", "A"])
    assert s.ranks is not None and s.ranks[12] == 30 and s.ranks[0] == 31 and s.values[0] == 126
    t = Shoe.decks(8).remove(["0"])
    assert t.ranks is None and t.values[0] == 127


def test_tokens() -> None:
    assert card_token("T") == card_token("10") == (9, 0)
    assert card_token(" q ") == (11, 0)
    with pytest.raises(ShoeError, match="unknown card"):
        card_token("11")


@pytest.mark.parametrize("bad", ["0", "-2", "x", "1,,2", "2.5"])
def test_bad_deck_counts(bad: str) -> None:
    with pytest.raises(ShoeError):
        parse_decks(bad)


def test_removal_beyond_the_shoe() -> None:
    with pytest.raises(ShoeError, match="no K is left"):
        Shoe.decks(1).remove(["K"] * 5)


def test_spec_round_trip() -> None:
    for s in (Shoe.decks(3), Shoe.infinite(), Shoe.decks(2).remove(["0", "5"]), Shoe.decks(1).remove(["Q"])):
        assert shoe_from_spec(s.spec()) == s


def test_shoes_are_values() -> None:
    assert Shoe.decks(2) == Shoe.decks(2) and hash(Shoe.decks(2)) == hash(Shoe.decks(2))
    with pytest.raises(AttributeError):
        Shoe.decks(2).values = (1,) * 10  # type: ignore[misc]
