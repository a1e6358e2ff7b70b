"""Renderers of :class:`~solver.punto.PuntoResult`: text, JSON-ready dict, CSV rows."""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.cards import Shoe
from solver.punto import PuntoResult
from solver.report import DEFAULT_TEXT_DIGITS, TEXT_WIDTH, decimal_str, fraction_str, percent_str
from solver.report.bets import bet_detail_csv_rows, bet_detail_dict, breakdown_text

if TYPE_CHECKING:
    import numpy as np

    from solver.count.batch import BatchLaw

PAIRS_NEED_RANKS = (
    "they need the shoe's ranks (a 10 and a K make no pair). Give the shoe by rank (--decks, or "
    "--shoe with 13 counts A,2,...,10,J,Q,K) and remove cards by rank (5, K, not 0)."
)
"""Why a shoe given by point value only cannot price the pair bets, and what to do instead."""

SUITS_UNKNOWN = (
    "they need the shoe's suits, unknown once a card of unknown suit is removed from a shoe given "
    "by rank. Remove cards by rank and suit (KS, 10H), or give the shoe by rank and suit (--shoe "
    "with 52 counts)."
)
"""Why a shoe of unknown suits cannot price the suit bets (Perfect Pairs), and what to do instead."""


def left_out_notes(r: PuntoResult) -> list[str]:
    """One sentence per reason the default set's bets were left out (:attr:`PuntoResult.omitted`),
    naming them and saying what to do instead."""
    reasons: dict[str, list[str]] = {}
    for name, why in r.omitted:
        reasons.setdefault(why, []).append(name)
    notes = []
    for why, names in reasons.items():
        hint = PAIRS_NEED_RANKS if "ranks" in why else SUITS_UNKNOWN if "suits" in why else why + "."
        notes.append(f"Left out ({', '.join(names)}): {hint}")
    return notes


def punto_dict(r: PuntoResult, digits: int | None = None, detail: bool = False) -> dict[str, object]:
    """JSON-ready dict: exact ``p/q`` strings; with ``digits``, ``*_decimal`` companions; with
    ``detail``, each bet's breakdown and risk (:func:`solver.report.bets.bet_detail_dict`); and the
    bets this shoe cannot settle (``omitted``), with ``detail`` or when there are any."""
    probs = {"banker": r.banker, "player": r.player, "tie": r.tie}
    out: dict[str, object] = {
        "game": "punto banco",
        "shoe": r.shoe.spec(),
        "exact": True,
        "method": r.method,
        "denominator": str(r.denominator),
        "counts": {k: str(v) for k, v in r.counts.items()},
        "probabilities": {k: fraction_str(v) for k, v in probs.items()},
        "commission": fraction_str(r.commission),
        "bets": [
            {
                "name": b.name,
                "description": b.description,
                "win": fraction_str(b.win),
                "lose": fraction_str(b.lose),
                "push": fraction_str(b.push),
                "ev": fraction_str(b.ev),
                "edge": fraction_str(b.edge),
            }
            for b in r.bets
        ],
    }
    if r.omitted:
        out["notes"] = left_out_notes(r)
    if digits is not None:
        out["probabilities_decimal"] = {k: decimal_str(v, digits) for k, v in probs.items()}
        for entry, b in zip(out["bets"], r.bets):  # type: ignore[call-overload]
            entry["edge_decimal"] = decimal_str(b.edge, digits)
    if detail:
        for entry, b in zip(out["bets"], r.bets):  # type: ignore[call-overload]
            entry.update(bet_detail_dict(b, digits))
    if detail or r.omitted:
        out["omitted"] = [{"name": n, "reason": why} for n, why in r.omitted]
    return out


CSV_HEADER = ("shoe", "item", "exact", "decimal")


def punto_csv_rows(r: PuntoResult, digits: int | None = None, detail: bool = False) -> list[tuple[str, ...]]:
    """Long-format rows ``shoe, item, exact, decimal`` (decimal empty unless ``digits``); with
    ``detail``, each bet's breakdown and risk rows after the edges (:func:`solver.report.bets.bet_detail_csv_rows`)."""
    label = r.shoe.label()
    items = [("P(banker)", r.banker), ("P(player)", r.player), ("P(tie)", r.tie)]
    items += [(f"edge:{b.name}", b.edge) for b in r.bets]
    rows: list[tuple[str, ...]] = [
        (label, k, fraction_str(v), decimal_str(v, digits) if digits is not None else "") for k, v in items
    ]
    if detail:
        for b in r.bets:
            rows += bet_detail_csv_rows(label, b, digits)
    return rows


