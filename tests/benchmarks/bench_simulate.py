"""Simulator speed, against a simple loop measured in the same run.

Run: ``python -m pytest tests/benchmarks/bench_simulate.py -s`` (outside the default test run).
Figures are coups per second of wall-clock time for the whole job: shuffling, burning, dealing,
the cut card, tallying every coup and every shoe, splitting into chunks and summing the chunks; they
are printed, not asserted (a wall-clock rate says as much about the machine's load as about the code:
what a second worker costs is asserted in CPU time by bench_scaleout.py).
The simple loop is the same dealing code run as plain Python (no compilation). The steady state of
each kernel (C, numba, plain Python) is measured in CPU time, alternating, on the same shoes.
With ``BENCH_BASELINE=/path/to/an/older/checkout`` (its C kernel built in place) the steady state of
that kernel is measured alternating with this one. Record results in docs/benchmarks.md.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from solver.cards import Shoe
from solver.simulate import KEMENY_SNELL, SimConfig, default_workers, simulate
from solver.simulate.engines import ENGINES
from solver.simulate.run import Tallies, deal

PUNTO = SimConfig.punto(Shoe.decks(8))
CHEMIN = SimConfig.chemin(Shoe.decks(6), KEMENY_SNELL)
TARGET_PUNTO = 20e6  # coups per second on all cores (the goal on a 2-core machine), printed beside the rate
RESULTS: dict[str, float] = {}


def _rate(config: SimConfig, coups: int, workers: int, seed: int = 1) -> float:
    simulate(config, shoes=50, seed=0, workers=workers)  # compile / load the kernel, start nothing else
    r = simulate(config, coups=coups, seed=seed, workers=workers)
    return r.n_coups / r.elapsed


def test_simple_loop() -> None:
    t = time.perf_counter()
    tallies = deal(PUNTO, 300, np.random.default_rng(1), engine="python")
    rate = tallies.n_coups / (time.perf_counter() - t)
    RESULTS["simple"] = rate
    print(f"\nsimple loop (the same kernel as plain Python), punto banco, 1 core: {rate:,.0f} coups/s")


TARGET_STEADY = 35e6  # coups per CPU-second per worker, the C kernel (issue 17)
ROUNDS, SHOES_PER_ROUND = 21, 50_000  # rounds of about 0.1 s of C: medians of many, the machine's noise is large


def _cpu_rate(config: SimConfig, engine: str, shoes: int, seed: int) -> float:
    t = time.process_time()
    tallies = deal(config, shoes, np.random.default_rng(seed), engine=engine)
    return tallies.n_coups / (time.process_time() - t)


def _numpy_draws_rate(seed: int) -> float:
    """The reference: numpy drawing card indices (``rng.integers(0, 416, 4 * 10**6)``, the kernel's own
    draw, vectorized) per CPU-second; it moves with the machine's load as the kernels do."""
    rng = np.random.default_rng(seed)
    t = time.process_time()
    rng.integers(0, 416, 4 * 10**6)
    return 4e6 / (time.process_time() - t)


