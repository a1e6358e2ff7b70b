"""Figures of chemin de fer: the values by model against the decks, and the optimal strategies where they
mix (entered in :data:`solver.report.figures.FIGURES`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from solver.analysis.figures import FigureInputs
from solver.chemin.solve import Solution
from solver.exact.numbers import fraction_str
from solver.report.chemin import can_be_dealt
from solver.report.figures.plot import Figure, deck_axis, pct, plot_series, rounded, shoe_name
from solver.strategy import InfoSet, format_infoset


def solutions_of(inputs: FigureInputs, freedom: str, information: int, commission: Fraction) -> tuple[Solution, ...]:
    return inputs.chemin[(freedom, information, commission)]


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

    def draw(fig: Any) -> None:
        axes = fig.subplots(2, 2, sharex=True)
        for row, a in enumerate((Fraction(0), alpha)):
            for col, f in enumerate(("casino", "parlor")):
                ax = axes[row][col]
                for i in (1, 2, 3):
                    sols = solutions_of(inputs, f, i, a)
                    plot_series(
                        ax,
                        inputs.shoes,
                        [pct(s.banker_payoff) for s in sols],
                        [True] * len(sols),
                        f"information {i}",
                        color=f"C{i - 1}",
                    )
                    if a:
                        plot_series(
                            ax,
                            inputs.shoes,
                            [pct(s.ponte_payoff) for s in sols],
                            [True] * len(sols),
                            None,
                            style="--",
                            marker="s",
                            color=f"C{i - 1}",
                        )
                deck_axis(ax, inputs.shoes)
                ax.set_xlabel("")
                tax = "no commission" if not a else f"{fraction_str(a * 100)} % commission"
                ax.set_title(f"{f}, {tax}", fontsize=8)
                ax.set_ylabel("banker's value (%)" if not a else "payoff (%)")
                if (row, col) == (0, 1):
                    ax.legend(fontsize=6.5)
                if (row, col) == (1, 1):
                    (solid,) = ax.plot([], [], "-", color="0.3", label="banker (net of commission)")
                    (dashed,) = ax.plot([], [], "--", color="0.3", label="ponte")
                    ax.legend(handles=[solid, dashed], fontsize=6.5, loc="center right")
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
        for i, k, sols in series:
            strat = [(s.ponte() if ponte else s.banker())[k] for s in sols]
            filled = [(s.unique_ponte if ponte else s.unique_banker) is True for s in sols]
            plot_series(ax, inputs.shoes, [float(v) for v in strat], filled, f"information {i}, at {format_infoset(k)}")
        deck_axis(ax, inputs.shoes)
        ax.set_ylabel("probability of drawing")
        ax.set_ylim(-0.03, 1.03)
        ax.legend(fontsize=7)

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
