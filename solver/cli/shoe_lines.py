"""The lines of ``baccarat punto --shoes``, read as they come and into the kernel's arrays.

A line is a shoe in the shoe options' syntax (``--decks 8 --remove 5,5,K``); blank lines and ``#``
comments are skipped. Lines are read in chunks: from a file, :data:`CHUNK` at a time; from a stream
still being written (a pipe, a terminal), whatever has arrived, so each can be answered as soon as it
is in. A chunk's plain lines are read into arrays at once (:func:`read_chunk`); the others the slow
way, every error one message naming its line.
"""

from __future__ import annotations

import os
import shlex
import stat
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import TYPE_CHECKING, Any, TextIO

from solver.cards import Shoe, parse_shoe
from solver.cli.parser import Parser
from solver.errors import BaccaratError, InputError
from solver.simulate.tasks import Idle
from solver.store.files import read_lines

if TYPE_CHECKING:
    import numpy as np

CHUNK = 1024
"""Shoes priced together: a chunk a worker prices costs far more than handing it over."""

OPTIONS = ("--decks", "--shoe", "--remove")


def refuse_shoe_options(args: Any) -> None:
    """``--shoes`` reads every shoe from its file: refuse ``--decks``, ``--shoe`` and ``--remove`` beside it.

    Raises:
        InputError: one of them is given.
    """
    given = [o for o in OPTIONS if getattr(args, o[2:]) is not None]
    if given:
        raise InputError(f"--shoes reads every shoe from its file: leave out {', '.join(given)}")


class LineError(Exception):
    """argparse's complaint about a line (raised rather than printed: one error line, ours)."""


class _LineParser(Parser):
    def error(self, message: str) -> Any:
        raise LineError(message)


_LINE_PARSER = _LineParser(prog="shoe line", add_help=False)
for _option in OPTIONS:
    _LINE_PARSER.add_argument(_option)


# -- reading a line -----------------------------------------------------------------------------------


def quick_options(line: str) -> tuple[str | None, str | None, str | None] | None:
    """``(--decks, --shoe, --remove)`` of a line of plain words (no quotes or backslashes) naming each
    option at most once (``--option value`` or ``--option=value``), values not starting with ``-``; else
    ``None``: the line is read by :func:`slow_shoe` (``shlex`` and the options' parser)."""
    if any(c in line for c in "'\"\\"):
        return None
    words = line.split()
    given: dict[str, str] = {}
    i = 0
    while i < len(words):
        name, eq, value = words[i].partition("=")
        if name not in OPTIONS or name in given:
            return None
        if not eq:
            if i + 1 == len(words) or words[i + 1].startswith("-"):
                return None
            value = words[i + 1]
            i += 1
        if value.startswith("-"):
            return None
        given[name] = value
        i += 1
    decks, counts = given.get("--decks"), given.get("--shoe")
    if decks is not None and (counts is not None or "," in decks):
        return None  # an error: the slow reading says which
    return decks, counts, given.get("--remove")


def slow_shoe(line: str) -> Shoe:
    """The shoe a line names, read by ``shlex`` and the options' parser (every error in one message).

    Raises:
        InputError: the line names no usable shoe (the message without the line number).
    """
    try:
        words = shlex.split(line)
        known, extra = _LINE_PARSER.parse_known_args(words)
    except (ValueError, LineError) as e:
        raise InputError(str(e)) from None
    if extra:
        raise InputError(f"unexpected {' '.join(extra)!r}")
    if known.decks is not None and "," in known.decks:
        raise InputError("one shoe per line: --decks takes a single count here")
    try:
        return parse_shoe(decks=known.decks, shoe=known.shoe, remove=known.remove)
    except (BaccaratError, ValueError) as e:
        raise InputError(str(e)) from None


@lru_cache(maxsize=64)
def base_shoe(decks: str | None, counts: str | None) -> tuple[Shoe, np.ndarray, np.ndarray, int]:
    """The shoe before removals, with its kernel arrays (:func:`solver.count.shoe_arrays.shoe_arrays`): values,
    types and kind (cached: a batch names a few, over and over)."""
    from solver.count.shoe_arrays import shoe_arrays

    shoe = parse_shoe(decks=decks, shoe=counts)
    values, types, kinds, _ = shoe_arrays([shoe])
    return shoe, values[0], types[0], int(kinds[0])


