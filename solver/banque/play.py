"""Drawing at the baccara banque table with the banque solver's strategies (a :class:`BanquePlay`).

:class:`SolvedBanque` reads a :class:`~solver.banque.BanqueSolution` (a Nash equilibrium of the
three-person game: each player's draw probability at 5 and the banker's at each free cell) and answers
the table's questions. Decisions the rules fix are played by the rules: a player draws on 0–4 and
stands on 6–7; in the casino game the banker follows chemin de fer's casino tableau wherever the
tableaux still in play agree. An irrational equilibrium probability is dealt through the nearest
fraction with denominator 2^64 (the only approximation; an exact coin for an irrational probability
would need unbounded randomness): the difference is below 10^-19 per decision.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from solver.rules.tableau import CHEMIN_CASINO, Action
from solver.strategy import NATURAL, InfoSet, Side, composition

APPROXIMATION = 2**64
"""Irrational draw probabilities are dealt as the nearest fraction with this denominator."""


def as_fraction(p: Any) -> Fraction:
    """An exact draw probability; an algebraic one as the nearest fraction over :data:`APPROXIMATION`."""
    if isinstance(p, (int, Fraction)):
        return Fraction(p)
    rational = p.rational() if hasattr(p, "rational") else None
    if rational is not None:
        return Fraction(rational)
    lo, hi = p.interval(Fraction(1, APPROXIMATION * 4))
    return Fraction(round((lo + hi) / 2 * APPROXIMATION), APPROXIMATION)


class SolvedBanque:
    """:class:`~solver.sessions.deal.BanquePlay` from a solved banque game (Nash: the players choose
    independently, as at the table)."""

    def __init__(self, solution: Any) -> None:
        g = solution.game
        if solution.banker is None:
            raise ValueError("this banque solution gives no banker strategy")
        self.solution = solution
        self.information = g.model.information
        self.freedom = g.model.freedom
        self.choices: dict[InfoSet, Fraction] = {}
        for sets, values in (
            (g.player1_sets, solution.player1),
            (g.player2_sets, solution.player2),
            (g.banker_sets, solution.banker),
        ):
            self.choices.update({s: as_fraction(v) for s, v in zip(sets, values)})
        self.name = f"solved baccara banque ({solution.concept}, {g.label}, theta {solution.theta}); fixed cells by the rules"

    def _own(self, side: Side, cards: tuple[int, int], seen: tuple[int, ...]) -> list[InfoSet]:
        """The information sets that could hold this decision: by cards, then by total."""
        a, b = composition(*cards)
        return [InfoSet(side, cards=(a, b), seen=seen), InfoSet(side, (a + b) % 10, seen=seen)]

    def player_draw(self, tableau: int, cards: tuple[int, int], seen: tuple[int, ...]) -> Fraction:
        side = Side.PLAYER1 if tableau == 1 else Side.PLAYER2
        for sights in ((seen,) if seen else ()) + ((),):
            for s in self._own(side, cards, sights):
                if s in self.choices:
                    return self.choices[s]
        total = sum(cards) % 10
        if total == 5:  # free, but not a decision of the solved game's (it cannot be reached): draw, as the ponte may
            return Fraction(1)
        return Fraction(1 if total <= 4 else 0)

    def banker_draw(self, cards: tuple[int, int], seen: tuple[int, int], stakes: tuple[Fraction, Fraction]) -> Fraction:
        for s in self._own(Side.BANKER, cards, tuple(seen)):
            if s in self.choices:
                return self.choices[s]
        total = sum(cards) % 10
        live = [x for x in seen if x != NATURAL]
        votes = {CHEMIN_CASINO.banker_action(total, x) for x in live}
        if votes == {Action.DRAW}:
            return Fraction(1)
        if votes == {Action.STAND} or not live:
            return Fraction(0)
        # A cell the solved game leaves out (unreachable there): the decision for the larger stake.
        bigger = 0 if stakes[0] >= stakes[1] or seen[1] == NATURAL else 1
        action = CHEMIN_CASINO.banker_action(total, seen[bigger])
        return Fraction(1 if action is Action.DRAW else 0)
