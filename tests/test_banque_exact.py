"""Exact numbers and typed words of the banque solver: quadratic irrationals with integer signs, the
partition's roots, and the model's words parsed once at the edge."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction

import pytest

from solver.banque.game import BanqueModel
from solver.banque.parametric import as_number, in_field, roots01, sign_variations_bound
from solver.banque.vocabulary import Concept, Freedom, SecondPlayer
from solver.errors import ModelError
from solver.exact.algebraic import as_poly
from solver.exact.quadratic import Quadratic


@pytest.mark.parametrize("seed", range(30))
def test_quadratic_signs_match_a_wide_float(seed: int) -> None:
    rng = random.Random(seed)
    d = rng.choice([2, 3, 5, 7, 10, 9973])
    a, b = (
        Fraction(rng.randint(-(10**6), 10**6), rng.randint(1, 999)),
        Fraction(rng.randint(-(10**6), 10**6), rng.randint(1, 999)),
    )
    q = Quadratic(a, b, d)
    approx = float(a) + float(b) * math.sqrt(d)
    if abs(approx) > 1e-6:
        assert q.sign() == (1 if approx > 0 else -1)
    r = Quadratic(Fraction(rng.randint(1, 50)), Fraction(rng.randint(1, 50)), d)
    assert (q * r) / r == q and (q + r) - r == q and q - q == 0


def test_a_sign_decided_where_floats_cannot() -> None:
    # Pell's equation p^2 - 2 q^2 = 1: p/q exceeds √2 by about 1/(2√2 q^2), here below 10^-40, where
    # floats see zero.
    p, q = 3, 2
    while p < 10**20:
        p, q = 3 * p + 4 * q, 2 * p + 3 * q
    assert p * p - 2 * q * q == 1 and float(Fraction(p, q)) - math.sqrt(2) == 0.0
    gap = Quadratic(Fraction(p, q), -1, 2)
    assert gap.sign() == 1 and (-gap).sign() == -1 and gap > 0


def test_roots_in_the_unit_interval_are_exact() -> None:
    (r,) = roots01([-1, 0, 2])  # √2/2
    x = as_number(r)
    assert isinstance(x, Quadratic) and x * x == Fraction(1, 2)
    assert [v.value for v in roots01([-1, 3])] == [Fraction(1, 3)]
    assert roots01([1, 0, 1]) == [] and roots01([5, -1]) == []  # no real root; the root 5 is outside [0, 1]
    (field_value,) = in_field([x], r)
    assert field_value * field_value == Fraction(1, 2)  # the same number in the certificate's field form


def test_descartes_bound_proves_an_interval_root_free() -> None:
    p = as_poly([Fraction(-1, 4), 0, 1])  # roots ±1/2
    assert sign_variations_bound(p, Fraction(0), Fraction(1)) == 1
    assert sign_variations_bound(p, Fraction(3, 5), Fraction(1)) == 0


def test_the_words_are_typed_and_written_as_before() -> None:
    m = BanqueModel(1, "sees-first", "parlor")
    assert m.second_player is SecondPlayer.SEES_FIRST and m.freedom is Freedom.PARLOR
    assert m == BanqueModel(1, SecondPlayer.SEES_FIRST, Freedom.PARLOR)
    assert json.dumps({"second_player": m.second_player.value, "concept": Concept.NASH.value}) == (
        '{"second_player": "sees-first", "concept": "nash"}'
    )
    for bad in [(1, "sighted", "parlor"), (1, "blind", "saloon"), (1, 2, "parlor")]:
        with pytest.raises(ModelError):
            BanqueModel(*bad)  # type: ignore[arg-type]
    with pytest.raises(ModelError, match="unknown concept 'coalition'"):
        Concept.parse("coalition")
