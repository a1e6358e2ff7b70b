"""The par sheet (``baccarat parsheet``, :func:`solver.par_sheet`): every exact number against an
independent computation, the published combination counts, VI and hold ranges recomputed from the exact
variance, the dealt game's check, and the files the command writes."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import run_cli

import solver
from solver.analysis.dealt_game import Simulation
from solver.analysis.parsheet import HANDS, LEVELS, hold_range, par_sheet, sd_value, volatility_index, z_value
from solver.cards import Shoe
from solver.deal.outcome import outcomes
from solver.punto import bets_from_names, catalogue, evaluate

# Wizard of Odds, "Baccarat" (wizardofodds.com/games/baccarat/), the 8-deck table of combinations:
# Banker 2,292,252,566,437,888; Player 2,230,518,282,592,256; Tie 475,627,426,473,216; total 4,998,398,275,503,360.
WOO_BANKER, WOO_PLAYER, WOO_TIE = 2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216
WOO_TOTAL = 4_998_398_275_503_360


def _falling(n: int, k: int) -> int:
    return math.prod(n - i for i in range(k))


def brute_force_counts(decks: int) -> dict[str, int]:
    """Banker / player / tie and Dragon 7's winning sequences, counted by a plain recursion over card
    values written from the printed rules (no code of the solver): each coup's weight is the number of
    ordered sequences of physical cards, padded to six cards."""
    counts = [16 * decks] + [4 * decks] * 9
    n0 = sum(counts)
    out = {"banker": 0, "player": 0, "tie": 0, "dragon7": 0}

    def banker_draws(b: int, third: int | None) -> bool:
        if third is None:
            return b <= 5
        return (
            b <= 2
            or (b == 3 and third != 8)
            or (b == 4 and 2 <= third <= 7)
            or (b == 5 and 4 <= third <= 7)
            or (b == 6 and third in (6, 7))
        )

    def settle(cards: list[int], weight: int) -> None:
        p1, b1, p2, b2 = cards[:4]
        p, b = (p1 + p2) % 10, (b1 + b2) % 10
        rest = cards[4:]
        b_cards = 2
        if p < 8 and b < 8:
            third = None
            if p <= 5:
                third = rest.pop(0)
                p = (p + third) % 10
            if banker_draws(b, third):
                b = (b + rest.pop(0)) % 10
                b_cards = 3
        assert not rest
        pad = _falling(n0 - len(cards), 6 - len(cards))
        w = weight * pad
        key = "banker" if b > p else "player" if p > b else "tie"
        out[key] += w
        if key == "banker" and b == 7 and b_cards == 3:
            out["dragon7"] += w

    def need(cards: list[int]) -> int:
        p = (cards[0] + cards[2]) % 10
        b = (cards[1] + cards[3]) % 10
        if p >= 8 or b >= 8:
            return 4
        if p <= 5:
            if len(cards) == 4:
                return 5
            return 6 if banker_draws(b, cards[4]) else 5
        return 5 if b <= 5 else 4

    def deal(cards: list[int], left: list[int], weight: int) -> None:
        if len(cards) >= 4 and len(cards) == need(cards):
            settle(cards, weight)
            return
        for v in range(10):
            if left[v]:
                left[v] -= 1
                deal([*cards, v], left, weight * (left[v] + 1))
                left[v] += 1

    deal([], counts, 1)
    return out


def test_published_combinations_at_eight_decks() -> None:
    """The combination counts of Banker, Player and Tie at 8 decks are the Wizard of Odds' published ones."""
    sheet = par_sheet(Shoe.decks(8))
    banker, player, tie = (sheet.wager(n) for n in ("banker", "player", "tie_8to1"))
    assert banker.total == player.total == tie.total == WOO_TOTAL
    assert {x.label: x.combinations for x in banker.lines} == {"banker wins": WOO_BANKER, "tie": WOO_TIE, "loss": WOO_PLAYER}
    assert {x.label: x.combinations for x in player.lines} == {"player wins": WOO_PLAYER, "tie": WOO_TIE, "loss": WOO_BANKER}
    assert [x.combinations for x in tie.lines] == [WOO_TIE, WOO_BANKER + WOO_PLAYER]


