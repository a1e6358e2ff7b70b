"""Figures of the side bets: exact edges as cards of one value leave the shoe, and the distribution of the
exact edge over the coups of simulated shoes (entered in :data:`solver.report.figures.FIGURES`)."""

from __future__ import annotations

from typing import Any

from solver.analysis.depletion import EdgeDistribution
from solver.analysis.figures import FigureInputs
from solver.exact.numbers import fraction_str
from solver.report.figures.plot import Figure, rounded

VALUE_NAMES = ("tens", "aces", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s")


def edge_vs_removed(inputs: FigureInputs) -> Figure:
    """Each side bet's exact house edge as cards of one value leave the 8-deck shoe."""
    points = inputs.removal
    bets = list(dict.fromkeys(p.bet for p in points))
    rows = tuple((p.bet, VALUE_NAMES[p.value], str(p.removed), fraction_str(p.edge), rounded(p.edge, True)) for p in points)

    def draw(fig: Any) -> None:
        axes = fig.subplots(2, 2, sharex=True)
        for ax, bet in zip([a for row in axes for a in row], bets):
            for v in range(10):
                pts = [p for p in points if p.bet == bet and p.value == v]
                ax.plot(
                    [p.removed for p in pts], [100 * float(p.edge) for p in pts], "-", lw=1.1, label=VALUE_NAMES[v], color=f"C{v}"
                )
            ax.axhline(0, color="0.3", lw=0.7)
            ax.set_title(bet, fontsize=8)
            ax.set_ylabel("house edge (%)", fontsize=7)
            ax.tick_params(labelsize=7)
            ax.grid(True, color="0.88", lw=0.6)
        axes[0][1].legend(fontsize=5.5, ncol=2)
        for ax in axes[1]:
            ax.set_xlabel("cards of one value removed from 8 decks", fontsize=7)

    caption = (
        "Side bets as the shoe is depleted: each bet's house edge (%) on 8 decks less k cards of one value "
        "(one line per value), from exact solves of each depleted shoe; below zero the bet favours the player. "
        "The slope at k = 0 is the effect of removal (Table of effects of removal). Every point is exact."
    )
    return Figure(
        "edge-vs-removed",
        caption,
        ("bet", "removed_value", "cards_removed", "edge_exact", "edge_percent_rounded"),
        rows,
        draw,
        height=4.4,
    )


def edge_distribution(inputs: FigureInputs) -> Figure:
    """The distribution of each side bet's exact edge over the coups of simulated shoes."""
    d: EdgeDistribution = inputs.distribution
    rows = []
    for name, full, counts in zip(d.bets, d.full_shoe, d.counts):
        for i, c in enumerate(counts):
            if c:
                rows.append(
                    (
                        name,
                        fraction_str(d.bin_low(i)),
                        fraction_str(d.bin_low(i + 1)) if i < 2000 else "",
                        str(c),
                        fraction_str(full),
                    )
                )

    def draw(fig: Any) -> None:
        axes = fig.subplots(2, 2)
        for k, (ax, name) in enumerate(zip([a for row in axes for a in row], d.bets)):
            counts = d.counts[k]
            xs = [100 * float(d.bin_low(i)) + 0.05 for i in range(len(counts)) if counts[i]]
            ys = [counts[i] / d.n_coups for i in range(len(counts)) if counts[i]]
            ax.bar(xs, ys, width=0.1, color="C0")
            ax.axvline(100 * float(d.full_shoe[k]), color="C3", lw=1, label="full shoe (exact)")
            ax.axvline(0, color="0.3", lw=0.7)
            ax.set_yscale("log")
            ax.set_xlim(-40, 40)
            ax.set_title(name, fontsize=8)
            ax.tick_params(labelsize=7)
            ax.grid(True, color="0.88", lw=0.6)
        axes[0][0].legend(fontsize=6)
        for ax in axes[1]:
            ax.set_xlabel("the player's exact edge before a coup (%)", fontsize=7)
        for row in axes:
            row[0].set_ylabel("share of coups (bins of 0.1 %)", fontsize=7)

    caption = (
        f"The distribution of each side bet's exact edge (for the player, in %) before every coup of "
        f"{d.n_shoes:,} shoes of 8 decks dealt to the cut card (punto banco, turn and burn, cut card 14; "
        f"{d.n_coups:,} coups; seed {d.seed}), on the cards not yet seen; the red line is the full shoe's exact "
        "edge. Each edge is exact; the shares are ESTIMATES from a seeded simulation (the CSV gives the exact "
        "tallies). Axis cut at ±40 %; the CSV holds every bin."
    )
    return Figure(
        "edge-distribution",
        caption,
        ("bet", "edge_from", "edge_to", "coups", "full_shoe_edge_exact"),
        tuple(rows),
        draw,
        height=4.4,
    )
