"""``baccarat chemin --shoes FILE`` and ``baccarat banque --shoes FILE``: a file's lines solved as the
shoes of a deck list are.

A line is a shoe in the shoe options' syntax (``--decks 6 --remove 5,5,K``), ``#`` comments and blank
lines skipped, ``-`` for standard input (read by :mod:`solver.cli.shoe_lines`). Every option of the
command applies to every line, and each line's shoe is solved by the deck list's sweep
(:mod:`solver.cli.sweeps`, over ``--workers`` / ``--scheduler``): the same results, in input order,
each carrying the line's number and text (``line``, ``input``).

How the lines are read depends on the output. ``--format jsonl`` streams: each result is written as
soon as it and those before it are solved, a line from a pipe answered as it arrives; a bad line stops
the run once the lines before it are answered. Every other format writes its output once, at the end
(one JSON document, a table, CSV, LaTeX): the whole input is read first, so a bad line is refused before
any solve, and the sweep spreads every line over the workers at once.
"""

from __future__ import annotations

import argparse
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from solver.cli.common import Progress, emit_results, open_input, source_name, write_csv
from solver.cli.shoe_lines import Lines, is_live, line_count, refuse_shoe_options
from solver.errors import InputError
from solver.simulate.tasks import Idle

if TYPE_CHECKING:
    from solver.cards import Shoe

R = TypeVar("R")

IDLE_SECONDS = 0.05
"""How long a live stream solved on workers waits for a line before it lets the answers in flight out."""


@dataclass(frozen=True)
class LineShoe:
    """One line of the file: its number, its text (comment cut off) and its shoe."""

    source: str
    number: int
    text: str
    shoe: Shoe

    def fields(self) -> dict[str, object]:
        """What each of its results carries: ``line`` and ``input``."""
        return {"line": self.number, "input": self.text}

    def where(self) -> str:
        """The line in a message: ``FILE, line N``."""
        return f"{self.source}, line {self.number}"

    def heading(self) -> str:
        """The line above its results in text: ``line N: TEXT``."""
        return f"line {self.number}: {self.text}"


class LineShoes:
    """The lines of ``--shoes FILE``, read as :mod:`the module <solver.cli.sweep_lines>` says; call
    :meth:`finish` once their results are written (the bad line's error, if any, or an empty input's)."""

    def __init__(self, args: argparse.Namespace) -> None:
        refuse_shoe_options(args)
        self.source = source_name(args.shoes)
        stream = open_input(args.shoes)
        self.streaming = args.format == "jsonl"
        self.total = None if is_live(stream) else line_count(args.shoes)
        self.lines = Lines(stream, self.source, counter=False)
        self.read_first: list[LineShoe] | None = None
        if not self.streaming:  # chunks() reads the stream while read_first is None
            self.read_first = [line for chunk in self.chunks() for line in chunk]
            self.lines.finish()

    def _chunks(self, idle: float | None = None) -> Iterator[list[LineShoe] | Idle]:
        for chunk in self.lines.read(idle):
            if isinstance(chunk, Idle):
                yield chunk
            else:
                yield [LineShoe(self.source, n, t, chunk.shoe(i)) for i, (n, t) in enumerate(zip(chunk.numbers, chunk.texts))]

    def chunks(self) -> Iterator[list[LineShoe]]:
        """The lines in lists: all of them at once when read first, else as they are read (a file's in
        chunks, a live stream's as they arrive)."""
        if self.read_first is not None:
            yield self.read_first
            return
        for chunk in self._chunks():
            if not isinstance(chunk, Idle):
                yield chunk

    def each(self, idle: float | None = None) -> Iterator[LineShoe | Idle]:
        """The lines one by one; with ``idle``, :data:`~solver.simulate.tasks.IDLE` where a live stream
        gave none for that many seconds."""
        if self.read_first is not None:
            yield from self.read_first
            return
        for chunk in self._chunks(idle):
            if isinstance(chunk, Idle):
                yield chunk
            else:
                yield from chunk

    def finish(self) -> None:
        """Raise the bad line's error, or say that there was no shoe at all (streaming; read first, done)."""
        if self.streaming:
            self.lines.finish()


def line_shoes(args: argparse.Namespace) -> LineShoes | None:
    """``--shoes FILE``'s lines (None without the option), refused beside the options that name a shoe
    and beside ``--export`` (it writes one game, and refuses a deck list too)."""
    if args.shoes is None:
        return None
    if args.export:
        raise InputError("--export writes one game: give one shoe (--decks, --shoe, --remove), not --shoes")
    return LineShoes(args)


def solved(
    args: argparse.Namespace, lines: LineShoes, solve: Callable[[Iterable[Shoe | Idle]], Iterator[R]]
) -> Iterator[tuple[LineShoe, R]]:
    """Each line with its result, in input order: ``solve`` maps the lines' shoes (a sweep's stream,
    :func:`solver.cli.sweeps.chemin_stream`), consumed as the lines come."""
    if lines.read_first is not None:  # every line at once (the workers share them all)
        yield from zip(lines.read_first, solve([line.shoe for line in lines.read_first]))
        return
    sent: deque[LineShoe] = deque()
    on_workers = args.workers is not None or args.scheduler is not None

    def shoes() -> Iterator[Shoe | Idle]:
        for line in lines.each(IDLE_SECONDS if on_workers else None):
            if isinstance(line, Idle):
                yield line
            else:
                sent.append(line)
                yield line.shoe

    for result in solve(shoes()):
        yield sent.popleft(), result


def progressed(pairs: Iterable[tuple[LineShoe, R]], lines: LineShoes) -> Iterator[tuple[LineShoe, R]]:
    """The pairs as they come, with a progress line of the lines answered (of the file's, where known)."""
    with Progress(lines.total or 0, "lines") as progress:
        for line, result in pairs:
            yield line, result
            progress.update(line.number)


def emit_line_results(
    pairs: Iterable[tuple[LineShoe, R]], args: argparse.Namespace, as_dict: Callable[..., dict[str, Any]]
) -> None:
    """The results as JSON (:func:`solver.cli.common.emit_results`), each with its line's ``line`` and ``input``."""
    emit_results(({**line.fields(), **as_dict(r, args.digits)} for line, r in pairs), args)


def write_line_csv(
    pairs: Iterable[tuple[LineShoe, R]], header: Sequence[str], rows: Callable[..., list[tuple[str, ...]]], digits: int | None
) -> None:
    """The results' CSV rows, each after its line's ``line`` and ``input``."""
    write_csv(("line", "input", *header), ((str(line.number), line.text, *row) for line, r in pairs for row in rows(r, digits)))


def by_line(pairs: Iterable[tuple[LineShoe, R]]) -> list[tuple[LineShoe, list[R]]]:
    """The results grouped by their line, in order."""
    groups: list[tuple[LineShoe, list[R]]] = []
    for line, r in pairs:
        if groups and groups[-1][0] is line:
            groups[-1][1].append(r)
        else:
            groups.append((line, [r]))
    return groups


def flush() -> None:
    """Flush stdout (a streamed result goes out before the next is solved)."""
    sys.stdout.flush()


def add_shoes_option(p: argparse.ArgumentParser, each: str) -> None:
    """``--shoes FILE`` on ``chemin`` or ``banque``; ``each``: what one line gives."""
    p.add_argument(
        "--shoes",
        metavar="FILE",
        help="one shoe per line (--decks/--shoe/--remove syntax, # comments), '-' for stdin, each solved as a deck "
        f"list's shoe with every other option: {each}, with the line's number and text; with --format jsonl "
        "each written as it is solved",
    )