def _wrap(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, TEXT_WIDTH, initial_indent=indent, subsequent_indent=indent)


def punto_text(
    r: PuntoResult, digits: int | None = None, detail: bool = False, pay_tables: bool = False, wrap: bool = False
) -> str:
    """A human report: exact fractions, and percentages rounded to ``digits`` (default 4) places; what
    each bet is, below its table; one plain sentence under each table. With ``detail``, the risk table,
    and with ``pay_tables`` every bet's pay table (:func:`solver.report.bets.breakdown_text`). With
    ``wrap``, the bets' descriptions are wrapped within :data:`~solver.report.TEXT_WIDTH` columns."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    pw = d + 5
    lines = [
        f"Punto banco, an infinite deck ({r.shoe.size} ranks, dealt with replacement)"
        if r.shoe.is_infinite
        else f"Punto banco, {r.shoe.label()} ({r.shoe.size} cards)",
        f"  six-card sequences: {r.denominator:,}",
        "",
        f"  {'outcome':<8} {'sequences':>26}  {'probability (exact)':<40} {'%':>{pw}}",
    ]
    for name in ("banker", "player", "tie"):
        p = getattr(r, name)
        lines.append(f"  {name:<8} {r.counts[name]:>26,}  {fraction_str(p):<40} {percent_str(p, d):>{pw}}")
    lines.append("    The law of one coup from this shoe: counts of equally likely card sequences over their total.")
    nw = max(len(b.name) for b in r.bets)
    fw = max([len(fraction_str(b.edge)) for b in r.bets] + [len("house edge (exact)")])
    lines += ["", f"  {'bet':<{nw}}  {'house edge (exact)':<{fw}} {'%':>{pw}}"]
    for b in r.bets:
        lines.append(f"  {b.name:<{nw}}  {fraction_str(b.edge):<{fw}} {percent_str(b.edge, d):>{pw}}")
    lines.append("    What each bet loses on average per unit staked (pushes count as stakes).")
    lines += ["", "  the bets:"]
    for b in r.bets:
        first = f"    {b.name:<{nw}}  "
        lines += (
            textwrap.wrap(b.description, TEXT_WIDTH, initial_indent=first, subsequent_indent=" " * len(first))
            if wrap
            else [first + b.description]
        )
    for note in left_out_notes(r):
        lines += _wrap(note, "    ")
    if detail:
        lines.append(breakdown_text(r, digits, pay_tables))
    lines.append("")
    lines += _wrap(f"Exact: {r.method}. Percentages rounded to {d} decimals.")
    return "\n".join(lines)


def punto_table_text(results: list[PuntoResult], digits: int | None = None) -> str:
    """One row per shoe: P(banker), P(player), P(tie) and every bet's edge, rounded, for comparison,
    under two group heads (probability, house edge)."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    names = [b.name for b in results[0].bets if all(b.name in {x.name for x in r.bets} for r in results)]
    w = d + 5
    sw = max([len(r.shoe.label()) for r in results] + [4])
    widths = [w] * 3 + [max(w, len(n)) for n in names]
    probs = " ".join(f"{h:>{w}}" for h in ("banker", "player", "tie"))
    edges = " ".join(f"{n:>{x}}" for n, x in zip(names, widths[3:]))

    def group(label: str, width: int) -> str:
        return f" {label} ".center(width, "-")

    p_width, e_width = 3 * w + 2, sum(widths[3:]) + len(names) - 1
    title = f"Punto banco by shoe, in %, rounded to {d} decimals (exact in --format json)"
    lines = [
        title,
        f"{'':<{sw}}  {group('probability', p_width)}  {group('house edge', e_width)}",
        f"{'shoe':<{sw}}  {probs}  {edges}",
    ]
    for r in results:
        row = f"{r.shoe.label():<{sw}}  " + " ".join(f"{percent_str(p, d):>{w}}" for p in (r.banker, r.player, r.tie))
        row += "  " + " ".join(f"{percent_str(r.bet(n).edge, d):>{x}}" for n, x in zip(names, widths[3:]))
        lines.append(row)
    if max(len(line) for line in lines[1:]) > TEXT_WIDTH:
        # Too many bets for a row per shoe: a row per quantity, a column per shoe.
        cw = max([w] + [len(r.shoe.label()) for r in results])
        nw = max(len(n) for n in ["banker", *names]) + 2
        lines = [title, f"{'':<{nw}}  " + " ".join(f"{r.shoe.label():>{cw}}" for r in results), "probability"]
        for label in ("banker", "player", "tie"):
            lines.append(f"  {label:<{nw - 2}}  " + " ".join(f"{percent_str(getattr(r, label), d):>{cw}}" for r in results))
        lines.append("house edge")
        lines += [f"  {n:<{nw - 2}}  " + " ".join(f"{percent_str(r.bet(n).edge, d):>{cw}}" for r in results) for n in names]
    notes = dict.fromkeys(note for r in results for note in left_out_notes(r))
    for note in notes:
        lines += _wrap(note, "")
    return "\n".join(lines)


