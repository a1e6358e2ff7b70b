"""Speed of the commission game's new work (issue 14), in CPU time, against references in the same run.

Run: python3 -m pytest tests/benchmarks/bench_commission.py -s -p no:cacheprovider
(outside the default test run; figures are recorded in docs/benchmarks.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import solver.chemin.commission.cases as cases
import solver.chemin.commission.sweep as parametric
from solver.cards import Shoe
from solver.chemin.commission.cases import case_analysis
from solver.chemin.commission.sweep import commission_sweep
from solver.chemin.game import build_game
from solver.chemin.solve import solve

ROOT = Path(__file__).resolve().parents[2]


def cpu(fn: Callable[[], object]) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def test_case_analysis_b3_parlor() -> None:
    game = build_game(Shoe.decks(6), 3, "parlor", Fraction(1, 20))
    s = solve(game)  # warm; the equilibrium (q, r) and its dominance steps
    cases._CACHE.clear()
    analysis = cpu(lambda: case_analysis(game, list(s.q), list(s.r), s.dominance))
    rest = cpu(lambda: solve(build_game(Shoe.decks(6), 3, "parlor", Fraction(1, 20))))  # analysis remembered
    print(
        f"\ncase analysis, B3 parlor, 6 decks, alpha 1/20 ({s.cases.leaves} cases): {analysis:.2f} s CPU "
        f"(build + equilibrium search + certification of the same game: {rest:.2f} s; ratio {analysis / rest:.1f}x)"
    )
    assert analysis < 2


def test_checker_on_a_case_analysis() -> None:
    def check(name: str) -> float:
        t = time.perf_counter()
        r = subprocess.run(
            [sys.executable, str(ROOT / "proofs" / "check.py"), str(ROOT / "proofs" / "certificates" / name)],
            capture_output=True,
            text=True,
        )
        assert r.returncode == 0, r.stdout
        return time.perf_counter() - t

    with_cases = min(check("B3-parlor-d6-a1_20.json") for _ in range(3))
    zero_sum = min(check("B3-parlor-d6-a0.json") for _ in range(3))
    data = json.loads((ROOT / "proofs" / "certificates" / "B3-parlor-d6-a1_20.json").read_text(encoding="utf-8"))
    leaves = sum(entry[0] != "split" for entry in data["cases"])
    print(
        f"\nproofs/check.py on B3-parlor-d6-a1_20.json ({leaves} cases): {with_cases:.2f} s "
        f"(the zero-sum certificate of the same game: {zero_sum:.2f} s; ratio {with_cases / zero_sum:.1f}x)"
    )
    assert with_cases < 5


def test_commission_sweep_b2_parlor() -> None:
    shoe = Shoe.decks(6)
    solve(build_game(shoe, 2, "parlor", Fraction(1, 20)))  # warm: deal tree, grouping, scipy
    parametric._SWEEPS.clear()
    sweep_time = cpu(lambda: commission_sweep(shoe, 2, "parlor"))
    one = cpu(lambda: solve(build_game(shoe, 2, "parlor", Fraction(1, 11))))
    n = len(commission_sweep(shoe, 2, "parlor").pieces)
    print(
        f"\ncommission sweep, B2 parlor, 6 decks, alpha 0..1/10 ({n} pieces): {sweep_time:.2f} s CPU "
        f"(one single-alpha solve of the same game: {one:.2f} s; ratio {sweep_time / one:.0f}x)"
    )
    assert sweep_time < 10


def test_uniqueness_over_every_piece() -> None:
    """Uniqueness over whole pieces (solver.chemin.commission.interval): B2 and B3 parlor, 6 and 8 decks,
    against the sweep that found the pieces, in the same run."""
    for information, decks in ((2, 6), (3, 6), (3, 8)):
        shoe = Shoe.decks(decks)
        parametric._SWEEPS.clear()
        cases._CACHE.clear()
        sweep_time = cpu(lambda: commission_sweep(shoe, information, "parlor"))  # noqa: B023 - called at once
        sweep = commission_sweep(shoe, information, "parlor")
        inside_time = cpu(lambda: sweep.inside)  # noqa: B023 - called at once
        analyses = sum(len(i.samples) for i in sweep.inside)
        print(
            f"\nuniqueness over every piece, B{information} parlor, {decks} decks ({len(sweep.pieces)} pieces, "
            f"{analyses} case analyses): {inside_time:.2f} s CPU (the sweep itself: {sweep_time:.2f} s; "
            f"ratio {inside_time / sweep_time:.1f}x)"
        )
        assert all(i.unique for i in sweep.inside)
        assert inside_time < 60
