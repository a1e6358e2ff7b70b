"""Files of baccara banque coups: the reader, and a plain-Python banque engine's files held to the exact law.

The engine (tests/independent_engine.py, :class:`BanqueEngine`) deals banque from a shuffled list of rank
names with the players' rule written out as ``if`` statements, never calling the package's dealing code;
it plays draw tables handed to it as plain floats (the solver's strategy, which is what it is asked to
deal). Each cell of :data:`CELLS` deals a file, reads it with the banque reader and holds it to the exact
law of the solution dealt (6 decks, B1 blind casino, theta 1/2), at the default false-alarm rate 1/1000.
A "pass" of a correct engine fails with probability at most 1/1000 (the seeds are fixed, so each cell is
deterministic); a statistical rejection is asserted only where the test named has power above 0.99 at
that size (from the exact laws: see the comments and :func:`test_the_power_behind_the_table`); a
rejection by the rules needs no power (a correct engine never breaks them). Cells of 10^5 coups are
marked slow. The tables in docs/simulate.md and docs/howto-crosscheck.md are checked against CELLS.
"""

from __future__ import annotations

import io
import json
import math
import re
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from independent_engine import BanqueEngine, BanqueStrategy

from solver.banque import BanqueModel, solve_banque
from solver.banque.game import banker_payoff
from solver.cards import Shoe
from solver.crosscheck import CrossCheck, crosscheck
from solver.crosscheck.banque import BanqueLaw, ExactTables, banque_law, solution_tables
from solver.crosscheck.banque_coups import read_banque_coups
from solver.errors import InputError

SHOE = Shoe.decks(6)
HALF = Fraction(1, 2)
NASH = ("nash", Fraction(1, 20))
CORRELATED = ("correlated", Fraction(1, 50))  # no correlated solution with the tax exists at 1/20 here
NASH_TAX_10 = ("nash", Fraction(1, 10))


@cache
def dealt(concept: str, tax: Fraction) -> tuple[Any, list[tuple[Fraction, ExactTables]], BanqueLaw, BanqueStrategy]:
    """The solution, its exact tables and law, and the strategy as the engine reads it (floats)."""
    s = solve_banque(SHOE, BanqueModel(1, "blind", "casino", tax), HALF, concept)
    tables = solution_tables(s)
    return s, tables, banque_law(s, tables), plain(tables)


def plain(tables: list[tuple[Fraction, ExactTables]]) -> BanqueStrategy:
    def f(x: Fraction) -> float:
        return float(x)

    return BanqueStrategy(
        tuple(float(lam) for lam, _ in tables),
        tuple(tuple(tuple(map(f, row)) for row in t.p1) for _, t in tables),
        tuple(tuple(tuple(tuple(map(f, s)) for s in row) for row in t.p2) for _, t in tables),
        tuple(tuple(tuple(tuple(map(f, s2)) for s2 in s1) for s1 in row) for row in tables[0][1].banker),
    )


ONE = {"first_coup_only": True, "mark_shoes": False}
ROWS: dict[str, tuple[tuple[str, Fraction], dict[str, Any]]] = {
    "correct, Nash, one coup per shoe": (NASH, ONE),
    "correct, Nash, whole shoes, marked": (NASH, {}),
    "correct, correlated team, one coup per shoe": (CORRELATED, ONE),
    "the banker ignores tableau 2, Nash": (NASH, {**ONE, "ignore_tableau2": True}),
    "Player 2 always stands at 5, Nash (he draws there)": (NASH, {**ONE, "stands": 2}),
    "Player 2 always stands at 5, correlated team (he mixes there)": (CORRELATED, {**ONE, "stands": 2}),
    "the 10 % tax not taken, Nash": (NASH_TAX_10, {**ONE, "tax_taken": False}),
    "the 5 % tax not taken, Nash": (NASH, {**ONE, "tax_taken": False}),
    "stale cards on top of the next shoe, Nash, marked": (NASH, {"stale": True}),
}
"""The engines: the solution dealt (concept, tax) and the engine's options (every engine settles)."""

