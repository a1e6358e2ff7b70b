"""Money is conserved: property tests over random tables, random policies and random seeds.

On every coup of every session: ``sum(bankrolls) + bank + garage + house`` is what the seats sat down
with; no amount is negative or a float; no seat stakes more than it holds; the JSON log line says the
same as the state; and the same seed plays the same session.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cards import Shoe
from solver.sessions import Policies, TableConfig, play_session, table_play
from solver.sessions.money import amount_from_json
from solver.sessions.policy import BANQUE_CALLS, CHEMIN_CALLS
from solver.simulate import KEMENY_SNELL

MAYBE = st.none() | st.integers(0, 40)


@st.composite
def tables(draw: st.DrawFn) -> TableConfig:
    game = draw(st.sampled_from(["chemin", "banque"]))
    banco = draw(st.sampled_from([1, 7, 100, 250]))
    return TableConfig(
        game,
        seats=draw(st.integers(8, 12)),
        minimum_banco=banco,
        minimum_stake=Fraction(banco, draw(st.sampled_from([1, 2, 3, 10]))),
        banque=draw(st.sampled_from(["limitee", "ouverte"])),
        capital_tax=draw(st.sampled_from([None, Fraction(1, 40), Fraction(1, 20)])) if game == "banque" else None,
        tax=draw(st.sampled_from([None, Fraction(0), Fraction(1, 20), Fraction(1, 7)])),
        shoes=draw(st.integers(1, 3)),
        shoe=Shoe.decks(draw(st.integers(1, 2))),
    )


@st.composite
def seat_policy(draw: st.DrawFn, table: TableConfig) -> dict[str, object]:
    banco, floor = table.minimum_banco, table.stake_floor

    def amount(low: Fraction | int, high_units: int) -> str:
        return str(Fraction(low) + Fraction(draw(st.integers(0, high_units)), 3))

    def maybe(scale: Fraction | int) -> str | None:
        k = draw(MAYBE)
        return None if k is None else str(Fraction(scale) * k / 4)

    bid = draw(MAYBE)
    return {
        "bankroll": amount(0, 3 * 40 * int(banco)),
        "stake": draw(st.sampled_from(["0", str(floor)])) if draw(st.booleans()) else amount(floor, 30 * int(banco)),
        "banco": draw(
            st.sampled_from(CHEMIN_CALLS if table.game == "chemin" else BANQUE_CALLS if table.banque == "limitee" else ("none",))
        ),
        "banco_up_to": maybe(banco),
        "suivi": draw(st.booleans()),
        "take_bank": draw(st.booleans() | st.just(True)),
        "bank": amount(banco, 12 * int(banco)),
        "garage": draw(st.booleans()),
        "pass_after": draw(st.integers(0, 4)),
        "take_suite_up_to": maybe(banco),
        "bid": None if bid is None else str(banco + bid),
        "double_up_to": maybe(banco),
        "raise_bank": draw(st.booleans()),
        "rebank": draw(st.booleans()),
    }


@st.composite
def sessions(draw: st.DrawFn) -> tuple[TableConfig, Policies, int]:
    table = draw(tables())
    default = draw(seat_policy(table))
    seats = {str(s): draw(seat_policy(table)) for s in draw(st.sets(st.integers(1, table.seats), max_size=table.seats))}
    return table, Policies.from_mapping({**default, "seats": seats}, table), draw(st.integers(0, 2**32 - 1))


def exact(x: object) -> bool:
    return isinstance(x, (int, Fraction)) and not isinstance(x, bool)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_money_is_conserved_at_every_coup(case: tuple[TableConfig, Policies, int]) -> None:
    check_session(*case)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_money_is_conserved_at_every_coup_many_more_tables(case: tuple[TableConfig, Policies, int]) -> None:
    check_session(*case)


def check_session(table: TableConfig, policies: Policies, seed: int) -> None:
    before = tuple(policies[s].bankroll for s in range(1, table.seats + 1))
    total = sum(before)
    play = table_play(table, KEMENY_SNELL)
    lines = []
    house = Fraction(0)
    for r in play_session(table, policies, play, seed):
        a = r.after
        assert a.money() == total
        for x in (*a.bankrolls, a.bank, a.garage, a.house, r.tax, r.bank):
            assert exact(x) and x >= 0
        staked: dict[int, Fraction] = {}
        for seat, _, amount in r.stakes.covered:
            assert exact(amount) and amount > 0
            staked[seat] = staked.get(seat, Fraction(0)) + amount
        assert r.bank == sum(staked.values())
        for seat, amount in staked.items():
            assert seat not in (r.banker, r.co_banker) and amount <= before[seat - 1]
        assert a.house == house + r.tax
        house = a.house
        line = json.loads(json.dumps(r.as_json()))
        on_line = sum(amount_from_json(v) for v in line["bankrolls"].values()) + sum(
            amount_from_json(line[k]) for k in ("bank_after", "garage", "house")
        )
        assert on_line == total
        lines.append(line)
        before = a.bankrolls
    if lines:
        assert "session ends" in lines[-1]["event"]
        assert lines[-1]["bank_after"] == lines[-1]["garage"] == 0
    again = [r.as_json() for r in play_session(table, policies, play, seed)]
    assert again == lines
