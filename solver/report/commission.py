"""Renderers of the commission game: a :class:`~solver.chemin.commission.sweep.CommissionSweep` as text,
a JSON-ready dict and a LaTeX table, and the paper's tables of the commission game by shoe.

Pure functions of their results: every number is exact (fractions, rational functions of α written
in ``alpha``, breakpoints as exact algebraic numbers) with decimals where asked for.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from fractions import Fraction

from solver.chemin.commission.interval import Inside
from solver.chemin.commission.sweep import CommissionSweep, Junction, Piece, RationalFunction, junctions
from solver.chemin.solve import Solution
from solver.exact.algebraic import Algebraic
from solver.report import DEFAULT_TEXT_DIGITS, TEXT_WIDTH, decimal_str, fraction_str, shoe_words
from solver.report.latex import escape, rounding, shoe_tex, table, tex_percent
from solver.strategy import format_infoset

BREAKPOINT_DIGITS = 12
"""Decimals of a breakpoint shown beside its exact value in JSON."""


def _changes(prev: Piece | None, piece: Piece, keys: Sequence[str]) -> list[str]:
    """The banker's cells whose play differs from the previous piece's, as ``cell: old → new``."""
    if prev is None:
        return []
    return [f"{k}: {_word(a)} → {_word(b)}" for k, a, b in zip(keys, prev.banker, piece.banker) if a != b]


def _word(p: Fraction) -> str:
    return "D" if p == 1 else "S" if p == 0 else fraction_str(p)


def _ends(piece: Piece, digits: int) -> str:
    lo = f"{piece.lo.text()} ≈ {piece.lo.decimal(digits)}" if not piece.lo.is_rational else piece.lo.text()
    hi = f"{piece.hi.text()} ≈ {piece.hi.decimal(digits)}" if not piece.hi.is_rational else piece.hi.text()
    return f"{lo} {'<' if piece.open_lo else '≤'} α {'<' if piece.open_hi else '≤'} {hi}"


def _unique_words(u: bool | None) -> str:
    return "unique" if u else "not unique" if u is False else "uniqueness not decided"


def _covered(inside: Inside, digits: int, tex: bool = False) -> str:
    assert inside.covered is not None
    dots, le, lt, alpha = ("{\\ldots}", "\\le", "<", "\\alpha") if tex else ("…", "≤", "<", "α")
    a, b = (x.text() if x.is_rational else f"{x.decimal(digits)}{dots}" for x in inside.covered)
    text = f"{a} {le if inside.ends[0] else lt} {alpha} {le if inside.ends[1] else lt} {b}"
    return f"${text}$" if tex else text


def inside_words(inside: Inside, digits: int, tex: bool = False) -> str:
    """Whether the piece's equilibrium is unique at every α inside it, in words (LaTeX with ``tex``)."""
    analyses = (
        f"{len(inside.samples)} case analys{'is' if len(inside.samples) == 1 else 'es'}, "
        f"{inside.leaves} case{'' if inside.leaves == 1 else 's'}"
    )
    alpha = "$\\alpha$" if tex else "α"
    if inside.unique and inside.covered is not None and inside.covered[0] == inside.covered[1]:
        return f"the piece is one {alpha}: unique there (the solve above)"
    if inside.unique:
        return f"unique for every {alpha} with {_covered(inside, digits, tex)}: proved ({analyses})"
    if inside.unique is False:
        return f"NOT unique inside the piece: a second equilibrium at {alpha} = {fraction_str(inside.samples[-1])}"
    done = f"; proved for {_covered(inside, digits, tex)}" if inside.covered is not None else ""
    why = escape(inside.why).replace("α", "$\\alpha$").replace("≈", "$\\approx$") if tex else inside.why
    return f"uniqueness inside the piece not decided ({why}){done}"


def inside_dict(inside: Inside) -> dict[str, object]:
    """JSON-ready: the proof of uniqueness over a piece, or why it stops."""
    out: dict[str, object] = {
        "samples": [fraction_str(a) for a in inside.samples],
        "cases": inside.leaves,
        "covered": None
        if inside.covered is None
        else {
            "from": algebraic_dict(inside.covered[0]),
            "to": algebraic_dict(inside.covered[1]),
            "closed_from": inside.ends[0],
            "closed_to": inside.ends[1],
        },
    }
    if inside.other is not None:
        out["second_equilibrium"] = {
            "alpha": fraction_str(inside.samples[-1]),
            "ponte": [fraction_str(x) for x in inside.other[0]],
            "banker": [fraction_str(x) for x in inside.other[1]],
        }
    if inside.why:
        out["why"] = inside.why
    return out