SIZES = (10**3, 10**4, 3 * 10**4, 10**5)
SLOW_FROM = 10**5

CELLS: dict[tuple[str, int], str] = {
    ("correct, Nash, one coup per shoe", 10**4): "pass",
    ("correct, Nash, one coup per shoe", 10**5): "pass",
    ("correct, Nash, whole shoes, marked", 3 * 10**4): "pass",  # about 750 shoes (511 at least: an expected 5 of 0/0)
    ("correct, Nash, whole shoes, marked", 10**5): "pass",
    ("correct, correlated team, one coup per shoe", 10**4): "pass",
    ("correct, correlated team, one coup per shoe", 10**5): "pass",
    # The Nash banker draws or stands for certain in every cell: deciding as if tableau 2 had stood breaks
    # the strategy wherever the two sights call for different decisions, within the first few coups.
    ("the banker ignores tableau 2, Nash", 10**3): "rules",
    # Nash's Player 2 draws at 5 for certain: standing there breaks the strategy.
    ("Player 2 always stands at 5, Nash (he draws there)", 10**3): "rules",
    # The correlated team's Player 2 draws at 5 about 79 % of the time: standing is legal coup by coup;
    # the detail law's noncentrality is 292 at 10^4 coups (505 df): power 0.9999 (88.8 at 5,000: 0.81).
    ("Player 2 always stands at 5, correlated team (he mixes there)", 10**4): "detail law",
    # The banker's mean moves by the tax on his net wins: 0.0331 at 10 %, 0.0165 at 5 %, against a
    # standard deviation of 0.78: power 0.99 needs 19,600 and 82,600 coups.
    ("the 10 % tax not taken, Nash", 3 * 10**4): "banker's result",
    ("the 5 % tax not taken, Nash", 10**5): "banker's result",
    # The next shoe's first 16 cards are the last shoe's leftovers: z about -25 at 3 x 10^4 coups.
    ("stale cards on top of the next shoe, Nash, marked", 3 * 10**4): "next shoe",
}
"""(engine, coups) → "pass", or the test that rejects ("rules": a coup that breaks the rules)."""


def check_engine(row: str, coups: int, seed: int) -> CrossCheck:
    (concept, tax), options = ROWS[row]
    _, tables, law, strategy = dealt(concept, tax)
    engine = BanqueEngine(strategy, tax=tax, settle=True, **options)
    sample = read_banque_coups(io.StringIO("".join(engine.lines(coups, seed))), row, tables)
    return crosscheck(sample, law)


def _cells(slow: bool) -> list[tuple[str, int, str]]:
    return [(row, n, want) for (row, n), want in CELLS.items() if (n >= SLOW_FROM) == slow]


def _assert_verdict(cc: CrossCheck, want: str) -> None:
    rejected = [t.name for t in cc.tests if t.rejected]
    if want == "pass":
        assert cc.passed, [(t.name, t.statistic, t.p_value) for t in cc.tests]
    else:
        assert want in rejected, (rejected, [(t.name, t.statistic, t.p_value) for t in cc.tests])


@pytest.mark.parametrize(("row", "coups", "want"), _cells(slow=False))
def test_planted_fault(row: str, coups: int, want: str) -> None:
    _assert_verdict(check_engine(row, coups, seed=coups + list(ROWS).index(row)), want)


@pytest.mark.slow
@pytest.mark.parametrize(("row", "coups", "want"), _cells(slow=True))
def test_planted_fault_at_scale(row: str, coups: int, want: str) -> None:
    _assert_verdict(check_engine(row, coups, seed=coups + list(ROWS).index(row)), want)


