"""The shared exact helpers against independent implementations: solver.exact.linalg against sympy's exact
matrices, solver.exact.lp's two engines against each other, and number-field arithmetic against
solver.exact.algebraic's canonical roots."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
import sympy

from solver.exact.algebraic import Algebraic, poly, real_roots
from solver.exact.linalg import independent_rows, nullspace, rank, solve_any, solve_square
from solver.exact.lp import linear_program
from solver.exact.numberfield import Field, isolate, minimal_polynomial


def _matrix(rng: random.Random, rows: int, cols: int, rank_at_most: int) -> list[list[Fraction]]:
    """A random rational matrix of rank at most ``rank_at_most`` (a product of two random factors)."""
    left = [[Fraction(rng.randint(-4, 4), rng.randint(1, 3)) for _ in range(rank_at_most)] for _ in range(rows)]
    right = [[Fraction(rng.randint(-4, 4), rng.randint(1, 3)) for _ in range(cols)] for _ in range(rank_at_most)]
    return [[sum((left[i][k] * right[k][j] for k in range(rank_at_most)), Fraction(0)) for j in range(cols)] for i in range(rows)]


def _sympy(m: list[list[Fraction]]) -> sympy.Matrix:
    return sympy.Matrix([[sympy.Rational(x.numerator, x.denominator) for x in row] for row in m])


@pytest.mark.parametrize("seed", range(12))
def test_rank_nullspace_and_solves_agree_with_sympy(seed: int) -> None:
    rng = random.Random(seed)
    rows, cols = rng.randint(1, 6), rng.randint(1, 6)
    m = _matrix(rng, rows, cols, rng.randint(1, min(rows, cols)))
    s = _sympy(m)
    assert rank(m) == s.rank()
    ours = nullspace(m)
    theirs = s.nullspace()
    assert len(ours) == len(theirs)
    assert all(_sympy([v]).T == w for v, w in zip(ours, theirs))  # the same basis, vector by vector
    chosen = independent_rows(m)
    assert len(chosen) == rank(m) == rank([m[i] for i in chosen])
    x = [Fraction(rng.randint(-3, 3)) for _ in range(cols)]
    b = [sum((a * v for a, v in zip(row, x)), Fraction(0)) for row in m]
    y = solve_any(m, b)
    assert y is not None and [sum((a * v for a, v in zip(row, y)), Fraction(0)) for row in m] == b
    if rows == cols:
        unique = solve_square(m, b)
        assert (unique is None) == (s.det() == 0)
        if unique is not None:
            assert unique == x


def test_an_inconsistent_system_has_no_solution() -> None:
    F = Fraction
    assert solve_any([[F(1), F(2)], [F(2), F(4)]], [F(1), F(3)]) is None
    assert solve_square([[F(1), F(2)], [F(2), F(4)]], [F(1), F(2)]) is None


@pytest.mark.parametrize("seed", range(6))
def test_the_two_lp_engines_agree(seed: int) -> None:
    pytest.importorskip("highspy")
    rng = np.random.default_rng(seed)
    n, m = 5, 4
    cost = rng.normal(size=n)
    A_ub, b_ub = rng.normal(size=(m, n)), rng.uniform(0.5, 1.5, size=m)
    A_eq, b_eq = np.ones((1, n)), np.ones(1)
    answers = [
        linear_program(cost, A_ub, b_ub, A_eq, b_eq, lo=np.zeros(n), hi=np.ones(n), engine=e) for e in ("highspy", "scipy")
    ]
    assert all(a is not None for a in answers)
    h, s = answers
    assert h is not None and s is not None
    assert h.fun == pytest.approx(s.fun, abs=1e-9)
    # Strong duality read off each engine's duals: the same optimum, the same sign convention.
    for a in (h, s):
        assert a.fun == pytest.approx(cost @ a.x, abs=1e-9)
    assert h.ineq_duals == pytest.approx(s.ineq_duals, abs=1e-7)
    assert h.eq_duals == pytest.approx(s.eq_duals, abs=1e-7)


def test_an_infeasible_lp_is_none() -> None:
    for engine in ("highspy", "scipy"):
        if engine == "highspy":
            pytest.importorskip("highspy")
        assert linear_program(np.ones(1), A_ub=np.array([[1.0]]), b_ub=np.array([-1.0]), engine=engine) is None


def test_a_field_element_and_a_canonical_root_are_the_same_number() -> None:
    # 1 + sqrt(2) in Q(sqrt 2), and the larger root of x^2 - 2x - 1 found by solver.exact.algebraic.
    F = Field.from_polynomial([-2, 0, 1], Fraction(1), Fraction(2))
    x = 1 + F.generator
    m = minimal_polynomial(x)
    assert m == [-1, -2, 1]
    root = real_roots(poly(*m), Fraction(0), Fraction(3))
    assert len(root) == 1
    _, lo, hi = isolate(x)
    assert Algebraic.rational(lo) < root[0] < Algebraic.rational(hi)
    assert x.decimal(12) == root[0].decimal(12) == "2.414213562373"
