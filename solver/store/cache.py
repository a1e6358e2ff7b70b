"""An on-disk cache for shoe-independent arrays: the deal trees and their groupings.

Building a tableau's deal tree and grouping its paths takes a few tenths of a second; they depend on
the tableau and on the enumerator's code only, so they are written once to the user's cache directory
and read back by every later process. The key of an entry hashes the digest of the package's code
(:mod:`solver.store.digest`) with the entry's own description, so changed code never reads a stale
entry. Writes are atomic (a temporary file renamed into place); an unreadable or damaged entry is
rebuilt; a directory that cannot be written is skipped silently (the cache only saves time).

An entry is a small header and the arrays' raw bytes (:data:`MAGIC`): numpy maps them without copying,
and :func:`load_plain` reads int64 arrays into Python lists without importing numpy, which is how
``baccarat punto`` prices a shoe from a compiled catalogue in about a third of numpy's import time.

Where: ``$BACCARAT_CACHE`` if set (``off`` disables the cache), else ``$XDG_CACHE_HOME/baccarat-solver``,
else ``~/.cache/baccarat-solver``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import tempfile
import zlib
from array import array
from pathlib import Path
from typing import TYPE_CHECKING

from solver.store.digest import code_digest

if TYPE_CHECKING:
    import numpy as np

ENV = "BACCARAT_CACHE"
FORMAT = "2"


def cache_dir() -> Path | None:
    """The cache directory, or ``None`` when the cache is off."""
    env = os.environ.get(ENV)
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "no") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "baccarat-solver"


def entry_key(*parts: object) -> str:
    """A file-name-safe key for an entry: the package's code (:func:`~solver.store.digest.code_digest`), the
    entry format and ``parts``, hashed."""
    h = hashlib.sha256((FORMAT + code_digest()).encode())
    for p in parts:
        h.update(repr(p).encode())
    return h.hexdigest()[:32]


MAGIC = b"baccarat-arrays 2\n"
"""The first line of an entry; the second is JSON, ``{"arrays": [[name, dtype, shape], ...], "crc32": C}``;
then each array's bytes in that order (C order), whose CRC-32 is ``C`` (a damaged entry is rebuilt, never
read). numpy reads an entry without copying, and plain Python reads its int64
arrays with :mod:`array` (:func:`load_plain`), so a command that only needs integers does without numpy."""

SUFFIX = ".arrays"

MAX_BYTES = 1 << 30
"""The most the cache's entries may hold together: a write beyond it removes the least recently used
(an entry's modification time is refreshed each time it is read). Entries of older versions of the
code are never read again, so without a bound the cache would only grow."""


def _read_entry(name: str, key: str) -> tuple[list[tuple[str, str, tuple[int, ...]]], bytearray, int] | None:
    """An entry's table of contents, its bytes and where its data starts, or ``None``."""
    d = cache_dir()
    if d is None:
        return None
    path = d / f"{name}-{key}{SUFFIX}"
    try:
        data = bytearray(path.read_bytes())
        if not data.startswith(MAGIC):
            return None
        end = data.index(b"\n", len(MAGIC))
        head = json.loads(data[len(MAGIC) : end])
        toc = [(str(n), str(t), tuple(int(x) for x in shape)) for n, t, shape in head["arrays"]]
        if zlib.crc32(memoryview(data)[end + 1 :]) != head["crc32"]:
            return None
    except (OSError, ValueError, TypeError, KeyError):
        return None
    try:
        os.utime(path)  # recently used: the last to be removed when the cache is full
    except OSError:
        pass  # a cache another user owns, or read-only: reading it is enough
    return toc, data, end + 1


def load_arrays(name: str, key: str) -> dict[str, np.ndarray] | None:
    """The arrays stored under ``name`` and ``key``, or ``None`` (absent, off, or unreadable)."""
    import numpy as np

    entry = _read_entry(name, key)
    if entry is None:
        return None
    toc, data, at = entry
    out = {}
    try:
        for n, t, shape in toc:
            dtype = np.dtype(t)
            count = math.prod(shape)
            if at + count * dtype.itemsize > len(data):
                return None
            out[n] = np.frombuffer(data, dtype=dtype, count=count, offset=at).reshape(shape)
            at += count * dtype.itemsize
    except (ValueError, TypeError):
        return None
    return out if at == len(data) else None


def load_plain(name: str, key: str) -> dict[str, tuple[list[int], tuple[int, ...]]] | None:
    """The int64 arrays stored under ``name`` and ``key`` as flat lists of Python integers with their
    shapes, read without numpy; ``None`` if absent, unreadable, or holding another type (or on a
    big-endian machine, where numpy's route serves)."""
    entry = _read_entry(name, key)
    if entry is None or sys.byteorder != "little":
        return None
    toc, data, at = entry
    out = {}
    for n, t, shape in toc:
        count = math.prod(shape)
        if t != "<i8" or at + 8 * count > len(data):
            return None
        values = array("q")
        values.frombytes(data[at : at + 8 * count])
        out[n] = (values.tolist(), shape)
        at += 8 * count
    return out if at == len(data) else None


def save_arrays(name: str, key: str, arrays: dict[str, np.ndarray], keep: int | None = None) -> None:
    """Store ``arrays`` under ``name`` and ``key`` (atomically; skipped if the directory is not writable).

    With ``keep``, at most that many entries of this ``name`` stay: the least recently used (written or
    read) go. Whatever the name, the whole cache stays within :data:`MAX_BYTES`.
    """
    import numpy as np

    d = cache_dir()
    if d is None:
        return
    contiguous = {n: np.ascontiguousarray(a) for n, a in arrays.items()}
    toc = [[n, a.dtype.str, list(a.shape)] for n, a in contiguous.items()]
    crc = 0
    for a in contiguous.values():
        crc = zlib.crc32(a.data, crc)
    try:
        d.mkdir(parents=True, exist_ok=True)
        for stale in d.glob(f"{name}-*.npz"):  # entries of the first format, never read again
            stale.unlink(missing_ok=True)
        if keep is not None:
            old = sorted(d.glob(f"{name}-*{SUFFIX}"), key=lambda p: p.stat().st_mtime)
            for p in old[: max(0, len(old) - keep + 1)]:
                p.unlink(missing_ok=True)
        fd, tmp = tempfile.mkstemp(dir=d, prefix=f".{name}-", suffix=SUFFIX)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(MAGIC + json.dumps({"arrays": toc, "crc32": crc}).encode() + b"\n")
                for a in contiguous.values():
                    fh.write(a.tobytes())
            os.replace(tmp, d / f"{name}-{key}{SUFFIX}")
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        _trim(d, d / f"{name}-{key}{SUFFIX}")
    except OSError:
        return


def _trim(d: Path, written: Path) -> None:
    """Remove the least recently used entries until all of them hold at most :data:`MAX_BYTES` (never
    the one just written)."""
    entries = []
    for p in d.glob(f"*{SUFFIX}"):
        try:
            st = p.stat()
        except OSError:
            continue
        entries.append((st.st_mtime, st.st_size, p))
    total = sum(size for _, size, _ in entries)
    for _, size, p in sorted(entries, key=lambda e: e[0]):
        if total <= MAX_BYTES:
            break
        if p != written and not p.name.startswith("."):
            p.unlink(missing_ok=True)
            total -= size
