"""The cross-check: our simulator passes it, and engines wrong in small ways fail it.

False alarms: the cross-check's family-wise false-alarm rate is 1/1000 (Bonferroni over its tests);
every run below has a fixed seed, so each outcome is deterministic, and a correct engine would have
failed any one of them with probability at most 1/1000 had the seed been drawn at random.
Power: each rejection below is made at a sample size at which the test detects the fault with
probability above 0.99 (computed from the exact laws: see the comments), not just at the seed used.
"""

from __future__ import annotations

import io
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from faulty_engines import leaking_burn

from solver.cards import RANK_VALUE, RANKS, Shoe
from solver.crosscheck import (
    burn_laws,
    crosscheck,
    exact_law,
    law_from_probabilities,
    read_coups,
    sample_from_simulation,
    tableau_law,
)
from solver.deal.tree import detail_key
from solver.errors import ModelError
from solver.punto import punto_banco
from solver.rules.tableau import CHEMIN_CASINO, PUNTO_BANCO, Action
from solver.simulate import (
    KEMENY_SNELL,
    PUNTO_STRATEGY,
    Burn,
    Payout,
    SimConfig,
    default_payouts,
    simulate,
    strategy_from_cells,
)
from solver.simulate.run import deal
from solver.simulate.stats import SimulationResult
from solver.strategy import InfoSet, Side, Strategy

EIGHT = Shoe.decks(8)
SIX = Shoe.decks(6)


def solved_strategy(shoe: Shoe):  # type: ignore[no-untyped-def]
    """The solver's certified B3 parlor equilibrium with 5 % commission, as draw tables (mixed at 5)."""
    from solver.chemin.game import build_game
    from solver.chemin.solve import solve

    return solve(build_game(shoe, 3, "parlor", Fraction(1, 20))).strategy


def _check(config: SimConfig, coups: int, seed: int, law_strategy=None, law_shoe=None, engine=None):  # type: ignore[no-untyped-def]
    """Simulate ``coups`` first coups with ``config`` (the table; ``engine``, a test double of
    tests/faulty_engines.py, or our simulator) and hold them against the exact law of the *correct*
    game (``law_strategy`` on ``law_shoe``, default the table's own)."""
    strategy = law_strategy or config.strategy
    config = replace(config, shoe_tallies=True)
    law = exact_law(config.game, law_shoe or config.shoe, strategy)
    burns = burn_laws(law, strategy) if config.burn.mode.startswith("turn") else None
    if engine is None:
        result = simulate(config, shoes=coups, seed=seed, workers=2)
    else:
        tallies = deal(config, coups, np.random.default_rng(seed), engine=engine)
        result = SimulationResult(config, seed, tallies, 0.0, "1")
    return crosscheck(sample_from_simulation(result), law, default_payouts(config.game, Fraction(1, 20)), burns)


# -- the exact laws ----------------------------------------------------------------------------------


def test_punto_law_is_the_enumerators() -> None:
    law = exact_law("punto", EIGHT, PUNTO_STRATEGY)
    r = punto_banco(EIGHT)
    assert law.winner == {"banker": r.banker, "player": r.player, "tie": r.tie}
    assert sum(law.detail.values()) == 1  # type: ignore[union-attr]
    assert law.bet_mean(default_payouts("punto", Fraction(1, 20))[0]) == r.bet("banker").ev


def test_mixed_law_is_linear_in_the_mixed_cell() -> None:
    """Kemeny–Snell's ponte draws at 5 with probability 9/11: the law is 9/11 of the drawing tableau's
    plus 2/11 of the standing one's, exactly."""
    draws = tableau_law(
        "chemin", SIX, CHEMIN_CASINO.with_player({5: Action.DRAW}).with_banker({(3, 9): Action.DRAW, (5, 4): Action.STAND})
    )
    stands = tableau_law(
        "chemin", SIX, CHEMIN_CASINO.with_player({5: Action.STAND}).with_banker({(3, 9): Action.DRAW, (5, 4): Action.STAND})
    )
    mixed = exact_law("chemin", SIX, KEMENY_SNELL)
    for k in mixed.winner:
        assert mixed.winner[k] == Fraction(9, 11) * draws.winner[k] + Fraction(2, 11) * stands.winner[k]
    assert sum(mixed.winner.values()) == 1


