"""The rule sheet's examples, table by table: banco priorities, covering, garage, suite, double, taxes.

Each row is an example written from the rules of the seed's rule sheet (issue 15, quoted in
solver/sessions/chemin.py and solver/sessions/banque.py); the expected answer is worked out by hand in the
row's description. Coups are settled with fixed outcomes (no cards), so every amount is exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction as F

import pytest

from solver.sessions import Call, CallKind, Dealt, Outcome, Policies, TableConfig, TableState, apply_coup, start
from solver.sessions import banque as bq
from solver.sessions import chemin as ch
from solver.sessions.deal import CheminOnEachTableau, CheminPlay

B, P, T = Outcome.BANKER, Outcome.PONTE, Outcome.TIE
CHEMIN = TableConfig("chemin")  # 10 seats, minimum banco 100, minimum stake 10, tax 1/20


def policies(table: TableConfig = CHEMIN, seats: dict[int, dict[str, object]] | None = None, **default: object) -> Policies:
    return Policies.from_mapping({**default, "seats": {str(k): v for k, v in (seats or {}).items()}}, table)


def fixed(*outcomes: Outcome | tuple[Outcome, Outcome]) -> Iterator[Dealt]:
    for o in outcomes:
        yield Dealt(o if isinstance(o, tuple) else (o,), {}, False)


def play(table: TableConfig, pols: Policies, outcomes: list, state: TableState | None = None):  # type: ignore[no-untyped-def]
    """Apply coups with the given outcomes; the records. Money must be conserved at every coup."""
    if state is None:
        state, _ = start(table, pols)
    total = state.money()
    deals = fixed(*outcomes)
    records = []
    for _ in outcomes:
        state, rec = apply_coup(table, pols, state, lambda _stakes: next(deals))
        assert state.money() == total
        records.append(rec)
        if state.ended:
            break
    return records


def held(banker: int = 1, bank: F | int = 100, **kw: object) -> TableState:
    """A chemin de fer table where ``banker`` holds ``bank`` (every seat with 10 000 outside it)."""
    return TableState((10_000,) * 10, banker=banker, turn=kw.pop("turn", banker), bank=bank, **kw)  # type: ignore[arg-type]


# -- chemin de fer: who wins the banco ---------------------------------------------------------------

CALL_CASES = [
    # (description, state, per-seat policies, winning call, partner)
    (
        "solo beats a deux and avec, wherever they sit",
        held(),
        {2: {"banco": "avec"}, 3: {"banco": "a_deux"}, 9: {"banco": "solo"}},
        Call(9, "solo"),
        None,
    ),
    (
        "a deux beats avec; the next a deux caller is the partner",
        held(),
        {2: {"banco": "avec"}, 5: {"banco": "a_deux"}, 8: {"banco": "a_deux"}},
        Call(5, "a_deux"),
        8,
    ),
    ("avec la table beats et la table marche", held(), {2: {"banco": "marche"}, 6: {"banco": "avec"}}, Call(6, "avec"), None),
    (
        "prime: the seat nearest the banker's right",
        held(),
        {4: {"banco": "solo"}, 3: {"banco": "solo"}, 10: {"banco": "solo"}},
        Call(3, "solo"),
        None,
    ),
    (
        "prime goes round the table: banker 8, so 9, 10, 1, 2 ...",
        held(banker=8),
        {2: {"banco": "solo"}, 10: {"banco": "solo"}},
        Call(10, "solo"),
        None,
    ),
    ("suivi before anyone, even a nearer solo", held(suivi=7), {2: {"banco": "solo"}}, Call(7, "suivi"), None),
    (
        "suivi declined by its policy: the prime decides",
        held(suivi=7),
        {2: {"banco": "solo"}, 7: {"suivi": False}},
        Call(2, "solo"),
        None,
    ),
    (
        "suivi only for a seat that can cover the bank",
        held(suivi=7).credit([(7, -9_950)]),
        {2: {"banco": "solo"}},
        Call(2, "solo"),
        None,
    ),
    (
        "during a suite the prime counts from the original banker's seat (3), not the banker's (7)",
        held(banker=7, turn=3, suite=True),
        {8: {"banco": "solo"}, 4: {"banco": "solo"}},
        Call(4, "solo"),
        None,
    ),
    (
        "during a suite the original banker, now a ponte, has the prime last",
        held(banker=7, turn=3, suite=True),
        {3: {"banco": "solo"}, 2: {"banco": "solo"}},
        Call(2, "solo"),
        None,
    ),
    (
        "the same calls outside a suite: from the banker's right",
        held(banker=7),
        {8: {"banco": "solo"}, 4: {"banco": "solo"}},
        Call(8, "solo"),
        None,
    ),
    (
        "a banco only up to the policy's limit",
        held(bank=500),
        {2: {"banco": "solo", "banco_up_to": 400}, 5: {"banco": "solo"}},
        Call(5, "solo"),
        None,
    ),
    ("no call: ordinary stakes", held(), {}, None, None),
]


@pytest.mark.parametrize("why,state,seats,won,partner", CALL_CASES, ids=[c[0] for c in CALL_CASES])
def test_banco_priorities(why: str, state: TableState, seats: dict, won: Call | None, partner: int | None) -> None:
    _, stakes, _ = ch.prepare(CHEMIN, policies(seats=seats), state)
    assert (stakes.won, stakes.partner) == (won, partner), why


# -- chemin de fer: what is covered -----------------------------------------------------------------

COVER_CASES = [
    # (description, state, default policy, per-seat policies, covered seat -> amount, events)
    (
        "stakes covered from the banker's right until the bank is reached, the last in part",
        held(),
        {"stake": 30},
        {},
        {2: 30, 3: 30, 4: 30, 5: 10},
        (),
    ),
    ("stakes wrap round from the banker's right", held(banker=9), {"stake": 40}, {}, {10: 40, 1: 40, 2: 20}, ()),
    (
        "the banker raises the bank to cover every stake",
        held(),
        {"stake": 30},
        {1: {"raise_bank": True}},
        {s: 30 for s in range(2, 11)},
        ("bank raised",),
    ),
    ("solo: the whole bank, every other stake refused", held(), {"stake": 30}, {6: {"banco": "solo"}}, {6: 100}, ()),
    (
        "avec la table: half the bank, the table covers the rest in seat order",
        held(),
        {"stake": 30},
        {6: {"banco": "avec"}},
        {6: 50, 2: 30, 3: 20},
        (),
    ),
    (
        "a deux: half each, the rest refused; 75 splits into 75/2",
        held(bank=75),
        {"stake": 10},
        {4: {"banco": "a_deux"}, 9: {"banco": "a_deux"}},
        {4: F(75, 2), 9: F(75, 2)},
        (),
    ),
    ("a lone a deux stands as avec la table", held(), {"stake": 30}, {5: {"banco": "a_deux"}}, {5: 50, 2: 30, 3: 20}, ()),
    (
        "et la table marche: the table's stakes stand, the caller takes what they leave",
        held(),
        {"stake": 0},
        {2: {"stake": 20}, 3: {"stake": 20}, 7: {"banco": "marche"}},
        {2: 20, 3: 20, 7: 60},
        (),
    ),
    (
        "stakes short of the bank on the run's first coup: the excess goes to the garage",
        held(bank=200),
        {"stake": 10},
        {},
        {s: 10 for s in range(2, 11)},
        ("garage",),
    ),
    (
        "stakes short after a win: the banker takes the excess into the garage",
        held(bank=200, wins=1),
        {"stake": 10},
        {},
        {s: 10 for s in range(2, 11)},
        ("garage",),
    ),
    (
        "... unless his policy keeps it in the bank (it waits aside for the coup)",
        held(bank=200, wins=1),
        {"stake": 10},
        {1: {"garage": False}},
        {s: 10 for s in range(2, 11)},
        (),
    ),
    (
        "the co-banker stakes nothing against his own bank",
        held(bank=200, co_banker=2),
        {"stake": 30},
        {},
        {3: 30, 4: 30, 5: 30, 6: 30, 7: 30, 8: 30, 9: 20},
        (),
    ),
]


@pytest.mark.parametrize("why,state,default,seats,covered,events", COVER_CASES, ids=[c[0] for c in COVER_CASES])
def test_stakes_covered(why: str, state: TableState, default: dict, seats: dict, covered: dict, events: tuple) -> None:
    after, stakes, ev = ch.prepare(CHEMIN, policies(seats=seats, **default), state)
    assert {s: a for s, _, a in stakes.covered} == covered, why
    assert ev == events
    assert after.money() == state.money()
    if "garage" in events:
        assert (after.bank, after.garage) == (90, 110)
    elif not events:
        assert (after.bank, after.garage) == (state.bank, state.garage)


def test_the_hand_goes_to_the_largest_stake_and_the_prime_breaks_ties() -> None:
    _, stakes, _ = ch.prepare(CHEMIN, policies(stake=10, seats={5: {"stake": 40}, 8: {"stake": 40}}), held())
    assert stakes.hands == (5,)


# -- chemin de fer: settling and what follows -------------------------------------------------------


def test_banker_wins_pays_five_per_cent_and_keeps_the_bank() -> None:
    """Bank 100, five stakes of 20 cover it (the other four refused): tax 5; bank 100 + 100 - 5 = 195."""
    r = play(CHEMIN, policies(), [B])[0]
    assert (r.bank, r.tax, r.after.bank, r.after.house, r.after.banker) == (100, 5, 195, 5, 1)
    assert r.after.bankrolls == (9_900,) + (9_980,) * 5 + (10_000,) * 4


def test_banker_loses_the_bank_passes_to_his_right() -> None:
    r = play(CHEMIN, policies(), [P])[0]
    assert r.events == ("bank passes",)
    assert r.after.banker == 2 and r.after.bank == 100
    assert r.after.bankrolls[0] == 9_900  # 100 paid to the pontes


def test_loss_after_a_garage_returns_the_garage() -> None:
    """Win (bank 195), then 180 at stake with 15 garaged; a loss pays 180 and returns 15."""
    recs = play(CHEMIN, policies(), [B, P])
    assert recs[1].events == ("garage", "bank passes")
    assert recs[1].after.bankrolls[0] == 10_000 - 100 + 15


def test_suite_taken_at_its_amount_then_the_bank_returns_to_the_original_turn() -> None:
    """Seat 1 passes after one win (bank 195); seat 5 buys the suite; when seat 5 loses, the bank
    goes to seat 2 (after the original banker), not to seat 6."""
    pols = policies(seats={1: {"pass_after": 1}, 5: {"take_suite_up_to": 1000}})
    recs = play(CHEMIN, pols, [B, P])
    assert recs[0].events == ("suite", "suite taken")
    assert (recs[0].after.banker, recs[0].after.bank, recs[0].after.turn, recs[0].after.suite) == (5, 195, 1, True)
    assert recs[0].after.bankrolls[0] == 10_000 - 100 + 195  # he took his bank
    assert recs[1].after.banker == 2


def test_suite_auctioned_to_the_highest_bid_then_to_the_next_player() -> None:
    pols = policies(seats={1: {"pass_after": 1}, 4: {"bid": 150}, 6: {"bid": 300}})
    r = play(CHEMIN, pols, [B])[0]
    assert r.events == ("suite", "auction") and (r.after.banker, r.after.bank, r.after.turn) == (6, 300, 1)
    r = play(CHEMIN, policies(seats={1: {"pass_after": 1}, 2: {"bank": 250}}), [B])[0]
    assert r.events == ("suite", "bank passes") and (r.after.banker, r.after.bank) == (2, 250)


def test_the_bank_skips_a_seat_that_will_not_or_cannot_hold_it() -> None:
    pols = policies(seats={2: {"take_bank": False}, 3: {"bankroll": 50}})
    assert play(CHEMIN, pols, [P])[0].after.banker == 4


def test_banco_double_shares_wins_and_losses_equally() -> None:
    """Seat 3 doubles seat 1's bank of 100: bank 200; stakes 160 (eight pontes of 20, the co-banker
    aside), 40 garaged. A win: tax 8, bank 312. Then 160 at stake and 192 garaged; a loss returns the
    garage, 96 to each owner. Seat 3 then doubles seat 2's new bank too."""
    pols = policies(seats={3: {"double_up_to": 100}})
    state, events = start(CHEMIN, pols)
    assert events == ("banco double",) and (state.banker, state.co_banker, state.bank) == (1, 3, 200)
    recs = play(CHEMIN, pols, [B, P], state)
    assert (recs[0].bank, recs[0].tax, recs[0].after.bank, recs[0].after.garage) == (160, 8, 312, 40)
    assert recs[1].events == ("garage", "bank passes", "banco double")
    assert recs[1].after.bankrolls[0] == 9_900 + 96
    assert recs[1].after.bankrolls[2] == 9_900 + 96 - 100 and recs[1].after.co_banker == 3


