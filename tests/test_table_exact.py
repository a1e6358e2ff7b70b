"""The table against exact laws: its dealing, the house's take, the bank's result, the length of a bank run.

Each simulated figure is held against the exact value from the enumerator (solver.chemin.game.strategy_law,
strategy_detail) at a fixed seed, with a stated number of standard errors or a chi-square p-value
floor: 4 standard errors (a false alarm about once in 16,000 runs) and p > 1e-4.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import chi2

from solver.cards import Shoe
from solver.chemin.game import strategy_detail
from solver.sessions import CheminPlay, Policies, TableConfig, run_length_law, run_length_mean, summarize
from solver.sessions.deal import CheminOnEachTableau, ShoeDealer, bernoulli, deal_banque, deal_chemin, shoe_cards
from solver.sessions.laws import coup_law
from solver.sessions.summary import kaplan_meier
from solver.simulate import KEMENY_SNELL
from solver.simulate.config import Burn

Z = 4.0
P_FLOOR = 1e-4
SIX = Shoe.decks(6)


def chi2_pvalue(observed: dict, expected: dict[object, Fraction], n: int) -> float:
    """Pearson's chi-square of counts against exact probabilities, cells with fewer than 5 expected merged."""
    cells = sorted(expected, key=lambda k: expected[k])
    obs, exp, o_acc, e_acc = [], [], 0, 0.0
    for k in cells:
        o_acc += observed.get(k, 0)
        e_acc += float(expected[k]) * n
        if e_acc >= 5:
            obs.append(o_acc)
            exp.append(e_acc)
            o_acc, e_acc = 0, 0.0
    obs[-1] += o_acc
    exp[-1] += e_acc
    stat = sum((o - e) ** 2 / e for o, e in zip(obs, exp))
    assert sum(observed.values()) == n and not set(observed) - set(expected)
    return float(chi2.sf(stat, len(obs) - 1))


@pytest.fixture(scope="module")
def solved() -> CheminPlay:
    """The certified B3 equilibrium of the casino game (the rule sheet's tableau) on 6 decks with the 5 % tax."""
    from solver.chemin.game import build_game
    from solver.chemin.solve import solve

    return CheminPlay(solve(build_game(SIX, 3, "casino", Fraction(1, 20))).strategy)


def test_bernoulli_is_exact_for_huge_denominators() -> None:
    rng = np.random.default_rng(7)
    p = Fraction(3**80, 3**80 * 2 + 1)  # just under 1/2, denominator far beyond 2^62
    n = 40_000
    hits = sum(bernoulli(rng, p) for _ in range(n))
    assert abs(hits / n - float(p)) < Z * math.sqrt(0.25 / n)
    assert bernoulli(rng, Fraction(1)) and not bernoulli(rng, Fraction(0))


def test_dealing_first_coups_follow_the_exact_detail_law(solved: CheminPlay) -> None:
    """The first coup of fresh shoes under the solved (mixed) strategy: totals, draws and naturals."""
    rng = np.random.default_rng(11)
    dealer = ShoeDealer(shoe_cards(SIX), Burn("none"), 7, rng)
    n = 40_000
    seen: Counter[tuple[int, int, int, int, int]] = Counter()
    for _ in range(n):
        dealer.new_shoe()
        h = deal_chemin(dealer, solved, rng)
        pt, bt = sum(h.ponte) % 10, sum(h.banker) % 10
        natural = int((h.ponte[0] + h.ponte[1]) % 10 >= 8 or (h.banker[0] + h.banker[1]) % 10 >= 8)
        seen[(pt, bt, int(len(h.ponte) == 3), int(len(h.banker) == 3), natural)] += 1
    assert chi2_pvalue(seen, strategy_detail(SIX, solved.strategy), n) > P_FLOOR


def test_banque_tableau_one_is_chemin_de_fer_when_its_stake_is_the_larger() -> None:
    """With every stake on tableau 1 the banker plays chemin de fer against it; tableau 2's cards are
    cards no one acts on, so tableau 1's outcome has chemin de fer's exact law from a fresh shoe."""
    play = CheminPlay.of(KEMENY_SNELL)
    rng = np.random.default_rng(13)
    dealer = ShoeDealer(shoe_cards(SIX), Burn("none"), 10, rng)
    n = 30_000
    seen: Counter[str] = Counter()
    for _ in range(n):
        dealer.new_shoe()
        seen[deal_banque(dealer, CheminOnEachTableau(play), (Fraction(100), Fraction(0)), rng).outcomes[0].value] += 1
    assert chi2_pvalue(seen, coup_law(SIX, play), n) > P_FLOOR


