"""Renderers of baccara banque solutions (:class:`~solver.banque.solve.BanqueSolution`): a JSON-ready
dict, text, a text table, CSV rows and a LaTeX table.

Exact numbers are written ``p/q``; an irrational one (a Nash equilibrium can be) as its minimal
polynomial (constant term first) and an isolating interval, with a decimal beside it, never a rounded
rational in its place.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from solver.banque.game import BanqueModel
from solver.banque.limit import ThetaOneLimit
from solver.banque.solve import BanqueSolution
from solver.banque.vocabulary import Concept
from solver.cards import Shoe
from solver.chemin.solve import Solution
from solver.exact.numberfield import FieldElement, decimal_of, isolate
from solver.report import fraction_str
from solver.report.chemin import model_dict
from solver.strategy import InfoSet, format_infoset

CONCEPT_NAMES = {"nash": "Nash equilibrium", "correlated": "correlated cooperative", "independent": "independent cooperative"}
ALGEBRAIC_DIGITS = 12
"""Decimals printed beside an irrational number when ``--digits`` does not say."""
CSV_HEADER = (
    "shoe",
    "information",
    "second_player",
    "freedom",
    "tax",
    "theta",
    "concept",
    "exists",
    "value",
    "value_decimal",
    "player1_draw_at_5",
    "player2_draw_at_5",
    "certified",
    "unique",
)


def exact_json(x: Any, digits: int | None = None) -> object:
    """An exact number for JSON: ``"p/q"``, or an object for an irrational number."""
    if x is None:
        return None
    if isinstance(x, FieldElement):
        r = x.rational()
        if r is None:
            m, lo, hi = isolate(x)
            return {
                "minimal_polynomial": [str(c) for c in m],
                "interval": [fraction_str(lo), fraction_str(hi)],
                "decimal": decimal_of(x, digits if digits is not None else ALGEBRAIC_DIGITS),
            }
        x = r
    return fraction_str(Fraction(x))


def exact_text(x: Any, digits: int | None = None) -> str:
    """An exact number for text: ``p/q`` (with its decimal when asked), or an irrational's decimal marked ≈."""
    if x is None:
        return "-"
    if isinstance(x, FieldElement) and x.rational() is None:
        shown = decimal_of(x, digits if digits is not None else ALGEBRAIC_DIGITS)
        return f"≈ {shown} (a root of {polynomial_text(isolate(x)[0])})"
    q = x.rational() if isinstance(x, FieldElement) else Fraction(x)
    assert q is not None
    return fraction_str(q) + (f" ({decimal_of(q, digits)})" if digits is not None else "")


def polynomial_text(coefficients: list[int]) -> str:
    """A polynomial (constant first) as written: ``61144 t^2 + 334541 t - 76785``.

    >>> polynomial_text([-76785, 334541, 61144])
    '61144 t^2 + 334541 t - 76785'
    """
    terms = []
    for k in range(len(coefficients) - 1, -1, -1):
        c = coefficients[k]
        if c:
            power = "" if k == 0 else " t" if k == 1 else f" t^{k}"
            terms.append(("- " if c < 0 else "+ ") + f"{abs(c)}{power}")
    text = " ".join(terms)
    return text[2:] if text.startswith("+ ") else "-" + text[2:]


def _draws(sets: tuple[InfoSet, ...], values: tuple[Any, ...], digits: int | None, keyed: bool) -> object:
    if not keyed and len(values) == 1:
        return exact_json(values[0], digits)
    return {format_infoset(s): exact_json(v, digits) for s, v in zip(sets, values)}


def keyed(s: BanqueSolution) -> tuple[bool, bool]:
    """Whether each player's draw probabilities are written by situation (information 3, or Player 2 seeing
    tableau 1) rather than as one number."""
    m = s.model
    return m.information == 3, m.information == 3 or m.second_player == "sees-first"


