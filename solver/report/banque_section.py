"""Baccara banque in the full report and the paper's tables: renderers of
:class:`~solver.banque.committed.BanqueEntry` (computed in :mod:`solver.banque.committed`, through
:func:`solver.analysis.report.full_report` and :func:`solver.analysis.paper.paper_results`).

Values are exact (``p/q``, or an algebraic number's minimal polynomial and interval) with decimals
rounded from them; each entry says whether it is certified and where its numbers come from.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from solver.banque.committed import RULE_SHEET_MODEL, BanqueEntry, theta_one_limit_of
from solver.banque.vocabulary import Concept
from solver.cards import Shoe
from solver.chemin.solve import Solution
from solver.exact.numberfield import decimal_of
from solver.report import DEFAULT_TEXT_DIGITS, fraction_str, shoe_words
from solver.report.banque import CONCEPT_NAMES, banque_model_dict, exact_json, exact_text, solution_head
from solver.report.chemin import model_dict
from solver.report.latex import escape, ragged_cell, rounding, shoe_tex, table

MODEL_WORDS = (
    "information 1 (each side knows only his own total), a blind second player (his choice at 5 "
    "ignores tableau 1), the parlor game (every banker decision free), no tax, balanced tables "
    "(θ = 1/2)"
)
"""The rule sheets' model in words (:data:`solver.banque.committed.RULE_SHEET_MODEL` at θ = 1/2)."""


def pct(x: Any, digits: int) -> str:
    """100 x rounded to ``digits`` places (an algebraic number from its exact bounds)."""
    return decimal_of(x * 100, digits)


def _draw(values: dict[str, Any], digits: int) -> str:
    if len(values) == 1:
        return decimal_of(next(iter(values.values())), digits)
    return f"by situation ({len(values)})"


def _exists(e: BanqueEntry) -> bool:
    return e.exists is True


def sources(entries: Sequence[BanqueEntry]) -> str:
    """Where the entries' numbers come from, in one sentence: solved now, or read from committed certificates
    (re-checked by the independent checker in this run, or not)."""
    certs = [e for e in entries if e.certificate is not None]
    solved = len(entries) - len(certs)
    parts = []
    if certs:
        where = ", ".join(sorted({str(e.certificate).rpartition("/")[0] + "/" for e in certs}))
        checked = sum(e.certified for e in certs)
        how = (
            "each re-checked in this run by the independent checker (baccarat-check)"
            if checked == len(certs)
            else f"{checked} of them re-checked in this run by the independent checker; the others not re-checked "
            "(baccarat-check verifies them; baccarat report --banque checked re-checks them)"
        )
        parts.append(
            f"{len(certs)} answers read from the committed certificates in {where} (each named in the JSON report), {how}"
        )
    if solved:
        parts.append(f"{solved} solved and certified now")
    return "; ".join(parts)


def certified_word(e: BanqueEntry) -> str:
    """``yes`` (solved and certified now, or a certificate re-checked), ``committed`` (read from a committed
    certificate, not re-checked by this run), ``NO``."""
    if e.certified:
        return "yes"
    return "committed" if e.certificate is not None and "REJECTED" not in e.source else "NO"


# -- text ---------------------------------------------------------------------------------------------


def left_out_words(shoe: Shoe) -> str:
    """Why a shoe of the banque section is left out, and how to have it."""
    spec = (
        "--decks inf"
        if shoe.is_infinite
        else (f"--decks {shoe.full_decks}" if shoe.full_decks else "with the report's shoe options")
    )
    return (
        f"On {shoe_words(shoe)} no committed certificate states these answers: baccarat report --banque solve "
        f"solves and certifies them (some seconds, longer on an odd shoe), as does baccarat banque --freedom "
        f"parlor {spec}."
    )


def limit_words(shoe: Shoe, limit: Fraction, chemin: Fraction | None) -> str:
    """Where banque meets chemin de fer: the θ → 1 limit against chemin de fer's value on the same shoe."""
    head = (
        "As θ → 1 (tableau 1 holding the whole stake) banque becomes chemin de fer against tableau 1, with the "
        "banker also seeing what tableau 2 shows"
    )
    if chemin is None:
        return head + "."
    if limit == chemin:
        return head + ": on the infinite deck that tells him nothing, and the limit is chemin de fer's value exactly."
    return (
        f"{head}: on {shoe_words(shoe)} those cards are gone from the shoe, so the limit is above chemin de fer's "
        f"value, by {decimal_of((limit - chemin) * 100, 6)} % of the stake (exact: {fraction_str(limit - chemin)})."
    )