@dataclass
class Chunk:
    """Lines of a batch, read: their numbers and texts, their shoes as the kernel's arrays
    (:func:`solver.count.shoe_arrays.shoe_arrays`), and the shoes read the slow way (``None`` where the arrays
    alone were read: :meth:`shoe` builds it when needed)."""

    numbers: list[int]
    texts: list[str]
    values: np.ndarray
    types: np.ndarray
    kinds: np.ndarray
    infinite: np.ndarray
    shoes: list[Shoe | None]

    def shoe(self, i: int) -> Shoe:
        """Line ``i``'s shoe."""
        shoe = self.shoes[i]
        if shoe is None:
            values = tuple(self.values[i].tolist())
            types = self.types[i].tolist()
            kind = self.kinds[i]
            ranks = (
                None if kind == 2 else tuple(types[:13]) if kind == 1 else tuple(sum(types[4 * r : 4 * r + 4]) for r in range(13))
            )
            shoe = self.shoes[i] = Shoe(values, ranks, suits=tuple(types) if kind == 0 else None)
        return shoe


def read_chunk(lines: Sequence[tuple[int, str]], source: str, counter: bool = True) -> tuple[Chunk, InputError | None]:
    """Read lines (comments cut off, not blank) up to the first bad one: the chunk of the lines before it
    and the bad line's error (or ``None``). Without ``counter``, lines that remove cards are read the slow
    way (below), so no kernel is compiled.

    A line of plain options (:func:`quick_options`) removing plain cards (``KS``, ``10h``, ``5``, ``0``)
    is read into arrays at once: its cards are counted by a compiled scanner
    (:func:`solver.count.shoe_arrays.count_cards`) and taken from the shoe's counts together, which is what
    :meth:`solver.cards.Shoe.remove` gives whenever the order of the cards does not matter. Where it
    matters the line is read the slow way (:func:`slow_shoe`: ``shlex``, the options' parser,
    ``Shoe.remove``): a card of unknown rank (``0``) or of unknown suit (``K``) among cards whose ranks or
    suits the shoe knows (it forgets them from that card on); and so is any line with something wrong
    (for its error message). tests/test_cli_punto.py holds the two readings equal.
    """
    import numpy as np

    from solver.count.shoe_arrays import VALUE_OF_RANK, Kind, compiled_counter, shoe_arrays

    n = len(lines)
    values = np.zeros((n, 10), dtype=np.int64)
    types = np.zeros((n, 52), dtype=np.int64)
    kinds = np.zeros(n, dtype=np.int64)
    quick = np.zeros(n, dtype=bool)
    shoes: list[Shoe | None] = [None] * n
    removes: list[bytes] = []
    for i, (_, text) in enumerate(lines):
        options = quick_options(text)
        removed = b""
        if options is not None:
            decks, counts, remove = options
            try:
                shoe, values[i], types[i], kinds[i] = base_shoe(decks, counts)
            except BaccaratError:
                shoe = None  # the slow reading gives the error
            if shoe is not None and not remove:
                shoes[i], quick[i] = shoe, True  # nothing removed: the shoe itself
            elif shoe is not None and not shoe.is_infinite and remove is not None and remove.isascii():
                removed, quick[i] = remove.encode(), True
        removes.append(removed)
    starts = np.zeros(n + 1, dtype=np.int64)
    np.cumsum([len(r) for r in removes], out=starts[1:])
    suited, ranked = np.zeros((n, 52), dtype=np.int64), np.zeros((n, 13), dtype=np.int64)
    tens = np.zeros(n, dtype=np.int64)
    if counter:
        compiled_counter()(np.frombuffer(b"".join(removes), dtype=np.uint8), starts, suited, ranked, tens, quick)
    else:
        quick &= np.array([not r for r in removes], dtype=bool)
    suits_known, ranks_known = kinds == Kind.SUITS, kinds != Kind.VALUES
    any_ranked = ranked.any(axis=1)
    quick &= ~(ranks_known & (tens > 0)) & ~(suits_known & any_ranked & suited.any(axis=1))  # the order matters
    forget = suits_known & any_ranked  # every card without its suit: the shoe forgets its suits
    by_rank = suited.reshape(n, 13, 4).sum(axis=2) + ranked
    values -= by_rank @ (VALUE_OF_RANK[:, None] == np.arange(10)).astype(np.int64)
    values[:, 0] -= tens
    ranks = np.where(suits_known[:, None], types.reshape(n, 13, 4).sum(axis=2), types[:, :13]) - by_rank
    new = np.where((suits_known & ~forget)[:, None], types - suited, 0)
    new[:, :13] += np.where((ranks_known & ~(suits_known & ~forget))[:, None], ranks, 0)
    kinds = np.where(forget, Kind.RANKS, kinds)
    quick &= (values >= 0).all(axis=1) & (new >= 0).all(axis=1) & (values.sum(axis=1) >= 6)
    failure = None
    for i in np.flatnonzero(~quick).tolist():
        shoes[i] = None
        try:
            shoes[i] = slow_shoe(lines[i][1])
        except InputError as e:
            failure, n = InputError(f"{source}, line {lines[i][0]}: {e}"), i
            break
    slow = np.flatnonzero(~quick[:n]).tolist()
    if slow:
        values[slow], new[slow], kinds[slow], _ = shoe_arrays([shoes[i] for i in slow])  # type: ignore[misc]
    infinite = np.array([s is not None and s.is_infinite for s in shoes[:n]], dtype=bool)
    return Chunk(
        [m for m, _ in lines[:n]], [t for _, t in lines[:n]], values[:n], new[:n], kinds[:n], infinite, shoes[:n]
    ), failure


