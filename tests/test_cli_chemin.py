"""The `baccarat chemin` command: JSON fields, deck lists, and one-line errors."""

from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import json_result


def test_json_fields_kemeny_snell(cli) -> None:
    r = cli(["chemin", "--decks", "inf", "--information", "1", "--freedom", "parlor", "--format", "json"])
    assert r.code == 0
    data = json_result(r.out)
    assert data["ponte"] == {"5": "9/11"}
    assert data["certified"] is True
    assert Fraction(data["value"]) == Fraction(679568, 53094899)
    assert data["banker"]["6/S"] == "859/2288"
    assert data["model"]["name"] == "A1"
    assert data["unique"] == {"ponte": True, "banker": True}


def test_json_keys_information_3(cli) -> None:
    data = json_result(cli(["chemin", "--decks", "6", "--information", "3", "--freedom", "parlor", "--format", "json"]).out)
    assert set(data["ponte"]) == {"0+5", "1+4", "2+3", "6+9", "7+8"}
    assert "0+6/S" in data["banker"] and len(data["banker"]) == 484


def test_commission_fields(cli) -> None:
    data = json_result(cli(["chemin", "--decks", "6", "--commission", "0.05", "--format", "json"]).out)
    assert data["value"] == data["banker_payoff"]
    assert Fraction(data["ponte_payoff"]) < 0
    assert data["model"]["commission"] == "1/20"


def test_deck_list_one_row_per_shoe(cli) -> None:
    r = cli(["chemin", "--decks", "1,2,3,4,5,6,7,8,inf", "--information", "2", "--freedom", "parlor"])
    assert r.code == 0
    assert len([line for line in r.out.splitlines() if "B2 parlor" in line or "A2 parlor" in line]) == 9


def test_text_report_shows_the_tableau(cli) -> None:
    out = cli(["chemin", "--decks", "6", "--freedom", "parlor"]).out
    assert "banker's tableau" in out and "certified: yes" in out
    assert "m at 6/S" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["chemin", "--commission", "0.2"], "[0, 1/10]"),
        (["chemin", "--commission", "-0.01"], "[0, 1/10]"),
        (["chemin", "--information", "4"], "invalid choice"),
        (["chemin", "--freedom", "club"], "invalid choice"),
        (["chemin", "--shoe", "2,1,1,0,0,0,0,0,0,0"], "at least 6 cards"),
    ],
)
def test_bad_input(cli, argv: list[str], message: str) -> None:
    r = cli(argv)
    assert r.code == 2 and r.out == ""
    assert r.err.count("\n") == 1 and message in r.err
