"""Figures: each a small function of the results (:class:`solver.curves.FigureInputs`), registered in
:data:`FIGURES`.

A figure function returns a :class:`~solver.report.plot.Figure`: its caption, the CSV of exactly the
numbers it draws (exact ``p/q`` strings; estimates in columns that say so), and a function that draws
it on a matplotlib figure; :mod:`solver.report.plot` renders it. Adding a figure is one function and
one entry in :data:`FIGURES` (a family of figures may live in a module of its own and be entered here).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from solver.curves import CUT_CARD_RUNS, FigureInputs
from solver.equilibrium import Solution
from solver.report import decimal_str, figures_extra, fraction_str
from solver.report.chemin import can_be_dealt
from solver.report.plot import (
    PNG_DPI,
    ROUNDED,
    WIDTH_IN,
    Figure,
    deck_axis,
    figure_csv,
    figure_tex,
    images,
    pct,
    plot_series,
    rounded,
    shoe_name,
)
from solver.strategy import InfoSet, format_infoset

__all__ = ["FIGURES", "PNG_DPI", "WIDTH_IN", "Figure", "deck_axis", "figure_csv", "figure_tex", "images", "plot_series"]


def solutions_of(inputs: FigureInputs, freedom: str, information: int, commission: Fraction) -> tuple[Solution, ...]:
    return inputs.chemin[(freedom, information, commission)]


# -- punto banco -------------------------------------------------------------------------------------


def punto_edges(inputs: FigureInputs) -> Figure:
    """The house edge of every punto banco bet against the number of decks."""
    results = inputs.puntos
    names = [b.name for b in results[0].bets if all(b.name in {x.name for x in r.bets} for r in results)]
    main = [n for n in names if abs(results[0].bet(n).edge) < Fraction(3, 100)]
    side = [n for n in names if n not in main]
    rows = tuple((r.shoe.label(), n, fraction_str(r.bet(n).edge), rounded(r.bet(n).edge, True)) for n in names for r in results)

    def draw(fig: Any) -> None:
        axes = fig.subplots(1, 2)
        for ax, group, title in zip(axes, (main, side), ("even-money bets", "side bets")):
            drawn: dict[tuple[Fraction, ...], int] = {}
            for n in group:
                edges = tuple(r.bet(n).edge for r in results)
                if edges in drawn:  # exactly the same edges (the two pair bets): one line, both names
                    line = ax.get_lines()[drawn[edges]]
                    line.set_label(f"{line.get_label()} = {n}")
                    continue
                drawn[edges] = len(ax.get_lines())
                ys = [pct(e) for e in edges]
                plot_series(ax, inputs.shoes, ys, [True] * len(ys), n)
            deck_axis(ax, inputs.shoes)
            ax.set_title(title, fontsize=9)
            ax.set_ylabel("house edge (%)")
            ax.legend(fontsize=6.5, ncol=2 if len(group) > 4 else 1)

    caption = ("Punto banco: the house edge of each bet, in % of the stake (pushes counted as stakes), against the "
               "number of decks; the infinite deck (∞) deals with replacement. Every point is exact: each edge is a "
               "fraction from the enumeration of every coup.")
    return Figure("punto-edges", caption, ("shoe", "bet", "edge_exact", "edge_percent_rounded"), rows, draw)


# -- chemin de fer -----------------------------------------------------------------------------------


def chemin_values(inputs: FigureInputs) -> Figure:
    """The banker's value (zero-sum) and each side's payoff with commission, by model, against the decks."""
    alpha = inputs.commission
    rows = []
    for a in (Fraction(0), alpha):
        for f in ("casino", "parlor"):
            for i in (1, 2, 3):
                for s in solutions_of(inputs, f, i, a):
                    rows.append((s.game.shoe.label(), s.game.label, fraction_str(a), fraction_str(s.banker_payoff),
                                 fraction_str(s.ponte_payoff), rounded(s.banker_payoff, True), rounded(s.ponte_payoff, True)))

    def draw(fig: Any) -> None:
        axes = fig.subplots(2, 2, sharex=True)
        for row, a in enumerate((Fraction(0), alpha)):
            for col, f in enumerate(("casino", "parlor")):
                ax = axes[row][col]
                for i in (1, 2, 3):
                    sols = solutions_of(inputs, f, i, a)
                    plot_series(ax, inputs.shoes, [pct(s.banker_payoff) for s in sols], [True] * len(sols),
                                f"information {i}", color=f"C{i - 1}")
                    if a:
                        plot_series(ax, inputs.shoes, [pct(s.ponte_payoff) for s in sols], [True] * len(sols),
                                    None, style="--", marker="s", color=f"C{i - 1}")
                deck_axis(ax, inputs.shoes)
                ax.set_xlabel("")
                tax = "no commission" if not a else f"{fraction_str(a * 100)} % commission"
                ax.set_title(f"{f}, {tax}", fontsize=8)
                ax.set_ylabel("banker's value (%)" if not a else "payoff (%)")
                if (row, col) == (0, 1):
                    ax.legend(fontsize=6.5)
                if (row, col) == (1, 1):
                    solid, = ax.plot([], [], "-", color="0.3", label="banker (net of commission)")
                    dashed, = ax.plot([], [], "--", color="0.3", label="ponte")
                    ax.legend(handles=[solid, dashed], fontsize=6.5, loc="center right")
        fig.supxlabel("decks in the shoe", fontsize=9)

    caption = (f"Chemin de fer: the banker's value (his expected gain per coup in % of the stake with both sides "
               f"optimal) by information model (1, 2, 3) against the number of decks, for the casino's rule sheet and "
               f"the parlor game (every banker decision free); below, with the casino's {fraction_str(alpha * 100)} % "
               "commission on the banker's wins, each side's payoff at the equilibrium found (solid: the banker's, net "
               "of commission; dashed: the ponte's). Every point is exact and certified; ∞ is the infinite deck "
               "(dealing A, where the three information models coincide).")
    return Figure("chemin-values", caption, ("shoe", "model", "commission", "banker_payoff_exact", "ponte_payoff_exact",
                                             "banker_percent_rounded", "ponte_percent_rounded"), tuple(rows), draw,
                  height=5.2)


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
            rows.append((s.game.shoe.label(), s.game.label, format_infoset(k), fraction_str(v), rounded(v),
                         "yes" if unique else "no"))
            if not unique and s not in [n for n, _ in notes]:
                notes.append((s, ""))

    def draw(fig: Any) -> None:
        ax = fig.subplots(1, 1)
        for i, k, sols in series:
            strat = [(s.ponte() if ponte else s.banker())[k] for s in sols]
            filled = [s.unique_ponte if ponte else s.unique_banker for s in sols]
            plot_series(ax, inputs.shoes, [float(v) for v in strat], filled, f"information {i}, at {format_infoset(k)}")
        deck_axis(ax, inputs.shoes)
        ax.set_ylabel("probability of drawing")
        ax.set_ylim(-0.03, 1.03)
        ax.legend(fontsize=7)

    hollow = ""
    if notes:
        where = "; ".join(f"{shoe_name(x.game.shoe)}, {x.game.label}: baccarat chemin --decks "
                          f"{'inf' if x.game.shoe.is_infinite else x.game.shoe.full_decks} --information "
                          f"{x.game.model.information} --freedom parlor" for x, _ in notes)
        hollow = (f"Hollow points: the optimal {('ponte', 'banker')[side]} strategy is not unique there, and the point "
                  f"is one of them; the command shows the whole optimal set ({where}).")
    if ponte:
        name = "ponte-draw-at-5"
        caption = ("Chemin de fer, parlor game, no commission: the ponte's optimal probability of drawing at 5 "
                   "(under information 3, holding the two cards shown) against the number of decks, wherever it mixes "
                   "on some shoe where his optimal strategy is unique; his other hands at 5 are pure, and in the casino "
                   "game he always draws. Exact; ")
    else:
        name = "banker-mixed-cell"
        caption = ("Chemin de fer, parlor game, no commission: the banker's optimal probability of drawing in the cells "
                   "where he mixes on some shoe where his optimal strategy is unique (his total or two cards / S: the "
                   "ponte stood), against the number of decks; all his other decisions are pure, and in the casino game "
                   "he never mixes. Exact; ")
    caption += "filled points are proved the only optimal answer. " + hollow
    return Figure(name, caption.strip(), ("shoe", "model", "set", "draw_exact", "draw_rounded", "unique"), tuple(rows), draw,
                  height=3.0)


def ponte_draw_at_5(inputs: FigureInputs) -> Figure:
    """The ponte's optimal probability of drawing at 5 against the decks."""
    return _strategy_figure(inputs, ponte=True)


