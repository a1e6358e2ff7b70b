"""House rules as data (solver.rules.house): the named sheets, files, validation, and the games they define."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from solver.cards import Shoe
from solver.chemin.game import build_game
from solver.chemin.solve import solve
from solver.errors import InputError, ModelError
from solver.punto import punto_banco
from solver.rules.house import HOUSES, SIMPLIFIED, house_rules, read_house_rules
from solver.rules.tableau import CHEMIN_CASINO, STOOD, Action
from solver.strategy import format_infoset


def test_simplified_sheet_says_what_the_house_says() -> None:
    # The seed casino's sheet: banker with 5 draws against 5, 6, 7 or a standing ponte and stands
    # against everything else (no choice at 4); free at 3 against 9; otherwise the casino sheet.
    t = SIMPLIFIED.tableau
    assert [t.banker_action(5, s) for s in (5, 6, 7, STOOD)] == [Action.DRAW] * 4
    assert all(t.banker_action(5, s) is Action.STAND for s in (0, 1, 2, 3, 4, 8, 9))
    assert t.free_banker_cells() == ((3, 9),) and t.free_player_totals() == (5,)
    assert all(t.banker[k] == CHEMIN_CASINO.banker[k] for k in (0, 1, 2, 3, 4, 6, 7))
    assert SIMPLIFIED.commission == 0 and SIMPLIFIED.tie_pays == 1


def test_simplified_game_is_the_casino_game_with_5_against_4_standing() -> None:
    # Two enumerations under two tableaux: the simplified game's payoff form must be the casino game's
    # with the banker's 5/4 cell fixed at stand, coefficient by coefficient.
    shoe = Shoe.decks(2)
    simple = build_game(shoe, 1, SIMPLIFIED.tableau)
    casino = build_game(shoe, 1, "casino")
    assert [format_infoset(k) for k in simple.banker_sets] == ["3/9"]
    assert [format_infoset(k) for k in casino.banker_sets] == ["3/9", "5/4"]
    for a, b in ((simple.win, casino.win), (simple.loss, casino.loss)):
        assert a.denominator == b.denominator and a.c0 == b.c0
        assert list(a.a) == list(b.a) and list(a.b) == [b.b[0]] and a.G[0][0] == b.G[0][0]
    s = solve(simple)
    assert s.certified and s.unique_ponte and s.unique_banker
    c = solve(casino)
    # A free choice at 5 against 4 is worth something to the banker exactly when he uses it.
    assert c.value >= s.value and (c.value == s.value) == (c.r[1] == 0)


def test_sheets_round_trip_through_json_and_toml(tmp_path: Path) -> None:
    for house in HOUSES.values():
        p = tmp_path / f"{house.name}.json"
        p.write_text(json.dumps(house.as_dict()))
        back = read_house_rules(p)
        assert (back.tableau.player, back.tableau.banker) == (house.tableau.player, house.tableau.banker)
        assert (back.commission, back.tie_pays) == (house.commission, house.tie_pays)
    toml = tmp_path / "mine.toml"
    rows = "\n".join(f'{t} = "{"".join(a.value for a in row)}"' for t, row in enumerate(CHEMIN_CASINO.banker))
    toml.write_text(
        'commission = "1/20"\ntie_pays = 8\n[player]\n'
        + "\n".join(f'{t} = "{a.name.lower()}"' for t, a in enumerate(CHEMIN_CASINO.player))
        + f"\n[banker]\n{rows}\n[banker.5]\n"
        + "\n".join(f'{c} = "stand"' for c in range(10))
        + '\nstood = "draw"\n'
    )
    with pytest.raises(InputError, match="not valid TOML"):  # a total given twice (row and table)
        house_rules(str(toml))
    toml.write_text(toml.read_text().replace('5 = "SSSSFDDDSSD"\n', ""))
    h = house_rules(str(toml))
    assert h.name == "mine" and h.commission == Fraction(1, 20) and h.tie_pays == 8
    assert h.tableau.banker_action(5, 4) is Action.STAND and h.tableau.banker_action(5, STOOD) is Action.DRAW


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["player"].pop("3"), "player total 3: missing"),
        (lambda d: d["banker"].update({"4": "SSDDDDDDSS"}), "banker total 4: a row of letters needs 11"),
        (lambda d: d["banker"].update({"6": "SSSSSSDXSSS"}), "banker total 6, the player's third card 7: unknown action 'X'"),
        (lambda d: d["banker"].update({"2": {str(c): "draw" for c in range(10)}}), "banker total 2, the player stood: missing"),
        (lambda d: d["player"].update({"5": "maybe"}), "player total 5: unknown action 'maybe'"),
        (lambda d: d.update({"tie_pays": "1/2"}), "tie_pays must be a whole number"),
        (lambda d: d.update({"commission": 0.05}), "floats are not exact"),
        (lambda d: d.update({"colour": "red"}), "unknown key 'colour'"),
    ],
)
def test_bad_sheets_name_the_cell(change, message: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = HOUSES["casino"].as_dict()
    change(data)
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data))
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace("'", "'")):
        read_house_rules(p)


def test_unknown_sheet_and_unsupported_freedom() -> None:
    with pytest.raises(InputError, match="neither a named sheet"):
        house_rules("casino.txt")
    free_at_4 = CHEMIN_CASINO.with_player({4: Action.FREE})
    with pytest.raises(ModelError, match="player total 4"):
        build_game(Shoe.decks(1), 1, free_at_4.__class__("house", free_at_4.player, free_at_4.banker))
    with pytest.raises(ModelError, match="leaves player total 5 free"):
        punto_banco(Shoe.decks(8), tableau=SIMPLIFIED.tableau)


def test_tie_paying_even_money_on_a_fixed_sheet() -> None:
    r = punto_banco(Shoe.decks(8), tableau=HOUSES["punto"].tableau, tie_pays=(1,))
    assert r.bet("tie_1to1").ev == 2 * r.tie - 1
    assert r.bet("banker").ev == punto_banco(Shoe.decks(8)).bet("banker").ev
