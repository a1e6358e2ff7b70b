"""The par sheet as a LaTeX document for pdflatex (:func:`parsheet_tex`): booktabs tables set where they
stand (``[H]``, the ``float`` package), so that no table is split across pages or leaves its section;
each wager on a page of its own. The numbers are :mod:`solver.report.parsheet`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.analysis.dealt_game import DealtGame
from solver.analysis.parsheet import HANDS, LEVELS, ParSheet, Wager, z_value
from solver.report import percent_str
from solver.report.latex import FLOAT_SETTINGS, escape, generated_comment, rounding, table, tex_decimal, tex_fraction
from solver.report.parsheet import DIGITS, HOLD_FORMULA_TEX, SOURCES, comparison_rows, percent_digits
from solver.rules.tableau import SEEN_LABELS
from solver.version import __version__

PACKAGES = ("booktabs", "float")
"""The par sheet's LaTeX packages beyond the kernel's: booktabs rules, and ``float`` for tables set where
they stand (``[H]``), so no table leaves its section and none is split."""


UNICODE_TEX = {
    "±": r"$\pm$",
    "×": r"$\times$",
    "−": "$-$",
    "√": r"$\surd$",
    "≥": r"$\geq$",
    "≤": r"$\leq$",
    "·": r"$\cdot$",
    "σ": r"$\sigma$",
}
"""Characters a user's bet file may hold that pdflatex's text fonts lack, as LaTeX."""


def tex_text(text: str) -> str:
    """Plain text for the document: LaTeX's special characters escaped, and :data:`UNICODE_TEX` replaced."""
    return "".join(UNICODE_TEX.get(ch, ch) for ch in escape(text))


def tex_level(level: object) -> str:
    """``95\\,\\%`` for 95/100."""
    return percent_str(level, 0) + r"\,\%"  # type: ignore[arg-type]


def _num(n: int) -> str:
    return f"{n:,}".replace(",", "{,}")


def _tex_table(**kw: object) -> str:
    return table(placement="H", **kw)  # type: ignore[arg-type]


def _rules_tables(s: ParSheet, key: str, command: str) -> tuple[str, str]:
    r = s.rules
    t = r.tableau
    rules = [
        ["Game", "punto banco"],
        ["Shoe", tex_text(f"{r.shoe.label()} ({r.shoe.size} cards)") if not r.shoe.is_infinite else r"infinite deck"],
        ["Commission on Banker wins", tex_fraction(r.commission)],
        ["Drawing tableau", tex_text(r.tableau_name)],
        ["Player's rule", player_rule(t)],
        ["Cut card", tex_text(f"{r.cut} cards from the end")],
        ["Burn", tex_text(r.burn)],
        ["Version", tex_text(f"baccarat {__version__}")],
        ["Input digest (SHA-256)", r"\texttt{" + s.digest[:32] + r"}\\ & \texttt{" + s.digest[32:] + "}"],
    ]
    out = [
        _tex_table(
            size=r"\footnotesize",
            caption=f"Rules and provenance, {tex_text(r.label())}",
            label=f"tab:{key}-rules",
            colspec="ll",
            head=[["Item", "Value"]],
            body=rules,
            command=command,
        )
    ]
    out.append(
        _tex_table(
            caption="The banker's rule: D draws, S stands; his two-card total down, the player's third card across "
            "(S: the player stood)",
            label=f"tab:{key}-banker",
            colspec="l" + "c" * len(SEEN_LABELS),
            head=[["Banker", *SEEN_LABELS]],
            body=[[str(k), *(a.value for a in row)] for k, row in enumerate(t.banker)],
            groups=[("", 1), ("player's third card", len(SEEN_LABELS))],
            command=command,
            size=r"\footnotesize",
        )
    )
    return out[0], out[1]


def player_rule(t: object) -> str:
    """``draws on 0-5, stands on 6-7`` (two-card totals; 8 and 9 are naturals)."""
    from solver.rules.tableau import Action

    player = t.player  # type: ignore[attr-defined]
    draws = [str(k) for k, a in enumerate(player) if a is Action.DRAW]
    stands = [str(k) for k, a in enumerate(player) if a is Action.STAND]
    return f"draws on {', '.join(draws) or 'none'}; stands on {', '.join(stands) or 'none'}; 8, 9 naturals"


