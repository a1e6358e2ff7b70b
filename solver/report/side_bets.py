"""The side-bet catalogue in the paper's tables: edges and risk, pay-table breakdowns, effects of removal.

Pure functions of :class:`~solver.punto.PuntoResult` (the catalogue on one shoe) and
:class:`~solver.count.eor.EorResult`, on the skeleton of :mod:`solver.report.latex`; one kind of number
per column, named in the caption.
"""

from __future__ import annotations

from solver.count.eor import EorResult
from solver.punto import PuntoResult
from solver.report.latex import escape, rounding, shoe_tex, table, tex_decimal, tex_fraction, tex_percent

PAY_TABLE_PARTS = 2
"""The pay-table breakdown is set in this many tables (one would not fit on a page)."""

SIDE_TABLE_NAMES: tuple[str, ...] = ("side-bets", *(f"pay-tables-{k + 1}" for k in range(PAY_TABLE_PARTS)), "effects-of-removal")
"""The files :func:`side_bet_tables` makes (without ``.tex``)."""


def _command(text: str) -> str:
    """A command in typewriter type, its double dashes kept apart."""
    return "\\texttt{" + escape(text).replace("--", "-{}-") + "}"


def _name(text: str) -> str:
    return f"\\texttt{{{escape(text)}}}"


def side_bets_table(r: PuntoResult, digits: int, command: str) -> str:
    """Every catalogued bet: the exact house edge, then in %: the edge, the edge excluding pushes, the element
    of risk, and the standard deviation per unit staked."""
    body = []
    for b in r.bets:
        excl = tex_percent(b.edge_excluding_pushes, digits) if b.edge_excluding_pushes is not None else "\\textemdash"
        body.append(
            [
                _name(b.name),
                tex_fraction(b.edge),
                tex_percent(b.edge, digits),
                excl,
                tex_percent(b.element_of_risk, digits),
                b.sd_str(digits),
            ]
        )
    caption = (
        f"The side-bet catalogue on {shoe_tex(r.shoe)} (punto banco): each bet's house edge as an exact fraction "
        "(what it loses on average per unit staked, pushes counted as stakes), then in \\%, the edge "
        "excluding pushes and the element of risk (per unit resolved), and the standard deviation per unit "
        f"staked (from the exact variance). Decimals {rounding(digits)}; the standard deviation, a square root, "
        "rounded from its exact square."
    )
    note = (
        "What each bet is and pays: its pay table (Tables~\\ref{tab:pay-tables-1} and~\\ref{tab:pay-tables-2}), "
        + _command("baccarat punto --bets NAME")
        + ", and docs/howto-side-bets.md."
    )
    return table(
        caption=caption,
        label="tab:side-bets",
        colspec="lrrrrr",
        head=[["Bet", "Edge (exact)", "Edge \\%", "Excl.\\ pushes \\%", "Elem.\\ of risk \\%", "SD"]],
        body=body,
        command=command,
        note=note,
        size=r"\scriptsize",
    )


def pay_tables_table(r: PuntoResult, part: int, digits: int, command: str) -> str:
    """Part ``part`` (1-based) of every bet's pay table: each line's payout, exact probability and return."""
    per = -(-len(r.bets) // PAY_TABLE_PARTS)
    bets = r.bets[(part - 1) * per : part * per]
    body: list[list[str]] = []
    rules: list[int] = []
    for b in bets:
        rules.append(len(body))
        for k, t in enumerate(b.tiers):
            body.append(
                [
                    _name(b.name) if k == 0 else "",
                    escape(t.label),
                    tex_fraction(t.pays),
                    tex_fraction(t.probability),
                    tex_percent(t.probability, digits),
                    tex_percent(t.contribution, digits),
                ]
            )
    caption = (
        f"Pay tables of the side-bet catalogue on {shoe_tex(r.shoe)}, part {part} of {PAY_TABLE_PARTS}: each "
        "line of a bet's pay table (tried in order; a coup matching none loses the stake), what it pays to 1, "
        "its exact probability, and in \\% the probability and the return (payout times probability). "
        f"Decimals {rounding(digits)}."
    )
    return table(
        caption=caption,
        label=f"tab:pay-tables-{part}",
        colspec="llrrrr",
        head=[["Bet", "Line", "Pays", "Probability", "\\%", "Return \\%"]],
        body=body,
        command=command,
        rules_before=rules,
        size=r"\scriptsize",
    )


def removal_table(r: EorResult, digits: int, command: str) -> str:
    """Each bet's exact effect of removing one card of each kind, in % of the stake."""
    kinds = [x.card for x in r.bets[0].removals]
    body = []
    for b in r.bets:
        effects = {x.card: x.effect for x in b.removals}
        body.append(
            [escape(b.name)] + [tex_decimal(effects[k] * 10**4, max(digits - 2, 1)) if k in effects else "" for k in kinds]
        )
    caption = (
        f"Effects of removal on {shoe_tex(r.shoe)}: the exact change in each bet's expected value for the player, "
        f"in units of $10^{{-4}}$ of the stake (0.01\\,\\%), when one card of each {r.by} is taken out of the shoe "
        f"(Thorp and Walden 1966); weighted by the shoe's composition they sum to zero. Decimals "
        f"{rounding(max(digits - 2, 1))}. The exact fractions, "
        "and the linear counts built from them: " + _command("baccarat eor --decks 8 --by value --format json") + "."
    )
    return table(
        caption=caption,
        label="tab:effects-of-removal",
        colspec="@{}l" + "@{\\hspace{7pt}}r" * len(kinds) + "@{}",
        head=[["Bet", *kinds]],
        body=body,
        command=command,
        size=r"\scriptsize",
    )


def side_bet_tables(catalogue: PuntoResult, removal: EorResult, digits: int, command: str) -> dict[str, str]:
    """Every side-bet table, as ``{file name without .tex: LaTeX}`` (:data:`SIDE_TABLE_NAMES`)."""
    out = {"side-bets": side_bets_table(catalogue, digits, command)}
    for k in range(PAY_TABLE_PARTS):
        out[f"pay-tables-{k + 1}"] = pay_tables_table(catalogue, k + 1, digits, command)
    out["effects-of-removal"] = removal_table(removal, digits, command)
    assert tuple(out) == SIDE_TABLE_NAMES
    return out