def banker_mixed_cell(inputs: FigureInputs) -> Figure:
    """The banker's optimal probability of drawing where he mixes, against the decks."""
    return _strategy_figure(inputs, ponte=False)


# -- simulation --------------------------------------------------------------------------------------


def cut_card_effect(inputs: FigureInputs) -> Figure:
    """The cut-card effect with 95 % intervals, from the recorded long runs (estimates)."""
    rows = tuple((run.label, it.item, it.effect, it.standard_error, it.low, it.high) for run in CUT_CARD_RUNS
                 for it in run.items)

    def draw(fig: Any) -> None:
        axes = fig.subplots(2, 2, sharex=True)
        for ax, run in zip([a for row in axes for a in row], CUT_CARD_RUNS):
            ys = list(range(len(run.items)))[::-1]
            for y, it in zip(ys, run.items):
                e, lo, hi = float(it.effect), float(it.low), float(it.high)
                ax.errorbar([e], [y], xerr=[[e - lo], [hi - e]], fmt="o", ms=3.5, capsize=2.5, color="C0")
            ax.axvline(0, color="0.3", lw=0.8)
            ax.set_yticks(ys, [it.item for it in run.items], fontsize=7)
            ax.set_title("\n".join(textwrap.wrap(run.label, 40)), fontsize=7.5)  # two lines rather than clipped
            ax.grid(True, axis="x", color="0.88", lw=0.6)
        fig.supxlabel("cut-card effect: whole shoe minus first coup, per coup (units of $10^{-6}$), with 95 % interval",
                      fontsize=8)

    caption = ("The cut-card effect: the average over every coup of the shoe minus the exact first-coup value, per "
               "coup (probabilities, and each bet's net result per unit staked), with 95 % normal confidence intervals. "
               "ESTIMATES from recorded simulations (docs/simulate.md), not exact: "
               + "; ".join(f"{run.label}: {run.command}" for run in CUT_CARD_RUNS) + ".")
    return Figure("cut-card-effect", caption, ("run", "item", "effect_estimate_1e-6", "standard_error_1e-6",
                                               "ci95_low_1e-6", "ci95_high_1e-6"), rows, draw, height=4.6)