def _baseline_kernel() -> Callable[..., int] | None:
    """The C kernel built in ``$BENCH_BASELINE`` (an older checkout, after its ``pip install -e .``)."""
    root = os.environ.get("BENCH_BASELINE")
    if not root:
        return None
    path = next(Path(root, "solver", "simulate").glob("ckernel*.so"))
    spec = importlib.util.spec_from_file_location("ckernel", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.deal_shoes  # type: ignore[no-any-return]


def _baseline_rate(fn: Callable[..., int], config: SimConfig, shoes: int, seed: int) -> float:
    """The baseline's kernel: its two structs (0.4.0 on), or its 24 positional arguments (before)."""
    table = config.kernel_table()
    t = Tallies.zeros(config.max_coups)
    rng = np.random.default_rng(seed)
    start = time.process_time()
    try:
        coups = fn(table, shoes, rng, t.counts())
    except TypeError:
        start = time.process_time()
        head = (table.codes, table.value_of, shoes, table.max_coups, table.ptab, table.btab, table.burn_mode)
        coups = fn(*head, table.burn_count, table.cut, table.extra_coup, rng, *t.counts(), 0, 0)
    return coups / (time.process_time() - start)


@pytest.mark.parametrize("config", [PUNTO, CHEMIN], ids=["punto", "chemin"])
def test_kernels_steady_state(config: SimConfig) -> None:
    """Coups per CPU-second of each kernel in this process, the same shoes, alternating; medians."""
    for engine in ENGINES[:2]:
        _cpu_rate(config, engine, 10, 0)  # load the compiled kernels
    baseline = _baseline_kernel()
    rates: dict[str, list[float]] = {e: [] for e in (*ENGINES, "numpy")}
    for seed in range(ROUNDS):
        for engine in ENGINES[:2]:
            rates[engine].append(_cpu_rate(config, engine, SHOES_PER_ROUND, seed))
        rates["numpy"].append(_numpy_draws_rate(seed))
        if baseline is not None:
            rates.setdefault("baseline", []).append(_baseline_rate(baseline, config, SHOES_PER_ROUND, seed))
    rates["python"].append(_cpu_rate(config, "python", 100, 0))
    med = {e: statistics.median(r) for e, r in rates.items()}
    c = sorted(rates["c"])
    print(
        f"\n{config.game}, steady state per CPU-second (medians of {ROUNDS} rounds of {SHOES_PER_ROUND:,} shoes): "
        f"C {med['c']:,.0f} (quartiles {c[len(c) // 4]:,.0f} to {c[3 * len(c) // 4]:,.0f}); numba {med['numba']:,.0f} "
        f"(C = {med['c'] / med['numba']:.2f} x numba); plain Python {med['python']:,.0f} "
        f"(C = {med['c'] / med['python']:,.0f} x); numpy drawing card indices {med['numpy']:,.0f} a CPU-second "
        f"(C = {med['c'] / med['numpy']:.3f} coups per index numpy draws); target {TARGET_STEADY:,.0f}"
    )
    if baseline is not None:
        print(
            f"the baseline's C kernel (BENCH_BASELINE): {med['baseline']:,.0f}; this one "
            f"{med['c'] / med['baseline']:.3f} x the baseline"
        )
    assert med["c"] > med["numba"]


def test_punto_one_worker() -> None:
    rate = _rate(PUNTO, 10**8, 1)
    RESULTS["punto1"] = rate
    print(
        f"\npunto banco, 8 decks, cut 14, turn-and-burn, 1 worker: {rate:,.0f} coups/s "
        f"({rate / RESULTS.get('simple', np.nan):,.0f} x the simple loop)"
    )


def test_punto_all_workers() -> None:
    n = default_workers()
    rate = _rate(PUNTO, 4 * 10**8, n)
    RESULTS["punto"] = rate
    scaling = rate / RESULTS.get("punto1", np.nan)
    print(
        f"\npunto banco, {n} workers: {rate:,.0f} coups/s of wall clock (target {TARGET_PUNTO:,.0f}); "
        f"scaling {scaling:.2f} on {n} workers (wall clock: on a shared machine, read bench_scaleout.py's CPU ratios)"
    )


def test_chemin_mixed_all_workers() -> None:
    n = default_workers()
    rate = _rate(CHEMIN, 4 * 10**8, n)
    ratio = rate / RESULTS.get("punto", np.nan)
    print(
        f"\nchemin de fer, 6 decks, cut 7, ponte mixing at 5 (9/11), {n} workers: {rate:,.0f} coups/s "
        f"({ratio:.2f} of punto banco)"
    )
    assert ratio >= 0.5 or "punto" not in RESULTS


@pytest.mark.parametrize("game", ["punto", "chemin"])
def test_first_coup_mode(game: str) -> None:
    config = (
        SimConfig.punto(Shoe.decks(8), first_coup_only=True)
        if game == "punto"
        else SimConfig.chemin(Shoe.decks(6), KEMENY_SNELL, first_coup_only=True)
    )
    rate = _rate(config, 10**8, default_workers())
    print(f"\n{game}, one coup per freshly shuffled shoe (the cross-check's mode): {rate:,.0f} coups/s")