def parse_line(line: str) -> Shoe:
    """The shoe one line names, read as :func:`read_chunk` reads it.

    Raises:
        InputError: the line names no usable shoe (the message without the line number).
    """
    chunk, failure = read_chunk([(1, line)], "")
    if failure is not None:
        raise InputError(str(failure).removeprefix(", line 1: "))
    return chunk.shoe(0)


# -- reading lines as they come ------------------------------------------------------------------------


def is_live(stream: TextIO) -> bool:
    """Whether ``stream`` may still be being written (a pipe, a terminal, a socket): not a regular file."""
    try:
        return not stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):  # no descriptor (an in-memory stream)
        return False


def chunks(stream: TextIO, source: str, size: int | None = None, idle: float | None = None) -> Iterator[list[tuple[int, str]]]:
    """The stream's lines as ``(number, text)``, comments cut off and blank lines skipped, in lists of at
    most ``size`` (default :data:`CHUNK`): full lists from a file, whatever has arrived from a live stream
    (:func:`is_live`); with ``idle``, an empty list where no line arrived for that many seconds."""
    size = CHUNK if size is None else size
    lines = ((n, raw.split("#", 1)[0].strip()) for n, raw in read_lines(stream, source))
    kept = ((n, text) for n, text in lines if text)
    if is_live(stream):
        yield from _live(kept, size, idle)
        return
    while chunk := list(islice(kept, size)):
        yield chunk


def _live(lines: Iterator[tuple[int, str]], size: int, idle: float | None) -> Iterator[list[tuple[int, str]]]:
    """Lines read by a thread as they arrive; each list is what has arrived (at least one line), or empty
    where none arrived for ``idle`` seconds. An error reading them (a line too long, bytes that are not
    UTF-8) is raised after the lines before it."""
    arrived: deque[tuple[int, str]] = deque()
    ready = threading.Condition()
    state: dict[str, Any] = {"done": False, "error": None}

    def read() -> None:
        try:
            for line in lines:
                with ready:
                    arrived.append(line)
                    ready.notify()
        except BaseException as e:  # handed to the reading side
            state["error"] = e
        with ready:
            state["done"] = True
            ready.notify()

    threading.Thread(target=read, daemon=True, name="shoe lines").start()
    while True:
        with ready:
            while not arrived and not state["done"]:
                if not ready.wait(idle):
                    break  # nothing for idle seconds
            chunk = [arrived.popleft() for _ in range(min(size, len(arrived)))]
            finished = state["done"] and not arrived
        if chunk or not finished:
            yield chunk
        if finished:
            if state["error"] is not None:
                raise state["error"]
            return


def line_count(name: str) -> int | None:
    """The lines of a regular file (for the progress line), or ``None`` (standard input, unreadable)."""
    if name == "-":
        return None
    try:
        with open(name, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return None
            count, last = 0, b"\n"
            while block := fh.read(1 << 20):
                count += block.count(b"\n")
                last = block[-1:]
            return count + (last != b"\n")
    except OSError:
        return None


class Lines:
    """The batch's chunks of parsed lines, stopping at the first bad line (kept in :attr:`failure`, to be
    raised once the lines before it are answered)."""

    def __init__(self, stream: TextIO, source: str, counter: bool = True) -> None:
        self.stream, self.source, self.counter = stream, source, counter
        self.failure: InputError | None = None
        self.shoes = 0

    def __iter__(self) -> Iterator[Chunk]:
        for chunk in self.read():
            if not isinstance(chunk, Idle):
                yield chunk

    def read(self, idle: float | None = None) -> Iterator[Chunk | Idle]:
        """The chunks; with ``idle``, :data:`~solver.simulate.tasks.IDLE` where no line arrived from a
        live stream for that many seconds (for the executor: the answers in flight go out meanwhile)."""
        from solver.simulate.tasks import IDLE

        for lines in chunks(self.stream, self.source, idle=idle):
            if not lines:
                yield IDLE
                continue
            chunk, self.failure = read_chunk(lines, self.source, self.counter)
            self.shoes += len(chunk.numbers)
            if chunk.numbers:
                yield chunk
            if self.failure is not None:
                return

    def finish(self) -> None:
        """Raise the bad line's error, or say that there was no shoe at all."""
        if self.failure is not None:
            raise self.failure
        if not self.shoes:
            raise InputError(f"{self.source} holds no shoe (one per line, e.g. --decks 8 --remove 5,5)")
