"""Solving the additive chemin de fer game exactly, with certificates.

Zero-sum (no commission). Given the ponte's q, the banker's best response is chosen cell by cell,
so the ponte's guarantee is the convex piecewise-linear

    f(q) = c0 + a·q + Σ_i max(0, b_i + G_i·q),

and the banker's guarantee is h(r) = c0 + b·r + Σ_j min(0, a_j + G_j·r). By LP duality
min f = max h; a pair with f(q*) = h(r*), checked in exact rationals, is optimal, and that equality
is the certificate. One ponte information set: Foster's algorithm, exact, walking the breakpoints of
f. Several: a linear program (scipy's HiGHS) proposes (q, r) in floats; the answer is snapped to
rationals by solving the equations of its support exactly, and then certified.

With commission α the game is bimatrix: the ponte minimises the banker's gross result, the banker
maximises his net result. The banker's best response depends on the net coefficients only, so an
equilibrium q is an optimal strategy of the zero-sum game on the *net* payoff; the banker's
equilibrium r then makes the ponte indifferent on the *gross* payoff in the ponte's mixed sets. Each
candidate is verified exactly, cell by cell (no player gains by deviating). With one ponte
information set every equilibrium is enumerated (candidates: 0, 1 and the breakpoints of the
banker's net slopes), so uniqueness is decided.

Iterated strict dominance is reported for every game: which cells are settled, by what exact margin.

>>> from solver.cards import Shoe
>>> from solver.chemin.game import build_game
>>> s = solve(build_game(Shoe.infinite(), 1, "parlor"))
>>> s.q, s.certified, s.unique_ponte
((Fraction(9, 11),), True, True)
>>> s
Solution(A1 parlor on inf, commission 0: value 679568/53094899, certified, unique)
>>> s.parameters["freedom"], s.unique, s.exact
('parlor', True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from solver.chemin.commission.bimatrix import is_equilibrium, one_set_equilibria, search_equilibrium, settled_by_dominance
from solver.chemin.commission.cases import CaseAnalysis, case_analysis
from solver.chemin.dominance import DominanceStep, iterated_dominance
from solver.chemin.game import Game
from solver.chemin.guarantees import (
    banker_guarantee,
    banker_slopes,
    ponte_guarantee,
    ponte_slopes,
)
from solver.chemin.optimal import Constraint, OptimalSet, optimal_sets
from solver.chemin.zerosum import (
    banker_reply,
    foster,
    lp_proposal,
    unique_banker,
    unique_ponte,
    zero_sum,
)
from solver.errors import SolverError
from solver.exact.linalg import rank
from solver.exact.lp import FLOAT_TOL
from solver.exact.numbers import fraction_str, in_unit_interval
from solver.strategy import InfoSet, Strategy

__all__ = [
    "FLOAT_TOL",
    "CaseAnalysis",
    "Constraint",
    "DominanceStep",
    "OptimalSet",
    "Solution",
    "banker_guarantee",
    "banker_reply",
    "banker_slopes",
    "draw_tables",
    "foster",
    "is_equilibrium",
    "iterated_dominance",
    "lp_proposal",
    "optimal_sets",
    "outcome_law",
    "ponte_guarantee",
    "ponte_slopes",
    "rank",
    "solve",
    "unique_banker",
    "unique_ponte",
    "zero_sum",
]


# -- solutions --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Solution:
    """An exact, certified solution of one chemin de fer game.

    Attributes:
        game: what was solved.
        q: the ponte's draw probability at 5 in each of his sets (``game.ponte_sets`` order).
        r: the banker's draw probability in each free set (``game.banker_sets`` order).
        value: the banker's expected gain per unit, net of commission, at (q, r).
        ponte_payoff, banker_payoff: each side's expected payoff at (q, r).
        certified: zero-sum: f(q) = h(r) exactly; bimatrix: every cell a best response, exactly.
        unique_ponte, unique_banker: zero-sum, each side's optimal strategy: True proved unique, False
            proved not unique (one ponte set: Foster's minimiser is an interval), None not decided (the
            sufficient rank test fails; ``optimal_set`` describes the whole set); None with commission.
        unique_equilibrium: with commission, the equilibrium: True proved unique, False a second one found,
            None not decided.
        equilibria: with commission and one ponte set, every equilibrium ponte strategy found.
        cases: with commission and several ponte sets left open by dominance, the case analysis
            that decides uniqueness (:mod:`solver.chemin.commission.cases`).
        dominance: the decisions settled by iterated strict dominance.
        method: how the answer was found.
    """

    game: Game
    q: tuple[Fraction, ...]
    r: tuple[Fraction, ...]
    value: Fraction
    ponte_payoff: Fraction
    banker_payoff: Fraction
    certified: bool
    unique_ponte: bool | None
    unique_banker: bool | None
    unique_equilibrium: bool | None
    equilibria: tuple[Fraction, ...]
    dominance: tuple[DominanceStep, ...]
    method: str
    optimal_set: tuple[OptimalSet, OptimalSet] | None = None
    cases: CaseAnalysis | None = None

    def ponte(self) -> dict[InfoSet, Fraction]:
        """The ponte's probability of drawing in each of his free information sets."""
        return dict(zip(self.game.ponte_sets, self.q))

    def banker(self) -> dict[InfoSet, Fraction]:
        """The banker's probability of drawing in each of his free information sets."""
        return dict(zip(self.game.banker_sets, self.r))

    @property
    def exact(self) -> bool:
        """Always: every number is an exact fraction (the :class:`~solver.exact.result.Result` protocol)."""
        return True

    @property
    def unique(self) -> bool | None:
        """The answer as a whole: zero-sum, both sides' optimal strategies (True when both are proved unique,
        False when one is proved not to be); with commission, the equilibrium; None: not decided."""
        if not self.game.zero_sum:
            return self.unique_equilibrium
        if self.unique_ponte is False or self.unique_banker is False:
            return False
        return True if self.unique_ponte and self.unique_banker else None

    @property
    def parameters(self) -> dict[str, str]:
        """The inputs: the shoe, Ethier's model, the banker's sheet and the commission, as JSON writes them."""
        g = self.game
        return {
            "shoe": g.shoe.label(),
            "model": g.model.name(g.shoe),
            "information": str(int(g.model.information)),
            "freedom": g.model.sheet,
            "commission": fraction_str(g.model.commission),
        }

    def __repr__(self) -> str:
        """Short: what was solved and its value (the dataclass repr would print the whole game)."""
        unique = {True: "unique", False: "not unique", None: "uniqueness not decided"}[self.unique]
        return (
            f"Solution({self.game.label} on {self.game.shoe.label()}, commission {fraction_str(self.game.model.commission)}: "
            f"value {fraction_str(self.value)}, {'certified' if self.certified else 'NOT certified'}, {unique})"
        )

    @property
    def strategy(self) -> Strategy:
        """Both sides' solved play as one exact behaviour strategy (the tableau's fixed cells included)."""
        return self.game.strategy(self.q, self.r, f"solved {self.game.label}, commission {self.game.model.commission}")


