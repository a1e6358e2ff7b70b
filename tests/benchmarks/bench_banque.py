"""Speed of ``baccarat banque``: whole processes, against a simple reference measured in the same run.

Targets (issue 12): 6 decks, one θ, all three concepts, certified, in at most 2 s for the whole
process; a sweep of 19 values of θ in at most 10 s. The reference is the same machine's cost of
starting the command at all (``baccarat --version``, whole process). Times are CPU seconds of the child
process (user + system), which a loaded machine does not inflate as it does wall-clock time; both are
printed.

Run: python3 -m pytest tests/benchmarks/bench_banque.py -s -p no:cacheprovider
(outside the default test run; figures are recorded in docs/benchmarks.md).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one whole ``baccarat`` process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "solver.cli", *args], check=True, env=env, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def best(*args: str, repeat: int = 3) -> tuple[float, float]:
    runs = [run(*args) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


def test_banque_speed() -> None:
    ref_cpu, ref_wall = best("--version")
    cases = [
        ("6 decks, theta 1/2, all concepts (defaults: blind, casino)", ("banque",), 2.0),
        ("6 decks, theta 1/2, all concepts, parlor", ("banque", "--freedom", "parlor"), None),
        ("6 decks, theta 1/2, all concepts, sees-first", ("banque", "--second-player", "sees-first"), None),
        ("6 decks, 19 theta 1/20..19/20, all concepts", ("banque", "--theta", "1/20..19/20/18"), 10.0),
        (
            "infinite deck, 19 theta, all concepts, parlor",
            ("banque", "--decks", "inf", "--freedom", "parlor", "--theta", "1/20..19/20/18"),
            None,
        ),
    ]
    print(f"\nreference: baccarat --version, whole process: {ref_cpu:.2f} s CPU ({ref_wall:.2f} s wall)")
    for label, args, target in cases:
        cpu, wall = best(*args, repeat=3 if target == 2.0 else 1)
        verdict = "" if target is None else ("  within target" if cpu <= target else f"  OVER the {target:g} s target")
        print(f"{label}: {cpu:.2f} s CPU ({wall:.2f} s wall), {cpu / ref_cpu:.1f}x the reference{verdict}")
