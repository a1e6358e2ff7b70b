"""The commission game's case analysis (solver.chemin.commission.cases): uniqueness decided, both ways.

Sources:
- [EL23] S. N. Ethier and J. Lee, "A game-theoretic analysis of baccara chemin de fer, II", Games 14
  (2023) 63: with the commission the Nash equilibrium under B2 is unique "with rare exceptions";
  under B3 they obtain one but "are unable to prove uniqueness".
"""

from __future__ import annotations

import dataclasses
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from solver.cards import Shoe
from solver.chemin.certificate import certificate_dict
from solver.chemin.commission.bimatrix import is_equilibrium
from solver.chemin.commission.cases import Pinned, Refuted, Split, preorder
from solver.chemin.game import build_game
from solver.chemin.solve import solve

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "proofs"))
import check  # type: ignore[import-not-found]  # noqa: E402

ALPHA = Fraction(1, 20)


def test_b3_parlor_commission_is_unique_and_the_tree_is_checked_independently() -> None:
    # [EL23] left B3 open; one deck decides it (the committed certificates do d = 1..8).
    s = solve(build_game(Shoe.decks(1), 3, "parlor", ALPHA))
    assert s.unique_equilibrium is True and s.cases is not None and s.cases.proof is not None
    cases = list(preorder(s.cases.proof))
    assert sum(isinstance(c, Pinned) for c in cases) == 1
    assert s.cases.leaves == sum(isinstance(c, (Refuted, Pinned)) for c in cases)
    assert len(cases) == s.cases.leaves + sum(isinstance(c, Split) for c in cases)
    result = check.check_certificate(certificate_dict(s))
    assert result.ok and result.unique == ("equilibrium",), result.reason


def test_a3_parlor_commission_has_a_second_equilibrium_both_certified() -> None:
    # Dealing A: the ponte's hands at 5 leave the cards unchanged, so only a weighted sum of his five
    # draw probabilities matters to the banker; the case analysis finds another equilibrium.
    g = build_game(Shoe.infinite(), 3, "parlor", ALPHA)
    s = solve(g)
    assert s.unique_equilibrium is False and s.cases is not None and s.cases.other is not None
    q2, r2 = s.cases.other
    assert (q2, r2) != (s.q, s.r) and is_equilibrium(g, list(q2), list(r2))
    # Both pass the independent checker as equilibria (no uniqueness claimed).
    second = dataclasses.replace(
        s,
        q=q2,
        r=r2,
        value=g.net.value(list(q2), list(r2)),
        banker_payoff=g.net.value(list(q2), list(r2)),
        ponte_payoff=-g.gross.value(list(q2), list(r2)),
        cases=None,
        dominance=(),
    )
    for sol in (s, second):
        result = check.check_certificate(certificate_dict(sol))
        assert result.ok and result.unique == (), result.reason
    # The ponte's aggregate probability of drawing at 5 is the same in both (weights 8:2:2:2:2 of
    # 0+5, 1+4, 2+3, 6+9, 7+8 under dealing A), so the banker's position is too.
    weights = (8, 2, 2, 2, 2)
    assert sum(w * x for w, x in zip(weights, s.q)) == sum(w * x for w, x in zip(weights, q2))


@pytest.mark.parametrize("freedom", ["casino", "parlor"])
def test_one_ponte_set_needs_no_case_analysis(freedom: str) -> None:
    s = solve(build_game(Shoe.decks(6), 2, freedom, ALPHA))
    assert s.cases is None and s.unique_equilibrium is not None


def test_the_scipy_fallback_proves_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without highspy the linear programs go through scipy's linprog (the same HiGHS): the analysis
    # must still decide, and its tree pass the independent checker.
    import builtins

    import solver.chemin.commission.cases as cases

    real_import = builtins.__import__

    def no_highspy(name: str, *args: object, **kwargs: object) -> object:
        if name == "highspy":
            raise ImportError("highspy hidden by the test")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_highspy)
    monkeypatch.setattr(cases, "_CACHE", {})
    s = solve(build_game(Shoe.decks(1), 3, "parlor", ALPHA))
    assert s.unique_equilibrium is True and s.cases is not None
    assert check.check_certificate(certificate_dict(s)).ok
