"""The table's logs audited by an independent replay (tests/table_audit.py), over many random tables.

Each case draws a random table (chemin de fer, banque limitée or ouverte; seats, limits, both taxes,
the house's rebank rule, shoes of one or two decks known by rank or by value, every burn, the cut, the
casino or the parlor tableau) and random policies for every seat (stakes, every banco call, suivi,
banco double, garage, suites, bids, raising the bank), plays a few sessions with ``--log`` and hands
the log, and nothing else, to the auditor, which replays every coup from the header and the rules.
The summary's exact totals must agree with the log's. The default run audits a fixed batch of a few
thousand coups in seconds and checks that the batch reaches every call kind and every event; ``-m
slow`` audits many more.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from table_audit import Audit, AuditError, audit

from solver.cards import Shoe
from solver.rules.tableau import CHEMIN_PARLOR
from solver.sessions import Event, Policies, TableConfig, summarize
from solver.simulate import KEMENY_SNELL
from solver.simulate.config import Burn
from solver.strategy import Strategy
from solver.strategy.infoset import InfoSet, Side

CHEMIN_CALLS = ("none", "solo", "a_deux", "avec", "marche")
BANQUE_CALLS = ("none", "solo", "cheval")
CALL_KINDS = {"suivi", "solo", "a_deux", "avec", "marche", "cheval"}


def random_table(rng: random.Random) -> TableConfig:
    game = rng.choice(["chemin", "chemin", "banque", "banque"])
    banco = rng.choice([1, 7, 100, 250])
    kind = rng.choice(["limitee", "ouverte"])
    decks = rng.choice([1, 1, 2])
    shoe = Shoe.decks(decks) if rng.random() < 0.7 else Shoe.from_values(Shoe.decks(decks).values)
    burn = rng.choice([Burn("none"), Burn("fixed", rng.randint(1, 5)), Burn("turn")])
    cut = rng.choice([None, None, 14, 30])
    return TableConfig(
        game,
        seats=rng.randint(8, 12),
        minimum_banco=banco,
        minimum_stake=Fraction(banco, rng.choice([1, 2, 3, 10])),
        banque=kind,
        rebank=game == "banque" and kind == "limitee" and rng.random() < 0.5,
        capital_tax=rng.choice([None, Fraction(1, 40), Fraction(1, 20)]) if game == "banque" else None,
        tax=rng.choice([None, None, Fraction(0), Fraction(1, 7)]),
        shoes=rng.randint(1, 3),
        shoe=shoe,
        burn=burn,
        cut=cut,
        tableau=rng.choice(["casino", "casino", "parlor"]),
    )


def random_policy(rng: random.Random, table: TableConfig) -> dict[str, object]:
    banco, floor = Fraction(table.minimum_banco), Fraction(table.stake_floor)

    def maybe(scale: Fraction) -> str | None:
        return None if rng.random() < 0.5 else str(scale * rng.randint(0, 40) / 4)

    fair = max(floor, banco / (table.seats - 2))  # enough, all together, for the minimum banco
    stake = rng.choice([Fraction(0), floor, fair, fair * rng.randint(1, 6), floor + Fraction(rng.randint(0, 30), 3)])
    calls = CHEMIN_CALLS if table.game == "chemin" else BANQUE_CALLS if table.banque == "limitee" else ("none",)
    return {
        "bankroll": str(rng.choice([banco * rng.randint(0, 3), banco * rng.randint(5, 60), banco * 100])),
        "stake": str(stake),
        "banco": rng.choice(calls),
        "banco_up_to": maybe(banco),
        "suivi": rng.random() < 0.7,
        "take_bank": rng.random() < 0.9,
        "bank": str(banco + Fraction(rng.randint(0, 12 * int(banco)), 3)),
        "garage": rng.random() < 0.7,
        "pass_after": rng.randint(0, 4),
        "take_suite_up_to": maybe(banco * 3),
        "bid": None if rng.random() < 0.7 else str(banco + rng.randint(0, 40)),
        "double_up_to": None if rng.random() < 0.7 else str(banco * rng.randint(1, 4)),
        "raise_bank": rng.random() < 0.3,
        "rebank": rng.random() < 0.7,
    }


def random_strategy(rng: random.Random, table: TableConfig) -> Strategy:
    if table.tableau.name == "casino":
        return KEMENY_SNELL
    choices = {InfoSet(Side.PONTE, 5): Fraction(rng.randint(0, 4), 4)}
    for total, seen in CHEMIN_PARLOR.free_banker_cells():
        choices[InfoSet(Side.BANKER, total, seen=(seen,))] = rng.choice(
            [Fraction(0), Fraction(1), Fraction(rng.randint(1, 3), 4)]
        )
    return Strategy(CHEMIN_PARLOR, choices, "random parlor strategy").check()


def play_and_audit(case: int, tmp: Path, sessions: int = 3) -> Audit:
    """Play case ``case`` (its seed) with a log, and audit the log; the summary's totals against it."""
    rng = random.Random(case)
    table = random_table(rng)
    default = random_policy(rng, table)
    seats = {str(s): random_policy(rng, table) for s in rng.sample(range(1, table.seats + 1), rng.randint(0, table.seats))}
    policies = Policies.from_mapping({**default, "seats": seats}, table, f"case {case}")
    log = tmp / f"case{case}.jsonl"
    summary = summarize(table, policies, random_strategy(rng, table), sessions=sessions, seed=case, log=str(log))
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    try:
        result = audit(lines)
    except AuditError as e:
        raise AssertionError(f"case {case}: {e}") from None
    totals = summary.totals()
    assert result.coups == totals["coups"] and result.sessions == totals["sessions"] == sessions
    assert result.totals["tax"] == totals["tax"] and result.totals["at_stake"] == totals["at_stake"]
    assert dict(result.ends) == summary.ends()
    return result


