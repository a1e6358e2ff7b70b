"""Every θ answered (issue 26): the Nash equilibrium of baccara banque at θ = 1/20, 2/20, …, 19/20 for both
second-player models, both freedoms, on the infinite deck, 6 and 3 decks, each found and certified.

The complete search (solver/banque/nash.py) applies to all of them (information 1); none may fail. The
run is recorded in docs/benchmarks.md ("Baccara banque: every θ answered").
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from solver.banque.game import BanqueModel
from solver.banque.sweep import parse_thetas, solve_sweep
from solver.cards import Shoe
from solver.exact.numberfield import FieldElement, isolate

THETAS = parse_thetas("1/20..19/20/18")


@pytest.mark.slow
@pytest.mark.parametrize("freedom", ["parlor", "casino"])
@pytest.mark.parametrize("second", ["blind", "sees-first"])
@pytest.mark.parametrize("shoe", [Shoe.infinite(), Shoe.decks(6), Shoe.decks(3)], ids=["inf", "d6", "d3"])
def test_every_theta_is_answered(shoe: Shoe, second: str, freedom: str) -> None:
    done, failed = solve_sweep(shoe, BanqueModel(1, second, freedom), THETAS, ["nash"])
    assert failed == []
    assert [s.theta for s in done] == THETAS
    assert all(s.certified and s.exists for s in done)
    if second == "blind":  # the players trade places when θ becomes 1 − θ (their hands are exchangeable)
        values = [s.value for s in done]
        assert all(same_number(a, b) for a, b in zip(values, reversed(values)))


def _isolated(v: Any) -> tuple[list[int], Fraction, Fraction]:
    if isinstance(v, FieldElement):
        return isolate(v)
    q = Fraction(v)
    return [-q.numerator, q.denominator], q, q


def same_number(a: Any, b: Any) -> bool:
    """Exact equality of two algebraic numbers, of one field or two: the same minimal polynomial, and
    isolating intervals (on each the polynomial is monotonic) that meet."""
    (ma, la, ha), (mb, lb, hb) = _isolated(a), _isolated(b)
    return ma == mb and max(la, lb) <= min(ha, hb)