@pytest.mark.parametrize("decks", [1, 8])
def test_combinations_against_a_brute_force(decks: int) -> None:
    """Banker, Player, Tie and Dragon 7's combinations equal a plain recursion's over physical cards."""
    brute = brute_force_counts(decks)
    sheet = par_sheet(Shoe.decks(decks), bets_from_names("banker,tie_8to1,dragon7"))
    assert sheet.wager("banker").lines[0].combinations == brute["banker"]
    assert sheet.wager("banker").lines[2].combinations == brute["player"]
    assert sheet.wager("tie_8to1").lines[0].combinations == brute["tie"]
    assert sheet.wager("dragon7").lines[0].combinations == brute["dragon7"]
    assert sheet.wager("banker").total == sum(brute[k] for k in ("banker", "player", "tie")) == _falling(52 * decks, 6)


@pytest.mark.parametrize("shoe", [Shoe.decks(6), Shoe.decks(8).remove("5,5,K,9".split(","))], ids=["6 decks", "depleted"])
def test_every_catalogue_wager_sums_to_its_total(shoe: Shoe) -> None:
    """For every wager of the catalogue: integer combinations summing to the stated total exactly, the
    total N(N-1)...(N-5) (or N...(N-3) for the first cards), and the same law as the reference route."""
    bets = tuple(b for b in catalogue("1/20") if not b.needs_suits)
    sheet = par_sheet(shoe, bets)
    table = outcomes(shoe)
    n = shoe.size
    for b, w in zip(bets, sheet.wagers):
        assert all(type(x.combinations) is int for x in w.lines)
        assert sum(x.combinations for x in w.lines) == w.total
        assert w.total == (_falling(n, 4) if b.first_cards else _falling(n, 6))
        if not b.first_cards:
            ref = evaluate(b, table)  # the reference route: the outcome table, row by row
            assert [x.combinations for x in w.lines] == [t.weight for t in ref.tiers]
            assert w.ev == ref.ev and w.variance == ref.variance and w.edge_resolved == ref.edge_excluding_pushes
        assert w.hit_frequency + w.push + w.lines[-1].probability == 1


def test_summary_figures_by_definition() -> None:
    """Return, edge, hit frequency and variance recomputed from the lines by their definitions."""
    w = par_sheet(Shoe.decks(8)).wager("banker")
    pb, pt, pp = (Fraction(x, WOO_TOTAL) for x in (WOO_BANKER, WOO_TIE, WOO_PLAYER))
    ev = Fraction(19, 20) * pb - pp
    assert w.ev == ev and w.edge == -ev and w.return_to_player == 1 + ev
    assert w.hit_frequency == pb and w.push == pt
    assert w.edge_resolved == -ev / (pb + pp)
    assert w.variance == Fraction(361, 400) * pb + pp - ev * ev


def test_z_values_against_the_normal_table() -> None:
    """z at 90, 95, 99 % as printed in standard normal tables (Abramowitz and Stegun, Table 26.5): 1.6449, 1.9600, 2.5758."""
    assert [z_value(c, 4) for c in LEVELS] == ["1.6449", "1.9600", "2.5758"]
    assert z_value(Fraction(95, 100), 10) == "1.9599639845"


@pytest.mark.parametrize("name", ["banker", "player", "tie_8to1", "dragon7", "player_pair"])
def test_vi_and_hold_recomputed_from_the_exact_variance(name: str) -> None:
    """SD, VI and every hold range end recomputed in floats from the exact variance (scipy's quantile,
    an independent route), within the rounding of the printed digits."""
    from scipy.stats import norm

    w = par_sheet(Shoe.decks(8), bets_from_names(name)).wagers[0]
    sigma = math.sqrt(w.variance.numerator / w.variance.denominator)
    assert abs(float(w.sd(6)) - sigma) <= 0.5e-6 + 1e-12
    assert sd_value(w.variance, 12) == w.sd(12)
    for c in LEVELS:
        z = float(norm.ppf((1 + float(c)) / 2))
        assert abs(float(w.volatility_index(c, 6)) - z * sigma) <= 0.5e-6 + 1e-12
        for n in HANDS:
            lo, hi = w.hold_range(c, n, 4)
            assert abs(float(lo) - 100 * (float(w.edge) - z * sigma / math.sqrt(n))) <= 0.5e-4 + 1e-9
            assert abs(float(hi) - 100 * (float(w.edge) + z * sigma / math.sqrt(n))) <= 0.5e-4 + 1e-9


