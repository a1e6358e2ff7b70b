"""The paper's LaTeX tables: punto banco by shoe, chemin de fer by model and shoe, tableaux, appendices.

Each table is a small pure function of result objects, built on the skeleton and the number formats
of :mod:`solver.report.latex`; :func:`paper_tables` gives the whole set ``baccarat tables`` writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from solver.analysis.paper import PaperResults
from solver.cards import Shoe
from solver.chemin.solve import Solution
from solver.punto import PuntoResult
from solver.report import fraction_str
from solver.report.bets import bet_label, outcome_label
from solver.report.chemin import (
    banker_grid,
    free_after_dominance,
    not_proved_unique,
    not_unique_phrase,
    optimal_set_words,
    uniqueness_words,
)
from solver.report.latex import (
    decks_tex,
    escape,
    model_tex,
    rounding,
    shoe_tex,
    table,
    tex_decimal,
    tex_fraction,
    tex_percent,
)
from solver.rules.tableau import SEEN_LABELS
from solver.strategy import InfoSet, Side, compositions_of, format_infoset

ALL_CELLS_UP_TO = 12
"""The banker's strategy tables list every free cell when there are at most this many (the casino games)."""

PONTE_COLUMN = "4.6cm"
"""Width of the summary tables' strategy column (it wraps under information 3)."""

TALL_TABLEAU = 36
"""A banker's tableau of more rows than this (his two cards under information 2 or 3, on the infinite deck) is
set a size smaller, so that it fits on a page."""

FREEDOMS = ("casino", "parlor")
INFORMATION = (1, 2, 3)


# -- punto banco -------------------------------------------------------------------------------------


def punto_by_decks_table(results: Sequence[PuntoResult], digits: int, command: str) -> str:
    """Punto banco's outcome law by shoe: P(banker), P(player), P(tie) in %, one row per shoe."""
    body = [[shoe_tex(r.shoe), *(tex_percent(p, digits) for p in (r.banker, r.player, r.tie))] for r in results]
    caption = (
        "Punto banco: the probability (\\%) that a coup is won by the banker, won by the player, or tied, by shoe "
        f"({rounding(digits)}). Dealing without replacement; $\\infty$ deals with replacement."
    )
    return table(
        caption=caption,
        label="tab:punto-by-decks",
        colspec="lrrr",
        head=[["Shoe", "Banker", "Player", "Tie"]],
        body=body,
        command=command,
    )


def _bet_note(r: PuntoResult) -> str:
    return "Bets: " + "; ".join(escape(b.description) for b in r.bets) + "."


def bet_edges_table(results: Sequence[PuntoResult], digits: int, command: str) -> str:
    """The house edge (%) of every punto banco bet, one row per shoe."""
    names = [b.name for b in results[0].bets]
    head = [["Shoe", *(escape(bet_label(n)) for n in names)]]
    body = [[shoe_tex(r.shoe), *(tex_percent(r.bet(n).edge, digits) for n in names)] for r in results]
    caption = (
        "Punto banco: the house edge (\\%) of each bet, per unit staked with pushes counted as stakes, by shoe "
        f"({rounding(digits)})."
    )
    return table(
        caption=caption,
        label="tab:bet-edges",
        colspec="l" + "r" * len(names),
        head=head,
        body=body,
        command=command,
        note=_bet_note(results[0]),
    )


def punto_exact_table(r: PuntoResult, digits: int, command: str, placement: str = "htbp", size: str = r"\footnotesize") -> str:
    """Appendix: punto banco's exact probabilities and edges on one shoe, beside rounded percentages (``size``:
    the font, smaller for the whole catalogue under a heading)."""
    items = [(outcome_label("banker"), r.banker), (outcome_label("player"), r.player), (outcome_label("tie"), r.tie)]
    items += [(f"edge: {bet_label(b.name)}", b.edge) for b in r.bets]
    body = [[escape(k), tex_fraction(v), tex_percent(v, digits)] for k, v in items]
    caption = (
        f"Punto banco on {shoe_tex(r.shoe)}: exact probabilities and house edges, as reduced fractions of the "
        f"{r.denominator:,} equally likely six-card sequences{'' if not r.shoe.is_infinite else ' (weighted)'}; "
        f"the last column in \\%, {rounding(digits)}."
    )
    label = "tab:punto-exact-" + _label_part(r.shoe)
    return table(
        caption=caption,
        label=label,
        colspec="lrr",
        head=[["Quantity", "Exact", "\\%"]],
        body=body,
        command=command,
        size=size,
        note=_bet_note(r),
        placement=placement,
    )


