"""A simulator of real shoes: shuffle, burn, cut card, coups dealt as the table deals them.

The dealing kernel (:mod:`.kernel`) is a plain per-coup loop compiled ahead of time in C; work is split into
seeded chunks mapped over local processes or a Dask cluster (:mod:`.run`), with identical results
for one seed whatever the executor; :mod:`.stats` turns the integer tallies into estimates with
standard errors, by coup position, and the cut-card effect.

>>> from solver.simulate import Shoe, SimConfig, simulate
>>> r = simulate(SimConfig.punto(Shoe.decks(8)), shoes=200, seed=1, workers=1)
>>> r.n_shoes, r.n_coups
(200, 16082)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

_WHERE: dict[str, str] = {
    "DEFAULT_BURN": "solver.simulate.config",
    "DEFAULT_CUT": "solver.simulate.config",
    "Burn": "solver.simulate.config",
    "Payout": "solver.simulate.config",
    "SimConfig": "solver.simulate.config",
    "default_payouts": "solver.simulate.config",
    "parse_burn": "solver.simulate.config",
    "DaskScheduler": "solver.simulate.tasks",
    "Scheduler": "solver.simulate.tasks",
    "default_workers": "solver.simulate.executor",
    "BurnMode": "solver.simulate.kernel",
    "Tallies": "solver.simulate.run",
    "shoes_for_coups": "solver.simulate.run",
    "Estimate": "solver.simulate.stats",
    "SimulationResult": "solver.simulate.stats",
    "Shoe": "solver.cards",
    "KEMENY_SNELL": "solver.strategy",
    "PUNTO_STRATEGY": "solver.strategy",
    "Strategy": "solver.strategy",
    "strategy_from_cells": "solver.strategy",
}
"""Names loaded on first use, so the package's executor can be imported before numpy (the command line
holds numpy's BLAS to one thread first: :func:`solver.simulate.executor.keep_one_thread`)."""

__all__ = [
    "Burn",
    "BurnMode",
    "DEFAULT_BURN",
    "DEFAULT_CUT",
    "DaskScheduler",
    "Estimate",
    "KEMENY_SNELL",
    "PUNTO_STRATEGY",
    "Payout",
    "Scheduler",
    "Shoe",
    "SimConfig",
    "SimulationResult",
    "Strategy",
    "Tallies",
    "default_payouts",
    "default_workers",
    "parse_burn",
    "shoes_for_coups",
    "simulate",
    "strategy_from_cells",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'solver.simulate' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from solver.cards import Shoe
    from solver.simulate.config import DEFAULT_BURN, DEFAULT_CUT, Burn, Payout, SimConfig, default_payouts, parse_burn
    from solver.simulate.executor import default_workers
    from solver.simulate.kernel import BurnMode
    from solver.simulate.run import Tallies, shoes_for_coups
    from solver.simulate.stats import Estimate, SimulationResult
    from solver.simulate.tasks import DaskScheduler, Scheduler
    from solver.strategy import KEMENY_SNELL, PUNTO_STRATEGY, Strategy, strategy_from_cells


def simulate(
    config: SimConfig,
    shoes: int | None = None,
    coups: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    scheduler: Scheduler | None = None,
    progress: Callable[[int], None] | None = None,
    exact: Mapping[str, Fraction] | None = None,
) -> SimulationResult:
    """Deal shoes and return the tallies with their statistics.

    Args:
        config: the table.
        shoes: how many shoes; or ``coups``: about how many coups (whole shoes, sized in advance
            from the expected coups per shoe, so the count of shoes does not depend on the cards).
        seed: the run's seed; the result depends on nothing else.
        workers, scheduler: the executor (see :func:`solver.simulate.run.run_tallies`).
        progress: called with the shoes done so far.
        exact: exact first-coup values (outcome or bet name → Fraction) for the cut-card effect.

    Returns:
        A :class:`SimulationResult`.
    """
    import time

    from solver.errors import InputError
    from solver.simulate.run import run_tallies, shoes_for_coups, workers_used
    from solver.simulate.stats import SimulationResult

    if (shoes is None) == (coups is None):
        raise InputError("say how much to deal: a number of shoes or a number of coups (one of them)")
    if coups is not None:
        if coups < 1:
            raise InputError("deal at least one coup")
        shoes = shoes_for_coups(config, coups)
    assert shoes is not None
    start = time.perf_counter()
    tallies = run_tallies(config, shoes, seed, workers, scheduler, progress)
    where = str(scheduler) if scheduler is not None else str(workers_used(config, shoes, workers))
    return SimulationResult(config, seed, tallies, time.perf_counter() - start, where, exact)
