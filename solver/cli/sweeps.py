"""The exact sweeps of ``baccarat chemin`` and ``baccarat banque`` over the run options (``--workers``,
``--scheduler``: :mod:`solver.cli.workers`): each solve a task, the results in the order one process
gives them, and the same results.

* chemin de fer: one task per shoe (a deck list, or ``--shoes``' lines taken as they come), with one
  commission or a commission range (the range's uniqueness over each piece decided in the task);
* baccara banque: the solves of every shoe, θ and concept. A shoe's Nash searches form a chain (each
  is seeded with the last equilibrium found, and the independent solution with the last Nash
  equilibrium found before it): a chain is one task, the correlated solutions one task per θ, and the
  independent ones follow their chain. Each solve receives what it receives in one process, so the
  answers are the same; a concept at a θ with no certified answer is kept as a failure with its reason,
  as :func:`solver.banque.sweep.solve_sweep` keeps it. A worker builds a shoe's game once
  (:func:`banque_game`) for all its tasks.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from solver.cli.workers import map_from_args, stream_from_args

if TYPE_CHECKING:
    from solver.banque.game import BanqueGame, BanqueModel
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


@lru_cache(maxsize=4)
def banque_game(shoe: Shoe, model: BanqueModel) -> BanqueGame:
    """A shoe's banque game, built once in a process for every task that needs it."""
    from solver.banque.game import build_banque

    return build_banque(shoe, model)


BanqueTask = tuple[str, Any, Any, tuple[Fraction, ...], Any]
"""(concept, shoe, model, θs, hint): ``nash`` (the chain over θs), ``correlated`` or ``independent`` (one θ)."""

Answer = Any
"""What a task gives for one θ: a :class:`~solver.banque.solve.BanqueSolution`, or the reason (a str) why
the concept has no certified answer there."""


def banque_task(task: BanqueTask) -> list[Answer]:
    """A task: a Nash chain over its θs (each search seeded with the last equilibrium found), or one θ's
    correlated or independent solution; a solve that finds no certified answer gives its reason."""
    from solver.banque.solve import solve_banque
    from solver.errors import ModelError, SolverError

    kind, shoe, model, thetas, hint = task
    g = banque_game(shoe, model)
    answers: list[Answer] = []
    for t in thetas:
        try:
            s = solve_banque(shoe, model, t, kind, game=g, hint=hint)
        except ModelError:
            raise
        except SolverError as e:
            answers.append(str(e))
        else:
            answers.append(s)
            if kind == "nash":
                hint = s
    return answers


def banque_solutions(
    args: argparse.Namespace, shoes: Sequence[Shoe], model: BanqueModel, thetas: Sequence[Any], concepts: Sequence[Any]
) -> tuple[list[BanqueSolution], list[BanqueFailure]]:
    """Every concept at every θ on every shoe, as :func:`solver.banque.sweep.solve_sweep` gives them
    shoe by shoe (θ by θ, concept by concept; each independent solution seeded with the last Nash
    equilibrium found before it), computed as the module docstring says: the answers, and the failures."""
    each = banque_by_shoe(args, shoes, model, thetas, concepts)
    return [s for found, _ in each for s in found], [f for _, failed in each for f in failed]


def banque_by_shoe(
    args: argparse.Namespace, shoes: Sequence[Shoe], model: BanqueModel, thetas: Sequence[Any], concepts: Sequence[Any]
) -> list[tuple[list[BanqueSolution], list[BanqueFailure]]]:
    """:func:`banque_solutions` shoe by shoe: each shoe's answers and failures, in the shoes' order."""
    from solver.banque.sweep import BanqueFailure
    from solver.banque.vocabulary import Concept

    ts = tuple(thetas)
    wanted = [Concept.parse(c) for c in concepts]
    tasks: list[BanqueTask] = []
    keys: list[tuple[int, Concept, tuple[int, ...]]] = []  # shoe, concept, θ indices of each task
    for s, shoe in enumerate(shoes):
        for c in wanted:
            if c is Concept.NASH:
                tasks.append((c.value, shoe, model, ts, None))
                keys.append((s, c, tuple(range(len(ts)))))
            elif c is Concept.CORRELATED or Concept.NASH not in wanted:
                tasks += [(c.value, shoe, model, (t,), None) for t in ts]
                keys += [(s, c, (k,)) for k in range(len(ts))]
    found: dict[tuple[int, Concept, int], Answer] = {}
    for (s, c, ks), result in zip(keys, map_from_args(args, banque_task, tasks, "solves")):
        found.update({(s, c, k): r for k, r in zip(ks, result)})
    if Concept.NASH in wanted and Concept.INDEPENDENT in wanted:
        nash_first = wanted.index(Concept.NASH) < wanted.index(Concept.INDEPENDENT)
        pairs = [(s, k) for s in range(len(shoes)) for k in range(len(ts))]
        second: list[BanqueTask] = []
        for s, k in pairs:  # the last Nash equilibrium found before this θ's independent solve
            seen = [found[s, Concept.NASH, j] for j in range(k + 1 if nash_first else k)]
            hint = next((a for a in reversed(seen) if not isinstance(a, str)), None)
            second.append((Concept.INDEPENDENT.value, shoes[s], model, (ts[k],), hint))
        for (s, k), result in zip(pairs, map_from_args(args, banque_task, second, "solves")):
            found[s, Concept.INDEPENDENT, k] = result[0]
    each: list[tuple[list[BanqueSolution], list[BanqueFailure]]] = []
    for s, shoe in enumerate(shoes):
        solutions: list[BanqueSolution] = []
        failures: list[BanqueFailure] = []
        for k, t in enumerate(ts):
            for c in wanted:
                answer = found[s, c, k]
                if isinstance(answer, str):
                    failures.append(BanqueFailure(shoe, model, t, c, answer))
                else:
                    solutions.append(answer)
        each.append((solutions, failures))
    return each
