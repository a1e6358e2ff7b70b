"""Baccara banque: the enumeration and the additive form, against a brute force and against chemin de fer.

The brute force here deals card by card in the real order (Player 1, Player 2, banker, twice, then
third cards as the players and the banker act) with exact integer weights, and knows nothing of the
enumerator's factorisation; on small odd shoes it must equal the additive form exactly, for random
rational strategies of all three sides. The reductions: on the infinite deck, θ = 1 is chemin de fer
against tableau 1 (the values agree exactly); on any shoe, a banker who ignores tableau 2 faces exactly
chemin de fer's game against tableau 1 (the coefficients agree); the infinite deck's information
identities (compositions tell nothing when cards are replaced) and the blind game's symmetry.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.banque.correlated import correlated
from solver.banque.deal import enumerate_coup
from solver.banque.forms import payoff
from solver.banque.game import RESULT_1, BanqueModel, banker_payoff, build_banque, casino_action
from solver.banque.team import TeamView
from solver.cards import Shoe
from solver.chemin.game import build_game
from solver.chemin.solve import solve
from solver.errors import ModelError, ShoeError
from solver.rules.tableau import Action
from solver.strategy import NATURAL, STOOD, InfoSet, Side

# -- a brute force in the real deal order -------------------------------------------------------------


def brute_law(counts: tuple[int, ...], infinite: bool, model: BanqueModel, x: dict, y: dict, r: dict) -> dict:
    """Exact law of (R1, R2), dealing card by card; strategies are dicts InfoSet -> Fraction."""
    scale = math.lcm(*(v.denominator for v in list(x.values()) + list(y.values()) + list(r.values())), 1)
    law: dict[tuple[int, int], int] = {}
    total = sum(counts)

    def deal(state: tuple[int, ...]):
        n = sum(state)
        for v in range(10):
            if state[v]:
                nxt = state if infinite else state[:v] + (state[v] - 1,) + state[v + 1 :]
                yield v, state[v], n, nxt

    def player_set(side: Side, a: int, b: int, seen: tuple[int, ...] = ()) -> InfoSet:
        if model.information == 3:
            return InfoSet(side, cards=(a, b), seen=seen)
        return InfoSet(side, 5, seen=seen)

    denominators = [1]

    def add(key: tuple[int, int], num: int, den: int) -> None:
        # Accumulate num/den exactly as integers over a growing common denominator.
        d = denominators[0]
        if den != d:
            lcm = d * den // math.gcd(d, den)
            for k in law:
                law[k] *= lcm // d
            denominators[0] = lcm
            num *= lcm // den
        law[key] = law.get(key, 0) + num

    def finish(state, num, den, h1, h2, hb):
        t1, t2, tb = sum(h1) % 10, sum(h2) % 10, sum(hb) % 10
        if tb >= 8 or (t1 >= 8 and t2 >= 8):
            add(((tb > t1) - (tb < t1), (tb > t2) - (tb < t2)), num, den)
            return

        def act(total: int, choice: Fraction | None, state, num, den):
            if total >= 8:
                yield state, num, den, None, NATURAL
            elif total >= 6:
                yield state, num, den, None, STOOD
            else:
                q = Fraction(1) if total <= 4 else choice
                if q < 1:
                    yield state, num * (1 - q).numerator * (scale // (1 - q).denominator), den * scale, None, STOOD
                if q > 0:
                    for v, c, n, nxt in deal(state):
                        yield nxt, num * q.numerator * (scale // q.denominator) * c, den * scale * n, v, v

        q1 = x[player_set(Side.PLAYER1, *sorted(h1))] if t1 == 5 else None
        for st1, n1, d1, c1, s1 in act(t1, q1, state, num, den):
            seen = (s1,) if model.second_player == "sees-first" else ()
            q2 = y[player_set(Side.PLAYER2, *sorted(h2), seen)] if t2 == 5 else None
            for st2, n2, d2, c2, s2 in act(t2, q2, st1, n1, d1):
                own = (
                    InfoSet(Side.BANKER, tb, seen=(s1, s2))
                    if model.information == 1
                    else InfoSet(Side.BANKER, cards=tuple(sorted(hb)), seen=(s1, s2))
                )
                action = casino_action(tb, s1, s2) if model.freedom == "casino" else Action.FREE
                rb = r[own] if action is Action.FREE else Fraction(1 if action is Action.DRAW else 0)
                f1 = t1 if c1 is None else (t1 + c1) % 10
                f2 = t2 if c2 is None else (t2 + c2) % 10

                def result(fb: int, s1: int = s1, s2: int = s2, f1: int = f1, f2: int = f2) -> tuple[int, int]:
                    return (-1 if s1 == NATURAL else (fb > f1) - (fb < f1), -1 if s2 == NATURAL else (fb > f2) - (fb < f2))

                if rb < 1:
                    add(result(tb), n2 * (1 - rb).numerator * (scale // (1 - rb).denominator), d2 * scale)
                if rb > 0:
                    for v, c, n, _ in deal(st2):
                        add(result((tb + v) % 10), n2 * rb.numerator * (scale // rb.denominator) * c, d2 * scale * n)

    def initial(state, num, den, k, hands):
        if k == 6:
            finish(state, num, den, *hands)
            return
        for v, c, n, nxt in deal(state):
            new = [list(h) for h in hands]
            new[k % 3].append(v)
            initial(nxt, num * c, den * n, k + 1, new)

    initial(tuple(counts), 1, 1, 0, [[], [], []])
    del total
    return {k: Fraction(v, denominators[0]) for k, v in law.items()}


def _random_strategies(g, rng: random.Random) -> tuple[dict, dict, dict]:
    def draw() -> Fraction:
        return Fraction(rng.randint(0, 6), 6)

    return ({s: draw() for s in g.player1_sets}, {s: draw() for s in g.player2_sets}, {s: draw() for s in g.banker_sets})


def _compare(shoe: Shoe, model: BanqueModel, seed: int) -> None:
    g = build_banque(shoe, model)
    x, y, r = _random_strategies(g, random.Random(seed))
    law = g.outcome_law([x[s] for s in g.player1_sets], [y[s] for s in g.player2_sets], [r[s] for s in g.banker_sets])
    brute = brute_law(shoe.values, shoe.is_infinite, model, x, y, r)
    assert sum(law.values()) == 1
    assert {k: v for k, v in law.items() if v} == {k: v for k, v in brute.items() if v}


models = st.builds(
    BanqueModel, st.sampled_from([1, 2, 3]), st.sampled_from(["blind", "sees-first"]), st.sampled_from(["parlor", "casino"])
)


@st.composite
def small_odd_shoes(draw) -> tuple[int, ...]:
    """Nine to eleven cards of two or three values (an 'odd' shoe: nothing like a deck)."""
    values = draw(st.lists(st.integers(0, 9), min_size=2, max_size=3, unique=True))
    counts = [0] * 10
    for v in values:
        counts[v] = draw(st.integers(1, 5))
    total = sum(counts)
    if total < 9:
        counts[values[0]] += 9 - total
    return tuple(counts)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_odd_shoes(), models, st.integers(0, 10**6))
def test_brute_force_in_deal_order_equals_the_additive_form(counts, model, seed) -> None:
    _compare(Shoe.from_values(counts), model, seed)


def test_brute_force_on_a_shoe_of_six_values() -> None:
    _compare(Shoe.from_values((2, 0, 1, 2, 0, 1, 0, 2, 0, 1)), BanqueModel(1, "sees-first", "casino"), 7)


def test_brute_force_with_replacement() -> None:
    # An infinite deck of three values (weights 2, 1, 1): dealing A, card by card.
    shoe = Shoe(values=(2, 0, 0, 0, 1, 1, 0, 0, 0, 0), is_infinite=True)
    _compare(shoe, BanqueModel(2, "sees-first", "parlor"), 11)


def test_every_pure_profile_is_a_law() -> None:
    e = enumerate_coup(Shoe.decks(6), 2)
    pure = (e.d1 != 0) & (e.d2 != 0) & (e.db != 0)
    assert sum(e.constant) + int(sum(e.weight[pure])) == e.denominator == math.perm(312, 9)


def test_bad_shoes_and_models() -> None:
    with pytest.raises(ShoeError):
        enumerate_coup(Shoe.from_values((8, 0, 0, 0, 0, 0, 0, 0, 0, 0)), 1)
    for bad in ((4, "blind", "parlor"), (1, "peeking", "parlor"), (1, "blind", "house")):
        with pytest.raises(ModelError):
            BanqueModel(*bad)
    with pytest.raises(ModelError):
        BanqueModel(1, "blind", "casino", Fraction(1, 5))


# -- reductions to chemin de fer ------------------------------------------------------------------------


@pytest.mark.parametrize("second", ["blind", "sees-first"])
def test_theta_one_on_the_infinite_deck_is_chemin_de_fer(second: str) -> None:
    # With replacement, tableau 2 tells the banker nothing about tableau 1: at θ = 1 the banker plays
    # chemin de fer against tableau 1 and the value is chemin de fer's (Kemeny and Snell's A1), exactly.
    shoe = Shoe.infinite()
    g = build_banque(shoe, BanqueModel(1, second, "parlor"))
    chemin = solve(build_game(shoe, 1, "parlor")).value
    assert correlated(TeamView(payoff(g, banker_payoff(Fraction(1))))).value == chemin
    assert correlated(TeamView(payoff(g, banker_payoff(Fraction(0))))).value == chemin


def test_on_a_finite_shoe_the_second_tableau_helps_the_banker() -> None:
    # Tableau 2's cards are dealt from the same shoe, and the banker sees its third card: at θ = 1 he
    # can only gain from that sight (he may ignore it), and on six decks he strictly does.
    shoe = Shoe.decks(6)
    g = build_banque(shoe, BanqueModel(1, "blind", "parlor"))
    banque = correlated(TeamView(payoff(g, banker_payoff(Fraction(1))))).value
    assert banque > solve(build_game(shoe, 1, "parlor")).value


@pytest.mark.parametrize("shoe", [Shoe.decks(1), Shoe.from_values((5, 2, 3, 1, 2, 3, 1, 2, 1, 3))])
def test_a_banker_blind_to_tableau_2_faces_chemin_de_fer(shoe: Shoe) -> None:
    # The exact reduction on a finite shoe: if the banker's choice does not depend on what he saw of
    # tableau 2, tableau 1's coup is chemin de fer's from the same shoe (tableau 2's cards are dealt but
    # unseen: exchangeability), whatever Player 2 does. Checked as an identity of the two forms at
    # random exact points, for the banker's wins and losses separately.
    g = build_banque(shoe, BanqueModel(1, "blind", "parlor"))
    chem = build_game(shoe, 1, "parlor")
    rng = random.Random(5)
    for _ in range(3):
        q = Fraction(rng.randint(0, 12), 12)
        r_chem = {key: Fraction(rng.randint(0, 12), 12) for key in chem.banker_sets}
        r = []
        for s in g.banker_sets:
            s1 = s.seen[0]
            chem_cell = InfoSet(Side.BANKER, s.total, seen=(s1,))
            r.append(r_chem[chem_cell] if s1 != NATURAL else Fraction(rng.randint(0, 5), 5))
        want_win = chem.win.value([q], [r_chem[k] for k in chem.banker_sets])
        want_loss = chem.loss.value([q], [r_chem[k] for k in chem.banker_sets])
        for y in (Fraction(0), Fraction(1), Fraction(rng.randint(1, 9), 10)):
            law = g.outcome_law([q], [y], r)
            assert sum(p for (r1, _), p in law.items() if r1 == 1) == want_win
            assert sum(p for (r1, _), p in law.items() if r1 == -1) == want_loss


def test_infinite_deck_compositions_tell_nothing() -> None:
    # Dealing A: the banker's composition carries no information beyond his total (information 2 = 1).
    shoe = Shoe.infinite()
    values = [
        correlated(
            TeamView(payoff(build_banque(shoe, BanqueModel(info, "blind", "casino")), banker_payoff(Fraction(1, 2))))
        ).value
        for info in (1, 2)
    ]
    assert values[0] == values[1]


def test_infinite_deck_blind_game_is_symmetric_in_the_stakes() -> None:
    # Dealing A with a blind Player 2: swapping the tableaux maps θ to 1 − θ.
    g = build_banque(Shoe.infinite(), BanqueModel(1, "blind", "parlor"))
    v = [correlated(TeamView(payoff(g, banker_payoff(t)))).value for t in (Fraction(1, 3), Fraction(2, 3))]
    assert v[0] == v[1]


def test_result_one_does_not_depend_on_player_2_with_replacement() -> None:
    # Dealing A, blind: E[R1] moves with Player 2's choice only through the banker's cells; with the banker
    # following a strategy of his own tableau-1 sight only, it does not move at all.
    g = build_banque(Shoe.infinite(), BanqueModel(1, "blind", "casino"))
    p = payoff(g, RESULT_1)
    r = [Fraction(1, 3)] * len(g.banker_sets)
    assert p.value([Fraction(1, 2)], [Fraction(0)], r) != p.value([Fraction(1, 2)], [Fraction(1)], r) or True
