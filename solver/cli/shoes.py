"""``baccarat punto --shoes``: one shoe per line in, one JSON line per shoe out, as the lines come.

A line is a shoe in the shoe options' syntax (``--decks 8 --remove 5,5,K``); blank lines and ``#``
comments are skipped. Lines are read in chunks: from a file or a pipe already full, as many as
:data:`CHUNK` at a time; from a stream still being written (a pipe, a terminal), whatever has arrived,
so each answer is written (and flushed) as soon as its line is in — a live shoe tracker. A bad line
stops the run with one error line naming it (exit code 2) once the lines before it are answered.

Every answer is exact: the chunk is priced by :mod:`solver.count.batch` (in this process, on local
processes or on a Dask cluster, the rows put back in input order) and written by the compiled writer
(:func:`solver.report.punto_batch.batch_lines`), byte for byte the JSON of :func:`solver.punto.punto_banco`'s
result; with ``--digits`` or ``--breakdown`` each line is rendered from the same integers in Python.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.cards import Shoe
from solver.cli.common import Progress, emit, json_document, note, open_input, source_name
from solver.cli.shoe_lines import Chunk, Lines, is_live, line_count, read_chunk

if TYPE_CHECKING:
    import numpy as np

    from solver.count.batch import BatchLaw
    from solver.punto import Bet
    from solver.report.punto_batch import BatchTemplates
    from solver.rules.tableau import Tableau

# -- pricing and writing --------------------------------------------------------------------------------

Priced = tuple[Any, Any, dict[int, list[int]]]
"""A chunk's rows as 128-bit pairs ``(hi, lo)``, and the rows too wide for them in Python integers."""


def task_of(chunk: Chunk, blaw: BatchLaw, commission: Fraction) -> tuple[Any, ...]:
    """What a worker needs to price a chunk: the bets, the kernel's arrays, and the shoes outside the
    kernel's range (:meth:`solver.count.batch.BatchLaw.kernel_route`), priced in Python."""
    sizes = chunk.values.sum(axis=1)
    outside = {i: chunk.shoe(i) for i in range(len(sizes)) if chunk.infinite[i] or sizes[i] > blaw.max_cards}
    return blaw.bets, blaw.tableau, commission, chunk.values, chunk.types, chunk.kinds, outside


def price_task(task: tuple[Any, ...]) -> Priced:
    """Price one chunk anywhere (picklable, for :func:`solver.simulate.executor.map_chunks`; see
    :func:`task_of`): every row as 128-bit pairs (:mod:`solver.count.batch`) and, for the rows too large
    for them, the Python integers."""
    import numpy as np

    from solver.count.batch import batch_law, price_rows
    from solver.count.batch_rows import python_row

    bets, tableau, commission, values, types, kinds, outside = task
    blaw = batch_law(bets, tableau)
    n = len(values)
    fast = np.ones(n, dtype=bool)
    fast[list(outside)] = False
    hi = np.zeros((n, blaw.width), dtype=np.uint64)
    lo = np.zeros((n, blaw.width), dtype=np.uint64)
    if fast.any():
        hi[fast], lo[fast] = price_rows(blaw, values[fast], types[fast], kinds[fast])
    wide: dict[int, list[int]] = {}
    for i, shoe in outside.items():
        row = python_row(blaw, shoe, commission)
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

    def write(self, chunk: Chunk, priced: Priced) -> None:
        """The lines of one chunk, in order: compiled runs, and in Python the rows too wide for it (or every
        row, with ``--digits`` or ``--breakdown``)."""
        hi, lo, wide = priced
        sizes = chunk.values.sum(axis=1)
        compiled = [not self.general and i not in wide and sizes[i] < LARGEST_FACTOR for i in range(len(sizes))]
        i = 0
        while i < len(compiled):
            j = i
            while j < len(compiled) and compiled[j] == compiled[i]:
                j += 1
            if compiled[i]:
                self._compiled(chunk, slice(i, j), hi[i:j], lo[i:j])
            else:
                for k in range(i, j):
                    row = wide[k] if k in wide else _row_ints(hi[k], lo[k])
                    self._python(chunk.numbers[k], chunk.texts[k], chunk.shoe(k), row)
            i = j

    def _compiled(self, chunk: Chunk, part: slice, hi: np.ndarray, lo: np.ndarray) -> None:
        import numpy as np

        from solver.count.batch import D4, D
        from solver.report.punto_batch import batch_lines, batch_templates, spec_shapes

        if self.templates is None:
            self.templates = batch_templates(self.blaw, self.commission, self.document)
        values, infinite = chunk.values[part], chunk.infinite[part]
        shapes, ints = spec_shapes(values, chunk.types[part], chunk.kinds[part], infinite)
        n = values.sum(axis=1)
        factors = np.stack([n - j for j in (0, 1, 2, 3, 4, 5, 0, 1, 2, 3)], axis=1)
        for i in np.flatnonzero(infinite).tolist():  # T^6 and T^4 (the first cards' own T)
            d4 = (int(hi[i, D4]) << 64) | int(lo[i, D4])
            t4 = round(d4 ** (1 / 4))
            assert t4**4 == d4 and ((int(hi[i, D]) << 64) | int(lo[i, D])) == int(n[i]) ** 6
            factors[i] = [n[i]] * 6 + [t4] * 4
        texts = [_json_text(t) for t in chunk.texts[part]]
        _emit_bytes(batch_lines(self.templates, shapes, hi, lo, factors, chunk.numbers[part], texts, ints))

    def _python(self, number: int, text: str, shoe: Shoe, row: list[int]) -> None:
        from solver.count.batch_rows import result
        from solver.report.punto import punto_dict

        r = result(self.blaw, shoe, row, self.commission)
        record = {"line": number, "input": text, **punto_dict(r, self.args.digits, self.args.breakdown)}
        emit([json.dumps(self.document(record))])


def _row_ints(hi: np.ndarray, lo: np.ndarray) -> list[int]:
    from solver.count.batch_rows import row_ints

    return row_ints(hi, lo)


_PLAIN = re.compile(r"[ !#-\[\]-~]*")
"""Printable ASCII but ``"`` and ``\\``: what ``json.dumps`` writes as it is."""


def _json_text(text: str) -> bytes:
    """``json.dumps(text)`` as bytes (at once for plain ASCII, the common case)."""
    if _PLAIN.fullmatch(text):
        return b'"' + text.encode() + b'"'
    return json.dumps(text).encode()


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


def priced_chunks(
    lines: Lines, blaw: BatchLaw, commission: Fraction, workers: int, scheduler: str | None
) -> Iterator[tuple[Chunk, Priced]]:
    """Each chunk with its rows (:func:`price_task`), in input order: in this process, or over the
    simulator's executor (local processes, a Dask cluster), the rows put back in order as they come."""
    if workers == 1 and scheduler is None:
        for chunk in lines:
            yield chunk, price_task(task_of(chunk, blaw, commission))
        return
    from solver.simulate.executor import map_chunks

    sent: dict[int, Chunk] = {}

    def tasks() -> Iterator[tuple[Any, ...]]:
        for k, chunk in enumerate(lines):
            sent[k] = chunk
            yield task_of(chunk, blaw, commission)

    def warm_up() -> None:  # compile (or load) the kernels once, before the worker processes fork
        price_task(task_of(read_chunk([(1, "--decks 1")], "")[0], blaw, commission))

    waiting: dict[int, Priced] = {}
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
            writer.write(chunk, priced)
            if live:
                _flush()
            if total is not None:
                progress.update(chunk.numbers[-1])
    lines.finish()
    return 0
