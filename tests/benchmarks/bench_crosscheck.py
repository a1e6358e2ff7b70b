"""The cross-check's false-alarm rate at 10^9 coups of our own simulator, dealt in whole shoes.

Run: ``python -m pytest tests/benchmarks/bench_crosscheck.py -s -p no:cacheprovider`` (outside the
default test run; a few minutes on 2 cores). Record the results in docs/benchmarks.md.

Our simulator deals punto banco from 8 decks to the cut card (turn-and-burn, cut 14), counting every
card for the shoe-level tests (``SimConfig(shoe_tallies=True)``): 100 runs of 10^7 coups with seeds
1000-1099, each cross-checked on its own (the 100 p-values of each test should be uniform, and about
0.1 runs rejected at the false-alarm rate 1/1000), then all 10^9 coups together: the statistics are
the tallies' (the same integer sums a file's shoes are reduced to), not a file. The same for one
deck at 10^8 (10 runs), where the old card law rejected a correct engine by 2 × 10^6 coups. The
price of counting every card is measured against the same shoes dealt without it.
"""

from __future__ import annotations

import time

import pytest

from solver.cards import Shoe
from solver.crosscheck import CrossCheck, burn_laws, crosscheck, exact_law, sample_from_simulation
from solver.simulate import SimConfig, SimulationResult, simulate
from solver.simulate.run import Tallies

COUPS_PER_RUN = 10**7


def _ks(p_values: list[float]) -> float:
    from scipy import stats

    return float(stats.kstest(p_values, "uniform").pvalue)


def _report(label: str, runs: list[CrossCheck], total: CrossCheck, seconds: float) -> None:
    rejected = sum(not cc.passed for cc in runs)
    print(
        f"\n{label}: {total.sample.total_coups:,} coups in {total.sample.shoes:,} shoes, {len(runs)} runs, "
        f"{seconds:.0f} s; runs rejected at 1/1000: {rejected}; all together: {total.verdict}"
    )
    print(f"  {'test':18} {'p, all coups':>13} {'KS p of the runs':>17} {'least p of a run':>17}")
    for i, t in enumerate(total.tests):
        ps = [cc.tests[i].p_value for cc in runs]
        print(f"  {t.name:18} {t.p_value:13.3g} {_ks(ps):17.3g} {min(ps):17.3g}")


@pytest.mark.parametrize(("decks", "runs"), [(8, 100), (1, 10)], ids=["8-decks-1e9", "1-deck-1e8"])
def test_a_correct_simulator_passes_at_any_size(decks: int, runs: int) -> None:
    config = SimConfig.punto(Shoe.decks(decks), shoe_tallies=True)
    law = exact_law("punto", config.shoe, config.strategy)
    burns = burn_laws(law, config.strategy)
    total = Tallies.zeros(config.max_coups)
    checks = []
    start = time.perf_counter()
    for seed in range(1000, 1000 + runs):
        r = simulate(config, coups=COUPS_PER_RUN, seed=seed)
        checks.append(crosscheck(sample_from_simulation(r), law, burn=burns))
        total.add(r.tallies)
    seconds = time.perf_counter() - start
    everything = SimulationResult(config, 1000, total, seconds, "2")
    together = crosscheck(sample_from_simulation(everything), law, burn=burns)
    _report(f"punto banco, {decks} deck{'s' if decks > 1 else ''}, whole shoes", checks, together, seconds)
    assert together.passed
    assert sum(not cc.passed for cc in checks) <= 2  # expected 0.1 (0.01 for 10 runs); 3 or more: P < 2e-4
    for i in range(len(together.tests)):
        assert _ks([cc.tests[i].p_value for cc in checks]) > 1e-3, together.tests[i].name


def test_the_price_of_counting_every_card() -> None:
    """The same shoes dealt with and without the shoe-level tallies, in one process, alternating."""
    rates: dict[bool, list[float]] = {False: [], True: []}
    for seed in range(5):
        for counting in (False, True):
            config = SimConfig.punto(Shoe.decks(8), shoe_tallies=counting)
            t = time.process_time()
            r = simulate(config, coups=4 * 10**6, seed=seed, workers=1)
            rates[counting].append(r.n_coups / (time.process_time() - t))
    plain, counted = sorted(rates[False])[2], sorted(rates[True])[2]
    print(
        f"\ncoups per CPU-second, 8 decks, 1 worker (medians of 5): {plain:,.0f} without the shoe tallies, "
        f"{counted:,.0f} with them ({plain / counted:.2f} x the time)"
    )
