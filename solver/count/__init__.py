"""Card counting, exactly: effects of removal, linear counts, and exact edges over simulated shoes.

* :mod:`.eor`: the exact change in a bet's expected value when one card of each rank (or value) is
  removed, and the linear count with tags proportional to it;
* :mod:`.fastlaw` and :mod:`.dealer`: a compiled kernel that deals shoes like the table and takes,
  before every coup, the exact edge of each bet on the cards the player knows;
* :mod:`.run` and :mod:`.stats`: seeded chunks over processes or a Dask cluster, and the estimates
  (the edge's distribution, how often it is positive, what perfect play and a count win).

>>> r = count_study(CountConfig.punto(Shoe.decks(8), bets_from_names("big_tiger")), shoes=20, seed=1, workers=1)
>>> r.n_shoes, r.n_coups
(20, 1602)
"""

from __future__ import annotations

import time
from collections.abc import Callable

from solver.cards import Shoe
from solver.count.config import CountConfig, LinearCount
from solver.count.run import CountTallies, run_study
from solver.count.stats import BetStudy, CountResult, Play, summarize
from solver.errors import InputError
from solver.punto import bets_from_names
from solver.simulate.executor import default_workers
from solver.simulate.tasks import Scheduler

__all__ = [
    "BetStudy",
    "CountConfig",
    "CountResult",
    "CountTallies",
    "LinearCount",
    "Play",
    "Shoe",
    "bets_from_names",
    "count_study",
]


def count_study(
    config: CountConfig,
    shoes: int | None = None,
    coups: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    scheduler: Scheduler | None = None,
    progress: Callable[[int], None] | None = None,
) -> CountResult:
    """Deal shoes, take every coup's exact edges, and summarize.

    Args:
        config: the study.
        shoes: how many shoes; or ``coups``: about how many coups (whole shoes, sized in advance).
        seed: the run's seed; the result depends on nothing else.
        workers, scheduler: the executor (see :func:`solver.count.run.run_study`).
        progress: called with the shoes done so far.
    """
    if (shoes is None) == (coups is None):
        raise InputError("say how much to deal: a number of shoes or a number of coups (one of them)")
    if coups is not None:
        if coups < 1:
            raise InputError("deal at least one coup")
        shoes = max(1, round(coups / config.table.expected_coups_per_shoe()))
    assert shoes is not None
    start = time.perf_counter()
    tallies = run_study(config, shoes, seed, workers, scheduler, progress)
    where = str(scheduler) if scheduler is not None else str(default_workers() if workers is None else workers)
    return summarize(config, tallies, seed, time.perf_counter() - start, where)
