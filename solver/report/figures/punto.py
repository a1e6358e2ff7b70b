"""Figures of punto banco: the bets' exact edges against the decks, the cut-card effect, and a simulation
converging on the exact value (entered in :data:`solver.report.figures.FIGURES`)."""

from __future__ import annotations

import textwrap
from fractions import Fraction
from typing import Any

from solver.analysis.figures import CUT_CARD_RUNS, FigureInputs
from solver.exact.numbers import decimal_str, fraction_str
from solver.report.bets import bet_label, outcome_label
from solver.report.figures.plot import ROUNDED, Figure, deck_axis, legend_above, merge_equal, pct, plot_series, rounded


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
            series = merge_equal([(bet_label(n), tuple(r.bet(n).edge for r in results)) for n in group])
            for label, edges in series:  # bets with exactly the same edges (the two pairs): one line, both names
                ys = [pct(e) for e in edges]
                plot_series(ax, inputs.shoes, ys, [True] * len(ys), label)
            deck_axis(ax, inputs.shoes)
            ax.set_ylabel("house edge (%)")
            legend_above(ax, ncol=3, title=title)

    caption = (
        "Punto banco: the house edge of each bet, in % of the stake (pushes counted as stakes), against the "
        "number of decks; the infinite deck (∞) deals with replacement. Every point is exact: each edge is a "
        "fraction from the enumeration of every coup."
    )
    return Figure("punto-edges", caption, ("shoe", "bet", "edge_exact", "edge_percent_rounded"), rows, draw)


def cut_card_effect(inputs: FigureInputs) -> Figure:
    """The cut-card effect with 95 % intervals, from the recorded long runs (estimates)."""
    rows = tuple((run.label, it.item, it.effect, it.standard_error, it.low, it.high) for run in CUT_CARD_RUNS for it in run.items)

    def draw(fig: Any) -> None:
        axes = fig.subplots(2, 2, sharex=True)
        for ax, run in zip([a for row in axes for a in row], CUT_CARD_RUNS):
            ys = list(range(len(run.items)))[::-1]
            for y, it in zip(ys, run.items):
                e, lo, hi = float(it.effect), float(it.low), float(it.high)
                ax.errorbar([e], [y], xerr=[[e - lo], [hi - e]], fmt="o", ms=3.5, capsize=2.5, color="C0")
            ax.axvline(0, color="0.3", lw=0.8)
            ax.set_yticks(ys, [item_label(it.item) for it in run.items], fontsize=7)
            ax.set_title(
                "\n".join(textwrap.wrap(run.label, 40, break_on_hyphens=False)), fontsize=7.5
            )  # two lines rather than clipped
            ax.grid(True, axis="x", color="0.88", lw=0.6)
        fig.supxlabel(
            "cut-card effect: whole shoe minus first coup, per coup (units of $10^{-6}$), with 95 % interval", fontsize=8
        )

    caption = (
        "The cut-card effect: the average over every coup of the shoe minus the exact first-coup value, per "
        "coup (probabilities, and each bet's net result per unit staked), with 95 % normal confidence intervals. "
        "ESTIMATES from recorded simulations (docs/simulate.md), not exact: "
        + "; ".join(f"{run.label}: {run.command}" for run in CUT_CARD_RUNS)
        + "."
    )
    return Figure(
        "cut-card-effect",
        caption,
        ("run", "item", "effect_estimate_1e-6", "standard_error_1e-6", "ci95_low_1e-6", "ci95_high_1e-6"),
        rows,
        draw,
        height=4.6,
    )


def item_label(item: str) -> str:
    """An item of a recorded run (``outcome:banker``, ``bet:tie_8to1``) as the paper's tables name it.

    >>> item_label("outcome:banker"), item_label("bet:tie_8to1")
    ('P(banker wins)', 'Tie 8:1 bet')
    """
    kind, _, name = item.partition(":")
    return outcome_label(name) if kind == "outcome" else f"{bet_label(name)} bet"


def convergence(inputs: FigureInputs) -> Figure:
    """A simulated estimate of P(banker) converging on the exact value, with its 95 % band."""
    c = inputs.convergence
    rows = []
    for p in c.points:
        est = p.estimate
        se = p.standard_error(est)
        rows.append(
            (
                str(p.coups),
                str(p.hits),
                fraction_str(est),
                f"{se:.6f}",
                f"{float(est) - 1.96 * se:.6f}",
                f"{float(est) + 1.96 * se:.6f}",
                fraction_str(c.exact),
            )
        )

    def draw(fig: Any) -> None:
        ax = fig.subplots(1, 1)
        ns = [p.coups for p in c.points]
        est = [float(p.estimate) for p in c.points]
        se = [p.standard_error(p.estimate) for p in c.points]
        ax.fill_between(
            ns,
            [e - 1.96 * s for e, s in zip(est, se)],
            [e + 1.96 * s for e, s in zip(est, se)],
            color="C0",
            alpha=0.2,
            lw=0,
            label="95 % band (± 1.96 SE)",
        )
        ax.plot(ns, est, "o-", ms=3, color="C0", label="simulated estimate")
        ax.axhline(
            float(c.exact),
            color="C3",
            lw=1.2,
            label=f"exact value ≈ {decimal_str(c.exact, ROUNDED)}",
        )
        ax.set_xscale("log")
        ax.set_xlabel("first coups dealt")
        ax.set_ylabel("P(banker wins)")
        ax.set_ylim(float(c.exact) - 0.08, float(c.exact) + 0.08)
        ax.grid(True, color="0.88", lw=0.6)
        legend_above(ax, ncol=3, fontsize=7)

    caption = (
        f"A simulation converging on the exact value: the estimated probability that the banker wins the first "
        f"coup of a freshly shuffled {c.shoe.label()} shoe (punto banco, turn-and-burn), after n coups, with its "
        f"95 % band (± 1.96 standard errors), against the exact {fraction_str(c.exact)} "
        f"(≈ {decimal_str(c.exact, ROUNDED)}) from the enumeration. ESTIMATES from a short seeded simulation "
        f"(seed {c.seed}, {c.points[-1].coups:,} coups); only the line is exact."
    )
    return Figure(
        "convergence",
        caption,
        ("coups", "banker_wins", "estimate", "standard_error", "ci95_low", "ci95_high", "exact"),
        tuple(rows),
        draw,
        height=3.2,
    )
