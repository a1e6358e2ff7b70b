"""One digest of the package's code: what every disk-cache entry and every compiled kernel is keyed by.

A cached array (a deal tree, a grouping of its paths, a compiled bet set) or a kernel numba keeps on
disk was made by the code as it was; if any module has changed since, the entry may hold other
numbers. Rather than each entry listing the files it depends on (and missing one, as a digest of a
single file did), every entry is keyed by the digest of every source file of the package, so any
change to the code rebuilds everything the cache holds (docs/design.md, "Invariants").

>>> len(code_digest()), code_digest() == code_digest()
(64, True)
"""

from __future__ import annotations

import hashlib
import os
from functools import cache

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The ``solver`` package's folder."""

SOURCES = (".py", ".c")
"""What counts as code: the modules and the C kernel's source."""


def digest_of(folder: str) -> str:
    """The SHA-256 of every source file under ``folder`` (its path there and its bytes), in a fixed order;
    ``__pycache__`` folders are left out."""
    files = []
    for parent, subfolders, names in os.walk(folder):
        subfolders[:] = [s for s in subfolders if s != "__pycache__"]
        files += [os.path.join(parent, n) for n in names if n.endswith(SOURCES)]
    h = hashlib.sha256()
    for path in sorted(files):
        h.update(os.path.relpath(path, folder).replace(os.sep, "/").encode())
        h.update(b"\0")
        with open(path, "rb") as f:
            h.update(f.read())
        h.update(b"\0")
    return h.hexdigest()


@cache
def code_digest() -> str:
    """The digest of the package's code (:func:`digest_of` its folder; about 5 ms, read once a process)."""
    return digest_of(PACKAGE)
