"""The exact sweeps of ``baccarat chemin`` and ``baccarat banque`` over the run options (``--workers``,
``--scheduler``: :mod:`solver.cli.workers`): each solve a task, the results in the order one process
gives them, and the same results.

* chemin de fer: one task per shoe (a deck list, or ``--shoes``' lines taken as they come), with one
  commission or a commission range (the range's uniqueness over each piece decided in the task);
* baccara banque: one task per shoe, :func:`solver.banque.sweep.solve_sweep` over every θ and concept.
  A shoe's solves share its game, whose enumeration costs more than most of its solves (6 decks: the
  game 0.26 s, a solve 0.02–0.07 s), and its Nash searches form a chain (each seeded with the last
  equilibrium found, and each independent solution with the last Nash equilibrium found before it):
  so a shoe's game is built once, in one process, and the answers are those of one process. A concept
  at a θ with no certified answer is kept as a failure with its reason. The processes are at most the
  shoes (one shoe is solved in one process, whatever ``--workers`` says), forked after this process
  has loaded what every solve needs (:func:`solver.banque.sweep.load_solvers`), which they share.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

from solver.cli.workers import map_from_args, stream_from_args

if TYPE_CHECKING:
    from solver.banque.game import BanqueModel
    from solver.banque.solve import BanqueSolution
    from solver.banque.sweep import BanqueFailure
    from solver.cards import Shoe
    from solver.chemin.commission.sweep import CommissionSweep
    from solver.chemin.solve import Solution
    from solver.rules.tableau import Tableau
    from solver.simulate.tasks import Idle


def chemin_solution(shoe: Shoe, information: int, freedom: str | Tableau, alpha: Fraction) -> Solution:
    """A task: chemin de fer on one shoe, solved and certified."""
    from solver.chemin.game import build_game
    from solver.chemin.solve import solve

    return solve(build_game(shoe, information, freedom, alpha))


def chemin_solutions(
    args: argparse.Namespace, shoes: Sequence[Shoe], information: int, freedom: str | Tableau, alpha: Fraction
) -> list[Solution]:
    """Every shoe's solution, in the shoes' order."""
    task = partial(chemin_solution, information=information, freedom=freedom, alpha=alpha)
    return map_from_args(args, task, shoes, "games")


def chemin_stream(
    args: argparse.Namespace, shoes: Iterable[Shoe | Idle], information: int, freedom: str | Tableau, alpha: Fraction
) -> Iterator[Solution]:
    """Every shoe's solution as it comes (``--shoes``: a stream's lines), in the shoes' order."""
    task = partial(chemin_solution, information=information, freedom=freedom, alpha=alpha)
    return stream_from_args(args, task, shoes)


def commission_range(shoe: Shoe, information: int, freedom: str | Tableau, lo: Fraction, hi: Fraction) -> CommissionSweep:
    """A task: the equilibrium over a commission range on one shoe, its uniqueness over each piece decided."""
    from solver.chemin.commission.sweep import commission_sweep

    sweep = commission_sweep(shoe, information, freedom, lo, hi)
    sweep.inside  # noqa: B018 - uniqueness over each piece, decided here (in the worker)
    return sweep


def commission_ranges(
    args: argparse.Namespace, shoes: Sequence[Shoe], information: int, freedom: str | Tableau, lo: Fraction, hi: Fraction
) -> list[CommissionSweep]:
    """Every shoe's commission range, in the shoes' order."""
    task = partial(commission_range, information=information, freedom=freedom, lo=lo, hi=hi)
    return map_from_args(args, task, shoes, "ranges")


def commission_range_stream(
    args: argparse.Namespace, shoes: Iterable[Shoe | Idle], information: int, freedom: str | Tableau, lo: Fraction, hi: Fraction
) -> Iterator[CommissionSweep]:
    """Every shoe's commission range as it comes (``--shoes``), in the shoes' order."""
    task = partial(commission_range, information=information, freedom=freedom, lo=lo, hi=hi)
    return stream_from_args(args, task, shoes)


def banque_solutions(
    args: argparse.Namespace, shoes: Sequence[Shoe], model: BanqueModel, thetas: Sequence[Any], concepts: Sequence[Any]
) -> tuple[list[BanqueSolution], list[BanqueFailure]]:
    """Every concept at every θ on every shoe, as :func:`solver.banque.sweep.solve_sweep` gives them
    shoe by shoe (θ by θ, concept by concept), computed as the module docstring says: the answers, and
    the failures."""
    each = banque_by_shoe(args, shoes, model, thetas, concepts)
    return [s for found, _ in each for s in found], [f for _, failed in each for f in failed]


def banque_by_shoe(
    args: argparse.Namespace, shoes: Sequence[Shoe], model: BanqueModel, thetas: Sequence[Any], concepts: Sequence[Any]
) -> list[tuple[list[BanqueSolution], list[BanqueFailure]]]:
    """:func:`banque_solutions` shoe by shoe: each shoe's answers and failures, in the shoes' order."""
    from solver.banque.sweep import load_solvers, solve_sweep

    task = partial(solve_sweep, model=model, thetas=tuple(thetas), concepts=tuple(concepts))
    return map_from_args(args, task, shoes, "shoes", partial(load_solvers, model.information))
