"""Renderers of the full report (:class:`solver.analysis.report.FullReport`): text, JSON-ready dict, LaTeX.

Pure functions of the result; the report is computed by :func:`solver.analysis.report.full_report`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.analysis.report import FullReport, Headline, headline
from solver.banque.committed import theta_one_limit_of
from solver.cards import Shoe
from solver.chemin.solve import Solution
from solver.exact.numberfield import FieldElement, decimal_of
from solver.punto import PuntoResult
from solver.report import DEFAULT_TEXT_DIGITS, TEXT_WIDTH, decimal_str, fraction_str, paper, percent_str, shoe_words
from solver.report import latex as tex
from solver.report.banque import ALGEBRAIC_DIGITS, banque_model_dict
from solver.report.banque_section import banque_report_table, banque_section_dict, banque_section_text
from solver.report.chemin import can_be_dealt, chemin_csv_rows, chemin_dict, chemin_text, model_dict, uniqueness_words
from solver.report.punto import punto_csv_rows, punto_dict, punto_text
from solver.strategy import format_infoset

# -- text -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One headline answer: what is asked, the numbers (name, exact value), the model in words, and the
    model as the JSON of its game writes it (``spec``: :func:`~solver.report.chemin.model_dict` for
    chemin de fer, :func:`~solver.report.banque.banque_model_dict` for banque, :func:`punto_model_dict`)."""

    what: str
    values: tuple[tuple[str, Fraction], ...]
    model: str
    spec: dict[str, object]


def punto_model_dict(p: PuntoResult) -> dict[str, object]:
    """Punto banco's model as JSON, in the keys of chemin de fer's: ``name``, ``dealing``, ``commission``."""
    return {"name": "punto banco", "dealing": "A" if p.shoe.is_infinite else "B", "commission": fraction_str(p.commission)}


def answers(h: Headline | None) -> list[Answer]:
    """The headline's answers, in the order the report opens with them (none without a headline)."""
    if h is None:
        return []
    ks = h.kemeny_snell
    out = [
        Answer(
            "Chemin de fer, the banker's advantage with both sides playing optimally",
            (("", ks.value),),
            f"Kemeny and Snell's game (model {ks.game.label}): an infinite deck, each side knowing only his own "
            "total, every banker decision free, no tax",
            model_dict(ks),
        )
    ]
    if h.parlor is not None:
        out.append(
            Answer(
                f"The same game on {shoe_words(h.parlor.game.shoe)}",
                (("", h.parlor.value),),
                f"model {h.parlor.game.label}, dealt without replacement",
                model_dict(h.parlor),
            )
        )
    c = h.casino
    out.append(
        Answer(
            f"Under the casino's rule sheet on {shoe_words(c.game.shoe)}",
            (("", c.value),),
            f"model {c.game.label}: the banker free only at 3 against a 9 and at 5 against a 4",
            model_dict(c),
        )
    )
    if h.taxed is not None:
        t = h.taxed
        alpha = t.game.model.commission
        lose = " (both sides lose to the house)" if t.banker_payoff < 0 and t.ponte_payoff < 0 else ""
        out.append(
            Answer(
                f"With the casino's {fraction_str(alpha * 100)} % tax on the banker's wins, each side's "
                f"payoff at equilibrium{lose}",
                (("banker", t.banker_payoff), ("ponte", t.ponte_payoff)),
                f"model {t.game.label} on {shoe_words(t.game.shoe)}",
                model_dict(t),
            )
        )
    p = h.punto
    out.append(
        Answer(
            f"Punto banco on {shoe_words(p.shoe)}, the house edge",
            (("Banker bet", p.bet("banker").edge), ("Player bet", p.bet("player").edge)),
            f"its fixed drawing rules, one coup from the shoe; {p.bet('banker').description}",
            punto_model_dict(p),
        )
    )
    if h.banque:
        names = {"nash": "Nash equilibrium", "correlated": "correlated cooperative"}
        out.append(
            Answer(
                "Baccara banque (one banker against two tableaux, balanced stakes), the banker's advantage",
                tuple((names[e.concept], e.value) for e in h.banque),
                f"the same game as Kemeny and Snell's on two tableaux (model {h.banque[0].label}), against "
                f"{percent_str(ks.value, 2)} % in chemin de fer",
                banque_model_dict(h.banque[0].shoe, h.banque[0].model),
            )
        )
    return out