def banque_section_text(
    entries: Sequence[BanqueEntry], beside: dict[Shoe, Solution | None], digits: int | None = None, left_out: Sequence[Shoe] = ()
) -> str:
    """The report's banque section: per shoe, each concept's value (exact and in %), the players' draws at 5,
    the banker's mixed cells, certified; then chemin de fer's value on the same shoe and model; and a note
    for each shoe ``left_out`` (no certificate states it)."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    lines = [
        "  Model (the one that reproduces the rule sheets' 0.87 % against 1.28 %, docs/howto-banque.md):",
        *_wrapped(MODEL_WORDS + "."),
        "",
    ]
    n = max(d + 5, 8)
    for shoe in dict.fromkeys(e.shoe for e in entries):
        rows = [e for e in entries if e.shoe == shoe]
        lines.append(f"  {shoe_words(shoe)} (model {rows[0].label})")
        lines.append(f"    {'':<26} {'banker %':>{n}} {'P1 at 5':>{n}} {'P2 at 5':>{n}}  certified  banker mixes at")
        for e in rows:
            if _exists(e):
                mixes = ", ".join(e.banker) or "-"
                lines.append(
                    f"    {CONCEPT_NAMES[e.concept]:<26} {pct(e.value, d):>{n}} {_draw(e.player1, d):>{n}} "
                    f"{_draw(e.player2, d):>{n}}  {certified_word(e):<9}  {mixes}"
                )
                lines.append(f"      exact: {exact_text(e.value)}")
            else:
                lines.append(
                    f"    {CONCEPT_NAMES[e.concept]:<26} none at this θ "
                    f"({'proved' if e.certified or e.certificate else 'not decided'});"
                    f" the team's best guarantee found: {pct(e.value, d)} %"
                )
        c = beside.get(shoe)
        if c is not None:
            lines.append(
                f"    {'chemin de fer, ' + c.game.label:<26} {pct(c.value, d):>{n}} {'':>{n}} {'':>{n}}  "
                f"{'yes' if c.certified else 'NO'}"
            )
            lines.append(f"      exact: {fraction_str(c.value)}")
            nash = next((e for e in rows if e.concept == Concept.NASH and _exists(e)), None)
            if nash is not None:
                lines += _wrapped(
                    f"The banker's advantage falls from {pct(c.value, 2)} % in chemin de fer to {pct(nash.value, 2)} % "
                    f"in baccara banque (Nash equilibrium): one decision against two tableaux costs him "
                    f"{pct(c.value - nash.value, 2)} % of the stake.",
                    "    ",
                )
        limit = theta_one_limit_of(shoe, rows[0].model)
        if limit is not None:
            lines.append(f"    {'limit as θ → 1':<26} {pct(limit, d):>{n}}")
            lines.append(f"      exact: {fraction_str(limit)}")
            lines += _wrapped(limit_words(shoe, limit, c.value if c is not None else None), "    ")
        lines.append("")
    for shoe in left_out:
        lines += [*_wrapped(left_out_words(shoe)), ""]
    lines += _wrapped(
        "P1, P2 at 5: each player's probability of drawing at 5 (the correlated solution's marginals; "
        "exact in --format json). Banker cells: his total / what tableau 1 showed / tableau 2 (a third "
        "card, S stood, N natural). Source: " + sources(entries) + ". The limits as θ → 1: baccarat banque "
        "--limit (committed in solver/banque/committed.py, recomputed by the test suite). Every model, θ and "
        "concept: baccarat banque (docs/howto-banque.md)."
    )
    return "\n".join(lines)


def _wrapped(text: str, indent: str = "  ") -> list[str]:
    import textwrap

    from solver.report import TEXT_WIDTH

    return textwrap.wrap(text, TEXT_WIDTH, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False)


# -- JSON ---------------------------------------------------------------------------------------------


def _draws_json(values: dict[str, Any], digits: int | None) -> object:
    if len(values) == 1:
        return exact_json(next(iter(values.values())), digits)
    return {k: exact_json(v, digits) for k, v in values.items()}


def entry_dict(e: BanqueEntry, digits: int | None = None) -> dict[str, object]:
    """JSON-ready: the fields of ``baccarat banque --format json`` that the report shows (``value``,
    ``player1_draw_at_5``, ``player2_draw_at_5``, ``banker``, ``exists``, ``certified``, ``unique``; and
    ``guarantee`` where the concept has no solution), with ``source``."""
    out: dict[str, object] = {
        **solution_head(e.shoe, e.model, e.theta, e.concept, e.exists),
        "value": exact_json(e.value, digits) if _exists(e) else None,
        "player1_draw_at_5": _draws_json(e.player1, digits),
        "player2_draw_at_5": _draws_json(e.player2, digits),
        "banker": {k: exact_json(v, digits) for k, v in e.banker.items()},
        "certified": e.certified,
        "unique": e.unique,
        "source": e.source,
        "certificate": e.certificate,
    }
    if not _exists(e):
        out["guarantee"] = exact_json(e.value, digits)
    elif digits is not None:
        out["value_decimal"] = decimal_of(e.value, digits)
    return out


def banque_section_dict(
    entries: Sequence[BanqueEntry], beside: dict[Shoe, Solution | None], digits: int | None = None, left_out: Sequence[Shoe] = ()
) -> dict[str, object]:
    """JSON-ready: ``{"model", "model_text", "theta", "shoes": [{"shoe", "solutions": [...], "chemin_de_fer":
    {...}}]}`` (``model``: the fields of a banque model but its ``name``, which depends on the shoe), and
    ``left_out`` (``[{"shoe", "reason"}]``) for the shoes no certificate states, when there are any."""
    shoes = []
    for shoe in dict.fromkeys(e.shoe for e in entries):
        item: dict[str, object] = {"shoe": shoe.spec(), "solutions": [entry_dict(e, digits) for e in entries if e.shoe == shoe]}
        c = beside.get(shoe)
        if c is not None:
            item["chemin_de_fer"] = {"model": model_dict(c), "value": fraction_str(c.value), "certified": c.certified}
            if digits is not None:
                item["chemin_de_fer"]["value_decimal"] = decimal_of(c.value, digits)  # type: ignore[index]
        rows = [e for e in entries if e.shoe == shoe]
        limit = theta_one_limit_of(shoe, rows[0].model)
        if limit is not None:
            item["theta_one_limit"] = {
                "value": fraction_str(limit),
                "above_chemin_de_fer": None if c is None else fraction_str(limit - c.value),
            }
        shoes.append(item)
    out: dict[str, object] = {
        "model": {k: v for k, v in banque_model_dict(Shoe.infinite(), RULE_SHEET_MODEL).items() if k != "name"},
        "model_text": MODEL_WORDS,
        "theta": "1/2" if not entries else fraction_str(entries[0].theta),
        "shoes": shoes,
    }
    if left_out:
        out["left_out"] = [{"shoe": shoe.spec(), "reason": left_out_words(shoe)} for shoe in left_out]
    return out


# -- LaTeX --------------------------------------------------------------------------------------------


def _tex(text: str) -> str:
    """Plain text for LaTeX, θ as math."""
    return escape(text).replace("θ", r"$\theta$")


def _tex_draw(values: dict[str, Any], digits: int) -> str:
    return decimal_of(next(iter(values.values())), digits) if len(values) == 1 else r"\textemdash"


def banque_report_table(
    entries: Sequence[BanqueEntry],
    beside: dict[Shoe, Solution | None],
    digits: int,
    command: str,
    left_out: Sequence[Shoe] = (),
    placement: str = "htbp",
) -> str:
    """One row per shoe and concept, and chemin de fer's value on the same shoe: the banker's advantage in
    %, the players' draws at 5, certified."""
    body: list[list[str]] = []
    rules: list[int] = []
    for shoe in dict.fromkeys(e.shoe for e in entries):
        rules.append(len(body))
        for e in (x for x in entries if x.shoe == shoe):
            value = pct(e.value, digits) if _exists(e) else f"none (best {pct(e.value, digits)})"
            body.append(
                [
                    shoe_tex(shoe),
                    escape(CONCEPT_NAMES[e.concept]),
                    value,
                    _tex_draw(e.player1, digits),
                    _tex_draw(e.player2, digits),
                    certified_word(e) if certified_word(e) != "NO" else r"\textbf{no}",
                ]
            )
        c = beside.get(shoe)
        if c is not None:
            body.append(
                [
                    shoe_tex(shoe),
                    f"chemin de fer ({escape(c.game.label)})",
                    pct(c.value, digits),
                    "",
                    "",
                    "yes" if c.certified else r"\textbf{no}",
                ]
            )
        limit = theta_one_limit_of(shoe, next(x for x in entries if x.shoe == shoe).model)
        if limit is not None:
            body.append([shoe_tex(shoe), r"banque, limit as $\theta \to 1$", pct(limit, digits), "", "", "committed"])
    caption = (
        "Baccara banque beside chemin de fer: the banker's advantage (his expected gain per unit of total "
        "stake, \\%) and each player's probability of drawing at 5 (the correlated solution's marginals), under "
        f"{_tex(MODEL_WORDS)}; chemin de fer's parlor game of information 1 on the same shoe. All columns "
        f"are decimals, {rounding(digits)}; the exact fractions are in the JSON report. Where the independent "
        "cooperative solution does not exist (proved), the team's best guarantee found is shown. The limit as "
        "$\\theta \\to 1$ is chemin de fer against tableau 1 with the banker also seeing tableau 2: chemin de "
        "fer's value on the infinite deck, above it on a finite shoe (the cards tableau 2 shows are gone)."
    )
    note = _tex(" ".join(["Source: " + sources(entries) + ".", *(left_out_words(x) for x in left_out)]))
    return table(
        caption=caption,
        label="tab:banque-report",
        colspec="llrrrc",
        head=[["Shoe", "Concept", "Banker \\%", "P1 at 5", "P2 at 5", "Certified"]],
        body=body,
        command=command,
        note=note,
        rules_before=rules,
        placement=placement,
    )


