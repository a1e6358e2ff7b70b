"""Uniqueness of the commission game's equilibrium over whole pieces of α (solver.chemin.commission.interval).

Cross-checks: the proof over a piece against fresh single-α solves inside it (which decide uniqueness
by their own case analysis at that α); the windows of the convex functions F against a brute-force
evaluation; and a piece stretched past its breakpoint, where the proof must not go through.
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from solver.cards import Shoe
from solver.chemin.commission.interval import piece_uniqueness
from solver.chemin.commission.pieces import game_at
from solver.chemin.commission.sweep import commission_sweep, junctions
from solver.chemin.commission.windows import zeros_of_box_max
from solver.chemin.solve import solve
from solver.exact.algebraic import Algebraic


def test_b2_parlor_one_deck_every_piece_is_unique_inside_and_breakpoints_are_not_closed() -> None:
    sweep = commission_sweep(Shoe.decks(1), 2, "parlor")
    assert len(sweep.pieces) == 3
    for piece, inside in zip(sweep.pieces, sweep.inside):
        assert inside.unique is True and inside.covered == (piece.lo, piece.hi)
    # The range's own ends are covered; a breakpoint, where the banker's strategy jumps, never is.
    assert sweep.inside[0].ends[0] and sweep.inside[-1].ends[1]
    for k, j in enumerate(junctions(sweep)):
        assert not j.unique and not sweep.inside[k].ends[1] and not sweep.inside[k + 1].ends[0]


def test_fresh_solves_inside_the_pieces_agree() -> None:
    """At rational α strictly inside each piece, a fresh solve finds its equilibrium unique by its own
    case analysis at that α (an independent route to the same claim, at points the proof covers)."""
    sweep = commission_sweep(Shoe.decks(1), 2, "parlor")
    rng = random.Random(14)
    for piece, inside in zip(sweep.pieces, sweep.inside):
        lo, hi = piece.lo.approximations(Fraction(1, 10**9))[1], piece.hi.approximations(Fraction(1, 10**9))[0]
        for _ in range(3):
            alpha = lo + (hi - lo) * Fraction(rng.randint(1, 999), 1000)
            s = solve(game_at(sweep.game, alpha))
            assert s.unique_equilibrium is True and (tuple(s.q), tuple(s.r)) == piece.at(alpha)[:2]
        assert inside.unique


def test_a_piece_stretched_past_its_breakpoint_is_not_proved_unique() -> None:
    sweep = commission_sweep(Shoe.decks(1), 2, "parlor")
    first, second = sweep.pieces[0], sweep.pieces[1]
    stretched = dataclasses.replace(first, hi=second.hi)  # the first form continued where it is no equilibrium
    assert piece_uniqueness(sweep.game, stretched).unique is not True


def test_one_ponte_set_infinite_deck_parlor() -> None:
    (inside,) = commission_sweep(Shoe.infinite(), 1, "parlor").inside
    assert inside.unique is True and inside.ends == (True, True)
    assert inside.covered == (Algebraic.rational(0), Algebraic.rational(Fraction(1, 10)))


@pytest.mark.parametrize("seed", range(40))
def test_zeros_of_a_box_maximum_against_brute_force(seed: int) -> None:
    """F(α) = max over the box of const + Σ coef_v x_v: its nearest zeros around α against F evaluated
    directly on a grid (F is convex, so it is negative exactly between them)."""
    rng = random.Random(seed)
    n = rng.randint(0, 5)

    def line() -> tuple[int, int]:
        return rng.randint(-9, 9), rng.randint(-9, 9)

    const, coef = line(), {v: line() for v in range(n)}
    fixed = {v: rng.randint(0, 1) for v in range(n) if rng.random() < 0.3}
    alpha = Fraction(rng.randint(-20, 20), 10)

    def F(x: Fraction) -> Fraction:
        total = const[0] + const[1] * x
        for v, (p0, p1) in coef.items():
            c = p0 + p1 * x
            total += c * fixed[v] if v in fixed else max(c, Fraction(0))
        return total

    found = zeros_of_box_max(const, coef, fixed, alpha)
    if F(alpha) >= 0:
        assert found is None
        return
    assert found is not None
    lo, hi = found
    for t in range(-200, 201):
        x = alpha + Fraction(t, 20)
        inside = (lo is None or lo < x) and (hi is None or x < hi)
        assert (F(x) < 0) == inside, (x, lo, hi)
    for z in (lo, hi):
        if z is not None:
            assert F(z) == 0


@pytest.mark.slow
@pytest.mark.parametrize("information", [1, 2, 3])
@pytest.mark.parametrize("freedom", ["casino", "parlor"])
def test_every_model_is_unique_inside_every_piece_docs_discussion(information: int, freedom: str) -> None:
    """docs/discussion.md: for A1 and B1-B3 (1 to 8 decks), casino and parlor, the commission game's
    equilibrium is unique at every alpha in [0, 1/10] but the breakpoints, where it is not."""
    shoes = [Shoe.decks(d) for d in range(1, 9)] + ([Shoe.infinite()] if information == 1 else [])
    for shoe in shoes:
        sweep = commission_sweep(shoe, information, freedom)
        assert all(inside.unique is True and inside.covered == (p.lo, p.hi) for p, inside in zip(sweep.pieces, sweep.inside))
        assert sweep.inside[0].ends[0] and sweep.inside[-1].ends[1]
        assert all(not j.unique for j in junctions(sweep)) and sweep.overlaps == ()


def test_a_range_of_one_alpha_and_a_set_that_changes_nothing(cli) -> None:  # type: ignore[no-untyped-def]
    one = cli(["chemin", "--decks", "1", "--information", "3", "--freedom", "parlor", "--commission", "1/20..1/20"])
    assert one.code == 0 and "the piece is one α: unique there" in one.out, one.err
    # Three 5s out of one deck leave a free set whose choice changes no payoff: any play there is an
    # equilibrium too, at every α.
    sweep = commission_sweep(Shoe.decks(1).remove(["5", "5", "5"]), 2, "parlor", "1/50", "1/20")
    (inside,) = sweep.inside
    assert inside.unique is False and inside.other is not None
    alpha = inside.samples[-1]
    from solver.chemin.solve import is_equilibrium

    game = game_at(sweep.game, alpha)
    q, r, _, _ = sweep.pieces[0].at(alpha)
    assert is_equilibrium(game, list(q), list(r)) and is_equilibrium(game, list(inside.other[0]), list(inside.other[1]))
    assert (tuple(q), tuple(r)) != inside.other


def test_a_walk_cut_short_says_what_it_proved() -> None:
    """With one case analysis allowed where the piece needs more, the answer is 'not decided', with the
    part proved: a window around the sample, inside the piece."""
    sweep = commission_sweep(Shoe.decks(2), 2, "parlor")
    piece, full = next((p, i) for p, i in zip(sweep.pieces, sweep.inside) if len(i.samples) > 1)
    short = piece_uniqueness(sweep.game, piece, max_trees=1)
    assert short.unique is None and "case analyses" in short.why and short.covered is not None
    lo, hi = short.covered
    here = Algebraic.rational(short.samples[0])
    assert piece.lo <= lo < here < hi <= piece.hi and (piece.lo < lo or hi < piece.hi)
    assert full.unique is True