def banque_model_dict(shoe: Shoe, m: BanqueModel) -> dict[str, object]:
    """A banque model as JSON: ``name`` (Ethier's letter and number on this shoe), ``information``,
    ``second_player``, ``freedom``, ``tax``."""
    return {
        "name": m.name(shoe),
        "information": int(m.information),
        "second_player": str(m.second_player),
        "freedom": str(m.freedom),
        "tax": fraction_str(m.tax),
    }


def solution_head(shoe: Shoe, m: BanqueModel, theta: Fraction, concept: str, exists: bool | None) -> dict[str, object]:
    """The fields that say which solution a JSON object is (its game, shoe, model, theta, concept, and
    whether the concept has a solution there): shared by ``baccarat banque`` and the report."""
    return {
        "game": "baccara banque",
        "shoe": shoe.spec(),
        "model": banque_model_dict(shoe, m),
        "theta": fraction_str(theta),
        "concept": concept,
        "exists": exists,
    }


def banque_dict(s: BanqueSolution, digits: int | None = None) -> dict[str, object]:
    """JSON-ready dict of one solution (the fields of ``baccarat banque --format json``)."""
    g, m = s.game, s.model
    k1, k2 = keyed(s)
    none_exists = s.exists is False or s.exists is None and s.concept == "independent"
    out: dict[str, object] = {
        **solution_head(g.shoe, m, s.theta, s.concept, s.exists),
        "value": None if none_exists else exact_json(s.value, digits),
        "player1_draw_at_5": _draws(g.player1_sets, s.player1, digits, k1),
        "player2_draw_at_5": _draws(g.player2_sets, s.player2, digits, k2),
        "banker": {}
        if s.banker is None
        else {format_infoset(c): exact_json(v, digits) for c, v in zip(g.banker_sets, s.banker) if 0 < v < 1},
        "certified": s.certified,
        "unique": s.unique,
        "method": s.method,
    }
    if none_exists:
        out["guarantee"] = exact_json(s.value, digits)
        out["guarantee_optimal"] = s.guarantee_optimal
    if s.team is not None:
        out["team"] = [
            {
                "player1": {format_infoset(k): "D" if a else "S" for k, a in zip(g.player1_sets, atom)},
                "probability": fraction_str(p),
                "player2": {format_infoset(k): exact_json(v, digits) for k, v in zip(g.player2_sets, cond)},
            }
            for atom, p, cond in s.team.support()
        ]
    if s.result1 is not None:
        out["result1"] = exact_json(s.result1, digits)
        out["result2"] = exact_json(s.result2, digits)
    if s.no_equilibrium_at:
        out["no_equilibrium_with_player1_at"] = [fraction_str(x) for x in s.no_equilibrium_at]
    out["dominance"] = len(s.dominance)
    if digits is not None and not none_exists and not isinstance(s.value, FieldElement):
        out["value_decimal"] = decimal_of(s.value, digits)
    return out


def _model_line(s: BanqueSolution) -> str:
    m = s.model
    tax = f", tax {fraction_str(m.tax)}" if m.tax else ""
    return (
        f"baccara banque, {s.shoe.label()} ({m.name(s.shoe)}), information {m.information}, second player "
        f"{m.second_player}, {m.freedom}{tax}, theta {fraction_str(s.theta)}"
    )


def _unique_word(u: bool | None) -> str:
    return "yes (proved)" if u else "not decided" if u is None else "no"


