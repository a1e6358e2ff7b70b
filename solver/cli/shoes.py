"""``baccarat punto --shoes``: one shoe per line in, one JSON line per shoe out, as the lines come.

A line is a shoe in the shoe options' syntax (``--decks 8 --remove 5,5,K``); blank lines and ``#``
comments are skipped. Lines are read in chunks (:mod:`solver.cli.shoe_lines`): from a file, as many as
:data:`~solver.cli.shoe_lines.CHUNK` at a time; from a stream still being written (a pipe, a terminal),
whatever has arrived, so each answer is written (and flushed) as soon as its line is in — a live shoe
tracker. A bad line stops the run with one error line naming it (exit code 2) once the lines before it
are answered.

Every answer is exact: the chunk is priced by :mod:`solver.count.batch` (in this process, on local
processes or on a Dask cluster, the rows put back in input order) and written by the compiled writer
(:class:`solver.report.punto_batch.BatchWriter`), byte for byte the JSON of
:func:`solver.punto.punto_banco`'s result; with ``--digits`` or ``--breakdown`` each line is rendered
from the same integers in Python. With ``--workers`` or ``--scheduler`` a live stream tells the
executor when no line has come for :data:`IDLE_SECONDS`, so no answer waits for the next line.
"""

from __future__ import annotations

import argparse
import sys
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from solver.cards import Shoe
from solver.cli.common import Progress, emit_json, json_document, open_input, source_name
from solver.cli.shoe_lines import Chunk, Lines, is_live, line_count, read_chunk
from solver.simulate.tasks import Idle

if TYPE_CHECKING:
    import numpy as np

    from solver.count.batch import BatchLaw
    from solver.punto import Bet, PuntoResult
    from solver.report.punto_batch import BatchWriter
    from solver.rules.tableau import Tableau
    from solver.simulate.tasks import Scheduler

# -- pricing and writing --------------------------------------------------------------------------------

Priced = tuple[Any, Any, dict[int, list[int]]]
"""A chunk's rows as 128-bit pairs ``(hi, lo)``, and the rows too wide for them in Python integers."""


@dataclass(frozen=True, eq=False)
class Pricer:
    """What every chunk of a batch is priced with: the bets ready for the kernel and the commission
    (built once in this process, sent once to each worker: :func:`solver.simulate.executor.map_shared`)."""

    blaw: BatchLaw
    commission: Fraction


class ChunkTask(NamedTuple):
    """What a worker prices of a chunk: the kernel's arrays of its shoes, and the shoes outside the
    kernel's range (:meth:`solver.count.batch.BatchLaw.kernel_route`) by their index, priced in Python."""

    values: np.ndarray
    types: np.ndarray
    kinds: np.ndarray
    outside: dict[int, Shoe]


def task_of(chunk: Chunk, blaw: BatchLaw) -> ChunkTask:
    """The task of a chunk (:class:`ChunkTask`)."""
    sizes = chunk.values.sum(axis=1)
    outside = {i: chunk.shoe(i) for i in range(len(sizes)) if chunk.infinite[i] or sizes[i] > blaw.max_cards}
    return ChunkTask(chunk.values, chunk.types, chunk.kinds, outside)