def test_a_correct_file_is_tested_for_everything_a_file_shows() -> None:
    """Marked shoes of a correct engine run every test of a file: the first coup's laws, the structure of
    whole shoes (pairs, serial, shoe composition, next shoe, repeats) and each settlement."""
    cc = check_engine("correct, Nash, whole shoes, marked", 3 * 10**4, seed=3 * 10**4 + 1)
    assert [t.name for t in cc.tests] == [
        "outcome law",
        "detail law",
        "card law",
        "pairs",
        "serial",
        "shoe composition",
        "next shoe",
        "repeats",
        "banker's result",
        "player 1's result",
        "player 2's result",
    ]
    assert cc.sample.shoes == cc.n > 511 and cc.sample.total_coups == 3 * 10**4
    card_law = cc.tests[2]
    assert card_law.df == 12 and "per card" in card_law.detectable_what  # the ranks of each shoe's first half


def test_the_power_behind_the_table() -> None:
    """The sizes in CELLS' comments, from the exact laws: the tax's shift of the banker's mean and the
    detail law's noncentrality for a Player 2 who stands at 5 (the correlated team)."""
    from statistics import NormalDist

    from scipy import stats

    from solver.crosscheck.stats import pooled_cells

    nd = NormalDist()
    for (concept, tax), need in ((NASH_TAX_10, 19_618), (NASH, 82_602)):
        s, _, law, _ = dealt(concept, tax)
        shift = law.mean(banker_payoff(HALF)) - law.mean(banker_payoff(HALF, tax))
        sd = math.sqrt(float(law.variance(banker_payoff(HALF, tax))))
        z = -nd.inv_cdf(1 / 22000) + nd.inv_cdf(0.99)  # each of 11 tests at 1/11000, two-sided
        assert abs((z * sd / float(shift)) ** 2 / need - 1) < 0.01
    s, tables, law, _ = dealt(*CORRELATED)
    assert all(0 < t.p2[2][3][10] < 1 for _, t in tables[1:])  # Player 2 mixes at 5 in the team's drawing atom
    stands = [(lam, ExactTables(t.p1, _stands_at_5(t.p2), t.banker)) for lam, t in tables]
    wrong = banque_law(s, stands)
    import numpy as np

    p = np.zeros(law.detail_size)
    q = np.zeros(law.detail_size)
    for k, v in law.detail.items():
        p[k] = float(v)
    for k, v in wrong.detail.items():
        q[k] = float(v)
    o, e = pooled_cells(q * 10**4, p, 10**4)
    noncentrality = float(((o - e) ** 2 / e).sum())
    df = len(o) - 1
    power = stats.ncx2.sf(stats.chi2.isf(1 / 9000, df), df, noncentrality)
    assert 280 < noncentrality < 300 and power > 0.99
    _, nash_tables, _, _ = dealt(*NASH)
    nash = nash_tables[0][1]
    assert all(nash.p2[a][(5 - a) % 10][s] == 1 for a in range(10) for s in range(12))  # Nash draws at 5
    assert {q for a in nash.banker for b in a for s1 in b for q in s1} == {0, 1}  # and the banker is pure


def _stands_at_5(p2: Any) -> Any:
    return tuple(
        tuple(tuple(Fraction(0) if (a + b) % 10 == 5 else q for q in row) for b, row in enumerate(r)) for a, r in enumerate(p2)
    )


# -- the table in the docs ------------------------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[1] / "docs"
HEADER = "| banque engine (tests/independent_engine.py) | " + " | ".join(("10^3", "10^4", "3 × 10^4", "10^5")) + " |"


def doc_table(page: str) -> dict[tuple[str, int], str]:
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    start = lines.index(HEADER) + 2
    out = {}
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        for size, cell in zip(SIZES, cells[1:]):
            if cell:
                got = re.fullmatch(r"pass|REJECT \((.+)\)", cell)
                assert got, cell
                out[(cells[0], size)] = got.group(1) or "pass"
    return out