def headline_text(rep: FullReport, digits: int | None = None) -> str:
    """The report's opening: the answers most readers come for, each with its model, exact and rounded."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    lines = ["In brief (fractions exact; percentages rounded from them):"]
    if headline(rep) is None:
        return ""
    for a in answers(headline(rep)):
        nums = ", ".join(f"{name + ' ' if name else ''}{percent_str(x, d)} % ({fraction_str(x)})" for name, x in a.values)
        lines += textwrap.wrap(
            f"- {a.what}: {nums}; {a.model}.", TEXT_WIDTH, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False
        )
    return "\n".join(lines)


def _ponte_words(s: Solution, d: int) -> str:
    parts = []
    for k, v in s.ponte().items():
        if not can_be_dealt(s.game.shoe, k):
            continue
        word = "D" if v == 1 else "S" if v == 0 else decimal_str(v, max(d, 2))  # never round a mix to 0 or 1
        parts.append(word if len(s.q) == 1 else f"{format_infoset(k)}: {word}")
    return ", ".join(parts)


def _shoes_line(rep: FullReport) -> str:
    p, c = rep.punto.shoe, rep.chemin_shoe
    if p == c:
        return f"punto banco and chemin de fer on {shoe_words(p)}"
    return f"punto banco on {shoe_words(p)}; chemin de fer on {shoe_words(c)}"


def chemin_summary_text(solutions: Sequence[Solution], digits: int | None = None) -> str:
    """Two small tables, one row per model: the payoffs (exact and in %) and whether certified; then the
    ponte's strategy at 5 and uniqueness. Each is followed by a plain sentence."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    zero_sum = all(s.game.zero_sum for s in solutions)
    w = max([len(fraction_str(s.value)) for s in solutions] + [len("banker (exact)")])
    n = max(d + 5, 9)  # a rounded percentage, or the column's head
    if zero_sum:
        head = f"  {'model':<10} {'value (exact)':<{w}} {'value %':>{n}}  certified"
    else:
        head = f"  {'model':<10} {'banker (exact)':<{w}} {'banker %':>{n}} {'ponte %':>{n}}  certified"
    lines = [head]
    for s in solutions:
        row = f"  {s.game.label:<10} {fraction_str(s.value):<{w}} {percent_str(s.value, d):>{n}} "
        if not zero_sum:
            row += f"{percent_str(s.ponte_payoff, d):>{n}} "
        lines.append(row + f" {'yes' if s.certified else 'NO'}")
    if zero_sum:
        lines.append("    The banker's expected gain per coup, in % of the stake, when both sides play their best.")
    elif all(s.banker_payoff < 0 and s.ponte_payoff < 0 for s in solutions):
        lines.append("    Both sides lose to the house once the tax is taken: the banker's payoff is net of it.")
    else:
        lines.append("    Each side's expected payoff per coup at equilibrium, the banker's net of the tax.")
    pw = max(len(_ponte_words(s, d)) for s in solutions)
    lines += ["", f"  {'model':<10} {'ponte at 5':<{pw}}  " + ("unique (ponte, banker)" if zero_sum else "unique equilibrium")]
    lines += [f"  {s.game.label:<10} {_ponte_words(s, d):<{pw}}  {uniqueness_words(s)}" for s in solutions]
    lines.append("    D: the ponte always draws at 5; S: he stands; a number: his probability of drawing")
    lines.append('    (under information 3 by his two cards). Unique "proved": no other optimal play exists.')
    return "\n".join(lines)


