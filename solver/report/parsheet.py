"""Renderers of :class:`~solver.analysis.parsheet.ParSheet`: text, JSON-ready dict, CSV rows, LaTeX.

Every exact number leaves here exact (combinations as integers, probabilities and returns as reduced
fractions) beside its decimal, rounded half to even from the exact value; the volatility index and
the hold ranges are irrational and are given rounded only (computed to 60 digits from the exact
variance, :mod:`solver.analysis.parsheet`). The dealt game's numbers are estimates and say so.

Decimals: probabilities, returns, the standard deviation and the volatility index to ``digits``
places (default :data:`DIGITS`); edges, the hit frequency and the hold ranges in % to ``digits − 2``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.analysis.parsheet import HANDS, LEVELS, DealtGame, ParSheet, Wager, z_value
from solver.report import decimal_str, fraction_str, percent_str
from solver.report.latex import FLOAT_SETTINGS, escape, generated_comment, rounding, table, tex_decimal, tex_fraction
from solver.rules.tableau import SEEN_LABELS

DIGITS = 6
"""Decimal places of probabilities, returns, SD and VI (percentages get two fewer)."""

HOLD_FORMULA = (
    "hold over n hands = edge ± VI/√n, VI = z·σ, z = Φ⁻¹((1 + c)/2): the normal approximation (central limit "
    "theorem) of slot and table-game par sheets (Kilby, Fox and Lucas, Casino Operations Management, 2nd ed., "
    "2005; Hannum and Cabot, Practical Casino Math, 2nd ed., 2005), from the exact variance"
)

HOLD_FORMULA_TEX = (
    r"Hold over $n$ hands $= \mathrm{edge} \pm \mathrm{VI}/\sqrt{n}$, $\mathrm{VI} = z\sigma$, $z = \Phi^{-1}((1 + c)/2)$: the "
    r"normal approximation (central limit theorem) of slot and table-game par sheets (Kilby, Fox and Lucas, "
    r"\emph{Casino Operations Management}, 2nd ed., 2005; Hannum and Cabot, \emph{Practical Casino Math}, 2nd ed., "
    r"2005), from the exact variance"
)
"""The same in LaTeX."""

SOURCES = (
    "From: simulator, the wager settled at every coup dealt (the ratio estimator over shoes, Cochran's standard "
    "error); counting study, the wager's exact edge on the unseen cards at every coup dealt, averaged"
)

ESTIMATES = "ESTIMATES from dealt shoes, with standard errors (SE)"


def _pct(digits: int) -> int:
    return max(digits - 2, 0)


def level_label(level: object) -> str:
    """``95 %`` for 95/100."""
    return f"{percent_str(level, 0)} %"  # type: ignore[arg-type]


# -- JSON -------------------------------------------------------------------------------------------------


def wager_dict(w: Wager, digits: int = DIGITS) -> dict[str, object]:
    """One wager's numbers: exact strings, with ``*_decimal`` companions and the rounded irrational ones."""
    p = _pct(digits)
    resolved = w.edge_resolved
    return {
        "name": w.name,
        "description": w.description,
        "total": str(w.total),
        "sequences": w.sequences,
        "lines": [
            {
                "label": line.label,
                "pays": fraction_str(line.pays),
                "combinations": str(line.combinations),
                "probability": fraction_str(line.probability),
                "probability_decimal": decimal_str(line.probability, digits),
                "return": fraction_str(line.ret),
                "return_decimal": decimal_str(line.ret, digits),
            }
            for line in w.lines
        ],
        "total_return": fraction_str(w.ev),
        "return_to_player": fraction_str(w.return_to_player),
        "edge": fraction_str(w.edge),
        "edge_percent": percent_str(w.edge, p),
        "edge_resolved": fraction_str(resolved) if resolved is not None else None,
        "edge_resolved_percent": percent_str(resolved, p) if resolved is not None else None,
        "hit_frequency": fraction_str(w.hit_frequency),
        "hit_frequency_percent": percent_str(w.hit_frequency, p),
        "push": fraction_str(w.push),
        "variance": fraction_str(w.variance),
        "sd_rounded": w.sd(digits),
        "volatility_index_rounded": {level_label(c): w.volatility_index(c, digits) for c in LEVELS},
        "hold_range_percent_rounded": {
            level_label(c): {str(n): list(w.hold_range(c, n, p)) for n in HANDS} for c in LEVELS
        },
    }


