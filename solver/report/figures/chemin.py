"""Figures of chemin de fer: the values by model against the decks, and the optimal strategies where they
mix (entered in :data:`solver.report.figures.FIGURES`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from solver.analysis.figures import FigureInputs
from solver.chemin.solve import Solution
from solver.exact.numbers import fraction_str
from solver.report.chemin import can_be_dealt
from solver.report.figures.plot import (
    Figure,
    deck_axis,
    in_rows,
    legend_above,
    marker_handles,
    meeting_note,
    merge_equal,
    pct,
    plot_series,
    rounded,
    shoe_name,
)
from solver.strategy import InfoSet, format_infoset


def solutions_of(inputs: FigureInputs, freedom: str, information: int, commission: Fraction) -> tuple[Solution, ...]:
    return inputs.chemin[(freedom, information, commission)]


def payoff_of(s: Solution, side: str) -> Fraction:
    """The banker's payoff (net of any commission) or the ponte's."""
    return s.banker_payoff if side == "banker" else s.ponte_payoff


def chemin_values(inputs: FigureInputs) -> Figure:
    """The banker's value (zero-sum) and each side's payoff with commission, by model, against the decks."""
    alpha = inputs.commission
    rows = []
    for a in (Fraction(0), alpha):
        for f in ("casino", "parlor"):
            for i in (1, 2, 3):
                for s in solutions_of(inputs, f, i, a):
                    rows.append(
                        (
                            s.game.shoe.label(),
                            s.game.label,
                            fraction_str(a),
                            fraction_str(s.banker_payoff),
                            fraction_str(s.ponte_payoff),
                            rounded(s.banker_payoff, True),
                            rounded(s.ponte_payoff, True),
                        )
                    )

    places = [shoe_name(s) for s in inputs.shoes]

    def draw(fig: Any) -> None:
        from matplotlib.lines import Line2D

        axes = fig.subplots(2, 2, sharex=True)
        for row, a in enumerate((Fraction(0), alpha)):
            for col, f in enumerate(("casino", "parlor")):
                ax = axes[row][col]
                models, notes = [], []
                sides = [("banker", "-", "o"), ("ponte", "--", "s")] if a else [("banker", "-", "o")]
                for side, style, marker in sides:
                    payoffs = [tuple(payoff_of(s, side) for s in solutions_of(inputs, f, i, a)) for i in (1, 2, 3)]
                    series = merge_equal([(str(i), p) for i, p in zip((1, 2, 3), payoffs)])
                    for label, values in series:
                        color = f"C{int(label[0]) - 1}"  # the colour of its first information model
                        plot_series(ax, inputs.shoes, [pct(v) for v in values], [True] * len(values), None, style, marker, color)
                        if side == "banker":
                            models.append(Line2D([], [], color=color, lw=1.3, label=f"information {label}"))
                    note = meeting_note(series, places, prefix="information ")
                    notes += [f"{side}: {line}" if a else line for line in note.splitlines()]
                deck_axis(ax, inputs.shoes)
                ax.set_xlabel("")
                ax.set_ylabel("banker's value (%)" if not a else "payoff (%)")
                styles = [
                    Line2D([], [], ls="-", color="0.3", label="banker, net"),
                    Line2D([], [], ls="--", color="0.3", label="ponte"),
                ]
                handles, ncol = in_rows(models, styles) if a else in_rows(models)
                tax = "no commission" if not a else f"{fraction_str(a * 100)} % commission"
                legend_above(ax, handles, ncol=ncol, title=f"{f}, {tax}", note="\n".join(notes), fontsize=6)
        fig.supxlabel("decks in the shoe", fontsize=9)

    caption = (
        f"Chemin de fer: the banker's value (his expected gain per coup in % of the stake with both sides "
        f"optimal) by information model (1, 2, 3) against the number of decks, for the casino's rule sheet and "
        f"the parlor game (every banker decision free); below, with the casino's {fraction_str(alpha * 100)} % "
        "commission on the banker's wins, each side's payoff at the equilibrium found (solid: the banker's, net "
        "of commission; dashed: the ponte's). Every point is exact and certified; ∞ is the infinite deck "
        "(dealing A, where the three information models coincide)."
    )
    return Figure(
        "chemin-values",
        caption,
        (
            "shoe",
            "model",
            "commission",
            "banker_payoff_exact",
            "ponte_payoff_exact",
            "banker_percent_rounded",
            "ponte_percent_rounded",
        ),
        tuple(rows),
        draw,
        height=5.2,
    )


def _mixing_series(inputs: FigureInputs, ponte: bool) -> list[tuple[int, InfoSet, tuple[Solution, ...]]]:
    """(information, set, solutions by shoe) for every parlor set that mixes on some shoe where the optimal
    strategy is unique (zero-sum)."""
    out = []
    for i in (1, 2, 3):
        sols = solutions_of(inputs, "parlor", i, Fraction(0))
        keys: list[InfoSet] = []
        for s in sols:
            if not (s.unique_ponte if ponte else s.unique_banker):
                continue  # a representative of a set of optimal strategies: its mixing says nothing by itself
            strat = s.ponte() if ponte else s.banker()
            keys += [k for k, v in strat.items() if 0 < v < 1 and k not in keys and can_be_dealt(s.game.shoe, k)]
        out += [(i, k, sols) for k in sorted(keys, key=InfoSet.sort_key)]
    return out


def _labelled(series: list[tuple[int, InfoSet, tuple[Solution, ...]]], ponte: bool) -> list[tuple[str, tuple[Fraction, ...]]]:
    """Each series' legend label and its exact probabilities, shoe by shoe."""
    return [
        (f"information {i}, at {format_infoset(k)}", tuple((s.ponte() if ponte else s.banker())[k] for s in sols))
        for i, k, sols in series
    ]


