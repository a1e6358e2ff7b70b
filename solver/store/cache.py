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
import re
import sys
import tempfile
import zlib
from array import array
from pathlib import Path
from typing import TYPE_CHECKING

from solver.errors import InputError
from solver.store.digest import code_digest
from solver.store.files import read_bytes

if TYPE_CHECKING:
    import numpy as np

ENV = "BACCARAT_CACHE"
FORMAT = "3"


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


MAGIC = b"baccarat-arrays 3\n"
"""The first line of an entry. The second is the CRC-32 of everything after it, in 8 hexadecimal
digits; the third is JSON, ``{"arrays": [[name, dtype, shape], ...]}``; then each array's bytes in
that order (C order). The checksum covers the table of contents as well as the data, so an entry whose
header or data is damaged or edited is rebuilt, never read; and a table of contents is read only if
it is exactly what :func:`save_arrays` writes (native integer, boolean or float types, shapes whose
sizes add up to the data). numpy reads an entry without copying, and plain Python reads its int64
arrays with :mod:`array` (:func:`load_plain`), so a command that only needs integers does without
numpy."""

SUFFIX = ".arrays"

MAX_BYTES = 1 << 30
"""The most the cache's entries may hold together: a write beyond it removes the least recently used
(an entry's modification time is refreshed each time it is read). Entries of older versions of the
code are never read again, so without a bound the cache would only grow."""

MAX_ENTRY_BYTES = 1 << 30
"""No entry larger than this is read (the largest, a deal tree, takes 15 MB)."""

MAX_HEADER = 1 << 16
"""The longest table of contents read, in bytes (a few arrays take a few hundred)."""

_ORDER = "<" if sys.byteorder == "little" else ">"
DTYPES = frozenset({"|b1", "|i1", "|u1", *(f"{_ORDER}{k}{n}" for k in "iu" for n in "248"), *(f"{_ORDER}f{n}" for n in "248")})
"""The array types an entry may hold (numpy's names, in this machine's byte order): what the cache
stores, and nothing whose bytes could be read as other numbers (another byte order, dates, objects)."""
_CRC = re.compile(rb"[0-9a-f]{8}\n")

Toc = list[tuple[str, str, tuple[int, ...]]]

_reported: set[str] = set()


def _rebuilding(path: Path, why: str) -> None:
    """Say once on stderr (per entry and process) that an entry could not be used and is rebuilt."""
    if path.name in _reported:
        return
    _reported.add(path.name)
    try:
        sys.stderr.write(f"baccarat: note: the cache entry {path} {why}; rebuilding it\n")
    except (OSError, ValueError, AttributeError):  # no usable stderr: the rebuild goes on all the same
        pass


def _toc(head: object, size: int) -> Toc | None:
    """The table of contents in ``head`` if it is one :func:`save_arrays` writes for ``size`` bytes of data."""
    if not isinstance(head, dict) or set(head) != {"arrays"} or not isinstance(head["arrays"], list):
        return None
    toc: Toc = []
    total = 0
    for item in head["arrays"]:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str) and isinstance(item[1], str)):
            return None
        name, t, shape = item
        if t not in DTYPES:
            return None
        if not isinstance(shape, list) or len(shape) > 8 or not all(type(n) is int and n >= 0 for n in shape):
            return None
        total += math.prod(shape) * int(t[2])
        toc.append((name, t, tuple(shape)))
    return toc if total == size and len({n for n, _, _ in toc}) == len(toc) else None


def _read_entry(name: str, key: str) -> tuple[Toc, bytearray, int] | None:
    """An entry's table of contents, its bytes and where its data starts, or ``None`` (absent, or
    unusable: then said once on stderr, and the caller rebuilds it)."""
    d = cache_dir()
    if d is None:
        return None
    path = d / f"{name}-{key}{SUFFIX}"
    try:
        data = read_bytes(path, path.name, MAX_ENTRY_BYTES)
    except InputError as e:
        if os.path.lexists(path):
            _rebuilding(path, f"cannot be used ({e})")
        return None
    crc_end = len(MAGIC) + 9
    if not data.startswith(MAGIC) or not _CRC.fullmatch(data[len(MAGIC) : crc_end]):
        _rebuilding(path, "is not an entry of this format")
        return None
    if zlib.crc32(memoryview(data)[crc_end:]) != int(data[len(MAGIC) : crc_end - 1], 16):
        _rebuilding(path, "fails its checksum")
        return None
    end = data.find(b"\n", crc_end, crc_end + MAX_HEADER)
    try:
        toc = _toc(json.loads(data[crc_end:end]), len(data) - end - 1) if end >= 0 else None
    except (ValueError, RecursionError):
        toc = None
    if toc is None:
        _rebuilding(path, "has a table of contents this code does not write")
        return None
    try:
        os.utime(path)  # recently used: the last to be removed when the cache is full
    except OSError:
        pass  # a cache another user owns, or read-only: reading it is enough
    return toc, data, end + 1


def load_arrays(name: str, key: str) -> dict[str, np.ndarray] | None:
    """The arrays stored under ``name`` and ``key``, or ``None`` (absent, off, or unusable)."""
    import numpy as np

    entry = _read_entry(name, key)
    if entry is None:
        return None
    toc, data, at = entry
    out = {}
    for n, t, shape in toc:
        count = math.prod(shape)
        out[n] = np.frombuffer(data, dtype=np.dtype(t), count=count, offset=at).reshape(shape)
        at += count * int(t[2])
    return out


def load_plain(name: str, key: str) -> dict[str, tuple[list[int], tuple[int, ...]]] | None:
    """The int64 arrays stored under ``name`` and ``key`` as flat lists of Python integers with their
    shapes, read without numpy; ``None`` if absent, unusable, or holding another type (or on a
    big-endian machine, where numpy's route serves)."""
    if sys.byteorder != "little":
        return None
    entry = _read_entry(name, key)
    if entry is None:
        return None
    toc, data, at = entry
    if any(t != "<i8" for _, t, _ in toc):
        return None
    out = {}
    for n, _, shape in toc:
        count = math.prod(shape)
        values = array("q")
        values.frombytes(data[at : at + 8 * count])
        out[n] = (values.tolist(), shape)
        at += 8 * count
    return out


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
    head = json.dumps({"arrays": toc}).encode() + b"\n"
    crc = zlib.crc32(head)
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
                fh.write(MAGIC + b"%08x\n" % crc + head)
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
