"""Table sessions' speed, against dealing the same coups without the money, measured in the same run.

Run: ``python -m pytest tests/benchmarks/bench_table.py -s`` (outside the default test run).
Figures are coups per second of CPU time in this process (``time.process_time``) for one worker, and
of wall-clock time for all workers. The reference deals the same shoes coup by coup with the same
dealing function and no money at all, so the ratio is the cost of the rules of the money (exact
amounts, calls, covering, the log record). Record results in docs/benchmarks.md.
"""

from __future__ import annotations

import time

import numpy as np

from solver.sessions import CheminPlay, Policies, TableConfig, run_sessions, table_play
from solver.sessions.deal import ShoeDealer, deal_chemin, shoe_cards
from solver.simulate import KEMENY_SNELL, default_workers
from solver.simulate.config import Burn

RESULTS: dict[str, float] = {}
SESSIONS = 200


def test_dealing_only() -> None:
    table = TableConfig("chemin")
    play = CheminPlay.of(KEMENY_SNELL)
    rng = np.random.default_rng(1)
    dealer = ShoeDealer(shoe_cards(table.shoe), Burn("none"), 7, rng)
    t, n = time.process_time(), 0
    for _ in range(SESSIONS):
        dealer.new_shoe()
        while not dealer.cut_seen:
            deal_chemin(dealer, play, rng)
            n += 1
    rate = n / (time.process_time() - t)
    RESULTS["deal"] = rate
    print(f"\ndealing only (the table's dealing, no money), chemin de fer, 1 core: {rate:,.0f} coups/s")


def _rate(game: str, workers: int, **kw: object) -> float:
    table = TableConfig(game, **kw)  # type: ignore[arg-type]
    play = table_play(table, KEMENY_SNELL)
    clock = time.process_time if workers == 1 else time.perf_counter
    t = clock()
    stats = run_sessions(table, Policies.defaults(table), play, SESSIONS, seed=1, workers=workers)
    return float(stats.total("coups")) / (clock() - t)


def test_chemin_one_worker() -> None:
    rate = _rate("chemin", 1)
    RESULTS["chemin"] = rate
    print(
        f"\nchemin de fer table, default policies, 1 worker: {rate:,.0f} coups/s "
        f"({RESULTS.get('deal', np.nan) / rate:.1f} x slower than dealing only)"
    )


def test_banque_one_worker() -> None:
    rate = _rate("banque", 1)
    print(f"\nbaccara banque limitee table, default policies, 1 worker: {rate:,.0f} coups/s")


def test_chemin_all_workers() -> None:
    n = default_workers()
    rate = _rate("chemin", n)
    print(
        f"\nchemin de fer table, {n} workers (wall clock): {rate:,.0f} coups/s "
        f"({rate / RESULTS.get('chemin', np.nan):.2f} x one worker)"
    )
