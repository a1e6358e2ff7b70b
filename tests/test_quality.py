"""The quality gate runs inside the test command: ruff (lint) and mypy (types) on the package."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True)


def test_ruff() -> None:
    if shutil.which("ruff") is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    paths = [p for p in ("solver", "tests", "proofs") if (ROOT / p).exists()]
    r = _run(["ruff", "check", *paths])
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy() -> None:
    r = _run([sys.executable, "-m", "mypy", "--no-error-summary"])
    if "No module named mypy" in r.stderr:
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    assert r.returncode == 0, r.stdout + r.stderr
