"""The figures as a paper's reader sees them (issue 28): the words of the tables, one sign of "edge", legends
that cover no curve, a word where curves coincide, colours that follow the card values, no line drawn
where a solution does not exist.

Each figure is drawn once, from small inputs, onto a matplotlib figure laid out as the PDF is
(:func:`solver.report.figures.plot.images` uses the same size and layout engine), and its artists are read
back: texts, lines, markers, legends and where they sit.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

import pytest

from solver.analysis.figures import FigureInputs
from solver.cards import Shoe
from solver.punto import punto_banco
from solver.report import figures as figs
from solver.report import paper
from solver.report.bets import BET_LABELS
from solver.report.figures.plot import HOLLOW_WORDS, WIDTH_IN
from solver.report.figures.side_bets import VALUE_NAMES

THETAS = (Fraction(3, 10), Fraction(1, 2), Fraction(7, 10))
"""θ = 1/2 has no independent cooperative solution; at 3/10 and 7/10 the three concepts coincide."""


@pytest.fixture(scope="module")
def drawn() -> dict[str, Any]:
    """Every figure drawn (and laid out) from one set of small inputs."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure as MplFigure

    inputs = FigureInputs((Shoe.decks(1), Shoe.infinite()), coups=2000, seed=3, thetas=THETAS, count_shoes=40)
    out = {}
    for name, make in figs.FIGURES.items():
        f = make(inputs)
        fig = MplFigure(figsize=(WIDTH_IN, f.height), layout="constrained")
        f.draw(fig)
        fig.draw_without_rendering()
        out[name] = fig
    return out


def panels(fig: Any) -> list[Any]:
    """The plotting axes of a figure (not a colour bar's)."""
    return [ax for ax in fig.axes if not hasattr(ax, "_colorbar")]


def colour_bars(fig: Any) -> list[Any]:
    return [ax for ax in fig.axes if hasattr(ax, "_colorbar")]


def legend_texts(ax: Any) -> list[str]:
    legend = ax.get_legend()
    if legend is None:
        return []
    return [t.get_text() for t in legend.get_texts()] + legend.get_title().get_text().splitlines()


def texts(fig: Any) -> list[str]:
    """Every word a reader sees in a figure: titles, axis labels, tick labels, legends, colour-bar labels."""
    out = [t.get_text() for t in fig.texts]
    if fig._supxlabel is not None:
        out.append(fig._supxlabel.get_text())
    for ax in fig.axes:
        out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        out += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        out += legend_texts(ax)
    return [t for t in out if t]


def data_lines(ax: Any) -> list[Any]:
    """The lines that draw data (more than two points: not a reference line or a single marker)."""
    return [line for line in ax.get_lines() if len(line.get_xdata()) > 2]


def points(ax: Any) -> list[Any]:
    """Single markers."""
    return [line for line in ax.get_lines() if len(line.get_xdata()) == 1 and line.get_marker() not in ("", "None", None)]


SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b|\b(?:outcome|bet):")


@pytest.mark.parametrize("name", list(figs.FIGURES))
def test_no_code_names_in_a_figure(drawn: dict[str, Any], name: str) -> None:
    # Issue 28: tie_8to1, ez_banker, outcome:banker, bet:tie_8to1 where the tables say "Tie 8:1", "EZ Banker".
    bad = [t for t in texts(drawn[name]) if SNAKE.search(t)]
    assert not bad, f"{name}: code names where the tables use words: {bad}"