def convergence(inputs: FigureInputs) -> Figure:
    """A simulated estimate of P(banker) converging on the exact value, with its 95 % band."""
    c = inputs.convergence
    rows = []
    for p in c.points:
        est = p.estimate
        se = p.standard_error(est)
        rows.append((str(p.coups), str(p.hits), fraction_str(est), f"{se:.6f}", f"{float(est) - 1.96 * se:.6f}",
                     f"{float(est) + 1.96 * se:.6f}", fraction_str(c.exact)))

    def draw(fig: Any) -> None:
        ax = fig.subplots(1, 1)
        ns = [p.coups for p in c.points]
        est = [float(p.estimate) for p in c.points]
        se = [p.standard_error(p.estimate) for p in c.points]
        ax.fill_between(ns, [e - 1.96 * s for e, s in zip(est, se)], [e + 1.96 * s for e, s in zip(est, se)],
                        color="C0", alpha=0.2, lw=0, label="estimate ± 1.96 standard errors")
        ax.plot(ns, est, "o-", ms=3, color="C0", label="simulated estimate")
        ax.axhline(float(c.exact), color="C3", lw=1.2, label=f"exact: {fraction_str(c.exact)}")
        ax.set_xscale("log")
        ax.set_xlabel("first coups dealt")
        ax.set_ylabel("P(banker wins)")
        ax.set_ylim(float(c.exact) - 0.08, float(c.exact) + 0.08)
        ax.grid(True, color="0.88", lw=0.6)
        ax.legend(fontsize=7, loc="upper right")

    caption = (f"A simulation converging on the exact value: the estimated probability that the banker wins the first "
               f"coup of a freshly shuffled {c.shoe.label()} shoe (punto banco, turn-and-burn), after n coups, with its "
               f"95 % band (± 1.96 standard errors), against the exact {fraction_str(c.exact)} "
               f"(≈ {decimal_str(c.exact, ROUNDED)}) from the enumeration. ESTIMATES from a short seeded simulation "
               f"(seed {c.seed}, {c.points[-1].coups:,} coups); only the line is exact.")
    return Figure("convergence", caption, ("coups", "banker_wins", "estimate", "standard_error", "ci95_low", "ci95_high",
                                           "exact"), tuple(rows), draw, height=3.0)


FIGURES: dict[str, Callable[[FigureInputs], Figure]] = {
    "punto-edges": punto_edges,
    "chemin-values": chemin_values,
    "ponte-draw-at-5": ponte_draw_at_5,
    "banker-mixed-cell": banker_mixed_cell,
    "cut-card-effect": cut_card_effect,
    "convergence": convergence,
    "edge-vs-removed": figures_extra.edge_vs_removed,
    "edge-distribution": figures_extra.edge_distribution,
    "banque-theta": figures_extra.banque_theta,
}
"""Every figure ``baccarat figures`` writes, by file name, in the order docs/report.tex shows them."""