def test_house_take_per_unit_at_stake_is_the_exact_expected_tax_of_the_solved_game(solved: CheminPlay) -> None:
    """Default table: the house takes 1/20 of the sum at stake when the banker wins, so 1/20 P(banker)
    per unit at stake, P(banker) from the solved game exactly; the bank's result per unit at stake is
    (19/20) P(banker) - P(ponte). (The sum at stake is 100 on a bank's first coup and 180 after, set
    before the cards; it does not depend on the coup's outcome.)"""
    table = TableConfig("chemin")
    s = summarize(table, Policies.defaults(table), solved, sessions=160, seed=3, workers=1)
    assert s.exact is not None
    est = s.estimates()
    house = est["house_per_unit_at_stake"]
    expected = s.exact.law["banker"] / 20
    assert s.exact.house_per_unit == expected
    assert abs(house.value - float(expected)) < Z * house.se, (house, float(expected))
    bank = est["banker_per_unit_at_stake"]
    assert abs(bank.value - float(s.exact.bank_per_unit)) < Z * bank.se, (bank, float(s.exact.bank_per_unit))
    assert 100 < est["at_stake_per_coup"].value < 180


@pytest.mark.parametrize("pass_after", [3, 0])
def test_bank_runs_follow_the_exact_law_of_a_fresh_shoe(pass_after: int) -> None:
    """Bankers pass after three wins (the default), or never: the run ends at the first ponte win or
    the third banker win. Sessions of 4 shoes (the bank carried from shoe to shoe) leave one run per
    session cut short: the chi-square leaves it out (a bias of about 1 run in 100), the mean counts it
    (Kaplan-Meier, jackknife standard error)."""
    table = TableConfig("chemin", shoes=4)
    pols = Policies.from_mapping({"pass_after": pass_after, "bankroll": 10**7}, table)
    s = summarize(table, pols, KEMENY_SNELL, sessions=40, seed=5, workers=1)
    assert s.exact is not None and s.exact.pass_after == pass_after
    lengths = s.run_lengths()
    n = sum(lengths.values())
    top = 9
    law = run_length_law(*(s.exact.law[k] for k in ("banker", "ponte", "tie")), pass_after, top)
    expected: dict[object, Fraction] = {k + 1: p for k, p in enumerate(law)} | {"longer": 1 - sum(law)}
    observed: Counter[object] = Counter()
    for k, count in lengths.items():
        observed[k if k <= top else "longer"] += count
    assert n > 4_000
    assert chi2_pvalue(observed, expected, n) > P_FLOOR
    mean = s.estimates()["run_length"]
    exact_mean = float(s.exact.run_mean())  # type: ignore[arg-type]
    assert exact_mean == float(run_length_mean(*(s.exact.law[k] for k in ("banker", "ponte", "tie")), pass_after))
    assert abs(mean.value - exact_mean) < Z * mean.se, (mean, exact_mean)


def test_kaplan_meier_counts_the_runs_cut_short() -> None:
    """Three runs: 1 coup, 2 coups, and one cut short after 1 coup. Leaving it out gives P(L = 1) = 1/2;
    Kaplan-Meier keeps it at risk for the first coup: P(L > 1) = 2/3, and the one at risk at 2 ends."""
    assert kaplan_meier(Counter({1: 1, 2: 1}), Counter({1: 1}), 3) == pytest.approx([1, 2 / 3, 0, 0])
    assert kaplan_meier(Counter({3: 2}), Counter(), 3) == [1.0, 1.0, 1.0, 0.0]


def test_run_length_law_sums_to_one_and_its_mean_is_the_closed_form() -> None:
    law = coup_law(SIX, CheminPlay.of(KEMENY_SNELL))
    pb, pp, pt = law["banker"], law["ponte"], law["tie"]
    for w in (0, 1, 2, 3, 5):
        probs = run_length_law(pb, pp, pt, w, 60)
        tail = 1 - sum(probs)
        assert 0 < tail < Fraction(1, 10**12)
        mean = sum((k + 1) * p for k, p in enumerate(probs))
        assert abs(mean - run_length_mean(pb, pp, pt, w)) < Fraction(1, 10**9)
    assert run_length_law(pb, pp, pt, 1, 2) == [pb + pp, pt * (pb + pp)]
