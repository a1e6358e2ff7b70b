"""The command's standard streams: symbols an encoding cannot carry, and an output that fails.

:func:`prepare_streams` makes stdout and stderr write ASCII stand-ins (``~=`` for ``≈``, ``+/-``
for ``±``, ...) when their encoding cannot carry a symbol the reports use (``PYTHONIOENCODING=ascii``,
a C locale); :func:`flush_stdout` turns a failing stdout (a full disk) into one line on stderr.
"""

from __future__ import annotations

import codecs
import os
import sys

STAND_INS = {
    "≈": "~=",
    "±": "+/-",
    "∞": "inf",
    "α": "alpha",
    "θ": "theta",
    "·": "*",
    "—": "-",
    "–": "-",
    "×": "x",
    "≤": "<=",
    "≥": ">=",
    "→": "->",
    "−": "-",
    "é": "e",
    "è": "e",
    "à": "a",
    "’": "'",
    "…": "...",
}
"""The non-ASCII symbols the program prints, and what they become where they cannot be written."""

ERRORS = "baccarat-ascii"


def _stand_in(e: UnicodeError) -> tuple[str, int]:
    if not isinstance(e, UnicodeEncodeError):
        raise e
    text = e.object[e.start : e.end]
    return "".join(STAND_INS.get(ch, "?") for ch in text), e.end


codecs.register_error(ERRORS, _stand_in)


def prepare_streams() -> None:
    """Use ASCII stand-ins on stdout and stderr where their encoding cannot carry the report's symbols."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        reconfigure = getattr(stream, "reconfigure", None)
        if not encoding or reconfigure is None:
            continue
        try:
            "".join(STAND_INS).encode(encoding)
        except (UnicodeEncodeError, LookupError):
            reconfigure(errors=ERRORS)


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush cannot fail again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's StringIO)
        pass