def test_law_from_probabilities_is_checked() -> None:
    law = law_from_probabilities(
        "chemin", SIX, {"banker": Fraction(1, 2), "ponte": Fraction(2, 5), "tie": Fraction(1, 10)}, "given"
    )
    assert law.names == ("banker", "ponte", "tie") and law.detail is None
    with pytest.raises(ModelError, match="sum to 1"):
        law_from_probabilities("punto", SIX, {"banker": Fraction(1, 2), "player": Fraction(1, 2), "tie": Fraction(1, 10)}, "x")
    with pytest.raises(TypeError):
        law_from_probabilities("punto", SIX, {"banker": 0.5, "player": Fraction(1, 2)}, "x")  # type: ignore[dict-item]


# -- our simulator passes -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "config",
    [
        SimConfig.punto(EIGHT, first_coup_only=True),
        SimConfig.chemin(SIX, KEMENY_SNELL, first_coup_only=True),
        SimConfig.chemin(SIX, solved_strategy(SIX), first_coup_only=True),
    ],
    ids=["punto-8-decks", "chemin-6-decks-kemeny-snell", "chemin-6-decks-solved"],
)
def test_our_simulator_passes_at_ten_million_coups(config: SimConfig) -> None:
    """10^7 coups, each from a freshly shuffled shoe (with the game's burn). At this size the
    cross-check would detect (power 0.8) a shift of 0.00075 in P(banker) against P(player), of 0.0014
    in a bet's mean, and a missing card in the shoe (card law)."""
    cc = _check(config, 10**7, seed=20260101)
    assert cc.passed, [t for t in cc.tests if t.rejected]
    assert cc.sample.n == 10**7
    outcome = cc.tests[0]
    assert outcome.name == "outcome law" and outcome.detectable < 0.0008


# -- engines wrong in small ways fail ----------------------------------------------------------------


def test_rejects_a_banker_who_stands_at_3_against_a_9() -> None:
    """P(banker) moves by only 0.0002 (the outcome law alone needs 4.4e7 coups for power 0.8), but
    the detail law sees banker totals that the tableau forbids: 10^5 coups show about 70 of them."""
    wrong = Strategy(PUNTO_BANCO, {InfoSet(Side.BANKER, 3, seen=(9,)): Action.STAND}, "banker stands at 3 v 9")
    cc = _check(
        SimConfig("punto", EIGHT, wrong, burn=Burn("turn"), first_coup_only=True), 10**5, seed=1, law_strategy=PUNTO_STRATEGY
    )
    assert not cc.passed
    assert [t.name for t in cc.tests if t.rejected] == ["detail law"]


@pytest.mark.parametrize(("card", "coups"), [("5", 10**6), ("K", 4 * 10**6)])
def test_rejects_a_shoe_missing_one_card(card: str, coups: int) -> None:
    """One card short of 8 decks. The card law's divergence is 2.8e-4 a coup for a missing 5 and
    5.2e-5 for a missing ten-valued card, so 10^6 and 4 x 10^6 coups give noncentralities of about
    280 and 210, against 55 needed for power 0.99 at 1/7000 with 9 degrees of freedom."""
    engine = SimConfig.punto(EIGHT.remove([card]), first_coup_only=True)
    cc = _check(engine, coups, seed=2, law_shoe=EIGHT)
    assert not cc.passed
    assert "card law" in [t.name for t in cc.tests if t.rejected]


