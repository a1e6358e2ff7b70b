"""Output to a closed, full or broken standard output (issue 29, class 3): one line on stderr (when
stderr can take it) and exit 1, for every command and the checker; never a traceback, never exit 0
with nothing written, never a file half-written.

The cases that depend on how a process ends (Python's last flush at exit) run as a user would, in a
shell under a timeout; the rest run in-process with the stream replaced.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solver.cli import main

ROOT = Path(__file__).resolve().parents[1]
CHECKER = ROOT / "proofs" / "check.py"
CERTIFICATE = ROOT / "tests" / "data" / "certificates" / "b1-i1-casino-c0.json"
CLOSED = "baccarat: error: cannot write the output: standard output is closed\n"
FULL = "baccarat: error: cannot write the output: No space left on device\n"

needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="this machine has no /dev/full")


def _shell(command: str) -> subprocess.CompletedProcess[str]:
    """``command`` in bash, ``baccarat`` being the console script's code (solver.entry) of this checkout."""
    functions = f'baccarat() {{ "{sys.executable}" -m solver.entry "$@"; }}\ncheck() {{ "{sys.executable}" "{CHECKER}" "$@"; }}\n'
    script = functions + command + "\n"
    return subprocess.run(
        ["bash", "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )


PROCESS_CASES = [
    # (command, exit code, stderr)
    ("baccarat punto --decks 8 >&-", 3, CLOSED),
    ("baccarat chemin --decks 1 >&-", 3, CLOSED),
    ("baccarat --version >&-", 3, CLOSED),
    pytest.param("baccarat --version > /dev/full", 3, FULL, marks=needs_dev_full),
    pytest.param("baccarat --help > /dev/full", 3, FULL, marks=needs_dev_full),
    ("baccarat punto --decks 8 >&- 2>&-", 3, ""),  # nowhere to say it: the exit code says it
    ("baccarat punto --decks 0 >&- 2>&-", 2, ""),
    # a reader that stops reading: a quiet end, as Unix tools do (head)
    ('baccarat punto --decks 1,2,3,4,5,6,7,8 --format json | true; exit "${PIPESTATUS[0]}"', 0, ""),
    pytest.param(
        f"check {CERTIFICATE} > /dev/full",
        3,
        "baccarat-check: error: cannot write the report: No space left on device\n",
        marks=needs_dev_full,
    ),
    (f"check {CERTIFICATE} >&-", 3, "baccarat-check: error: cannot write the report: standard output is closed\n"),
    pytest.param(
        "check --help > /dev/full",
        3,
        "baccarat-check: error: cannot write the report: No space left on device\n",
        marks=needs_dev_full,
    ),
]


@pytest.mark.parametrize(("command", "code", "err"), PROCESS_CASES)
def test_a_closed_full_or_broken_stdout_is_one_line_and_exit_3(command: str, code: int, err: str) -> None:
    """The issue's reproductions: an AttributeError traceback (sys.stdout is None) for a closed stdout;
    an OSError traceback for --version or the checker on /dev/full; --help on /dev/full exited 0 having
    written nothing."""
    r = _shell(command)
    assert (r.returncode, r.stderr) == (code, err), (command, r.returncode, r.stderr)


def test_nothing_is_half_written_when_stdout_is_closed(tmp_path: Path) -> None:
    """A certificate asked for beside a closed stdout is whole (the checker passes it) or not there."""
    target = tmp_path / "c.json"
    r = _shell(f"baccarat chemin --decks 1 --certificate {target} >&-")
    assert (r.returncode, r.stderr) == (3, CLOSED), r.stderr
    if target.exists():
        check = subprocess.run(
            [sys.executable, str(CHECKER), str(target)], capture_output=True, text=True, timeout=300, check=False
        )
        assert check.returncode == 0, check.stdout
    assert [p.name for p in tmp_path.iterdir() if p.name != "c.json"] == []  # no temporary file left


class _Failing(io.StringIO):
    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def write(self, text: str) -> int:
        raise self.error


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (OSError(28, "No space left on device"), "baccarat: error: cannot write the output: No space left on device\n"),
        (BrokenPipeError(32, "Broken pipe"), ""),  # the reader stopped reading: a quiet end, exit 0
    ],
)
@pytest.mark.parametrize(
    "argv",
    [
        ["punto", "--decks", "8"],
        ["punto", "--decks", "8", "--format", "json"],
        ["punto", "--bets", "list"],
        ["chemin", "--decks", "inf", "--format", "csv"],
        ["--help"],
        ["count", "--help"],
        ["--version"],
    ],
)
def test_every_command_reports_a_failing_stdout_in_one_line(argv, error, reason, monkeypatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", _Failing(error))
    monkeypatch.setattr(sys, "stderr", err)
    assert main(argv) == (0 if isinstance(error, BrokenPipeError) else 3)
    assert err.getvalue() == reason


def test_a_stdout_closed_at_start_up_is_stood_in_for(monkeypatch) -> None:
    """Python gives None for a stream closed at start-up; every command writes through it all the same."""
    err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["punto", "--decks", "8", "--bets", "dragon7"]) == 3
    assert err.getvalue() == CLOSED
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)  # and stderr closed too: the exit code alone says it
    assert main(["punto", "--decks", "8", "--bets", "dragon7"]) == 3
