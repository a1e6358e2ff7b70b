"""The baccara banque simulator and its cross-check: the kernel's engines agree, runs are reproducible,
the exact law of the dealt strategies is the solver's, a correct engine passes, and planted faults are
rejected at the stated sample sizes (docs/simulate.md, "Baccara banque")."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from solver.banque import BanqueModel, solve_banque
from solver.banque.correlated import TeamStrategy
from solver.banque.deal import OUTCOMES
from solver.banque.game import banker_payoff
from solver.cards import Shoe
from solver.crosscheck.banque import banque_law, crosscheck_banque, draws_of, solution_tables
from solver.errors import ModelError
from solver.simulate import parse_burn
from solver.simulate.banque import BanqueDraws, BanqueTable, chemin_draws, deal_banque, simulate_banque
from solver.simulate.banque_kernel import NATURAL, STOOD

SHOE = Shoe.decks(6)
TAX = Fraction(1, 50)
HALF = Fraction(1, 2)


@pytest.fixture(scope="module")
def nash():  # type: ignore[no-untyped-def]
    s = solve_banque(SHOE, BanqueModel(1, "blind", "casino", TAX), HALF, "nash")
    tables = solution_tables(s)
    return s, banque_law(s, tables), draws_of(s, tables)


@pytest.fixture(scope="module")
def correlated():  # type: ignore[no-untyped-def]
    s = solve_banque(SHOE, BanqueModel(1, "blind", "casino", TAX), HALF, "correlated")
    tables = solution_tables(s)
    return s, banque_law(s, tables), draws_of(s, tables)


def _game_law(s):  # type: ignore[no-untyped-def]
    """The outcome law from the solver's own game (BanqueGame.outcome_law), mixed over the team's atoms."""
    if s.team is None:
        return s.game.outcome_law(s.player1, s.player2, s.banker)
    law = {o: Fraction(0) for o in OUTCOMES}
    for atom, lam, cond in s.team.support():
        for o, q in s.game.outcome_law([Fraction(x) for x in atom], cond, s.banker).items():
            law[o] += lam * q
    return law


@pytest.mark.parametrize(
    "model, concept",
    [
        (BanqueModel(1, "blind", "casino", TAX), "nash"),
        (BanqueModel(1, "blind", "casino", TAX), "correlated"),
        (BanqueModel(1, "sees-first", "parlor"), "correlated"),
        (BanqueModel(2, "blind", "casino"), "nash"),
    ],
)
def test_the_law_of_the_dealt_strategies_is_the_solvers(model, concept) -> None:  # type: ignore[no-untyped-def]
    # Two independent paths: the enumeration read through the table's strategy reader (the simulator's
    # tables) against the solver's own folded game; and the banker's value against the certified value.
    s = solve_banque(SHOE, model, HALF, concept)
    law = banque_law(s)
    assert law.outcome == _game_law(s)
    assert sum(law.detail.values()) == 1
    assert law.reference()["banker"] == s.value
    assert law.reference()["tableau1"] == s.result1 and law.reference()["tableau2"] == s.result2


def test_python_and_numba_engines_deal_the_same_coups(correlated) -> None:  # type: ignore[no-untyped-def]
    _, _, draws = correlated
    table = BanqueTable(SHOE, draws, HALF, TAX, burn=parse_burn("turn"))
    a = deal_banque(table, 25, np.random.default_rng(3), "python")
    b = deal_banque(table, 25, np.random.default_rng(3), "numba")
    assert a.n_coups == b.n_coups > 25 * 30
    for name in a.ARRAYS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_same_seed_same_tallies_on_any_number_of_workers(nash) -> None:  # type: ignore[no-untyped-def]
    _, _, draws = nash
    table = BanqueTable(SHOE, draws, HALF, TAX)
    one = simulate_banque(table, shoes=30000, seed=11, workers=1)
    two = simulate_banque(table, shoes=30000, seed=11, workers=2)
    other = simulate_banque(table, shoes=30000, seed=12, workers=1)
    assert two.workers == "2"
    for name in one.tallies.ARRAYS:
        assert np.array_equal(getattr(one.tallies, name), getattr(two.tallies, name)), name
    assert not np.array_equal(one.tallies.moments, other.tallies.moments)


def test_a_correct_engine_passes_and_its_mean_is_the_exact_value(correlated) -> None:  # type: ignore[no-untyped-def]
    s, law, draws = correlated
    table = BanqueTable(SHOE, draws, HALF, TAX, first_coup_only=True)
    r = simulate_banque(table, shoes=10**6, seed=1, workers=1, exact=law.reference())
    cc = crosscheck_banque(r, law)
    assert cc.passed, cc.verdict
    assert [t.name for t in cc.tests] == ["outcome law", "detail law", "card law", "banker's result"]
    est = r.first_coup()["banker"]
    # within 3 standard errors (a false alarm 0.27 % of seeds; this seed is fixed)
    assert abs(est.value - float(s.value)) < 3 * est.se
    assert 0.0007 < est.se < 0.0009  # sd of the banker's result per coup about 0.78, over 10^6 coups


def test_whole_shoes_hold_their_first_coups_to_the_law(nash) -> None:  # type: ignore[no-untyped-def]
    _, law, draws = nash
    r = simulate_banque(BanqueTable(SHOE, draws, HALF, TAX), coups=3 * 10**5, seed=2, workers=1, exact=law.reference())
    cc = crosscheck_banque(r, law)
    assert cc.passed, cc.verdict
    assert cc.n == r.n_shoes < r.n_coups and any("first coup" in note for note in cc.notes)
    assert 38 < r.coups_per_shoe().value < 43
    effect = r.cut_card_effect()["banker"]
    assert effect.has_error and abs(effect.value) < 4 * effect.se


# -- planted faults, each rejected at the size docs/simulate.md states --------------------------------


def _faulty(draws: BanqueDraws, p2: np.ndarray | None = None, banker: np.ndarray | None = None) -> BanqueDraws:
    return BanqueDraws("faulty", draws.lam, draws.p1, draws.p2 if p2 is None else p2, draws.banker if banker is None else banker)


def _rejected(table: BanqueTable, law, shoes: int) -> list[str]:  # type: ignore[no-untyped-def]
    cc = crosscheck_banque(simulate_banque(table, shoes=shoes, seed=5, workers=1), law)
    return [t.name for t in cc.tests if t.rejected]


def test_a_banker_who_ignores_tableau_2_is_rejected_at_ten_thousand_coups(nash) -> None:  # type: ignore[no-untyped-def]
    _, law, draws = nash
    banker = draws.banker.copy()
    for s1 in range(NATURAL):  # tableau 1 live: decide as if tableau 2 had stood
        banker[:, :, s1, :] = banker[:, :, s1, STOOD][..., None]
    table = BanqueTable(SHOE, _faulty(draws, banker=banker), HALF, TAX, first_coup_only=True)
    assert "detail law" in _rejected(table, law, 10**4)


def test_a_player_2_who_always_stands_is_rejected_at_ten_thousand_coups(nash) -> None:  # type: ignore[no-untyped-def]
    _, law, draws = nash
    p2 = draws.p2.copy()
    for a in range(10):
        p2[:, a, (5 - a) % 10, :] = 0.0
    table = BanqueTable(SHOE, _faulty(draws, p2=p2), HALF, TAX, first_coup_only=True)
    assert "detail law" in _rejected(table, law, 10**4)


def test_a_tax_not_taken_is_rejected_at_three_hundred_thousand_coups(nash) -> None:  # type: ignore[no-untyped-def]
    _, law, draws = nash
    table = BanqueTable(SHOE, draws, HALF, TAX, first_coup_only=True, settlement=banker_payoff(HALF))
    assert _rejected(table, law, 3 * 10**5) == ["banker's result"]
    assert _rejected(replace(table, settlement=banker_payoff(HALF, TAX)), law, 3 * 10**5) == []


def test_a_team_sampled_from_its_marginals_is_rejected_at_three_million_coups(correlated) -> None:  # type: ignore[no-untyped-def]
    # A strongly correlated team: Player 1 draws at 5 half the time, Player 2 exactly when he does not.
    # Drawn independently from the marginals (1/2 each), the joint law is lost; the detail law sees it
    # where both players hold 5 (about 1 % of coups).
    s, _, _ = correlated
    team = replace(s, team=TeamStrategy(atoms=((0,), (1,)), lam=(HALF, HALF), v=((HALF,), (Fraction(0),))))
    law = banque_law(team)
    apart = replace(team, team=None, player1=(HALF,), player2=(HALF,))
    assert banque_law(apart).outcome != law.outcome
    joint = BanqueTable(SHOE, draws_of(team), HALF, TAX, first_coup_only=True)
    assert len(joint.draws.lam) == 2
    assert _rejected(joint, law, 3 * 10**6) == []
    assert _rejected(replace(joint, draws=draws_of(apart)), law, 3 * 10**6) == ["detail law"]


def test_a_fixed_strategy_deals_without_a_solution() -> None:
    r = simulate_banque(BanqueTable(Shoe.decks(1), chemin_draws()), shoes=300, seed=0, workers=1)
    assert r.n_shoes == 300 and r.tallies.pos_counts.sum() == r.n_coups


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(cut=8), "at least 9 cards"),
        (dict(theta=Fraction(1)), "strictly between 0 and 1"),
        (dict(tax=Fraction(1, 5)), "[0, 1/10]"),
    ],
)
def test_bad_tables_are_refused(kw, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ModelError, match=message.replace("[", r"\[").replace("]", r"\]")):
        BanqueTable(SHOE, chemin_draws(), **kw)
    with pytest.raises(ModelError, match="physical shoes"):
        BanqueTable(Shoe.infinite(), chemin_draws())


# -- the command line -------------------------------------------------------------------------------


def test_simulate_game_banque_reports_estimates_beside_the_exact_value(cli) -> None:  # type: ignore[no-untyped-def]
    run = cli(
        [
            "simulate",
            "--game",
            "banque",
            "--decks",
            "6",
            "--shoes",
            "3000",
            "--seed",
            "1",
            "--workers",
            "1",
            "--tax",
            "1/50",
            "--format",
            "json",
        ]
    )
    assert run.code == 0, run.err
    d = json.loads(run.out)
    assert d["table"]["game"] == "banque" and d["table"]["tax"] == "1/50" and d["table"]["cut"] == 10
    items = {i["item"]: i for i in d["items"]}
    assert set(items) == {"banker", "tableau1", "tableau2"}
    s = solve_banque(SHOE, BanqueModel(1, "blind", "casino", TAX), HALF, "nash")
    assert Fraction(items["banker"]["exact_first_coup"]) == s.value
    assert sum(d["counts"]["whole_shoe"].values()) == d["coups"]


def test_crosscheck_game_banque_passes_with_exit_0(cli) -> None:  # type: ignore[no-untyped-def]
    run = cli(
        [
            "crosscheck",
            "--game",
            "banque",
            "--decks",
            "6",
            "--simulate",
            "2e5",
            "--concept",
            "correlated",
            "--seed",
            "3",
            "--workers",
            "1",
            "--format",
            "json",
        ]
    )
    assert run.code == 0, run.err
    d = json.loads(run.out)
    assert d["verdict"] == "pass" and d["game"] == "banque" and d["held_coups"] == 200000
    assert sum(Fraction(p) for p in d["exact_law"].values()) == 1
    assert [t["name"] for t in d["tests"]] == ["outcome law", "detail law", "card law", "banker's result"]


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--strategy", "kemeny-snell"], "--strategy solved"),
        (["--commission", "1/20"], "--tax"),
        (["--coups", "x.txt"], "--simulate N"),
        (["--theta", "1"], "strictly between 0 and 1"),
        (["--concept", "independent", "--tax", "1/50"], "without a tax"),
        (["--burn", "turn-redeal"], "--burn takes none"),  # the faulty burn is a test double now
    ],
)
def test_bad_banque_options_are_one_line_errors(cli, extra, message) -> None:  # type: ignore[no-untyped-def]
    run = cli(["crosscheck", "--game", "banque", "--decks", "6", "--simulate", "1000", *extra])
    assert run.code == 2 and message in run.err and len(run.err.strip().splitlines()) == 1, run.err


def test_banque_options_are_refused_for_another_game(cli) -> None:  # type: ignore[no-untyped-def]
    run = cli(["simulate", "--game", "chemin", "--tax", "1/50", "--shoes", "10"])
    assert run.code == 2 and "--tax is for --game banque" in run.err


def test_the_banque_kernel_shuffles_as_the_simulator_does() -> None:
    """One shuffle for every kernel: the banque kernel draws each card by Lemire's method, burn first,
    then every position its coups can reach, in order (it drew floor(u m) as each card was dealt, a
    uniform a card, until 0.4.0); a pure strategy draws no uniform besides."""
    from test_simulate import Recording

    from solver.simulate import Burn
    from solver.simulate.banque import BanqueTable, chemin_draws, deal_banque

    rng = Recording(3)
    shoe = Shoe.decks(1)
    deal_banque(BanqueTable(shoe, chemin_draws(), burn=Burn("fixed", 2)), 1, rng, engine="python")  # type: ignore[arg-type]
    assert rng.draws == [("pick", 52 - t) for t in range(52 - 10 + 9)]  # the cut card 10 from the end, coups of 9
