"""What is certain when no Nash equilibrium was certified: bounds on every equilibrium, and how near the
best profile found comes to being one.

* **A lower bound on the banker's payoff at every Nash equilibrium**: the correlated cooperative value
  v (the zero-sum game of the players' team against the banker, on his net payoff). At an equilibrium
  the banker best-replies to the players' product strategy, whose moments a correlated team could
  play too, so he gets at least the least the team can hold him to: v (certified by f(z) = h(r)).
* **An ε-equilibrium**: a profile (the search's float proposal, rounded to rationals) with each side's
  exact regret, the most it gains by its best reply (each side's payoff is linear in its own choices,
  so the best reply is read off the signs of its slopes): Player 1's and Player 2's per unit of their
  tableau's stake, the banker's per unit of the total stake.

>>> from solver.cards import Shoe
>>> from solver.banque.game import BanqueModel, build_banque, RESULT_1, RESULT_2, banker_payoff
>>> from solver.banque.forms import payoff
>>> g = build_banque(Shoe.infinite(), BanqueModel(1, "blind", "casino"))
>>> pb, p1, p2 = payoff(g, banker_payoff(Fraction(1, 2))), payoff(g, RESULT_1), payoff(g, RESULT_2)
>>> r = [Fraction(1 if s > 0 else 0) for s in pb.slopes("r", [Fraction(1)], [Fraction(1)], [0] * 204)]
>>> regrets(pb, p1, p2, [Fraction(1)], [Fraction(1)], r)   # the equilibrium: both players draw at 5
(Fraction(0, 1), Fraction(0, 1), Fraction(0, 1))
>>> regrets(pb, p1, p2, [Fraction(0)], [Fraction(1)], r)[0] > 0   # Player 1 standing at 5 regrets it
True
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from solver.banque.correlated import correlated
from solver.banque.forms import Payoff
from solver.banque.team import TeamView
from solver.exact.numberfield import decimal_of

GRID = 2**30
"""Float proposals are rounded to the nearest multiple of 1/GRID (an exact rational) before they are judged."""


def regrets(pb: Payoff, p1: Payoff, p2: Payoff, x: Sequence[Any], y: Sequence[Any], r: Sequence[Any]) -> tuple[Any, Any, Any]:
    """Each side's exact regret at (x, y, r): what its best reply gains over its strategy (0: a best reply).

    Player 1 and Player 2 minimise E[R1] and E[R2]; the banker maximises his payoff. A side's payoff is
    linear in its own variables with slopes s, so its best reply gains Σ_j (v_j s_j − min(0, s_j)) for a
    minimiser and Σ_i (max(0, s_i) − v_i s_i) for the maximiser.
    """
    s1, s2, sb = p1.slopes("x", x, y, r), p2.slopes("y", x, y, r), pb.slopes("r", x, y, r)
    e1 = sum((v * s - min(s, 0) for v, s in zip(x, s1)), Fraction(0))
    e2 = sum((v * s - min(s, 0) for v, s in zip(y, s2)), Fraction(0))
    eb = sum((max(s, 0) - v * s for v, s in zip(r, sb)), Fraction(0))
    return e1, e2, eb


def rounded(values: np.ndarray) -> list[Fraction]:
    """A float proposal as exact rationals in [0, 1] on the grid 1/:data:`GRID` (built from integers)."""
    return [Fraction(min(GRID, max(0, int(round(float(v) * GRID)))), GRID) for v in values]


def bounds_words(pb: Payoff, p1: Payoff, p2: Payoff, proposal: tuple[np.ndarray, np.ndarray, np.ndarray] | None) -> str:
    """The certified bounds, in words (decimals rounded from the exact numbers, which the text names)."""
    v = correlated(TeamView(pb)).value
    parts = [
        f"certified bounds: at every Nash equilibrium the banker's payoff is at least {decimal_of(v * 100, 4)} % "
        "(the correlated cooperative value, exact: the players' team cannot hold him lower)"
    ]
    if proposal is not None:
        x, y, r = (rounded(a) for a in proposal)
        e1, e2, eb = regrets(pb, p1, p2, x, y, r)
        value = pb.value(x, y, r)
        parts.append(
            f"the best profile found (fictitious play, rounded to multiples of 2^-30) is an exact ε-equilibrium: "
            f"the banker's payoff there {decimal_of(value * 100, 4)} %, and no side gains more than "
            f"{decimal_of(max(e1, e2, eb) * 100, 4)} % of its stake by deviating (Player 1 {decimal_of(e1 * 100, 4)} %, "
            f"Player 2 {decimal_of(e2 * 100, 4)} %, the banker {decimal_of(eb * 100, 4)} %)"
        )
    return "; ".join(parts)
