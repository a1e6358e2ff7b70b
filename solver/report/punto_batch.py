"""The JSON lines of ``baccarat punto --shoes``, written at the kernel's speed: templates cut from what
:func:`solver.report.punto.punto_dict` and ``json.dumps`` write, filled with each shoe's row of exact
integers by the compiled writer (:func:`solver.exact.template.fill`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.cards import Shoe
from solver.exact.numbers import fraction_str
from solver.report.punto import punto_dict

if TYPE_CHECKING:
    import numpy as np

    from solver.count.batch import BatchLaw


SHAPES = ("decks", "suits equal", "suits", "ranks, suits unknown", "ranks", "values", "infinite")
"""The ways :meth:`~solver.cards.Shoe.spec` describes a shoe, each a template of its own: full decks; suits
known, equal within each rank (not written); suits known, written; ranks known and suits not, ``"suits":
null`` (rank counts that are multiples of four would otherwise mean equal suits); ranks known and suits
not, no ``suits``; point values only; the infinite deck."""

SHAPE_KIND = (0, 0, 0, 1, 1, 2, 0)
"""The :class:`~solver.count.shoe_arrays.Kind` of each shape (which bets its shoes settle)."""

SPEC_INTS = 76
"""A line's integers for its shoe: 10 counts by value, 13 by rank, 52 by rank and suit, the decks."""


def spec_shapes(values: np.ndarray, types: np.ndarray, kinds: np.ndarray, infinite: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(shape, ints)`` of each shoe of a chunk (:data:`SHAPES`, :data:`SPEC_INTS`), from the kernel's
    arrays (:func:`solver.count.shoe_arrays.shoe_arrays`): what :meth:`~solver.cards.Shoe.spec` writes, by
    the compiled :func:`shapes_into`."""
    import numpy as np

    n = len(values)
    shape = np.empty(n, dtype=np.int64)
    ints = np.empty((n, SPEC_INTS), dtype=np.int64)
    compiled(shapes_into)(
        np.ascontiguousarray(values, dtype=np.int64),
        np.ascontiguousarray(types, dtype=np.int64),
        np.ascontiguousarray(kinds, dtype=np.int64),
        np.ascontiguousarray(infinite, dtype=np.bool_),
        shape,
        ints,
    )
    return shape, ints


def shapes_into(values: Any, types: Any, kinds: Any, infinite: Any, shape: Any, ints: Any) -> None:
    """Each shoe's shape (:data:`SHAPES`) into ``shape`` and its integers into ``ints`` (:data:`SPEC_INTS`: its
    ten counts by value, 13 by rank, the 52 of ``types``, and the count of its first card, which is the
    decks where the suits are full). The ranks are ``types`` summed by fours where the suits are known
    (kind 0, :attr:`~solver.count.shoe_arrays.Kind.SUITS`), else its first 13; the suits are equal where
    each is a quarter of its rank, full decks where every card is as many. Compiled (:func:`compiled`):
    the same in numpy made arrays as large as the chunk's, ten times the time."""
    for i in range(len(values)):
        for v in range(10):
            ints[i, v] = values[i, v]
        suited = kinds[i] == 0
        full = True
        equal = True
        by_four = True
        for r in range(13):
            c = types[i, 4 * r] + types[i, 4 * r + 1] + types[i, 4 * r + 2] + types[i, 4 * r + 3] if suited else types[i, r]
            ints[i, 10 + r] = c
            by_four = by_four and c % 4 == 0
            for k in range(4 * r, 4 * r + 4):
                equal = equal and 4 * types[i, k] == c
                full = full and types[i, k] == types[i, 0]
        for k in range(52):
            ints[i, 23 + k] = types[i, k]
        ints[i, SPEC_INTS - 1] = types[i, 0]
        if infinite[i]:
            shape[i] = 6
        elif suited:
            shape[i] = 0 if full else 1 if equal else 2
        else:
            shape[i] = (3 if by_four else 4) if kinds[i] == 1 else 5


