"""Baccara banque as θ → 1, where it meets chemin de fer: the exact limit of the banker's Nash payoff.

As θ → 1 the banker's payoff θ R1 + (1 − θ) R2 tends to R1, his result against tableau 1: chemin de fer
against Player 1, with two differences on a finite shoe. The banker also sees what tableau 2 shows (its
third card, S or N), which tells him about the cards left; and Player 2's draw at 5 takes a card before
the banker's. So the limit is

    L = V(y*) = min_x max_r E[R1](x, y*, r),

the value of the zero-sum game of Player 1 against the banker on tableau 1 (the banker's cells seeing
tableau 2), Player 2 playing y*, his equilibrium strategy in the limit. Why: at an equilibrium (x, y, r)
of θ, Player 1's best reply gives E[R1] = min_x' E[R1](x', y, r) ≤ V(y); the banker's gives
θ E[R1] + (1 − θ) E[R2] ≥ θ E[R1](x, y, r') + (1 − θ) E[R2](x, y, r') for every r', so
E[R1] ≥ V(y) − 2(1 − θ)/θ; and the banker's payoff differs from E[R1] by at most 2(1 − θ).

Computing it. V(y) is Foster's minimum of the convex piecewise-linear
f(x) = max_r E[R1](x, y, r) = c + a x + Σ_i max(0, b_i + g_i x) over x ∈ [0, 1], at 0, 1 and the cells'
breakpoints, exactly. It is computed against Player 2's strategy at the certified equilibria of
θ = 1 − 10^-9 and θ = 1 − 10^-12 (:data:`NEAR_ONE`), and must be the same at both and equal to the
banker's E[R1] there (else the limit is not decided by this method, and says so).

On the infinite deck tableau 2 tells nothing about tableau 1 and Player 2 takes nothing from it, so
V(y) is chemin de fer's value for every y: L is chemin de fer's (Kemeny and Snell's 679568/53094899 in
the parlor game). On a finite shoe L is higher.

>>> from solver.cards import Shoe
>>> from solver.banque.game import BanqueModel
>>> theta_one_limit(Shoe.infinite(), BanqueModel(1, "blind", "parlor")).value
Fraction(679568, 53094899)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.banque.forms import Payoff, payoff
from solver.banque.game import RESULT_1, RESULT_2, BanqueGame, BanqueModel, banker_payoff, build_banque
from solver.banque.nash import nash
from solver.cards import Shoe
from solver.errors import ModelError, SolverError

NEAR_ONE = (1 - Fraction(1, 10**9), 1 - Fraction(1, 10**12))
"""The values of θ whose certified equilibria give Player 2's strategy in the limit."""


@dataclass(frozen=True)
class ThetaOneLimit:
    """The limit of the banker's Nash payoff as θ → 1 on one shoe under one model (tax 0).

    Attributes:
        shoe, model: the game.
        value: L, exactly (per unit of total stake, which tableau 1 then holds whole).
        player1: Player 1's draw probability at 5 that attains the minimum of V (an optimal strategy of
            the zero-sum game on tableau 1; None where it is irrational).
        checked: the values of θ whose equilibria gave it, with the banker's E[R1] there.
        method: how it was obtained.
    """

    shoe: Shoe
    model: BanqueModel
    value: Fraction
    player1: Fraction | None
    checked: tuple[tuple[Fraction, Any], ...]
    method: str


def tableau_one_value(r1: Payoff, y: list[Any]) -> tuple[Any, Any]:
    """V(y) = min over x of max over r of E[R1](x, y, r), exactly, and an x attaining it (Foster's
    algorithm: f is convex and piecewise linear in x, so its minimum is at 0, 1 or a breakpoint)."""
    m1, m2, n = r1.sizes()
    if m1 != 1:
        raise ModelError("the limit θ → 1 is computed where Player 1 has one set (information 1 or 2)")
    fixed_y = list(y)
    # E[R1](x, y, r) = c + a x + Σ_i (b_i + g_i x) r_i: the slopes of r at x = 0 and x = 1.
    at0 = r1.slopes("r", [Fraction(0)], fixed_y, [Fraction(0)] * n)
    at1 = r1.slopes("r", [Fraction(1)], fixed_y, [Fraction(0)] * n)
    base0 = r1.value([Fraction(0)], fixed_y, [Fraction(0)] * n)
    base1 = r1.value([Fraction(1)], fixed_y, [Fraction(0)] * n)

    def f(x: Any) -> Any:
        total = base0 + (base1 - base0) * x
        for s0, s1 in zip(at0, at1):
            s = s0 + (s1 - s0) * x
            if s > 0:
                total = total + s
        return total

    candidates: list[Any] = [Fraction(0), Fraction(1)]
    for s0, s1 in zip(at0, at1):
        if s1 != s0:
            x = -s0 / (s1 - s0)
            if 0 < x < 1:
                candidates.append(x)
    scored = [(f(x), x) for x in candidates]
    best = scored[0]
    for v, x in scored[1:]:
        if v < best[0]:
            best = (v, x)
    return best


def theta_one_limit(shoe: Shoe, model: BanqueModel, game: BanqueGame | None = None) -> ThetaOneLimit:
    """The exact limit of the banker's Nash payoff as θ → 1 (see the module docstring).

    Raises:
        ModelError: a tax, or information 3 (Player 1 has several sets).
        SolverError: Player 2's strategy does not settle on one pure choice near θ = 1 on a set that
            matters (the limit is then not decided by this method).
    """
    if model.tax:
        raise ModelError("the limit θ → 1 is computed without a tax (use --tax 0)")
    g = game if game is not None else build_banque(shoe, model)
    r1, r2 = payoff(g, RESULT_1), payoff(g, RESULT_2)
    if r1.sizes()[0] != 1:
        raise ModelError("the limit θ → 1 is computed where Player 1 has one set (information 1 or 2)")
    seen: list[tuple[Fraction, Any, Any, Any]] = []
    for t in NEAR_ONE:
        ans = nash(payoff(g, banker_payoff(t)), r1, r2, g.inert)
        v, x = tableau_one_value(r1, list(ans.y))
        seen.append((t, _rational(ans.result1), _rational(v), _rational(x)))
    value, x_star = seen[-1][2], seen[-1][3]
    if value is None or any(res != value or v != value for _, res, v, _ in seen):
        raise SolverError(
            "the limit θ → 1 is not decided here: the value of tableau 1 against Player 2's equilibrium strategy "
            "is not one rational number at θ = 1 - 10^-9 and 1 - 10^-12"
        )
    return ThetaOneLimit(
        shoe=shoe,
        model=model,
        value=value,
        player1=x_star,
        checked=tuple((t, res) for t, res, _, _ in seen),
        method=(
            "the zero-sum value of tableau 1 (Foster's algorithm, exactly) against Player 2's strategy at the "
            "certified Nash equilibria of theta 1 - 10^-9 and 1 - 10^-12: the same at both, and equal to the "
            "banker's result against tableau 1 there"
        ),
    )


def _rational(v: Any) -> Fraction | None:
    """An exact number as a Fraction (a number-field element that is rational), else None."""
    if isinstance(v, (int, Fraction)):
        return Fraction(v)
    r = v.rational() if hasattr(v, "rational") else None
    return None if r is None else Fraction(r)