def audit_batch(cases: range, tmp: Path) -> Audit:
    total = Audit()
    for case in cases:
        r = play_and_audit(case, tmp)
        total.sessions += r.sessions
        total.coups += r.coups
        total.cards += r.cards
        total.events.update(r.events)
        total.calls.update(r.calls)
        total.ends.update(r.ends)
    return total


def test_the_auditor_passes_every_log_of_a_batch_of_random_tables(tmp_path: Path) -> None:
    """A fixed batch of random tables: every log audited, and the batch reaches every call kind, every
    event and every way a session ends (so the audit has tried every rule)."""
    total = audit_batch(range(120), tmp_path)
    assert total.coups > 3_000, total.coups
    assert set(total.calls) == CALL_KINDS, total.calls
    assert set(total.events) == {e.value for e in Event}, set(Event) - set(total.events)
    assert len(total.ends) == 4, total.ends


@pytest.mark.slow
def test_the_auditor_passes_many_more_random_tables(tmp_path: Path) -> None:
    total = audit_batch(range(1000, 3000), tmp_path)
    assert total.coups > 50_000


# -- the auditor can fail ----------------------------------------------------------------------------


def _default_log(tmp: Path, *args: str) -> list[dict]:  # type: ignore[type-arg]
    from conftest import run_cli

    log = tmp / "default.jsonl"
    r = run_cli(["table", "--seed", "3", "--log", str(log), *args])
    assert r.code == 0, r.err
    return [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]


def _third_card(lines: list[dict]) -> None:  # type: ignore[type-arg]
    line = lines[1]  # the ponte's 5, 3 is a natural 8: no third card
    line["ranks"]["ponte"].append("A")
    line["cards"]["ponte"].append(1)


TAMPERING = [
    ("a stake covered from the wrong seat", lambda lines: lines[1]["stakes"].update({"2": 0, "7": 20}), "stakes is"),
    ("the house's take off by a unit", lambda lines: lines[3].update(tax=lines[3]["tax"] + 1), "tax is"),
    ("a third card after a natural", _third_card, "a third card after a natural"),
    ("more kings than the shoe holds", lambda lines: lines[1]["ranks"].update(ponte=["K"] * 25), "more cards 'K'"),
    ("no burn at a new shoe", lambda lines: lines[1].update(burned=None), "a new shoe without its burn"),
    ("the session's end left out", lambda lines: lines[-1].update(ended=None), "ended is None"),
    (
        "the minimum banco changed in the header",
        lambda lines: lines[0]["table"].update(minimum_banco=200),
        "after the session ended",
    ),
    ("a policy changed in the header", lambda lines: lines[0]["policies"]["seats"]["4"].update(stake=30), "offered is"),
    ("money taken from a seat", lambda lines: lines[5]["bankrolls"].update({"9": lines[5]["bankrolls"]["9"] - 1}), "bankrolls"),
]


@pytest.mark.parametrize("why,tamper,message", TAMPERING, ids=[t[0] for t in TAMPERING])
def test_the_auditor_finds_a_tampered_line(why: str, tamper, message: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    lines = _default_log(tmp_path)
    assert audit(lines).coups == len(lines) - 1
    tamper(lines)
    with pytest.raises(AuditError, match=message):
        audit(lines)


def test_the_auditor_counts_what_it_checked(tmp_path: Path) -> None:
    lines = _default_log(tmp_path, "--sessions", "2")
    result = audit(lines)
    coups = [x for x in lines if x["type"] == "coup"]
    assert result.sessions == 2 and result.coups == len(coups)
    assert result.cards == sum(len(h) for x in coups for h in x["ranks"].values()) + sum(len(x["burned"] or []) for x in coups)
    assert Counter(e for x in coups for e in x["event"]) == result.events


SOLVED = [
    ["--strategy", "solved", "--information", "1", "--decks", "1"],
    ["--strategy", "solved", "--information", "3", "--decks", "1", "--freedom", "parlor"],
    ["--game", "banque", "--strategy", "solved", "--information", "1", "--second-player", "blind", "--rebank"],
]


@pytest.mark.parametrize("args", SOLVED, ids=[" ".join(a) for a in SOLVED])
def test_the_auditor_passes_the_solved_strategies(args: list[str], tmp_path: Path) -> None:
    """The solver's equilibria as the table plays them: chemin de fer's cells (casino and parlor) read
    from the header, baccara banque's equilibrium held to the tableau's fixed cells."""
    lines = _default_log(tmp_path, "--sessions", "3", *args)
    assert audit(lines).coups > 20
