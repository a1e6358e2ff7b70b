"""Speed of the exact solvers, against simple references measured in the same run (every assertion a
ratio of two times taken in the same run, never a rate: a loaded machine slows both).

Run: python3 -m pytest tests/benchmarks/bench_exact.py -s -p no:cacheprovider
(outside the default test run; figures are recorded in docs/benchmarks.md). ``BENCH_SHOES`` and
``BENCH_DASK_SHOES`` set the sizes of the batches (default 10,000 and 10^6).
"""

from __future__ import annotations

import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from solver.cards import Shoe
from solver.chemin.game import build_game
from solver.chemin.solve import solve
from solver.punto import catalogue, punto_banco


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
    assert slow / fast >= 100  # recorded 261x (docs/benchmarks.md)


# -- batches of depleted shoes (baccarat punto --shoes) -----------------------------------------------------

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SHOES = int(os.environ.get("BENCH_SHOES", "10000"))
DASK_SHOES = int(os.environ.get("BENCH_DASK_SHOES", str(10**6)))


def depleted_lines(n: int, decks: int, seed: int = 2026) -> Iterator[str]:
    """``n`` depleted shoes as a tracker writes them: ``decks`` decks less the first cards of a shuffled
    8-deck shoe (0 to 402 of them, uniformly: the shoe up to its cut card), by rank and suit."""
    rng = random.Random(seed)
    cards = [f"{r}{s}" for r in RANKS for s in "SHDC" for _ in range(8)]
    for _ in range(n):
        rng.shuffle(cards)
        k = rng.randrange(0, 403)
        yield f"--decks {decks}" + (f" --remove {','.join(cards[:k])}" if k else "")