def price_chunk(pricer: Pricer, task: ChunkTask) -> Priced:
    """Price one chunk anywhere (for :func:`solver.simulate.executor.map_shared`): every row as 128-bit
    pairs (:mod:`solver.count.batch`) and, for the rows too large for them, the Python integers."""
    import numpy as np

    from solver.count.batch import price_rows
    from solver.count.batch_rows import python_row

    blaw = pricer.blaw
    n = len(task.values)
    fast = np.ones(n, dtype=bool)
    fast[list(task.outside)] = False
    hi = np.zeros((n, blaw.width), dtype=np.uint64)
    lo = np.zeros((n, blaw.width), dtype=np.uint64)
    if fast.any():
        hi[fast], lo[fast] = price_rows(blaw, task.values[fast], task.types[fast], task.kinds[fast])
    wide: dict[int, list[int]] = {}
    for i, shoe in task.outside.items():
        row = python_row(blaw, shoe, pricer.commission)
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
        self.batch: BatchWriter | None = None

    def document(self, record: dict[str, Any]) -> dict[str, Any]:
        return json_document(record, self.args)

    def write(self, chunk: Chunk, priced: Priced) -> None:
        """The lines of one chunk, in order: compiled runs, and in Python the rows too wide for it (or every
        row, with ``--digits`` or ``--breakdown``)."""
        import numpy as np

        hi, lo, wide = priced
        compiled = chunk.values.sum(axis=1) < LARGEST_FACTOR
        compiled[list(wide)] = False
        if self.general:
            compiled[:] = False
        cuts = [0, *(np.flatnonzero(compiled[1:] != compiled[:-1]) + 1).tolist(), len(compiled)]
        for i, j in zip(cuts, cuts[1:]):  # runs of rows written the same way
            if compiled[i]:
                self._compiled(chunk, slice(i, j), hi[i:j], lo[i:j])
            else:
                for k in range(i, j):
                    row = wide[k] if k in wide else _row_ints(hi[k], lo[k])
                    self._python(chunk.numbers[k], chunk.texts[k], chunk.shoe(k), row)

    def _compiled(self, chunk: Chunk, part: slice, hi: np.ndarray, lo: np.ndarray) -> None:
        import numpy as np

        from solver.count.batch import D4, D
        from solver.report.punto_batch import BatchWriter, batch_templates, spec_shapes

        if self.batch is None:
            self.batch = BatchWriter(batch_templates(self.blaw, self.commission, self.document))
        values, infinite = chunk.values[part], chunk.infinite[part]
        shapes, ints = spec_shapes(values, chunk.types[part], chunk.kinds[part], infinite)
        n = values.sum(axis=1)
        factors = np.stack([n - j for j in (0, 1, 2, 3, 4, 5, 0, 1, 2, 3)], axis=1)
        for i in np.flatnonzero(infinite).tolist():  # T^6 and T^4 (the first cards' own T)
            d4 = (int(hi[i, D4]) << 64) | int(lo[i, D4])
            t4 = round(d4 ** (1 / 4))
            assert t4**4 == d4 and ((int(hi[i, D]) << 64) | int(lo[i, D])) == int(n[i]) ** 6
            factors[i] = [n[i]] * 6 + [t4] * 4
        _emit_bytes(self.batch.lines(shapes, hi, lo, factors, chunk.numbers[part], chunk.texts[part], ints))

    def _python(self, number: int, text: str, shoe: Shoe, row: list[int]) -> None:
        from solver.count.batch_rows import result

        write_line(self.args, number, text, result(self.blaw, shoe, row, self.commission))


class OneShoeWriter:
    """Prices and writes a chunk's lines one shoe at a time, by :func:`solver.punto.punto_banco` (the
    route :func:`use_kernels` takes where compiling the kernels would cost more than it saves)."""

    def __init__(self, args: argparse.Namespace, bets: tuple[Bet, ...], commission: Fraction, tableau: Tableau) -> None:
        self.args, self.bets, self.commission, self.tableau = args, bets, commission, tableau

    def write(self, chunk: Chunk) -> None:
        from solver.punto import punto_banco

        for i, (number, text) in enumerate(zip(chunk.numbers, chunk.texts)):
            r = punto_banco(chunk.shoe(i), self.commission, self.bets, skip_unsettled=True, tableau=self.tableau)
            write_line(self.args, number, text, r)


def write_line(args: argparse.Namespace, number: int, text: str, result: PuntoResult) -> None:
    """One line's JSON, rendered in Python from its result (with ``--digits`` and ``--breakdown``)."""
    from solver.report.punto import punto_dict

    record = {"line": number, "input": text, **punto_dict(result, args.digits, args.breakdown)}
    emit_json([record], args, lines=True)


COMPILE_LINES = 20_000
"""A file of fewer lines than this, or a stream (its length unknown), starts one shoe at a time in Python
unless the kernels are compiled already (on disk): compiling them takes about 40 s of CPU, a shoe in
Python 1.5 to 4 ms, in the kernels a thirtieth of that or less."""

PYTHON_LINES = 10_000
"""Lines answered one shoe at a time before the kernels are compiled and taken for the rest (about as
long as compiling them: a batch of unknown length never costs much more than twice the best route)."""

KERNELS = (
    ("count/batch.py", "price"),
    ("count/lanelaw.py", "lane_sums"),
    ("count/shoe_arrays.py", "count_cards"),
    ("exact/template.py", "fill"),
    ("report/punto_batch.py", "shapes_into"),
)
"""The kernels of the batch route, by module file (under ``solver/``) and name."""


def kernels_cached() -> bool:
    """Whether every kernel of the batch route is on disk, compiled by this code."""
    from pathlib import Path

    import solver
    from solver.store.jitcache import is_cached

    root = Path(solver.__file__).parent
    return all(is_cached(root / path, name) for path, name in KERNELS)