def test_a_tie_voids_the_coup_and_the_stakes_stay() -> None:
    """After a tie the same stakes are played again, though seat 2 would now call banco."""
    recs = play(CHEMIN, policies(), [T, B])
    assert recs[0].after.carried is not None and recs[0].tax == 0
    assert recs[1].stakes.carried and recs[1].stakes.covered == recs[0].stakes.covered


def test_suivi_follows_a_lost_banco_and_has_no_limit_at_chemin_de_fer() -> None:
    pols = policies(seats={1: {"pass_after": 0}, 3: {"banco": "solo", "banco_up_to": 100}, 5: {"banco": "solo"}})
    recs = play(CHEMIN, pols, [B, B, B, B])
    assert [r.stakes.won for r in recs] == [Call(3, "solo")] + [Call(3, "suivi")] * 3


def test_a_marche_caller_who_loses_may_follow() -> None:
    """Seats 2 and 3 take half the bank of 100 (30 and 20) and seat 7, banco et la table marche, the
    other 50: he lost his banco, so he may follow (suivi)."""
    recs = play(CHEMIN, policies(stake=30, seats={7: {"banco": "marche"}}), [B])
    assert recs[0].stakes.won == Call(7, CallKind.MARCHE) and (7, 0, 50) in recs[0].stakes.covered
    assert recs[0].after.suivi == 7