def test_bets_are_named_as_the_tables_name_them(drawn: dict[str, Any]) -> None:
    # One source of names: every bet named in punto-edges' legends is a column head of the bet-edges table.
    results = [punto_banco(Shoe.decks(1)), punto_banco(Shoe.infinite())]
    table = paper.bet_edges_table(results, 4, "baccarat tables")
    (head,) = [line.strip() for line in table.splitlines() if line.strip().startswith("Shoe &")]
    columns = head.removesuffix("\\\\").strip().split(" & ")[1:]
    titles = {"even-money bets", "side bets"}
    entries = [entry for ax in panels(drawn["punto-edges"]) for entry in legend_texts(ax) if entry not in titles]
    names = [n for entry in entries for n in entry.split(" = ")]
    assert sorted(names) == sorted(columns) == sorted(BET_LABELS[b.name] for b in results[0].bets)
    assert [ax.get_title() for ax in panels(drawn["edge-vs-removed"])] == ["Dragon 7", "Panda 8", "Big Tiger", "Tie 8:1"]
    ticks = {t.get_text() for ax in panels(drawn["cut-card-effect"]) for t in ax.get_yticklabels()}
    assert {"P(banker wins)", "P(tie)", "Banker bet", "Tie 8:1 bet", "Ponte bet"} <= ticks


def test_the_independent_solution_is_not_drawn_where_it_does_not_exist(drawn: dict[str, Any]) -> None:
    # Issue 28: the dotted line ran across θ = 1/2, where the independent cooperative solution is proved not to exist.
    top = panels(drawn["banque-theta"])[0]
    (line,) = [line for line in top.get_lines() if line.get_label() == "independent cooperative"]
    xs, ys = list(line.get_xdata()), list(line.get_ydata())
    assert xs == [0.3, 0.5, 0.7]
    assert not math.isnan(ys[0]) and math.isnan(ys[1]) and not math.isnan(ys[2])  # a gap: no segment across 1/2
    assert "θ where it does not exist (proved)" in legend_texts(top)
    crosses = [line for line in top.get_lines() if line.get_marker() == "x"]
    assert [list(c.get_xdata()) for c in crosses] == [[0.5]]


def test_the_nash_curve_shows_beside_the_correlated_one(drawn: dict[str, Any]) -> None:
    # Issue 28: the Nash curve hid under the correlated one (they differ by a few millionths of the stake).
    top, low = panels(drawn["banque-theta"])
    by = {line.get_label(): line for line in top.get_lines()}
    nash, corr, ind = by["Nash equilibrium"], by["correlated cooperative"], by["independent cooperative"]
    assert nash.get_markersize() > ind.get_markersize() > corr.get_markersize()  # nested where they coincide
    assert nash.get_markerfacecolor() == ind.get_markerfacecolor() == "white"
    assert corr.get_zorder() > ind.get_zorder() > nash.get_zorder()
    # The coincidence in words, and the difference drawn below.
    assert "at θ = 3/10 and 7/10: Nash = correlated = independent" in legend_texts(top)
    (diff,) = data_lines(low)
    assert list(diff.get_xdata()) == [0.3, 0.5, 0.7]
    d = list(diff.get_ydata())
    assert d[0] == d[2] == 0 and 2 < d[1] < 4  # 1/2: 11138203216/1283144424133 - 16655514960/1919414386513, in 1e-6
    assert "Nash minus" in low.get_ylabel()


def test_edge_has_one_sign_the_house_edge(drawn: dict[str, Any]) -> None:
    # Issue 28: edge-vs-removed drew the house edge (Dragon 7 at +7.6 %), edge-distribution the player's (-7.6 %).
    dragon7 = 100 * float(punto_banco(Shoe.decks(8)).bet("dragon7").edge)
    removal = panels(drawn["edge-vs-removed"])
    assert all(ax.get_ylabel() == "house edge (%)" for ax in removal)
    assert {round(line.get_ydata()[0], 4) for line in data_lines(removal[0])} == {round(dragon7, 4)}
    (dist,) = panels(drawn["edge-distribution"])
    assert "house edge" in dist.get_xlabel() and "player" not in dist.get_xlabel()
    (dot,) = [p for p in points(dist) if p.get_color() == "C0"]  # Dragon 7's full shoe
    assert dot.get_xdata()[0] == pytest.approx(dragon7) and dragon7 > 7


