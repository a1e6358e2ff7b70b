"""``baccarat punto --shoes``: one shoe per line in, one JSON line per shoe out, as the lines come.

A line is a shoe in the shoe options' syntax (``--decks 8 --remove 5,5,K``); blank lines and ``#``
comments are skipped. Lines are read in chunks: from a file or a pipe already full, as many as
:data:`CHUNK` at a time; from a stream still being written (a pipe, a terminal), whatever has arrived,
so each answer is written (and flushed) as soon as its line is in — a live shoe tracker. A bad line
stops the run with one error line naming it (exit code 2) once the lines before it are answered.

Every answer is exact: the chunk is priced by :mod:`solver.count.batch` (in this process, on local
processes or on a Dask cluster, the rows put back in input order) and written by the compiled writer
(:func:`solver.report.punto.batch_lines`), byte for byte the JSON of :func:`solver.punto.punto_banco`'s
result; with ``--digits`` or ``--breakdown`` each line is rendered from the same integers in Python.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import stat
import sys
import threading
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import islice
from typing import TYPE_CHECKING, Any, TextIO

from solver.cards import Shoe, card_token_suited, parse_shoe
from solver.cli.common import Progress, emit, json_document, note, open_input, source_name
from solver.cli.parser import Parser
from solver.errors import BaccaratError, InputError
from solver.store.files import read_lines

if TYPE_CHECKING:
    import numpy as np

    from solver.count.batch import BatchLaw
    from solver.punto import Bet
    from solver.report.punto import BatchTemplates
    from solver.rules.tableau import Tableau

CHUNK = 1024
"""Shoes priced together: a chunk a worker prices costs far more than handing it over."""

OPTIONS = ("--decks", "--shoe", "--remove")


class LineError(Exception):
    """argparse's complaint about a line (raised rather than printed: one error line, ours)."""


class _LineParser(Parser):
    def error(self, message: str) -> Any:
        raise LineError(message)


_LINE_PARSER = _LineParser(prog="shoe line", add_help=False)
for _option in OPTIONS:
    _LINE_PARSER.add_argument(_option)


# -- reading a line -----------------------------------------------------------------------------------


def parse_line(line: str) -> Shoe:
    """The shoe a line names (a comment already cut off, not blank).

    A line of plain words (no quotes or backslashes) naming each option at most once, with values
    that do not start with ``-``, is read directly (:func:`quick_shoe`); any other line, and any line the
    quick reading cannot settle, goes through ``shlex`` and the options' parser, which give the same shoe
    or the error message (tests/test_cli_punto.py holds the two readings equal).

    Raises:
        InputError: the line names no usable shoe (the message without the line number).
    """
    words = line.split()
    given: dict[str, str] = {}
    if not any(c in line for c in "'\"\\"):
        i = 0
        while i < len(words):
            word = words[i]
            name, eq, value = word.partition("=")
            if name not in OPTIONS or name in given:
                break
            if not eq:
                if i + 1 == len(words) or words[i + 1].startswith("-"):
                    break
                value = words[i + 1]
                i += 1
            if value.startswith("-"):
                break
            given[name] = value
            i += 1
        else:
            shoe = quick_shoe(given.get("--decks"), given.get("--shoe"), given.get("--remove"))
            if shoe is not None:
                return shoe
    return slow_shoe(line)


def slow_shoe(line: str) -> Shoe:
    """The shoe a line names, read by ``shlex`` and the options' parser (every error in one message)."""
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
def base_shoe(decks: str | None, counts: str | None) -> Shoe:
    """The shoe before removals (cached: a batch names a few, over and over)."""
    return parse_shoe(decks=decks, shoe=counts)


@lru_cache(maxsize=512)
def _token(token: str) -> tuple[int | None, int, int | None]:
    return card_token_suited(token)