def _zero_inert(game: Game, q: list[Fraction], r: list[Fraction]) -> tuple[list[Fraction], list[Fraction]]:
    """Canonical form: a set whose choice cannot change any payoff (inert) stands."""
    q = [Fraction(0) if inert else x for x, inert in zip(q, game.inert_ponte)]
    r = [Fraction(0) if inert else x for x, inert in zip(r, game.inert_banker)]
    return q, r


def solve(game: Game) -> Solution:
    """Solve a chemin de fer game exactly and certify the answer.

    Returns:
        A :class:`Solution` whose ``certified`` is True; an answer that fails certification raises.

    Raises:
        SolverError: the LP failed, or its answer could not be turned into a certified exact one.
    """
    dominance = iterated_dominance(game)
    if game.zero_sum:
        c = game.gross
        answer = zero_sum(c)
        q, r, method = answer.q, answer.r, answer.method
        q, r = _zero_inert(game, q, r)
        if not in_unit_interval(list(q) + list(r)):
            raise SolverError(f"certification failed for {game.label}: a strategy is not a probability")
        f, h = ponte_guarantee(c, q), banker_guarantee(c, r)
        if f != h:
            raise SolverError(f"certification failed for {game.label}: f(q) = {f} but h(r) = {h}")
        uq: bool | None
        if len(q) == 1:  # Foster: f's minimisers are one point or an interval, decided exactly
            _, left, right = foster(c)
            uq = (q[0] == 0 and right > 0) or (q[0] == 1 and left < 0) or (left < 0 < right)
        else:
            uq = True if unique_ponte(c, q, r) else None
        ub = True if unique_banker(c, q, r) else None
        return Solution(
            game=game,
            q=tuple(q),
            r=tuple(r),
            value=f,
            ponte_payoff=-f,
            banker_payoff=f,
            certified=True,
            unique_ponte=uq,
            unique_banker=ub,
            unique_equilibrium=None,
            equilibria=(),
            dominance=dominance,
            method=method + "; certified by f(q) = h(r) in exact rationals",
            optimal_set=None if (uq and ub) else optimal_sets(game, q, r),
        )
    if len(game.ponte_sets) == 1:
        found, unique = one_set_equilibria(game)
        if not found:
            raise SolverError(f"no equilibrium found for {game.label}")
        q0, r = found[0]
        q = [q0]
        method = "enumeration of all equilibria (one ponte set: candidates 0, 1 and the banker's breakpoints)"
        equilibria = tuple(x for x, _ in found)
    else:
        found_pair = search_equilibrium(game, dominance)
        if found_pair is None:
            raise SolverError(f"no certified equilibrium found for {game.label}")
        q, r = found_pair
        unique, equilibria = False, ()
        method = (
            "equilibrium search over the ponte's pure/mixed patterns (first: the zero-sum game on the banker's "
            "net payoff), banker from the ponte's gross indifference"
        )
    q, r = _zero_inert(game, q, r)
    if len(game.ponte_sets) > 1 and settled_by_dominance(game, dominance):
        unique = True  # iterated strict dominance leaves a single strategy profile
    if not is_equilibrium(game, q, r):
        raise SolverError(f"certification failed for {game.label}: the strategies are not in equilibrium")
    cases = None
    decided: bool | None = unique
    if len(q) > 1 and not unique:
        cases = case_analysis(game, q, r, dominance)
        decided = cases.unique
        if decided:
            method += f"; unique by a case analysis of {cases.leaves} cases, each refuted exactly"
    net, gross = game.net.value(q, r), game.gross.value(q, r)
    return Solution(
        game=game,
        q=tuple(q),
        r=tuple(r),
        value=net,
        ponte_payoff=-gross,
        banker_payoff=net,
        certified=True,
        unique_ponte=None,
        unique_banker=None,
        unique_equilibrium=decided,
        equilibria=equilibria,
        dominance=dominance,
        method=method + "; certified: every cell a best response, exactly",
        cases=cases,
    )