def _label_part(shoe: Shoe) -> str:
    if shoe.is_infinite:
        return "inf"
    d = shoe.full_decks
    return f"{d}decks" if d is not None else "shoe-" + "-".join(map(str, shoe.values))


# -- chemin de fer -----------------------------------------------------------------------------------


def by_shoe(solutions: Sequence[Solution]) -> list[tuple[Shoe, dict[tuple[str, int], Solution]]]:
    """Solutions grouped by shoe (first-seen order), keyed by (freedom, information)."""
    groups: dict[Shoe, dict[tuple[str, int], Solution]] = {}
    for s in solutions:
        groups.setdefault(s.game.shoe, {})[(s.game.model.freedom, s.game.model.information)] = s
    return list(groups.items())


def models_caption() -> str:
    return (
        "Freedom: casino, the rule sheet's tableau (the banker free at 3 against a 9 and 5 against a 4); parlor, "
        "every banker decision free. Information (Ethier): 1, each side sees his own total; 2, the banker also "
        "sees his two cards; 3, both do. Finite shoes are dealt without replacement (dealing B), "
        "$\\infty$ with replacement (dealing A)."
    )


def commission_words(solutions: Sequence[Solution]) -> str:
    alphas = {s.game.model.commission for s in solutions}
    if alphas == {Fraction(0)}:
        return "no commission (zero-sum)"
    if len(alphas) == 1:
        a = alphas.pop()
        return f"commission $\\alpha = {fraction_str(a)}$ on the banker's wins"
    return "the commissions shown"


def chemin_values_table(solutions: Sequence[Solution], digits: int, command: str) -> str:
    """The banker's value (%) by shoe (rows) and model (columns: freedom × information)."""
    head = [["Shoe", *(str(i) for _ in FREEDOMS for i in INFORMATION)]]
    body = []
    uncertified = False
    for shoe, models in by_shoe(solutions):
        row = [shoe_tex(shoe)]
        for f in FREEDOMS:
            for i in INFORMATION:
                s = models.get((f, i))
                if s is None:
                    row.append("--")
                    continue
                cell = tex_percent(s.value, digits)
                if not s.certified:
                    cell += "$^\\ddagger$"
                    uncertified = True
                row.append(cell)
        body.append(row)
    certified = (
        "$^\\ddagger$: not certified."
        if uncertified
        else "Every value is certified: the two sides' guarantees agree exactly, in rationals."
    )
    caption = (
        f"Chemin de fer, {commission_words(solutions)}: the banker's value, his expected gain per coup in \\% of "
        f"the stake when both sides play optimally, by shoe, freedom and information model ({rounding(digits)}). " + certified
    )
    return table(
        caption=caption,
        label="tab:chemin-values",
        colspec="l" + "r" * 6,
        head=head,
        body=body,
        command=command,
        groups=[("", 1), ("casino", 3), ("parlor", 3)],
        note=models_caption(),
    )


def chemin_ponte_table(solutions: Sequence[Solution], freedom: str, digits: int, command: str) -> str:
    """The ponte's optimal probability of drawing at 5, by shoe, for one freedom (information 1, 2, 3)."""
    sets3 = [
        format_infoset(k)
        for k in next(
            (x.game.ponte_sets for x in solutions if x.game.model.information == 3),
            tuple(InfoSet(Side.PONTE, cards=c) for c in compositions_of(5)),
        )
    ]
    head = [["Shoe", "5", "5", *sets3]]
    body = []
    marked: list[Solution] = []
    for shoe, models in by_shoe(solutions):
        row = [shoe_tex(shoe)]
        for i in INFORMATION:
            s = models.get((freedom, i))
            width = 1 if i < 3 else len(sets3)
            if s is None:
                row.extend(["--"] * width)
                continue
            cells = [tex_decimal(x, digits) for x in s.q]
            if not_proved_unique(s, 0):
                cells[0] += "$^\\dagger$"
                marked.append(s)
            row.extend(cells)
        body.append(row)
    caption = (
        f"Chemin de fer, {freedom} game, {commission_words(solutions)}: the ponte's optimal probability of drawing at 5 "
        "(1: always draw; 0: always stand), by shoe and information model; under information 3 by his two cards. "
        f"Decimals, {rounding(digits)}. " + _not_unique_words(marked, 0)
    )
    return table(
        caption=caption,
        label=f"tab:chemin-ponte-{freedom}",
        colspec="l" + "r" * (2 + len(sets3)),
        head=head,
        body=body,
        command=command,
        groups=[("", 1), ("info.\\ 1", 1), ("info.\\ 2", 1), ("information 3", len(sets3))],
        note=models_caption(),
    )


