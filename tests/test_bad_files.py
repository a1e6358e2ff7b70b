"""Every file option reads through one bounded reader (issue 29, classes 1 and 5): a FIFO, a device, a
directory or a file too large is one line and exit 2 at once; numbers and nesting in every file are
bounded before any arithmetic; huge pays and tags are refused before the simulator or the counting
kernel could overflow.

Each case runs under a deadline (an alarm in this process; a timeout and a memory limit for the
devices, which the old code read until the memory ran out).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import run_cli

from solver.rules.house import HOUSES, MAX_HOUSE_FILE
from solver.store.files import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parents[1]
DEADLINE = 20
"""Seconds any one case may take: each is refused at once, so this only catches a hang."""

FILE_OPTIONS = {
    # option: (argv with {} for the file, the suffix the option wants)
    "punto --bet": (["punto", "--bet", "{}"], ".toml"),
    "punto --tableau": (["punto", "--tableau", "{}"], ".json"),
    "simulate --strategy": (["simulate", "--game", "chemin", "--strategy", "{}", "--coups", "10", "--workers", "1"], ".json"),
    "table --policy": (["table", "--policy", "{}", "--sessions", "1", "--workers", "1"], ".json"),
    "eor --bet": (["eor", "--bet", "{}"], ".toml"),
    "count --bet": (["count", "--bet", "{}", "--shoes", "1", "--workers", "1"], ".toml"),
}


@pytest.fixture
def deadline() -> Iterator[None]:
    """Fail (rather than hang the suite) if the test takes longer than DEADLINE seconds."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within {DEADLINE} s: the command hangs")

    before = signal.signal(signal.SIGALRM, expired)
    signal.alarm(DEADLINE)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)


def _argv(option: str, path: Path) -> list[str]:
    argv, _ = FILE_OPTIONS[option]
    return [str(path) if a == "{}" else a for a in argv]


def _one_line(r, *needles: str) -> None:
    assert r.code == 2, (r.code, r.err)
    assert r.out == "" and r.err.count("\n") == 1 and r.err.startswith("baccarat: error: "), r.err
    assert "Traceback" not in r.err
    for needle in needles:
        assert needle in r.err, r.err


def _special(kind: str, path: Path) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    elif kind == "too large":
        with open(path, "wb") as fh:  # sparse: no disk space used
            fh.truncate(MAX_FILE_BYTES + 1)
    else:
        raise AssertionError(kind)


SPECIAL = {
    "fifo": "is a FIFO (named pipe), not a regular file",
    "directory": "is a directory, not a regular file",
    "too large": "larger than",
}


@pytest.mark.parametrize("kind", list(SPECIAL))
@pytest.mark.parametrize("option", list(FILE_OPTIONS))
def test_a_file_option_refuses_what_is_not_a_file_at_once(option, kind, tmp_path, monkeypatch, deadline) -> None:
    """A FIFO with no writer hung punto --bet forever; a directory or a huge file is refused by what
    it is, before anything is read."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / f"input{FILE_OPTIONS[option][1]}"
    _special(kind, path)
    limit = f"{MAX_HOUSE_FILE if option == 'punto --tableau' else MAX_FILE_BYTES:,} bytes"
    _one_line(run_cli(_argv(option, path)), SPECIAL[kind], *([limit] if kind == "too large" else []))


DEVICE_SCRIPT = """
import json, sys
sys.path.insert(0, "tests")
from conftest import run_cli
out = []
for argv in json.loads(sys.argv[1]):
    r = run_cli(argv)
    out.append([r.code, r.out, r.err])
