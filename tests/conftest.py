"""Shared test helpers: run the command line in-process and capture its streams."""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from solver.cli import main


@dataclass
class Run:
    code: int
    out: str
    err: str


def run_cli(argv: Sequence[str], stdin: str = "") -> Run:
    """Run ``baccarat argv`` in-process, as a user would from the shell."""
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), io.StringIO(), io.StringIO()
    try:
        try:
            code = main(list(argv))
        except SystemExit as e:
            code = int(e.code or 0)
        return Run(code, sys.stdout.getvalue(), sys.stderr.getvalue())
    finally:
        sys.stdin, sys.stdout, sys.stderr = old


@pytest.fixture
def cli():
    return run_cli


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    """After the run: the modules past the architecture test's warning length (a note, not a failure)."""
    from test_architecture import WARN_LINES, long_modules

    long = long_modules()
    if long:
        terminalreporter.write_line(
            f"modules past {WARN_LINES} lines (still one idea?): " + ", ".join(f"{m} ({n})" for m, n in long)
        )


def json_results(out: str) -> list[dict]:  # type: ignore[type-arg]
    """The results of ``punto``, ``chemin`` or ``banque --format json``: one document whose ``results``
    lists them, however many the input asked for."""
    import json

    doc = json.loads(out)
    assert set(doc) == {"tool", "command", "results"}, sorted(doc)
    return doc["results"]  # type: ignore[no-any-return]


def json_result(out: str) -> dict:  # type: ignore[type-arg]
    """The one result of such a document (one shoe; one theta and concept)."""
    (only,) = json_results(out)
    return only