def dealt_dict(d: DealtGame) -> dict[str, object]:
    """The dealt game's estimates (floats, each with its standard error) and the check's verdict."""
    return {
        "estimates": True,
        "method": d.method,
        "coups": d.coups,
        "shoes": d.shoes,
        "seed": d.seed,
        "study_coups": d.study_coups,
        "study_shoes": d.study_shoes,
        "wagers": [
            {
                "name": w.name,
                "first_coup_edge": fraction_str(w.first_coup_edge),
                "whole_shoe_edge": w.whole_shoe_edge,
                "whole_shoe_se": w.whole_shoe_se,
                "cut_card_effect": w.effect,
                "cut_card_effect_se": w.effect_se,
                "source": w.source,
            }
            for w in d.wagers
        ],
        "not_dealt": [{"name": n, "reason": r} for n, r in d.not_dealt],
        "check": {
            "alpha": fraction_str(d.alpha),
            "verdict": d.verdict,
            "passed": d.passed,
            "tests": [
                {"name": t.name, "statistic": t.statistic, "p_value": t.p_value, "alpha": t.alpha, "rejected": t.rejected}
                for t in d.tests
            ],
        },
    }


def parsheet_dict(s: ParSheet, digits: int = DIGITS) -> dict[str, object]:
    """JSON-ready dict of one game's par sheet."""
    r = s.rules
    t = r.tableau
    return {
        "document": "par sheet",
        "game": "punto banco",
        "shoe": r.shoe.spec(),
        "rules": {
            "tableau": r.tableau_name,
            "player": {str(k): a.name.lower() for k, a in enumerate(t.player)},
            "banker": {str(k): "".join(a.value for a in row) for k, row in enumerate(t.banker)},
            "commission": fraction_str(r.commission),
            "cut": r.cut,
            "burn": r.burn,
        },
        "version": s.version,
        "input_digest": s.digest,
        "exact": True,
        "method": s.method,
        "levels": [fraction_str(c) for c in LEVELS],
        "z_rounded": {level_label(c): z_value(c, digits) for c in LEVELS},
        "hands": list(HANDS),
        "hold_formula": HOLD_FORMULA,
        "wagers": [wager_dict(w, digits) for w in s.wagers],
        "dealt": dealt_dict(s.dealt) if s.dealt is not None else None,
        "notes": list(s.notes),
    }


# -- CSV --------------------------------------------------------------------------------------------------

CSV_HEADER = ("game", "wager", "section", "item", "exact", "decimal")


