"""Baccara banque simulator speed, in coups per CPU-second, against references measured in the same run.

Run: ``python -m pytest tests/benchmarks/bench_banque_sim.py -s`` (outside the default test run).
Each kernel deals in this process with one generator (no executor), after a warm-up call (numba's
compilation or cache load is not counted), timed with ``time.process_time``, best of three. The
references: the same banque loop as plain Python (the simple reference), and the punto banco / chemin
de fer simulator's default kernel on the same shoe. Record the results in docs/benchmarks.md.
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np

from solver.banque import BanqueModel, solve_banque
from solver.cards import Shoe
from solver.crosscheck.banque import draws_of
from solver.simulate import KEMENY_SNELL, SimConfig
from solver.simulate.banque import BanqueTable, deal_banque
from solver.simulate.run import deal

SHOE = Shoe.decks(6)
TARGET = 1e6  # coups per CPU-second: 10^6 coups in a second


def _cpu_rate(fn, repeats: int = 3) -> float:  # type: ignore[no-untyped-def]
    best = 0.0
    for _ in range(repeats):
        t = time.process_time()
        coups = fn()
        best = max(best, coups / (time.process_time() - t))
    return best


def test_banque_kernel_speed() -> None:
    half = Fraction(1, 2)
    nash = solve_banque(SHOE, BanqueModel(1, "blind", "casino", Fraction(1, 50)), half, "nash")
    team = solve_banque(SHOE, BanqueModel(1, "blind", "casino", Fraction(1, 50)), half, "correlated")
    rows = []
    for label, s, first in (
        ("Nash, whole shoes", nash, False),
        ("correlated (2 atoms), whole shoes", team, False),
        ("Nash, one coup per shoe", nash, True),
    ):
        table = BanqueTable(SHOE, draws_of(s), half, Fraction(1, 50), first_coup_only=first)
        deal_banque(table, 2, np.random.default_rng(0))  # compile or load
        shoes = 400_000 if first else 20_000
        rate = _cpu_rate(lambda table=table, shoes=shoes: deal_banque(table, shoes, np.random.default_rng(1)).n_coups)
        rows.append((label, rate))
    simple = BanqueTable(SHOE, draws_of(nash), half, Fraction(1, 50))
    python = _cpu_rate(lambda: deal_banque(simple, 40, np.random.default_rng(1), "python").n_coups, 1)
    chemin = SimConfig.chemin(SHOE, KEMENY_SNELL)
    deal(chemin, 2, np.random.default_rng(0))
    ref = _cpu_rate(lambda: deal(chemin, 20_000, np.random.default_rng(1)).n_coups)
    print()
    for label, rate in rows:
        print(
            f"banque, 6 decks, {label}: {rate:,.0f} coups per CPU-second "
            f"({rate / python:.0f} x plain Python, {rate / ref:.2f} of chemin de fer's kernel)"
        )
    print(f"plain Python banque loop: {python:,.0f}; chemin de fer kernel (Kemeny-Snell, 6 decks): {ref:,.0f}")
    assert rows[0][1] >= TARGET
