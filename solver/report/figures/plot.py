"""The pieces every figure shares: the :class:`Figure` value, the deck-count axis, legends that cover no
curve, series that coincide named once, and the output (PDF and PNG through matplotlib's Agg backend, the
CSV, the LaTeX float).

matplotlib is imported only inside :func:`images` and the drawing helpers, so importing this module is cheap.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.cards import Shoe
from solver.report import decimal_str
from solver.report.latex import escape, generated_comment

WIDTH_IN, HEIGHT_IN = 6.4, 3.4
"""Figure size in inches (the text width of an A4 page with 2.5 cm margins is about 6.3 in)."""

PNG_DPI = 150
PDF_FONT_TYPE = 42
"""Fonts in the PDF and PostScript files: TrueType (Type 42), which submission checks accept (IEEE's PDF
eXpress and ACM's reject the Type 3 fonts matplotlib embeds by default)."""
HOLLOW_WORDS = ("the only optimal answer", "one of several optimal answers")
"""What a filled and a hollow point of :func:`plot_series` mean, as :func:`marker_handles` says in the legend."""
ROUNDED = 6
"""Decimal places of the rounded companion columns of the CSV files."""


@dataclass(frozen=True)
class Figure:
    """One figure: what it shows and the exact numbers it draws.

    Attributes:
        name: the file name without extension (``punto-edges``).
        caption: the caption, plain text (escaped for LaTeX by :func:`figure_tex`).
        header, rows: the CSV of the numbers drawn.
        draw: draws the figure on a ``matplotlib.figure.Figure``.
        height: the figure's height in inches.
    """

    name: str
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    draw: Callable[[Any], None]
    height: float = HEIGHT_IN


# -- shared pieces ----------------------------------------------------------------------------------


def deck_positions(shoes: Sequence[Shoe]) -> tuple[list[float], list[str]]:
    """x positions and tick labels of a deck-count axis: d decks at d, the infinite deck a step and a
    half beyond the largest count, labelled ∞."""
    finite = [s.full_decks or 0 for s in shoes if not s.is_infinite]
    last = max(finite, default=0)
    xs = [last + 1.5 if s.is_infinite else float(s.full_decks or 0) for s in shoes]
    return xs, ["∞" if s.is_infinite else str(s.full_decks) for s in shoes]


def deck_axis(ax: Any, shoes: Sequence[Shoe]) -> None:
    """Ticks at the deck counts, ∞ set apart by a dotted gap."""
    xs, labels = deck_positions(shoes)
    ax.set_xticks(xs, labels)
    ax.set_xlabel("decks in the shoe")
    if any(s.is_infinite for s in shoes) and len(shoes) > 1:
        finite = [x for x, s in zip(xs, shoes) if not s.is_infinite]
        if finite:
            ax.axvspan(max(finite) + 0.5, max(xs) - 0.5, color="0.93", lw=0)
    ax.grid(True, color="0.88", lw=0.6)


def plot_series(
    ax: Any,
    shoes: Sequence[Shoe],
    ys: Sequence[float],
    filled: Sequence[bool],
    label: str | None,
    style: str = "-",
    marker: str = "o",
    color: str | None = None,
) -> None:
    """A line over the deck counts; a point that is one of several optimal answers is drawn hollow.
    The line is not drawn across the gap to ∞."""
    xs, _ = deck_positions(shoes)
    fin = [(x, y) for x, y, s in zip(xs, ys, shoes) if not s.is_infinite]
    (line,) = ax.plot([x for x, _ in fin], [y for _, y in fin], style, lw=1.3, label=label, color=color)
    color = line.get_color()
    for x, y, full in zip(xs, ys, filled):
        ax.plot([x], [y], marker, ms=4, color=color, mfc=color if full else "white")


def marker_handles(marker: str = "o") -> list[Any]:
    """Legend entries for the filled and the hollow points of :func:`plot_series` (:data:`HOLLOW_WORDS`)."""
    from matplotlib.lines import Line2D

    return [
        Line2D([], [], ls="none", marker=marker, ms=4, color="0.3", mfc=fill, label=words)
        for fill, words in zip(("0.3", "white"), HOLLOW_WORDS)
    ]


def legend_above(
    ax: Any,
    handles: Sequence[Any] | None = None,
    ncol: int = 3,
    title: str = "",
    note: str = "",
    fontsize: float = 6.5,
) -> Any:
    """A legend set above the axes, outside them, so that it covers no curve; ``title`` (the panel's name,
    if any) and ``note`` (say where curves meet: :func:`meeting_note`) head it, one line each."""
    kwargs: dict[str, Any] = {} if handles is None else {"handles": list(handles)}
    heading = "\n".join(line for line in (title, *note.splitlines()) if line)
    return ax.legend(
        loc="lower center",
        bbox_to_anchor=(0.5, 1.0),
        ncol=ncol,
        fontsize=fontsize,
        title=heading or None,
        title_fontsize=fontsize + 0.5,
        alignment="center",
        frameon=False,
        borderaxespad=0.3,
        columnspacing=1.2,
        handlelength=2.4,
        **kwargs,
    )


def merge_equal(series: Sequence[tuple[str, tuple[Any, ...]]], joiner: str = " = ") -> list[tuple[str, tuple[Any, ...]]]:
    """Series whose values are exactly the same everywhere, drawn once under one name (``a = b``), in the
    order they first appear; a line drawn over another would hide it without a word.

    >>> merge_equal([("1", (1, 2)), ("2", (1, 3)), ("3", (1, 2))])
    [('1 = 3', (1, 2)), ('2', (1, 3))]
    """
    merged: list[tuple[list[str], tuple[Any, ...]]] = []
    for label, values in series:  # compared with ==: exact values need not hash alike (algebraic numbers)
        same = next((m for m in merged if m[1] == tuple(values)), None)
        if same is None:
            merged.append(([label], tuple(values)))
        else:
            same[0].append(label)
    return [(joiner.join(labels), values) for labels, values in merged]


def meeting_note(series: Sequence[tuple[str, tuple[Any, ...]]], places: Sequence[str], prefix: str = "", at: str = "") -> str:
    """Where distinct series (after :func:`merge_equal`) take exactly the same value, in words: one line per
    group of series that meet, naming the places (deck counts, values of θ, after ``at``); ``prefix`` heads
    the series' names. A value None is a point not drawn (a solution that does not exist there).

    >>> meeting_note([("1", (1, 2, 5)), ("2 = 3", (1, 3, 5))], ["1 deck", "2 decks", "∞"], prefix="information ")
    'at 1 deck and ∞: information 1 = 2 = 3'
    """
    groups: dict[tuple[str, ...], list[str]] = {}
    for k, place in enumerate(places):
        met: list[tuple[Any, list[str]]] = []  # (value, the series taking it here); None: nothing drawn here
        for label, values in series:
            if values[k] is None:
                continue
            same = next((m for m in met if m[0] == values[k]), None)
            if same is None:
                met.append((values[k], [label]))
            else:
                same[1].append(label)
        for _, labels in met:
            if len(labels) > 1:
                groups.setdefault(tuple(labels), []).append(place)
    return "\n".join(f"at {at}{and_list(where)}: {prefix}{' = '.join(labels)}" for labels, where in groups.items())


def in_rows(*rows: Sequence[Any]) -> tuple[list[Any], int]:
    """Legend entries laid out row by row (matplotlib fills a legend's columns first): the handles in the
    order that gives these rows, blanks where a row is short, and the number of columns."""
    from matplotlib.lines import Line2D

    ncol = max(len(r) for r in rows)
    grid = [list(r) + [Line2D([], [], ls="none", label=" ")] * (ncol - len(r)) for r in rows]
    return [grid[r][c] for c in range(ncol) for r in range(len(grid))], ncol


def and_list(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def pct(x: Fraction) -> float:
    """A fraction in percent, as a float for drawing only (the CSV keeps it exact)."""
    return float(x * 100)


def rounded(x: Fraction, percent: bool = False) -> str:
    return decimal_str(x * 100 if percent else x, ROUNDED)


def shoe_name(shoe: Shoe) -> str:
    """A shoe in a caption: ``8 decks`` or ``∞``."""
    return "∞" if shoe.is_infinite else shoe.label()


# -- output ------------------------------------------------------------------------------------------


def figure_csv(f: Figure) -> str:
    """The CSV of the numbers a figure draws."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(f.header)
    w.writerows(f.rows)
    return out.getvalue()


def figure_tex(f: Figure, command: str, shown: str | None = None) -> str:
    """A LaTeX figure float that includes the PDF (found on the document's ``\\graphicspath``): its first line
    names ``command`` exactly, its caption ``shown`` (the command as readers are shown it: no directory of the
    machine that ran it; default ``command``)."""
    shown = command if shown is None else shown
    caption = escape(f.caption).replace("∞", "$\\infty$").replace("≈", "$\\approx$").replace("±", "$\\pm$")
    caption = caption.replace("θ", "$\\theta$")
    caption = caption.replace("--", "-{}-")  # options stay two hyphens, not a dash
    return (
        "\n".join(
            [
                generated_comment(command).rstrip("\n"),
                r"\begin{figure}[tbp]",
                r"  \centering",
                r"  \small",  # the caption, as the tables' (long captions in the body size crowd a page of floats)
                f"  \\includegraphics[width=\\linewidth]{{{f.name}}}",
                f"  \\caption{{{caption} Made by \\texttt{{{escape(shown).replace('--', '-{}-')}}}; the numbers drawn are in "
                f"\\texttt{{{f.name}.csv}}.}}",
                f"  \\label{{fig:{f.name}}}",
                r"\end{figure}",
            ]
        )
        + "\n"
    )


def images(f: Figure, command: str) -> dict[str, bytes]:
    """The figure as PDF and PNG bytes (Agg backend; no dates in the files, so the same input gives the
    same bytes). The PNG, read on screens without the caption, names the command above the plot."""
    import matplotlib

    matplotlib.use("Agg")
    with matplotlib.rc_context({"pdf.fonttype": PDF_FONT_TYPE, "ps.fonttype": PDF_FONT_TYPE}):
        return _images(f, command)


def _images(f: Figure, command: str) -> dict[str, bytes]:
    from matplotlib.figure import Figure as MplFigure
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    fig = MplFigure(figsize=(WIDTH_IN, f.height), layout="constrained")
    f.draw(fig)
    out = {}
    buf = io.BytesIO()
    fig.savefig(buf, format="pdf", metadata={"CreationDate": None, "Creator": None, "Producer": None})
    out["pdf"] = buf.getvalue()
    # The command in a strip above the plot (at the foot it met a figure-wide x label, which the layout
    # engine leaves at the figure's bottom edge whatever its rect).
    fig.set_layout_engine(ConstrainedLayoutEngine(rect=(0, 0, 1, 0.965)))
    fig.text(0.995, 0.996, f"{command}   (numbers: {f.name}.csv)", ha="right", va="top", fontsize=5.5, color="0.45")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=PNG_DPI, metadata={"Software": None})
    out["png"] = buf.getvalue()
    return out