@pytest.mark.parametrize("page", ["simulate.md", "howto-crosscheck.md"])
def test_the_docs_table_is_the_tested_one(page: str) -> None:
    assert doc_table(page) == CELLS


# -- the reader ------------------------------------------------------------------------------------------------


def _read(body: str, concept: tuple[str, Fraction] = NASH):  # type: ignore[no-untyped-def]
    return read_banque_coups(io.StringIO(body), "f", dealt(*concept)[1])


def test_lines_read_as_the_coups_they_write() -> None:
    s = _read(
        "4,6,3,K,Q,2,7,-,9;BP\n"  # P1 (4) draws a 7, P2 (6) stands, the banker (5) draws
        "9,3,5,K,4,3;PB\n"  # the banker's natural 8 ends the coup; Player 1's 9 beats it
        "2,7,6,3,K,Q,5;BP\n"  # Player 1's 5 draws a 5; the banker's 6 stands, the trailing '-' left out
        "2,7,6,3,K,Q,5,-,-;BP\n"  # ... or written
    )
    assert s.n == 4 and s.rule_breaks is None and s.stream is not None
    assert s.stream.coup_drew.tolist() == [5, 0, 1, 1] and s.stream.coup_starts.tolist() == [0, 8, 14, 21, 28]
    assert int(s.winner.sum()) == 4 and s.cards is not None and int(s.cards.sum()) == 24  # six cards a coup
    assert s.detail is not None and s.detail[2] == 1 and s.detail.sum() == 4  # (-1, +1), ended by a natural


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("4,6,3,K,Q,2,7,-;BP", "the banker must draw on 5 when tableau 1 drew a 7 and tableau 2 stood"),
        ("4,6,3,K,Q,2,-,-,9", "Player 1 must draw on 4, but the line says he stood"),
        ("4,6,3,K,5,2,7,-,9", "Player 2 must draw on 1, but the line says he stood"),
        ("4,6,3,K,Q,2,7,8,9", "Player 2 must stand on 6, but the line gives him a third card"),
        ("8,6,3,A,Q,2,7", "Player 1 has a natural 9 and draws no card"),
        ("9,3,5,K,4,3,2;PB", "the line goes on after the banker's natural 8: naturals end the coup with its six cards"),
        ("9,3,5,K,8,3,-", "the line goes on after the banker's natural 8"),
        ("9,3,5,K,4,3;BB", "reported BB but the cards give PB (tableau 1 9, tableau 2 7, banker 8)"),
        ("9,3,5,K,4", "5 cards: a banque coup deals at least 6"),
        ("4,6,3,K,Q,2,7,-,9,2", "4 places after the six cards: a banque coup has three"),
    ],
)
def test_coups_that_break_the_rules_are_counted_with_their_line(line: str, message: str) -> None:
    s = _read(f"9,3,5,K,4,3;PB\n{line}\n")
    assert s.rule_breaks is not None and s.rule_breaks.count == 1 and s.n == 1
    assert s.rule_breaks.first[0][0] == 2 and s.rule_breaks.first[0][1].startswith(message), s.rule_breaks.first


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("9,3,5,K,4,X;PB", "line 1: bad card 'X'"),
        ("9,3,5,K,4,3;B", "line 1: reported outcome 'B': use two letters, tableau 1's then tableau 2's"),
        ("9,3,5,K,4,3;PB;tie=8", "line 1: settlement of an unknown bet 'tie' (the bets are banker, player1, player2)"),
        ("9,3,5,K,-,3", "line 1: bad card '-'"),
    ],
)
def test_lines_that_cannot_be_read_are_unusable(line: str, message: str) -> None:
    with pytest.raises(InputError, match="^f, " + re.escape(message)):
        _read(line + "\n")


