"""The independent checker on unusable input (issue 29, class 5): one FAIL line and exit code 2 for each
file it cannot use (missing, empty, binary, a NUL byte, one very long line, /dev/null, /dev/zero, a
FIFO, a directory), at once: no traceback, no hang, no memory exhausted. check_banque.py's own command
line alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKER = ROOT / "proofs" / "check.py"
BANQUE_CHECKER = ROOT / "proofs" / "check_banque.py"
GOOD = ROOT / "tests" / "data" / "certificates" / "b1-i1-casino-c0.json"


def _unusable_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """name: (path, what the FAIL line says)."""
    (tmp_path / "empty.json").write_bytes(b"")
    (tmp_path / "blank.json").write_bytes(b" \n\t\n")
    (tmp_path / "binary.json").write_bytes(bytes(range(256)) * 8)
    (tmp_path / "nul.json").write_bytes(b'{"format": "baccarat-chemin-certificate"\0}')
    (tmp_path / "latin.json").write_bytes(b'{"format": "caf\xe9"}')
    (tmp_path / "long.json").write_text("[" + "1," * 2_000_000 + "1", encoding="utf-8")  # one line of 4 MB, unfinished
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    os.mkfifo(tmp_path / "fifo.json")
    (tmp_path / "dir.json").mkdir()
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    return {
        "missing": (tmp_path / "missing.json", "cannot read: no such file"),
        "empty": (tmp_path / "empty.json", "an empty file, not a certificate"),
        "blank": (tmp_path / "blank.json", "an empty file, not a certificate"),
        "binary": (tmp_path / "binary.json", "a NUL byte at offset 0: a binary file, not a certificate"),
        "nul": (tmp_path / "nul.json", "a NUL byte at offset 40: a binary file, not a certificate"),
        "latin": (tmp_path / "latin.json", "not UTF-8 text (byte 0xe9 at offset 15): not a certificate"),
        "long": (tmp_path / "long.json", "not JSON: Expecting"),
        "deep": (tmp_path / "deep.json", "not JSON: maximum recursion depth exceeded"),
        "fifo": (tmp_path / "fifo.json", "cannot read: a FIFO (named pipe), not a certificate file"),
        "dir": (tmp_path / "dir.json", "cannot read: a directory, not a certificate file"),
        "null": (Path("/dev/null"), "cannot read: a device, not a certificate file"),
        "zero": (tmp_path / "zero.json", "cannot read: a device, not a certificate file"),
    }


def _run(script: Path, paths: list[Path]) -> subprocess.CompletedProcess[str]:
    resource = pytest.importorskip("resource")

    def limit_memory() -> None:  # so that reading /dev/zero fails the test, not the machine
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    return subprocess.run(
        [sys.executable, str(script), *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit_memory,
        check=False,
    )


def test_the_checker_gives_one_line_and_exit_2_for_every_unusable_input(tmp_path: Path) -> None:
    """The issue: a missing file, an empty file, a binary file, a file with a NUL or one very long line,
    /dev/null gave no clear line; a FIFO hung the checker and /dev/zero exhausted the memory."""
    cases = _unusable_files(tmp_path)
    done = _run(CHECKER, [GOOD, *(p for p, _ in cases.values())])
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"OK  {GOOD}")
    assert len(lines) == 2 + len(cases), done.stdout
    assert lines[-1] == f"checked {1 + len(cases)} certificates: 1 OK, 0 failed, {len(cases)} unusable"
    for line, (name, (path, why)) in zip(lines[1:], cases.items()):
        assert line.startswith(f"FAIL {path}: {why}") and len(line) < 300, (name, line)


def test_a_directory_is_read_for_its_certificates_and_one_with_none_is_one_line(tmp_path: Path) -> None:
    done = _run(CHECKER, [tmp_path])
    assert (done.returncode, done.stdout) == (2, f"FAIL {tmp_path}: cannot read: a directory, not a certificate file\n")
    (tmp_path / "inner").mkdir()
    (tmp_path / "inner" / "c.json").write_bytes(GOOD.read_bytes())
    done = _run(CHECKER, [tmp_path])
    assert done.returncode == 0 and done.stdout.startswith(f"OK  {tmp_path / 'inner' / 'c.json'}  B 1 deck"), done.stdout


def test_the_banque_checker_gives_one_line_and_exit_2_for_every_unusable_input(tmp_path: Path) -> None:
    cases = _unusable_files(tmp_path)
    done = _run(BANQUE_CHECKER, [p for p, _ in cases.values()])
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(cases) and all(line.startswith(f"FAIL {p}: ") for line, (p, _) in zip(lines, cases.values()))


def test_read_certificate_states_its_limit(tmp_path: Path) -> None:
    sys.path.insert(0, str(CHECKER.parent))
    try:
        import check
    finally:
        sys.path.remove(str(CHECKER.parent))
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(check.MAX_CERTIFICATE_BYTES + 1)  # sparse
    result = check.check_file(big)
    assert result.status == "unusable" and result.reason == (
        f"cannot read: larger than {check.MAX_CERTIFICATE_BYTES:,} bytes, more than a certificate takes"
    )
    assert check.check_file(GOOD).ok and json.loads(GOOD.read_text())["format"] == check.FORMAT