def parsheet_csv_rows(s: ParSheet, digits: int = DIGITS) -> list[tuple[str, ...]]:
    """Long-format rows ``game, wager, section, item, exact, decimal`` (exact empty where the number is
    irrational or an estimate; decimal rounded; percentages say so in the item)."""
    game = s.rules.label()
    p = _pct(digits)
    rows: list[tuple[str, ...]] = [
        (game, "", "rules", "tableau", s.rules.tableau_name, ""),
        (game, "", "rules", "commission", fraction_str(s.rules.commission), ""),
        (game, "", "rules", "cut", str(s.rules.cut), ""),
        (game, "", "rules", "burn", s.rules.burn, ""),
        (game, "", "provenance", "version", s.version, ""),
        (game, "", "provenance", "input digest", s.digest, ""),
    ]
    for w in s.wagers:
        n = w.name
        rows.append((game, n, "pay table", "total combinations", str(w.total), ""))
        for line in w.lines:
            rows += [
                (game, n, "pay table", f"{line.label}: pays", fraction_str(line.pays), ""),
                (game, n, "pay table", f"{line.label}: combinations", str(line.combinations), ""),
                (game, n, "pay table", f"{line.label}: probability", fraction_str(line.probability), decimal_str(line.probability, digits)),
                (game, n, "pay table", f"{line.label}: return", fraction_str(line.ret), decimal_str(line.ret, digits)),
            ]
        rows += [
            (game, n, "summary", "total return", fraction_str(w.ev), decimal_str(w.ev, digits)),
            (game, n, "summary", "house edge per hand (%)", fraction_str(w.edge), percent_str(w.edge, p)),
        ]
        if w.edge_resolved is not None:
            rows.append((game, n, "summary", "house edge per resolved wager (%)", fraction_str(w.edge_resolved), percent_str(w.edge_resolved, p)))
        rows += [
            (game, n, "summary", "hit frequency (%)", fraction_str(w.hit_frequency), percent_str(w.hit_frequency, p)),
            (game, n, "summary", "variance", fraction_str(w.variance), decimal_str(w.variance, digits)),
            (game, n, "summary", "standard deviation (rounded)", "", w.sd(digits)),
        ]
        rows += [(game, n, "summary", f"volatility index {level_label(c)} (rounded)", "", w.volatility_index(c, digits)) for c in LEVELS]
        for c in LEVELS:
            for hands in HANDS:
                lo, hi = w.hold_range(c, hands, p)
                rows.append((game, n, "hold range", f"{level_label(c)}, {hands} hands, low (%, rounded)", "", lo))
                rows.append((game, n, "hold range", f"{level_label(c)}, {hands} hands, high (%, rounded)", "", hi))
    if s.dealt is not None:
        for d in s.dealt.wagers:
            rows += [
                (game, d.name, "dealt game (estimate)", "first-coup edge (%)", fraction_str(d.first_coup_edge), percent_str(d.first_coup_edge, p)),
                (game, d.name, "dealt game (estimate)", "whole-shoe edge (%)", "", f"{100 * d.whole_shoe_edge:.{p}f}"),
                (game, d.name, "dealt game (estimate)", "whole-shoe edge SE (%)", "", f"{100 * d.whole_shoe_se:.{p}f}"),
                (game, d.name, "dealt game (estimate)", "cut-card effect (%)", "", f"{100 * d.effect:.{p}f}"),
            ]
        rows.append((game, "", "simulation check", "verdict", s.dealt.verdict, ""))
    return rows


# -- text -------------------------------------------------------------------------------------------------


def _table_text(head: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> list[str]:
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]

    def line(cells: Sequence[str]) -> str:
        return "  " + "  ".join(f"{c:<{w}}" if k < left else f"{c:>{w}}" for k, (c, w) in enumerate(zip(cells, widths)))

    return [line(head), "  " + "  ".join("-" * w for w in widths), *(line(r) for r in rows)]


def wager_text(w: Wager, digits: int = DIGITS) -> list[str]:
    """One wager's pay table, summary and hold ranges, as lines of text."""
    p = _pct(digits)
    lines = [f"{w.name}: {w.description}", f"  combinations: {w.sequences}, out of {w.total:,}"]
    rows = [
        (x.label, fraction_str(x.pays), f"{x.combinations:,}", fraction_str(x.probability), decimal_str(x.probability, digits), decimal_str(x.ret, digits))
        for x in w.lines
    ]
    rows.append(("total", "", f"{w.total:,}", "1", decimal_str(1, digits), decimal_str(w.ev, digits)))
    lines += _table_text(("line", "pays", "combinations", "probability", "decimal", "return"), rows, left=1)
    resolved = w.edge_resolved
    summary = [
        ("total return", fraction_str(w.ev), decimal_str(w.ev, digits)),
        ("house edge per hand (%)", fraction_str(w.edge), percent_str(w.edge, p)),
        ("house edge per resolved wager (%)", fraction_str(resolved) if resolved is not None else "same", percent_str(resolved, p) if resolved is not None else ""),
        ("hit frequency (%)", fraction_str(w.hit_frequency), percent_str(w.hit_frequency, p)),
        ("standard deviation (rounded)", "", w.sd(digits)),
        *((f"volatility index {level_label(c)} (rounded)", "", w.volatility_index(c, digits)) for c in LEVELS),
    ]
    lines += [""] + _table_text(("", "exact", "decimal"), summary)
    hold = [(f"{n:,}", *(" to ".join(w.hold_range(c, n, p)) for c in LEVELS)) for n in HANDS]
    lines += ["", "  the house's hold in % of the amount wagered (rounded):"]
    lines += _table_text(("hands", *(level_label(c) for c in LEVELS)), hold)
    return lines


