"""The commission game as a function of alpha (solver.chemin.commission.sweep): pieces, breakpoints, checks.

Sources:
- [KS57] J. G. Kemeny and J. L. Snell, Amer. Math. Monthly 64 (1957) 465-469: without commission
  (alpha = 0) the ponte draws at 5 with probability 9/11 under model A1.
- [EL23] S. N. Ethier and J. Lee, Games 14 (2023) 63: the commission game for 0 <= alpha <= 1/10.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from solver.cards import Shoe
from solver.chemin.commission.sweep import check_solves, commission_sweep, junctions
from solver.errors import ModelError
from solver.exact.algebraic import Algebraic

CERTS = Path(__file__).resolve().parents[1] / "proofs" / "certificates"


def random_alphas(n: int, seed: int) -> list[Fraction]:
    rng = random.Random(seed)
    return [Fraction(rng.randint(0, 10**6), 10**7) for _ in range(n)]


@pytest.mark.parametrize(("decks", "information", "freedom"), [("inf", 1, "parlor"), (1, 2, "parlor"), (6, 1, "casino")])
def test_pieces_agree_with_fresh_solves_at_20_random_alphas(decks: object, information: int, freedom: str) -> None:
    shoe = Shoe.infinite() if decks == "inf" else Shoe.decks(int(decks))  # type: ignore[call-overload]
    sweep = commission_sweep(shoe, information, freedom)
    assert sweep.pieces[0].lo == Algebraic.rational(0) and sweep.pieces[-1].hi == Algebraic.rational(Fraction(1, 10))
    for left, right in zip(sweep.pieces, sweep.pieces[1:]):
        assert left.hi == right.lo
    assert check_solves(sweep, random_alphas(20, seed=14)) == []


def test_kemeny_snell_extended_to_the_commission_ks57() -> None:
    sweep = commission_sweep(Shoe.infinite(), 1, "parlor")
    (piece,) = sweep.pieces
    assert piece.ponte[0].at(Fraction(0)) == Fraction(9, 11)  # [KS57]
    assert piece.ponte[0].text() == "(alpha - 9)/(6*alpha - 11)"  # our exact refinement, for every alpha
    assert piece.mixed_banker == ("6/S",)


def test_breakpoints_both_neighbours_are_equilibria_there() -> None:
    sweep = commission_sweep(Shoe.decks(1), 2, "parlor")
    assert len(sweep.pieces) == 3 and sweep.overlaps == ()
    for j in junctions(sweep):
        assert j.equilibria  # both limits are equilibria at the (algebraic) breakpoint
        assert not j.at.is_rational and len(j.at.poly) == 3  # quadratic irrationals
        # The ponte's strategy is continuous; the banker's jumps between cells he is indifferent in,
        # so his payoff is continuous too, and the equilibrium there is not unique.
        assert j.same_ponte and j.same_banker_payoff and not j.same_banker and not j.unique


def test_b3_parlor_piece_at_one_twentieth_is_the_committed_certificate() -> None:
    sweep = commission_sweep(Shoe.decks(6), 3, "parlor")
    cert = json.loads((CERTS / "B3-parlor-d6-a1_20.json").read_text())
    q, r, banker, ponte = sweep.piece_at(Fraction(1, 20)).at(Fraction(1, 20))
    assert [str(x) for x in q] == list(cert["ponte"].values())
    assert [str(x) for x in r] == list(cert["banker"].values())
    assert (str(banker), str(ponte)) == (cert["banker_payoff"], cert["ponte_payoff"])
    assert all(j.equilibria for j in junctions(sweep))


@pytest.mark.slow
def test_b3_parlor_pieces_agree_with_fresh_solves_at_20_random_alphas() -> None:
    sweep = commission_sweep(Shoe.decks(6), 3, "parlor")
    assert check_solves(sweep, random_alphas(20, seed=3)) == []


@pytest.mark.parametrize(
    ("lo", "hi", "message"), [("1/10", "0", "from low to high"), ("0", "1/5", "within"), ("-1/100", "0", "within")]
)
def test_bad_ranges(lo: str, hi: str, message: str) -> None:
    with pytest.raises(ModelError, match=message):
        commission_sweep(Shoe.decks(1), 1, "casino", lo, hi)