def _summary_table(s: ParSheet, key: str, command: str, digits: int) -> str:
    p = percent_digits(digits)
    body = [
        [
            tex_text(w.name),
            tex_percent_str(w.edge, p),
            tex_percent_str(w.edge_resolved, p) if w.edge_resolved is not None else "same",
            tex_percent_str(w.hit_frequency, p),
            w.sd(digits),
            w.volatility_index(LEVELS[1], digits),
        ]
        for w in s.wagers
    ]
    return _tex_table(
        caption=f"Summary, {tex_text(s.rules.label())}",
        label=f"tab:{key}-summary",
        colspec="lrrrrr",
        head=[["Wager", r"Edge (\%)", r"Per resolved (\%)", r"Hit freq.\ (\%)", "SD", r"VI 95\,\%"]],
        body=body,
        command=command,
        note=f"Edges and hit frequency {rounding(p)}; SD and VI rounded from 60-digit values computed from the exact variance.",
    )


def tex_percent_str(x: object, digits: int) -> str:
    return tex_decimal(x * 100, digits)  # type: ignore[operator]


def _wager_tables(w: Wager, key: str, command: str, digits: int) -> list[str]:
    p = percent_digits(digits)
    body = [
        [
            tex_text(x.label),
            tex_fraction(x.pays),
            _num(x.combinations),
            tex_fraction(x.probability),
            tex_decimal(x.probability, digits),
            tex_decimal(x.ret, digits),
        ]
        for x in w.lines
    ]
    body.append([r"\textit{total}", "", _num(w.total), "1", tex_decimal(1, digits), tex_decimal(w.ev, digits)])
    pay = _tex_table(
        caption=f"Pay table of {tex_text(w.name)}: combinations out of {_num(w.total)} {tex_text(w.sequences)}",
        label=f"tab:{key}-pay",
        colspec="p{3.6cm}rrrrr",
        head=[["Line", "Pays", "Combinations", "Probability (exact)", "Probability", "Return"]],
        body=body,
        command=command,
        size=r"\footnotesize",
        rules_before=[len(w.lines)],
        note=f"Pays: net, to 1 (0 a push, $-$1 the stake lost). Return: pays $\\times$ probability. Decimals {rounding(digits)}.",
    )
    resolved = w.edge_resolved
    rows = [
        ["Total return (expected net result per unit)", tex_fraction(w.ev), tex_decimal(w.ev, digits)],
        ["Return to player (stake included)", tex_fraction(w.return_to_player), tex_decimal(w.return_to_player, digits)],
        [r"House edge per hand (\%)", tex_fraction(w.edge), tex_percent_str(w.edge, p)],
        [
            r"House edge per resolved wager (\%)",
            tex_fraction(resolved) if resolved is not None else "same",
            tex_percent_str(resolved, p) if resolved is not None else "",
        ],
        [r"Hit frequency (\%)", tex_fraction(w.hit_frequency), tex_percent_str(w.hit_frequency, p)],
        ["Variance per hand", tex_fraction(w.variance), tex_decimal(w.variance, digits)],
        ["Standard deviation per hand", "", w.sd(digits)],
        *(["Volatility index, " + tex_level(c), "", w.volatility_index(c, digits)] for c in LEVELS),
    ]
    summary = _tex_table(
        caption=f"Return, house edge and volatility of {tex_text(w.name)}",
        label=f"tab:{key}-stats",
        colspec="lrr",
        head=[["", "Exact", "Decimal"]],
        body=rows,
        command=command,
        size=r"\footnotesize",
        note="Standard deviation and volatility index (VI $= z\\sigma$) rounded from 60-digit values computed from the "
        "exact variance; " + ", ".join(f"$z_{{{percent_str(c, 0)}}} = {z_value(c, 4)}$" for c in LEVELS) + ".",
    )
    hold = [
        [_num(n), *(f"{tex_decimal_str(lo)} to {tex_decimal_str(hi)}" for lo, hi in (w.hold_range(c, n, p) for c in LEVELS))]
        for n in HANDS
    ]
    holds = _tex_table(
        caption=f"Range of the house's hold on {tex_text(w.name)}, in \\% of the amount wagered",
        label=f"tab:{key}-hold",
        colspec="rrrr",
        head=[["Hands", *(tex_level(c) for c in LEVELS)]],
        body=hold,
        command=command,
        size=r"\footnotesize",
        note=HOLD_FORMULA_TEX + f"; hands independent. Ends rounded to {p} places.",
    )
    return [pay, summary, holds]


def tex_decimal_str(s: str) -> str:
    return "$-$" + s[1:] if s.startswith("-") else s


