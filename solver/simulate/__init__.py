"""A simulator of real shoes: shuffle, burn, cut card, coups dealt as the table deals them.

The dealing kernel (:mod:`.kernel`) is a plain per-coup loop compiled ahead of time in C; work is split into
seeded chunks mapped over local processes or a Dask cluster (:mod:`.run`), with identical results
for one seed whatever the executor; :mod:`.stats` turns the integer tallies into estimates with
standard errors, by coup position, and the cut-card effect.

>>> r = simulate(SimConfig.punto(Shoe.decks(8)), shoes=200, seed=1, workers=1)
>>> r.n_shoes, r.n_coups
(200, 16082)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from fractions import Fraction

from solver.cards import Shoe
from solver.errors import InputError
from solver.simulate.config import DEFAULT_BURN, DEFAULT_CUT, Burn, Payout, SimConfig, default_payouts, parse_burn
from solver.simulate.executor import default_workers
from solver.simulate.run import Tallies, run_tallies, shoes_for_coups, workers_used
from solver.simulate.stats import Estimate, SimulationResult
from solver.strategy import KEMENY_SNELL, PUNTO_STRATEGY, Strategy, strategy_from_cells

__all__ = [
    "DEFAULT_BURN",
    "DEFAULT_CUT",
    "KEMENY_SNELL",
    "PUNTO_STRATEGY",
    "Burn",
    "Estimate",
    "Payout",
    "SimConfig",
    "SimulationResult",
    "Shoe",
    "Strategy",
    "Tallies",
    "default_payouts",
    "default_workers",
    "parse_burn",
    "simulate",
    "strategy_from_cells",
]


def simulate(
    config: SimConfig,
    shoes: int | None = None,
    coups: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
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
    if (shoes is None) == (coups is None):
        raise InputError("say how much to deal: a number of shoes or a number of coups (one of them)")
    if coups is not None:
        if coups < 1:
            raise InputError("deal at least one coup")
        shoes = shoes_for_coups(config, coups)
    assert shoes is not None
    start = time.perf_counter()
    tallies = run_tallies(config, shoes, seed, workers, scheduler, progress)
    where = scheduler if scheduler is not None else str(workers_used(config, shoes, workers))
    return SimulationResult(config, seed, tallies, time.perf_counter() - start, where, exact)
