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

from solver.analysis.dealt_game import DealtGame
from solver.analysis.parsheet import HANDS, LEVELS, ParSheet, Wager, z_value
from solver.report import decimal_str, fraction_str, percent_str
from solver.rules.tableau import SEEN_LABELS
from solver.version import __version__

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


def percent_digits(digits: int) -> int:
    """Decimal places of percentages when other decimals have ``digits``: two fewer."""
    return max(digits - 2, 0)


def level_label(level: object) -> str:
    """``95 %`` for 95/100."""
    return f"{percent_str(level, 0)} %"  # type: ignore[arg-type]


# -- JSON -------------------------------------------------------------------------------------------------


def wager_dict(w: Wager, digits: int = DIGITS) -> dict[str, object]:
    """One wager's numbers: exact strings, with ``*_decimal`` companions and the rounded irrational ones."""
    p = percent_digits(digits)
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
        "hold_range_percent_rounded": {level_label(c): {str(n): list(w.hold_range(c, n, p)) for n in HANDS} for c in LEVELS},
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
        "version": __version__,
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
    p = percent_digits(digits)
    rows: list[tuple[str, ...]] = [
        (game, "", "rules", "tableau", s.rules.tableau_name, ""),
        (game, "", "rules", "commission", fraction_str(s.rules.commission), ""),
        (game, "", "rules", "cut", str(s.rules.cut), ""),
        (game, "", "rules", "burn", s.rules.burn, ""),
        (game, "", "provenance", "version", __version__, ""),
        (game, "", "provenance", "input digest", s.digest, ""),
    ]
    for w in s.wagers:
        n = w.name
        rows.append((game, n, "pay table", "total combinations", str(w.total), ""))
        for line in w.lines:
            rows += [
                (game, n, "pay table", f"{line.label}: pays", fraction_str(line.pays), ""),
                (game, n, "pay table", f"{line.label}: combinations", str(line.combinations), ""),
                (
                    game,
                    n,
                    "pay table",
                    f"{line.label}: probability",
                    fraction_str(line.probability),
                    decimal_str(line.probability, digits),
                ),
                (game, n, "pay table", f"{line.label}: return", fraction_str(line.ret), decimal_str(line.ret, digits)),
            ]
        rows += [
            (game, n, "summary", "total return", fraction_str(w.ev), decimal_str(w.ev, digits)),
            (game, n, "summary", "house edge per hand (%)", fraction_str(w.edge), percent_str(w.edge, p)),
        ]
        if w.edge_resolved is not None:
            rows.append(
                (
                    game,
                    n,
                    "summary",
                    "house edge per resolved wager (%)",
                    fraction_str(w.edge_resolved),
                    percent_str(w.edge_resolved, p),
                )
            )
        rows += [
            (game, n, "summary", "hit frequency (%)", fraction_str(w.hit_frequency), percent_str(w.hit_frequency, p)),
            (game, n, "summary", "variance", fraction_str(w.variance), decimal_str(w.variance, digits)),
            (game, n, "summary", "standard deviation (rounded)", "", w.sd(digits)),
        ]
        rows += [
            (game, n, "summary", f"volatility index {level_label(c)} (rounded)", "", w.volatility_index(c, digits))
            for c in LEVELS
        ]
        for c in LEVELS:
            for hands in HANDS:
                lo, hi = w.hold_range(c, hands, p)
                rows.append((game, n, "hold range", f"{level_label(c)}, {hands} hands, low (%, rounded)", "", lo))
                rows.append((game, n, "hold range", f"{level_label(c)}, {hands} hands, high (%, rounded)", "", hi))
    if s.dealt is not None:
        for d in s.dealt.wagers:
            rows += [
                (
                    game,
                    d.name,
                    "dealt game (estimate)",
                    "first-coup edge (%)",
                    fraction_str(d.first_coup_edge),
                    percent_str(d.first_coup_edge, p),
                ),
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
    p = percent_digits(digits)
    lines = [f"{w.name}: {w.description}", f"  combinations: {w.sequences}, out of {w.total:,}"]
    rows = [
        (
            x.label,
            fraction_str(x.pays),
            f"{x.combinations:,}",
            fraction_str(x.probability),
            decimal_str(x.probability, digits),
            decimal_str(x.ret, digits),
        )
        for x in w.lines
    ]
    rows.append(("total", "", f"{w.total:,}", "1", decimal_str(1, digits), decimal_str(w.ev, digits)))
    lines += _table_text(("line", "pays", "combinations", "probability", "decimal", "return"), rows, left=1)
    resolved = w.edge_resolved
    summary = [
        ("total return", fraction_str(w.ev), decimal_str(w.ev, digits)),
        ("house edge per hand (%)", fraction_str(w.edge), percent_str(w.edge, p)),
        (
            "house edge per resolved wager (%)",
            fraction_str(resolved) if resolved is not None else "same",
            percent_str(resolved, p) if resolved is not None else "",
        ),
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
    p = percent_digits(digits)
    lines = [f"The dealt game: {ESTIMATES}", f"  {d.method}"]
    rows = [
        (
            w.name,
            percent_str(w.first_coup_edge, p),
            f"{100 * w.whole_shoe_edge:.{p}f} ± {100 * w.whole_shoe_se:.{p}f}",
            f"{100 * w.effect:+.{p}f}",
            w.source,
        )
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
        f"  baccarat {__version__}; command: {s.command or '(Python)'}",
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
    p = percent_digits(digits)
    names = [w.name for w in sheets[0].wagers if all(any(x.name == w.name for x in s.wagers) for s in sheets)]
    out = []
    for n in names:
        ws = [s.wager(n) for s in sheets]
        out += [
            (n, "house edge per hand (%)", [percent_str(w.edge, p) for w in ws]),
            (
                n,
                "per resolved wager (%)",
                [percent_str(w.edge_resolved, p) if w.edge_resolved is not None else "same" for w in ws],
            ),
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
