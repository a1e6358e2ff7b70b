"""Bad input and a failing environment, across the commands: one line on stderr naming the problem, a
non-zero exit (2 for unusable input), never a traceback, never a partial file (issue: hardening).

The table-driven test runs each case in-process; the cases that need a real process (a full
device, a closed pipe, an ASCII terminal) run the command as a user would.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]

BAD = [
    # (argv, what the one line must say)
    (["punto", "--decks", "9" * 800], "at most 1,000,000 decks"),
    (["punto", "--shoe", ",".join(["1" + "0" * 4000] * 10)], "too large"),
    (["punto", "--decks", "2000000"], "at most 1,000,000"),
    (["chemin", "--commission", "1e999999999"], "exponent"),
    (["chemin", "--commission", "0.15"], "[0, 1/10]"),
    (["report", "--commission", "0.15"], "[0, 1/10]"),
    (["simulate", "--seed=-1"], "from 0 to 2^128 - 1"),
    (["simulate", "--coups", "1e999999999"], "at most 1e+15"),
    (["simulate", "--coups", "1e30"], "at most 1e+15"),
    (["crosscheck", "--simulate", "1e30"], "at most 1e+15"),
    (["crosscheck", "--alpha", "1e-300"], "exponent"),
    (["crosscheck", "--alpha", "0"], "strictly between 0 and 1"),
    (
        ["simulate", "--game", "chemin", "--strategy", "casino", "--draw", "P5=2", "--draw", "B3/9=D", "--draw", "B5/4=S"],
        "probability of drawing in P5 must lie in [0, 1]",
    ),
    (["simulate", "--game", "chemin", "--draw", "X5=1"], "a choice is written"),
    (["punto", "--shoes", "-", "--decks", "6"], "leave out --decks"),
    (["punto", "--shoes", "-", "--format", "csv"], "leave out --format"),
    (["punto", "--shoes", "-"], "holds no shoe"),
    (["chemin", "--decks", "1,2", "--certificate", "multi.json"], "go into a directory"),
    (["banque", "--decks", "inf", "--certificate", "multi.json"], "go into a directory"),
    (
        ["banque", "--decks", "inf", "--concept", "nash", "--theta", "1/3,1/2", "--certificate", "multi.json"],
        "go into a directory",
    ),
    (["crosscheck", "--shoe", "0,0,0,0,0,0,0,0,0,30", "--simulate", "100", "--workers", "1"], "probability 0 to banker, player"),
]


@pytest.mark.parametrize(("argv", "message"), BAD, ids=[" ".join(a)[:50] for a, _ in BAD])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    start = time.process_time()
    r = run_cli(argv)
    assert r.code == 2, (r.code, r.err)
    assert r.out == ""
    assert message in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1, r.err
    assert "Traceback" not in r.err
    assert time.process_time() - start < 5, "bad input must be refused before any long work"
    assert not (tmp_path / "multi.json").exists()


def test_alpha_as_small_as_1e_16_works() -> None:
    r = run_cli(["crosscheck", "--simulate", "2e4", "--workers", "1", "--alpha", "1e-16"])
    assert r.code == 0, r.err
    assert "1/10000000000000000" in r.out


# -- input files ------------------------------------------------------------------------------------


def test_files_that_are_not_utf8_get_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("--decks 8 --remove 5\n# caf\xe9\n".encode("latin-1"))
    for argv in (
        ["punto", "--shoes", str(bad)],
        ["crosscheck", "--coups", str(bad)],
        ["simulate", "--game", "chemin", "--strategy", str(bad.with_suffix(".json"))],
    ):
        if argv[0] == "simulate":
            bad.with_suffix(".json").write_bytes(b'{"name": "caf\xe9"}')
        r = run_cli(argv)
        assert r.code == 2 and "not UTF-8" in r.err and len(r.err.splitlines()) == 1, r.err


def test_a_byte_order_mark_is_read_and_dropped(tmp_path: Path) -> None:
    shoes = tmp_path / "bom.txt"
    shoes.write_bytes("\ufeff--decks 8 --remove 5\n".encode())
    r = run_cli(["punto", "--shoes", str(shoes)])
    assert r.code == 0, r.err
    coups = tmp_path / "coups.txt"
    coups.write_bytes(("\ufeff" + "9,4,Q,2;P\n" * 60).encode())
    r = run_cli(["crosscheck", "--coups", str(coups), "--decks", "8"])
    assert r.code in (0, 1) and "bad card" not in r.err, r.err


def test_bet_and_tableau_files_read_as_every_other_file(tmp_path: Path) -> None:
    # Issue 10 (found again by a later tryout): --bet read its file with Path.read_text, so a file
    # that was not UTF-8 ended in a traceback and a byte-order mark was "not valid TOML".
    import json

    from solver.rules.house import HOUSES

    bet = '[[bet]]\nname = "tie_on_7"\n[[bet.tier]]\npays = 45\nwhen = { winner = "tie", banker_total = 7 }\n'
    sheet = json.dumps(HOUSES["casino"].as_dict() | {"name": "mine"})
    for name, text, argv in (
        ("b.toml", bet, ["punto", "--decks", "8", "--bet"]),
        (
            "b.json",
            json.dumps({"bet": [{"name": "t7", "tier": [{"pays": 45, "when": {"winner": "tie", "banker_total": 7}}]}]}),
            ["punto", "--decks", "8", "--bet"],
        ),
        ("h.json", sheet, ["chemin", "--decks", "6", "--tableau"]),
    ):
        path = tmp_path / name
        path.write_bytes(text.encode())
        plain = run_cli([*argv, str(path)])
        assert plain.code == 0, plain.err
        path.write_bytes(b"\xef\xbb\xbf" + text.encode())
        bom = run_cli([*argv, str(path)])
        assert bom.code == 0 and bom.out == plain.out, bom.err
        path.write_bytes(text.replace("7", "7 # caf\xe9" if name.endswith("toml") else "7").encode() + b"\xe9")
        bad = run_cli([*argv, str(path)])
        assert bad.code == 2 and "not UTF-8" in bad.err and len(bad.err.splitlines()) == 1, bad.err


def test_a_huge_line_is_refused_quickly(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_text("--decks 8 --remove " + "5," * 5_000_000 + "\n")
    start = time.process_time()
    r = run_cli(["punto", "--shoes", str(big)])
    assert r.code == 2 and "longer than" in r.err, r.err
    assert time.process_time() - start < 5


# -- files written -----------------------------------------------------------------------------------


def test_tables_never_overwrite_without_force(tmp_path: Path) -> None:
    out = tmp_path / "t"
    out.mkdir()
    (out / "chemin-values.tex").write_text("mine\n")
    r = run_cli(["tables", "--out", str(out), "--decks", "1", "--thetas", "1/2"])
    assert r.code == 2 and "pass --force" in r.err
    assert (out / "chemin-values.tex").read_text() == "mine\n"
    assert sorted(p.name for p in out.iterdir()) == ["chemin-values.tex"]  # nothing else written either
    r = run_cli(["tables", "--out", str(out), "--decks", "1", "--thetas", "1/2", "--force"])
    assert r.code == 0, r.err
    assert (out / "chemin-values.tex").read_text() != "mine\n"


def test_a_failed_write_leaves_no_partial_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A full disk, injected: the write fails halfway; the target must not exist, nor any temporary file.
    from solver.store import files

    real_fdopen = os.fdopen

    class Full:
        def __init__(self, fh):  # type: ignore[no-untyped-def]
            self.fh = fh

        def __enter__(self):  # type: ignore[no-untyped-def]
            return self

        def __exit__(self, *a):  # type: ignore[no-untyped-def]
            self.fh.close()

        def write(self, text: str) -> int:
            self.fh.write(text[: len(text) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fdopen", lambda fd, *a, **k: Full(real_fdopen(fd, *a, **k)))
    target = tmp_path / "b1.json"
    r = run_cli(["chemin", "--decks", "1", "--certificate", str(target)])
    assert r.code == 2
    assert r.err == f"baccarat: error: cannot write {target}: No space left on device\n"
    assert list(tmp_path.iterdir()) == []


# -- the environment -----------------------------------------------------------------------------------


def _run(command: str, **env: str) -> subprocess.CompletedProcess[str]:
    script = f'baccarat() {{ "{sys.executable}" -m solver.cli "$@"; }}\n{command}\n'
    return subprocess.run(
        ["bash", "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
    )


def test_a_full_device_is_one_line() -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("this machine has no /dev/full")
    r = _run("baccarat punto --decks 6 > /dev/full")
    assert r.returncode == 3  # the run failed (1 is the cross-check's rejection)
    assert r.stderr == "baccarat: error: cannot write the output: No space left on device\n"


def test_a_closed_pipe_ends_quietly_and_the_files_are_whole(tmp_path: Path) -> None:
    """A reader that stops early (head): the command ends quietly with exit 0, as Unix tools do, and the
    files it wrote are whole."""
    r = _run(f'baccarat tables --out {tmp_path}/t --decks 1 --thetas 1/2 | head -1; echo "status ${{PIPESTATUS[0]}}"')
    assert r.stderr == "" and r.stdout.endswith("status 0\n"), r.stdout + r.stderr
    assert len(list((tmp_path / "t").iterdir())) == 31  # the files are whole: only stdout was closed


def test_an_ascii_terminal_gets_stand_ins() -> None:
    r = _run("baccarat chemin --decks inf", PYTHONIOENCODING="ascii")
    assert r.returncode == 0, r.stderr
    assert "~= 1.2281 %" in r.stdout


# -- processes and schedulers ----------------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    psutil = pytest.importorskip("psutil", reason="psutil lists child processes (it comes with the test extra)")
    try:
        return [c.pid for c in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _alive(pids: list[int]) -> list[int]:
    psutil = pytest.importorskip("psutil")
    return [p for p in pids if psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE]


def _start_long_simulation() -> tuple[subprocess.Popen[str], list[int]]:
    import signal

    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    # SIGINT and SIGHUP as a terminal delivers them: a shell that starts the suite as a background job
    # (`pytest &`) starts it with SIGINT ignored, and `nohup` with SIGHUP ignored, which the child would
    # inherit (and rightly keep: an ignored signal stays ignored), never seeing the signal sent.
    def default_signals() -> None:
        for name in ("SIGINT", "SIGHUP"):
            signal.signal(getattr(signal, name), signal.SIG_DFL)

    proc = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "simulate", "--coups", "1e13", "--workers", "2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_signals,
    )
    try:
        return _await_workers(proc)
    except BaseException:
        proc.kill()  # never leave a 10^13-coup simulation running
        proc.wait()
        raise


def _await_workers(proc: subprocess.Popen[str]) -> tuple[subprocess.Popen[str], list[int]]:
    deadline = time.monotonic() + 60
    kids: list[int] = []
    while time.monotonic() < deadline and len(kids) < 2:
        time.sleep(0.2)
        kids = _children(proc.pid)
    if len(kids) < 2:
        proc.kill()
        pytest.fail("the simulation did not start its worker processes within a minute")
    return proc, kids


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_workers_die_with_an_interrupted_simulation(signame: str) -> None:
    import signal

    proc, kids = _start_long_simulation()
    proc.send_signal(getattr(signal, signame))
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "baccarat: interrupted" and "Traceback" not in err, err
    deadline = time.monotonic() + 10
    while _alive(kids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(kids), "worker processes survived their parent"


def test_workers_die_when_the_parent_is_killed() -> None:
    proc, kids = _start_long_simulation()
    proc.kill()  # SIGKILL: no handler runs in the parent; the kernel kills the workers (PR_SET_PDEATHSIG)
    proc.communicate(timeout=60)
    deadline = time.monotonic() + 10
    while _alive(kids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(kids), "worker processes survived their parent"


@pytest.mark.parametrize("address", ["nonsense", "http://x:1", "tcp://127.0.0.1:9"])
def test_a_bad_scheduler_is_one_line(address: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    monkeypatch.setattr("solver.simulate.cluster.DASK_CONNECT_TIMEOUT", "2s")
    r = run_cli(["simulate", "--shoes", "10", "--scheduler", address])
    assert r.code == 2 and "cannot reach the Dask scheduler" in r.err and len(r.err.splitlines()) == 1, r.err


def test_a_scheduler_that_never_answers_is_one_line_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket
    import threading

    pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    held: list[socket.socket] = []
    threading.Thread(target=lambda: held.append(server.accept()[0]), daemon=True).start()  # accept, never answer
    monkeypatch.setattr("solver.simulate.cluster.DASK_CONNECT_TIMEOUT", "2s")
    start = time.monotonic()
    r = run_cli(["simulate", "--shoes", "10", "--scheduler", f"tcp://127.0.0.1:{server.getsockname()[1]}"])
    assert time.monotonic() - start < 20
    assert r.code == 2 and "cannot reach the Dask scheduler" in r.err and len(r.err.splitlines()) == 1, r.err
    server.close()


def test_a_scheduler_killed_mid_run_is_one_line_and_exit_3(tmp_path: Path) -> None:
    # Issue 10: the run already failed with one line and exit 1, but distributed's own loggers printed
    # two tracebacks before it (a CancelledError while the client closed); they are quietened now.
    import re
    import signal

    pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    sched = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    worker = run = None
    try:
        address = None
        deadline = time.monotonic() + 60
        while address is None and time.monotonic() < deadline:
            found = re.search(r"Scheduler at:\s+(tcp://\S+)", sched.stdout.readline())  # type: ignore[union-attr]
            address = found.group(1) if found else None
        assert address, "the scheduler did not start"
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1", "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        run = subprocess.Popen(
            [sys.executable, "-m", "solver.cli", "simulate", "--coups", "1e9", "--scheduler", address, "--progress"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        first = run.stderr.read(1)  # type: ignore[union-attr]  # the progress line: the run has begun
        assert first, "the run ended before it began"
        time.sleep(1)
        sched.send_signal(signal.SIGTERM)
        _, rest = run.communicate(timeout=120)
        err = (first + rest).decode()
        # the first byte read may have buffered the start of stderr (a progress line, or the note that no
        # worker has joined yet) away from communicate(): the last line is read from what came after
        last = rest.decode().replace("\r", "\n").strip().splitlines()[-1]
        assert run.returncode == 3, err  # the run failed: not the cross-check's rejection (1)
        assert "Traceback" not in err and "ERROR" not in err, err
        assert last.startswith("baccarat: error: the Dask cluster at") and "failed during the run" in last, err
    finally:
        for p in (run, worker, sched):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()


def test_one_shoe_has_no_standard_error() -> None:
    r = run_cli(["simulate", "--coups", "1", "--seed", "5", "--workers", "1"])
    assert r.code == 0, r.err
    assert "± 0.000000" not in r.out and "no standard error can be estimated" in r.out
    j = run_cli(["simulate", "--shoes", "1", "--seed", "5", "--workers", "1", "--format", "json"])
    import json

    item = json.loads(j.out)["items"][0]
    assert item["first_coup"]["se"] is None and item["whole_shoe"]["ci_low"] is None


def test_absurd_runs_are_refused() -> None:
    for argv, message in (
        (["simulate", "--decks", "100000000", "--shoes", "1"], "at most 1,000,000 decks"),
        (["simulate", "--decks", "5000", "--shoes", "1"], "at most 52,000 cards"),
        (["simulate", "--burn=-5"], "from 0 up"),
        (["simulate", "--shoes", "1e16"], "at most 1e+15"),
    ):
        r = run_cli(argv)
        assert r.code == 2 and message in r.err and len(r.err.splitlines()) == 1, r.err


def test_a_worker_count_past_the_cap_is_capped_with_a_note() -> None:
    # Issue 10: --workers 100000 once started as many processes; the cap (4 per core) is now said.
    from solver.simulate.executor import max_workers

    r = run_cli(["simulate", "--coups", "2e4", "--workers", "100000"])
    assert r.code == 0, r.err
    assert f"--workers 100,000 is more than 4 processes per core: at most {max_workers()} are used" in r.err
    assert "note" not in run_cli(["simulate", "--coups", "2e4", "--workers", "1"]).err


def test_a_shoe_that_deals_only_ties_is_priced() -> None:
    """Six tens deal a 0-0 tie every coup: every bet is priced, and no 'edge excluding ties' is made up
    (no bet is ever resolved), where it once divided by zero."""
    from solver.cards import Shoe
    from solver.punto import catalogue, punto_banco

    r = punto_banco(Shoe.from_values([0, 0, 0, 0, 0, 0, 0, 0, 0, 6]), bets=[b for b in catalogue() if not b.first_cards])
    assert (r.banker, r.player, r.tie) == (0, 0, 1)
    assert r.bet("banker").ev == 0 and r.bet("banker").edge_excluding_pushes is None
    for fmt in ("text", "json", "csv"):
        out = run_cli(["punto", "--shoe", "0,0,0,0,0,0,0,0,0,6", "--format", fmt])
        assert out.code == 0 and "Traceback" not in out.err, out.err


TENS = "0,0,0,0,0,0,0,0,0,30"  # every total 0: no natural, every coup dealt by rule, every coup a tie


@pytest.mark.parametrize(
    "argv",
    [
        ["punto", "--shoe", TENS, "--breakdown"],
        ["punto", "--shoe", TENS, "--format", "latex"],
        ["eor", "--shoe", TENS],
        ["count", "--shoe", TENS, "--shoes", "3", "--workers", "1"],
        ["simulate", "--shoe", TENS, "--coups", "100", "--workers", "1"],
        ["simulate", "--game", "chemin", "--shoe", TENS, "--coups", "100", "--workers", "1"],
        ["simulate", "--game", "banque", "--shoe", TENS, "--coups", "100", "--workers", "1"],
        ["chemin", "--shoe", TENS],
        ["chemin", "--shoe", TENS, "--commission", "0..1/10"],
        ["banque", "--shoe", TENS],
        # six cards, all different: one coup a shoe, smaller than chemin's cut of 7, and no pair can come
        ["crosscheck", "--game", "chemin", "--shoe", "1,1,1,1,1,1,0,0,0,0", "--simulate", "2000", "--workers", "1"],
        ["crosscheck", "--shoe", "1,1,1,1,1,1,0,0,0,0", "--simulate", "2000", "--workers", "1"],
    ],
    ids=lambda a: " ".join(a[:5]),
)
def test_a_degenerate_shoe_never_gives_a_traceback(argv: list[str]) -> None:
    """A hostile tryout's shoe of tens only: each command answers, or refuses in one line (exit 2)."""
    r = run_cli(argv)
    assert r.code in (0, 2) and "Traceback" not in r.err, r.err
    if r.code == 2:
        assert len(r.err.strip().splitlines()) == 1, r.err


@pytest.mark.parametrize("module", ["solver.chemin.certificate", "solver.banque.certificate"])
def test_regenerating_the_standard_certificates_refuses_a_bad_directory_in_one_line(module: str, tmp_path: Path) -> None:
    """``python3 -m solver.chemin.certificate DIR`` (and the banque's): a file where the directory should be, a
    directory that cannot be made, or two arguments: one line, exit 2, nothing written."""
    afile = tmp_path / "afile"
    afile.write_text("mine")
    for args, says in (
        ([str(afile)], "is a file, not a directory"),
        ([str(afile / "sub")], "not a directory"),
        (["one", "two"], "one directory at most"),
    ):
        out = subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, cwd=tmp_path)
        assert out.returncode == 2, out.stderr
        lines = out.stderr.strip().splitlines()
        assert says in lines[-1] and "Traceback" not in out.stderr, out.stderr
    assert afile.read_text() == "mine" and sorted(p.name for p in tmp_path.iterdir()) == ["afile"]