@pytest.mark.parametrize("name", list(figs.FIGURES))
def test_legends_sit_outside_the_curves(drawn: dict[str, Any], name: str) -> None:
    # Issue 28: a legend covered a curve; legends in one panel only. Every panel with more than one curve has a
    # key (its legend, or the figure's colour bar), and no legend overlaps a panel's plotting area.
    fig = drawn[name]
    for ax in panels(fig):
        legend = ax.get_legend()
        colours = {str(line.get_color()) for line in data_lines(ax)}
        if len(colours) > 1:
            assert legend is not None or colour_bars(fig), f"{name}: a panel with {len(colours)} curves and no key"
        if legend is not None:
            box, area = legend.get_window_extent(), ax.get_window_extent()
            for other in panels(fig):
                o = other.get_window_extent()
                overlap = min(box.y1, o.y1) - max(box.y0, o.y0) > 1 and min(box.x1, o.x1) - max(box.x0, o.x0) > 1
                assert not overlap, f"{name}: a legend lies over a panel ({box} over {o}; its own {area})"


def test_card_values_have_ordered_colours(drawn: dict[str, Any]) -> None:
    # Issue 28: ten tab10 colours for ten ordered card values. Now a perceptually ordered map: lightness rises
    # with the value, and a colour bar names each step.
    from matplotlib.colors import to_rgb

    fig = drawn["edge-vs-removed"]
    lines = data_lines(panels(fig)[0])
    assert len(lines) == 10

    def lightness(c: Any) -> float:
        r, g, b = to_rgb(c)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light = [lightness(line.get_color()) for line in lines]
    assert light == sorted(light) and len(set(light)) == 10
    (bar,) = colour_bars(fig)
    assert [t.get_text() for t in bar.get_yticklabels()] == list(VALUE_NAMES)


@pytest.mark.parametrize("name", list(figs.FIGURES))
def test_no_exact_fraction_is_a_legend_entry(drawn: dict[str, Any], name: str) -> None:
    # Issue 28: "exact: 8954111587648/19524993263685" in the convergence legend (the caption gives the fraction).
    for ax in panels(drawn[name]):
        assert not [t for t in legend_texts(ax) if re.search(r"\d+/\d{3,}", t)], name


@pytest.mark.parametrize("name", list(figs.FIGURES))
def test_no_bars_on_a_log_scale(drawn: dict[str, Any], name: str) -> None:
    # Issue 28: 800 bars on a log scale (a bar's length means nothing on a log axis). Now the share of coups at
    # or below each edge, a line.
    from matplotlib.patches import Rectangle

    for ax in panels(drawn[name]):
        bars = [p for p in ax.patches if isinstance(p, Rectangle)]
        assert len(bars) <= 50, name
        if "log" in (ax.get_yscale(), ax.get_xscale()):
            assert not bars, name


@pytest.mark.parametrize("name", ["ponte-draw-at-5", "banker-mixed-cell"])
def test_hollow_points_are_explained_in_the_figure(drawn: dict[str, Any], name: str) -> None:
    # Issue 28: hollow markers were explained only in the LaTeX caption, not on the PNG a screen shows.
    (ax,) = panels(drawn[name])
    hollow = [p for p in points(ax) if p.get_markerfacecolor() == "white"]
    assert hollow, "the small inputs have a point where the optimal strategy is not unique (the infinite deck)"
    words = legend_texts(ax)
    assert HOLLOW_WORDS[0] in words and HOLLOW_WORDS[1] in words


def test_coinciding_curves_are_named(drawn: dict[str, Any]) -> None:
    # Issue 28: three coinciding curves shown as one without a word. Casino, no commission, on 1 deck and the
    # infinite deck: the three information models give the same values (one line, its name says so); parlor:
    # they differ on 1 deck and meet on the infinite deck (a line of the legend says where).
    casino, parlor = panels(drawn["chemin-values"])[:2]
    assert legend_texts(casino) == ["information 1 = 2 = 3", "casino, no commission"]
    assert len(data_lines(casino)) == 0 and len(casino.get_lines()) == 1 + 2  # one line, and its two points
    words = legend_texts(parlor)
    assert words == ["information 1", "information 2", "information 3", "parlor, no commission", "at ∞: information 1 = 2 = 3"]