print(json.dumps(out))
"""


def test_a_file_option_refuses_devices_without_reading_them(tmp_path) -> None:
    """/dev/zero, /dev/urandom or a symbolic link to one ended in a MemoryError traceback (after
    reading until the memory ran out): now refused by what they are, at once. Run in a child process
    with a memory limit and a timeout, so that the old behaviour fails the test, not the machine."""
    resource = pytest.importorskip("resource")
    cases = []
    for option, (_, suffix) in FILE_OPTIONS.items():
        for device in ("/dev/zero", "/dev/urandom"):
            link = tmp_path / f"{option.replace(' ', '_')}-{Path(device).name}{suffix}"
            link.symlink_to(device)
            cases.append(_argv(option, link))
    cases.append(["punto", "--bet", "/dev/zero"])  # the issue's own reproduction: no suffix at all

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    done = subprocess.run(
        [sys.executable, "-c", DEVICE_SCRIPT, json.dumps(cases)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit_memory,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    for argv, (code, out, err) in zip(cases, json.loads(done.stdout)):
        assert code == 2 and out == "" and err.count("\n") == 1, (argv, err)
        assert "is a device, not a regular file" in err, (argv, err)


def test_text_files_are_refused_for_nul_bytes_and_bad_utf8(tmp_path, deadline) -> None:
    nul = tmp_path / "nul.toml"
    nul.write_bytes(b'[[bet]]\nname = "x\0"\n')
    _one_line(run_cli(["punto", "--bet", str(nul)]), "a NUL byte at offset 17")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"name": "caf\xe9"}')
    _one_line(run_cli(["table", "--policy", str(latin)]), "not UTF-8")


# -- numbers and nesting -----------------------------------------------------------------------------

DEEP = 5000


def _policy(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "policy.json"
    p.write_text(text, encoding="utf-8")
    return p


def _strategy_with(value: str) -> str:
    from solver.strategy import KEMENY_SNELL

    player, banker = KEMENY_SNELL.tables()
    data = {"player": [[str(x) for x in row] for row in player.tolist()], "banker": banker.tolist()}
    text = json.dumps(data, default=str)
    return text.replace('"1"', value, 1)


NUMBER_CASES = [
    # (option, suffix, file text, what the one line says)
    ("table --policy", ".json", '{"stake": 1e1000000}', "exponent"),
    ("table --policy", ".json", '{"stake": 1e-1000000}', "exponent"),
    ("table --policy", ".json", '{"stake": "1e1000000"}', "exponent"),
    ("table --policy", ".json", '{"stake": 1e9_999_999}', "not valid JSON"),
    ("table --policy", ".json", '{"stake": "1e9_999_999"}', "exponent"),
    ("table --policy", ".json", '{"bankroll": ' + "7" * 5000 + "}", "a whole number of 5,000 digits"),
    ("table --policy", ".json", '{"stake": NaN}', "NaN is not a number"),
    ("table --policy", ".json", '{"bankroll": "' + "9" * 90 + 'e100"}', "bankroll: at most 1,000,000,000,000,000, got 999"),
    ("table --policy", ".json", "[" * DEEP + "]" * DEEP, "nested more than 32 deep"),
    ("table --policy", ".json", '{"seats": ' + '{"1": ' * 40 + "{}" + "}" * 41, "nested more than 32 deep"),
    ("simulate --strategy", ".json", None, "exponent"),
    ("simulate --strategy", ".json", '{"player": ' + "[" * DEEP + "]" * DEEP + "}", "nested more than 32 deep"),
    ("punto --bet", ".toml", '[[bet]]\nname = "t"\n[[bet.tier]]\npays = 1e1000000\n', "exponent"),
    ("punto --bet", ".toml", '[[bet]]\nname = "t"\n[[bet.tier]]\npays = ' + "9" * 5000 + "\n", "digits"),
    ("punto --bet", ".toml", "a = " + "[" * DEEP + "]" * DEEP + "\n", "nested more than 32 deep"),
    ("punto --bet", ".toml", "a = " + "{b = " * DEEP + "1" + "}" * DEEP + "\n", "nested more than 32 deep"),
    ("eor --bet", ".json", '{"bet": [{"name": "t", "tier": [{"pays": ' + "9" * 5000 + "}]}]}", "a whole number of 5,000 digits"),
    ("count --bet", ".json", '{"bet": ' + "[" * DEEP + "]" * DEEP + "}", "nested more than 32 deep"),
    ("punto --tableau", ".toml", "tie_pays = " + "9" * 5000 + "\n", "digits"),
    ("punto --tableau", ".toml", "a = " + "[" * DEEP + "]" * DEEP + "\n", "nested more than 32 deep"),
    ("punto --tableau", ".json", '{"tie_pays": 1' + "0" * 5000 + "}", "a whole number of 5,001 digits"),
]


@pytest.mark.parametrize(
    ("option", "suffix", "text", "message"), NUMBER_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(NUMBER_CASES)]
)
def test_numbers_and_nesting_in_files_are_bounded(option, suffix, text, message, tmp_path, deadline) -> None:
    """A huge exponent hung table and simulate; 5,000 digits gave Python's "Exceeds the limit (4300
    digits)" traceback; deep nesting a RecursionError traceback. Each is one line now, at once."""
    path = tmp_path / f"input{suffix}"
    path.write_text(_strategy_with("1e1000000") if text is None else text, encoding="utf-8")
    _one_line(run_cli(_argv(option, path)), message)


