"""Where the committed certificates are: beside the package in a checkout, or installed as package data.

The certificates of proofs/certificates/ (and their statements) are the independent checker's data. In a
checkout (an editable install, or a clone on ``PYTHONPATH``) they are read where they are committed,
``proofs/certificates`` beside ``solver/``; an installed wheel or sdist carries them inside the
checker's own package, ``baccarat_proofs`` (setup.py), and they are found through
:mod:`importlib.resources`. Either way :func:`certificates_dir` is the one place that knows.

>>> (certificates_dir() / "banque").is_dir()
True
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from importlib import resources
from importlib.util import find_spec
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2] / "proofs" / "certificates"
"""The certificates of a checkout: proofs/certificates beside the package."""

PACKAGE = "baccarat_proofs"
"""The installed checker's package, whose data the certificates are outside a checkout."""


def certificates_dir() -> Path:
    """The folder of the committed certificates (the banque ones in its ``banque/``): the checkout's, where
    the package runs from one, else the installed checker's package data; a path that does not exist
    where neither is present (the caller says what is missing)."""
    if CHECKOUT.is_dir():
        return CHECKOUT
    if find_spec(PACKAGE) is not None:
        installed = Path(str(resources.files(PACKAGE) / "certificates"))
        if installed.is_dir():
            return installed
    return CHECKOUT


def shown(path: Path) -> str:
    """A certificate's path as reports print it: from ``proofs/`` in a checkout, from ``baccarat_proofs/``
    when installed, else whole."""
    root = certificates_dir().parent
    try:
        return f"{'proofs' if root.name == 'proofs' else root.name}/{path.resolve().relative_to(root.resolve()).as_posix()}"
    except ValueError:
        return str(path)


def located(shown_path: str) -> Path:
    """The file a path :func:`shown` wrote stands for."""
    path = Path(shown_path)
    return path if path.is_absolute() else certificates_dir().parent / Path(*path.parts[1:])


def recheck(paths: Sequence[Path]) -> dict[Path, bool]:
    """Whether the independent checker accepts each certificate: ``check.py`` beside the certificates (the
    checkout's proofs/check.py, or the installed ``baccarat_proofs``), run as its own process, so nothing of
    the solver takes part. Some seconds a certificate on a finite shoe."""
    if not paths:
        return {}
    checker = certificates_dir().parent / "check.py"
    r = subprocess.run([sys.executable, str(checker), *map(str, paths)], capture_output=True, text=True, check=False)
    passed = {line.split()[1] for line in r.stdout.splitlines() if line.startswith("OK ")}
    return {p: str(p) in passed for p in paths}