def _not_unique_words(marked: Sequence[Solution], side: int) -> str:
    """Caption words for the entries marked $^\\dagger$: one optimal strategy among several, and the whole set."""
    if not marked:
        return ""
    who = ("ponte", "banker")[side]
    parts = []
    for s in marked:
        where = f"{shoe_tex(s.game.shoe)} ({model_tex(s)})"
        if s.optimal_set is None:
            parts.append(f"on {where} {not_unique_phrase(s, who)}")
        else:
            words = escape(optimal_set_words(s.optimal_set[side])).replace("·", "\\,")
            parts.append(
                f"on {where} the {who}'s optimal strategy is not unique and the entry shows one of them; "
                f"every optimal {who} strategy there is {words}"
            )
    return "$^\\dagger$: " + "; ".join(parts) + "."


def _banker_cell(s: Solution, key: InfoSet, digits: int) -> str:
    if s.game.inert_banker[s.game.banker_sets.index(key)]:
        return "--"
    p = s.banker()[key]
    settled = key not in free_after_dominance(s)
    if p in (0, 1):
        return ("D" if p == 1 else "S") + ("$^*$" if settled else "")
    return tex_decimal(p, digits)


def chemin_banker_table(solutions: Sequence[Solution], freedom: str, information: int, digits: int, command: str) -> str:
    """The banker's optimal decisions where dominance does not settle them, one column per shoe.

    Rows are the banker's free information sets that iterated strict dominance leaves open on at
    least one of the shoes (every free set, when there are at most :data:`ALL_CELLS_UP_TO`); cells
    are D (draw), S (stand), D*/S* (settled by dominance on that shoe) or the probability of drawing.
    """
    chosen = [(shoe, models[(freedom, information)]) for shoe, models in by_shoe(solutions) if (freedom, information) in models]
    if not chosen:
        raise ValueError(f"no solution for {freedom} information {information}")
    keys = chosen[0][1].game.banker_sets
    open_keys = {k for _, s in chosen for k in free_after_dominance(s)}
    rows = [k for k in keys if k in open_keys or len(keys) <= ALL_CELLS_UP_TO]
    head = [["Cell", *(decks_tex(shoe) + ("$^\\dagger$" if not_proved_unique(s, 1) else "") for shoe, s in chosen)]]
    body = [[escape(format_infoset(k)), *(_banker_cell(s, k, digits) for _, s in chosen)] for k in rows]
    if not body:
        body = [["none", *([""] * len(chosen))]]
    caption = (
        f"Chemin de fer, {freedom} game, information {information}, {commission_words([s for _, s in chosen])}: "
        "the banker's optimal "
        + (
            "decision in each free cell"
            if len(rows) == len(keys)
            else "decision in each free cell that iterated strict dominance leaves open on some shoe"
        )
        + ", by shoe (columns: decks). "
        "A cell is the banker's total (or his two cards) and the ponte's third card (S: the ponte stood). "
        "D: draw; S: stand; $^*$: settled by dominance on that shoe; a number: the probability of drawing "
        f"(a decimal, {rounding(digits)}); --: never reached. "
        + (
            f"The {len(keys) - len(rows)} other free cells are settled by dominance on every shoe. "
            if len(rows) < len(keys)
            else ""
        )
        + _not_unique_words([s for _, s in chosen if not_proved_unique(s, 1)], 1)
    )
    return table(
        caption=caption,
        label=f"tab:chemin-banker-{freedom}-{information}",
        colspec="l" + "c" * len(chosen),
        head=head,
        body=body,
        command=command,
        groups=[("", 1), ("decks", len(chosen))],
    )