@dataclass(frozen=True, eq=False)
class BatchTemplates:
    """The JSON line of every shape of shoe (:data:`SHAPES`) of a batch, as operations of
    :func:`solver.exact.template.fill`: cut from what :func:`punto_dict` and ``json.dumps`` write, so a line
    filled with a shoe's values is byte for byte the line of its :class:`~solver.punto.PuntoResult`.

    Attributes:
        ops: ``(operations, 5)`` int64, every template's operations one after another.
        op_start: template ``t`` is ``ops[op_start[t]:op_start[t + 1]]``.
        literals: the bytes (uint8) the ``LITERAL`` operations copy.
        multipliers: the payout scales fractions are taken over, by index (``d`` of a ``FRACTION``).
        size: per template, an upper bound on its line's length without its text.
    """

    ops: np.ndarray
    op_start: np.ndarray
    literals: np.ndarray
    multipliers: tuple[int, ...]
    size: tuple[int, ...]


MARK = "@@baccarat-slot-{}@@"
"""Marks put where a line's own text and counts go, unlike any text a record holds."""

LINE_MARK = -987654321987
"""The line number of the lines templates are cut from."""


def batch_templates(blaw: BatchLaw, commission: Fraction, document: Callable[[dict[str, Any]], dict[str, Any]]) -> BatchTemplates:
    """The templates of a batch's lines, one per shape of shoe (see :class:`BatchTemplates`). ``document``
    wraps a record as the command writes it (its ``tool`` and ``command``); a record is ``{"line": n,
    "input": text, **punto_dict(result)}``.

    Each template is the line of a sample shoe of its shape whose values are large random numbers (a
    consistent row: wins, pushes and EV numerators formed from the lines' weights as
    :func:`~solver.punto.result_from_weights` forms them, the denominators primes): every exact number
    printed is then the reduced fraction of exactly one slot, found by its text (a seed whose numbers
    collide is passed over). A number no slot gives (a push that is 0 on every shoe, the commission)
    stays literal; the shoe's counts are marked in its ``spec()`` and written from the line's integers.
    """
    import numpy as np

    from solver.exact.digits import MAX_DIGITS
    from solver.exact.template import FRACTION, LIST, LITERAL, NEGATED

    ops: list[tuple[int, int, int, int, int]] = []
    starts = [0]
    literals = bytearray()
    sizes = []
    scales = sorted({bet.scale for bet in blaw.bets if bet.scale != 1})
    for shape in range(len(SHAPES)):
        for seed in range(20261201, 20261301):
            found = _template(blaw, commission, document, shape, scales, seed)
            if found is not None:
                break
        else:  # pragma: no cover - 80-bit random numbers do not collide
            raise AssertionError("no seed gives distinct slots")
        text, cuts = found
        at = 0
        numbers = 0
        previous: tuple[int, int, int, int, int] | None = None
        for lo, hi, slot in cuts:
            piece = text[at:lo].encode()
            negated = (
                previous is not None
                and slot[0] == FRACTION
                and slot[2] == 1
                and slot[:2] + slot[3:] == previous[:2] + previous[3:]
            )
            ops += [(LITERAL, len(literals), len(piece), 0, 0), (NEGATED, 0, 0, 0, 0) if negated else slot]
            literals += piece
            numbers += 2 if slot[0] == FRACTION else SPEC_INTS if slot[0] == LIST else 1
            previous = slot if slot[0] == FRACTION and slot[2] == 0 else None
            at = hi
        piece = text[at:].encode()
        ops.append((LITERAL, len(literals), len(piece), 0, 0))
        literals += piece
        starts.append(len(ops))
        sizes.append(len(text.encode()) + numbers * (MAX_DIGITS + 2) + 1)
    return BatchTemplates(
        np.array(ops, dtype=np.int64).reshape(-1, 5),
        np.array(starts, dtype=np.int64),
        np.frombuffer(bytes(literals), dtype=np.uint8).copy(),
        tuple(scales),
        tuple(sizes),
    )


def _sample(shape: int) -> Shoe:
    """A shoe of each of :data:`SHAPES`."""
    one = Shoe.decks(1)
    return (
        one,
        Shoe.from_ranks([8] * 12 + [4]),
        one.remove(["KS"]),
        one.remove(["K", "K", "K", "K"]),
        one.remove(["K"]),
        one.remove(["0"]),
        Shoe.infinite(),
    )[shape]


