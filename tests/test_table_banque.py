"""The table deals baccara banque with the banque solver's equilibrium (solver.banque.play)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import run_cli

from solver.banque import BanqueModel, solve_banque
from solver.banque.play import APPROXIMATION, SolvedBanque, as_fraction
from solver.cards import Shoe
from solver.strategy import NATURAL, STOOD


@pytest.mark.parametrize("second", ["blind", "sees-first"])
def test_the_table_plays_the_solved_equilibrium_where_it_decides_and_the_rules_elsewhere(second: str) -> None:
    sol = solve_banque(Shoe.infinite(), BanqueModel(1, second, "parlor"), Fraction(1, 2), "nash")
    play = SolvedBanque(sol)
    g = sol.game
    for s, v in zip(g.player1_sets, sol.player1):
        assert play.player_draw(1, (0, s.total), ()) == as_fraction(v)
    for s, v in zip(g.player2_sets, sol.player2):
        assert play.player_draw(2, (0, s.total), s.seen) == as_fraction(v)
    for s, v in zip(g.banker_sets, sol.banker):
        assert play.banker_draw((0, s.total), (s.seen[0], s.seen[1]), (Fraction(1), Fraction(1))) == as_fraction(v)
    assert play.player_draw(1, (1, 2), ()) == 1 and play.player_draw(2, (3, 3), (STOOD,)) == 0  # 3 draws, 6 stands
    assert play.banker_draw((0, 7), (NATURAL, 4), (Fraction(1), Fraction(1))) in (0, 1)


def test_an_irrational_probability_is_dealt_within_its_stated_approximation() -> None:
    from solver.exact.numberfield import Field

    root2 = Field.from_polynomial([-2, 0, 1], Fraction(1), Fraction(2)).generator  # sqrt(2)
    p = root2 - 1  # about 0.414
    q = as_fraction(p)
    assert q.denominator == APPROXIMATION
    lo, hi = p.interval(Fraction(1, 10**30))
    assert abs(q - lo) <= Fraction(1, APPROXIMATION)


def test_baccarat_table_banque_with_the_solved_strategy() -> None:
    r = run_cli(
        [
            "table",
            "--game",
            "banque",
            "--strategy",
            "solved",
            "--information",
            "1",
            "--second-player",
            "blind",
            "--sessions",
            "2",
            "--workers",
            "1",
        ]
    )
    assert r.code == 0, r.err
    assert "strategy: solved baccara banque (nash" in r.out
    bad = run_cli(["table", "--game", "banque", "--strategy", "solved", "--draw", "P5=1"])
    assert bad.code == 2 and "--draw" in bad.err