# -- batches of shoes: JSON lines at the kernel's speed ------------------------------------------------

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
    arrays (:func:`solver.count.shoe_arrays.shoe_arrays`): what :meth:`~solver.cards.Shoe.spec` writes, vectorised."""
    import numpy as np

    n = len(values)
    ranks = np.where((kinds == 0)[:, None], types.reshape(n, 13, 4).sum(axis=2), types[:, :13])
    by_four = (ranks % 4 == 0).all(axis=1)
    equal = by_four & (types == np.repeat(ranks // 4, 4, axis=1)).all(axis=1)
    full = (types == types[:, :1]).all(axis=1)
    shape = np.select(
        [infinite, (kinds == 0) & full, (kinds == 0) & equal, kinds == 0, (kinds == 1) & by_four, kinds == 1],
        [6, 0, 1, 2, 3, 4],
        5,
    )
    ints = np.concatenate([values, ranks, types, types[:, :1]], axis=1)
    return shape.astype(np.int64), np.ascontiguousarray(ints, dtype=np.int64)


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

    from solver.exact.template import FRACTION, LIST, LITERAL, NEGATED
    from solver.exact.wide import MAX_DIGITS

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
        elif inner in marks:
            cuts.append((m.start(), m.end(), marks[inner]))  # with the quotes: the piece brings its own
        elif inner in slots:
            cuts.append((m.start(1), m.end(1), slots[inner]))
    return text, cuts


def batch_lines(
    templates: BatchTemplates,
    shapes: np.ndarray,
    hi: np.ndarray,
    lo: np.ndarray,
    factors: np.ndarray,
    lines: Sequence[int],
    texts: Sequence[bytes],
    ints: np.ndarray,
) -> bytes:
    """The JSON lines of a run of shoes, each from the template of its shape, newline-terminated.

    Args:
        templates: :func:`batch_templates`.
        shapes, ints: each shoe's shape and integers (:func:`spec_shapes`).
        hi, lo: each shoe's row of values (:class:`~solver.count.batch.BatchLaw`) as 128-bit pairs.
        factors: each shoe's two denominators' factors (:func:`solver.count.batch_rows.factors`).
        lines: each shoe's line number.
        texts: each line's text, JSON-escaped, with its quotes.
    """
    import numpy as np

    from solver.exact.template import multiplier_table

    m_values, m_table, m_exps, m_start = multiplier_table(templates.multipliers)
    text = b"".join(texts)
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum([len(p) for p in texts], out=offsets[1:])
    size = int(np.asarray(templates.size, dtype=np.int64)[shapes].sum()) + len(text)
    out = np.empty(size, dtype=np.uint8)
    n = compiled_fill()(
        templates.ops,
        templates.op_start,
        templates.literals,
        np.ascontiguousarray(shapes, dtype=np.int64),
        hi,
        lo,
        np.ascontiguousarray(factors, dtype=np.int64),
        np.asarray(lines, dtype=np.int64),
        np.frombuffer(text, dtype=np.uint8),
        offsets,
        ints,
        m_values,
        m_table,
        m_exps,
        m_start,
        out,
    )
    return out[:n].tobytes()


_COMPILED: list[Any] = []


def compiled_fill() -> Any:
    """The numba-compiled :func:`solver.exact.template.fill` (compiled on first use, cached on disk beside
    its source, the entries dropped when the package's code changes: it inlines :mod:`solver.exact.wide`).
    Compiled here, not in :mod:`solver.exact`, which may not import :mod:`solver.store` (one layer)."""
    if not _COMPILED:
        from numba import njit

        from solver.exact import template
        from solver.store.jitcache import drop_stale

        drop_stale(template.__file__, "fill")
        _COMPILED.append(njit(cache=True, nogil=True)(template.fill))
    return _COMPILED[0]
