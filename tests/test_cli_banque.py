"""``baccarat banque``: the JSON fields the issue names, the θ syntax, formats, certificates, bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import json_results, run_cli

ROOT = Path(__file__).resolve().parents[1]
FIELDS = {"value", "theta", "concept", "player1_draw_at_5", "player2_draw_at_5", "banker", "exists", "certified", "unique"}


def _run(argv: list[str]) -> tuple[int, str, str]:
    r = run_cli(argv)
    return r.code, r.out, r.err


def _json_lines(out: str) -> list[dict]:
    return json_results(out)


def test_json_fields_for_every_concept() -> None:
    code, out, err = _run(["banque", "--decks", "inf", "--freedom", "casino", "--format", "json"])
    assert code == 0, err
    docs = _json_lines(out)
    assert [d["concept"] for d in docs] == ["nash", "correlated", "independent"]
    for d in docs:
        assert FIELDS <= set(d), FIELDS - set(d)
        assert d["theta"] == "1/2" and d["certified"] is True
    nash, corr, indep = docs
    assert nash["player1_draw_at_5"] == "1" and nash["unique"] is True  # dominance settles the casino game
    assert corr["value"] == "16655514960/1919414386513" and corr["banker"] == {"6/6/S": "5121/5792", "6/S/6": "5121/5792"}
    assert indep["exists"] is False and indep["value"] is None and "/" in indep["guarantee"]


def test_situations_are_keyed_when_player_2_sees_tableau_1() -> None:
    code, out, _ = _run(
        ["banque", "--decks", "inf", "--second-player", "sees-first", "--concept", "correlated", "--format", "json"]
    )
    (d,) = _json_lines(out)
    assert code == 0 and isinstance(d["player1_draw_at_5"], str)
    assert set(d["player2_draw_at_5"]) == {f"5/{s}" for s in "0123456789SN"}


def test_an_irrational_value_is_an_algebraic_object() -> None:
    code, out, _ = _run(
        [
            "banque",
            "--decks",
            "inf",
            "--freedom",
            "parlor",
            "--concept",
            "nash",
            "--theta",
            "1/20",
            "--format",
            "json",
            "--digits",
            "10",
        ]
    )
    (d,) = _json_lines(out)
    assert code == 0
    v = d["value"]
    assert set(v) == {"minimal_polynomial", "interval", "decimal"} and len(v["minimal_polynomial"]) == 3
    assert v["decimal"] == "0.0120073499"


def test_theta_lists_and_sweeps() -> None:
    code, out, _ = _run(["banque", "--decks", "inf", "--concept", "correlated", "--theta", "1/4..3/4/2,0.3", "--format", "csv"])
    rows = out.strip().splitlines()
    assert code == 0 and rows[0].startswith("shoe,information,second_player")
    assert [r.split(",")[5] for r in rows[1:]] == ["1/4", "1/2", "3/4", "3/10"]


def test_latex_and_text() -> None:
    code, out, _ = _run(["banque", "--decks", "inf", "--concept", "correlated", "--format", "latex"])
    assert code == 0 and out.startswith("\\begin{table}") and "0.8677\\,\\%" in out
    code, out, _ = _run(["banque", "--decks", "inf", "--concept", "correlated", "--digits", "4"])
    assert code == 0 and "16655514960/1919414386513 (0.0087)" in out and "certified: yes" in out


def test_certificate_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    code, _, err = _run(["banque", "--shoe", "3,1,0,2,1,0,2,1,1,0", "--concept", "correlated", "--certificate", str(path)])
    assert code == 0, err
    r = subprocess.run(
        [sys.executable, str(ROOT / "proofs" / "check.py"), str(path)], capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0 and r.stdout.startswith("OK") and "[optimal]" in r.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--theta", "1.5"], "theta (Player 1's share of the stake) must lie strictly between 0 and 1"),
        (["--theta", "0"], "must lie strictly between 0 and 1"),
        (["--theta", "1/4..1/2"], "a sweep of theta is written LO..HI/STEPS"),
        (["--tax", "0.2"], "the tax must lie in [0, 1/10]"),
        (["--tax", "1/50", "--concept", "independent"], "computed without a tax only"),
        (["--freedom", "house"], "invalid choice: 'house'"),
        (["--second-player", "peeks"], "invalid choice: 'peeks'"),
        (["--decks", "inf", "--information", "4"], "invalid choice: 4"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, out, err = _run(["banque", *args])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