def banque_text(s: BanqueSolution, digits: int | None = None) -> str:
    """A short text report of one solution."""
    g = s.game
    lines = [_model_line(s), f"{CONCEPT_NAMES[s.concept]}:"]
    if s.exists is False:
        lines.append(
            "  no independent cooperative equilibrium at this theta (proved exactly: every support pattern is infeasible)"
        )
        lines.append(
            f"  the team's best guarantee found with independent choices: {exact_text(s.value, digits)} "
            "(exact for the strategy below; optimality not proved)"
        )
    elif s.exists is None:
        lines.append("  existence not decided")
    else:
        lines.append(f"  banker's expected payoff per unit of total stake: {exact_text(s.value, digits)}")
    for name, sets, values in (("player 1", g.player1_sets, s.player1), ("player 2", g.player2_sets, s.player2)):
        how = "draws at 5" if s.concept != "correlated" else "draws at 5 (marginal)"
        shown = [f"{format_infoset(k)}: {exact_text(v, digits)}" for k, v in zip(sets, values)]
        lines.append(f"  {name} {how}: " + ("; ".join(shown) if len(shown) > 1 else exact_text(values[0], digits)))
    if s.team is not None:
        for atom, p, cond in s.team.support():
            p1 = ", ".join(f"{'draws' if a else 'stands'} at {format_infoset(k)}" for k, a in zip(g.player1_sets, atom))
            p2 = "; ".join(f"{format_infoset(k)}: {exact_text(v, digits)}" for k, v in zip(g.player2_sets, cond))
            lines.append(f"    with probability {fraction_str(p)}: player 1 {p1}; player 2 draws {p2}")
    if s.banker is not None:
        mixed = [(c, v) for c, v in zip(g.banker_sets, s.banker) if 0 < v < 1]
        lines.append(f"  banker mixes in {len(mixed)} of {len(g.banker_sets)} free cells" + (":" if mixed else ""))
        lines += [f"    {format_infoset(c)}: {exact_text(v, digits)}" for c, v in mixed]
    if s.no_equilibrium_at:
        where = " or ".join(fraction_str(x) for x in s.no_equilibrium_at)
        lines.append(f"  no equilibrium has player 1 draw at 5 with probability {where} (proved; in the certificate)")
    lines.append(
        f"  certified: {'yes' if s.certified else 'no'}; unique: {_unique_word(s.unique)}; "
        f"decisions settled by iterated dominance: {len(s.dominance)}"
    )
    lines.append(f"  method: {s.method}")
    return "\n".join(lines)


def banque_table_text(solutions: list[BanqueSolution], digits: int | None = None) -> str:
    """One row per solution: θ, concept, whether it exists, value, the players' draws, uniqueness."""
    rows = [_model_line(solutions[0]).rsplit(", theta", 1)[0]]
    for s in solutions:
        if s.exists is False:
            value = "no equilibrium; the team's best guarantee found: " + exact_text(s.value, digits)
        else:
            value = exact_text(s.value, digits)
        p1 = exact_text(s.player1[0], digits) if len(s.player1) == 1 else f"by set ({len(s.player1)})"
        p2 = exact_text(s.player2[0], digits) if len(s.player2) == 1 else f"by situation ({len(s.player2)})"
        rows.append(f"  theta {fraction_str(s.theta)}, {CONCEPT_NAMES[s.concept]} (unique: {_unique_word(s.unique)})")
        rows.append(f"    banker's value: {value}")
        rows.append(f"    draws at 5: player 1 {p1}; player 2 {p2}")
    return "\n".join(rows)


def banque_csv_rows(s: BanqueSolution, digits: int | None = None) -> list[tuple[str, ...]]:
    m = s.model

    def cell(x: Any) -> str:
        if x is None:
            return ""
        v = exact_json(x, digits)
        return v["decimal"] if isinstance(v, dict) else str(v)

    none = s.exists is not True
    p1 = cell(s.player1[0]) if len(s.player1) == 1 else ""
    p2 = cell(s.player2[0]) if len(s.player2) == 1 else ""
    value = "" if none else cell(s.value)
    decimal = "" if none else decimal_of(s.value, digits if digits is not None else ALGEBRAIC_DIGITS)
    return [
        (
            s.shoe.label(),
            str(m.information),
            m.second_player,
            m.freedom,
            fraction_str(m.tax),
            fraction_str(s.theta),
            s.concept,
            str(s.exists).lower(),
            value,
            decimal,
            p1,
            p2,
            str(s.certified).lower(),
            "" if s.unique is None else str(s.unique).lower(),
        )
    ]