MIXES_COLUMN = "2.9cm"
"""Width of the banque-models table's last column, the banker's mixed cells, set ragged right (justified, its
lists of cells left underfull lines)."""


def banque_models_table(entries: Sequence[BanqueEntry], digits: int, command: str) -> str:
    """θ = 1/2, every standard model (shoe, second player, freedom) and concept: the banker's advantage and
    the players' draws at 5."""
    body: list[list[str]] = []
    rules: list[int] = []
    last = None
    for e in entries:
        key = (e.shoe, e.model)
        if key != last:
            rules.append(len(body))
            last = key
        value = pct(e.value, digits) if _exists(e) else f"none (best {pct(e.value, digits)})"
        body.append(
            [
                escape(e.label),
                escape(CONCEPT_NAMES[e.concept]),
                value,
                _tex_draw(e.player1, digits),
                _tex_draw(e.player2, digits),
                ragged_cell(escape(", ".join(e.banker)) or "\\textemdash", MIXES_COLUMN),
            ]
        )
    caption = (
        "Baccara banque at $\\theta = 1/2$ by model: A = the infinite deck, B = six decks without replacement; "
        "information 1; blind or sees-first second player; casino or parlor freedom. The banker's advantage "
        f"(\\%), each player's probability of drawing at 5 (\\textemdash: it depends on what he saw), and the "
        f"cells where the banker mixes. Decimals, {rounding(digits)}. Where the independent cooperative "
        "solution does not exist (proved), the team's best guarantee found."
    )
    note = _tex("Source: " + sources(entries) + ".")
    return table(
        caption=caption,
        label="tab:banque-models",
        colspec="llrrrl",
        head=[["Model", "Concept", "Banker \\%", "P1 at 5", "P2 at 5", "Banker mixes at"]],
        body=body,
        command=command,
        note=note,
        rules_before=rules,
        size=r"\footnotesize",
    )


