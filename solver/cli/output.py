"""The command's standard streams: symbols an encoding cannot carry, and an output that fails.

:func:`prepare_streams` makes stdout and stderr write ASCII stand-ins (``~=`` for ``≈``, ``+/-``
for ``±``, ...) when their encoding cannot carry a symbol the reports use (``PYTHONIOENCODING=ascii``,
a C locale), and stands in for a stream that was closed when the command started (``>&-``): a closed
stdout fails on the first write, as a full one does, so the command says so in one line on stderr
(:func:`say`, which never fails) and exits 1; a closed stderr swallows what is said. A closed
descriptor 0, 1 or 2 is pointed at the null device, so that no file the command opens takes its
number (and a worker process's output cannot land in it).
"""

from __future__ import annotations

import codecs
import errno
import io
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


class ClosedOutput(io.TextIOBase):
    """What ``sys.stdout`` is when the command started with its standard output closed: every write
    fails, as on a full device, and so does a flush after a write (argparse swallows a failed write of
    its help; the flush that follows is then the error)."""

    def __init__(self) -> None:
        super().__init__()
        self.written = False

    def writable(self) -> bool:
        return True

    def _closed(self) -> OSError:
        return OSError(errno.EBADF, "standard output is closed")

    def write(self, text: str) -> int:
        self.written = True
        raise self._closed()

    def flush(self) -> None:
        if self.written:
            raise self._closed()


def _reopen_closed_descriptors() -> None:
    """Point a closed descriptor 0, 1 or 2 at the null device."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            except OSError:
                pass


def prepare_streams() -> None:
    """Stand in for standard streams closed at start-up (:class:`ClosedOutput` for stdout, the null
    device for stdin and stderr); use ASCII stand-ins on stdout and stderr where their encoding cannot
    carry the report's symbols."""
    if sys.stdout is None or sys.stderr is None or sys.stdin is None:
        _reopen_closed_descriptors()
        if sys.stdout is None:
            sys.stdout = ClosedOutput()
        if sys.stderr is None:
            sys.stderr = open(os.devnull, "w", encoding="utf-8")  # the process's stderr: never closed
        if sys.stdin is None:
            sys.stdin = open(os.devnull, encoding="utf-8")  # the process's stdin: never closed
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        reconfigure = getattr(stream, "reconfigure", None)
        if not encoding or reconfigure is None:
            continue
        try:
            "".join(STAND_INS).encode(encoding)
        except (UnicodeEncodeError, LookupError):
            reconfigure(errors=ERRORS)


def say(line: str) -> None:
    """One line on stderr, if stderr can take it (a closed or full stderr loses it, never the exit code)."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush cannot fail again at exit."""
    if isinstance(sys.stdout, ClosedOutput):
        sys.stdout.written = False
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's StringIO)
        pass