def test_rejects_a_burn_that_leaks() -> None:
    """The turned card, shown to everyone, is dealt again as the player's first card: every
    unconditional law is right, but the law given the turned card is not; 10^5 coups suffice."""
    cc = _check(SimConfig.punto(EIGHT, first_coup_only=True), 10**5, seed=3, engine=leaking_burn)
    assert [t.name for t in cc.tests if t.rejected] == ["burn law"]
    good = _check(SimConfig.punto(EIGHT, first_coup_only=True), 10**5, seed=3)
    assert good.passed


def test_rejects_a_tie_paid_as_a_loss() -> None:
    """Banker and Player bets lose on a tie instead of pushing: each mean drops by P(tie) = 0.095,
    twenty times the 0.043 shift that 10^4 coups detect."""
    one = Fraction(1)
    wrong = (
        Payout("banker", Fraction(19, 20), -one, -one),
        Payout("player", -one, one, -one),
        Payout("tie_8to1", -one, -one, Fraction(8)),
    )
    cc = _check(SimConfig.punto(EIGHT, first_coup_only=True, payouts=wrong), 10**4, seed=4)
    assert {t.name for t in cc.tests if t.rejected} == {"bet banker", "bet player"}


def test_the_bonferroni_count_is_the_number_of_tests_that_apply() -> None:
    """Issue 23: the registry's tests that apply run, in the registry's order, each at alpha / m for the
    m that run; nothing else counts. A marked file with settlements runs every test of a file."""
    from independent_engine import Engine, text

    from solver.crosscheck import REGISTRY, SampleView
    from solver.crosscheck.registry import Settlement, select

    sample = read_coups(io.StringIO(text(Engine(settle=True), 20_000, 3)), "f", PUNTO_STRATEGY, "punto")
    law = exact_law("punto", EIGHT, PUNTO_STRATEGY)
    chosen = select(SampleView.of(sample, law), 1 / 1000)
    assert [type(t) for t in chosen[:-3]] == [type(t) for t in REGISTRY if type(t).__name__ not in ("DetailLaw", "BurnLaw")]
    assert all(isinstance(t, Settlement) for t in chosen[-3:])
    cc = crosscheck(sample, law)
    assert len(cc.tests) == len(chosen) == cc.statistical == 10
    assert all(t.alpha == 1 / 1000 / 10 for t in cc.tests)
    engine = Engine(first_coup_only=True, mark_shoes=False)
    unmarked = crosscheck(read_coups(io.StringIO(text(engine, 2000, 4)), "g", PUNTO_STRATEGY, "punto"), law)
    assert [t.name for t in unmarked.tests] == ["outcome law", "detail law", "card law", "pairs", "serial", "repeats"]
    assert all(t.alpha == 1 / 1000 / 6 for t in unmarked.tests)


# -- files of dealt coups -------------------------------------------------------------------------------


def _deal_file(n: int, seed: int, shoe: Shoe, banker_39: bool = True) -> str:
    """A simple independent dealer: each coup from a freshly shuffled shoe, punto banco rules
    written out as ifs (not the tableau data), printed in the file format."""
    rng = np.random.default_rng(seed)
    assert shoe.ranks is not None
    deck = np.repeat(np.arange(13), shoe.ranks)
    lines = ["# dealt by the test's own little engine"]
    for _ in range(n):
        ranks = deck[rng.choice(len(deck), 6, replace=False)]
        v = [RANK_VALUE[r] for r in ranks]
        p, b = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
        used = 4
        if p < 8 and b < 8:
            third = None
            if p <= 5:
                third = v[used]
                used += 1
                p = (p + third) % 10
            if third is None:
                draw = b <= 5
            else:
                draw = (
                    b <= 2
                    or (b == 3 and third != 8 and (banker_39 or third != 9))
                    or (b == 4 and 2 <= third <= 7)
                    or (b == 5 and 4 <= third <= 7)
                    or (b == 6 and third in (6, 7))
                )
            if draw:
                b = (b + v[used]) % 10
                used += 1
        outcome = "B" if b > p else "P" if p > b else "T"
        lines.append(",".join(RANKS[r] for r in ranks[:used]) + ";" + outcome)
    return "\n".join(lines) + "\n"