def test_a_huge_tie_pays_is_refused_before_the_simulator_divides(tmp_path, deadline) -> None:
    """A house tableau whose tie paid a huge amount gave an OverflowError in the simulator."""
    sheet = HOUSES["punto"].as_dict() | {"name": "rich", "tie_pays": 10**99}
    path = tmp_path / "rich.json"
    path.write_text(json.dumps(sheet), encoding="utf-8")
    for argv in (["simulate", "--tableau", str(path), "--coups", "100", "--workers", "1"], ["punto", "--tableau", str(path)]):
        _one_line(run_cli(argv), "tie_pays must be a whole number of units to 1, at most 1,000,000")
    sheet["tie_pays"] = 1_000_000  # the bound itself is a sheet
    path.write_text(json.dumps(sheet), encoding="utf-8")
    r = run_cli(["simulate", "--tableau", str(path), "--coups", "100", "--workers", "1"])
    assert r.code == 0 and "tie_1000000to1" in r.out, r.err


def test_count_tags_and_pays_that_would_overflow_are_one_line(tmp_path, deadline) -> None:
    """count --tags with 40-digit tags gave an OverflowError ("too large to convert to C long"), and so
    did a pay table whose numerators pass 2^63."""
    tags = "1,1,1,1,1,1,1,1,1," + "1" * 40
    _one_line(
        run_cli(["count", "--tags", tags, "--true-count", "1", "--shoes", "1", "--workers", "1"]), "a tag is at most 1,000,000"
    )
    _one_line(run_cli(["count", "--tags", "eor", "--level", "10" * 20, "--true-count", "1", "--shoes", "1"]), "a tag is at most")
    _one_line(run_cli(["count", "--tags", "1,0,0,0,0,0,0,0,0,0", "--true-count", "1/3" + "0" * 40, "--shoes", "1"]), "true count")
    bets = tmp_path / "big.toml"
    jackpot = "12345678901234567890123456789/7"
    bets.write_text(f'[[bet]]\nname = "jackpot"\n[[bet.tier]]\npays = "{jackpot}"\nwhen = {{ winner = "tie" }}\n')
    for command in (["count", "--shoes", "1", "--workers", "1"], ["punto"], ["eor"]):
        _one_line(
            run_cli([*command, "--bet", str(bets)]), "pays: a payout is at most 1,000,000 to 1, got 1763668414462081127160493827"
        )


def test_the_counting_kernel_refuses_pays_past_int64_before_numpy_overflows() -> None:
    """A bet built in code (not read from a file) whose numerators pass 2^63: one ModelError, not numpy's
    OverflowError."""
    from fractions import Fraction

    from solver.count.fastlaw import fast_law
    from solver.errors import ModelError
    from solver.punto import Bet, Tier
    from solver.punto.events import condition_from_mapping

    bet = Bet("jackpot", "a jackpot", (Tier(Fraction(10**30, 7), condition_from_mapping({"winner": "tie"}, "when"), "tie"),))
    with pytest.raises(ModelError, match="the payouts of jackpot are too large for the counting kernel's exact int64 sums"):
        fast_law([bet])


@pytest.mark.parametrize("option", ["punto --shoes", "crosscheck --coups"])
def test_stream_options_read_a_fifo_as_a_stream_and_refuse_a_directory(option, tmp_path, deadline) -> None:
    """--shoes and --coups take a stream ('-' is standard input): a FIFO is read as one (a writer
    feeds it), a directory is refused; /dev/zero is one over-long line, not a MemoryError."""
    argv = ["punto", "--shoes"] if option == "punto --shoes" else ["crosscheck", "--game", "punto", "--coups"]
    _one_line(run_cli([*argv, str(tmp_path)]), "is a directory, not a file")
    _one_line(run_cli([*argv, "/dev/zero"]), "longer than 100,000 characters")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    line = "--decks 8\n" if option == "punto --shoes" else "shoe\n2,K,3,3,7,4;B\nX\n"
    writer = subprocess.Popen([sys.executable, "-c", f"open({str(fifo)!r}, 'w').write({line!r})"])
    try:
        r = run_cli([*argv, str(fifo)])
    finally:
        writer.wait(timeout=DEADLINE)
    if option == "punto --shoes":
        assert r.code == 0 and json.loads(r.out)["input"] == "--decks 8", r.err
    else:  # read up to its third line, which is not a coup
        _one_line(r, f"{fifo}, line 3")
