"""The text reports read well: columns hold, lines fit in 100 columns, words say what they mean.

Each test is a fault a reader met (issue 16): a bet name wider than its column, "ponte at 5: 5: draw",
"Chemin de fer, inf", probabilities and edges under the same column names, the commission table
calling the banker's payoff "value", pair bets vanishing without a word, redundant or dangling
descriptions of the optimal set, and hands the shoe cannot deal.
"""

from __future__ import annotations

import re

import pytest
from conftest import run_cli

from solver.report import TEXT_WIDTH

ODD_SHOE = "4,1,1,1,1,1,1,1,1,1"  # one card of each value 1-9: no pair of fives can be dealt


@pytest.fixture(scope="module")
def report() -> str:
    r = run_cli(["report"])
    assert r.code == 0, r.err
    return r.out


def test_the_default_report_fits_in_100_columns(report: str) -> None:
    long = [line for line in report.splitlines() if len(line) > TEXT_WIDTH]
    assert not long, f"{len(long)} lines longer than {TEXT_WIDTH} columns, e.g. {long[0]!r}"


def test_every_technical_line_has_a_plain_sentence(report: str) -> None:
    lines = report.splitlines()
    for head in ("value (banker's advantage):", "ponte at 5", "free banker sets:", "unique optimal strategies:"):
        at = [k for k, line in enumerate(lines) if line.startswith("  " + head)]
        assert len(at) == 6, head
        for k in at:
            follow = next(line for line in lines[k + 1 :] if not line.startswith("      "))  # past a wrapped tail
            assert follow.startswith("    ") and follow.strip()[0].isupper() and follow.rstrip().endswith("."), (head, follow)
    assert "Both sides lose to the house once the tax is taken" in report


def test_bet_names_keep_their_column(report: str) -> None:
    rows = [line for line in report.splitlines() if re.match(r"  (banker|player_pair|ez_banker) +\d+/\d+ ", line)]
    assert len(rows) == 3
    assert len({line.index("/") - len(line.split()[1].split("/")[0]) for line in rows}) == 1  # fractions start together


def test_words_not_codes() -> None:
    a1 = run_cli(["chemin", "--decks", "inf"]).out
    assert a1.startswith("Chemin de fer, an infinite deck (dealt with replacement), model A1 (casino)")
    assert "  ponte at 5: draws\n" in a1 and "5: 5:" not in a1
    ks = run_cli(["chemin", "--decks", "inf", "--freedom", "parlor"]).out
    assert "  ponte at 5: draws with probability 9/11 (≈ 0.8182)\n" in ks


def test_multi_shoe_tables_name_what_they_show() -> None:
    punto = run_cli(["punto", "--decks", "1,inf", "--bets", "banker,player,tie_8to1,dragon7"]).out.splitlines()
    assert "- probability -" in punto[1] and "- house edge -" in punto[1]
    assert punto[2].split()[:4] == ["shoe", "banker", "player", "tie"]
    wide = run_cli(["punto", "--decks", "1,8"]).out.splitlines()  # the whole catalogue: a row per bet instead
    assert max(map(len, wide)) <= 100 and wide[1].split() == ["1", "deck", "8", "decks"]
    assert wide[2] == "probability" and wide[6] == "house edge" and wide[7].split()[:3] == ["banker", "1.0117", "1.0579"]
    zero = run_cli(["chemin", "--decks", "1,inf"]).out
    assert "value %" in zero and "banker %" not in zero
    taxed = run_cli(["chemin", "--decks", "1,inf", "--commission", "1/20"]).out
    head = taxed.splitlines()[3].split()
    assert head[:4] == ["shoe", "model", "banker", "%"] and head[4:6] == ["ponte", "%"] and "value" not in taxed


@pytest.mark.parametrize("argv", [["--remove", "0"], ["--shoe", "128,32,32,32,32,32,32,32,32,32"]])
def test_pair_bets_left_out_say_why(argv: list[str]) -> None:
    out = run_cli(["punto", *argv]).out
    assert not any(line.split()[:1] == ["player_pair"] for line in out.splitlines())
    assert (
        "Left out (player_pair, banker_pair, either_pair, perfect_pairs, perfect_pairs_v2): they need the shoe's ranks"
        in out.replace("\n    ", " ")
    )
    data = run_cli(["punto", *argv, "--format", "json"]).out
    assert "need the shoe's ranks" in data
    assert "notes" not in run_cli(["punto", "--format", "json"]).out


def test_the_optimal_set_on_an_odd_shoe_is_tight_and_complete() -> None:
    out = run_cli(["chemin", "--shoe", ODD_SHOE, "--information", "3", "--freedom", "parlor"]).out
    lines = out.splitlines()
    described = [line for line in lines if line.startswith("  every optimal")]
    assert described == [
        "  every optimal ponte strategy: as shown, except at 0+5: any draw probability in [23/28, 1]",
        "  every optimal banker strategy: as shown, except at 0+5/8: any draw probability in [0, 1]",
    ]
    assert not any(line.rstrip().endswith(" with") for line in lines)
    rows = [line.split()[0] for line in lines if re.match(r"  \d\+\d \(\d\)", line)]
    pairs = [r for r in rows if r.split("+")[0] == r.split("+")[1]]
    assert "1+9" in rows and pairs == ["0+0"]  # one card of each value 1-9: of the pairs only tens can be dealt


def test_hands_the_shoe_cannot_deal_are_left_out() -> None:
    out = run_cli(["chemin", "--shoe", "4,1,1,1,1,0,1,1,1,1", "--information", "3", "--freedom", "parlor"]).out
    at5 = next(line for line in out.splitlines() if line.startswith("  ponte at 5"))
    assert "0+5" not in at5 and "1+4" in at5  # no five left: the ponte cannot hold 0+5


def test_the_multi_shoe_table_marks_a_strategy_that_is_not_unique() -> None:
    # Issue 16: the LaTeX table marked the infinite deck's A3 parlor entry and gave the whole optimal
    # set; the text table showed one of the optimal strategies unmarked.
    lines = run_cli(["chemin", "--decks", "1,inf", "--information", "3", "--freedom", "parlor"]).out.splitlines()
    one, inf = (next(ln for ln in lines if ln.startswith(s)) for s in ("1 deck", "inf"))
    assert inf.endswith(" †") and not one.endswith("†")
    note = " ".join(ln.strip() for ln in lines[lines.index(inf) + 1 :])
    assert note.startswith("†: on inf (A3 parlor) the ponte's optimal strategy is not unique")
    assert "1/2·x(0+5) + 1/8·x(1+4) + 1/8·x(2+3) + 1/8·x(6+9) + 1/8·x(7+8) = 9/11" in note
