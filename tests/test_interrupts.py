"""Interrupts at any moment (issue 29, class 4): exit code 130, one line ("baccarat: interrupted"), no
traceback, no hang, no orphaned worker process.

SIGINT is sent at several moments after the console script's code starts (while the modules load,
while the command runs, while worker processes work; with ``-m slow``, while numba compiles the
counting kernel from cold), each run under a timeout. The child says when its code starts by writing
a byte to a pipe as soon as :func:`solver.entry.run` has installed its interrupt handler: what comes
before it is Python's own start-up, which no package can answer (see solver/entry.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
START = """
import os, signal, sys
import solver.entry as e
fd, install = int(sys.argv.pop(1)), signal.signal

def installed(signum, handler):  # run()'s first handler, then the test is told (once)
    signal.signal = install
    before = install(signum, handler)
    os.write(fd, b"x")
    return before

signal.signal = installed
e.run()
"""
"""The console script's code (``solver.entry:run``), telling the test once it has installed its
interrupt handler: a byte written before that, on a loaded machine, let the test's earliest SIGINT
land between the byte and the handler, in the test's own start-up line."""


def _children(pid: int) -> list[int]:
    psutil = pytest.importorskip("psutil", reason="psutil lists child processes (it comes with the test extra)")
    try:
        return [c.pid for c in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _alive(pids: list[int]) -> list[int]:
    psutil = pytest.importorskip("psutil")
    return [p for p in pids if psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE]


def _interrupt(
    argv: list[str], delay: float, env: dict[str, str] | None = None, group: bool = True
) -> tuple[int, str, list[int]]:
    """Start ``baccarat argv``, send SIGINT ``delay`` seconds after its code starts (to its whole process
    group, as a terminal's Ctrl-C does, when ``group``); the exit code, stderr and the processes it had."""
    read, write = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, "-c", START, str(write), *argv],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        pass_fds=(write,),
        start_new_session=True,  # its own group, as a terminal gives a command (and SIGINT not ignored)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    os.close(write)
    try:
        assert os.read(read, 1) == b"x", "the command did not start"
        time.sleep(delay)
        kids = _children(proc.pid)
        if group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        os.close(read)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            pytest.fail(f"{argv} hung after SIGINT at {delay} s")
    return proc.returncode, err, kids


