"""Speed of ``baccarat parsheet`` on a user's bet file: whole processes, CPU seconds (issue 30).

Target: a par sheet (PDF, CSV and JSON) for a user's bet file in one command, in under a minute of
CPU, without the simulation check and with it at 10^8 coups. Times are the CPU seconds of the child
process and everything it started and waited for (worker processes, pdflatex): user + system, which a
loaded machine does not inflate as it does wall time. The references, measured in the same run, are
starting the command at all (``baccarat --version``) and pricing the same bet exactly
(``baccarat punto --bet FILE``).

Run: python3 -m pytest tests/benchmarks/bench_parsheet.py -s -p no:cacheprovider
(outside the default test run; figures are recorded in docs/benchmarks.md).
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TARGET_CPU = 60.0

BET_FILE = """\
[[bet]]
name = "tie_on_7"
description = "Tie on a total of 7, pays 45 to 1"

[[bet.tier]]
pays = 45
when = { winner = "tie", banker_total = 7 }
"""


def run(*args: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one whole ``baccarat`` process and its children."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "solver.cli", *args], check=True, env=env, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="the PDF needs pdflatex")
def test_parsheet_of_a_bet_file(tmp_path: Path) -> None:
    bet = tmp_path / "my_bet.toml"
    bet.write_text(BET_FILE)
    out = str(tmp_path / "sheets")
    version = min(run("--version")[0] for _ in range(3))
    punto = min(run("punto", "--bet", str(bet))[0] for _ in range(3))
    print(f"\nreferences: baccarat --version {version:.2f} s CPU; baccarat punto --bet FILE {punto:.2f} s CPU")
    cases = [
        ("exact sheet, PDF + CSV + JSON (--no-simulate)", ("--no-simulate",)),
        ("with the dealt game and the simulation check at 10^8 coups (--simulate 1e8)", ("--simulate", "1e8")),
    ]
    for label, extra in cases:
        cpu, wall = run("parsheet", "--bet", str(bet), "--out", out, "--force", *extra)
        print(f"{label}: {cpu:.2f} s CPU ({wall:.2f} s wall), {cpu / version:.1f}x --version, {cpu / punto:.1f}x punto --bet")
        assert cpu < TARGET_CPU, f"{label}: {cpu:.1f} s CPU, over the {TARGET_CPU:g} s target"