def dealt_text(d: DealtGame, digits: int = DIGITS) -> list[str]:
    """The dealt game and the simulation check, as lines of text."""
    p = _pct(digits)
    lines = [f"The dealt game: {ESTIMATES}", f"  {d.method}"]
    rows = [
        (w.name, percent_str(w.first_coup_edge, p), f"{100 * w.whole_shoe_edge:.{p}f} ± {100 * w.whole_shoe_se:.{p}f}", f"{100 * w.effect:+.{p}f}", w.source)
        for w in d.wagers
    ]
    lines += _table_text(("wager", "first coup (exact, %)", "whole shoe (%, ± SE)", "cut-card effect (%)", "from"), rows)
    for name, why in d.not_dealt:
        lines.append(f"  {name}: not dealt ({why})")
    lines += ["", f"  simulation check at false-alarm rate {fraction_str(d.alpha)}: {d.verdict}"]
    rows = [(t.name, f"{t.statistic:.3f}", f"{t.p_value:.3g}", "reject" if t.rejected else "pass", t.detectable) for t in d.tests]
    lines += _table_text(("test", "statistic", "p", "result", "smallest deviation detected (power 0.8)"), rows)
    return lines


def tableau_text(s: ParSheet) -> list[str]:
    t = s.rules.tableau
    lines = ["  player: " + " ".join(f"{k}:{a.value}" for k, a in enumerate(t.player)), "  banker  " + " ".join(SEEN_LABELS)]
    return lines + [f"    {k}   " + " ".join(a.value for a in row) for k, row in enumerate(t.banker)]


def parsheet_text(s: ParSheet, digits: int = DIGITS) -> str:
    """The whole par sheet as a text report."""
    r = s.rules
    lines = [
        f"Par sheet: punto banco, {r.label()}",
        f"  shoe: {r.shoe.label()} ({r.shoe.size} cards); tableau: {r.tableau_name} (D draw, S stand; banker: "
        "his total down, the player's third card across, S he stood)",
        *tableau_text(s),
        f"  commission on Banker wins: {fraction_str(r.commission)}; cut card {r.cut} cards from the end; burn: {r.burn}",
        f"  baccarat {s.version}; command: {s.command or '(Python)'}",
        f"  input digest (SHA-256): {s.digest}",
        f"  exact: {s.method}",
    ]
    for w in s.wagers:
        lines += [""] + wager_text(w, digits)
    lines += ["", f"Hold ranges: {HOLD_FORMULA}."]
    if s.dealt is not None:
        lines += [""] + dealt_text(s.dealt, digits)
    lines += list(s.notes)
    return "\n".join(lines)


def comparison_rows(sheets: Sequence[ParSheet], digits: int = DIGITS) -> tuple[list[str], list[tuple[str, str, list[str]]]]:
    """The comparison across games: the games' labels, and ``(wager, measure, one value per game)`` for
    the wagers every sheet has (edges and hit frequency in %, rounded)."""
    p = _pct(digits)
    names = [w.name for w in sheets[0].wagers if all(any(x.name == w.name for x in s.wagers) for s in sheets)]
    out = []
    for n in names:
        ws = [s.wager(n) for s in sheets]
        out += [
            (n, "house edge per hand (%)", [percent_str(w.edge, p) for w in ws]),
            (n, "per resolved wager (%)", [percent_str(w.edge_resolved, p) if w.edge_resolved is not None else "same" for w in ws]),
            (n, "hit frequency (%)", [percent_str(w.hit_frequency, p) for w in ws]),
            (n, "standard deviation", [w.sd(digits) for w in ws]),
            (n, "volatility index 95 %", [w.volatility_index(LEVELS[1], digits) for w in ws]),
        ]
    return [s.rules.label() for s in sheets], out


def comparison_text(sheets: Sequence[ParSheet], digits: int = DIGITS) -> str:
    """The comparison across games as text."""
    games, rows = comparison_rows(sheets, digits)
    body = [(w, m, *vals) for w, m, vals in rows]
    return "\n".join(["Comparison (rounded from the exact values)", *_table_text(("wager", "", *games), body, left=2)])


# -- LaTeX ------------------------------------------------------------------------------------------------

PACKAGES = ("booktabs", "float")
"""The par sheet's LaTeX packages beyond the kernel's: booktabs rules, and ``float`` for tables set where
they stand (``[H]``), so no table leaves its section and none is split."""