def test_the_session_ends_when_the_pontes_cannot_reach_the_minimum_banco() -> None:
    """Nine pontes of 11 each (99 < 100): the session ends at once, the bank back with its banker."""
    state, events = start(CHEMIN, policies(seats={s: {"bankroll": 11} for s in range(2, 11)}))
    assert events == ("session ends",) and state.ended == "the pontes' stakes fall short of the minimum banco"
    assert state.bankrolls[0] == 10_000 and state.bank == 0


# -- baccara banque -----------------------------------------------------------------------------------

LIMITEE = TableConfig("banque")  # limitée, cagnotte 2 %
OUVERTE = TableConfig("banque", banque="ouverte")  # cagnotte 1.25 %


def bstate(bank: int = 100, **kw: object) -> TableState:
    return TableState((10_000,) * 10, banker=1, turn=1, bank=bank, capital=bank, **kw)  # type: ignore[arg-type]


def test_banque_tableaux_and_covering_nearest_first_right_and_left_in_turn() -> None:
    assert bq.tableaux(LIMITEE, 1) == ([2, 3, 4, 5, 6], [10, 9, 8, 7])
    _, stakes, _ = bq.prepare(LIMITEE, policies(LIMITEE, stake=30), bstate())
    assert stakes.covered == ((2, 1, 30), (10, 2, 30), (3, 1, 30), (9, 2, 10))
    assert stakes.hands == (2, 10)