def use_kernels(workers: int | None, scheduler: Scheduler | None, total: int | None) -> bool:
    """Whether a batch goes through the compiled kernels: on workers, where the kernels are on disk
    already, or for a file of at least :data:`COMPILE_LINES` lines; else one shoe at a time in Python
    (the same bytes, tested), so a first small batch or a live tracker on a fresh install answers at once
    rather than after the kernels' compilation."""
    if workers is not None or scheduler is not None or kernels_cached():
        return True
    return total is not None and total >= COMPILE_LINES


def _row_ints(hi: np.ndarray, lo: np.ndarray) -> list[int]:
    from solver.count.batch_rows import row_ints

    return row_ints(hi, lo)


def _emit_bytes(data: memoryview) -> None:
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # an in-memory stdout
        sys.stdout.write(bytes(data).decode())
        return
    sys.stdout.flush()
    buffer.write(data)


def _flush() -> None:
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        buffer.flush()


IDLE_SECONDS = 0.05
"""How long a live stream priced on workers waits for a line before it lets the answers in flight out."""


def priced_chunks(
    chunks: Iterator[Chunk | Idle], pricer: Pricer, workers: int | None, scheduler: Scheduler | None
) -> Iterator[tuple[Chunk, Priced]]:
    """Each chunk (:meth:`solver.cli.shoe_lines.Lines.read`) with its rows (:func:`price_chunk`), in input
    order: in this process, or over the executor (local processes, a Dask cluster), each chunk's rows
    written as soon as they and those before them are in; a live stream says when it is idle
    (:data:`~solver.simulate.tasks.IDLE`), so no answer waits for the lines after it."""
    if workers is None and scheduler is None:
        for chunk in chunks:
            if not isinstance(chunk, Idle):
                yield chunk, price_chunk(pricer, task_of(chunk, pricer.blaw))
        return
    from solver.simulate.executor import in_order, map_shared

    sent: deque[Chunk] = deque()

    def tasks() -> Iterator[ChunkTask | Idle]:
        for chunk in chunks:
            if isinstance(chunk, Idle):
                yield chunk
            else:
                sent.append(chunk)
                yield task_of(chunk, pricer.blaw)

    def warm_up() -> None:  # compile (or load) the kernels once, before the worker processes fork
        price_chunk(pricer, task_of(read_chunk([(1, "--decks 1")], "")[0], pricer.blaw))

    for priced in in_order(map_shared(price_chunk, pricer, tasks(), workers or 1, scheduler, warm_up)):
        yield sent.popleft(), priced


def run_batch(args: argparse.Namespace, bets: tuple[Bet, ...], commission: str, tableau: Tableau) -> int:
    """``punto --shoes``: read, price and write every line (see the module docstring)."""
    from solver.cli.workers import scheduler_from_args, workers_from_args
    from solver.exact.numbers import exact

    source = source_name(args.shoes)
    scheduler = scheduler_from_args(args)
    workers = workers_from_args(args)
    stream = open_input(args.shoes)
    live = is_live(stream)
    alpha = exact(commission, "commission")
    total = None if live else line_count(args.shoes)
    kernels = use_kernels(workers, scheduler, total)
    lines = Lines(stream, source, counter=kernels)
    with Progress(total or 0, "lines") as progress:
        for chunk in written(args, lines, bets, alpha, tableau, kernels, workers, scheduler):
            if live:
                _flush()
            if total is not None:
                progress.update(chunk.numbers[-1])
    lines.finish()
    return 0


def written(
    args: argparse.Namespace,
    lines: Lines,
    bets: tuple[Bet, ...],
    commission: Fraction,
    tableau: Tableau,
    kernels: bool,
    workers: int | None,
    scheduler: Scheduler | None,
) -> Iterator[Chunk]:
    """Each chunk once its lines are written: by the kernels (:class:`Writer`), or one shoe at a time
    (:class:`OneShoeWriter`) where :func:`use_kernels` says so, until :data:`PYTHON_LINES` lines have
    been (a long stream then pays for compiling the kernels, and takes them)."""
    chunks = lines.read(idle=None if workers is None and scheduler is None else IDLE_SECONDS)
    if not kernels:
        one = OneShoeWriter(args, bets, commission, tableau)
        answered = 0
        for chunk in chunks:
            if isinstance(chunk, Idle):
                continue
            one.write(chunk)
            yield chunk
            answered += len(chunk.numbers)
            if answered >= PYTHON_LINES:
                break
        else:
            return
        lines.counter = True
    writer = Writer(args, bets, commission, tableau)
    for chunk, priced in priced_chunks(chunks, Pricer(writer.blaw, commission), workers, scheduler):
        writer.write(chunk, priced)
        yield chunk
