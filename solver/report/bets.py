"""Renderers of bets' pay-table breakdowns and risk (:class:`~solver.punto.BetResult`): JSON, CSV, text.

Exact numbers are written as ``p/q``; the standard deviation, a square root, is written only as a
decimal rounded from the exact variance (:meth:`~solver.punto.BetResult.sd_str`) and labelled so.
"""

from __future__ import annotations

from solver.punto import BetResult, PuntoResult
from solver.report import DEFAULT_TEXT_DIGITS, decimal_str, fraction_str, percent_str

SD_DIGITS = 6
"""Decimal places of the standard deviation when ``--digits`` is not given."""

BET_LABELS = {
    "banker": "Banker",
    "player": "Player",
    "ponte": "Ponte",
    "tie_8to1": "Tie 8:1",
    "tie_9to1": "Tie 9:1",
    "ez_banker": "EZ Banker",
    "dragon7": "Dragon 7",
    "panda8": "Panda 8",
    "big_tiger": "Big Tiger",
    "player_pair": "P. Pair",
    "banker_pair": "B. Pair",
}
"""The names the paper's tables and the figures give the bets they show (a bet not listed keeps its own
name, the one ``--bets`` takes)."""


def bet_label(name: str) -> str:
    """A bet as the paper's tables and figures name it.

    >>> bet_label("tie_8to1"), bet_label("ez_banker"), bet_label("lucky6")
    ('Tie 8:1', 'EZ Banker', 'lucky6')
    """
    return BET_LABELS.get(name, name)


def outcome_label(outcome: str) -> str:
    """The probability of a coup's outcome as the paper's tables and figures write it.

    >>> outcome_label("banker"), outcome_label("tie")
    ('P(banker wins)', 'P(tie)')
    """
    return "P(tie)" if outcome == "tie" else f"P({outcome} wins)"


def bet_detail_dict(b: BetResult, digits: int | None = None) -> dict[str, object]:
    """The breakdown and risk of one bet, JSON-ready (added to the bet's entry)."""
    excl = b.edge_excluding_pushes
    out: dict[str, object] = {
        "tiers": [
            {
                "label": t.label,
                "pays": fraction_str(t.pays),
                "probability": fraction_str(t.probability),
                "return": fraction_str(t.contribution),
            }
            for t in b.tiers
        ],
        "variance": fraction_str(b.variance),
        "sd_decimal": b.sd_str(SD_DIGITS if digits is None else digits),
        "edge_excluding_pushes": fraction_str(excl) if excl is not None else None,
        "element_of_risk": fraction_str(b.element_of_risk),
    }
    if digits is not None:
        for entry, t in zip(out["tiers"], b.tiers):  # type: ignore[call-overload]
            entry["probability_decimal"] = decimal_str(t.probability, digits)
            entry["return_decimal"] = decimal_str(t.contribution, digits)
        out["variance_decimal"] = decimal_str(b.variance, digits)
        out["edge_excluding_pushes_decimal"] = decimal_str(excl, digits) if excl is not None else None
    return out


def bet_detail_csv_rows(label: str, b: BetResult, digits: int | None = None) -> list[tuple[str, ...]]:
    """Long-format rows ``shoe, item, exact, decimal`` of one bet's breakdown and risk.

    Items: ``p:BET:LINE`` (each line's probability), ``variance:BET``, ``sd:BET`` (decimal only),
    ``edge_excluding_pushes:BET`` (bets that can push).
    """

    def row(item: str, value: object) -> tuple[str, ...]:
        from fractions import Fraction

        assert isinstance(value, Fraction)
        return (label, item, fraction_str(value), decimal_str(value, digits) if digits is not None else "")

    rows = [row(f"p:{b.name}:{t.label}", t.probability) for t in b.tiers]
    rows.append(row(f"variance:{b.name}", b.variance))
    rows.append((label, f"sd:{b.name}", "", b.sd_str(SD_DIGITS if digits is None else digits)))
    if b.edge_excluding_pushes is not None:
        rows.append(row(f"edge_excluding_pushes:{b.name}", b.edge_excluding_pushes))
    return rows


def breakdown_text(r: PuntoResult, digits: int | None = None, pay_tables: bool = True) -> str:
    """The risk table and (with ``pay_tables``) every bet's pay table, for the text report."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    w = max((len(b.name) for b in r.bets), default=3)
    lines = [
        "",
        f"  Risk per unit staked: SD (from the exact variance), house edge, edge excluding pushes, "
        f"element of risk; % rounded to {d} decimals",
        f"  {'bet':<{w}} {'SD':>{d + 6}} {'edge %':>{d + 5}} {'excl. pushes %':>{max(d + 5, 14)}} "
        f"{'elem. of risk %':>{max(d + 5, 15)}}",
    ]
    for b in r.bets:
        excl = percent_str(b.edge_excluding_pushes, d) if b.edge_excluding_pushes is not None else "-"
        lines.append(
            f"  {b.name:<{w}} {b.sd_str(d):>{d + 6}} {percent_str(b.edge, d):>{d + 5}} "
            f"{excl:>{max(d + 5, 14)}} {percent_str(b.element_of_risk, d):>{max(d + 5, 15)}}"
        )
    if not pay_tables:
        lines.append("  (every bet's pay table: --breakdown, or --format json or csv)")
    else:
        lines += ["", "  Pay tables: each line's payout to 1, exact probability, and return (payout x probability) in %"]
    for b in r.bets if pay_tables else ():
        lw = max(len(t.label) for t in b.tiers)
        lines.append(f"  {b.name}: {b.description}")
        for t in b.tiers:
            lines.append(
                f"    {t.label:<{lw}} {fraction_str(t.pays):>6}  {fraction_str(t.probability):<40} "
                f"{percent_str(t.probability, d):>{d + 5}} {percent_str(t.contribution, d):>{d + 6}}"
            )
    return "\n".join(lines)
