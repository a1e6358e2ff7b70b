"""The commands of the side-bet catalogue: `baccarat punto --bets/--bet/--breakdown`, `baccarat eor`,
`baccarat count`; their formats, and bad input as one line with exit code 2."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from conftest import json_result

from solver.punto import catalogue_names


def test_punto_prices_the_catalogue_by_default(cli) -> None:
    data = json_result(cli(["punto", "--format", "json"]).out)
    assert [b["name"] for b in data["bets"]] == list(catalogue_names())
    for b in data["bets"]:
        assert sum(Fraction(t["return"]) for t in b["tiers"]) == Fraction(b["ev"])
        assert sum(Fraction(t["probability"]) for t in b["tiers"]) == 1
        assert Fraction(b["element_of_risk"]) == Fraction(b["edge"])
        assert float(b["sd_decimal"]) ** 2 == pytest.approx(float(Fraction(b["variance"])), rel=1e-5)
    assert data["omitted"] == []


def test_punto_selects_and_breaks_down(cli) -> None:
    r = cli(["punto", "--bets", "big_tiger,tie_on_7:45", "--breakdown"])
    assert r.code == 0 and "three-card winning banker 6" in r.out and "tie_on_7:45" in r.out
    csv = cli(["punto", "--bets", "banker", "--format", "csv", "--digits", "4"]).out.splitlines()
    assert csv[0] == "shoe,item,exact,decimal"
    items = [line.split(",")[1] for line in csv[1:]]
    assert items == [
        "P(banker)",
        "P(player)",
        "P(tie)",
        "edge:banker",
        "p:banker:banker wins",
        "p:banker:tie",
        "p:banker:loss",
        "variance:banker",
        "sd:banker",
        "edge_excluding_pushes:banker",
    ]
    listed = cli(["punto", "--bets", "list"]).out.split("\n\n")[0].splitlines()
    assert [line.split()[0] for line in listed] == list(catalogue_names())
    assert listed[0].split(None, 1)[1] == "Banker, pays 19/20 to 1 (5% commission), ties push"


def test_punto_leaves_out_what_a_shoe_cannot_settle(cli) -> None:
    data = json_result(cli(["punto", "--remove", "0", "--format", "json"]).out)
    omitted = {o["name"] for o in data["omitted"]}
    assert omitted == {"player_pair", "banker_pair", "either_pair", "perfect_pairs", "perfect_pairs_v2"}
    r = cli(["punto", "--remove", "0", "--bets", "either_pair"])
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1
    assert "--remove 0 takes out a ten-valued card of unknown rank: name its rank (T, J, Q or K)" in r.err
    lines = cli(["punto", "--shoes", "-", "--bets", "banker,player_pair"], stdin="--decks 8 --remove 0\n--decks 6\n").out
    first, second = (json.loads(x) for x in lines.splitlines())
    assert [b["name"] for b in first["bets"]] == ["banker"] and first["omitted"][0]["name"] == "player_pair"
    assert [b["name"] for b in second["bets"]] == ["banker", "player_pair"]


def test_punto_with_a_bet_file(cli, tmp_path) -> None:
    f = tmp_path / "mine.toml"
    f.write_text('[[bet]]\nname = "mine"\n[[bet.tier]]\npays = "3/2"\nwhen = { cards = 4 }\n')
    data = json_result(cli(["punto", "--bet", str(f), "--format", "json"]).out)
    assert [b["name"] for b in data["bets"]] == ["mine"]
    small = json_result(cli(["punto", "--bets", "small", "--format", "json"]).out)["bets"][0]
    assert data["bets"][0]["ev"] == small["ev"]
    both = json_result(cli(["punto", "--bets", "banker", "--bet", str(f), "--format", "json"]).out)
    assert [b["name"] for b in both["bets"]] == ["banker", "mine"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[bet]]\nname = "x"\n[[bet.tier]]\npays = -1\n', "bet[1].tier[1].pays: a payout must be at least 0"),
        (
            '[[bet]]\nname = "x"\n[[bet.tier]]\npays = 2\nwhen = { banker_totl = 6 }\n',
            "bet[1].tier[1].when.banker_totl: unknown event",
        ),
        ("[[bet]\n", "not valid TOML"),
    ],
)
def test_a_malformed_bet_file_is_one_line(cli, tmp_path, text: str, message: str) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(text)
    r = cli(["punto", "--bet", str(f)])
    assert r.code == 2 and r.out == "" and message in r.err and r.err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["punto", "--bets", "dragon8"], "unknown bet 'dragon8'"),
        (["punto", "--bets", "tie:-8"], "at least 0"),
        (["eor", "--decks", "inf", "--bets", "dragon7"], "finite shoe"),
        (["eor", "--level", "0", "--bets", "dragon7"], "--level"),
        (["eor", "--depth", "9-3", "--bets", "dragon7"], "--depth"),
        (["count", "--bets", "big_tiger", "--tags", "1,2,3", "--true-count", "8"], "10 tags"),
        (["count", "--bets", "big_tiger", "--tags", "0,0,-1,-1,-1,-2,1,2,2,0"], "--tags and --true-count together"),
        (["count", "--bets", "big_tiger", "--cut", "3"], "cut card"),
        (["count", "--bets", "dragon7", "--decks", "inf"], "finite"),
        (["count", "--bets", "dragon7", "--true-count", "x", "--tags", "0,0,0,0,0,0,0,0,0,0"], "--true-count"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, argv: list[str], message: str) -> None:
    r = cli(argv)
    assert r.code == 2 and r.out == "" and message in r.err and r.err.count("\n") == 1


def test_eor_formats(cli) -> None:
    data = json.loads(cli(["eor", "--bets", "big_tiger,dragon7", "--by", "value", "--format", "json"]).out)
    for b in data["bets"]:
        assert sum(e["cards"] * Fraction(e["effect"]) for e in b["effects"]) == 0
    assert [e["tag"] for e in data["bets"][0]["effects"]] == [0, 0, 0, -1, -1, -1, -2, 1, 2, 2]  # T, A, 2, ..., 9
    csv = cli(["eor", "--bets", "dragon7", "--format", "csv"]).out.splitlines()
    assert csv[0] == "shoe,bet,card,cards,effect,decimal,tag" and len(csv) == 14


def test_count_is_reproducible_and_reports_estimates(cli) -> None:
    argv = [
        "count",
        "--bets",
        "big_tiger,either_pair",
        "--tags",
        "eor",
        "--true-count",
        "2",
        "--shoes",
        "40",
        "--seed",
        "9",
        "--format",
        "json",
    ]
    one = json.loads(cli([*argv, "--workers", "1"]).out)
    two = json.loads(cli([*argv, "--workers", "2"]).out)
    for a, b in zip(one["bets"], two["bets"]):
        assert a["perfect_play"] == b["perfect_play"] and a["mean_edge"] == b["mean_edge"]
    assert one["shoes"] == 40 and one["evaluations"] == 2 * one["coups"]
    assert one["bets"][0]["count"]["source"].startswith("effects of removal of big_tiger")
    text = cli(["count", "--bets", "dragon7", "--shoes", "20", "--seed", "1", "--workers", "1"]).out
    assert "ESTIMATES" in text and "perfect play (edge > 0)" in text