def test_irrational_numbers_are_rounded_exactly() -> None:
    """Where the answer is known in closed form: σ = 1 gives VI = z; a variance of 4 doubles it."""
    assert volatility_index(Fraction(1), Fraction(99, 100), 8) == z_value(Fraction(99, 100), 8)
    assert volatility_index(Fraction(4), Fraction(9, 10), 6) == "3.289707"  # 2 × 1.6448536...
    assert hold_range(Fraction(0), Fraction(1), Fraction(95, 100), 100, 4, percent=False) == ("-0.1960", "0.1960")


def test_front_door_and_digest() -> None:
    """solver.par_sheet is the front door's; the digest changes with the inputs and only with them."""
    a = solver.par_sheet(solver.Shoe.decks(8))
    assert isinstance(a, solver.ParSheet)
    assert a.digest == par_sheet(Shoe.decks(8)).digest
    assert a.digest != par_sheet(Shoe.decks(8), commission="1/25").digest
    assert a.digest != par_sheet(Shoe.decks(6)).digest


def test_dealt_game_and_the_simulation_check() -> None:
    """A small dealt game: every wager's first-coup edge is its exact edge, the whole-shoe estimates
    lie within 5 SE of the exact edge (the cut-card effect is far smaller than this run's SE), the
    cross-check passes (fixed seed), and a side bet goes to the counting study."""
    sim = Simulation(coups=400_000, study=20_000, seed=3, workers=1)
    sheet = par_sheet(Shoe.decks(8), bets_from_names("banker,player,tie_8to1,dragon7"), simulation=sim)
    d = sheet.dealt
    assert d is not None and d.passed and d.verdict == "PASS"
    assert d.coups >= 400_000 and d.study_coups >= 20_000
    by = {w.name: w for w in d.wagers}
    assert [w.name for w in d.wagers] == ["banker", "player", "tie_8to1", "dragon7"]
    for w in sheet.wagers:
        x = by[w.name]
        assert x.first_coup_edge == w.edge
        assert abs(x.whole_shoe_edge - float(w.edge)) < 5 * x.whole_shoe_se
        assert x.effect == pytest.approx(x.whole_shoe_edge - float(w.edge))
    assert by["dragon7"].source == "counting study" and by["banker"].source == "simulator"
    assert any(t.name == "bet banker" for t in d.tests) and any(t.name == "counting study dragon7" for t in d.tests)
    assert all(t.alpha == pytest.approx(1e-3 / len(d.tests)) for t in d.tests)


def test_infinite_deck_has_no_dealt_game() -> None:
    sheet = par_sheet(Shoe.infinite(), simulation=Simulation(coups=1000))
    assert sheet.dealt is None and "no cut card" in sheet.notes[0]


# -- the command ---------------------------------------------------------------------------------------


def test_text_and_json() -> None:
    r = run_cli(["parsheet", "--no-simulate"])
    assert r.code == 0, r.err
    assert "2,292,252,566,437,888" in r.out and "4,998,398,275,503,360" in r.out
    r = run_cli(["parsheet", "--no-simulate", "--format", "json", "--commission", "1/20,1/25"])
    assert r.code == 0, r.err
    doc = json.loads(r.out)  # one document, whatever the number of sheets
    assert list(doc) == ["tool", "command", "sheets"]
    docs = doc["sheets"]
    assert [d["rules"]["commission"] for d in docs] == ["1/20", "1/25"]
    banker = docs[0]["wagers"][0]
    assert banker["lines"][0]["combinations"] == str(WOO_BANKER) and banker["total"] == str(WOO_TOTAL)
    assert banker["volatility_index_rounded"]["95 %"] == "1.817616"
    assert doc["command"] == "baccarat parsheet --no-simulate --format json --commission 1/20,1/25"
    lines = run_cli(["parsheet", "--no-simulate", "--format", "jsonl", "--commission", "1/20,1/25"]).out.splitlines()
    assert [{k: v for k, v in json.loads(line).items() if k not in ("tool", "command")} for line in lines] == docs