def _python(code: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """``python -c CODE`` with this checkout on the path, its output captured."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _assert_interrupted(code: int, err: str, kids: list[int], what: str) -> None:
    assert code == 130 and err == "baccarat: interrupted\n", (what, code, err[-3000:])
    deadline = time.monotonic() + 10
    while _alive(kids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(kids), f"{what}: worker processes outlived their parent"


@pytest.mark.parametrize("delay", [0.001, 0.01, 0.03, 0.08, 0.15, 0.3])
def test_an_interrupt_while_the_modules_load_is_one_line(delay: float) -> None:
    """A Ctrl-C in the first tenth of a second printed Python's own KeyboardInterrupt traceback (the
    command's modules were loading). The command runs for seconds, so the last moments interrupt the
    run itself (``punto --decks 8`` was used, and on a quick machine it was done within 0.3 s)."""
    code, err, kids = _interrupt(["count", "--shoes", "1e6", "--workers", "1"], delay, env={"BACCARAT_CACHE": "off"})
    _assert_interrupted(code, err, kids, f"at {delay} s")


@pytest.mark.parametrize("delay", [1.0, 2.5])
def test_an_interrupt_while_workers_work_stops_them_all(delay: float) -> None:
    code, err, kids = _interrupt(["count", "--workers", "2", "--shoes", "1e6"], delay)
    _assert_interrupted(code, err, kids, f"count at {delay} s")


def test_an_interrupt_to_the_parent_alone_stops_the_workers() -> None:
    """``kill -INT`` of the parent only (not its group): the parent stops its workers itself."""
    code, err, kids = _interrupt(["simulate", "--workers", "2", "--coups", "1e13"], 2.0, group=False)
    _assert_interrupted(code, err, kids, "simulate")


@pytest.mark.slow
@pytest.mark.parametrize("delay", [2.0, 6.0, 12.0, 20.0])
def test_an_interrupt_while_numba_compiles_is_one_line(delay: float, tmp_path: Path) -> None:
    """Ctrl-C while a cold ``count --workers 2`` compiled printed a KeyboardInterrupt traceback from
    llvmlite and could hang. numba's cache in a fresh folder: every kernel is compiled afresh."""
    code, err, kids = _interrupt(["count", "--workers", "2", "--shoes", "50"], delay, env={"NUMBA_CACHE_DIR": str(tmp_path)})
    _assert_interrupted(code, err, kids, f"compiling, at {delay} s")


UNRAISABLE = """
import ctypes, gc, sys, time
from solver.cli import quiet_unraisable_interrupts
sys.unraisablehook = quiet_unraisable_interrupts(sys.unraisablehook)

def callback(a, b):  # as an interrupt lands in one of llvmlite's ctypes callbacks while numba compiles
    raise KeyboardInterrupt

class Finalised:  # ... or in the finaliser of one of its objects
    def __del__(self):
        raise KeyboardInterrupt

for where in ("callback", "finaliser"):
    try:
        if where == "callback":
            compare = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(callback)
            values = (ctypes.c_int * 3)(3, 1, 2)
            ctypes.CDLL(None).qsort(values, 3, ctypes.sizeof(ctypes.c_int), compare)
        else:
            Finalised()
            gc.collect()
        for _ in range(2000):
            time.sleep(0.001)
        print(where, "lost")
    except KeyboardInterrupt:
        print(where, "raised")
"""


def test_an_interrupt_python_cannot_raise_is_raised_again_not_printed() -> None:
    """Where a KeyboardInterrupt cannot propagate (a ctypes callback, a finaliser), Python printed
    "Exception ignored ..." with a traceback and dropped the interrupt, so the command went on
    compiling; now nothing is printed and the interrupt is raised in the main thread."""
    done = _python(UNRAISABLE, timeout=60)
    assert done.stdout.splitlines() == ["callback raised", "finaliser raised"], done.stdout + done.stderr
    assert done.stderr == ""


def test_an_ignored_sigint_stays_ignored() -> None:
    """A command started with SIGINT ignored (a background job of a script) keeps it ignored, as Python
    does; SIGTERM still ends it in one line."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "solver.entry", "simulate", "--workers", "1", "--coups", "1e13"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        time.sleep(3)
        proc.send_signal(signal.SIGINT)
        time.sleep(1)
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130 and err == "baccarat: interrupted\n", err


INTERRUPTED_AT_START = """
import multiprocessing, sys, time
from multiprocessing.process import BaseProcess
from solver.simulate.executor import map_chunks

started = []
plain_start = BaseProcess.start

def start(self):
    plain_start(self)
    started.append(self)
    if len(started) == 2:
        raise KeyboardInterrupt  # as a signal landing just after the second worker's fork

BaseProcess.start = start
try:
    list(map_chunks(abs, range(1000), workers=2))
except KeyboardInterrupt:
    pass
deadline = time.monotonic() + 20
while multiprocessing.active_children() and time.monotonic() < deadline:
    time.sleep(0.05)
print(len(started), len(multiprocessing.active_children()))
"""


def test_an_interrupt_just_after_a_workers_start_stops_it_too() -> None:
    """A signal that lands after a worker's fork and before the pool has recorded the process (the
    window a SIGHUP sent as soon as the workers appear can hit): that worker is stopped with the others,
    and the run ends (multiprocessing would otherwise join it at exit, forever)."""
    r = _python(INTERRUPTED_AT_START, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["2", "0"], r.stdout


SIGNALLED_BEFORE_ITS_HANDLERS = """
import os, signal, sys, time
from solver.cli import install_signal_handlers

install_signal_handlers()
child = os.fork()
if child == 0:  # a worker that has not yet set its own handlers: it still holds its parent's
    time.sleep(30)
    os._exit(0)
time.sleep(0.5)
os.kill(child, signal.SIG%s)
_, status = os.waitpid(child, 0)
print(os.WIFSIGNALED(status) and signal.Signals(os.WTERMSIG(status)).name)
"""


@pytest.mark.parametrize("signame", ["TERM", "HUP", "INT"])
def test_a_forked_worker_signalled_before_its_own_handlers_ends_quietly(signame: str) -> None:
    """A worker stopped (SIGTERM from its parent's interrupt) in the moment after its fork, while it still
    holds the parent's handler: it ends as the signal's default would, with no KeyboardInterrupt traceback
    from multiprocessing's bootstrap under the parent's one line (the CI failure of stop 35)."""
    r = _python(SIGNALLED_BEFORE_ITS_HANDLERS % signame, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [f"SIG{signame}"], r.stdout + r.stderr
    assert "Traceback" not in r.stderr, r.stderr