def test_banque_ouverte_tops_the_bank_up_to_cover_every_stake() -> None:
    after, stakes, events = bq.prepare(OUVERTE, policies(OUVERTE, stake=30), bstate())
    assert events == ("top up",) and stakes.total == after.bank == 270 and after.bankrolls[0] == 10_000 - 170


BANQUE_CALLS = [
    # the prime runs 2, 10, 3, 9, 4, 8, 5, 7, 6 (tableau 1 on the right, tableau 2 on the left)
    (
        "two bancos at once, one from each side, share the bank",
        {3: {"banco": "solo"}, 8: {"banco": "solo"}},
        ((3, 1, 50), (8, 2, 50)),
    ),
    ("banco a cheval against a banco: the prime (3 before 8)", {3: {"banco": "solo"}, 8: {"banco": "cheval"}}, ((3, 1, 100),)),
    ("... (9 before 4)", {4: {"banco": "solo"}, 9: {"banco": "cheval"}}, ((9, 1, 50), (9, 2, 50))),
    ("two callers on one side: the nearest the banker", {4: {"banco": "solo"}, 3: {"banco": "cheval"}}, ((3, 1, 50), (3, 2, 50))),
    (
        "a solo shares only with the first call from the other side",
        {3: {"banco": "solo"}, 9: {"banco": "cheval"}, 8: {"banco": "solo"}},
        ((3, 1, 100),),
    ),
]


@pytest.mark.parametrize("why,seats,covered", BANQUE_CALLS, ids=[c[0] for c in BANQUE_CALLS])
def test_banque_bancos(why: str, seats: dict, covered: tuple) -> None:
    _, stakes, _ = bq.prepare(LIMITEE, policies(LIMITEE, seats=seats), bstate())
    assert stakes.covered == covered, why


