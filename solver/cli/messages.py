"""What a command says on stderr besides its errors: the progress line and notes.

Data goes to stdout, everything else to stderr, and the two never mix on a terminal: :func:`emit` (every
line of data the commands write) first takes a progress line off the screen, and the next update draws
it again below the data. The progress line shows only once the work has taken more than a second, and
only on a terminal unless ``--progress`` asks for it (then, in a log, a whole line every
:data:`LOG_EVERY` seconds rather than carriage returns); ``--quiet`` silences it and the notes. A long
run shows how far it is, in per cent, and about how long it has left.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Sequence
from typing import TextIO

from solver.errors import InputError

LOG_EVERY = 10.0
"""Seconds between progress lines written to a log (``--progress`` on a stderr that is not a terminal)."""

TERMINAL_EVERY = 0.2
"""Seconds between redraws of the progress line on a terminal."""

ERASE = "\r\x1b[K"
"""Back to the start of the line, and clear it (ANSI: erase to the end of the line)."""


def duration(seconds: float) -> str:
    """A time left, rounded as a person says it.

    >>> duration(4.2), duration(75), duration(3 * 3600 + 600)
    ('4 s', '1 min 15 s', '3.2 h')
    """
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        minutes, rest = divmod(round(seconds), 60)
        return f"{minutes} min {rest} s" if minutes < 10 else f"{minutes} min"
    return f"{seconds / 3600:.1f} h"


class Progress:
    """A quiet progress line on stderr (see the module): ``what: done/total (P %, R/s, about T left)``.

    :func:`configure_messages` sets the choice for the run (:attr:`show`, :attr:`quiet`)."""

    show: bool | None = None
    """None: show on a terminal; True: always (``--progress``); False: never (``--quiet``)."""
    quiet: bool = False
    """``--quiet``: no notes either (:func:`note`)."""
    active: Progress | None = None
    """The progress line now drawn on a terminal, which :func:`emit` takes off before writing data."""

    def __init__(self, total: int, what: str, stream: TextIO | None = None) -> None:
        self.total, self.what, self.stream = total, what, stream or sys.stderr
        self.start = time.perf_counter()
        self.shown = False
        self.last = 0.0
        self.done = 0
        isatty = getattr(self.stream, "isatty", None)
        self.terminal = bool(isatty and isatty())
        self.enabled = self.terminal if Progress.show is None else Progress.show

    def line(self, done: int, now: float) -> str:
        """The progress line after ``done`` of the total, ``now`` on the clock."""
        elapsed = max(now - self.start, 1e-9)
        rate = done / elapsed
        parts = [f"{done}/{self.total}"]
        if self.total > 0:
            parts.append(f"{100 * done / self.total:.0f} %")
        parts.append(f"{rate:,.0f}/s" if rate >= 10 else f"{rate:.2g}/s")
        if 0 < done < self.total:
            parts.append(f"about {duration(elapsed * (self.total - done) / done)} left")
        return f"{self.what}: {parts[0]} ({', '.join(parts[1:])})"

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        self.done = done
        now = time.perf_counter()
        if now - self.start < 1.0 or now - self.last < (TERMINAL_EVERY if self.terminal else LOG_EVERY):
            return
        self.last, self.shown = now, True
        if self.terminal:
            self.stream.write(ERASE + self.line(done, now))
            Progress.active = self
        else:
            self.stream.write(self.line(done, now) + "\n")
        self.stream.flush()

    def clear(self) -> None:
        """Take the line off the terminal (the next :meth:`update` draws it again)."""
        if Progress.active is self:
            self.stream.write(ERASE)
            self.stream.flush()
            Progress.active = None
            self.last = 0.0  # drawn again at the next update

    def close(self, finished: bool = True) -> None:
        """End the progress line: with the total and the time when the work finished, else by finishing the
        line (so an error or "interrupted" starts on a line of its own)."""
        if Progress.active is self:
            Progress.active = None
        if not self.shown:
            return
        start = ERASE if self.terminal else ""
        if finished:
            elapsed = time.perf_counter() - self.start
            self.stream.write(f"{start}{self.what}: {self.total}/{self.total} done in {elapsed:.1f} s\n")
        elif self.terminal:
            self.stream.write("\n")
        self.stream.flush()
        self.shown = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        self.close(finished=kind is None)


def add_message_options(p: argparse.ArgumentParser) -> None:
    """``--quiet`` and ``--progress`` (every command has them)."""
    g = p.add_argument_group("messages")
    g.add_argument("--quiet", action="store_true", help="no progress line and no notes on stderr (errors still)")
    g.add_argument("--progress", action="store_true", help="show the progress line on stderr even when it is not a terminal")


def configure_messages(args: argparse.Namespace) -> None:
    """Apply ``--quiet`` / ``--progress`` for this run."""
    quiet, progress = getattr(args, "quiet", False), getattr(args, "progress", False)
    if quiet and progress:
        raise InputError("give --quiet or --progress, not both")
    Progress.show = False if quiet else True if progress else None
    Progress.quiet = quiet
    Progress.active = None


def note(message: str) -> None:
    """A note for the user on stderr (not data; silenced by ``--quiet``)."""
    if not Progress.quiet:
        pause()
        sys.stderr.write(f"baccarat: note: {message}\n")


COMPILING = "compiling the kernels (first run only, about 20 s)"

KERNELS = {
    "deal": (("solver.simulate.kernel", "deal_shoes"),),
    "banque": (("solver.simulate.banque_kernel", "deal_banque_shoes"),),
    "count": (
        ("solver.count.dealer", "deal_and_count"),
        ("solver.count.fastlaw", "numerators"),
        ("solver.count.denselaw", "float_numerators"),
    ),
}
"""The numba kernels (module, function) a run compiles on first use: punto banco's and chemin de fer's
dealing where the C kernel is not built, baccara banque's dealing, and the counting study's."""
_SAID: list[bool] = []


def note_compiling(kernels: Sequence[tuple[str, str]]) -> None:
    """Say once, where a person watches (where the progress line would show), that numba compiles
    ``kernels`` (module, function) from cold: otherwise the first run's 20 s of silence. Nothing where
    their compiled code is on disk already (:func:`solver.store.jitcache.cold`), in a log, or with ``--quiet``."""
    if _SAID or Progress.quiet or not kernels:
        return
    isatty = getattr(sys.stderr, "isatty", None)
    shown = bool(isatty and isatty()) if Progress.show is None else Progress.show
    if not shown:
        return
    from solver.store.jitcache import cold

    if any(cold(module, name) for module, name in kernels):
        _SAID.append(True)
        note(COMPILING)


def finish() -> None:
    """End a progress line left on the terminal (its work stopped by an error or an interruption), so that
    the line said next starts a line of its own."""
    p = Progress.active
    if p is not None:
        Progress.active = None
        try:
            p.stream.write("\n")
            p.stream.flush()
        except (OSError, ValueError):
            pass


def pause() -> None:
    """Take a progress line off the terminal before something else is written there."""
    if Progress.active is not None:
        Progress.active.clear()


def emit(rows: Iterable[str]) -> None:
    """Write lines of data to stdout (a progress line on the terminal taken off first)."""
    pause()
    for r in rows:
        sys.stdout.write(r + "\n")