def test_the_help_examples_are_legal_banque_coups() -> None:
    from solver.cli.crosscheck import BANQUE_HELP_COUPS

    assert BANQUE_HELP_COUPS[0] == "shoe"
    s = _read("\n".join(BANQUE_HELP_COUPS[:2]) + "\n", ("nash", Fraction(0)))
    assert s.rule_breaks is None and s.shoes == 1 and set(s.bets) == {"banker", "player1", "player2"}
    s = _read("\n".join(BANQUE_HELP_COUPS[2:]) + "\n", ("nash", Fraction(0)))
    assert s.rule_breaks is None and s.n == 2


# -- the command line ---------------------------------------------------------------------------------------------


def test_crosscheck_game_banque_reads_a_file(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, _, _, strategy = dealt("nash", Fraction(0))
    path = tmp_path / "banque.txt"
    path.write_text("".join(BanqueEngine(strategy, settle=True, first_coup_only=True, mark_shoes=False).lines(5000, 7)))
    run = cli(["crosscheck", "--game", "banque", "--decks", "6", "--coups", str(path), "--format", "json"])
    assert run.code == 0, run.err
    d = json.loads(run.out)
    assert d["verdict"] == "pass" and d["held_coups"] == d["coups"] == 5000 and d["shoes"] == 0
    assert d["source"] == str(path) and d["rule_breaks"] is None and d["per_test_rate"] == f"1/{1000 * len(d['tests'])}"
    assert {"pairs", "serial", "repeats", "banker's result"} <= {t["name"] for t in d["tests"]}
    text = cli(["crosscheck", "--game", "banque", "--decks", "6", "--coups", str(path)])
    assert text.code == 0 and "5,000 coups held to the exact law" in text.out and text.out.endswith("verdict: PASS\n")


def test_a_banque_engine_that_breaks_the_rules_exits_1_and_a_typo_exits_2(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, _, _, strategy = dealt("nash", Fraction(0))
    body = "".join(BanqueEngine(strategy, ignore_tableau2=True, first_coup_only=True, mark_shoes=False).lines(2000, 8))
    run = cli(["crosscheck", "--game", "banque", "--decks", "6", "--coups", "-", "--format", "csv"], stdin=body)
    assert run.code == 1, run.err
    assert run.out.splitlines()[1].startswith("rules,count,") and run.out.splitlines()[-1].endswith("reject")
    typo = cli(["crosscheck", "--game", "banque", "--decks", "6", "--coups", "-"], stdin=body.replace(",", ",Z", 1))
    assert typo.code == 2 and typo.out == "" and "line 1: bad card" in typo.err and len(typo.err.splitlines()) == 1
    both = cli(["crosscheck", "--game", "banque", "--decks", "6", "--coups", "-", "--simulate", "1000"], stdin=body)
    assert both.code == 2 and "not both" in both.err


def test_the_serial_classes_keep_the_false_alarm_rate() -> None:
    """The serial test reads banque coups in three classes (the banker ahead, behind, level; each about a
    third). Under independence its p-values are uniform (300 runs of 2,000 pairs), and at the smallest
    sizes a file gives it (100 pairs) it rejects at 1/100 no more often than 1/100 (4,000 runs: the bound
    is three standard errors above). Fixed seeds."""
    import numpy as np
    from scipy import stats

    from solver.crosscheck.structure import serial_test

    law = dealt(*NASH)[2]
    p = np.array([float(q) for q in law.serial_vector()])
    assert sum(law.serial_vector()) == 1 and p.min() > 0.25
    rng = np.random.default_rng(26)

    def p_values(runs: int, pairs: int) -> np.ndarray:
        w = rng.choice(3, size=(runs, pairs + 1), p=p)
        codes = w[:, :-1] * 3 + w[:, 1:]
        return np.array([serial_test(np.bincount(row, minlength=9).reshape(3, 3), p, 0.01).p_value for row in codes])

    assert stats.kstest(p_values(300, 2000), "uniform").pvalue > 0.001
    small = p_values(4000, 100)
    assert (small < 0.01).mean() < 0.01 + 3 * math.sqrt(0.01 * 0.99 / 4000)
