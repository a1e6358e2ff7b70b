"""Baccara banque as θ → 1, where it meets chemin de fer (issue 26, item 4).

Sources pinned here:

* J. G. Kemeny and J. L. Snell, "Game-theoretic solution of baccarat", Amer. Math. Monthly 64 (1957):
  chemin de fer's value on the infinite deck (parlor, information 1) is 679568/53094899
  (docs/howto-kemeny-snell.md); on the infinite deck the banque limit is that value exactly.
* issue 26: on a finite shoe the limit is above chemin de fer's value, "by about 1.05 × 10⁻⁵ at 6 decks,
  2.2 × 10⁻⁵ at 3", because the banker also sees the other tableau's cards.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from solver.banque.committed import THETA_ONE_LIMITS, theta_one_limit_of
from solver.banque.game import BanqueModel, build_banque
from solver.banque.limit import NEAR_ONE, theta_one_limit
from solver.banque.solve import solve_banque
from solver.cards import Shoe
from solver.chemin.game import build_game
from solver.chemin.solve import solve
from solver.errors import ModelError

KEMENY_SNELL = Fraction(679568, 53094899)


def test_on_the_infinite_deck_the_limit_is_chemin_de_fer() -> None:
    limit = theta_one_limit(Shoe.infinite(), BanqueModel(1, "blind", "parlor"))
    assert limit.value == KEMENY_SNELL == solve(build_game(Shoe.infinite(), 1, "parlor")).value
    assert limit.player1 == Fraction(9, 11)  # Kemeny and Snell: the ponte draws at 5 w.p. 9/11


@pytest.mark.parametrize(("decks", "gap"), [(6, "1.05e-05"), (3, "2.2e-05")])
def test_on_a_finite_shoe_the_limit_is_above_chemin_de_fer(decks: int, gap: str) -> None:
    shoe = Shoe.decks(decks)
    limit = theta_one_limit(shoe, BanqueModel(1, "blind", "parlor"))
    chemin = solve(build_game(shoe, 1, "parlor")).value
    assert limit.value > chemin
    assert f"{float(limit.value - chemin):.{len(gap.split('e')[0]) - 2}e}" == gap  # the figure, rounded as printed
    assert limit.value == theta_one_limit_of(shoe, BanqueModel(1, "blind", "parlor"))


def test_the_banque_value_tends_to_the_limit() -> None:
    # |v(θ) − L| ≤ 2(1 − θ)/θ + 2(1 − θ) (the module's bounds), at θ short of 1.
    shoe = Shoe.decks(6)
    g = build_banque(shoe, BanqueModel(1, "sees-first", "parlor"))
    limit = theta_one_limit_of(shoe, g.model)
    assert limit is not None
    for t in (Fraction(999, 1000), Fraction(99999, 100000), NEAR_ONE[0]):
        v = solve_banque(shoe, g.model, t, "nash", game=g).value
        assert abs(v - limit) <= 2 * (1 - t) / t + 2 * (1 - t)


def test_a_tax_or_information_3_is_refused() -> None:
    with pytest.raises(ModelError):
        theta_one_limit(Shoe.infinite(), BanqueModel(1, "blind", "parlor", Fraction(1, 50)))


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(THETA_ONE_LIMITS))
def test_the_committed_limits_are_recomputed(key: tuple[str, str, str]) -> None:
    label, second, freedom = key
    shoe = {"inf": Shoe.infinite(), "6 decks": Shoe.decks(6), "3 decks": Shoe.decks(3)}[label]
    assert theta_one_limit(shoe, BanqueModel(1, second, freedom)).value == THETA_ONE_LIMITS[key]