def banque_theta_table(entries: Sequence[BanqueEntry], digits: int, command: str) -> str:
    """The rule sheets' model against θ: one row per θ, each concept's value and the players' draws."""
    thetas = list(dict.fromkeys(e.theta for e in entries))
    concepts = list(dict.fromkeys(e.concept for e in entries))
    body = []
    for t in thetas:
        row = [f"${fraction_str(t)}$"]
        for c in concepts:
            e = next(x for x in entries if x.theta == t and x.concept == c)
            row.append(pct(e.value, digits) if _exists(e) else "none")
            row += [_tex_draw(e.player1, digits), _tex_draw(e.player2, digits)]
        body.append(row)
    first = entries[0]
    groups = [("", 1)] + [(escape(CONCEPT_NAMES[c]), 3) for c in concepts]
    head = [["$\\theta$"] + ["Banker \\%", "P1", "P2"] * len(concepts)]
    words = _tex(MODEL_WORDS.rsplit(", balanced", 1)[0])
    caption = (
        f"Baccara banque on {shoe_tex(first.shoe)} ({escape(first.label)}: {words}) "
        "against Player 1's share $\\theta$ of the total stake: the banker's advantage (\\%) and each player's "
        "probability of drawing at 5 by solution concept (``none'': the independent cooperative solution is "
        f"proved not to exist there). Decimals, {rounding(digits)}; irrational values rounded from their exact "
        "bounds."
    )
    note = _tex("Source: " + sources(entries) + ".")
    return table(
        caption=caption,
        label="tab:banque-theta",
        colspec="l" + "rrr" * len(concepts),
        head=head,
        body=body,
        command=command,
        groups=groups,
        note=note,
        size=r"\footnotesize",
    )


BANQUE_TABLE_NAMES = ("banque-models", "banque-theta")
"""The files :func:`banque_tables` makes (without ``.tex``)."""


def banque_tables(models: Sequence[BanqueEntry], thetas: Sequence[BanqueEntry], digits: int, command: str) -> dict[str, str]:
    """The banque tables of ``baccarat tables``: by model at θ = 1/2, and the rule sheets' model by θ."""
    return {
        "banque-models": banque_models_table(models, digits, command),
        "banque-theta": banque_theta_table(thetas, digits, command),
    }