def _dealt_tables(d: DealtGame, key: str, command: str, digits: int) -> list[str]:
    p = percent_digits(digits)
    body = [
        [
            tex_text(w.name),
            tex_percent_str(w.first_coup_edge, p),
            tex_decimal_str(f"{100 * w.whole_shoe_edge:.{p}f}") + f" $\\pm$ {100 * w.whole_shoe_se:.{p}f}",
            tex_decimal_str(f"{100 * w.effect:+.{p}f}"),
            tex_text(w.source),
        ]
        for w in d.wagers
    ]
    notes = " ".join(tex_text(f"{n}: not dealt ({why}).") for n, why in d.not_dealt)
    edges = _tex_table(
        caption=r"The dealt game: house edge on the whole shoe against the first coup (ESTIMATES)",
        label=f"tab:{key}-dealt",
        colspec="lrrrl",
        head=[["Wager", r"First coup (exact, \%)", r"Whole shoe (\%) $\pm$ SE", r"Cut-card effect (\%)", "From"]],
        body=body,
        command=command,
        size=r"\footnotesize",
        note=tex_text(d.method + ". " + SOURCES) + " " + notes,
    )
    rows = [[tex_text(t.name), f"{t.statistic:.3f}", f"{t.p_value:.3g}", "reject" if t.rejected else "pass"] for t in d.tests]
    check = _tex_table(
        caption=f"Simulation check of the exact figures at false-alarm rate {tex_fraction(d.alpha)}: "
        f"{tex_text(d.verdict)} (ESTIMATES)",
        label=f"tab:{key}-check",
        colspec="lrrl",
        head=[["Test", "Statistic", "$p$", "Result"]],
        body=rows,
        command=command,
        size=r"\footnotesize",
        note=f"Each test at rate {d.tests[0].alpha:.3g} (Bonferroni); the cross-check (solver.crosscheck) holds the "
        "first coup of every shoe to the exact law and the shoes' cards to the laws of whole shoes."
        if d.tests
        else "",
    )
    return [edges, check]


def comparison_tex(sheets: Sequence[ParSheet], command: str, digits: int = DIGITS) -> str:
    """The comparison across games (deck counts, commissions), one table on one page."""
    games, rows = comparison_rows(sheets, digits)
    body = [
        [tex_text(w) if k % 5 == 0 else "", tex_text(m), *(tex_decimal_str(v) for v in vals)]
        for k, (w, m, vals) in enumerate(rows)
    ]
    return _tex_table(
        caption="Comparison of the games",
        label="tab:comparison",
        colspec="ll" + "r" * len(games),
        head=[["Wager", "", *(tex_text(g) for g in games)]],
        body=body,
        command=command,
        size=r"\footnotesize",
        rules_before=range(5, len(rows), 5),
        note=f"Rounded from the exact values (percentages {rounding(percent_digits(digits))}); SD and VI from the "
        "exact variance.",
    )


def parsheet_tex(sheets: Sequence[ParSheet], command: str, digits: int = DIGITS) -> str:
    """The par sheet document (one part per game, then the comparison when there are several games), for pdflatex."""
    parts = []
    for g, s in enumerate(sheets):
        key = f"g{g + 1}"
        parts.append(f"\\section{{{tex_text(s.rules.label())}}}")
        typed = tex_text(s.command or command).replace("-", "-{}")  # no -- ligature in the typewriter font
        parts.append(f"\\subsection{{Rules}}\nProduced by \\texttt{{{typed}}}. {tex_text('Exact: ' + s.method)}.\n")
        rules, tableau = _rules_tables(s, key, command)
        parts += [rules, _summary_table(s, key, command, digits), tableau]
        for k, w in enumerate(s.wagers):
            parts.append(f"\\clearpage\n\\subsection{{Wager: {tex_text(w.name)}}}\n{tex_text(w.description)}.\n")
            parts += _wager_tables(w, f"{key}-w{k + 1}", command, digits)
        if s.dealt is not None:
            parts.append("\\clearpage\n\\subsection{The dealt game and the simulation check (ESTIMATES)}\n")
            parts += _dealt_tables(s.dealt, key, command, digits)
        parts += [tex_text(n) for n in s.notes]
        parts.append("\\clearpage")
    if len(sheets) > 1:
        parts.append("\\section{Comparison}\n")
        parts.append(comparison_tex(sheets, command, digits))
    title = "Par sheet: punto banco"
    pre = [
        generated_comment(command).rstrip("\n"),
        r"\documentclass[10pt]{article}",
        r"\usepackage[T1]{fontenc}",
        r"\usepackage{lmodern}",
        r"\usepackage[margin=2cm]{geometry}",
        *(f"\\usepackage{{{p}}}" for p in PACKAGES),
        FLOAT_SETTINGS,
        r"\begin{document}",
        f"\\title{{{title}}}\\author{{baccarat {tex_text(__version__)}}}\\date{{}}\\maketitle",
    ]
    return "\n".join(pre) + "\n\n" + "\n".join(parts) + "\n\\end{document}\n"