def quick_shoe(decks: str | None, counts: str | None, remove: str | None) -> Shoe | None:
    """The shoe of ``--decks``/``--shoe``/``--remove`` values, or ``None`` where the reading must be the
    slow one: an error to report, or removals whose effect depends on their order (a card of unknown
    rank or suit among known ones: :meth:`solver.cards.Shoe.remove` forgets ranks or suits from that card on).
    Removals are counted, not applied one by one: without those cases the order does not matter."""
    if decks is not None and (counts is not None or "," in decks):
        return None
    try:
        shoe = base_shoe(decks, counts)
        tokens = Counter(t for t in remove.split(",") if t.strip()) if remove else None
        if not tokens:
            return shoe
        if shoe.is_infinite:
            return None
        cards = [(_token(t), n) for t, n in tokens.items()]
    except BaccaratError:
        return None
    values = list(shoe.values)
    ranks = list(shoe.ranks) if shoe.ranks is not None else None
    suits = list(shoe.suits) if shoe.suits is not None else None
    if ranks is not None and any(rank is None for (rank, _, _), _ in cards):
        return None
    if suits is not None:
        suited = {suit is not None for (_, _, suit), _ in cards}
        if len(suited) > 1:
            return None
        if suited == {False}:
            suits = None
    for (rank, value, suit), n in cards:
        values[value] -= n
        if ranks is not None and rank is not None:
            ranks[rank] -= n
            if suits is not None and suit is not None:
                suits[4 * rank + suit] -= n
    if min(values) < 0 or (ranks is not None and min(ranks) < 0) or (suits is not None and min(suits) < 0):
        return None
    try:
        return Shoe(tuple(values), tuple(ranks) if ranks is not None else None, suits=tuple(suits) if suits is not None else None)
    except BaccaratError:
        return None


# -- reading lines as they come ------------------------------------------------------------------------


def is_live(stream: TextIO) -> bool:
    """Whether ``stream`` may still be being written (a pipe, a terminal, a socket): not a regular file."""
    try:
        return not stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):  # no descriptor (an in-memory stream)
        return False


def chunks(stream: TextIO, source: str, size: int = CHUNK) -> Iterator[list[tuple[int, str]]]:
    """The stream's lines as ``(number, text)``, comments cut off and blank lines skipped, in lists of at
    most ``size``: full lists from a file, whatever has arrived from a live stream (:func:`is_live`)."""
    lines = ((n, raw.split("#", 1)[0].strip()) for n, raw in read_lines(stream, source))
    kept = ((n, text) for n, text in lines if text)
    if is_live(stream):
        yield from _live(kept, size)
        return
    while chunk := list(islice(kept, size)):
        yield chunk


def _live(lines: Iterator[tuple[int, str]], size: int) -> Iterator[list[tuple[int, str]]]:
    """Lines read by a thread as they arrive; each list is what has arrived (at least one line). An
    error reading them (a line too long, bytes that are not UTF-8) is raised after the lines before it."""
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
                ready.wait()
            chunk = [arrived.popleft() for _ in range(min(size, len(arrived)))]
            finished = state["done"] and not arrived
        if chunk:
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


# -- pricing and writing --------------------------------------------------------------------------------


def price_task(task: tuple[Any, ...]) -> tuple[Any, Any, dict[int, list[int]]]:
    """Price one chunk anywhere (picklable, for :func:`solver.simulate.executor.map_chunks`): ``(hi, lo,
    wide)``, every row as 128-bit pairs (:mod:`solver.count.batch`) and, for the rows too large for
    them, the Python integers."""
    import numpy as np

    from solver.count.batch import batch_law, price_rows, python_row, shoe_arrays

    bets, tableau, commission, shoes = task
    blaw = batch_law(bets, tableau)
    values, types, kinds, _ = shoe_arrays(shoes)
    fast = np.array([blaw.kernel_route(s) for s in shoes], dtype=bool)
    hi = np.zeros((len(shoes), blaw.width), dtype=np.uint64)
    lo = np.zeros((len(shoes), blaw.width), dtype=np.uint64)
    if fast.any():
        hi[fast], lo[fast] = price_rows(blaw, values[fast], types[fast], kinds[fast])
    wide: dict[int, list[int]] = {}
    for i in np.flatnonzero(~fast).tolist():
        row = python_row(blaw, shoes[i], commission)
        if all(-(2**127) <= x < 2**127 for x in row):
            hi[i] = [(x % 2**128) >> 64 for x in row]
            lo[i] = [x % 2**64 for x in row]
        else:
            wide[i] = row
    return hi, lo, wide


