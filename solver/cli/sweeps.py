"""The exact sweeps of ``baccarat chemin`` and ``baccarat banque`` over the run options (``--workers``,
``--scheduler``: :mod:`solver.cli.workers`): each solve a task, the results in the order one process
gives them, and the same results.

* chemin de fer: one task per shoe (a deck list, ``--shoes``), with one commission or a commission
  range (the range's uniqueness over each piece decided in the task);
* baccara banque: the solves of every shoe, θ and concept. A shoe's Nash searches form a chain (each
  is seeded with the previous θ's equilibrium, and the independent solution with the Nash equilibrium
  at its θ): a chain is one task, the correlated solutions one task per θ, and the independent ones
  follow their chain. Each solve receives what it receives in one process, so the answers are the same.
  A worker builds a shoe's game once (:func:`banque_game`) for all its tasks.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from solver.cli.workers import map_from_args

if TYPE_CHECKING:
    from solver.banque.game import BanqueGame, BanqueModel
    from solver.banque.solve import BanqueSolution
    from solver.cards import Shoe
    from solver.chemin.commission.sweep import CommissionSweep
    from solver.chemin.solve import Solution
    from solver.rules.tableau import Tableau


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


@lru_cache(maxsize=4)
def banque_game(shoe: Shoe, model: BanqueModel) -> BanqueGame:
    """A shoe's banque game, built once in a process for every task that needs it."""
    from solver.banque.game import build_banque

    return build_banque(shoe, model)


BanqueTask = tuple[str, Any, Any, tuple[Fraction, ...], Any]
"""(kind, shoe, model, θs, hint): ``nash`` (the chain over θs), ``correlated`` or ``independent`` (one θ)."""


def banque_task(task: BanqueTask) -> list[BanqueSolution]:
    """A task: a Nash chain over its θs, or one θ's correlated or independent solution."""
    from solver.banque.solve import solve_banque

    kind, shoe, model, thetas, hint = task
    g = banque_game(shoe, model)
    if kind != "nash":
        return [solve_banque(shoe, model, thetas[0], kind, game=g, hint=hint)]
    chain: list[BanqueSolution] = []
    for t in thetas:
        chain.append(solve_banque(shoe, model, t, "nash", game=g, hint=chain[-1] if chain else None))
    return chain


def banque_solutions(
    args: argparse.Namespace, shoes: Sequence[Shoe], model: BanqueModel, thetas: Sequence[Any], concepts: Sequence[str]
) -> list[BanqueSolution]:
    """Every concept at every θ on every shoe, in the order :func:`solver.banque.solve.solve_concepts`
    gives them shoe by shoe (θ by θ, concept by concept), computed as the module docstring says."""
    ts = tuple(thetas)
    seeded = "nash" in concepts and concepts.index("nash") < concepts.index("independent") if "independent" in concepts else False
    tasks: list[BanqueTask] = []
    keys: list[tuple[int, str, tuple[int, ...]]] = []  # shoe, concept, θ indices of each task
    for s, shoe in enumerate(shoes):
        for c in concepts:
            if c == "nash":
                tasks.append(("nash", shoe, model, ts, None))
                keys.append((s, c, tuple(range(len(ts)))))
            elif c == "correlated" or not seeded:
                tasks += [(c, shoe, model, (t,), None) for t in ts]
                keys += [(s, c, (k,)) for k in range(len(ts))]
    found: dict[tuple[int, str, int], BanqueSolution] = {}
    for (s, c, ks), result in zip(keys, map_from_args(args, banque_task, tasks, "solves")):
        found.update({(s, c, k): r for k, r in zip(ks, result)})
    if seeded:  # each independent solution seeded with the Nash equilibrium at its θ, as in one process
        pairs = [(s, k) for s in range(len(shoes)) for k in range(len(ts))]
        second: list[BanqueTask] = [("independent", shoes[s], model, (ts[k],), found[s, "nash", k]) for s, k in pairs]
        for (s, k), result in zip(pairs, map_from_args(args, banque_task, second, "solves")):
            found[s, "independent", k] = result[0]
    return [found[s, c, k] for s in range(len(shoes)) for k in range(len(ts)) for c in concepts]