def full_text(rep: FullReport, digits: int | None = None) -> str:
    """The full report for people: the answers in brief, punto banco, a chemin de fer summary, then every game in full."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    games = rep.chemin + rep.commission
    lines = [
        "Baccarat: the full exact report",
        f"  {_shoes_line(rep)}",
        f"  Fractions are exact; percentages and decimals are rounded to {d} places from them.",
        "",
        *([headline_text(rep, digits), ""] if headline(rep) is not None else []),
        "1. Punto banco: the outcome law, the main bets and the side-bet catalogue",
        "",
        punto_text(rep.punto, digits, wrap=True),
        "",
        "2. Chemin de fer without commission (zero-sum): the banker's value and the ponte's optimal play",
        "",
        chemin_summary_text(rep.chemin, digits),
        "",
        "  models: A/B = infinite deck / the shoe without replacement; 1, 2, 3 = information (1: each side",
        "  sees his own total; 2: the banker also sees his two cards; 3: both do); casino = the rule sheet's",
        "  tableau, parlor = every banker decision free",
    ]
    if rep.commission:
        alpha = rep.commission[0].game.model.commission
        lines += [
            "",
            f"3. Chemin de fer with the casino's {fraction_str(alpha * 100)} % commission (α = {fraction_str(alpha)}): "
            "equilibrium payoffs",
            "",
            chemin_summary_text(rep.commission, digits),
            "",
            f"  each game in full: baccarat chemin --commission {fraction_str(alpha)} --information I --freedom F",
            "  (with the same shoe options)",
        ]
    else:
        lines += ["", "  The casino game with its 5 % commission: baccarat chemin --commission 0.05"]
    section = 4 if rep.commission else 3
    if rep.banque or rep.banque_left_out:
        lines += [
            "",
            f"{section}. Baccara banque beside chemin de fer: one banker against two tableaux",
            "",
            banque_section_text(rep.banque, _beside(rep), digits, rep.banque_left_out),
        ]
        section += 1
    lines += ["", f"{section}. Chemin de fer without commission: each game in full"]
    for s in rep.chemin:
        lines += ["", chemin_text(s, digits)]
    n_ok = sum(s.certified for s in games)
    lines += ["", f"Certified: {n_ok} of {len(games)} chemin de fer games, in exact rationals."]
    if rep.banque:
        read = sum(e.certificate is not None and not e.certified for e in rep.banque)
        lines.append(
            f"Certified: {sum(e.certified for e in rep.banque)} of {len(rep.banque)} baccara banque answers by this run."
        )
        if read:
            lines.append(f"Read from committed certificates, not re-checked: {read} (--banque checked re-checks them).")
    return "\n".join(lines)


def _beside(rep: FullReport) -> dict[Shoe, Solution | None]:
    return {shoe: rep.chemin_beside(shoe) for shoe in rep.banque_shoes()}


# -- JSON -------------------------------------------------------------------------------------------


def full_dict(rep: FullReport, digits: int | None = None) -> dict[str, object]:
    """JSON-ready: ``{"headline": [...], "punto_banco": ..., "chemin_de_fer": [...]}``.

    ``headline`` lists :func:`answers` (``what``, ``model``: the model as its game's JSON writes it,
    ``model_text``: the model in words, ``values``: name → exact fraction; an unnamed value is keyed
    ``value``); ``punto_banco`` is :func:`~solver.report.punto.punto_dict`;
    ``chemin_de_fer`` lists :func:`~solver.report.chemin.chemin_dict` of every game, the zero-sum ones
    first, then those with commission (each says its ``model.commission``); ``baccara_banque`` (with the
    banque section) is :func:`~solver.report.banque_section.banque_section_dict`.
    """
    out: dict[str, object] = {}
    if headline(rep) is not None:
        out["headline"] = [
            {
                "what": a.what,
                "model": a.spec,
                "model_text": a.model,
                "values": {name or "value": fraction_str(x) for name, x in a.values},
            }
            for a in answers(headline(rep))
        ]
    out["punto_banco"] = punto_dict(rep.punto, digits)
    out["chemin_de_fer"] = [chemin_dict(s, digits) for s in rep.chemin + rep.commission]
    if rep.banque or rep.banque_left_out:
        out["baccara_banque"] = banque_section_dict(rep.banque, _beside(rep), digits, rep.banque_left_out)
    return out


# -- CSV --------------------------------------------------------------------------------------------

REPORT_CSV_HEADER = ("section", "shoe", "model", "item", "exact", "decimal")
"""``baccarat report --format csv``: one row per number of the report's sections."""


def _csv_number(x: Any, digits: int | None) -> tuple[str, str]:
    """(exact, decimal): a fraction and its decimal with ``digits``; an irrational number's decimal only
    (its exact form is in the JSON), to ``digits`` or the banque report's places."""
    if isinstance(x, FieldElement) and x.rational() is None:
        return "", decimal_of(x, digits if digits is not None else ALGEBRAIC_DIGITS)
    if isinstance(x, FieldElement):
        x = x.rational()
    return fraction_str(Fraction(x)), decimal_str(Fraction(x), digits) if digits is not None else ""