def junction_words(j: Junction) -> str:
    """What happens at a breakpoint, in words."""
    if not j.equilibria:
        return "CHECK FAILED: a neighbour's limit is not an equilibrium there"
    if j.unique:
        return "both neighbours meet in one equilibrium"
    if j.same_ponte:
        return (
            "the ponte's strategy is continuous, the banker's jumps: every banker strategy between the two limits "
            "is an equilibrium there (not unique)"
        )
    return "the two limits are different equilibria there (not unique)"


def sweep_text(sweep: CommissionSweep, digits: int | None = None) -> str:
    """The pieces of the equilibrium over the range, one block each, with what happens at each breakpoint."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    g = sweep.game
    pkeys = [format_infoset(k) for k in g.ponte_sets]
    bkeys = [format_infoset(k) for k in g.banker_sets]
    title = (
        f"Chemin de fer, {shoe_words(g.shoe)}, model {g.model.label(g.shoe)}: the equilibrium for every commission α "
        f"from {fraction_str(sweep.lo)} to {fraction_str(sweep.hi)} (exact; functions of α written in alpha)"
    )
    lines = [
        *textwrap.wrap(title, TEXT_WIDTH),
        f"  {len(sweep.pieces)} piece{'s' if len(sweep.pieces) != 1 else ''}, "
        f"{len(sweep.breakpoints)} breakpoint{'s' if len(sweep.breakpoints) != 1 else ''}; "
        f"{sweep.solves} exact solve{'s' if sweep.solves != 1 else ''}",
    ]
    joins = junctions(sweep)
    prev = None
    for k, piece in enumerate(sweep.pieces):
        lines.append("")
        lines.append(f"  piece {k + 1}: {_ends(piece, d)}   ({_unique_words(piece.unique)} at α = {fraction_str(piece.sample)})")
        lines.append(f"    {inside_words(sweep.inside[k], d)}")
        for key, f in zip(pkeys, piece.ponte):
            lines.append(f"    ponte at {key}: draws with probability {f.text()}")
        mixed = [(k2, p) for k2, p in zip(bkeys, piece.banker) if 0 < p < 1]
        lines.append(
            "    banker mixes: "
            + (", ".join(f"{c} with probability {fraction_str(p)}" for c, p in mixed) or "nowhere")
            + f"; draws in {sum(1 for p in piece.banker if p == 1)} sets, stands in the rest"
        )
        changed = _changes(prev, piece, bkeys)
        if changed:
            lines.append("    changed from the piece before: " + ", ".join(changed))
        lines.append(f"    banker's payoff (net of commission): {piece.banker_payoff.text()}")
        lines.append(f"    ponte's payoff: {piece.ponte_payoff.text()}")
        if k < len(joins):
            j = joins[k]
            lines.append("")
            lines.append(f"  breakpoint α = {j.at.text()} ≈ {j.at.decimal(d)}: {junction_words(j)}")
        prev = piece
    for lo, hi in sweep.overlaps:
        lines.append(f"  two forms hold at once for {lo.decimal(d)} ≤ α ≤ {hi.decimal(d)}: the equilibrium is not unique there")
    return "\n".join(lines)


def algebraic_dict(x: Algebraic, digits: int = BREAKPOINT_DIGITS) -> dict[str, object]:
    """An exact algebraic number as JSON: its text, a decimal, and its polynomial and root (for programs)."""
    return {"exact": x.text(), "decimal": x.decimal(digits), "polynomial": [str(c) for c in x.poly], "root": x.index}


def function_dict(f: RationalFunction) -> dict[str, object]:
    """A rational function of α as JSON: its text in ``alpha``, and its coefficients lowest degree first."""
    return {
        "text": f.text(),
        "numerator": [fraction_str(c) for c in f.numerator],
        "denominator": [fraction_str(c) for c in f.denominator],
    }


def sweep_dict(sweep: CommissionSweep, digits: int | None = None) -> dict[str, object]:
    """JSON-ready: every piece with its exact formulas, every breakpoint with its checks."""
    g = sweep.game
    pkeys = [format_infoset(k) for k in g.ponte_sets]
    bkeys = [format_infoset(k) for k in g.banker_sets]
    out: dict[str, object] = {
        "game": "chemin de fer",
        "shoe": g.shoe.spec(),
        "model": {
            "name": g.model.name(g.shoe),
            "dealing": "A" if g.shoe.is_infinite else "B",
            "information": int(g.model.information),
            "freedom": g.model.sheet,
        },
        "commission": {"from": fraction_str(sweep.lo), "to": fraction_str(sweep.hi)},
        "pieces": [
            {
                "from": algebraic_dict(p.lo),
                "to": algebraic_dict(p.hi),
                "open_from": p.open_lo,
                "open_to": p.open_hi,
                "sample": fraction_str(p.sample),
                "unique_at_sample": p.unique,
                "unique_inside": inside.unique,
                "unique_inside_proof": inside_dict(inside),
                "ponte": {k: function_dict(f) for k, f in zip(pkeys, p.ponte)},
                "banker": {k: fraction_str(v) for k, v in zip(bkeys, p.banker)},
                "mixed_ponte": list(p.mixed_ponte),
                "mixed_banker": list(p.mixed_banker),
                "banker_payoff": function_dict(p.banker_payoff),
                "ponte_payoff": function_dict(p.ponte_payoff),
            }
            for p, inside in zip(sweep.pieces, sweep.inside)
        ],
        "breakpoints": [
            {
                "alpha": algebraic_dict(j.at),
                "equilibria": j.equilibria,
                "unique": j.unique,
                "same_ponte": j.same_ponte,
                "same_banker": j.same_banker,
                "same_banker_payoff": j.same_banker_payoff,
                "same_ponte_payoff": j.same_ponte_payoff,
            }
            for j in junctions(sweep)
        ],
        "overlaps": [[algebraic_dict(a), algebraic_dict(b)] for a, b in sweep.overlaps],
        "solves": sweep.solves,
        "method": "exact solves at rational commissions; each equilibrium's form continued in alpha by Cramer's rule, "
        "its interval from the exact real roots of its conditions",
    }
    if digits is not None:
        for piece, record in zip(sweep.pieces, out["pieces"]):  # type: ignore[call-overload]
            record["banker_payoff_at_ends"] = [
                _decimal_at(piece.banker_payoff, piece.lo, digits),
                _decimal_at(piece.banker_payoff, piece.hi, digits),
            ]
    return out


def _decimal_at(f: RationalFunction, x: Algebraic, digits: int) -> str:
    """f at an algebraic x, rounded (exactly at a rational; through a narrow rational bracket otherwise)."""
    if x.is_rational:
        return decimal_str(f.at(x.value), digits)
    lo, hi = x.approximations(Fraction(1, 10 ** (digits + 12)))
    return decimal_str(f.at((lo + hi) / 2), digits)


def _tex_function(f: RationalFunction) -> str:
    import sympy

    latex: str = sympy.latex(f.sympy())
    return "$" + latex + "$"


def sweep_latex(sweep: CommissionSweep, digits: int, command: str) -> str:
    """One table: each piece's interval, the ponte's mixed probabilities and the banker's mixed cells as
    functions of α, and the banker's payoff at the piece's ends."""
    import sympy

    g = sweep.game
    pkeys = [format_infoset(k) for k in g.ponte_sets]
    bkeys = [format_infoset(k) for k in g.banker_sets]
    body = []
    for p in sweep.pieces:
        ponte = "; ".join(f"{escape(k)}: {_tex_function(f)}" for k, f in zip(pkeys, p.ponte) if k in p.mixed_ponte) or "; ".join(
            f"{escape(k)}: {'D' if f.at(p.sample) == 1 else 'S'}" for k, f in zip(pkeys, p.ponte)
        )
        banker = "; ".join(f"{escape(k)}: ${fraction_str(v)}$" for k, v in zip(bkeys, p.banker) if 0 < v < 1) or "pure"
        ends = [f"${sympy.latex(p.lo.sympy())}$", f"${sympy.latex(p.hi.sympy())}$"]
        body.append(
            [*ends, ponte, banker, _minus_percent(p.banker_payoff, p.lo, digits), _minus_percent(p.banker_payoff, p.hi, digits)]
        )
    caption = (
        f"Chemin de fer, {shoe_tex(g.shoe)}, model {escape(g.model.label(g.shoe))}: the equilibrium for every "
        f"commission $\\alpha$ from ${fraction_str(sweep.lo)}$ to ${fraction_str(sweep.hi)}$, piece by piece. Ends are "
        "exact (algebraic where irrational); the ponte's mixed probabilities of drawing at 5 are exact functions of "
        "$\\alpha$; the banker's mixed cells keep their probabilities on a piece. Banker's net payoff at the ends in "
        f"\\% ({rounding(digits)}). "
        + " ".join(f"At $\\alpha \\approx {j.at.decimal(digits)}$: {escape(junction_words(j))}." for j in junctions(sweep))
        + " "
        + " ".join(f"Piece {k + 1}: {inside_words(inside, digits, tex=True)}." for k, inside in enumerate(sweep.inside))
    )
    head = [["from", "to", "ponte draws at 5", "banker mixes", "banker \\% at from", "at to"]]
    return table(
        caption=caption,
        label="tab:commission-sweep",
        colspec="p{2.6cm}p{2.6cm}p{3.6cm}p{2.6cm}rr",
        head=head,
        body=body,
        command=command,
    )


def _minus_percent(f: RationalFunction, x: Algebraic, digits: int) -> str:
    value = _decimal_at(RationalFunction(tuple(100 * c for c in f.numerator), f.denominator), x, digits)
    return "$-$" + value[1:] if value.startswith("-") else value


# -- the paper's commission tables ----------------------------------------------------------------------


def commission_payoffs_table(solutions: Sequence[Solution], digits: int, command: str) -> str:
    """Both sides' payoffs at equilibrium (\\%; the banker's net of commission), by freedom, shoe and information."""
    from solver.report.paper import by_shoe, commission_words, models_caption

    head = [["Freedom", "Shoe", *(who for _ in (1, 2, 3) for who in ("banker", "ponte"))]]
    body: list[list[str]] = []
    starts: list[int] = []
    for freedom in ("casino", "parlor"):
        starts.append(len(body))
        for k, (shoe, models) in enumerate(by_shoe(solutions)):
            row = [freedom if k == 0 else "", shoe_tex(shoe)]
            for i in (1, 2, 3):
                s = models.get((freedom, i))
                row += ["--", "--"] if s is None else [tex_percent(s.banker_payoff, digits), tex_percent(s.ponte_payoff, digits)]
            body.append(row)
    caption = (
        f"Chemin de fer, {commission_words(solutions)}: each side's expected payoff per coup at equilibrium, in \\% of "
        "the stake (the banker's net of the commission), by freedom, shoe and information model "
        f"({rounding(digits)}). Every equilibrium is certified exactly (each decision a best reply to the other side's)."
    )
    groups = [("", 2), *((f"information {i}", 2) for i in (1, 2, 3))]
    return table(
        caption=caption,
        label="tab:chemin-payoffs-commission",
        colspec="ll" + "r" * 6,
        head=head,
        body=body,
        command=command,
        groups=groups,
        note=models_caption(),
        rules_before=starts,
    )


COMMISSION_TABLE_NAMES: tuple[str, ...] = (
    "chemin-payoffs-commission",
    "chemin-ponte-casino-commission",
    "chemin-ponte-parlor-commission",
    *(f"chemin-banker-{f}-{i}-commission" for f in ("casino", "parlor") for i in (1, 2, 3)),
)
"""The files :func:`commission_tables` makes (without ``.tex``), in the order docs/report.tex inputs them."""


def commission_tables(solutions: Sequence[Solution], digits: int, command: str) -> dict[str, str]:
    """The commission game's tables beside the zero-sum ones: both sides' payoffs, and both sides'
    equilibrium strategies by shoe and model (``{file name without .tex: LaTeX}``).

    The strategy tables are the zero-sum game's (:mod:`solver.report.paper`) on the commission
    game's solutions, labelled apart (``tab:...-commission``) and saying "equilibrium" for "optimal".
    """
    from solver.report.paper import chemin_banker_table, chemin_ponte_table

    def apart(text: str, label: str) -> str:
        marked = text.replace(f"\\label{{{label}}}", f"\\label{{{label}-commission}}", 1)
        assert marked != text
        return marked.replace("'s optimal ", "'s equilibrium ", 1)

    out = {"chemin-payoffs-commission": commission_payoffs_table(solutions, digits, command)}
    for freedom in ("casino", "parlor"):
        out[f"chemin-ponte-{freedom}-commission"] = apart(
            chemin_ponte_table(solutions, freedom, digits, command), f"tab:chemin-ponte-{freedom}"
        )
    for freedom in ("casino", "parlor"):
        for information in (1, 2, 3):
            table_text = chemin_banker_table(solutions, freedom, information, digits, command)
            out[f"chemin-banker-{freedom}-{information}-commission"] = apart(
                table_text, f"tab:chemin-banker-{freedom}-{information}"
            )
    assert tuple(out) == COMMISSION_TABLE_NAMES
    return out
