"""Renderers of :class:`~solver.bets.PuntoResult`: text, JSON-ready dict, CSV rows."""

from __future__ import annotations

from solver.bets import PuntoResult
from solver.report import DEFAULT_TEXT_DIGITS, decimal_str, fraction_str, percent_str


def punto_dict(r: PuntoResult, digits: int | None = None) -> dict[str, object]:
    """JSON-ready dict: exact ``p/q`` strings; with ``digits``, ``*_decimal`` companions."""
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
    if digits is not None:
        out["probabilities_decimal"] = {k: decimal_str(v, digits) for k, v in probs.items()}
        for entry, b in zip(out["bets"], r.bets):  # type: ignore[call-overload]
            entry["edge_decimal"] = decimal_str(b.edge, digits)
    return out


CSV_HEADER = ("shoe", "item", "exact", "decimal")


def punto_csv_rows(r: PuntoResult, digits: int | None = None) -> list[tuple[str, ...]]:
    """Long-format rows ``shoe, item, exact, decimal`` (decimal empty unless ``digits``)."""
    label = r.shoe.label()
    items = [("P(banker)", r.banker), ("P(player)", r.player), ("P(tie)", r.tie)]
    items += [(f"edge:{b.name}", b.edge) for b in r.bets]
    return [(label, k, fraction_str(v), decimal_str(v, digits) if digits is not None else "") for k, v in items]


def punto_text(r: PuntoResult, digits: int | None = None) -> str:
    """A human report: exact fractions, and percentages rounded to ``digits`` (default 4) places."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    lines = [
        f"Punto banco, {r.shoe.label()} ({r.shoe.size} cards{', dealt with replacement' if r.shoe.is_infinite else ''})",
        f"  six-card sequences: {r.denominator:,}",
        "",
        f"  {'outcome':<8} {'sequences':>26}  {'probability (exact)':<40} {'%':>{d + 5}}",
    ]
    for name in ("banker", "player", "tie"):
        p = getattr(r, name)
        lines.append(f"  {name:<8} {r.counts[name]:>26,}  {fraction_str(p):<40} {percent_str(p, d):>{d + 5}}")
    lines += ["", f"  {'bet':<10} {'house edge (exact)':<44} {'%':>{d + 5}}  description"]
    for b in r.bets:
        lines.append(f"  {b.name:<10} {fraction_str(b.edge):<44} {percent_str(b.edge, d):>{d + 5}}  {b.description}")
    lines.append("")
    lines.append(f"  Exact: {r.method}. Percentages rounded to {d} decimals.")
    return "\n".join(lines)


def punto_table_text(results: list[PuntoResult], digits: int | None = None) -> str:
    """One row per shoe: P(banker), P(player), P(tie) and the main edges, rounded, for comparison."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    names = [b.name for b in results[0].bets]
    w = d + 5
    head = f"{'shoe':<14} {'banker %':>{w}} {'player %':>{w}} {'tie %':>{w}} " + " ".join(f"{n:>{max(w, len(n))}}" for n in names)
    title = f"Punto banco by shoe: probabilities and house edges in %, rounded to {d} decimals (exact in --format json)"
    lines = [title, head]
    for r in results:
        row = f"{r.shoe.label():<14} " + " ".join(f"{percent_str(p, d):>{w}}" for p in (r.banker, r.player, r.tie)) + " "
        row += " ".join(f"{percent_str(b.edge, d):>{max(w, len(b.name))}}" for b in r.bets)
        lines.append(row)
    return "\n".join(lines)