def banker_tableau_table(s: Solution, digits: int, command: str, placement: str = "htbp") -> str:
    """The banker's optimal tableau for one solved game (rows: total or composition; columns: third card)."""
    grid = banker_grid(s)
    body = []
    for label, cells in grid:
        out = []
        for c in cells:
            if c == "m":
                out.append(r"\textbf{m}")
            elif c.endswith("*"):
                out.append(c[:-1] + "$^*$")
            else:
                out.append(c)
        body.append([escape(label), *out])
    mixed = [(k, v) for k, v in s.banker().items() if 0 < v < 1]
    mixed_text = "; ".join(
        f"{escape(format_infoset(k))}: draw with probability {tex_fraction(v)} ($\\approx$ {tex_decimal(v, digits)})"
        for k, v in mixed
    )
    note = (
        "D/S: draw/stand, by the rules or optimally; D$^*$/S$^*$: a free cell settled by iterated strict dominance; "
        "\\textbf{m}: mixed" + (f" ({mixed_text})." if mixed else ".")
    )
    g = s.game
    caption = (
        f"Chemin de fer, {shoe_tex(g.shoe)}, model {model_tex(s)}, {commission_words([s])}: the banker's optimal "
        "tableau. Rows: the banker's two-card total, or under information 2 and 3 his two cards where a free cell "
        "depends on them; columns: the ponte's third card (S: the ponte stood)."
    )
    label = f"tab:tableau-{g.model.sheet}-{g.model.name(g.shoe)}"
    if g.model.commission:
        label += "-commission"
    return table(
        caption=caption,
        label=label,
        colspec="l" + "c" * len(SEEN_LABELS),
        head=[["Banker", *SEEN_LABELS]],
        body=body,
        command=command,
        groups=[("", 1), ("ponte's third card", len(SEEN_LABELS))],
        note=note,
        size=r"\small" if len(body) <= TALL_TABLEAU else r"\footnotesize",
        placement=placement,
    )


def chemin_exact_table(solutions: Sequence[Solution], digits: int, command: str, placement: str = "htbp") -> str:
    """Appendix: the exact value and every mixed decision of each solved game (long format)."""
    body: list[list[str]] = []
    starts = []
    for s in solutions:
        starts.append(len(body))
        name = model_tex(s)
        if len({x.game.shoe for x in solutions}) > 1:
            name += f", {shoe_tex(s.game.shoe)}"
        body.append(
            [
                name,
                "banker's value" if s.game.zero_sum else "banker's payoff",
                tex_fraction(s.value),
                tex_decimal(s.value, digits + 2),
            ]
        )
        if not s.game.zero_sum:
            body.append(["", "ponte's payoff", tex_fraction(s.ponte_payoff), tex_decimal(s.ponte_payoff, digits + 2)])
        for k, v in s.ponte().items():
            if 0 < v < 1:
                body.append(["", f"ponte draws at {escape(format_infoset(k))}", tex_fraction(v), tex_decimal(v, digits)])
        for k, v in s.banker().items():
            if 0 < v < 1:
                body.append(["", f"banker draws at {escape(format_infoset(k))}", tex_fraction(v), tex_decimal(v, digits)])
    shoes = {s.game.shoe for s in solutions}
    where = f" on {shoe_tex(next(iter(shoes)))}" if len(shoes) == 1 else ""
    caption = (
        f"Chemin de fer{where}, {commission_words(solutions)}: the exact value of each game and every decision "
        "either side mixes at the optimum (all others are pure: see the tableau and strategy tables): the exact "
        f"column as reduced fractions, the last as decimals (values per unit staked, {rounding(digits + 2)}; "
        f"probabilities {rounding(digits)})."
    )
    label = "tab:chemin-exact" + (f"-{_label_part(next(iter(shoes)))}" if len(shoes) == 1 else "")
    return table(
        caption=caption,
        label=label,
        colspec="llrr",
        head=[["Model", "Quantity", "Exact", "Rounded"]],
        body=body,
        command=command,
        size=r"\footnotesize",
        rules_before=starts,
        placement=placement,
    )


