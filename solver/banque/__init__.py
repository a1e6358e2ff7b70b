"""Baccara banque: one banker against two tableaux, solved exactly as a three-person game.

Layers, each a module: :mod:`~solver.banque.deal` (the exact enumeration of a coup, from any shoe),
:mod:`~solver.banque.game` (the additive three-person game and its models), :mod:`~solver.banque.forms`
and :mod:`~solver.banque.team` (payoffs as multilinear forms, seen by each side or by the team),
:mod:`~solver.banque.dominance`, the solvers :mod:`~solver.banque.correlated`,
:mod:`~solver.banque.independent` and :mod:`~solver.banque.nash` (with :mod:`~solver.banque.support` and
:mod:`~solver.banque.pairs`), exact numbers (:mod:`~solver.exact.numberfield`,
:mod:`~solver.banque.polysys`, :mod:`~solver.exact.linalg`), the front door
:mod:`~solver.banque.solve` and :mod:`~solver.banque.certificate`.

>>> from fractions import Fraction
>>> from solver.cards import Shoe
>>> s = solve_banque(Shoe.infinite(), BanqueModel(1, "blind", "parlor"), Fraction(1, 2), "correlated")
>>> s.value, s.certified, s.unique
(Fraction(16655514960, 1919414386513), True, True)
"""

from __future__ import annotations

from solver.banque.game import BanqueGame, BanqueModel, build_banque
from solver.banque.solve import CONCEPTS, BanqueSolution, parse_thetas, solve_banque, solve_concepts

__all__ = [
    "CONCEPTS",
    "BanqueGame",
    "BanqueModel",
    "BanqueSolution",
    "build_banque",
    "parse_thetas",
    "solve_banque",
    "solve_concepts",
]
