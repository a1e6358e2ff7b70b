"""Every command's ``--help``, read at the terminal's width: wrapped by the program, never by the terminal.

At 60, 80 and 120 columns no line is longer than the terminal (but for a single word too long for any
line, such as a long path) and no word is broken across two lines: every word of a narrow help is a word
of the same help laid out on one very wide terminal. And the help says what each command does: its
defaults agree with themselves, a command that takes one shoe does not offer a list of them.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli

from solver.cli import COMMANDS
from solver.cli.parser import layout

ROOT = Path(__file__).resolve().parents[1]
WIDTHS = (60, 80, 120)
WIDE = 1000
HELPS = ("", *COMMANDS, "baccarat-check")


def help_text(command: str, columns: int, monkeypatch: pytest.MonkeyPatch) -> str:
    """``baccarat COMMAND --help`` (``baccarat-check --help`` for that name) at ``columns`` columns."""
    monkeypatch.setenv("COLUMNS", str(columns))
    if command == "baccarat-check":
        env = {"COLUMNS": str(columns), "PATH": "/usr/bin:/bin"}
        r = subprocess.run([sys.executable, str(ROOT / "proofs" / "check.py"), "--help"], capture_output=True, text=True, env=env)
        assert r.returncode == 0, r.stderr
        return r.stdout
    r = run_cli([command, "--help"] if command else ["--help"])
    assert r.code == 0, r.err
    return r.out


def too_long(lines: list[str], width: int) -> list[str]:
    """The lines longer than ``width`` that could have been broken (more than one word, a shell
    continuation's backslash aside)."""
    return [line for line in lines if len(line) > width and len(line.replace(" \\", "").split()) > 1]


@pytest.mark.parametrize("command", HELPS, ids=lambda c: c or "baccarat")
def test_help_fits_the_terminal_and_breaks_no_word(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    words = set(help_text(command, WIDE, monkeypatch).split()) | {"\\"}
    for width in WIDTHS:
        text = help_text(command, width, monkeypatch)
        lines = text.splitlines()
        assert not too_long(lines, width), (width, too_long(lines, width))
        broken = [w for w in text.split() if w not in words]
        assert not broken, (width, broken)


def test_the_test_sees_a_broken_word_and_a_long_line() -> None:
    # The two checks above can fail: a text wrapped by hand at 100 columns, as the epilogs were, is too
    # long at 60; wrapped the way textwrap does by default, a hyphenated word breaks at its hyphen.
    import textwrap

    text = "a" * 16 + " comma-separated list"
    assert too_long(["a" * 30 + " " + "b" * 40], 60)
    assert not too_long(["/" + "a" * 80], 60)  # one word: nothing to break
    hand = " ".join(textwrap.wrap(text, 23)).split()  # textwrap's defaults break at hyphens
    assert "comma-" in hand and "comma-" not in text.split()
    assert layout(text, 23).splitlines() == ["a" * 16, "comma-separated list"]


def test_layout_keeps_examples_aligned_and_continues_long_commands() -> None:
    epilog = (
        "A paragraph of prose that is long enough to be wrapped at forty columns.\n\n"
        "examples:\n"
        "  baccarat punto --decks 6         six decks\n"
        "  baccarat punto --decks 1,2,8     three shoes side by side\n"
        "  baccarat chemin --decks 6 --information 3 --freedom parlor --certificate b3.json\n"
    )
    wide = layout(epilog, 100).splitlines()
    assert wide[0] == "A paragraph of prose that is long enough to be wrapped at forty columns."
    assert wide[3] == "  baccarat punto --decks 6      six decks"
    assert wide[4] == "  baccarat punto --decks 1,2,8  three shoes side by side"
    narrow = layout(epilog, 40).splitlines()
    assert narrow[:2] == ["A paragraph of prose that is long enough", "to be wrapped at forty columns."]
    # too narrow for two columns: each command on its line, what it does below it
    assert narrow[4:6] == ["  baccarat punto --decks 6", "      six decks"]
    # a command longer than the line continues after a backslash, as a shell reads it
    tail = narrow[narrow.index("  baccarat punto --decks 1,2,8") + 2 :]
    assert all(line.endswith(" \\") for line in tail[:-1]) and not tail[-1].endswith("\\")
    assert " ".join(line.rstrip(" \\").strip() for line in tail) == (
        "baccarat chemin --decks 6 --information 3 --freedom parlor --certificate b3.json"
    )


def test_a_continuation_line_joins_its_entry() -> None:
    text = "models:\n  --freedom  parlor: the banker is free in every\n             cell; casino: the tableau\n"
    assert layout(text, 100).splitlines() == [
        "models:",
        "  --freedom  parlor: the banker is free in every cell; casino: the tableau",
    ]


@pytest.mark.parametrize(("command", "decks"), [("punto", "8"), ("chemin", "6"), ("banque", "6"), ("table", "6"), ("count", "8")])
def test_one_default_deck_count_per_command(command: str, decks: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # `chemin --help` once said "--decks ... (default 6)" and, in a shared block below, "(default 8)"
    text = " ".join(help_text(command, WIDE, monkeypatch).split())
    defaults = set(re.findall(r"standard decks \(default (\d+)\)", text))
    assert defaults == {decks}, defaults
    assert "(default 8)" not in text or decks == "8"


@pytest.mark.parametrize("command", ["simulate", "eor", "table", "count", "crosscheck"])
def test_a_command_of_one_shoe_offers_no_list_of_decks(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = " ".join(help_text(command, WIDE, monkeypatch).split())
    assert "comma list" not in text and "a list such as 1,2,8,inf" not in text
    r = run_cli([command, "--decks", "6,8"])
    assert r.code == 2 and "one shoe" in r.err


@pytest.mark.parametrize("command", ["punto", "chemin", "banque", "parsheet"])
def test_a_command_of_several_shoes_says_so(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "a list such as 1,2,8,inf for one result per shoe" in " ".join(help_text(command, WIDE, monkeypatch).split())


def test_the_tools_say_what_they_cover(monkeypatch: pytest.MonkeyPatch) -> None:
    top = " ".join(help_text("", WIDE, monkeypatch).split())
    assert all(game in top for game in ("punto banco", "chemin de fer", "baccara banque"))
    check = " ".join(help_text("baccarat-check", WIDE, monkeypatch).split())
    assert "chemin de fer and baccara banque certificates" in check


def test_crosscheck_offers_no_cut_card_option_it_does_not_have(monkeypatch: pytest.MonkeyPatch) -> None:
    text = help_text("crosscheck", WIDE, monkeypatch)
    assert "--cut" not in text and "--extra-coup" not in text


@pytest.mark.parametrize(
    "argv", [["punto", "--format", "xml"], ["chemin", "--information", "4"], ["simulate", "--coups", "x"], ["--nope"]]
)
def test_a_usage_error_has_the_one_prefix(argv: list[str]) -> None:
    # argparse's own errors said "baccarat punto: error:", ours "baccarat: error:": one form now
    r = run_cli(argv)
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1
    assert r.err.startswith("baccarat: error: ") and "--help)" in r.err, r.err


@pytest.mark.parametrize("command", ["latex", "figures"])
def test_each_generator_gives_the_whole_recipe_of_the_report(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/report.tex inputs the tables and the figures: the help of either generator names both
    commands, as the report's first lines do, so a fresh clone following one help builds the PDF."""
    text = help_text(command, WIDE, monkeypatch)
    header = (ROOT / "docs" / "report.tex").read_text().split("\\documentclass")[0]
    generators = re.findall(r"^%\s+(baccarat \w+ --out \S+)$", header, flags=re.M)
    assert sorted(generators) == ["baccarat figures --out docs/figures", "baccarat latex --out docs/tables"], header
    for generator in generators:
        assert generator in text, (command, generator)
    assert "pdflatex report.tex" in text