def draw_tables(s: Solution) -> tuple[np.ndarray, np.ndarray]:
    """The solved strategies as exact draw-probability tables indexed by the actual cards.

    Returns ``(P, B)``: ``P[p1][p2]``, the ponte's probability of drawing holding values p1, p2
    (no natural on either side), and ``B[b1][b2][seen]``, the banker's, with ``seen`` the ponte's
    third card 0–9 or 10 (stood). Fixed cells of the tableau are 0 or 1. These tables cover every
    information model, so a simulator can deal any solved strategy (:meth:`Solution.strategy`).

    >>> from solver.cards import Shoe
    >>> from solver.chemin.game import build_game
    >>> P, B = draw_tables(solve(build_game(Shoe.infinite(), 1, "parlor")))
    >>> P[2][3], P[0][4], B[0][6][10], B[3][3][8]
    (Fraction(9, 11), Fraction(1, 1), Fraction(859, 2288), Fraction(0, 1))
    """
    return s.strategy.tables()


def outcome_law(s: Solution) -> dict[str, Fraction]:
    """Exact law of one coup under the solved strategies: ``banker`` wins, ``ponte`` wins, ``tie``.

    >>> from solver.cards import Shoe
    >>> from solver.chemin.game import build_game
    >>> law = outcome_law(solve(build_game(Shoe.decks(6), 1, "casino")))
    >>> sum(law.values())
    Fraction(1, 1)
    """
    q, r = list(s.q), list(s.r)
    win, loss = s.game.win.value(q, r), s.game.loss.value(q, r)
    return {"banker": win, "ponte": loss, "tie": 1 - win - loss}