def test_csv_rows() -> None:
    r = run_cli(["parsheet", "--no-simulate", "--format", "csv", "--decks", "6"])
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "game,wager,section,item,exact,decimal"
    assert '"6 decks, commission 1/20",banker,pay table,banker wins: combinations,403095751234560,' in lines


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--format", "pdf"], "give --out DIR"),
        (["--format", "docx", "--out", "x"], "--format takes"),
        (["--commission", "1"], "[0, 1)"),
        (["--bets", "nosuchbet"], "nosuchbet"),
        (["--burn", "sideways"], "--burn"),
        (["--no-simulate", "--simulate", "1e6"], "--no-simulate"),
        (["--decks", "8", "--shoe", "1,2"], "not both"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv: list[str], message: str) -> None:
    r = run_cli(["parsheet", *argv])
    assert r.code == 2 and r.out == ""
    assert r.err.startswith("baccarat: error: ") and r.err.count("\n") == 1 and message in r.err


def test_out_writes_files_and_keeps_existing_ones(tmp_path: Path) -> None:
    out = tmp_path / "sheets"
    r = run_cli(["parsheet", "--no-simulate", "--out", str(out), "--format", "latex,csv,json"])
    assert r.code == 0, r.err
    assert sorted(p.name for p in out.iterdir()) == ["parsheet.csv", "parsheet.json", "parsheet.tex"]
    before = (out / "parsheet.csv").read_bytes()
    r = run_cli(["parsheet", "--no-simulate", "--decks", "6", "--out", str(out), "--format", "csv"])
    assert r.code == 2 and "--force" in r.err and (out / "parsheet.csv").read_bytes() == before
    doc = json.loads((out / "parsheet.json").read_text())
    assert doc["tool"]["name"] == "baccarat" and doc["sheets"][0]["wagers"][0]["name"] == "banker"


def test_pdf_without_pdflatex_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None if name == "pdflatex" else real(name, *a, **k))
    r = run_cli(["parsheet", "--no-simulate", "--out", str(tmp_path / "o")])
    assert r.code == 3 and r.err.count("\n") == 1 and "pdflatex" in r.err
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


def _page_texts(pdf: Path) -> list[str]:
    pages = int(
        next(
            ln.split()[-1]
            for ln in subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout.splitlines()
            if ln.startswith("Pages:")
        )
    )
    return [
        subprocess.run(
            ["pdftotext", "-layout", "-f", str(k), "-l", str(k), str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
        for k in range(1, pages + 1)
    ]


@pytest.mark.skipif(shutil.which("pdflatex") is None or shutil.which("pdftotext") is None, reason="needs pdflatex and pdftotext")
def test_pdf_pages_keep_tables_whole_and_in_their_section(tmp_path: Path) -> None:
    """``--decks 6,8 --out DIR`` writes the PDF, CSV and JSON; in the PDF every wager's section, its pay
    table (through its total row), its summary and its hold ranges are on one page, each game's rules,
    tableau and summary on its first page, the dealt game with its check on a page of its own, and the
    comparison on one page."""
    out = tmp_path / "sheets"
    r = run_cli(["parsheet", "--decks", "6,8", "--out", str(out), "--simulate", "3e5", "--workers", "1"])
    assert r.code == 0, r.err
    assert sorted(p.name for p in out.iterdir()) == ["parsheet.csv", "parsheet.json", "parsheet.pdf", "parsheet.tex"]
    pages = _page_texts(out / "parsheet.pdf")
    for decks in (6, 8):
        first = next(p for p in pages if f"Rules and provenance, {decks} decks" in p)
        assert f"Summary, {decks} decks" in first and "D draws, S stands" in first
    for name in ("banker", "player", "tie_8to1"):
        holding = [p for p in pages if f"Pay table of {name}:" in p]
        assert len(holding) == 2
        for p in holding:
            assert f"Wager: {name}" in p and "total" in p and f"Range of the house\u2019s hold on {name}" in p
            assert "1,000,000" in p.split(f"Range of the house\u2019s hold on {name}")[1]
    dealt = [p for p in pages if "The dealt game: house edge" in p]
    assert len(dealt) == 2 and all("Simulation check of the exact figures" in p and "PASS" in p for p in dealt)
    assert sum("Comparison of the games" in p for p in pages) == 1
    assert all(len(p.strip()) > 0 for p in pages)
