"""Every public result as data (solver.report.views; docs/api.md, "Results as data"): to_dict is the JSON
the command prints, to_frame the CSV as a DataFrame with exact columns, and every result says how it was
obtained (solver.exact.result.Result) in a short repr."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from solver import (
    BanqueModel,
    InputError,
    Result,
    Shoe,
    bets_from_names,
    build_game,
    punto_banco,
    solve,
    solve_banque,
    to_dict,
    to_frame,
)
from solver.cli import main


def _cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert isinstance(doc, dict)
    return doc


def test_to_dict_is_what_the_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    # a command of several results lists them under "results", each the dict to_dict gives
    (printed,) = _cli_json(["punto", "--decks", "6", "--bets", "banker,player,dragon7", "--format", "json"], capsys)["results"]
    mine = to_dict(punto_banco(Shoe.decks(6), bets=bets_from_names("banker,player,dragon7")))
    assert printed == mine
    (printed,) = _cli_json(["chemin", "--decks", "inf", "--format", "json"], capsys)["results"]
    assert printed == to_dict(solve(build_game(Shoe.infinite(), 1, "casino")))
    report = _cli_json(["report", "--decks", "inf", "--commission", "0", "--banque", "off", "--format", "json"], capsys)
    from solver import full_report

    mine = to_dict(full_report(Shoe.infinite(), Shoe.infinite(), commission=0, banque="off"))
    assert {k: v for k, v in report.items() if k not in ("tool", "command")} == mine


def test_every_game_answer_says_how_it_was_obtained() -> None:
    answers = [
        punto_banco(Shoe.decks(8)),
        solve(build_game(Shoe.infinite(), 1, "casino")),
        solve_banque(Shoe.infinite(), BanqueModel(1, "blind", "casino"), Fraction(1, 2), "nash"),
    ]
    for a, shoe in zip(answers, ("8 decks", "inf", "inf")):
        assert isinstance(a, Result), type(a).__name__
        assert a.exact is True and a.certified is True and a.method
        assert a.parameters["shoe"] == shoe  # the shoe's label, as chemin de fer's Solution gives it
        assert len(repr(a)) < 200, repr(a)
    banque = answers[2]
    assert banque.parameters["theta"] == "1/2" and banque.parameters["concept"] == "nash"  # type: ignore[attr-defined]
    assert repr(banque) == "BanqueSolution(nash at theta 1/2, A1 blind casino on inf: banker 0.8695 %, certified, unique)"
    assert repr(answers[0]).startswith("PuntoResult(8 decks: house edge banker 1.0579 %, player 1.2351 %")


def test_to_frame_keeps_exact_columns_exact() -> None:
    pytest.importorskip("pandas", reason="pandas is an optional view (the 'pandas' extra)")
    r = punto_banco(Shoe.decks(8))
    frame = to_frame(r)
    assert list(frame.columns) == ["shoe", "item", "exact", "decimal"]
    assert frame[frame["item"] == "P(banker)"]["exact"].iloc[0] == r.banker
    assert all(isinstance(v, Fraction) or v is None for v in frame["exact"])  # exact, or an empty cell
    assert all(isinstance(v, str) for v in frame["item"])


def test_a_result_without_a_view_is_one_clear_error() -> None:
    with pytest.raises(InputError, match="no view of a Shoe"):
        to_dict(Shoe.decks(8))