def test_a_correct_file_passes(cli) -> None:  # type: ignore[no-untyped-def]
    text = _deal_file(20_000, seed=7, shoe=EIGHT)
    run = cli(["crosscheck", "--game", "punto", "--decks", "8", "--coups", "-"], stdin=text)
    assert run.code == 0, run.out + run.err
    assert "verdict: PASS" in run.out and "20,000 coups" in run.out


def test_a_file_with_a_wrong_law_is_rejected(cli) -> None:  # type: ignore[no-untyped-def]
    text = "9,4,Q,2;P\n" * 500  # legal coups, but always the same one
    run = cli(["crosscheck", "--coups", "-", "--format", "json"], stdin=text)
    assert run.code == 1
    assert '"verdict": "reject"' in run.out


def test_a_file_from_a_banker_standing_at_3_against_9_is_rejected_naming_the_line(cli) -> None:  # type: ignore[no-untyped-def]
    """Issue 28: an engine that breaks the drawing rules is a rejection (exit 1, the report on stdout
    naming the first line that breaks them), not unusable input (exit 2, which a typo gets)."""
    import json

    text = _deal_file(5000, seed=8, shoe=EIGHT, banker_39=False)
    bad = [i for i, line in enumerate(text.splitlines(), 1) if line and not line.startswith("#") and _stands_3v9(line)]
    assert len(bad) > 5
    run = cli(["crosscheck", "--coups", "-"], stdin=text)
    assert run.code == 1 and run.err == "", run.err
    assert run.out.splitlines()[-1] == "verdict: REJECT (rules)"
    assert (
        f"{len(bad)} of 5,000 coups break the rules; the first, line {bad[0]}: 5 cards, but the banker must draw on 3 "
        "after the player's third card 9"
    ) in run.out
    assert f"note: line {bad[1]}: 5 cards" in run.out and f"and {len(bad) - 5} more coups that break the rules" in run.out
    d = json.loads(cli(["crosscheck", "--coups", "-", "--format", "json"], stdin=text).out)
    assert d["verdict"] == "reject" and [t["name"] for t in d["tests"]] == ["rules"] and d["per_test_rate"] is None
    assert d["rule_breaks"]["count"] == len(bad) and [b["line"] for b in d["rule_breaks"]["first"]] == bad[:5]
    assert d["coups"] == 5000 and d["held_coups"] == 5000 - len(bad)


