"""The executor: workers started safely, a shared value sent once to each worker, batches of chunks, results
in input order, and a Dask cluster left without workers failing after its stated wait."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from solver.errors import InputError, RunError
from solver.simulate import executor, tasks
from solver.simulate.executor import in_order, map_chunks, map_in_order, map_shared
from solver.simulate.tasks import IDLE, Batches, DaskScheduler, Idle

ROOT = Path(__file__).resolve().parents[1]


class Counted:
    """A shared value that counts, in each process, how many times it was unpickled."""

    loads = 0

    def __init__(self, payload: int) -> None:
        self.payload = payload

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (_counted, (self.payload,))


def _counted(payload: int) -> Counted:
    Counted.loads += 1
    return Counted(payload)


def where(shared: Counted, task: int) -> tuple[int, int, int, int]:
    """A task: its value, the process it ran in, the shared object it saw and how often it was unpickled."""
    return task * shared.payload, os.getpid(), id(shared), Counted.loads


def square(x: int) -> int:
    return x * x


def slow_square(x: int) -> int:
    time.sleep(0.002)
    return x * x


@pytest.fixture
def threaded() -> object:
    """This process running a second thread: its workers must not be forked from it."""
    stop = threading.Event()
    t = threading.Thread(target=stop.wait, daemon=True)
    t.start()
    yield t
    stop.set()
    t.join()


def parent_threads(x: int) -> tuple[int, int]:
    """A task: its value, and how many threads the process that forked this worker runs."""
    return x * x, len(os.listdir(f"/proc/{os.getppid()}/task"))


def test_a_process_with_threads_starts_workers_from_a_forkserver(threaded: object) -> None:
    """Issue 24: workers were forked from a multi-threaded process (Python 3.12 warns: "use of fork() may
    lead to deadlocks in the child"). With a thread running, no fork from here: the workers' parent is a
    forkserver that runs one thread (its BLAS held to one), and warnings as errors would say otherwise."""
    assert executor.threads() > 1
    assert executor.start_context(["solver.simulate.run"]).get_start_method() == "forkserver"
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        out = dict(map_chunks(parent_threads, range(20), workers=2))
    assert {i: v for i, (v, _) in out.items()} == {i: i * i for i in range(20)}
    assert {n for _, n in out.values()} == {1}


def test_a_single_threaded_process_forks_its_workers() -> None:
    """The command line holds numpy's BLAS to one thread before it loads: the process then runs one
    thread, and forking it is safe (and the cheapest start)."""
    code = (
        "from solver.simulate.executor import keep_one_thread, start_context, threads\n"
        "keep_one_thread()\n"
        "import numpy\n"
        "print(threads(), start_context([]).get_start_method())\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in executor.ONE_THREAD}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    assert run.stdout.split() == ["1", "fork"], run.stdout


FREED_IN_THE_HEAP = """
from solver.simulate.executor import release_free_memory
def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 // 2**20
blocks = [bytearray(100_000) for _ in range(2000)]  # 200 MB in the heap (each below mmap's threshold)
last = blocks[-1]  # the heap's top stays in use: only a trim can give the rest back
del blocks
before = rss_mb()
release_free_memory()
print(before, rss_mb())
"""


@pytest.mark.skipif(sys.platform != "linux", reason="glibc's malloc_trim; elsewhere the release does nothing")
def test_the_heaps_free_pages_are_released_before_the_workers_fork() -> None:
    """What the process freed but the heap still maps (a worker would copy each such page it writes):
    released before the fork, as :func:`solver.simulate.executor.release_free_memory` says."""
    run = subprocess.run([sys.executable, "-c", FREED_IN_THE_HEAP], capture_output=True, text=True, check=True, cwd=ROOT)
    before, after = map(int, run.stdout.split())
    assert before >= 150 and after <= before - 150, run.stdout


def test_a_source_that_starts_a_thread_gets_workers_from_a_forkserver() -> None:
    """``punto --shoes -`` with --workers reads a live stream in a thread started by its first task: the
    workers were forked after it began (at the first submit), from a process of two threads, and hung
    before they could run anything. The first tasks are now taken before the workers start."""
    code = (
        "import threading\n"
        "from solver.simulate.executor import keep_one_thread, map_chunks, threads\n"
        "keep_one_thread()\n"
        "from tests.test_simulate_executor import parent_threads\n"
        "def source():\n"
        "    threading.Thread(target=threading.Event().wait, daemon=True).start()\n"
        "    yield from range(6)\n"
        "assert threads() == 1\n"
        "print(sorted(set(n for _, n in dict(map_chunks(parent_threads, source(), workers=2)).values())))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in executor.ONE_THREAD}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert run.returncode == 0 and run.stdout.split() == ["[1]"], run.stdout + run.stderr


def test_the_shared_value_reaches_each_worker_once(threaded: object) -> None:
    """The run's shared value is unpickled once in each worker and every task there reads that object."""
    seen = dict(map_shared(where, Counted(3), range(40), workers=2))
    assert [seen[i][0] for i in range(40)] == [3 * i for i in range(40)]
    by_process: dict[int, set[tuple[int, int]]] = {}
    for _, pid, ident, loads in seen.values():
        by_process.setdefault(pid, set()).add((ident, loads))
    assert os.getpid() not in by_process and 1 <= len(by_process) <= 2
    assert all(len(objects) == 1 and next(iter(objects))[1] == 1 for objects in by_process.values()), by_process


def test_in_this_process_the_shared_value_is_not_copied() -> None:
    shared = Counted(2)
    seen = dict(map_shared(where, shared, range(5), workers=1))
    assert {s[2] for s in seen.values()} == {id(shared)} and {s[1] for s in seen.values()} == {os.getpid()}


def test_batches_hold_about_a_tenth_of_a_second_of_work() -> None:
    b = Batches()
    assert b.size() == 1  # nothing timed yet
    b.record(0.040, 2)  # 20 ms a task
    assert b.size() == 5
    b.record(0.0, 1000)  # very short tasks: at most MAX_BATCH
    assert b.size() == tasks.MAX_BATCH
    c = Batches()
    c.record(3.0, 1)  # long tasks go one at a time
    assert c.size() == 1


def test_batches_for_a_dask_worker_hold_more_work() -> None:
    """A Dask task costs its worker some milliseconds of CPU besides the work: half a second of work a task."""
    b = Batches(tasks.DASK_BATCH_SECONDS)
    b.record(0.040, 2)  # 20 ms a task
    assert b.size() == 25


def test_batched_tasks_come_back_each_with_its_index() -> None:
    out = dict(map_chunks(slow_square, range(300), workers=2))
    assert out == {i: i * i for i in range(300)}


def test_map_in_order_gives_the_results_in_the_items_order() -> None:
    done: list[int] = []
    assert map_in_order(slow_square, list(range(30)), workers=2, progress=done.append) == [i * i for i in range(30)]
    assert done == list(range(1, 31))
    assert map_in_order(square, [], workers=2) == []


def waiting_source(received: list[tuple[int, int]]) -> Iterator[int | Idle]:
    """Tasks as a live stream gives them: 3, then nothing (IDLE) until the answer to 3 is received, then 4.
    The consumer and this source run in one thread: an executor that kept asking for the next task before
    handing back the answer in flight would never see 4 (the assertion stops it)."""
    yield 3
    deadline = time.monotonic() + 120
    while not received:
        assert time.monotonic() < deadline, "the answer in flight was held back while the source was idle"
        time.sleep(0.01)
        yield IDLE
    yield 4


@pytest.mark.parametrize("workers", [1, 2])
def test_an_idle_source_does_not_hold_back_the_results_in_flight(workers: int) -> None:
    """``baccarat punto --shoes -`` with --workers on a live tracker's stream (issue 28): each answer comes
    before the next line is written; IDLE takes no index."""
    received: list[tuple[int, int]] = []
    for item in map_chunks(square, waiting_source(received), workers=workers):
        received.append(item)
    assert received == [(0, 9), (1, 16)]


def test_an_idle_source_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    received: list[tuple[int, int]] = []
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster:
        for item in map_chunks(square, waiting_source(received), scheduler=cluster.scheduler_address):
            received.append(item)
    assert received == [(0, 9), (1, 16)]


def test_results_in_order_as_soon_as_those_before_them_are_in() -> None:
    read: list[int] = []

    def arrivals() -> Iterator[tuple[int, str]]:
        for i, r in [(2, "c"), (0, "a"), (1, "b"), (3, "d")]:
            read.append(i)
            yield i, r

    out = in_order(arrivals())
    assert next(out) == "a" and read == [2, 0]  # before (1, "b") is read
    assert next(out) == "b" and next(out) == "c" and read == [2, 0, 1]
    assert list(out) == ["d"]


def test_workers_below_one_are_refused() -> None:
    with pytest.raises(InputError, match="at least 1"):
        list(map_chunks(square, range(3), workers=0))


def test_a_bad_worker_wait_is_refused() -> None:
    with pytest.raises(InputError, match="--worker-wait"):
        DaskScheduler("tcp://127.0.0.1:1", -1)


def test_same_shared_value_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster:
        seen = dict(map_shared(where, Counted(5), range(30), scheduler=cluster.scheduler_address))
    assert [seen[i][0] for i in range(30)] == [5 * i for i in range(30)]
    assert len({s[2] for s in seen.values()}) == 1  # one object, installed once (threads of this process)


def half_a_megabyte(shared: Counted, task: tuple[int, bytes]) -> int:
    return task[0] * shared.payload + len(task[1])


def test_large_tasks_go_to_a_dask_cluster_in_parts() -> None:
    """Fast tasks make batches of up to MAX_BATCH; tasks of half a megabyte (a chunk of ``punto --shoes``
    is about 0.3 MB) would make a Dask task of 32 MB, which travels through the scheduler and draws its
    "Sending large graph" warning: a batch goes in parts of at most MAX_TASK_BYTES, the results the same."""
    distributed = pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    from solver.simulate import cluster

    items = [(i, bytes(2**19)) for i in range(90)]
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as c:
        with warnings.catch_warnings():
            warnings.simplefilter("error", UserWarning)
            out = dict(map_shared(half_a_megabyte, Counted(3), items, scheduler=c.scheduler_address))
    assert out == {i: 3 * i + 2**19 for i in range(90)}
    assert [[i for i, _ in p] for p in cluster.parts(list(enumerate(items[:9])))] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]