def _template(
    blaw: BatchLaw,
    commission: Fraction,
    document: Callable[[dict[str, Any]], dict[str, Any]],
    shape: int,
    scales: list[int],
    seed: int,
) -> tuple[str, list[tuple[int, int, tuple[int, int, int, int, int]]]] | None:
    """The line of :func:`batch_templates` for one shape and the slots cut from it, or ``None`` if two
    slots' numbers collide."""
    import random

    from solver.count.batch import D4, D
    from solver.count.batch_rows import result
    from solver.exact.template import FRACTION, INT, LINE, LIST, NUMBER, TEXT

    rng = random.Random(seed)
    row = [0] * blaw.width
    row[D], row[D4] = 2**89 - 1, 2**107 - 1  # primes: no weight shares a factor with them
    for w in range(D + 2, D + 5):
        row[w] = rng.getrandbits(80)
    for b, bet in enumerate(blaw.bets):
        weights = [rng.getrandbits(80) for _ in range(blaw.tier_count(b) + 1)]
        row[blaw.base[b] : blaw.loss(b) + 1] = weights
        row[blaw.win(b)] = sum(w for t, w in zip(bet.tiers, weights) if t.pays > 0)
        row[blaw.push(b)] = sum(w for t, w in zip(bet.tiers, weights) if t.pays == 0)
        pays = [t.pays.numerator * (bet.scale // t.pays.denominator) for t in bet.tiers]
        row[blaw.ev(b)] = sum(p * w for p, w in zip(pays, weights)) - bet.scale * weights[-1]
    slots: dict[str, tuple[int, int, int, int, int]] = {}
    fine = True

    def put(text: str, slot: tuple[int, int, int, int, int]) -> None:
        nonlocal fine
        fine &= slots.setdefault(text, slot) == slot

    put(str(row[D]), (NUMBER, D, 0, 0, 0))
    for w in range(D + 2, D + 5):
        put(str(row[w]), (NUMBER, w, 0, 0, 0))
        put(fraction_str(Fraction(row[w], row[D])), (FRACTION, w, 0, D, -1))
    for b in blaw.kept(SHAPE_KIND[shape]):
        bet = blaw.bets[b]
        den = D4 if bet.first_cards else D
        for v in (blaw.loss(b), blaw.win(b), blaw.push(b)):
            if row[v]:
                put(fraction_str(Fraction(row[v], row[den])), (FRACTION, v, 0, den, -1))
        mult = scales.index(bet.scale) if bet.scale != 1 else -1
        for sign in (0, 1):
            put(
                fraction_str(Fraction(-row[blaw.ev(b)] if sign else row[blaw.ev(b)], bet.scale * row[den])),
                (FRACTION, blaw.ev(b), sign, den, mult),
            )
    if not fine:
        return None
    sample = _sample(shape)
    spec = sample.spec()
    lists = {"values": (0, 10), "ranks": (10, 13), "suits": (23, 52)}
    marks: dict[str, tuple[int, int, int, int, int]] = {MARK.format("input"): (TEXT, 0, 0, 0, 0)}
    for name, (start, count) in lists.items():
        if isinstance(spec.get(name), list):
            marks[MARK.format(name)] = (LIST, start, count, 0, 0)
            spec[name] = MARK.format(name)
    if isinstance(spec.get("decks"), int):
        marks[MARK.format("decks")] = (INT, SPEC_INTS - 1, 0, 0, 0)
        spec["decks"] = MARK.format("decks")
    record: dict[str, Any] = {
        "line": LINE_MARK,
        "input": MARK.format("input"),
        **punto_dict(result(blaw, sample, row, commission)),
    }
    record["shoe"] = spec
    text = json.dumps(document(record))
    cuts = []
    for m in re.finditer(f'{LINE_MARK}|"((?:[^"\\\\]|\\\\.)*)"', text):
        inner = m.group(1)
        if inner is None:
            cuts.append((m.start(), m.end(), (LINE, 0, 0, 0, 0)))
        elif inner in marks and marks[inner][0] == TEXT:
            cuts.append((m.start(1), m.end(1), marks[inner]))
        elif inner in marks:
            cuts.append((m.start(), m.end(), marks[inner]))  # with the quotes: a list or a number takes their place
        elif inner in slots:
            cuts.append((m.start(1), m.end(1), slots[inner]))
    return text, cuts


def json_texts(texts: Sequence[str]) -> tuple[bytes, np.ndarray]:
    """Each text as ``json.dumps`` writes it between its quotes (escaped, ASCII), all one after another, and
    where each starts (one more: the end). Joined at once and looked over once when every text is printable
    ASCII without ``"`` or ``\\`` (the common case: the lines of a tracker; ``json.dumps`` writes them as
    they are), by ``json.dumps`` one by one otherwise. (Looked over by ``min`` and ``max``, which make no
    array as large as the text: a fresh one costs its page faults, ten times the look.)"""
    import numpy as np

    starts = np.zeros(len(texts) + 1, dtype=np.int64)
    joined = "".join(texts).encode()  # UTF-8: a byte past 127 where a text is not ASCII
    codes = np.frombuffer(joined, dtype=np.uint8)
    if not len(codes) or (b'"' not in joined and b"\\" not in joined and np.min(codes) >= 32 and np.max(codes) <= 126):
        np.cumsum(np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)), out=starts[1:])
        return joined, starts
    quoted = [json.dumps(t)[1:-1] for t in texts]
    np.cumsum([len(q) for q in quoted], out=starts[1:])
    return "".join(quoted).encode(), starts