def _stands_3v9(line: str) -> bool:
    cards = line.split(";")[0].split(",")
    v = [RANK_VALUE[RANKS.index("10" if c == "T" else c)] for c in cards]
    return len(v) == 5 and (v[0] + v[2]) % 10 <= 5 and (v[1] + v[3]) % 10 == 3 and v[4] == 9


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9,4,Q,2;P\n5,Z,2,3\n", "line 2: bad card 'Z'"),
        ("9,4,Q,2;X\n", "line 1: reported outcome 'X': use B, P or T"),
        ("9,4,,Q,2;P\n", "line 1: empty card in '9,4,,Q,2'"),
        ("# nothing\n", "no coups found"),
    ],
)
def test_malformed_files_get_an_error_naming_the_line(cli, text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    run = cli(["crosscheck", "--coups", "-"], stdin=text)
    assert run.code == 2 and run.out == ""
    assert run.err.startswith("baccarat: error: standard input") and message in run.err
    assert run.err.count("\n") == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# header\n\n9,4,Q,2,3;P\n", "line 3: 5 cards after a natural (player 9): a natural ends the coup with 4"),
        ("2,3,A,A\n", "line 1: 4 cards, but the player must draw on 3"),
        ("9,4,Q,2;B\n", "line 1: reported B but the cards give P (player 9, banker 6)"),
        (
            "2,K,2,3,2,3;T  # a tie reported as a win\n2,K,2,3,2,3;B\n",
            "line 2: reported B but the cards give T (player 6, banker 6)",
        ),
        ("7,K,Q,6,2\n", "line 1: 5 cards, but the banker must stand on 6 after the player stood"),
        ("2,K,2,3,2,3,4\n", "line 1: 7 cards, but the coup ends with 6"),
        ("9,4,Q\n", "line 1: 3 cards: a coup deals at least 4"),
    ],
)
def test_coups_that_break_the_rules_are_a_rejection_naming_the_line(cli, text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    """Issue 28: a coup the rules do not allow is the engine's fault, exit 1 with the report on stdout;
    a malformed line (above) is unusable input, exit 2. A few legal coups around it change nothing."""
    run = cli(["crosscheck", "--coups", "-"], stdin="9,4,Q,2;P\n" * 3 + text)
    assert run.code == 1 and run.err == "", run.err
    line, what = message.split(": ", 1)
    number = int(line.split()[1]) + 3
    assert f"the first, line {number}: {what}" in run.out and run.out.endswith("verdict: REJECT (rules)\n")


def test_a_malformed_line_is_unusable_even_after_coups_that_break_the_rules(cli) -> None:  # type: ignore[no-untyped-def]
    run = cli(["crosscheck", "--coups", "-"], stdin="2,3,A,A\n9,4,Q,2;P\n5,Z,2,3\n")
    assert run.code == 2 and run.out == "" and "line 3: bad card 'Z'" in run.err


def test_a_missing_file_is_unusable_input(cli) -> None:  # type: ignore[no-untyped-def]
    run = cli(["crosscheck", "--coups", "/nonexistent/coups.txt"])
    assert run.code == 2 and "cannot read /nonexistent/coups.txt" in run.err


def test_reader_handles_a_mixed_ponte_cell() -> None:
    """Where the ponte's draw is left to chance, '-' in fifth place says he stood; without it the fifth
    card is his draw where both readings are legal (the file format's rule, docs/simulate.md)."""
    rules = KEMENY_SNELL
    ok = read_coups(io.StringIO("2,3,3,K,-,4;B\n2,3,3,K,9;P\n2,3,3,3,8;B\n2,3,3,3\n2,3,3,K,7,A\n"), "f", rules, "chemin")
    assert ok.n == 5  # the 9 can only be the banker's (3 draws against a 9), the 8 only the ponte's (6 stands)
    drew = read_coups(io.StringIO("2,3,3,K,8\n"), "f", rules, "chemin")  # ponte 5 + 8 = 3, banker 3 stands on an 8
    assert drew.detail is not None and drew.detail[detail_key(3, 3, 1, 0, 0)] == 1
    stood = read_coups(io.StringIO("2,3,3,K,-,8\n"), "f", rules, "chemin")  # banker 3 draws the 8 when the ponte stood
    assert stood.detail is not None and stood.detail[detail_key(5, 1, 0, 1, 0)] == 1
    broken = read_coups(io.StringIO("2,3,3,3,7\n"), "f", rules, "chemin").rule_breaks
    assert broken is not None and broken.count == 1 and broken.first[0][0] == 1
    assert broken.first[0][1].startswith("5 cards, but neither reading is legal")


def test_an_independent_chemin_engine_passes_with_the_natural_rule(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 10: a correct Kemeny-Snell file (the ponte mixing at 5) had 1.1 % of its five-card lines
    refused where both readings were legal. Dealt by an independent plain-Python engine that writes
    ``-`` only where the ponte stood, it is read whole, every ambiguous line as the ponte's draw, and
    passes."""
    from independent_engine import Engine, chemin_banker_draws, text

    _, banker = KEMENY_SNELL.tables()  # B[b1, b2, seen]: the two writings of the sheet agree
    assert all(
        chemin_banker_draws(b, None if seen == 10 else seen) == (banker[b, 0, seen] == 1) for b in range(8) for seen in range(11)
    )
    body = text(Engine(decks=6, game="chemin", first_coup_only=True, mark_shoes=False), 20_000, 11)
    lines = body.splitlines()
    ambiguous = [ln for ln in lines if ln.count(",") == 4 and "-" not in ln and _both_legal(ln)]
    assert len(ambiguous) > 100  # the case the reader once refused is well represented
    path = tmp_path / "ks.txt"
    path.write_text(body)
    run = cli(["crosscheck", "--game", "chemin", "--decks", "6", "--coups", str(path), "--format", "csv"])
    assert run.code == 0, run.err
    assert run.out.splitlines()[-1].endswith("pass"), run.out


def _both_legal(line: str) -> bool:
    """Whether a five-card chemin line could be read both ways: the ponte at 5 (free), and a banker who
    draws when the ponte stood and stands on the fifth card when the ponte drew it."""
    from independent_engine import POINTS, chemin_banker_draws

    points = [POINTS[c] for c in line.split(";")[0].split(",")]
    p, b = (points[0] + points[2]) % 10, (points[1] + points[3]) % 10

    return p == 5 and b <= 5 and not chemin_banker_draws(b, points[4])


def test_crosscheck_cli_on_our_simulator(cli) -> None:  # type: ignore[no-untyped-def]
    run = cli(
        [
            "crosscheck",
            "--game",
            "chemin",
            "--decks",
            "6",
            "--simulate",
            "2e5",
            "--seed",
            "1",
            "--workers",
            "1",
            "--format",
            "csv",
        ]
    )
    assert run.code == 0, run.err
    assert run.out.splitlines()[0] == "test,kind,statistic,df,p_value,rejected,detectable,detectable_what"
    assert run.out.splitlines()[-1].endswith("pass")


def test_strategy_cells_from_the_command_line() -> None:
    s = strategy_from_cells(CHEMIN_CASINO, ["P5=9/11", "B3/9=D", "B5/4=S"])
    assert exact_law("chemin", SIX, s).winner == exact_law("chemin", SIX, KEMENY_SNELL).winner


def test_card_tables_law_agrees_with_the_tableau_mixture() -> None:
    # Two independent exact routes to the same detail law: the mixture of pure tableaux' outcome
    # tables (Kemeny-Snell mixes at the ponte's 5), and the draw tables read on the finest game.
    from solver.chemin.game import strategy_detail
    from solver.deal.tree import detail_key

    by_tableau = exact_law("chemin", SIX, KEMENY_SNELL)
    by_tables = strategy_detail(SIX, Strategy.from_tables(*KEMENY_SNELL.tables()))
    assert by_tableau.detail == {detail_key(*k): q for k, q in by_tables.items()}


def test_solved_strategy_law_has_the_detail() -> None:
    law = exact_law("chemin", SIX, solved_strategy(SIX))
    assert law.detail is not None and sum(law.detail.values()) == 1


def test_the_help_examples_are_legal_coups() -> None:
    from solver.cli.crosscheck import HELP_COUPS
    from solver.strategy import PUNTO_STRATEGY

    assert HELP_COUPS[0] == "shoe"
    for line in HELP_COUPS[1:3]:  # each a legal coup (a file settles the same bets on every coup)
        assert read_coups(io.StringIO(f"shoe\n{line}"), "help", PUNTO_STRATEGY, "punto").shoes == 1
    assert set(read_coups(io.StringIO(HELP_COUPS[2]), "help", PUNTO_STRATEGY, "punto").bets) == {"banker", "player", "tie_8to1"}
    assert read_coups(io.StringIO(HELP_COUPS[3]), "help", KEMENY_SNELL, "chemin").n == 1
