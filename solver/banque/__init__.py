"""Baccara banque: one banker against two tableaux, solved exactly as a three-person game.

Layers, each a module: :mod:`~solver.banque.deal` (the exact enumeration of a coup, from any shoe),
:mod:`~solver.banque.vocabulary` (the model's typed words), :mod:`~solver.banque.game` (the additive
three-person game and its models), :mod:`~solver.banque.forms` and :mod:`~solver.banque.team` (payoffs as
multilinear forms, seen by each side or by the team), :mod:`~solver.banque.dominance`, the solvers
:mod:`~solver.banque.correlated`, :mod:`~solver.banque.independent` and :mod:`~solver.banque.nash` (the
complete search of :mod:`~solver.banque.parametric`, :mod:`~solver.banque.subgame` and
:mod:`~solver.banque.bisection`; the proposals of :mod:`~solver.banque.proposals` and
:mod:`~solver.banque.support`; :mod:`~solver.banque.bounds` where none is certified), exact numbers
(:mod:`~solver.exact.numberfield`, :mod:`~solver.exact.quadratic`, :mod:`~solver.banque.polysys`,
:mod:`~solver.exact.linalg`), the front door :mod:`~solver.banque.solve` (one concept at one θ),
:mod:`~solver.banque.sweep` (many), :mod:`~solver.banque.limit` (θ → 1) and
:mod:`~solver.banque.certificate`.

>>> from fractions import Fraction
>>> from solver.cards import Shoe
>>> s = solve_banque(Shoe.infinite(), BanqueModel(1, "blind", "parlor"), Fraction(1, 2), "correlated")
>>> s.value, s.certified, s.unique
(Fraction(16655514960, 1919414386513), True, True)
"""

from __future__ import annotations

from solver.banque.game import BanqueGame, BanqueModel, build_banque
from solver.banque.solve import CONCEPTS, BanqueSolution, solve_banque
from solver.banque.sweep import BanqueFailure, parse_thetas, solve_concepts, solve_sweep
from solver.banque.vocabulary import Concept, Freedom, SecondPlayer

__all__ = [
    "CONCEPTS",
    "BanqueFailure",
    "BanqueGame",
    "BanqueModel",
    "BanqueSolution",
    "Concept",
    "Freedom",
    "SecondPlayer",
    "build_banque",
    "parse_thetas",
    "solve_banque",
    "solve_concepts",
    "solve_sweep",
]
