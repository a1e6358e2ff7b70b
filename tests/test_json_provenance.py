"""Every JSON document says which tool made it and how: ``tool`` (name, version) and ``command``.

The fields are added once, at the output boundary (:func:`solver.cli.common.json_document`), so a
command added later through the same helpers gets them too; the last test keeps every command
module on that path.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from conftest import run_cli

import solver

COMMANDS = [
    ["punto", "--decks", "inf", "--format", "json"],
    ["punto", "--decks", "1,inf", "--format", "json", "--digits", "3"],
    ["chemin", "--decks", "inf", "--information", "1", "--freedom", "parlor", "--format", "json"],
    ["chemin", "--decks", "inf", "--commission", "1/20", "--format", "json"],
    ["report", "--decks", "inf", "--commission", "0", "--format", "json"],
    ["simulate", "--coups", "2000", "--seed", "3", "--workers", "1", "--format", "json"],
    ["crosscheck", "--simulate", "2000", "--seed", "3", "--workers", "1", "--format", "json"],
    ["punto", "--decks", "8", "--bets", "dragon7", "--format", "json"],
    ["eor", "--decks", "8", "--bets", "dragon7", "--format", "json"],
    ["count", "--decks", "8", "--bets", "dragon7", "--shoes", "3", "--workers", "1", "--format", "json"],
]


def documents(out: str) -> list[dict]:
    text = out.strip()
    if text.startswith("{\n"):
        return [json.loads(text)]
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_every_document_names_the_tool_and_the_command(argv: list[str]) -> None:
    r = run_cli(argv)
    assert r.code in (0, 1), r.err
    docs = documents(r.out)
    assert docs
    for d in docs:
        assert list(d)[:2] == ["tool", "command"]
        assert d["tool"] == {"name": "baccarat", "version": solver.__version__}
        assert d["command"] == shlex.join(["baccarat", *argv])


@pytest.mark.parametrize("argv", [COMMANDS[0], COMMANDS[2]], ids=["punto", "chemin"])
def test_the_command_typed_again_gives_the_same_document(argv: list[str]) -> None:
    first = documents(run_cli(argv).out)
    words = shlex.split(first[0]["command"])
    assert words[0] == "baccarat"
    assert documents(run_cli(words[1:]).out) == first


def test_batch_lines_keep_their_fields() -> None:
    r = run_cli(["punto", "--shoes", "-"], stdin="--decks 8 --remove 5,5\n# a comment\n--decks inf\n")
    assert r.code == 0, r.err
    docs = documents(r.out)
    assert [d["line"] for d in docs] == [1, 3]
    assert [d["input"] for d in docs] == ["--decks 8 --remove 5,5", "--decks inf"]
    assert all(d["command"] == "baccarat punto --shoes -" and d["game"] == "punto banco" for d in docs)


def test_commands_write_json_only_through_the_boundary() -> None:
    cli = Path(solver.__file__).parent / "cli"
    bad = [p.name for p in cli.glob("*.py") if p.name != "common.py" and re.search(r"json\.dumps?\(", p.read_text())]
    assert not bad, f"write JSON with solver.cli.common.emit_json, so that tool and command are added: {bad}"
