"""Exact laws the table's simulation is held against: one coup from a fresh shoe, and a bank run.

A coup dealt from a freshly shuffled shoe under chemin de fer's draw tables has the exact law
``(p_banker, p_ponte, p_tie)`` of :func:`solver.chemin.game.strategy_law` (the enumerator's). From it:

* the house's expected take per unit at stake, ``α · p_banker`` (α the tax on the banker's win), and
  the bank's expected result per unit at stake, ``(1 − α) p_banker − p_ponte``;
* the law of a **bank run** — the coups one bank is held — when the banker passes the hand after
  ``w`` wins in a row (``w = 0``: never) and coups are independent with that law: each coup is a tie
  (the run goes on), a banker's win (the run goes on, or ends with the ``w``-th win), or a ponte's win
  (the run ends). :func:`run_length_law` gives ``P(L = k)`` by dynamic programming over (coups, wins);
  :func:`run_length_mean` the closed form ``E[L] = (1 + b + … + b^(w−1)) / (p_banker + p_ponte)`` with
  ``b = p_banker / (p_banker + p_ponte)`` (``1 / p_ponte`` when ``w = 0``): the decisive coups number
  ``min(G, w)`` with ``G`` geometric, and each takes ``1 / (1 − p_tie)`` coups on average.

Within a real shoe the coups are slightly dependent and their law drifts as the shoe depletes, so a
simulated table agrees with these laws within its error, not exactly (the tests check it does).

>>> half = Fraction(1, 2)
>>> run_length_law(half, half, Fraction(0), 0, 3)
[Fraction(1, 2), Fraction(1, 4), Fraction(1, 8)]
>>> run_length_mean(Fraction(9, 20), Fraction(9, 20), Fraction(1, 10), 3)
Fraction(35, 18)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from solver.cards import Shoe
from solver.sessions.deal import CheminPlay


def coup_law(shoe: Shoe, play: CheminPlay) -> dict[str, Fraction]:
    """Exact ``{"banker", "ponte", "tie"}`` of one coup from a fresh ``shoe`` under ``play``'s tables."""
    from solver.chemin.game import strategy_law

    return strategy_law(shoe, play.strategy)


def run_length_law(p_banker: Fraction, p_ponte: Fraction, p_tie: Fraction, pass_after: int, upto: int) -> list[Fraction]:
    """``[P(L = 1), …, P(L = upto)]`` for the length ``L`` in coups of a bank run (see the module)."""
    w = pass_after
    alive = [Fraction(1)] + [Fraction(0)] * max(w - 1, 0)  # alive[j]: run going on with j wins
    out = []
    for _ in range(upto):
        end = sum(alive, Fraction(0)) * p_ponte
        if w:
            end += alive[w - 1] * p_banker
            alive = [alive[0] * p_tie] + [alive[j] * p_tie + alive[j - 1] * p_banker for j in range(1, w)]
        else:
            alive = [alive[0] * (p_tie + p_banker)]
        out.append(end)
    return out


def run_length_mean(p_banker: Fraction, p_ponte: Fraction, p_tie: Fraction, pass_after: int) -> Fraction:
    """``E[L]``, the mean length in coups of a bank run (closed form; see the module)."""
    decisive = p_banker + p_ponte
    if pass_after == 0:
        return 1 / p_ponte
    b = p_banker / decisive
    return sum((b**j for j in range(pass_after)), Fraction(0)) / decisive


@dataclass(frozen=True)
class ExactReference:
    """What a fresh shoe's exact coup law says about a chemin de fer table.

    Attributes:
        law: ``{"banker", "ponte", "tie"}`` for one coup from a fresh shoe.
        tax: the tax on the banker's win.
        pass_after: the wins after which every banker passes the hand (``None`` when the seats'
            policies differ: no single run law).
    """

    law: dict[str, Fraction]
    tax: Fraction
    pass_after: int | None

    @property
    def house_per_unit(self) -> Fraction:
        """The house's expected take per unit at stake: ``tax · p_banker``."""
        return self.tax * self.law["banker"]

    @property
    def bank_per_unit(self) -> Fraction:
        """The bank's expected result per unit at stake, after tax: ``(1 − tax) p_banker − p_ponte``."""
        return (1 - self.tax) * self.law["banker"] - self.law["ponte"]

    def run_mean(self) -> Fraction | None:
        if self.pass_after is None:
            return None
        return run_length_mean(self.law["banker"], self.law["ponte"], self.law["tie"], self.pass_after)

    def run_law(self, upto: int) -> list[Fraction] | None:
        if self.pass_after is None:
            return None
        return run_length_law(self.law["banker"], self.law["ponte"], self.law["tie"], self.pass_after, upto)
