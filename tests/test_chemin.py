"""Chemin de fer: published solutions, exact invariants between models, and independent cross-checks.

Sources:
- [KS57] J. G. Kemeny and J. L. Snell, "Game-theoretic solution of baccarat", American Mathematical
  Monthly 64 (1957) 465-469: infinite deck, information 1, parlor game; the ponte draws at 5 with
  probability 9/11 and the banker's advantage is about 1.28 %.
- [EG13] S. N. Ethier and C. Gamez, "A game-theoretic analysis of baccara chemin de fer", Games 4
  (2013) 711-737: models A1, B2, B3; under B3 the ponte mixes only holding {1,4} at 5 (d >= 2 in
  their tables) and stands holding {2,3}.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from solver.cards import Shoe
from solver.chemin.game import Game, build_game
from solver.chemin.guarantees import pure_payoffs
from solver.chemin.solve import banker_guarantee, lp_proposal, ponte_guarantee, solve, zero_sum
from solver.punto import punto_banco
from solver.report import percent_str
from solver.rules.tableau import PUNTO_BANCO, STOOD, Action
from solver.strategy import InfoSet, Side, Strategy, format_infoset, parse_infoset

DECKS = range(1, 9)


def test_kemeny_snell_ks57() -> None:
    s = solve(build_game(Shoe.infinite(), 1, "parlor"))
    assert s.q == (Fraction(9, 11),)  # [KS57]
    assert percent_str(s.value, 2) == "1.28"  # [KS57], "about 1.28 %"
    assert s.value == Fraction(679568, 53094899)  # our exact refinement
    assert s.certified and s.unique_ponte and s.unique_banker


@pytest.mark.parametrize("d", [2, 6, 8])
def test_b3_ponte_structure_eg13(d: int) -> None:
    s = solve(build_game(Shoe.decks(d), 3, "parlor"))
    p = {format_infoset(k): v for k, v in s.ponte().items()}
    assert p["2+3"] == 0 and p["0+5"] == p["6+9"] == p["7+8"] == 1  # [EG13]
    assert 0 < p["1+4"] < 1
    assert s.certified and s.unique_ponte


@pytest.mark.parametrize("d", DECKS)
def test_information_ordering_every_deck_count(d: int) -> None:
    shoe = Shoe.decks(d)
    v = {info: solve(build_game(shoe, info, "parlor")).value for info in (1, 2, 3)}
    assert v[2] >= v[1]  # the banker knows more
    assert v[3] <= v[2]  # the ponte knows more
    casino = solve(build_game(shoe, 3, "casino")).value
    assert casino <= v[3]  # fewer banker choices: worth at least as much to the ponte


@pytest.mark.parametrize("d", [1, 6, 8])
def test_punto_banco_choices_give_the_player_edge(d: int) -> None:
    # Ponte always draws at 5 and the banker's free casino cells follow punto banco: the game is punto
    # banco, so the banker's gain is exactly minus the Player bet's expectation.
    shoe = Shoe.decks(d)
    pb = {cell: PUNTO_BANCO.banker_action(*cell) for cell in [(3, 9), (5, 4)]}
    for info in (1, 2, 3):
        g = build_game(shoe, info, "casino")
        q, r = fixed_strategy(g, Action.DRAW, pb)
        assert g.gross.value(q, r) == -punto_banco(shoe).bet("player").ev


@pytest.mark.parametrize(("info", "most_open"), [(1, 4), (2, 30), (3, 30)])
def test_dominance_leaves_few_cells_open(info: int, most_open: int) -> None:
    s = solve(build_game(Shoe.decks(6), info, "parlor"))
    settled = {d.infoset for d in s.dominance if d.player is Side.BANKER}
    open_cells = [k for k in s.game.banker_sets if k not in settled]
    assert len(open_cells) <= most_open
    assert all(d.margin > 0 for d in s.dominance)
    banker = s.banker()
    for d in s.dominance:  # the solution agrees with every dominance claim
        if d.player is Side.BANKER:
            assert banker[d.infoset] == (1 if d.action is Action.DRAW else 0)


@pytest.mark.parametrize("shoe", [Shoe.decks(1), Shoe.decks(6), Shoe.infinite()], ids=["1", "6", "inf"])
def test_lp_agrees_with_foster(shoe: Shoe) -> None:
    # Two independent methods on the same one-set game: Foster's exact walk and the float LP.
    c = build_game(shoe, 2, "parlor").gross
    q_exact = zero_sum(c).q
    q_lp, r_lp = lp_proposal(c)
    assert abs(q_lp[0] - float(q_exact[0])) < 1e-7  # LP tolerance: HiGHS primal feasibility 1e-7
    f = ponte_guarantee(c, q_exact)
    h_lp = banker_guarantee(c, [Fraction(x).limit_denominator(10**12) for x in r_lp])
    assert abs(float(f - h_lp)) < 1e-9


def fixed_strategy(game: Game, ponte: Action, banker: dict[tuple[int, int], Action]) -> tuple[list[Fraction], list[Fraction]]:
    """(q, r) of the pure strategy: the ponte's action at 5, the banker's by (total, seen) cell."""
    choices: dict[InfoSet, object] = {InfoSet(Side.PONTE, 5): ponte}
    choices.update({InfoSet(Side.BANKER, t, seen=(s,)): a for (t, s), a in banker.items()})
    return game.vectors(Strategy(game.model.tableau, choices))  # type: ignore[arg-type]


def _product_mixture(probs: tuple[Fraction, ...], pures: list[tuple[int, ...]]) -> np.ndarray:
    out = []
    for pure in pures:
        w = Fraction(1)
        for p, x in zip(probs, pure):
            w *= p if x else 1 - p
        out.append(w)
    return np.array(out, dtype=object)


@pytest.mark.parametrize("info", [1, 2, 3])
def test_nashpy_confirms_casino_solutions_exactly(info: int) -> None:
    import nashpy

    s = solve(build_game(Shoe.decks(6), info, "casino"))
    rows, cols, A = pure_payoffs(s.game.gross)
    x = _product_mixture(s.q, rows)
    y = _product_mixture(s.r, cols)
    # nashpy's row player maximises: give it the ponte's payoff, minus the banker's gain.
    game = nashpy.Game(-A, A)
    assert game.is_best_response(x, y) == (True, True)
    assert x @ A @ y == s.value


def test_nashpy_support_enumeration_small_game() -> None:
    import nashpy

    s = solve(build_game(Shoe.decks(1), 1, "casino"))
    _, _, A = pure_payoffs(s.game.gross)
    Af = np.array([[float(v) for v in row] for row in A])
    eqs = list(nashpy.Game(-Af, Af).support_enumeration())
    assert eqs, "nashpy found no equilibrium"
    x, y = eqs[0]
    assert abs(float(x @ Af @ y) - float(s.value)) < 1e-12  # float tolerance: double rounding of 8 terms


def _deviation_gains(c, x: list[Fraction], y: list[Fraction], side: str) -> list[tuple[Fraction, Fraction]]:  # type: ignore[no-untyped-def]
    """For each set of one side, the exact change of the payoff form ``c`` when that set alone moves
    to 0 or to 1: (change at 0, change at 1). Computed here from the coefficients (not through the
    solver's slope helpers): the form is linear in each coordinate."""
    out = []
    D = c.denominator
    if side == "banker":
        for i, ri in enumerate(y):
            slope = Fraction(int(c.b[i]), D) + sum((Fraction(int(c.G[j][i]), D) * qj for j, qj in enumerate(x)), Fraction(0))
            out.append((slope * (0 - ri), slope * (1 - ri)))
    else:
        for j, qj in enumerate(x):
            slope = Fraction(int(c.a[j]), D) + sum((Fraction(int(c.G[j][i]), D) * ri for i, ri in enumerate(y)), Fraction(0))
            out.append((slope * (0 - qj), slope * (1 - qj)))
    return out


@pytest.mark.parametrize("d", [1, 6])
def test_commission_equilibrium_is_nash(d: int) -> None:
    # No single-set switch helps the deviator: the ponte minimises the banker's gross result, the
    # banker maximises his net result.
    for info in (1, 2, 3):
        s = solve(build_game(Shoe.decks(d), info, "parlor", Fraction(1, 20)))
        g = s.game
        assert all(lo >= 0 and hi >= 0 for lo, hi in _deviation_gains(g.gross, list(s.q), list(s.r), "ponte"))
        assert all(lo <= 0 and hi <= 0 for lo, hi in _deviation_gains(g.net, list(s.q), list(s.r), "banker"))


@pytest.mark.slow
@pytest.mark.parametrize("d", [1, 6])
def test_commission_equilibrium_is_nash_by_full_payoffs(d: int) -> None:
    # The same claim, each deviation evaluated as a whole payoff (slow: one bilinear form per switch).
    for info in (1, 2, 3):
        s = solve(build_game(Shoe.decks(d), info, "parlor", Fraction(1, 20)))
        g = s.game
        # Deviations: any pure switch in a single set changes nothing or hurts the deviator.
        for j in range(len(s.q)):
            for alt in (Fraction(0), Fraction(1)):
                q2 = list(s.q)
                q2[j] = alt
                assert -g.gross.value(q2, list(s.r)) <= s.ponte_payoff
        for i in range(len(s.r)):
            for alt in (Fraction(0), Fraction(1)):
                r2 = list(s.r)
                r2[i] = alt
                assert g.net.value(list(s.q), r2) <= s.banker_payoff


@pytest.mark.parametrize("alpha", [Fraction(0), Fraction(1, 20), Fraction(1, 10)])
def test_net_payoff_takes_the_commission_from_the_banker_wins(alpha: Fraction) -> None:
    # net = gross - alpha * P(banker wins), exactly, at any strategy (here a mixed one and a pure one).
    g = build_game(Shoe.decks(6), 2, "parlor", alpha)
    for q, r in (
        ([Fraction(1, 3)], [Fraction(k % 3, 2) for k in range(len(g.banker_sets))]),
        ([Fraction(1)], [Fraction(0)] * len(g.banker_sets)),
    ):
        assert g.net.value(q, r) == g.gross.value(q, r) - alpha * g.win.value(q, r)
        assert g.win.value(q, r) > 0


@pytest.mark.parametrize(("ponte", "b39", "b54"), list(product([Action.DRAW, Action.STAND], repeat=3)))
def test_game_builder_agrees_with_outcome_table(ponte: Action, b39: Action, b54: Action) -> None:
    # Two routes through the enumerator: the additive game at a pure strategy, and the outcome
    # table of the fixed tableau that strategy defines.
    from solver.deal.outcome import outcomes
    from solver.rules.tableau import CHEMIN_CASINO

    shoe = Shoe.decks(3).remove(["5", "9", "K"])
    g = build_game(shoe, 1, "casino")
    q, r = fixed_strategy(g, ponte, {(3, 9): b39, (5, 4): b54})
    tab = CHEMIN_CASINO.with_player({5: ponte}).with_banker({(3, 9): b39, (5, 4): b54})
    t = outcomes(shoe, tab)
    assert g.win.value(q, r) == t.probability(t.b_total > t.p_total)
    assert g.loss.value(q, r) == t.probability(t.p_total > t.b_total)


def test_optimal_set_described_when_not_unique() -> None:
    # Dealt with replacement, the banker's composition tells him nothing his total does not: under A2
    # every mixture of the six compositions of 6 (ponte stood) with the right average is optimal.
    from solver.chemin.solve import optimal_sets

    s = solve(build_game(Shoe.infinite(), 2, "parlor"))
    assert s.unique_ponte and not s.unique_banker and s.optimal_set is not None
    _, banker = optimal_sets(s.game, list(s.q), list(s.r))
    (con,) = banker.constraints
    assert con.relation == "=" and con.rhs == Fraction(859, 2288)
    assert {format_infoset(k): w for k, w in con.weights.items()} == {
        "0+6/S": Fraction(1, 2),
        "1+5/S": Fraction(1, 8),
        "2+4/S": Fraction(1, 8),
        "3+3/S": Fraction(1, 16),
        "7+9/S": Fraction(1, 8),
        "8+8/S": Fraction(1, 16),
    }
    # Another point of the described set is optimal too: its guarantee equals the value.
    other = dict(s.banker())
    for k in con.weights:
        other[k] = Fraction(0)
    zero_six = parse_infoset("0+6/S", Side.BANKER)
    other[zero_six] = Fraction(859, 1144)
    r2 = [other[k] for k in s.game.banker_sets]
    assert banker_guarantee(s.game.gross, r2) == s.value
    # ... and a point outside it is not.
    other[zero_six] = Fraction(1)
    assert banker_guarantee(s.game.gross, [other[k] for k in s.game.banker_sets]) < s.value


def test_draw_tables_reproduce_the_solution_law() -> None:
    # Deal every coup with the card-indexed draw tables (a third route, independent of the additive
    # form) and compare the exact law with outcome_law.
    from solver.chemin.solve import draw_tables, outcome_law

    shoe = Shoe.decks(1)
    s = solve(build_game(shoe, 3, "parlor"))
    P, B = draw_tables(s)
    n = list(shoe.values)
    N = sum(n)
    law = {"banker": Fraction(0), "ponte": Fraction(0), "tie": Fraction(0)}

    def deal(weight: Fraction) -> list[tuple[int, Fraction]]:
        total = sum(n)
        return [(v, weight * Fraction(n[v], total)) for v in range(10) if n[v]]

    def settle(w: Fraction, pt: int, bt: int) -> None:
        law["banker" if bt > pt else "ponte" if pt > bt else "tie"] += w

    assert N == 52
    for p1, w1 in deal(Fraction(1)):
        n[p1] -= 1
        for b1, w2 in deal(w1):
            n[b1] -= 1
            for p2, w3 in deal(w2):
                n[p2] -= 1
                for b2, w4 in deal(w3):
                    n[b2] -= 1
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if pt >= 8 or bt >= 8:
                        settle(w4, pt, bt)
                    else:
                        branches = []
                        if P[p1][p2] < 1:
                            branches.append((None, w4 * (1 - P[p1][p2])))
                        if P[p1][p2] > 0:
                            branches += deal(w4 * P[p1][p2])
                        for c, w5 in branches:
                            if c is not None:
                                n[c] -= 1
                            pt3 = pt if c is None else (pt + c) % 10
                            pb = B[b1][b2][10 if c is None else c]
                            if pb < 1:
                                settle(w5 * (1 - pb), pt3, bt)
                            if pb > 0:
                                for b3, w6 in deal(w5 * pb):
                                    settle(w6, pt3, (bt + b3) % 10)
                            if c is not None:
                                n[c] += 1
                    n[b2] += 1
                n[p2] += 1
            n[b1] += 1
        n[p1] += 1
    assert law == outcome_law(s)


def test_strategy_law_of_draw_tables() -> None:
    from solver.chemin.game import strategy_law
    from solver.chemin.solve import draw_tables
    from solver.errors import ModelError
    from solver.strategy import Strategy

    shoe = Shoe.decks(2)
    for info in (1, 2, 3):
        s = solve(build_game(shoe, info, "parlor", Fraction(1, 20)))
        # through the card tables, a route independent of the game's own sets
        law = strategy_law(shoe, Strategy.from_tables(*draw_tables(s)))
        assert law["banker"] == s.game.win.value(list(s.q), list(s.r))
        assert law["ponte"] == s.game.loss.value(list(s.q), list(s.r))
    P, B = (t.copy() for t in draw_tables(s))
    P[1][2] = P[2][1] = Fraction(1, 2)  # the ponte may not mix on 3
    with pytest.raises(ModelError, match="must draw on 3"):
        strategy_law(shoe, Strategy.from_tables(P, B))
    P, B = (t.copy() for t in draw_tables(s))
    B[0][6][10] = Fraction(1, 3)  # order matters: 0+6 and 6+0 differ
    with pytest.raises(ModelError, match="composition"):
        Strategy.from_tables(P, B)


@pytest.mark.parametrize("freedom", ["casino", "parlor"])
def test_highspy_and_scipy_propose_the_same_and_the_solution_is_certified_either_way(freedom: str) -> None:
    # Two interfaces to HiGHS: their float proposals agree, and either one snaps to the same certified answer.
    pytest.importorskip("highspy", reason="highspy is a dependency; without it the LP falls back to scipy")
    import solver.chemin.zerosum as zs

    c = build_game(Shoe.decks(2), 3, freedom).gross
    (q1, r1), (q2, r2) = lp_proposal(c, "highspy"), lp_proposal(c, "scipy")
    assert max(abs(x - y) for x, y in zip(q1 + r1, q2 + r2)) < 1e-9  # LP tolerance: HiGHS's 1e-7, scaled coefficients
    answer = zs.zero_sum(c)
    assert ponte_guarantee(c, answer.q) == banker_guarantee(c, answer.r)


def test_an_information_set_keeps_its_hash_only_in_its_process() -> None:
    """An InfoSet keeps its hash (strategies are dicts over hundreds of sets) but is pickled by its fields:
    one pickled by a process with another hash seed is found in this process's dicts."""
    key = InfoSet(Side.BANKER, cards=(0, 6), seen=(STOOD,))
    table = {key: "mixes"}
    code = (
        "import pickle, sys; from solver.strategy import InfoSet, Side; from solver.rules.tableau import STOOD; "
        "k = InfoSet(Side.BANKER, cards=(0, 6), seen=(STOOD,)); hash(k); sys.stdout.buffer.write(pickle.dumps(k))"
    )
    for seed in ("1", "2"):
        data = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, check=True, env={**os.environ, "PYTHONHASHSEED": seed}
        ).stdout
        other = pickle.loads(data)
        assert other == key and hash(other) == hash(key) and table[other] == "mixes"
    assert key.text == format_infoset(key) == "0+6/S"


def test_the_path_key_codecs_round_trip() -> None:
    """One codec encodes and decodes chemin de fer's path keys (solver.chemin.paths.PathKey, DetailKey):
    every combination, on integers and on arrays, comes back as it went in (issue 23 item 5)."""
    import itertools

    import numpy as np

    from solver.chemin.paths import DetailKey, PathKey
    from solver.deal.tree import N_DETAIL

    for n in (1, 2, 88, 484):
        codec = PathKey(n)
        combos = list(itertools.product((-1, 0, 4), (0, 1), sorted({-1, 0, n - 1}), (0, 1), (0, 1, 2)))
        keys = [codec.encode(*c) for c in combos]
        assert len(set(keys)) == len(combos) and min(keys) >= 0
        assert [codec.decode(k) for k in keys] == combos
        arrays = codec.decode(np.array(keys))
        assert [tuple(int(a[k]) for a in arrays) for k in range(len(keys))] == combos
        detail = DetailKey(n)
        triples = list(itertools.product((-1, 0, 4), sorted({-1, 0, n - 1}), (0, 1, 737, N_DETAIL - 1)))
        assert [detail.decode(detail.encode(*c)) for c in triples] == triples