LARGEST_FACTOR = 1 << 22
"""The compiled writer factors denominators of shoes of up to this many cards (a sieve that size)."""


class Writer:
    """Writes a chunk's lines to stdout, the compiled way where it can (see the module docstring)."""

    def __init__(self, args: argparse.Namespace, bets: tuple[Bet, ...], commission: Fraction, tableau: Tableau) -> None:
        from solver.count.batch import batch_law

        self.args = args
        self.blaw: BatchLaw = batch_law(bets, tableau)
        self.commission = commission
        self.general = args.digits is not None or args.breakdown
        self.templates: BatchTemplates | None = None

    def document(self, record: dict[str, Any]) -> dict[str, Any]:
        return json_document(record, self.args)

    def write(
        self, numbers: Sequence[int], texts: Sequence[str], shoes: Sequence[Shoe], priced: tuple[Any, Any, dict[int, list[int]]]
    ) -> None:
        """The lines of one chunk, in order: compiled runs, and in Python the rows too wide for it (or every
        row, with ``--digits`` or ``--breakdown``)."""
        hi, lo, wide = priced
        compiled = [not self.general and i not in wide and s.size < LARGEST_FACTOR for i, s in enumerate(shoes)]
        i = 0
        while i < len(shoes):
            j = i
            while j < len(shoes) and compiled[j] == compiled[i]:
                j += 1
            if compiled[i]:
                self._compiled(numbers[i:j], texts[i:j], shoes[i:j], hi[i:j], lo[i:j])
            else:
                for k in range(i, j):
                    self._python(numbers[k], texts[k], shoes[k], wide.get(k), hi[k], lo[k])
            i = j

    def _compiled(
        self, numbers: Sequence[int], texts: Sequence[str], shoes: Sequence[Shoe], hi: np.ndarray, lo: np.ndarray
    ) -> None:
        import numpy as np

        from solver.count.batch import D4, D, shoe_arrays
        from solver.report.punto import batch_lines, batch_templates, spec_shapes

        if self.templates is None:
            self.templates = batch_templates(self.blaw, self.commission, self.document)
        values, types, kinds, infinite = shoe_arrays(shoes)
        shapes, ints = spec_shapes(values, types, kinds, infinite)
        n = values.sum(axis=1)
        factors = np.stack([n - j for j in (0, 1, 2, 3, 4, 5, 0, 1, 2, 3)], axis=1)
        for i in np.flatnonzero(infinite).tolist():  # T^6 and T^4 (the first cards' own T)
            d4 = (int(hi[i, D4]) << 64) | int(lo[i, D4])
            t4 = round(d4 ** (1 / 4))
            assert t4**4 == d4 and ((int(hi[i, D]) << 64) | int(lo[i, D])) == int(n[i]) ** 6
            factors[i] = [n[i]] * 6 + [t4] * 4
        encoded = [json.dumps(t).encode() for t in texts]
        _emit_bytes(batch_lines(self.templates, shapes, hi, lo, factors, numbers, encoded, ints))

    def _python(self, number: int, text: str, shoe: Shoe, row: list[int] | None, hi: np.ndarray, lo: np.ndarray) -> None:
        from solver.count.batch import result, row_ints
        from solver.report.punto import punto_dict

        r = result(self.blaw, shoe, row if row is not None else row_ints(hi, lo), self.commission)
        record = {"line": number, "input": text, **punto_dict(r, self.args.digits, self.args.breakdown)}
        emit([json.dumps(self.document(record))])


def _emit_bytes(data: bytes) -> None:
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # an in-memory stdout
        sys.stdout.write(data.decode())
        return
    sys.stdout.flush()
    buffer.write(data)


