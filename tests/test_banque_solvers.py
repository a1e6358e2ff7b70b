"""Baccara banque solvers: the three concepts, their relations, published facts, irrational equilibria.

Sources pinned here:

* the rule sheets quoted in the seed rules (issue 12): the banker's advantage is "about 0.87 %" in
  baccara banque against "1.28 %" in chemin de fer; reproduced under dealing A (an infinite deck),
  information 1, parlor freedom, a blind second player, θ = 1/2: every concept rounds to 0.87 %, and
  chemin de fer's value (Kemeny and Snell's game) rounds to 1.28 %;
* S. N. Ethier and J. Lee, "On the three-person game baccara banque", Games 6(2) (2015) 57-78,
  abstract: the independent cooperative equilibrium "exists only for certain θ"; the correlated
  cooperative equilibrium "always exists"; under "a with-replacement assumption as well as a
  simplifying assumption concerning the information available to one of the players" (our dealing A
  with a blind Player 2).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from solver.banque.game import BanqueModel, build_banque
from solver.banque.solve import CONCEPTS, check_theta, solve_banque
from solver.banque.sweep import solve_concepts
from solver.cards import Shoe
from solver.chemin.game import build_game
from solver.chemin.solve import solve
from solver.errors import ModelError
from solver.exact.numberfield import FieldElement, decimal_of, minimal_polynomial

HALF = Fraction(1, 2)


@pytest.fixture(scope="module")
def a1_blind_parlor():
    return build_banque(Shoe.infinite(), BanqueModel(1, "blind", "parlor"))


def test_rule_sheets_087_against_128(a1_blind_parlor) -> None:
    g = a1_blind_parlor
    for concept in CONCEPTS:
        s = solve_banque(g.shoe, g.model, HALF, concept, game=g)
        assert decimal_of(s.value * 100, 2) == "0.87", concept
    assert decimal_of(solve(build_game(Shoe.infinite(), 1, "parlor")).value * 100, 2) == "1.28"


def test_ethier_lee_2015_independent_solution_exists_only_for_some_theta(a1_blind_parlor) -> None:
    g = a1_blind_parlor
    at = {t: solve_banque(g.shoe, g.model, t, "independent", game=g) for t in (Fraction(3, 10), HALF, Fraction(7, 10))}
    assert at[Fraction(3, 10)].exists is True and at[Fraction(7, 10)].exists is True
    assert at[HALF].exists is False  # proved: every support pattern is infeasible
    for t, s in at.items():
        corr = solve_banque(g.shoe, g.model, t, "correlated", game=g)
        assert corr.exists is True
        if s.exists:
            assert s.value == corr.value  # an optimal product strategy reaches the correlated value
        else:
            assert s.value > corr.value  # the best guarantee found is worse: correlation is worth something


@pytest.mark.parametrize("shoe", [Shoe.infinite(), Shoe.decks(6)])
@pytest.mark.parametrize("freedom", ["parlor", "casino"])
def test_correlated_le_independent_le_nash(shoe: Shoe, freedom: str) -> None:
    # v_c = min over correlated team strategies of the banker's best reply ≤ the same minimum over
    # product strategies ≤ the banker's payoff at any Nash equilibrium (there he best-replies to a
    # product strategy). Exact comparisons, each side certified.
    sols = {s.concept: s for s in solve_concepts(shoe, BanqueModel(1, "blind", freedom), [HALF], list(CONCEPTS))}
    assert all(s.certified for s in sols.values())
    assert sols["correlated"].value <= sols["independent"].value <= sols["nash"].value


def test_casino_blind_nash_is_unique_by_dominance() -> None:
    s = solve_banque(Shoe.decks(6), BanqueModel(1, "blind", "casino"), HALF, "nash")
    assert s.unique is True and s.player1 == (1,) and s.player2 == (1,)
    assert len(s.dominance) == len(s.game.banker_sets) + 2


def test_an_irrational_equilibrium_is_exact(a1_blind_parlor) -> None:
    # At θ = 1/20 the Nash equilibrium's draw probabilities are conjugate roots of a quadratic.
    g = a1_blind_parlor
    s = solve_banque(g.shoe, g.model, Fraction(1, 20), "nash", game=g)
    assert s.certified and s.field is not None and s.field.degree == 2
    x = s.player1[0]
    assert isinstance(x, FieldElement) and x.rational() is None
    alpha = s.field.generator
    assert sum(Fraction(c) * p for c, p in zip(s.field.minpoly, _powers(alpha, len(s.field.minpoly)))) == 0
    m = minimal_polynomial(x)
    assert len(m) == 3 and sum(Fraction(c) * p for c, p in zip(m, _powers(x, 3))) == 0


def _powers(x: FieldElement, n: int) -> list:
    out = [Fraction(1)]
    for _ in range(n - 1):
        out.append(out[-1] * x)
    return out


def test_tax_on_the_netted_coup() -> None:
    # A 2 % cagnotte on the banker's net win of each coup: Nash and correlated equilibria certified; the
    # tax costs the banker, and less than 2 % of his chance of a positive net coup.
    model = BanqueModel(1, "blind", "casino", Fraction(1, 50))
    shoe = Shoe.decks(6)
    taxed = {s.concept: s for s in solve_concepts(shoe, model, [HALF], ["nash", "correlated"])}
    free = {s.concept: s for s in solve_concepts(shoe, BanqueModel(1, "blind", "casino"), [HALF], ["nash", "correlated"])}
    for c in taxed:
        assert taxed[c].certified
        assert 0 < free[c].value - taxed[c].value < Fraction(1, 50)
    with pytest.raises(ModelError):
        solve_banque(shoe, model, HALF, "independent")


@pytest.mark.parametrize("bad", ["0", "1", "-1/2", "3/2", "1.5"])
def test_theta_outside_the_open_interval(bad: str) -> None:
    with pytest.raises(ModelError):
        check_theta(bad)


def test_unknown_concept() -> None:
    with pytest.raises(ModelError):
        solve_banque(Shoe.infinite(), BanqueModel(1, "blind", "casino"), HALF, "coalition")
