"""Keeping numba's on-disk cache honest for kernels that call kernels of other modules.

numba caches a function compiled with ``cache=True`` in ``__pycache__`` beside its source, and checks
that entry against that one file's time stamp and size. The machine code it stores also holds every
compiled function the kernel calls, inlined or linked, from other modules: when only one of those
changes (a checkout, an edit), numba would load the old code. :func:`drop_stale` closes the gap: it
keeps a digest of the sources a kernel depends on beside its entries and removes the entries when the
digest changes, so numba compiles afresh. (With ``NUMBA_CACHE_DIR`` set, numba keeps its entries there
instead; clear that directory after changing a kernel.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path


def drop_stale(source: str | Path, qualname: str, dependencies: Sequence[str | Path]) -> bool:
    """Remove the cached entries of the kernel ``qualname`` of module file ``source`` if ``source`` or one
    of ``dependencies`` (module files) changed since the entries were written; returns whether it did.

    Call it before compiling the kernel. Unreadable or unwritable places are left alone (the cache only
    saves time).
    """
    source = Path(source)
    digest = hashlib.sha256()
    for path in (source, *dependencies):
        try:
            digest.update(Path(path).read_bytes())
        except OSError:
            return False
    folder = source.parent / "__pycache__"
    stamp = folder / f"{source.stem}.{qualname}.sources"
    try:
        if stamp.read_text(encoding="ascii") == digest.hexdigest():
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
        stamp.write_text(digest.hexdigest(), encoding="ascii")
    except OSError:
        pass
    return dropped