def test_a_cluster_without_workers_fails_after_the_stated_wait(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27: with every Dask worker gone the command waited silently, forever."""
    distributed = pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster:
        start = time.monotonic()
        with pytest.raises(RunError, match=r"no Dask worker is left .* within 2 s .*--worker-wait") as e:
            list(map_chunks(square, range(5), scheduler=DaskScheduler(cluster.scheduler_address, 2)))
        assert 2 <= time.monotonic() - start < 30
    assert e.value.exit_code == 3
    assert "waiting up to 2 s" in capsys.readouterr().err


def test_a_dask_run_waits_for_a_worker_to_join() -> None:
    distributed = pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster:
        joined = threading.Timer(1.5, cluster.scale, args=(1,))
        joined.start()
        try:
            out = dict(map_chunks(square, range(6), scheduler=DaskScheduler(cluster.scheduler_address, 60)))
        finally:
            joined.cancel()
    assert out == {i: i * i for i in range(6)}


def test_the_simulators_dealer_is_one_object_per_worker(threaded: object) -> None:
    """The simulator's chunks read the dealer (its draw tables) each worker keeps: built once."""
    from solver.cards import Shoe
    from solver.simulate import SimConfig
    from solver.simulate.run import Dealer, deal_chunk, run_tallies

    config = SimConfig.punto(Shoe.decks(1))
    dealer = Dealer.of(config)
    seeds = np.random.SeedSequence(4).spawn(3)
    one = [deal_chunk(dealer, (50, s)) for s in seeds]
    two = dict(map_shared(deal_chunk, dealer, [(50, s) for s in seeds], workers=2))
    assert all(np.array_equal(one[i].pos_counts, two[i].pos_counts) for i in range(3))
    assert run_tallies(config, 600, seed=1, workers=2).n_shoes == 600