def _flush() -> None:
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        buffer.flush()


@dataclass
class Chunk:
    """Lines of a batch, parsed: their numbers, texts and shoes."""

    numbers: list[int]
    texts: list[str]
    shoes: tuple[Shoe, ...]


class Lines:
    """The batch's chunks of parsed lines, stopping at the first bad line (kept in :attr:`failure`, to be
    raised once the lines before it are answered)."""

    def __init__(self, stream: TextIO, source: str) -> None:
        self.stream, self.source = stream, source
        self.failure: InputError | None = None
        self.shoes = 0

    def __iter__(self) -> Iterator[Chunk]:
        for chunk in chunks(self.stream, self.source):
            numbers, texts, shoes = [], [], []
            for n, text in chunk:
                try:
                    shoes.append(parse_line(text))
                except InputError as e:
                    self.failure = InputError(f"{self.source}, line {n}: {e}")
                    break
                numbers.append(n)
                texts.append(text)
            self.shoes += len(shoes)
            if shoes:
                yield Chunk(numbers, texts, tuple(shoes))
            if self.failure is not None:
                return

    def finish(self) -> None:
        """Raise the bad line's error, or say that there was no shoe at all."""
        if self.failure is not None:
            raise self.failure
        if not self.shoes:
            raise InputError(f"{self.source} holds no shoe (one per line, e.g. --decks 8 --remove 5,5)")


def priced_chunks(
    lines: Lines, blaw: BatchLaw, commission: Fraction, workers: int, scheduler: str | None
) -> Iterator[tuple[Chunk, tuple[Any, Any, dict[int, list[int]]]]]:
    """Each chunk with its rows (:func:`price_task`), in input order: in this process, or over the
    simulator's executor (local processes, a Dask cluster), the rows put back in order as they come."""
    task = lambda c: (blaw.bets, blaw.tableau, commission, c.shoes)  # noqa: E731
    if workers == 1 and scheduler is None:
        for chunk in lines:
            yield chunk, price_task(task(chunk))
        return
    from solver.simulate.executor import map_chunks

    sent: dict[int, Chunk] = {}

    def tasks() -> Iterator[tuple[Any, ...]]:
        for k, chunk in enumerate(lines):
            sent[k] = chunk
            yield task(chunk)

    def warm_up() -> None:  # compile (or load) the kernels once, before the worker processes fork
        price_task((blaw.bets, blaw.tableau, commission, (Shoe.decks(1),)))

    waiting: dict[int, tuple[Any, Any, dict[int, list[int]]]] = {}
    done = 0
    for k, priced in map_chunks(price_task, tasks(), workers, scheduler, warm_up):
        waiting[k] = priced
        while done in waiting:
            yield sent.pop(done), waiting.pop(done)
            done += 1


def run_batch(args: argparse.Namespace, bets: tuple[Bet, ...], commission: str, tableau: Tableau) -> int:
    """``punto --shoes``: read, price and write every line (see the module docstring)."""
    from solver.exact.numbers import exact

    source = source_name(args.shoes)
    stream = open_input(args.shoes)
    live = is_live(stream)
    alpha = exact(commission, "commission")
    writer = Writer(args, bets, alpha, tableau)
    workers = 1 if args.workers is None else args.workers
    if workers > 1 and args.scheduler is None:
        from solver.simulate.executor import MAX_WORKERS_PER_CORE, max_workers

        if workers > max_workers():
            note(
                f"--workers {workers:,} is more than {MAX_WORKERS_PER_CORE} processes per core: at most {max_workers()} are used"
            )
    lines = Lines(stream, source)
    total = None if live else line_count(args.shoes)
    with Progress(total or 0, "lines") as progress:
        for chunk, priced in priced_chunks(lines, writer.blaw, alpha, workers, args.scheduler):
            writer.write(chunk.numbers, chunk.texts, chunk.shoes, priced)
            if live:
                _flush()
            if total is not None:
                progress.update(chunk.numbers[-1])
    lines.finish()
    return 0
