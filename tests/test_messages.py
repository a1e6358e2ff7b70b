"""What a command says on stderr: the progress line (never mixed with the data on stdout, with a per cent
and a time left), the one-time note that numba compiles, and output folders checked before the work."""

from __future__ import annotations

import importlib
import io
import time

import pytest
from conftest import run_cli

from solver.cli import messages
from solver.cli.messages import ERASE, KERNELS, Progress, emit, note_compiling


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def screen(monkeypatch: pytest.MonkeyPatch) -> Terminal:
    """stdout and stderr both on one terminal, as a person sees them (each test points the streams at it:
    pytest's capture sets them again when the test starts)."""
    monkeypatch.setattr(Progress, "show", None)
    monkeypatch.setattr(Progress, "quiet", False)
    monkeypatch.setattr(Progress, "active", None)
    return Terminal()


def on(screen: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdout", screen)
    monkeypatch.setattr("sys.stderr", screen)


def visible(text: str) -> list[str]:
    """The lines a terminal shows after ``text``: a carriage return goes back to the start of the line,
    ERASE clears the line."""
    lines, line = [], ""
    for part in text.replace(ERASE, "\r").split("\n"):
        line = part.split("\r")[-1]
        lines.append(line)
    return lines[:-1] if not line else lines


def test_the_progress_line_says_how_far_and_how_long_is_left(screen: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    on(screen, monkeypatch)
    p = Progress(200, "shoes")
    p.start -= 10  # as if 50 shoes had taken ten seconds
    p.update(50)
    assert screen.getvalue() == ERASE + "shoes: 50/200 (25 %, 5/s, about 30 s left)"
    assert p.line(200, p.start + 40) == "shoes: 200/200 (100 %, 5/s)"


def test_data_is_never_written_into_the_progress_line(screen: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    on(screen, monkeypatch)
    # `figures` once wrote "figures: 1/9 (0/s)/tmp/...pdf": the file list on stdout ran into the progress
    # line on stderr. emit() takes the line off first; the next update draws it again, below the data.
    p = Progress(9, "figures")
    p.start -= 5
    p.update(1)
    emit(["/tmp/out/punto-edges.pdf"])
    p.update(2)
    p.close()
    shown = visible(screen.getvalue())
    assert shown[0] == "/tmp/out/punto-edges.pdf"
    assert shown[1].startswith("figures: 9/9 done in ")
    assert Progress.active is None


def test_in_a_log_the_progress_is_whole_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    log = io.StringIO()  # --progress with stderr not a terminal
    monkeypatch.setattr(Progress, "show", True)
    p = Progress(10, "shoes", log)
    p.start -= 20
    p.update(4)
    p.close()
    assert "\r" not in log.getvalue() and "\x1b" not in log.getvalue()
    assert log.getvalue().splitlines()[0].startswith("shoes: 4/10 (40 %")
    assert log.getvalue().splitlines()[1].startswith("shoes: 10/10 done in ")


def test_an_interrupted_line_is_finished_so_the_error_starts_a_line(screen: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    on(screen, monkeypatch)
    with pytest.raises(KeyboardInterrupt), Progress(10, "shoes") as p:
        p.start -= 5
        p.update(3)
        raise KeyboardInterrupt
    assert screen.getvalue().endswith("\n") and visible(screen.getvalue())[0].startswith("shoes: 3/10")


def test_the_compiling_note_is_said_once_and_only_where_it_helps(screen: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    on(screen, monkeypatch)
    monkeypatch.setattr(messages, "_SAID", [])
    monkeypatch.setattr("solver.store.jitcache.cold", lambda module, name: True)
    note_compiling(KERNELS["count"])
    note_compiling(KERNELS["banque"])
    assert screen.getvalue() == "baccarat: note: compiling the kernels (first run only, about 20 s)\n"
    monkeypatch.setattr(messages, "_SAID", [])
    monkeypatch.setattr("solver.store.jitcache.cold", lambda module, name: False)  # compiled code on disk
    note_compiling(KERNELS["count"])
    assert screen.getvalue().count("compiling") == 1
    # in a log (the test suite's case), or with --quiet, nothing
    log = io.StringIO()
    monkeypatch.setattr("sys.stderr", log)  # not a terminal
    monkeypatch.setattr("solver.store.jitcache.cold", lambda module, name: True)
    note_compiling(KERNELS["count"])
    monkeypatch.setattr("sys.stderr", screen)
    monkeypatch.setattr(Progress, "quiet", True)
    note_compiling(KERNELS["count"])
    assert log.getvalue() == "" and screen.getvalue().count("compiling") == 1


@pytest.mark.parametrize("kernel", [k for kernels in KERNELS.values() for k in kernels], ids=lambda k: ".".join(k))
def test_each_kernel_named_is_a_function_numba_compiles(kernel: tuple[str, str]) -> None:
    from pathlib import Path

    import solver

    module, name = kernel
    assert callable(getattr(importlib.import_module(module), name))
    sources = "".join(p.read_text(encoding="utf-8") for p in Path(solver.__file__).parent.rglob("*.py"))
    assert f'__file__, "{name}")' in sources  # drop_stale(..., NAME) before numba compiles it with cache=True


def test_a_kernel_is_cold_until_compiled_by_this_code(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from solver.store.digest import code_digest
    from solver.store.jitcache import cold

    (tmp_path / "kern.py").write_text("def f():\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    sys.modules.pop("kern", None)
    assert cold("kern", "f")  # nothing on disk
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    python = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"  # numba's name for this Python
    (cache / f"kern.f-2.{python}.nbi").write_text("")
    (cache / "kern.f.sources").write_text("an older version of the code")
    assert cold("kern", "f")  # written by other code: dropped and compiled again
    (cache / "kern.f.sources").write_text(code_digest())
    assert not cold("kern", "f")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not cold("kern", "f")  # cannot be told: said nothing
    assert not cold("no_such_module_here", "f")


@pytest.mark.parametrize(
    ("argv", "work", "message"),
    [
        (["tables", "--out", "/proc/nope"], "solver.analysis.paper.paper_results", "--out /proc/nope: cannot create it in /proc"),
        (
            ["latex", "--out", "/dev/null/x"],
            "solver.analysis.paper.paper_results",
            "--out /dev/null/x: /dev/null is not a directory",
        ),
        (["figures", "--out", "/dev/null/x"], "solver.report.figures.images", "--out /dev/null/x: /dev/null is not a directory"),
        (["figures", "--out", "/dev/null"], "solver.report.figures.images", "--out /dev/null: not a directory"),
        (["parsheet", "--out", "/proc/nope", "--no-simulate"], "solver.analysis.parsheet.par_sheet", "--out /proc/nope: cannot"),
    ],
)
def test_an_unusable_out_is_refused_before_the_work(argv: list[str], work: str, message: str, monkeypatch) -> None:
    # `tables --out /proc/nope` once computed for 48 s before it failed to write; now it fails at once
    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started")

    module, name = work.rsplit(".", 1)
    monkeypatch.setattr(importlib.import_module(module), name, never)
    start = time.perf_counter()
    r = run_cli(argv)
    assert r.code == 2 and r.out == "" and message in r.err and r.err.count("\n") == 1, r.err
    assert time.perf_counter() - start < 30


def test_out_may_be_a_folder_still_to_create(tmp_path) -> None:
    from solver.store.files import check_out_dir

    target = tmp_path / "new" / "deeper"
    assert check_out_dir(str(target)) == target and not (tmp_path / "new").exists()  # checked, not created
    assert list(tmp_path.iterdir()) == []  # the probe file is gone


def test_an_error_after_a_progress_line_starts_a_line_of_its_own(screen: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    # a command that keeps its progress line open when an error ends the work: main() finishes the line
    from solver.cli import main
    from solver.errors import InputError

    def fails(args: object) -> int:
        p = Progress(10, "shoes")
        p.start -= 5
        p.update(2)
        raise InputError("the shoe ran out")

    on(screen, monkeypatch)
    monkeypatch.setattr("solver.cli.build_parser", lambda only=None: _parser(fails))
    assert main(["punto"]) == 2
    assert visible(screen.getvalue())[-1] == "baccarat: error: the shoe ran out"
    assert visible(screen.getvalue())[0].startswith("shoes: 2/10")


def _parser(run: object) -> object:
    import argparse

    p = argparse.ArgumentParser(prog="baccarat")
    p.add_argument("command")
    p.set_defaults(run=run)
    return p