def _ponte_summary(s: Solution, digits: int) -> str:
    parts = []
    for k, v in s.ponte().items():
        word = "D" if v == 1 else "S" if v == 0 else tex_decimal(v, digits)
        parts.append(word if len(s.q) == 1 else f"{escape(format_infoset(k))}: {word}")
    return ", ".join(parts)


def chemin_summary_table(solutions: Sequence[Solution], digits: int, command: str, placement: str = "htbp") -> str:
    """One row per model on one shoe: value, the ponte's strategy, certified, unique."""
    zero_sum = all(s.game.zero_sum for s in solutions)
    body = []
    for s in solutions:
        row = [model_tex(s), tex_percent(s.value, digits)]
        if not zero_sum:
            row.append(tex_percent(s.ponte_payoff, digits))
        certified = "yes" if s.certified else "\\textbf{no}"
        row += ["\\raggedright " + _ponte_summary(s, digits), certified, uniqueness_words(s, "yes")]
        body.append(row)
    shoes = {s.game.shoe for s in solutions}
    where = f" on {shoe_tex(next(iter(shoes)))}" if len(shoes) == 1 else ""
    if zero_sum:
        head = [["Model", "Value \\%", "Ponte at 5", "Certified", "Unique (ponte, banker)"]]
        what = "the banker's value (his expected gain per coup, \\%)"
        label = "tab:chemin-summary"
    else:
        head = [["Model", "Banker \\%", "Ponte \\%", "Ponte at 5", "Certified", "Unique"]]
        what = "each side's expected payoff per coup (\\%; the banker's net of commission) at equilibrium"
        label = "tab:chemin-summary-commission"
    caption = (
        f"Chemin de fer{where}, {commission_words(solutions)}: {what}, the ponte's strategy at 5 (D: draw; S: stand; "
        "a number: the probability of drawing, under information 3 by his two cards), whether the answer is certified "
        "in exact rationals, and whether the optimal strategies (zero-sum: the ponte's, the banker's) or the equilibrium "
        f"are proved unique. Decimals {rounding(digits)}."
    )
    colspec = "l" + "r" * (len(head[0]) - 4) + f"p{{{PONTE_COLUMN}}}cl"
    return table(
        caption=caption,
        label=label,
        colspec=colspec,
        head=head,
        body=body,
        command=command,
        note=models_caption(),
        placement=placement,
    )


# -- the paper's set of tables -------------------------------------------------------------------------


TABLE_NAMES: tuple[str, ...] = (
    "punto-by-decks",
    "bet-edges",
    "chemin-values",
    "chemin-ponte-casino",
    "chemin-ponte-parlor",
    *(f"chemin-banker-{f}-{i}" for f in ("casino", "parlor") for i in (1, 2, 3)),
    "tableau-parlor-1",
    "tableau-parlor-2",
    "tableau-parlor-3",
    "punto-exact",
    "chemin-exact",
)
"""The files :func:`paper_tables` makes (without ``.tex``), in the order docs/report.tex inputs them."""


def paper_tables(results: PaperResults, digits: int, command: str) -> dict[str, str]:
    """Every table a paper needs, as ``{file name without .tex: LaTeX}``, in the order to input them.

    Args:
        results: what the tables show (:func:`solver.analysis.paper.paper_results`).
        digits: decimal places where a number is rounded.
        command: the command that generated the tables.
    """
    puntos, solutions = results.puntos, results.solutions
    out = {
        "punto-by-decks": punto_by_decks_table(puntos, digits, command),
        "bet-edges": bet_edges_table(puntos, digits, command),
        "chemin-values": chemin_values_table(solutions, digits, command),
    }
    for freedom in FREEDOMS:
        out[f"chemin-ponte-{freedom}"] = chemin_ponte_table(solutions, freedom, digits, command)
    for freedom in FREEDOMS:
        for information in INFORMATION:
            out[f"chemin-banker-{freedom}-{information}"] = chemin_banker_table(solutions, freedom, information, digits, command)
    for s in results.standard_chemin:
        if s.game.model.freedom == "parlor":
            out[f"tableau-parlor-{s.game.model.information}"] = banker_tableau_table(s, digits, command)
    out["punto-exact"] = punto_exact_table(results.standard_punto, digits, command)
    out["chemin-exact"] = chemin_exact_table(results.standard_chemin, digits, command)
    assert tuple(out) == TABLE_NAMES
    return out