def banque_latex(solutions: list[BanqueSolution], digits: int | None = None) -> str:
    """A booktabs table: θ, concept, the banker's value (decimal, 100 × per unit of total stake), the draws."""
    d = digits if digits is not None else 4
    rows = []
    for s in solutions:
        value = r"\textemdash" if s.exists is not True else decimal_of(s.value * 100, d) + r"\,\%"
        p1 = decimal_of(s.player1[0], d) if len(s.player1) == 1 else r"\textemdash"
        p2 = decimal_of(s.player2[0], d) if len(s.player2) == 1 else r"\textemdash"
        rows.append(f"{fraction_str(s.theta)} & {CONCEPT_NAMES[s.concept]} & {value} & {p1} & {p2} \\\\")
    caption = _model_line(solutions[0]).rsplit(", theta", 1)[0].replace("%", r"\%")
    return (
        "\n".join(
            [
                r"\begin{table}[ht]",
                r"\centering",
                f"\\caption{{{caption}: the banker's advantage (decimals rounded from exact "
                "values; an irrational value rounded from its exact bounds).}",
                r"\begin{tabular}{llrrr}",
                r"\toprule",
                r"$\theta$ & concept & banker & player 1 draws at 5 & player 2 draws at 5 \\",
                r"\midrule",
                *rows,
                r"\bottomrule",
                r"\end{tabular}",
                r"\end{table}",
            ]
        )
        + "\n"
    )


def limit_dict(limit: ThetaOneLimit, beside: Solution, digits: int | None = None) -> dict[str, object]:
    """JSON-ready: the limit of the banker's Nash payoff as θ → 1 beside chemin de fer's value (``beside``,
    its game of the same information and freedom on the same shoe; ``baccarat banque --limit --format json``)."""
    m = limit.model
    chemin = beside.value
    out: dict[str, object] = {
        **solution_head(limit.shoe, m, Fraction(1), Concept.NASH, True),
        "theta": "limit as theta -> 1",
        "limit": fraction_str(limit.value),
        "chemin_de_fer": {"model": model_dict(beside), "value": fraction_str(chemin)},
        "above_chemin_de_fer": fraction_str(limit.value - chemin),
        "player1_draw_at_5": None if limit.player1 is None else fraction_str(limit.player1),
        "checked": [{"theta": fraction_str(t), "result1": exact_json(r)} for t, r in limit.checked],
        "method": limit.method,
    }
    if digits is not None:
        out["limit_decimal"] = decimal_of(limit.value, digits)
    return out


def limit_text(limit: ThetaOneLimit, beside: Solution, digits: int | None = None) -> str:
    """The limit as θ → 1 in words and exact numbers (``baccarat banque --limit``), beside chemin de fer's value."""
    d = 6 if digits is None else digits
    chemin, chemin_label = beside.value, beside.game.label
    m = limit.model
    gap = limit.value - chemin
    why = (
        "equal: on the infinite deck what tableau 2 shows tells the banker nothing about tableau 1"
        if gap == 0
        else "the banker also sees what tableau 2 shows, and on a finite shoe those cards are gone from it"
        if gap > 0
        else "below chemin de fer's value"
    )
    return "\n".join(
        [
            f"baccara banque, {limit.shoe.label()} ({m.name(limit.shoe)}), information {m.information}, second player "
            f"{m.second_player.value}, {m.freedom.value}: the limit as theta -> 1",
            f"  banker's expected payoff: {fraction_str(limit.value)} ({decimal_of(limit.value * 100, d)} %)",
            f"  chemin de fer ({chemin_label}) on the same shoe: {fraction_str(chemin)} ({decimal_of(chemin * 100, d)} %)",
            f"  difference: {fraction_str(gap)} ({decimal_of(gap * 100, d)} % of the stake): {why}",
            f"  method: {limit.method}",
        ]
    )
