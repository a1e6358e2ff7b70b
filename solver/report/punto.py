"""Renderers of :class:`~solver.punto.PuntoResult`: text, JSON-ready dict, CSV rows."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

from solver.punto import Bet, PuntoResult
from solver.report import DEFAULT_TEXT_DIGITS, TEXT_WIDTH, decimal_str, fraction_str, percent_str
from solver.report.bets import bet_detail_csv_rows, bet_detail_dict, breakdown_text

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


def catalogue_rows(bets: Sequence[Bet], families: Mapping[str, str]) -> list[tuple[str, str]]:
    """``baccarat punto --bets list``: each catalogued bet's name and what it is, then each family
    (``NAME:K``, ``banker:ALPHA``) and what its value sets."""
    return [(b.name, b.description) for b in bets] + [(f"{name}:{_value_word(what)}", what) for name, what in families.items()]


def _value_word(description: str) -> str:
    """The word a family's description calls its value: ``ALPHA`` (a commission) or ``K`` (a pay)."""
    return "ALPHA" if "ALPHA" in description else "K"


def catalogue_text(bets: Sequence[Bet], families: Mapping[str, str]) -> str:
    """The catalogue's names in a column (so that ``cut -d' ' -f1`` still lists them), each with what it is;
    then the families, which take a value."""
    rows = catalogue_rows(bets, families)
    width = max(len(name) for name, _ in rows) + 2
    names = [f"{name.ljust(width)}{what}" for name, what in rows[: len(bets)]]
    kinds = [f"{name.ljust(width)}{what}" for name, what in rows[len(bets) :]]
    return "\n".join([*names, "", "families (give a value):", *kinds])


def catalogue_dict(bets: Sequence[Bet], families: Mapping[str, str]) -> dict[str, object]:
    """The catalogue's names and what each bet is, JSON-ready (``catalogue``), and the families (``families``)."""
    return {
        "catalogue": [{"name": b.name, "description": b.description} for b in bets],
        "families": [{"name": name, "description": what} for name, what in families.items()],
    }
