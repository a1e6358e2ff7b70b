"""The examples in docs/simulate.md are run: each ``console`` block's command and its output."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "simulate.md"


def _examples() -> list[tuple[str, str]]:
    out = []
    for indent, block in re.findall(r"^( *)```console\n(.*?)^\1```", DOC.read_text(encoding="utf-8"), flags=re.S | re.M):
        lines = [line[len(indent):] for line in block.splitlines()]
        assert lines[0].startswith("$ ")
        out.append((lines[0][2:], "\n".join(lines[1:]) + "\n"))
    return out


@pytest.mark.parametrize(("command", "expected"), _examples())
def test_doc_example(command: str, expected: str) -> None:
    shell = command.replace("baccarat ", f"{sys.executable} -m solver.cli ", 1)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run(["bash", "-c", shell], cwd=ROOT, capture_output=True, text=True, env=env)
    assert r.stdout + r.stderr == expected
