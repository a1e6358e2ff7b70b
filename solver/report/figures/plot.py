"""The pieces every figure shares: the :class:`Figure` value, the deck-count axis, and the output
(PDF and PNG through matplotlib's Agg backend, the CSV, the LaTeX float).

matplotlib is imported only inside :func:`images`, so importing this module is cheap.
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


def figure_tex(f: Figure, command: str) -> str:
    """A LaTeX figure float that includes the PDF (found on the document's ``\\graphicspath``)."""
    caption = escape(f.caption).replace("∞", "$\\infty$").replace("≈", "$\\approx$").replace("±", "$\\pm$")
    caption = caption.replace("θ", "$\\theta$")
    caption = caption.replace("--", "-{}-")  # options stay two hyphens, not a dash
    return (
        "\n".join(
            [
                generated_comment(command).rstrip("\n"),
                r"\begin{figure}[tbp]",
                r"  \centering",
                f"  \\includegraphics[width=\\linewidth]{{{f.name}}}",
                f"  \\caption{{{caption} Made by \\texttt{{{escape(command).replace('--', '-{}-')}}}; the numbers drawn are in "
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
