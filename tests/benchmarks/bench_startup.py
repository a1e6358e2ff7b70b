"""Whole commands, as a user runs them: CPU seconds and peak memory, against ``python3 -c "import numpy"``
measured in the same run.

Run: ``python3 -m pytest tests/benchmarks/bench_startup.py -s -p no:cacheprovider`` (outside the default
test run; figures are recorded in docs/benchmarks.md). Each command runs in a fresh process, several
times, alternating with the reference; the figure is the median of the CPU time (user + system) of the
process and every worker it started, so a loaded machine's waiting does not count. Peak memory is
the largest resident set of any one of those processes. The package runs from this checkout (PYTHONPATH),
with its bytecode compiled as an installed package has it (``PYTHONDONTWRITEBYTECODE`` is dropped for
the children and each command runs once before it is measured).

With ``BENCH_BASELINE=/path/to/an/older/checkout`` each round also runs the same command from that
checkout, and the ratio of the two (median over rounds) is printed: on a shared, loaded machine the
absolute CPU seconds drift from run to run, the ratio much less.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPEAT = 5
PEER_1E8_CPU = 24.9  # the Rust peer, 10^8 coups, CPU seconds on this machine (issue 17)

# Runs a command as a child and prints the CPU and the peak resident set of it and its children.
WRAP = """import resource, subprocess, sys, json
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps([u.ru_utime + u.ru_stime, u.ru_maxrss / 1024]))"""


BASELINE = os.environ.get("BENCH_BASELINE")


def measure(args: list[str], root: Path | str = ROOT) -> tuple[float, float]:
    """CPU seconds and peak MiB of ``python3 ARGS`` in a fresh process (cwd outside the checkout)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(root)
    with tempfile.TemporaryDirectory() as cwd:
        out = subprocess.run(
            [sys.executable, "-c", WRAP, sys.executable, *args], capture_output=True, text=True, check=True, env=env, cwd=cwd
        ).stdout
    cpu, peak = json.loads(out)
    return cpu, peak


BASE: dict[str, str] = {}  # the baseline's figures, by command, for the report


def paired(
    args: list[str], repeat: int = REPEAT, baseline: bool = True, baseline_args: list[str] | None = None
) -> tuple[float, float, float]:
    """Median CPU of the command, median CPU of importing numpy (alternating), and the peak MiB; with
    ``baseline`` (and ``BENCH_BASELINE`` set), the baseline's too (a command it does not have: False),
    run with ``baseline_args`` where given (say, to write its files elsewhere)."""
    cmd, ref, peaks, base, base_peaks = [], [], [], [], []
    base_args = baseline_args or args
    measure(args)  # writes the bytecode; not counted
    if BASELINE:
        measure(base_args, BASELINE)
    for _ in range(repeat):
        c, p = measure(args)
        r, _ = measure(["-c", "import numpy"])
        cmd.append(c)
        ref.append(r)
        peaks.append(p)
        if BASELINE and baseline:
            b, bp = measure(base_args, BASELINE)
            base.append(b / c)
            base_peaks.append(bp)
    if BASELINE and baseline:
        BASE[" ".join(args)] = (
            f"; the baseline {BASELINE} took {statistics.median(base):.2f} x this CPU "
            f"(median of paired rounds), peak {max(base_peaks):.0f} MiB"
        )
    return statistics.median(cmd), statistics.median(ref), max(peaks)


def report(name: str, cpu: float, numpy_cpu: float, peak: float, target: str) -> None:
    base = next(iter(BASE.values()), "") if BASE else ""
    BASE.clear()
    print(
        f"\n{name}: {cpu:.2f} s CPU ({cpu / numpy_cpu:.2f} x importing numpy, {numpy_cpu:.2f} s, same run); "
        f"peak {peak:.0f} MiB; target {target}{base}"
    )


def test_simulate_1e6() -> None:
    cpu, ref, peak = paired(["-m", "solver.cli", "simulate", "--coups", "1e6"])
    report("baccarat simulate --coups 1e6", cpu, ref, peak, "<= 0.25 s or <= 2 x numpy; <= 80 MiB")
    assert cpu <= max(0.25, 2 * ref)
    assert peak <= 80


def test_simulate_1e7() -> None:
    cpu, ref, peak = paired(["-m", "solver.cli", "simulate", "--coups", "1e7"], 3)
    report("baccarat simulate --coups 1e7", cpu, ref, peak, "<= 80 MiB")
    assert peak <= 80


def test_simulate_1e8() -> None:
    cpu, ref, peak = paired(["-m", "solver.cli", "simulate", "--coups", "1e8"], 3)
    report(
        "baccarat simulate --coups 1e8",
        cpu,
        ref,
        peak,
        f"<= {PEER_1E8_CPU / 4:.1f} s (4 x faster than the peer's {PEER_1E8_CPU} s); <= 80 MiB",
    )
    assert cpu <= PEER_1E8_CPU / 4
    assert peak <= 80


def test_certificates() -> None:
    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as elsewhere:
        cpu, ref, peak = paired(
            ["-m", "solver.chemin.certificate", d], 3, baseline_args=["-m", "solver.chemin.certificate", elsewhere]
        )
        written = sorted(Path(d).iterdir())
        committed = ROOT / "proofs" / "certificates"
        # The same 300 files (certificates and their statements), byte for byte, as those committed.
        assert len(written) == 300
        assert all(f.read_bytes() == (committed / f.name).read_bytes() for f in written)
    report(
        "python3 -m solver.chemin.certificate DIR (the 100 standard certificates, byte for byte the committed ones)",
        cpu,
        ref,
        peak,
        "<= 1.5 s",
    )


def test_report() -> None:
    cpu, ref, peak = paired(["-m", "solver.cli", "report"], 5)
    report("baccarat report", cpu, ref, peak, "<= 1 s")


def test_report_without_banque() -> None:
    cpu, ref, peak = paired(["-m", "solver.cli", "report", "--banque", "off"], 3, baseline=False)
    report("baccarat report --banque off", cpu, ref, peak, "(the report less its banque section)")


def test_report_banque_solved() -> None:
    cpu, ref, peak = paired(["-m", "solver.cli", "report", "--banque", "solve"], 3, baseline=False)
    report("baccarat report --banque solve", cpu, ref, peak, "(opt-in: banque solved now, not read from certificates)")