def _strategy_figure(inputs: FigureInputs, ponte: bool) -> Figure:
    series = _mixing_series(inputs, ponte)
    side = 0 if ponte else 1
    rows = []
    notes: list[tuple[Solution, str]] = []
    for _, k, sols in series:
        for s in sols:
            v = (s.ponte() if ponte else s.banker())[k]
            unique = s.unique_ponte if ponte else s.unique_banker
            rows.append(
                (s.game.shoe.label(), s.game.label, format_infoset(k), fraction_str(v), rounded(v), "yes" if unique else "no")
            )
            if not unique and s not in [n for n, _ in notes]:
                notes.append((s, ""))

    def draw(fig: Any) -> None:
        ax = fig.subplots(1, 1)
        labelled = _labelled(series, ponte)
        for (label, strat), (_, _, sols) in zip(labelled, series):
            filled = [(s.unique_ponte if ponte else s.unique_banker) is True for s in sols]
            plot_series(ax, inputs.shoes, [float(v) for v in strat], filled, label)
        deck_axis(ax, inputs.shoes)
        ax.set_ylabel("probability of drawing")
        ax.set_ylim(-0.03, 1.03)
        handles = ax.get_legend_handles_labels()[0] + (marker_handles() if notes else [])
        legend_above(ax, handles, ncol=3, note=meeting_note(labelled, [shoe_name(s) for s in inputs.shoes]))

    hollow = ""
    if notes:
        where = "; ".join(
            f"{shoe_name(x.game.shoe)}, {x.game.label}: baccarat chemin --decks "
            f"{'inf' if x.game.shoe.is_infinite else x.game.shoe.full_decks} --information "
            f"{x.game.model.information} --freedom parlor"
            for x, _ in notes
        )
        hollow = (
            f"Hollow points: the optimal {('ponte', 'banker')[side]} strategy is not unique there, and the point "
            f"is one of them; the command shows the whole optimal set ({where})."
        )
    if ponte:
        name = "ponte-draw-at-5"
        caption = (
            "Chemin de fer, parlor game, no commission: the ponte's optimal probability of drawing at 5 "
            "(under information 3, holding the two cards shown) against the number of decks, wherever it mixes "
            "on some shoe where his optimal strategy is unique; his other hands at 5 are pure, and in the casino "
            "game he always draws. Exact; "
        )
    else:
        name = "banker-mixed-cell"
        caption = (
            "Chemin de fer, parlor game, no commission: the banker's optimal probability of drawing in the cells "
            "where he mixes on some shoe where his optimal strategy is unique (his total or two cards / S: the "
            "ponte stood), against the number of decks; all his other decisions are pure, and in the casino game "
            "he never mixes. Exact; "
        )
    caption += "filled points are proved the only optimal answer. " + hollow
    return Figure(
        name, caption.strip(), ("shoe", "model", "set", "draw_exact", "draw_rounded", "unique"), tuple(rows), draw, height=3.0
    )


def ponte_draw_at_5(inputs: FigureInputs) -> Figure:
    """The ponte's optimal probability of drawing at 5 against the decks."""
    return _strategy_figure(inputs, ponte=True)


def banker_mixed_cell(inputs: FigureInputs) -> Figure:
    """The banker's optimal probability of drawing where he mixes, against the decks."""
    return _strategy_figure(inputs, ponte=False)
