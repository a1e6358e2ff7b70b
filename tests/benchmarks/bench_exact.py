"""Speed of the exact solvers, against simple references measured in the same run.

Run: python3 -m pytest tests/benchmarks/bench_exact.py -s -p no:cacheprovider
(outside the default test run; figures are recorded in docs/benchmarks.md).
"""

from __future__ import annotations

import io
import json
import sys
import time
from collections.abc import Callable
from fractions import Fraction

from solver.cards import Shoe
from solver.chemin.game import build_game
from solver.chemin.solve import solve
from solver.cli import main
from solver.punto import punto_banco


def best_of(fn: Callable[[], object], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def simple_enumeration(values: tuple[int, ...]) -> dict[str, int]:
    """A plain pure-Python enumeration of every value sequence with its exact weight (the reference)."""
    counts = list(values)
    n_total = sum(counts)
    law = {"banker": 0, "player": 0, "tie": 0}

    def draw(weight: int, used: int) -> list[tuple[int, int, int]]:
        out = []
        for v in range(10):
            if counts[v]:
                out.append((v, weight * counts[v], used + 1))
        return out

    def finish(w: int, used: int, pt: int, bt: int) -> None:
        pad = 1
        for k in range(used, 6):
            pad *= n_total - k
        key = "banker" if bt > pt else "player" if pt > bt else "tie"
        law[key] += w * pad

    for p1, w1, u1 in draw(1, 0):
        counts[p1] -= 1
        for b1, w2, u2 in draw(w1, u1):
            counts[b1] -= 1
            for p2, w3, u3 in draw(w2, u2):
                counts[p2] -= 1
                for b2, w4, u4 in draw(w3, u3):
                    counts[b2] -= 1
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if pt >= 8 or bt >= 8:
                        finish(w4, u4, pt, bt)
                    elif pt >= 6:
                        if bt <= 5:
                            for b3, w5, u5 in draw(w4, u4):
                                finish(w5, u5, pt, (bt + b3) % 10)
                        else:
                            finish(w4, u4, pt, bt)
                    else:
                        for p3, w5, u5 in draw(w4, u4):
                            counts[p3] -= 1
                            pt3 = (pt + p3) % 10
                            rule = {
                                0: True,
                                1: True,
                                2: True,
                                3: p3 != 8,
                                4: 2 <= p3 <= 7,
                                5: 4 <= p3 <= 7,
                                6: p3 in (6, 7),
                                7: False,
                            }[bt]
                            if rule:
                                for b3, w6, u6 in draw(w5, u5):
                                    finish(w6, u6, pt3, (bt + b3) % 10)
                            else:
                                finish(w5, u5, pt3, bt)
                            counts[p3] += 1
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    return law


def test_punto_full_shoe() -> None:
    shoe = Shoe.decks(8)
    punto_banco(shoe)  # build the deal tree once (cached, shoe-independent)
    fast = best_of(lambda: punto_banco(shoe), 50)
    t = time.perf_counter()
    ref = simple_enumeration(shoe.values)
    slow = time.perf_counter() - t
    assert ref == punto_banco(shoe).counts
    print(
        f"\npunto banco, 8 decks, all bets: {fast * 1e3:.2f} ms; simple pure-Python enumeration {slow:.2f} s; "
        f"ratio {slow / fast:,.0f}x"
    )
    assert fast < 0.005


def test_batch_depleted_shoes() -> None:
    lines = []
    for k in range(2000):
        removed = [str((k * 7 + i * 3) % 10) for i in range(k % 40)]
        lines.append("--decks 8" + (f" --remove {','.join(removed)}" if removed else ""))
    text = "\n".join(lines) + "\n"
    old = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.StringIO(text), io.StringIO()
    try:
        t = time.perf_counter()
        main(["punto", "--shoes", "-"])
        dt = time.perf_counter() - t
        out = sys.stdout.getvalue()
    finally:
        sys.stdin, sys.stdout = old
    assert len(out.splitlines()) == 2000 and json.loads(out.splitlines()[-1])["probabilities"]
    rate = 2000 / dt
    t = time.perf_counter()
    simple_enumeration(Shoe.decks(8).values)
    one_simple = time.perf_counter() - t
    print(
        f"\nbatch: {rate:,.0f} depleted 8-deck shoes/s (in-process, JSON out); simple enumeration "
        f"{1 / one_simple:.2f} shoes/s; ratio {rate * one_simple:,.0f}x"
    )
    assert rate >= 500


def test_chemin_b3_parlor_six_decks() -> None:
    shoe = Shoe.decks(6)
    solve(build_game(Shoe.decks(5), 3, "parlor"))  # warm: deal tree, grouping, scipy import
    dt = best_of(lambda: solve(build_game(shoe, 3, "parlor")), 5)
    ref = best_of(lambda: solve(build_game(shoe, 1, "casino")), 5)
    print(
        f"\nchemin de fer B3 parlor, 6 decks, build + solve + certify: {dt * 1e3:.0f} ms "
        f"(the 2 x 4 casino game B1 on the same shoe: {ref * 1e3:.1f} ms; ratio {dt / ref:.0f}x)"
    )
    assert dt < 0.5


def test_chemin_whole_table() -> None:
    shoes = [Shoe.decks(d) for d in range(1, 9)] + [Shoe.infinite()]
    t = time.process_time()  # CPU: the machine is shared
    n = 0
    for shoe in shoes:
        for info in (1, 2, 3):
            for freedom in ("casino", "parlor"):
                for alpha in (Fraction(0), Fraction(1, 20)):
                    assert solve(build_game(shoe, info, freedom, alpha)).certified
                    n += 1
    dt = time.process_time() - t
    print(
        f"\nchemin de fer, d = 1..8 and inf, information 1-3, casino and parlor, alpha 0 and 1/20: "
        f"{n} games certified in {dt:.2f} s CPU (the nine information-3 parlor games with commission decide "
        "uniqueness by a case analysis)"
    )
    assert dt < 10