def full_csv_rows(rep: FullReport, digits: int | None = None) -> list[tuple[str, ...]]:
    """The report's numbers as CSV rows under :data:`REPORT_CSV_HEADER`: punto banco's (the rows of
    ``baccarat punto --format csv``), each chemin de fer game's (``baccarat chemin``'s; the model says its
    commission), and baccara banque's beside them (each concept's value or guarantee and the players'
    draws at 5, chemin de fer's value on the same shoe, the limit as theta -> 1)."""
    rows: list[tuple[str, ...]] = [("punto banco", shoe, "", *rest) for shoe, *rest in punto_csv_rows(rep.punto, digits)]
    for s in rep.chemin + rep.commission:
        model = f"{s.game.label}, commission {fraction_str(s.game.model.commission)}"
        rows += [("chemin de fer", shoe, model, *rest) for shoe, _, *rest in chemin_csv_rows(s, digits)]
    beside = _beside(rep)
    for shoe in dict.fromkeys(e.shoe for e in rep.banque):
        for e in (e for e in rep.banque if e.shoe == shoe):
            model = f"{e.label}, theta {fraction_str(e.theta)}"
            kind = "value" if e.exists is not False else "guarantee"
            numbers = [(f"{e.concept}:{kind}", e.value)]
            numbers += [(f"{e.concept}:player1:{k}", v) for k, v in e.player1.items()]
            numbers += [(f"{e.concept}:player2:{k}", v) for k, v in e.player2.items()]
            rows += [("baccara banque", shoe.label(), model, item, *_csv_number(x, digits)) for item, x in numbers]
        c = beside.get(shoe)
        if c is not None:
            rows.append(("baccara banque", shoe.label(), c.game.label, "chemin_de_fer:value", *_csv_number(c.value, digits)))
        limit = theta_one_limit_of(shoe, next(e for e in rep.banque if e.shoe == shoe).model)
        if limit is not None:
            rows.append(("baccara banque", shoe.label(), "", "theta_one_limit", *_csv_number(limit, digits)))
    return rows


# -- LaTeX ------------------------------------------------------------------------------------------


def headline_latex(rep: FullReport, digits: int) -> str:
    """The headline (:func:`answers`) as a LaTeX list: each answer rounded in %, exact beside it, and its model."""
    items = []
    if headline(rep) is None:
        return ""
    for a in answers(headline(rep)):
        nums = ", ".join(
            f"{tex.escape(name) + ' ' if name else ''}{tex.tex_percent(x, digits)}\\,\\% ({tex.tex_fraction(x)})"
            for name, x in a.values
        )
        items.append(f"  \\item {tex.escape(a.what)}: {nums}; {tex.escape(a.model)}.")
    return "\n".join(
        [
            "\\paragraph{In brief} Fractions exact; percentages rounded from them.",
            "\\begingroup\\raggedright  % long exact fractions do not break",
            "\\begin{itemize}",
            *items,
            "\\end{itemize}",
            "\\endgroup",
        ]
    )


def full_latex(rep: FullReport, digits: int | None = None, command: str = "baccarat report --format latex") -> str:
    """A standalone LaTeX document of the full report (tables from :mod:`solver.report.paper`).

    Every table stands where it is written (``[H]``, the ``float`` package), so that a heading is never left
    at the foot of a page whose table went on to the next, and no table leaves its section.
    """
    d = tex.DEFAULT_DIGITS if digits is None else digits
    here = {"placement": "H"}
    parts = [
        headline_latex(rep, d),
        "\\subsection*{Punto banco}",
        # The whole catalogue: in the smallest size, so that its heading and it share a page.
        paper.punto_exact_table(rep.punto, d, command, **here, size=r"\scriptsize"),
        "\\subsection*{Chemin de fer}",
        paper.chemin_summary_table(rep.chemin, d, command, **here),
    ]
    if rep.commission:
        parts.append(paper.chemin_summary_table(rep.commission, d, command, **here))
    parts.append(paper.chemin_exact_table(rep.chemin, d, command, **here))
    if rep.banque:
        parts += [
            "\\subsection*{Baccara banque}",
            banque_report_table(rep.banque, _beside(rep), d, command, rep.banque_left_out, **here),
        ]
    parts += ["\\subsection*{The banker's optimal tableaux}"] + [
        paper.banker_tableau_table(s, d, command, **here) for s in rep.chemin
    ]
    intro = (
        f"{tex.escape(_shoes_line(rep)).capitalize()}. Every number is computed exactly; fractions are exact and "
        f"decimals are rounded half to even to {d} places from them. "
        + (
            "Every chemin de fer answer is certified in exact rationals."
            if rep.certified
            else "\\textbf{Some chemin de fer answers are not certified.}"
        )
    )
    return tex.document("Baccarat: the full exact report", parts, command, intro=intro, packages=("float",))