UNICODE_TEX = {"±": r"$\pm$", "×": r"$\times$", "−": "$-$", "√": r"$\surd$", "≥": r"$\geq$", "≤": r"$\leq$", "·": r"$\cdot$", "σ": r"$\sigma$"}
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
        ["Version", tex_text(f"baccarat {s.version}")],
        ["Input digest (SHA-256)", r"\texttt{" + s.digest[:32] + r"}\\ & \texttt{" + s.digest[32:] + "}"],
    ]
    out = [_tex_table(size=r"\footnotesize", caption=f"Rules and provenance, {tex_text(r.label())}", label=f"tab:{key}-rules", colspec="ll", head=[["Item", "Value"]], body=rules, command=command)]
    out.append(
        _tex_table(
            caption="The banker's rule: D draws, S stands; his two-card total down, the player's third card across (S: the player stood)",
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
    p = _pct(digits)
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
    p = _pct(digits)
    body = [
        [tex_text(x.label), tex_fraction(x.pays), _num(x.combinations), tex_fraction(x.probability), tex_decimal(x.probability, digits), tex_decimal(x.ret, digits)]
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
        [r"House edge per resolved wager (\%)", tex_fraction(resolved) if resolved is not None else "same", tex_percent_str(resolved, p) if resolved is not None else ""],
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
        note="Standard deviation and volatility index (VI $= z\\sigma$) rounded from 60-digit values computed from the exact variance; "
        + ", ".join(f"$z_{{{percent_str(c, 0)}}} = {z_value(c, 4)}$" for c in LEVELS)
        + ".",
    )
    hold = [[_num(n), *(f"{tex_decimal_str(lo)} to {tex_decimal_str(hi)}" for lo, hi in (w.hold_range(c, n, p) for c in LEVELS))] for n in HANDS]
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
    p = _pct(digits)
    body = [
        [tex_text(w.name), tex_percent_str(w.first_coup_edge, p), tex_decimal_str(f"{100 * w.whole_shoe_edge:.{p}f}") + f" $\\pm$ {100 * w.whole_shoe_se:.{p}f}", tex_decimal_str(f"{100 * w.effect:+.{p}f}"), tex_text(w.source)]
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
        caption=f"Simulation check of the exact figures at false-alarm rate {tex_fraction(d.alpha)}: {tex_text(d.verdict)} (ESTIMATES)",
        label=f"tab:{key}-check",
        colspec="lrrl",
        head=[["Test", "Statistic", "$p$", "Result"]],
        body=rows,
        command=command,
        size=r"\footnotesize",
        note=f"Each test at rate {d.tests[0].alpha:.3g} (Bonferroni); the cross-check (solver.crosscheck) holds the first coup of every shoe to the exact law and the shoes' cards to the laws of whole shoes."
        if d.tests
        else "",
    )
    return [edges, check]


def comparison_tex(sheets: Sequence[ParSheet], command: str, digits: int = DIGITS) -> str:
    """The comparison across games (deck counts, commissions), one table on one page."""
    games, rows = comparison_rows(sheets, digits)
    body = [[tex_text(w) if k % 5 == 0 else "", tex_text(m), *(tex_decimal_str(v) for v in vals)] for k, (w, m, vals) in enumerate(rows)]
    return _tex_table(
        caption="Comparison of the games",
        label="tab:comparison",
        colspec="ll" + "r" * len(games),
        head=[["Wager", "", *(tex_text(g) for g in games)]],
        body=body,
        command=command,
        size=r"\footnotesize",
        rules_before=range(5, len(rows), 5),
        note=f"Rounded from the exact values (percentages {rounding(_pct(digits))}); SD and VI from the exact variance.",
    )


def parsheet_tex(sheets: Sequence[ParSheet], command: str, digits: int = DIGITS) -> str:
    """The par sheet document (one part per game, then the comparison when there are several games), for pdflatex."""
    parts = []
    for g, s in enumerate(sheets):
        key = f"g{g + 1}"
        parts.append(f"\\section{{{tex_text(s.rules.label())}}}")
        parts.append(f"\\subsection{{Rules}}\nProduced by \\texttt{{{tex_text(s.command or command).replace("-", "-{{}}")}}}. {tex_text('Exact: ' + s.method)}.\n")
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
        f"\\title{{{title}}}\\author{{baccarat {tex_text(sheets[0].version)}}}\\date{{}}\\maketitle",
    ]
    return "\n".join(pre) + "\n\n" + "\n".join(parts) + "\n\\end{document}\n"
