"""The report opens with the answers most readers come for, each with the model it assumes.

The numbers are pinned against their sources at the precision the sources printed, and exactly
against the committed certificates (checked by the independent proofs/check.py).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
CERTS = ROOT / "proofs" / "certificates"


@pytest.fixture(scope="module")
def report() -> dict:
    r = run_cli(["report", "--format", "json"])
    assert r.code == 0, r.err
    return json.loads(r.out)


def cert(name: str) -> dict:
    return json.loads((CERTS / f"{name}.json").read_text())


def test_the_headline_answers_and_their_models(report: dict) -> None:
    h = report["headline"]
    assert [a["model_text"].split(":")[0].split(",")[0] for a in h][:3] == [
        "Kemeny and Snell's game (model A1 parlor)",
        "model B1 parlor",
        "model B1 casino",
    ]
    ks = Fraction(h[0]["values"]["value"])
    # Kemeny and Snell (1957): the banker's advantage with both sides optimal, about 1.28 %.
    assert round(100 * ks, 2) == Fraction(128, 100)
    assert h[0]["values"]["value"] == cert("A1-parlor-inf-a0")["value"]
    assert h[1]["values"]["value"] == cert("B1-parlor-d6-a0")["value"]
    assert h[2]["values"]["value"] == cert("B1-casino-d6-a0")["value"]
    taxed = cert("B1-parlor-d6-a1_20")
    assert h[3]["values"] == {"banker": taxed["banker_payoff"], "ponte": taxed["ponte_payoff"]}
    assert "both sides lose to the house" in h[3]["what"]
    banker, player = (Fraction(h[4]["values"][k]) for k in ("Banker bet", "Player bet"))
    # The punto banco edges every casino reference quotes for 8 decks: Banker 1.06 %, Player 1.24 %.
    assert (round(100 * banker, 2), round(100 * player, 2)) == (Fraction(106, 100), Fraction(124, 100))
    assert h[4]["values"]["Banker bet"] == report["punto_banco"]["bets"][0]["edge"]
    # each answer's model in the shape of its game's JSON: chemin de fer's as in chemin_de_fer[].model
    games = {(c["model"]["name"], c["model"]["freedom"], c["model"]["commission"]): c["model"] for c in report["chemin_de_fer"]}
    for a in h[1:4]:
        assert a["model"] == games[a["model"]["name"], a["model"]["freedom"], a["model"]["commission"]]
    assert h[0]["model"] == {"name": "A1", "dealing": "A", "information": 1, "freedom": "parlor", "commission": "0"}
    assert h[4]["model"] == {"name": "punto banco", "dealing": "B", "commission": "1/20"}
    banque = report["baccara_banque"]["shoes"][-1]["solutions"][0]["model"]
    assert h[5]["model"] == banque and h[5]["model"]["name"] == "A1"


def test_the_text_report_opens_with_it() -> None:
    out = run_cli(["report"]).out
    head = out.split("\n1. Punto banco")[0]
    assert "In brief" in head
    for needle in (
        "1.2799 % (679568/53094899)",
        "Kemeny and Snell's game (model A1 parlor)",
        "model B1 parlor",
        "model B1 casino",
        "both sides lose to the house",
        "Banker bet 1.0579 %",
        "Player bet 1.2351 %",
    ):
        assert needle in head.replace("\n    ", " "), needle


def test_without_commission_the_headline_says_nothing_of_it() -> None:
    data = json.loads(run_cli(["report", "--decks", "inf", "--commission", "0", "--format", "json"]).out)
    assert [a["values"] for a in data["headline"]][:3] == [
        {"value": "679568/53094899"},
        {"value": "4560/371293"},
        {"Banker bet": "256786/24134045", "Player bet": "4560/371293"},
    ]
