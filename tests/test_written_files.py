"""Files the commands write are the user's: they get the permissions the user's umask gives a new file
(0644 under umask 022), or keep those of the file they replace (issue 24: they were all 0600)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from solver.store.files import write_text


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_certificate_is_written_0644_under_umask_022(cli, tmp_path: Path, umask_022) -> None:
    out = tmp_path / "ks.json"
    r = cli(["chemin", "--decks", "inf", "--information", "1", "--freedom", "parlor", "--certificate", str(out)])
    assert r.code == 0, r.err
    assert mode(out) == 0o644


def test_a_new_file_follows_the_umask_and_a_replaced_one_keeps_its_mode(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        assert mode(write_text(tmp_path / "private.txt", "x")) == 0o600
    finally:
        os.umask(old)
    shared = tmp_path / "shared.txt"
    shared.write_text("old")
    shared.chmod(0o640)
    write_text(shared, "new", overwrite=True)
    assert shared.read_text() == "new" and mode(shared) == 0o640
