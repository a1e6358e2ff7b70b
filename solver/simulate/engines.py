"""The dealing kernel's engines: the same :func:`solver.simulate.kernel.deal_shoes` in C, compiled by
numba, or as plain Python, and which one deals by default.

The C kernel is built by ``pip install`` where a C compiler is found; where it is not, numba compiles
the same loop from its Python source and the simulator says so once per process on stderr, with how
to build the C kernel for the way the package was installed (:func:`build_advice`). A run names the
engine it resolved (:func:`resolve`) to its workers, so they never say it again.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from solver.simulate import kernel

ENGINES = ("c", "numba", "python")
_COMPILED: list[Callable[..., int]] = []
_NOTED: list[bool] = []


def compiled() -> Callable[..., int]:
    """The numba-compiled :func:`deal_shoes` (compiled on first use, cached on disk)."""
    if not _COMPILED:
        from numba import njit

        from solver.store.jitcache import drop_stale

        kernel.register_numba()
        drop_stale(kernel.__file__, "deal_shoes")
        _COMPILED.append(njit(cache=True, nogil=True)(kernel.deal_shoes))
    return _COMPILED[0]


def c_kernel() -> Callable[..., int] | None:
    """The C kernel's ``deal_shoes`` (same arguments, same result), or None where it was not built."""
    try:
        from solver.simulate.ckernel import deal_shoes as dealt_in_c
    except ImportError:
        return None
    return dealt_in_c  # type: ignore[no-any-return]


def build_advice(package: Path | None = None) -> str:
    """How to build the C kernel, said for the way this copy of the package is installed: a source
    checkout (editable, or on the path) builds it in place; an installed wheel is reinstalled from source.

    >>> "pip install -e" in build_advice(Path(__file__).resolve().parents[1])
    True
    """
    package = Path(__file__).resolve().parents[1] if package is None else package
    root = package.parent
    if (root / "setup.py").is_file() and (package / "simulate" / "ckernel.c").is_file():
        return (
            f"given a C compiler and Python's headers, build it with 'python3 -m pip install -e {root}' "
            "(pip fetches the setuptools the build needs)"
        )
    return (
        "this copy was installed without it: given a C compiler and Python's headers, reinstall from source "
        "('pip install --force-reinstall --no-deps --no-binary baccarat-solver baccarat-solver', or the sdist)"
    )


def resolve(name: str | None = None) -> str:
    """The engine of :data:`ENGINES` that ``name`` means: by default ``c``, or ``numba`` where the C
    kernel was not built, saying so on stderr once in this process (with :func:`build_advice`)."""
    if name is not None:
        if name not in ENGINES:
            raise ValueError(f"unknown dealing engine {name!r} (one of {', '.join(ENGINES)})")
        return name
    if c_kernel() is not None:
        return "c"
    if not _NOTED:
        _NOTED.append(True)
        print(f"baccarat: note: the C dealing kernel is not built; dealing with numba instead: {build_advice()}", file=sys.stderr)
    return "numba"


def engine(name: str | None = None) -> Callable[..., int]:
    """The dealing function of an engine of :data:`ENGINES` (default: :func:`resolve`).

    >>> engine("python") is kernel.deal_shoes
    True
    """
    name = resolve(name)
    if name == "python":
        return kernel.deal_shoes
    if name == "numba":
        return compiled()
    fn = c_kernel()
    if fn is None:
        raise ImportError(f"the C dealing kernel is not built: {build_advice()}")
    return fn
