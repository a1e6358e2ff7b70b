"""Gambit's solvers on our exported chemin de fer games, against our own solver on the same games.

For every zero-sum model (dealing A and B on 6 decks, information 1–3, casino and parlor): the export
to .efg, our exact solve and certification, and, each in a child process under a CPU-time limit,
Gambit's exact sequence-form LP (``lp_solve(rational=True)``) and its floating-point one. Where Gambit's
exact LP finishes, its value must be ours exactly; where it does not, the line says how far it got (not
finished within the limit; its float LP's time and error). Times are CPU seconds (the machine is shared).

Run: python3 -m pytest tests/benchmarks/bench_gambit.py -s -p no:cacheprovider
(``GAMBIT_LIMIT=SECONDS`` sets the limit, default 600; figures are recorded in docs/benchmarks.md).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from solver.cards import Shoe
from solver.chemin.gambit import game_tree
from solver.chemin.game import build_game
from solver.chemin.solve import solve

pytest.importorskip("pygambit", minversion="17.0.0b2", reason="Gambit's Python package is not installed")

LIMIT = float(os.environ.get("GAMBIT_LIMIT", "600"))
CHILD = """
import sys, time, pygambit as g
game = g.read_efg(sys.argv[1])
t = time.process_time()
eq = g.nash.lp_solve(game, rational=sys.argv[2] == "rational").equilibrium
print(time.process_time() - t, eq.payoffs["Banker"])
"""


def gambit(path: Path, arithmetic: str, limit: float) -> tuple[str | None, float]:
    """Gambit's LP in a child process: (the banker's value as printed, or None if stopped at the CPU limit;
    the LP's CPU seconds, or the child's whole CPU time where it was stopped)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cap = f"ulimit -t {int(limit)}; exec {sys.executable} -c '{CHILD}' {path} {arithmetic}"
    p = subprocess.run(["bash", "-c", cap], capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode == 0:
        cpu, value = p.stdout.split()
        return value, float(cpu)
    return None, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


@pytest.mark.parametrize("dealing", ["A", "B"])
@pytest.mark.parametrize("info", [1, 2, 3])
@pytest.mark.parametrize("freedom", ["casino", "parlor"])
def test_gambit_against_ours(dealing: str, info: int, freedom: str, tmp_path: Path) -> None:
    shoe = Shoe.infinite() if dealing == "A" else Shoe.decks(6)
    build_game(shoe, info, freedom)  # warm: the shoe-independent deal tree is built once per tableau
    t = time.process_time()
    s = solve(build_game(shoe, info, freedom))
    ours = time.process_time() - t
    t = time.process_time()
    tree = game_tree(s.game)
    path = tmp_path / "game.efg"
    path.write_text(tree.efg())
    export = time.process_time() - t
    exact, exact_cpu = gambit(path, "rational", LIMIT)
    floating, float_cpu = gambit(path, "float", LIMIT)
    line = f"{s.game.label} ({tree.nodes} nodes): ours {ours:.3f} s, export {export:.2f} s; Gambit exact LP "
    if exact is not None:
        assert Fraction(exact) == s.value
        line += f"{exact_cpu:.2f} s ({exact_cpu / max(ours, 1e-3):.0f}x ours), the same value"
    else:
        line += f"not finished in {exact_cpu:.0f} s"
    if floating is not None:
        line += f"; float LP {float_cpu:.2f} s, error {abs(float(floating) - float(s.value)):.1e}"
    else:
        line += f"; float LP not finished in {float_cpu:.0f} s"
    print("\n" + line)
    if exact is not None:
        assert exact_cpu > ours  # an LP over the game tree is slower than our additive solve
