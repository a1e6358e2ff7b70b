"""Run a command and sample its resident memory every second: the parent's, and with its children.

Run: ``python3 tests/benchmarks/peak_memory.py baccarat table --sessions 3e5 --decks 1 --workers 2``.
Prints the memory (MB, from ``VmRSS`` in ``/proc/PID/status``; Linux only) at 10 %, 25 %, 50 %, 75 % and
100 % of the run's samples, parent / parent and children, and the peaks. Record results in
docs/benchmarks.md.
"""

from __future__ import annotations

import subprocess
import sys
import time


def rss_mb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def main(argv: list[str]) -> None:
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    began, samples = time.time(), []
    while proc.poll() is None:
        parent = rss_mb(proc.pid)
        samples.append((parent, parent + sum(rss_mb(c) for c in children(proc.pid))))
        time.sleep(1)
    if not samples:
        print(f"exit {proc.returncode}: ended before the first sample")
        return
    at = [samples[min(len(samples) - 1, int(f * len(samples)))] for f in (0.1, 0.25, 0.5, 0.75, 0.999)]
    print(
        f"exit {proc.returncode}, {time.time() - began:.0f} s; MB at 10%, 25%, 50%, 75%, 100% (parent/with children): "
        + " ".join(f"{p}/{t}" for p, t in at)
        + f"; peak parent {max(p for p, _ in samples)}, peak with children {max(t for _, t in samples)}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
