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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep ``@pytest.mark.slow`` checks out of the default run, as the marker promises; ``-m slow``
    (or any ``-m`` expression naming slow) runs them."""
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
