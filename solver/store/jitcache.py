"""Keeping numba's on-disk cache honest: a kernel's entries are dropped when the package's code changes.

numba caches a function compiled with ``cache=True`` in ``__pycache__`` beside its source, and checks
that entry against that one file's time stamp and size. The machine code it stores also holds every
compiled function the kernel calls, inlined or linked, from other modules: when only one of those
changes (a checkout, an edit), numba would load the old code. :func:`drop_stale` closes the gap: it
keeps the digest of the package's code (:func:`~solver.store.digest.code_digest`, the one digest every
cache entry is keyed by) beside a kernel's entries and removes them when it changes, so numba compiles
afresh. (With ``NUMBA_CACHE_DIR`` set, numba keeps its entries there instead; clear that directory
after changing a kernel.)
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from solver.store.digest import code_digest


def drop_stale(source: str | Path, qualname: str) -> bool:
    """Remove the cached entries of the kernel ``qualname`` of module file ``source`` if the package's code
    changed since the entries were written; returns whether it did.

    Call it before compiling the kernel. Unreadable or unwritable places are left alone (the cache only
    saves time).
    """
    source = Path(source)
    digest = code_digest()
    folder = source.parent / "__pycache__"
    stamp = folder / f"{source.stem}.{qualname}.sources"
    try:
        if stamp.read_text(encoding="ascii") == digest:
            return False
    except OSError:
        pass
    dropped = False
    for entry in folder.glob(f"{source.stem}.{qualname}-*"):
        if entry.suffix in (".nbi", ".nbc"):
            entry.unlink(missing_ok=True)
            dropped = True
    try:
        folder.mkdir(exist_ok=True)
        stamp.write_text(digest, encoding="ascii")
    except OSError:
        pass
    return dropped


def is_cached(source: str | Path, qualname: str) -> bool:
    """Whether numba's disk cache beside module file ``source`` holds entries of the kernel ``qualname``
    written by this code for this Python (:func:`drop_stale`'s stamp is the package's digest, and an
    index named for this interpreter's version is there: numba keeps one per ``pyXY``, so a clone used
    by two Pythons has one Python's entries and not the other's):
    loading it then takes a fraction of a second where compiling it may take tens of seconds. ``False``
    where ``NUMBA_CACHE_DIR`` keeps the entries elsewhere (this cannot tell)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return False
    source = Path(source)
    folder = source.parent / "__pycache__"
    try:
        if (folder / f"{source.stem}.{qualname}.sources").read_text(encoding="ascii") != code_digest():
            return False
    except OSError:
        return False
    python = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"  # as numba names it
    return any(folder.glob(f"{source.stem}.{qualname}-*.{python}.nbi"))


def cold(module: str, qualname: str) -> bool:
    """Whether numba would compile the kernel ``qualname`` of ``module`` (a dotted name, not imported)
    from nothing: not :func:`is_cached`. False where that cannot be told (``NUMBA_CACHE_DIR`` set, or the
    module not found): a note of a compilation is then left unsaid."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return False
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return False
    return not is_cached(spec.origin, qualname)