def kernel_per_shoe() -> float:
    """The reference: CPU time of the compiled counting kernel's exact law and every catalogue bet of one
    depleted 8-deck shoe, called from Python (bench_bets.py's measure; 32 us in issue 27)."""
    import numpy as np

    from solver.count import dealer, denselaw
    from solver.count.fastlaw import fast_law

    bets = catalogue()
    law = fast_law(tuple(b for b in bets if not b.first_cards), winner=True)
    shoe = Shoe.decks(8).remove(["5S", "5H", "KD", "9C", "2S", "QH", "7D", "AC", "3S", "8H", "8D", "6C"])
    dealer.compiled()
    moments = dealer.FIRST_CARD_MOMENTS
    kernel = denselaw.compiled()
    counts = np.array(shoe.values, dtype=np.int64)
    suits = np.array(shoe.suits, dtype=np.int64)
    t = np.arange(52)
    rank_of, suit_of, groups = (t // 4).astype(np.int64), (t % 4).astype(np.int64), np.array([13, 4], dtype=np.int64)
    args = (counts, shoe.size, *law.dense_arguments(), law.residual, law.multiplier, law.scale, *law.dense_scratch())
    mom = np.zeros((4, 4), np.int64)

    def once() -> None:
        kernel(*args)
        moments(suits, rank_of, suit_of, groups, mom)

    once()
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        for _ in range(2000):
            once()
        best = min(best, (time.process_time() - t0) / 2000)
    return best


def one_shoe_route_per_shoe(lines: list[str]) -> float:
    """The second reference: CPU time per shoe of the one-shoe route on the same lines, in this process and
    warm (numpy loaded, the deal tree cached): each line read by the options' parser, priced by
    :func:`solver.punto.punto_banco` (Fractions) and written by ``punto_dict`` and ``json.dumps``, as
    ``punto --shoes`` did before the batch kernel (issue 27: 1.5 to 2.3 ms a shoe). Least of three."""
    import json

    from solver.cli.shoe_lines import slow_shoe
    from solver.report.punto import punto_dict

    bets = catalogue()

    def once() -> None:
        for n, text in enumerate(lines, start=1):
            r = punto_banco(slow_shoe(text), "1/20", bets, skip_unsettled=True)
            json.dumps({"line": n, "input": text, **punto_dict(r)})

    once()
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        once()
        best = min(best, time.process_time() - t)
    return best / len(lines)


def process_cpu(argv: list[str], stdin_path: Path | None = None) -> float:
    """CPU time (user + system) of a child process, its output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdin_path or os.devnull, "rb") as stdin:
        subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def test_batch_of_depleted_shoes(tmp_path: Path) -> None:
    """A whole ``baccarat punto --shoes FILE`` process on 10,000 depleted 8-deck shoes against the compiled
    kernel on one shoe (same run): at least 5,000 shoes per CPU second where the kernel takes its 32 us
    (issue 27), that is at most 6.25 kernel calls of CPU per shoe; the same removals from 100 and 1,000
    decks (the two-channel route past 2^53, numbers past 2^63) at most 1.2 times the CPU per shoe. CPU
    time, least of three runs each, interleaved; a first run fills the caches. The one-shoe route on the
    first 200 lines (in-process, so without the batch's start-up) is printed beside, with the ratio:
    the batch must be at least 10 times cheaper a shoe."""
    files = {}
    for decks in (8, 100, 1000):
        files[decks] = tmp_path / f"shoes-{decks}.txt"
        files[decks].write_text("\n".join(depleted_lines(SHOES, decks)) + "\n")
    argv = [sys.executable, "-m", "solver.cli", "punto", "--shoes"]
    for path in files.values():
        process_cpu([*argv, str(path), "--workers", "1"])  # compile (the batch route) or load the kernels, fill the disk cache
    kernel = kernel_per_shoe()
    single = one_shoe_route_per_shoe(list(depleted_lines(200, 8)))
    cpu = dict.fromkeys(files, float("inf"))
    for _ in range(3):
        for d, p in files.items():
            cpu[d] = min(cpu[d], process_cpu([*argv, str(p)]))
    per = {d: c / SHOES for d, c in cpu.items()}
    print(
        f"\nbaccarat punto --shoes, {SHOES:,} depleted shoes, CPU of the whole process: "
        + "; ".join(f"{d} decks {1 / p:,.0f} shoes/s ({p * 1e6:.1f} us a shoe)" for d, p in per.items())
        + f". The compiled kernel on one shoe: {kernel * 1e6:.1f} us; a shoe costs {per[8] / kernel:.2f} kernel calls "
        f"(target at most 6.25); 100 and 1,000 decks cost {per[100] / per[8]:.2f} and {per[1000] / per[8]:.2f} times "
        "8 decks a shoe (target at most 1.2). "
        f"The one-shoe route (punto_banco, Fractions, json.dumps), in-process: {1 / single:,.0f} shoes/s "
        f"({single * 1e6:.0f} us a shoe); the batch {single / per[8]:.1f} times cheaper a shoe on 8 decks"
    )
    assert per[8] * 10 <= single
    assert per[8] <= 6.25 * kernel
    assert per[100] <= 1.2 * per[8] and per[1000] <= 1.2 * per[8]


def test_the_writer_is_no_slower_than_the_pricing() -> None:
    """In-process, the same chunks of 1,024 depleted shoes: writing their JSON lines (the compiled writer
    and what feeds it) against pricing the same chunk with the batch kernel (eight shoes a vector; issue
    27: "the JSON writer no slower than the pricing"), and, printed beside, against pricing one shoe
    with the one-shoe kernel (several times slower). Least of seven, interleaved."""
    import argparse
    import contextlib
    from fractions import Fraction

    from solver.cli.shoe_lines import read_chunk
    from solver.cli.shoes import Pricer, Writer, price_chunk, task_of
    from solver.rules.tableau import PUNTO_BANCO

    bets = catalogue()
    args = argparse.Namespace(digits=None, breakdown=False, command_line="baccarat punto --shoes shoes.txt")
    kernel = kernel_per_shoe()
    ratios = {}
    for decks in (8, 100, 1000):
        chunk, failure = read_chunk(list(enumerate(depleted_lines(1024, decks), start=1)), "shoes.txt")
        assert failure is None
        writer = Writer(args, bets, Fraction(1, 20), PUNTO_BANCO)
        pricer = Pricer(writer.blaw, writer.commission)
        task = task_of(chunk, writer.blaw)
        priced = price_chunk(pricer, task)
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            writer.write(chunk, priced)
            price = write = float("inf")
            for _ in range(7):
                t = time.process_time()
                priced = price_chunk(pricer, task)
                price = min(price, time.process_time() - t)
                t = time.process_time()
                writer.write(chunk, priced)
                sink.flush()
                write = min(write, time.process_time() - t)
        print(
            f"\n{decks} decks, 1,024 shoes: writing {write / 1024 * 1e6:.1f} us a shoe; the compiled kernel on one shoe "
            f"{kernel * 1e6:.1f} us ({write / 1024 / kernel:.2f} x); the batch kernel {price / 1024 * 1e6:.1f} us a shoe "
            f"({write / price:.2f} x)"
        )
        ratios[decks] = write / price
    assert all(r <= 1 for r in ratios.values()), ratios  # every shoe size measured and printed first


def test_a_million_shoes_on_a_dask_cluster(tmp_path: Path) -> None:
    """10^6 depleted 8-deck shoes (``BENCH_DASK_SHOES``) on a two-worker Dask cluster started here, against
    one process: the same lines, in the same order (compared by digest, the command each line records
    set aside). Wall clock and CPU printed; nothing asserted about speed.

    The shoes are written to a file first and fed through a pipe by a process of their own (a feeder
    thread that made them in this process while it read the answers held the GIL from the reader: one
    process took 27 s for 200,000 shoes, now 13). A warm-up run of a few shoes compiles the kernels
    first: after any change to the package's code numba compiles them again (its cache is keyed by the
    code's digest), some 100 s that the first timed run was charged."""
    import hashlib

    distributed = pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    shoes = tmp_path / "shoes.txt"
    with shoes.open("w") as f:
        for line in depleted_lines(DASK_SHOES, 8, seed=7):
            f.write(line + "\n")
    copy = "import shutil, sys; shutil.copyfileobj(open(sys.argv[1], 'rb'), sys.stdout.buffer)"

    def run(extra: list[str]) -> tuple[str, int, float]:
        start = time.perf_counter()
        feeder = subprocess.Popen([sys.executable, "-c", copy, str(shoes)], stdout=subprocess.PIPE)
        p = subprocess.Popen(
            [sys.executable, "-m", "solver.cli", "punto", "--shoes", "-", *extra],
            stdin=feeder.stdout,
            stdout=subprocess.PIPE,
        )
        assert feeder.stdout is not None and p.stdout is not None
        feeder.stdout.close()  # the command holds the pipe's reading end now
        digest = hashlib.sha256()
        lines = 0
        for line in p.stdout:
            head, found, rest = line.partition(b" --scheduler ")
            if found:  # the command the line records
                line = head + b'"' + rest.partition(b'"')[2]
            digest.update(line)
            lines += 1
        assert p.wait() == 0 and feeder.wait() == 0
        return digest.hexdigest(), lines, time.perf_counter() - start

    few = tmp_path / "few.txt"
    few.write_text("".join(line + "\n" for line in depleted_lines(100, 8, seed=7)))
    subprocess.run([sys.executable, "-m", "solver.cli", "punto", "--shoes", str(few)], stdout=subprocess.DEVNULL, check=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        remote = run(["--scheduler", cluster.scheduler_address])
    local = run([])
    print(
        f"\n{DASK_SHOES:,} depleted shoes: one process {local[2]:.0f} s, a two-worker Dask cluster on this machine "
        f"{remote[2]:.0f} s (wall clock); the same {local[1]:,} lines: {local[0] == remote[0]}"
    )
    assert local[1] == remote[1] == DASK_SHOES
    assert local[0] == remote[0]


def test_chemin_b3_parlor_six_decks() -> None:
    shoe = Shoe.decks(6)
    solve(build_game(Shoe.decks(5), 3, "parlor"))  # warm: deal tree, grouping, scipy import
    dt = best_of(lambda: solve(build_game(shoe, 3, "parlor")), 5)
    ref = best_of(lambda: solve(build_game(shoe, 1, "casino")), 5)
    print(
        f"\nchemin de fer B3 parlor, 6 decks, build + solve + certify: {dt * 1e3:.0f} ms "
        f"(the 2 x 4 casino game B1 on the same shoe: {ref * 1e3:.1f} ms; ratio {dt / ref:.0f}x)"
    )
    assert dt / ref <= 400  # recorded 115x (docs/benchmarks.md)


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
    t = time.process_time()
    solve(build_game(Shoe.decks(6), 3, "parlor"))
    one = time.process_time() - t
    print(
        f"\nchemin de fer, d = 1..8 and inf, information 1-3, casino and parlor, alpha 0 and 1/20: "
        f"{n} games certified in {dt:.2f} s CPU (the nine information-3 parlor games with commission decide "
        f"uniqueness by a case analysis); one B3 parlor game on 6 decks {one:.3f} s CPU ({dt / one:.0f}x)"
    )
    assert dt / one <= 150  # recorded 48x (docs/benchmarks.md)