def test_banque_suivi_at_most_three_bancos_in_a_row() -> None:
    """Seat 3 calls banco on a bank of 100 only; losing it, he follows twice (suivi), then seat 5's banco."""
    pols = policies(LIMITEE, seats={3: {"banco": "solo", "banco_up_to": 100}, 5: {"banco": "solo"}})
    recs = play(LIMITEE, pols, [(B, B)] * 4)
    assert [r.stakes.won for r in recs] == [Call(3, "solo"), Call(3, "suivi"), Call(3, "suivi"), Call(5, "solo")]


def test_banque_cagnotte_nets_the_two_tableaux() -> None:
    """Tableau 1 stakes 60 and wins, tableau 2 stakes 100 and loses: net 40, cagnotte 2 % = 4/5."""
    pols = policies(LIMITEE, stake=0, seats={1: {"bank": 1000}, 2: {"stake": 60}, 10: {"stake": 100}})
    r = play(LIMITEE, pols, [(P, B)])[0]
    assert (r.tax, r.after.bank) == (F(4, 5), 1000 + 40 - F(4, 5))
    r = play(LIMITEE, pols, [(B, P)])[0]
    assert (r.tax, r.after.bank) == (0, 1000 - 40)


def test_banque_capital_tax_is_taken_once() -> None:
    table = TableConfig("banque", capital_tax="1/40")
    pols = policies(table, seats={1: {"bank": 1000}})
    recs = play(table, pols, [(B, B), (B, B)])
    assert [r.tax for r in recs] == [25, 0]
    assert recs[1].after.bank == 1000 + 180 + 180 and recs[1].after.bankrolls[0] == 10_000 - 1000 - 25


def test_banque_limitee_busted_then_put_up_again_or_auctioned() -> None:
    house = TableConfig("banque", rebank=True)  # the house lets a busted banker put up the sum again
    recs = play(house, policies(house, stake=50), [(P, P)])
    assert recs[0].events == ("busted", "rebank") and recs[0].after.bank == 100
    pols = policies(LIMITEE, stake=50, seats={1: {"rebank": False, "bid": 150}, 5: {"bid": 120}})
    r = play(LIMITEE, pols, [(P, P)])[0]
    assert r.stakes.covered == ((2, 1, 50), (10, 2, 50), (3, 1, 50))
    assert r.events == ("busted", "auction") and (r.after.banker, r.after.bank) == (5, 120)
    assert bq.tableaux(LIMITEE, 5) == ([6, 7, 8, 9, 10], [4, 3, 2, 1])


def test_banque_auction_for_the_session() -> None:
    state, events = start(LIMITEE, policies(LIMITEE, seats={4: {"bid": 2000}, 7: {"bid": 2000}, 9: {"bid": 500}}))
    assert events == ("auction",) and (state.banker, state.bank) == (4, 2000)


def test_banque_banker_draws_for_the_larger_stake() -> None:
    """Casino tableau: 3 draws against a 9 only by the Kemeny-Snell choice, stands against an 8; 6
    draws against a 6 or 7 and stands against a 5."""
    from solver.simulate import KEMENY_SNELL

    p = CheminOnEachTableau(CheminPlay.of(KEMENY_SNELL))
    assert p.banker_draw((3, 0), (9, 8), (F(50), F(10))) == 1
    assert p.banker_draw((3, 0), (9, 8), (F(10), F(50))) == 0
    assert p.banker_draw((3, 0), (9, 8), (F(10), F(10))) == 1  # equal stakes: tableau 1
    assert p.banker_draw((6, 0), (6, 5), (F(10), F(50))) == 0
    assert p.banker_draw((6, 0), (6, 11), (F(10), F(50))) == 1  # tableau 2 settled by a natural


def test_the_table_plays_a_strategy_s_exact_tables_and_nothing_else() -> None:
    """Kemeny-Snell's strategy on the casino tableau: the ponte draws on 2+3 with probability 9/11,
    the banker draws on 1+2 against a 9 and stands on 5+0 against a 4 (a free cell the strategy sets)."""
    from solver.errors import InputError
    from solver.simulate import KEMENY_SNELL

    play = CheminPlay.of(KEMENY_SNELL)
    assert (play.ponte_draw((2, 3)), play.banker_draw((1, 2), 9), play.banker_draw((5, 0), 4)) == (F(9, 11), 1, 0)
    assert CheminPlay.of(play) is play
    with pytest.raises(InputError, match="exact strategy"):
        CheminPlay.of({"player": [[0.5] * 10] * 10})