class BatchWriter:
    """Writes the JSON lines of runs of shoes from a batch's templates (:func:`batch_templates`): the
    multipliers' primes found once, and one output buffer for every run (its memory mapped once)."""

    def __init__(self, templates: BatchTemplates) -> None:
        import numpy as np

        from solver.exact.template import multiplier_table

        self.templates = templates
        self.multipliers = multiplier_table(templates.multipliers)
        self.sizes = np.asarray(templates.size, dtype=np.int64)
        self.out = np.empty(0, dtype=np.uint8)

    def lines(
        self,
        shapes: np.ndarray,
        hi: np.ndarray,
        lo: np.ndarray,
        factors: np.ndarray,
        lines: Sequence[int],
        texts: Sequence[str],
        ints: np.ndarray,
    ) -> memoryview:
        """The JSON lines of a run of shoes, each from the template of its shape, newline-terminated (a
        view of the buffer, valid until the next call).

        Args:
            shapes, ints: each shoe's shape and integers (:func:`spec_shapes`).
            hi, lo: each shoe's row of values (:class:`~solver.count.batch.BatchLaw`) as 128-bit pairs.
            factors: each shoe's two denominators' factors (:func:`solver.count.batch_rows.factors`).
            lines: each shoe's line number.
            texts: each line's text.
        """
        import numpy as np

        text, offsets = json_texts(texts)
        shapes = np.ascontiguousarray(shapes, dtype=np.int64)
        size = int(self.sizes[shapes].sum()) + len(text) + 8  # the writer stores eight bytes at a time
        if len(self.out) < size:
            self.out = np.empty(size, dtype=np.uint8)
        t = self.templates
        n = compiled_fill()(
            t.ops,
            t.op_start,
            t.literals,
            shapes,
            hi,
            lo,
            np.ascontiguousarray(factors, dtype=np.int64),
            np.asarray(lines, dtype=np.int64),
            np.frombuffer(text, dtype=np.uint8),
            offsets,
            ints,
            *self.multipliers,
            self.out,
        )
        return self.out[:n].data


_COMPILED: dict[str, Any] = {}


def compiled_fill() -> Any:
    """The numba-compiled :func:`solver.exact.template.fill` (see :func:`compiled`; it inlines
    :mod:`solver.exact.wide` and :mod:`solver.exact.digits`). Compiled here, not in :mod:`solver.exact`,
    which may not import :mod:`solver.store` (one layer)."""
    from solver.exact import template

    return compiled(template.fill)


def compiled(function: Callable[..., Any]) -> Any:
    """A kernel of the writer compiled by numba: on first use, cached on disk beside its source, the entries
    dropped when the package's code changes (:func:`solver.store.jitcache.drop_stale`)."""
    name = function.__name__
    if name not in _COMPILED:
        import sys

        from numba import njit

        from solver.store.jitcache import drop_stale

        drop_stale(sys.modules[function.__module__].__file__ or "", name)
        _COMPILED[name] = njit(cache=True, nogil=True)(function)
    return _COMPILED[name]
