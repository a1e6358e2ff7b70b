"""The `baccarat punto` command: formats, batch mode, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from solver.cards import Shoe
from solver.punto import punto_banco


def test_json_carries_exact_probabilities(cli) -> None:
    r = cli(["punto", "--decks", "8", "--format", "json"])
    assert r.code == 0 and r.err == ""
    data = json.loads(r.out)
    assert data["probabilities"]["banker"] == "8954111587648/19524993263685"
    total = sum(Fraction(v) for v in data["probabilities"].values())
    assert total == 1
    banker = next(b for b in data["bets"] if b["name"] == "banker")
    assert Fraction(banker["edge"]) == punto_banco(Shoe.decks(8)).bet("banker").edge


def test_digits_adds_decimals(cli) -> None:
    data = json.loads(cli(["punto", "--format", "json", "--digits", "6"]).out)
    assert data["probabilities_decimal"]["tie"] == "0.095156"
    assert next(b for b in data["bets"] if b["name"] == "banker")["edge_decimal"] == "0.010579"


def test_remove_matches_the_library(cli) -> None:
    data = json.loads(cli(["punto", "--remove", "5,5,K,0,9", "--format", "json"]).out)
    expect = punto_banco(Shoe.decks(8).remove(["5", "5", "K", "0", "9"]))
    assert Fraction(data["probabilities"]["player"]) == expect.player
    assert data["shoe"]["values"][0] == 126


def test_deck_list_prints_one_row_per_shoe(cli) -> None:
    r = cli(["punto", "--decks", "1,2,inf", "--bets", "banker,player,tie_8to1"])
    rows = [line for line in r.out.splitlines() if line.startswith(("1 deck", "2 decks", "inf"))]
    assert len(rows) == 3


def test_deck_list_with_the_whole_catalogue_prints_one_column_per_shoe(cli) -> None:
    r = cli(["punto", "--decks", "1,2,inf"])
    lines = r.out.splitlines()
    assert lines[1].split() == ["1", "deck", "2", "decks", "inf"]
    rows = [line.split()[1:] for line in lines[2:] if line.startswith("  ")]
    assert len(rows) == 3 + len(json.loads(cli(["punto", "--format", "json"]).out)["bets"])  # every bet
    assert all(len(v) == 3 for v in rows) and max(map(len, lines)) <= 100


def test_csv(cli) -> None:
    lines = cli(["punto", "--decks", "6", "--format", "csv"]).out.splitlines()
    assert lines[0] == "shoe,item,exact,decimal"
    assert lines[1].startswith("6 decks,P(banker),")


def test_batch_one_json_line_per_shoe(cli) -> None:
    text = "# seen so far\n--decks 8 --remove 5,5\n\n--shoe 4,1,1,1,1,1,1,1,1,1\n--decks 6\n"
    r = cli(["punto", "--shoes", "-"], stdin=text)
    assert r.code == 0
    records = [json.loads(line) for line in r.out.splitlines()]
    assert [rec["line"] for rec in records] == [2, 4, 5]
    assert Fraction(records[2]["probabilities"]["banker"]) == punto_banco(Shoe.decks(6)).banker


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["punto", "--decks", "0"], "positive whole number"),
        (["punto", "--decks", "x"], "positive whole number"),
        (["punto", "--shoe", "1,2,3"], "10 counts by point value or 13 by rank"),
        (["punto", "--shoe", "1,1,1,1,1,0,0,0,0,0"], "at least 6 cards"),
        (["punto", "--shoe=-1,8,8,8,8,8,8,8,8,8"], "must not be negative"),
        (["punto", "--remove", "Z"], "unknown card"),
        (["punto", "--shoe", "6,0,0,0,0,0,0,0,0,1", "--remove", "9,9"], "no card of value 9"),
        (["punto", "--decks", "inf", "--remove", "5"], "infinite"),
        (["punto", "--decks", "8", "--shoe", "1,1,1,1,1,1,1,1,1,1"], "not both"),
        (["punto", "--commission", "abc"], "commission"),
        (["punto", "--format", "xml"], "invalid choice"),
        (["punto", "--shoes", "/nonexistent/file"], "cannot read"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, argv: list[str], message: str) -> None:
    r = cli(argv)
    assert r.code == 2
    assert r.out == ""
    assert r.err.count("\n") == 1 and message in r.err


def test_batch_names_the_bad_line(cli) -> None:
    r = cli(["punto", "--shoes", "-"], stdin="--decks 8\n--decks 8 --remove Q,X\n")
    assert r.code == 2 and r.out == ""
    assert "line 2" in r.err and "unknown card" in r.err


def test_help_explains_every_option() -> None:
    for argv in (["--help"], ["punto", "--help"]):
        out = subprocess.run([sys.executable, "-m", "solver.cli", *argv], capture_output=True, text=True, check=True).stdout
        assert "example" in out
    out = subprocess.run([sys.executable, "-m", "solver.cli", "punto", "--help"], capture_output=True, text=True).stdout
    for option in ("--decks", "--shoe", "--remove", "--format", "--digits", "--shoes", "--commission"):
        assert option in out


def test_pricing_a_shoe_from_the_cache_does_without_numpy(tmp_path) -> None:
    """Once the catalogue is compiled into the disk cache, ``baccarat punto`` reads it back and prices the
    shoe in plain Python integers (solver.deal.weights): the process never imports numpy, whose import alone
    costs more than the rest of the command (docs/benchmarks.md). The same numbers as the library."""
    env = {**__import__("os").environ, "BACCARAT_CACHE": str(tmp_path)}
    script = (
        "import json, sys\nfrom solver.cli import main\nsys.stdout = open(sys.argv[1], 'w')\n"
        "main(['punto', '--decks', '6', '--remove', '5,5,KS', '--format', 'json'])\n"
        "sys.stdout.close(); sys.stdout = sys.__stdout__\nprint(json.dumps('numpy' in sys.modules))"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", script, str(tmp_path / f"out{i}.json")], env=env, capture_output=True, text=True, check=True
        )
        for i in range(2)
    ]
    assert [json.loads(r.stdout) for r in runs] == [True, False]  # built with numpy, then read back without
    first, second = ((tmp_path / f"out{i}.json").read_text() for i in range(2))
    assert first == second
    data = json.loads(second)
    expected = punto_banco(Shoe.decks(6).remove(["5", "5", "KS"]), bets=(), skip_unsettled=True)
    assert Fraction(data["probabilities"]["banker"]) == expected.banker
    assert {b["name"] for b in data["bets"]} >= {"either_pair", "dragon_bonus_banker", "big_tiger"}


def test_version_without_loading_the_commands() -> None:
    """``baccarat --version`` answers as argparse would, before any command (or numpy) is imported."""
    from solver import __version__

    script = "import sys\nfrom solver.cli import main\ncode = main(['--version'])\nprint(code, 'numpy' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert r.stdout.splitlines() == [f"baccarat {__version__}", "0 False"]


def test_a_long_batch_sums_with_numpy_and_a_short_one_without(tmp_path) -> None:
    """``--shoes`` takes numpy's vectorised sums from BATCH_NUMPY lines on (its import then pays back);
    the JSON lines are the same either way."""
    from solver.cli.punto import BATCH_NUMPY

    env = {**__import__("os").environ, "BACCARAT_CACHE": str(tmp_path / "cache")}
    lines = [f"--decks 2 --remove {','.join(str(1 + (k + i) % 9) for i in range(k % 5 + 1))}" for k in range(BATCH_NUMPY)]
    script = (
        "import io, json, sys\nfrom solver.cli import main\n"
        "lines = sys.argv[1:]\nsys.stdin = io.StringIO('\\n'.join(lines))\n"
        "out, sys.stdout = sys.stdout, io.StringIO()\n"
        "main(['punto', '--shoes', '-', '--bets', 'banker,dragon7,player_pair'])\n"
        "text, sys.stdout = sys.stdout.getvalue(), out\nprint(json.dumps(['numpy' in sys.modules, text]))"
    )
    subprocess.run([sys.executable, "-c", script, lines[0]], env=env, check=True, capture_output=True)  # fill the cache
    short, long = (
        json.loads(
            subprocess.run([sys.executable, "-c", script, *chosen], env=env, check=True, capture_output=True, text=True).stdout
        )
        for chosen in (lines[:3], lines)
    )
    assert short[0] is False and long[0] is True
    assert long[1].splitlines()[:3] == short[1].splitlines()
