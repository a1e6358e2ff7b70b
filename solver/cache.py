"""An on-disk cache for shoe-independent arrays: the deal trees and their groupings.

Building a tableau's deal tree and grouping its paths takes a few tenths of a second; they depend on
the tableau and on the enumerator's code only, so they are written once to the user's cache directory
and read back by every later process. The key of an entry hashes the enumerator's source
(``solver/deal.py``) with the entry's own description, so a changed enumerator never reads a stale
entry. Writes are atomic (a temporary file renamed into place); an unreadable or damaged entry is
rebuilt; a directory that cannot be written is skipped silently (the cache only saves time).

Where: ``$BACCARAT_CACHE`` if set (``off`` disables the cache), else ``$XDG_CACHE_HOME/baccarat-solver``,
else ``~/.cache/baccarat-solver``.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from functools import cache
from pathlib import Path

import numpy as np

ENV = "BACCARAT_CACHE"
FORMAT = "1"


def cache_dir() -> Path | None:
    """The cache directory, or ``None`` when the cache is off."""
    env = os.environ.get(ENV)
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "no") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "baccarat-solver"


@cache
def _source_digest() -> str:
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(FORMAT.encode())
    for name in ("deal.py", "rules.py", "cache.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()


def entry_key(*parts: object) -> str:
    """A file-name-safe key for an entry: the enumerator's source and ``parts``, hashed."""
    h = hashlib.sha256(_source_digest().encode())
    for p in parts:
        h.update(repr(p).encode())
    return h.hexdigest()[:32]


def load_arrays(name: str, key: str) -> dict[str, np.ndarray] | None:
    """The arrays stored under ``name`` and ``key``, or ``None`` (absent, off, or unreadable)."""
    d = cache_dir()
    if d is None:
        return None
    path = d / f"{name}-{key}.npz"
    try:
        with np.load(path, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}
    except (OSError, ValueError, KeyError, EOFError):
        return None


def save_arrays(name: str, key: str, arrays: dict[str, np.ndarray], keep: int | None = None) -> None:
    """Store ``arrays`` under ``name`` and ``key`` (atomically; skipped if the directory is not writable).

    With ``keep``, at most that many entries of this ``name`` stay: the least recently written go.
    """
    d = cache_dir()
    if d is None:
        return
    try:
        d.mkdir(parents=True, exist_ok=True)
        if keep is not None:
            old = sorted(d.glob(f"{name}-*.npz"), key=lambda p: p.stat().st_mtime)
            for p in old[: max(0, len(old) - keep + 1)]:
                p.unlink(missing_ok=True)
        fd, tmp = tempfile.mkstemp(dir=d, prefix=f".{name}-", suffix=".npz")
        try:
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, **arrays)  # type: ignore[arg-type]
            os.replace(tmp, d / f"{name}-{key}.npz")
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:
        return
