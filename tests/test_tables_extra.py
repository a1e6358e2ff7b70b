"""`baccarat tables`' side-bet and banque tables hold the exact results they name (issue 12 item 5, issue
13 item 6). docs/report.tex inputs them, and tests/test_latex_compile.py compiles it over fresh tables."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from solver.banque.committed import CERTIFICATES, STANDARD_MODELS, banque_entries
from solver.cards import Shoe
from solver.count.eor import effects_of_removal
from solver.punto import catalogue, punto_banco
from solver.report import decimal_str
from solver.report.banque_section import BANQUE_TABLE_NAMES, banque_tables
from solver.report.latex import tex_fraction
from solver.report.side_bets import SIDE_TABLE_NAMES, side_bet_tables

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def side() -> tuple:
    r = punto_banco(Shoe.decks(8), bets=catalogue(), skip_unsettled=True)
    eor = effects_of_removal(Shoe.decks(8), catalogue(), by="value")
    return r, eor, side_bet_tables(r, eor, 4, "baccarat tables --out t")


def _row(text: str, name: str) -> list[str]:
    line = next(x for x in text.splitlines() if x.strip().startswith(name + " &"))
    return [c.strip() for c in line.rstrip(" \\").split("&")]


def test_the_side_bet_table_holds_every_exact_edge(side) -> None:
    r, _, files = side
    assert tuple(files) == SIDE_TABLE_NAMES
    text = files["side-bets"]
    for b in r.bets:
        assert f"{tex_fraction(b.edge)} &" in text, b.name
    # Dragon 7 and Panda 8 on 8 decks: 7.6113 % and 10.1876 % (Wizard of Odds; tests/test_bets_published.py).
    assert _row(text, "\\texttt{dragon7}")[2] == "7.6113" and _row(text, "\\texttt{panda8}")[2] == "10.1876"


def test_the_pay_tables_show_every_line_once(side) -> None:
    r, _, files = side
    both = files["pay-tables-1"] + files["pay-tables-2"]
    for b in r.bets:
        assert both.count(f"\\texttt{{{b.name.replace('_', chr(92) + '_')}}} &") == 1, b.name
        for t in b.tiers:
            assert f"{tex_fraction(t.probability)} &" in both
    assert sum(len(b.tiers) for b in r.bets) == len(re.findall(r"\\\\$", both, re.MULTILINE)) - 2  # less the heads


def test_the_effects_of_removal_table(side) -> None:
    _, eor, files = side
    text = files["effects-of-removal"]
    for b in eor.bets:
        cells = _row(text, b.name.replace("_", "\\_"))[1:]
        assert cells == [decimal_str(x.effect * 10**4, 2).replace("-", "$-$") for x in b.removals], b.name
        assert sum(x.cards * x.effect for x in b.removals) == 0  # the composition-weighted sum vanishes exactly


def test_the_banque_tables_hold_the_certificates() -> None:
    models = [e for shoe, model in STANDARD_MODELS for e in banque_entries([shoe], model)]
    assert all(e.source.startswith("certificate") for e in models)  # the 24 committed ones
    thetas = banque_entries([Shoe.infinite()], thetas=[Fraction(1, 2)])
    files = banque_tables(models, thetas, 4, "baccarat tables --out t")
    assert tuple(files) == BANQUE_TABLE_NAMES
    for e in models:
        cert = json.loads((ROOT / str(e.certificate)).read_text())
        assert e.value == Fraction(cert["value"])
        shown = decimal_str(e.value * 100, 4)
        assert (shown if e.exists else f"none (best {shown})") in files["banque-models"]
    row = files["banque-theta"].split("$1/2$ &")[1].split("\\\\")[0]
    assert [c.strip() for c in row.split("&")][0] == "0.8680"  # the rule sheets' 0.87 %, Nash, infinite deck
    assert CERTIFICATES.is_dir()
