"""The table follows the rule sheet: one test for each rule issue 25 found broken (each failed before the fix).

The rule sheet is the seed's chemin de fer and baccara banque text (German); the words quoted beside
each test are the sheet's. Coups are settled with fixed outcomes (no cards) where the test is about
money, so every amount is exact and worked out by hand in the test's description.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from fractions import Fraction as F
from pathlib import Path

import pytest
from conftest import run_cli

from solver.errors import InputError
from solver.sessions import (
    Dealt,
    Outcome,
    Policies,
    TableConfig,
    TableState,
    apply_coup,
    play_session,
    start,
    summarize,
    table_play,
)
from solver.sessions import banque as bq
from solver.sessions import chemin as ch
from solver.simulate import KEMENY_SNELL
from solver.strategy import parse_choice

B, P, T = Outcome.BANKER, Outcome.PONTE, Outcome.TIE
CHEMIN = TableConfig("chemin")  # 10 seats, minimum banco 100, minimum stake 10, tax 1/20
LIMITEE = TableConfig("banque")
OUVERTE = TableConfig("banque", banque="ouverte")


def policies(table: TableConfig = CHEMIN, seats: dict[int, dict[str, object]] | None = None, **default: object) -> Policies:
    return Policies.from_mapping({**default, "seats": {str(k): v for k, v in (seats or {}).items()}}, table)


def fixed(*outcomes: Outcome | tuple[Outcome, Outcome], cut_at: int = 0) -> Iterator[Dealt]:
    """Dealt coups with these outcomes; the cut card appears with coup ``cut_at`` (0: never)."""
    for k, o in enumerate(outcomes, 1):
        yield Dealt(o if isinstance(o, tuple) else (o,), {}, k == cut_at)


def play(table: TableConfig, pols: Policies, outcomes: list, state: TableState | None = None, cut_at: int = 0) -> list:  # type: ignore[type-arg]
    """Apply coups with the given outcomes (until the session ends); the records. Money is conserved."""
    if state is None:
        state, _ = start(table, pols)
    total = state.money()
    deals = fixed(*outcomes, cut_at=cut_at)
    records = []
    for _ in outcomes:
        if state.ended:
            break
        state, rec = apply_coup(table, pols, state, lambda _stakes: next(deals))
        assert state.money() == total
        records.append(rec)
    return records


def held(banker: int = 1, bank: F | int = 100, **kw: object) -> TableState:
    """A chemin de fer table where ``banker`` holds ``bank`` (every seat with 10 000 outside it)."""
    return TableState((10_000,) * 10, banker=banker, turn=kw.pop("turn", banker), bank=bank, **kw)  # type: ignore[arg-type]


def bstate(bank: int = 100, **kw: object) -> TableState:
    return TableState((10_000,) * 10, banker=1, turn=1, bank=bank, capital=bank, **kw)  # type: ignore[arg-type]


# 1 -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("table", [CHEMIN, LIMITEE, OUVERTE], ids=["chemin", "limitee", "ouverte"])
def test_1_the_game_ends_when_the_pontes_stakes_fall_short_of_the_minimum_banco(table: TableConfig) -> None:
    """ "Erreichen die addierten Einsätze aller Pointeure nicht das Minimumbanco, so endet die Partie":
    nine pontes staking 10 each offer 90 against a minimum banco of 100, so no coup is played (at
    banque too: "otherwise the rules of chemin de fer")."""
    pols = policies(table, stake=10)
    assert list(play_session(table, pols, table_play(table, KEMENY_SNELL), seed=3)) == []
    state, events = start(table, pols)
    assert state.ended == "the pontes' stakes fall short of the minimum banco" and "session ends" in events
    assert state.bankrolls == (10_000,) * 10  # the bank went back to its banker


def test_1_the_default_table_is_one_the_sheet_allows() -> None:
    """The defaults: nine pontes of 20 offer 180 against the minimum banco of 100 (eight of 20 with a
    co-banker: 160), at every table size the defaults can build."""
    for seats in range(8, 13):
        table = TableConfig("chemin", seats=seats)
        assert Policies.defaults(table)[2].stake * (seats - 2) >= table.minimum_banco
    recs = list(play_session(CHEMIN, Policies.defaults(CHEMIN), table_play(CHEMIN, KEMENY_SNELL), seed=3))
    assert len(recs) > 40 and recs[-1].after.ended == "shoes finished"


def test_1_the_game_ends_when_the_pontes_run_short_during_the_session() -> None:
    """Pontes with 45 each stake 20: the stakes offered shrink as they lose, and the session ends
    after the first coup whose next stakes would fall short of 100 — never a coup with less offered."""
    table = TableConfig("chemin", shoes=3)
    pols = policies(stake=20, seats={s: {"bankroll": 45} for s in range(2, 11)})
    recs = list(play_session(table, pols, table_play(table, KEMENY_SNELL), seed=5))
    assert recs[-1].after.ended == "the pontes' stakes fall short of the minimum banco"
    for r in recs:
        offered = sum(a for s, _, a in r.stakes.offered)
        assert r.stakes.carried or offered >= 100, r.coup


# 2 -------------------------------------------------------------------------------------------------


def test_2_a_suite_is_never_offered_below_the_minimum_banco() -> None:
    """The minimum banco is "the least sum a banker must put up": a bank of 39/2 passed in a suite is
    offered at 100, and seat 5, who takes suites up to 1000, puts up 100."""
    pols = policies(seats={1: {"pass_after": 1}, 5: {"take_suite_up_to": 1000}})
    opened = ch.pass_hand(CHEMIN, pols, held(bank=F(39, 2), wins=1))
    state = opened[0]
    assert (state.banker, state.bank) == (5, 100)
    assert state.bankrolls[0] == 10_000 + F(39, 2) and state.bankrolls[4] == 10_000 - 100


def test_2_no_bank_below_the_minimum_banco_in_play() -> None:
    """One ponte stakes 10, the others nothing: before the fix the bank was garaged down to 10, won to
    39/2 and sold as a suite at 39/2; now the session does not start (10 < 100)."""
    pols = policies(stake=0, seats={3: {"stake": 10}, 1: {"pass_after": 2}, 5: {"take_suite_up_to": 1000}})
    for r in play(CHEMIN, pols, [B, B, B, B]):
        assert r.after.banker is None or r.after.bank >= 100 * (1 + (r.after.co_banker is not None)) or r.after.wins


# 3 -------------------------------------------------------------------------------------------------


def test_3_during_a_suite_stakes_are_covered_from_the_original_banker_s_right() -> None:
    """ "Während einer Suite ist für das Prime-Recht der Platz zur Rechten des ursprünglichen Bankiers
    maßgeblich … auch maßgeblich für die Gültigkeit der Einsätze": seat 7 holds a suite of seat 3's
    bank; stakes of 30 are covered from seat 4 (seat 7 skipped), not from seat 8."""
    _, stakes, _ = ch.prepare(CHEMIN, policies(stake=30), held(banker=7, turn=3, suite=True))
    assert [(s, a) for s, _, a in stakes.covered] == [(4, 30), (5, 30), (6, 30), (8, 10)]
    assert stakes.hands == (4,)


# 4 -------------------------------------------------------------------------------------------------


def test_4_no_coup_is_dealt_with_nothing_at_stake() -> None:
    """Everyone stakes 0 and calls no banco: the session ends before any coup."""
    pols = policies(stake=0)
    recs = list(play_session(CHEMIN, pols, table_play(CHEMIN, KEMENY_SNELL), seed=1))
    assert all(r.bank > 0 for r in recs) and recs == []


# 5, 6 ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("cell", ["B7/S=D", "B0/5=S", "P4=S", "P6=D", "B6/6=S"])
def test_5_draw_may_set_only_the_sheet_s_free_cells(cell: str) -> None:
    """At chemin de fer only the sheet's free cells (P5, B3/9, B5/4) are free: a strategy that
    overrides a fixed cell is refused by the table, not dealt."""
    strategy = KEMENY_SNELL.with_choices(dict([parse_choice(cell)]))
    with pytest.raises(InputError, match="overrides cells the casino tableau fixes"):
        table_play(CHEMIN, strategy)
    with pytest.raises(InputError, match="overrides cells the casino tableau fixes"):
        table_play(LIMITEE, strategy)


@pytest.mark.parametrize("cell", ["B7/S=D", "B0/5=S", "P4=S"])
def test_6_a_bad_draw_is_refused_before_any_coup_and_leaves_no_log(cell: str, tmp_path: Path) -> None:
    log = tmp_path / "coups.jsonl"
    r = run_cli(["table", "--draw", cell, "--log", str(log)])
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1, r.err
    assert "fixes" in r.err and not log.exists()


def test_6_a_bad_policy_is_refused_before_any_coup_and_leaves_no_log(tmp_path: Path) -> None:
    path, log = tmp_path / "p.json", tmp_path / "coups.jsonl"
    path.write_text(json.dumps({"seats": {"3": {"banco": "solo"}}}))
    r = run_cli(["table", "--game", "banque", "--banque", "ouverte", "--policy", str(path), "--log", str(log)])
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1, r.err
    assert "no banco at banque ouverte" in r.err and not log.exists()


# 7, 8 (banque ouverte) -----------------------------------------------------------------------------


def test_7_banque_ouverte_has_no_banco_calls() -> None:
    """ "Bei Banque ouverte gibt es natürlich keine Banco-Ansage": a banco policy is refused, and the
    engine calls none."""
    with pytest.raises(InputError, match="no banco at banque ouverte"):
        policies(OUVERTE, seats={3: {"banco": "solo"}})
    pols = Policies.from_mapping({"seats": {"3": {"banco": "solo"}}}, LIMITEE)  # a limitee policy ...
    _, stakes, _ = bq.prepare(OUVERTE, pols, bstate())  # ... played at ouverte regardless
    assert stakes.calls == () and stakes.won is None and stakes.total == 9 * 20


def test_8_an_ouverte_banker_who_cannot_cover_the_stakes_does_not_hold_the_bank() -> None:
    """Nine stakes of 30 (270): seat 1, with 150, cannot cover them ("nachschießen oder die Bank
    abgeben"), so the bank goes to seat 2."""
    state, _ = start(OUVERTE, policies(OUVERTE, stake=30, seats={1: {"bankroll": 150}}))
    assert state.banker == 2


def test_8_an_ouverte_banker_who_can_no_longer_top_up_gives_up_the_bank() -> None:
    """Seat 1 (400) tops the bank of 100 up to the 270 at stake (130 left); both tableaux lose: bank
    0, and 130 cannot cover the next 270: he gives up the bank; no one bids, so the session ends."""
    pols = policies(OUVERTE, stake=30, seats={1: {"bankroll": 400}})
    r = play(OUVERTE, pols, [(P, P)])[0]
    assert r.bank == 270 and "top up" in r.events
    assert "bank given up" in r.events and r.after.banker is None
    assert r.after.ended == "no one bids for the bank" and r.after.bankrolls[0] == 130


# 9, 10 (banque bancos) -----------------------------------------------------------------------------


def test_9_banque_prime_follows_the_seats_right_and_left_in_turn() -> None:
    """The prime runs 2, 10, 3, 9, 4, …: seat 9 (left, second) calls cheval and seat 4 (right, third)
    solo: seat 9 has the prime, whatever came before."""
    pols = policies(LIMITEE, seats={4: {"banco": "solo"}, 9: {"banco": "cheval"}})
    for _ in range(2):
        after, stakes, _ = bq.prepare(LIMITEE, pols, bstate())
        assert stakes.won is not None and stakes.won.seat == 9
        assert [(s, t, a) for s, t, a in stakes.covered] == [(9, 1, 50), (9, 2, 50)]


def test_10_no_fourth_banco_in_a_row() -> None:
    """Seat 3 calls banco à cheval and loses (suivi), breaks even on the suivi (wins tableau 2, loses
    tableau 1), loses the third: "ein drittes Mal, aber kein weiteres Mal" — no fourth banco."""
    pols = policies(LIMITEE, seats={3: {"banco": "cheval"}})
    recs = play(LIMITEE, pols, [(B, B), (B, P), (B, B), (B, B)])
    assert [r.stakes.won.seat if r.stakes.won else None for r in recs[:3]] == [3, 3, 3]
    assert recs[1].stakes.won.kind == "suivi" and recs[2].stakes.won.kind == "suivi"
    assert all(c.seat != 3 for c in recs[3].stakes.calls)


# 11 ------------------------------------------------------------------------------------------------


def test_11_a_bank_that_never_plays_pays_no_capital_tax() -> None:
    """Capital tax 1/40: seat 1 buys the bank at 300 and pays 15/2 with its first coup; the cut card
    comes out in that coup, both tableaux lose (150 each), the bank is busted and seat 5 buys the next
    at 200 — which never plays, so it owes nothing."""
    table = TableConfig("banque", capital_tax="1/40")
    pols = policies(table, stake=150, seats={1: {"bid": 300, "rebank": False}, 5: {"bid": 200}})
    state, _ = start(table, pols)
    assert (state.banker, state.bank) == (1, 300)
    r = play(table, pols, [(P, P)], state, cut_at=1)[0]
    assert "busted" in r.events and "auction" in r.events and r.after.ended == "shoes finished"
    assert r.tax == F(15, 2) and r.after.house == F(15, 2)
    assert r.after.bankrolls[4] == 10_000


# 12 ------------------------------------------------------------------------------------------------


def test_12_an_auction_tie_in_a_suite_goes_to_the_original_banker_s_right() -> None:
    """Seat 7 holds a suite of seat 3's bank and passes after a win; seats 5 and 9 bid 300: from seat
    3's right, 5 comes first (from seat 7's, 9 would)."""
    pols = policies(seats={7: {"pass_after": 1}, 5: {"bid": 300}, 9: {"bid": 300}})
    r = play(CHEMIN, pols, [B], held(banker=7, turn=3, suite=True))[0]
    assert "auction" in r.events and (r.after.banker, r.after.bank, r.after.turn) == (5, 300, 3)


def test_12_a_busted_bank_with_no_bid_ends_the_session() -> None:
    """Banque limitée: the bank is busted and auctioned ("es erfolgt eine neue Versteigerung"); with no
    bid the session ends (the bank is not handed to the next seat)."""
    pols = policies(LIMITEE, stake=50, seats={1: {"rebank": False}})
    r = play(LIMITEE, pols, [(P, P)])[0]
    assert "busted" in r.events and r.after.banker is None
    assert r.after.ended == "no one bids for the bank"


def test_12_the_house_may_let_a_busted_banker_put_up_the_bank_again() -> None:
    """ "Jedoch ist es in einigen Casinos dem Bankier auch gestattet, die Bank fortzuführen": with the
    house rule (rebank) the busted banker puts up his 100 again; without it, no."""
    table = TableConfig("banque", rebank=True)
    r = play(table, policies(table, stake=50), [(P, P)])[0]
    assert r.events == ("busted", "rebank") and (r.after.banker, r.after.bank) == (1, 100)
    r = play(LIMITEE, policies(LIMITEE, stake=50), [(P, P)])[0]
    assert "rebank" not in r.events


# 13 ------------------------------------------------------------------------------------------------


def test_13_a_short_first_coup_garages_the_excess_and_plays_for_the_reduced_bank() -> None:
    """A bank of 200, nine stakes of 20 (180): the 20 goes to the garage on the run's first coup too,
    and 180 is the bank; a win makes it 180 + 171."""
    after, stakes, events = ch.prepare(CHEMIN, policies(), held(bank=200))
    assert events == ("garage",) and (after.bank, after.garage, stakes.total) == (180, 20, 180)
    r = play(CHEMIN, policies(), [B], held(bank=200))[0]
    assert (r.after.bank, r.after.garage) == (180 + 180 - 9, 20)


def test_13_banco_et_la_table_marche_is_avec_and_the_difference() -> None:
    """Seat 7 calls banco et la table marche on 100; stakes of 30: the table takes up to half (30 and
    20) and seat 7 the rest, 50 — not the nothing the table used to leave him."""
    _, stakes, _ = ch.prepare(CHEMIN, policies(stake=30, seats={7: {"banco": "marche"}}), held())
    assert {s: a for s, _, a in stakes.covered} == {7: 50, 2: 30, 3: 20}
    _, stakes, _ = ch.prepare(CHEMIN, policies(stake=0, seats={2: {"stake": 20}, 7: {"banco": "marche"}}), held())
    assert {s: a for s, _, a in stakes.covered} == {7: 80, 2: 20}


def test_13_the_solved_strategy_at_the_table_keeps_the_sheet_s_fixed_cells() -> None:
    r = run_cli(["table", "--strategy", "solved", "--information", "1", "--decks", "1", "--format", "json", "--workers", "1"])
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert out["table"]["tableau"] == "casino" and "casino" in out["strategy"]


# 14 ------------------------------------------------------------------------------------------------


def test_14_a_table_where_no_coup_is_played_says_so() -> None:
    """Every bankroll below the minimum banco: no coup, no shoe, no bank run (not "1 shoe" and "2.00")."""
    pols = policies(bankroll=50)
    s = summarize(CHEMIN, pols, KEMENY_SNELL, sessions=3, seed=1)
    est = s.estimates()
    assert s.totals()["coups"] == 0 and est["shoes_per_session"].value == 0
    assert math.isnan(est["run_length"].value) and s.ends() == {"no one can hold the bank": 3}
