"""Figures of the side bets: exact edges as cards of one value leave the shoe, and the distribution of the
exact edge over the coups of simulated shoes (entered in :data:`solver.report.figures.FIGURES`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from solver.analysis.depletion import EdgeDistribution
from solver.analysis.figures import FigureInputs
from solver.exact.numbers import decimal_str, fraction_str
from solver.report.bets import bet_label
from solver.report.figures.plot import Figure, legend_above, rounded

VALUE_NAMES = ("tens", "aces", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s")
HOUSE_EDGE_AXIS = "house edge (%)"
"""The edge's axis in every side-bet figure: the house edge, as in the tables (one sign convention)."""


def value_colours() -> list[Any]:
    """Ten colours in the order of the point values, tens to 9s, from a perceptually ordered map (viridis,
    stopped short of its palest yellow), so that neighbouring values look alike and the order reads."""
    from matplotlib import colormaps

    cmap = colormaps["viridis"]
    return [cmap(0.92 * v / 9) for v in range(10)]


def value_colourbar(fig: Any, axes: Any, colours: list[Any]) -> None:
    """The key of :func:`value_colours`: a bar of ten steps beside the panels, one per point value."""
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import BoundaryNorm, ListedColormap

    bar = fig.colorbar(
        ScalarMappable(norm=BoundaryNorm(range(11), 10), cmap=ListedColormap(colours)),
        ax=axes,
        ticks=[v + 0.5 for v in range(10)],
        fraction=0.04,
        aspect=30,
    )
    bar.ax.set_yticklabels(VALUE_NAMES, fontsize=7)
    bar.ax.invert_yaxis()  # tens at the top, as the tables list them
    bar.set_label("value of the cards removed", fontsize=7)


def edge_vs_removed(inputs: FigureInputs) -> Figure:
    """Each side bet's exact house edge as cards of one value leave the 8-deck shoe."""
    points = inputs.removal
    bets = list(dict.fromkeys(p.bet for p in points))
    rows = tuple((p.bet, VALUE_NAMES[p.value], str(p.removed), fraction_str(p.edge), rounded(p.edge, True)) for p in points)

    def draw(fig: Any) -> None:
        axes = fig.subplots(2, 2, sharex=True)
        colours = value_colours()
        for ax, bet in zip([a for row in axes for a in row], bets):
            for v in range(10):
                pts = [p for p in points if p.bet == bet and p.value == v]
                ax.plot([p.removed for p in pts], [100 * float(p.edge) for p in pts], "-", lw=1.1, color=colours[v])
            ax.axhline(0, color="0.3", lw=0.7)
            ax.set_title(bet_label(bet), fontsize=8)
            ax.set_ylabel(HOUSE_EDGE_AXIS, fontsize=7)
            ax.tick_params(labelsize=7)
            ax.grid(True, color="0.88", lw=0.6)
        for ax in axes[1]:
            ax.set_xlabel("cards of one value removed from 8 decks", fontsize=7)
        value_colourbar(fig, axes, colours)

    caption = (
        "Side bets as the shoe is depleted: each bet's exact house edge (%) on 8 decks less k cards of one value, one "
        "line per value; below zero the bet favours the player. The slope at k = 0 is the effect of removal "
        "(Table of effects of removal)."
    )
    return Figure(
        "edge-vs-removed",
        caption,
        ("bet", "removed_value", "cards_removed", "edge_exact", "edge_percent_rounded"),
        rows,
        draw,
        height=3.4,
    )


def house_cumulative(d: EdgeDistribution, k: int) -> list[tuple[Fraction, int]]:
    """Bet ``k``'s house edge against the coups at which it was at most that: (x, coups with house edge ≤ x)
    at the upper end x of every bin, rising. Bin ``i`` holds the player's edges [−1 + i/1000, −1 + (i+1)/1000),
    that is the house edges (1 − (i+1)/1000, 1 − i/1000]; the last, the player's edges ≥ 1, house edges ≤ −1.

    >>> from solver.cards import Shoe
    >>> d = EdgeDistribution(Shoe.decks(8), 1, 1, 3, ("x",), (Fraction(0),), ((0,) * 1000 + (2, 1) + (0,) * 999,))
    >>> house_cumulative(d, 0)[998:1001]
    [(Fraction(-1, 500), 0), (Fraction(-1, 1000), 1), (Fraction(0, 1), 3)]
    """
    counts, out, total = d.counts[k], [], 0
    for i in range(len(counts) - 1, -1, -1):
        total += counts[i]
        out.append((-d.bin_low(i), total))
    return out


def favourable_share(d: EdgeDistribution, k: int) -> Fraction:
    """The share of the dealt coups before which bet ``k``'s house edge was at most 0 (an estimate: exact tallies
    of a seeded simulation)."""
    return Fraction(sum(d.counts[k][1000:]), d.n_coups)


def edge_distribution(inputs: FigureInputs) -> Figure:
    """The distribution of each side bet's exact edge over the coups of simulated shoes."""
    d: EdgeDistribution = inputs.distribution
    rows = []
    for name, full, counts in zip(d.bets, d.full_shoe, d.counts):
        for i, c in enumerate(counts):
            if c:
                low, high = d.bin_low(i), d.bin_low(i + 1) if i < 2000 else None
                rows.append(
                    (
                        name,
                        fraction_str(low),
                        fraction_str(high) if high is not None else "",
                        str(c),
                        fraction_str(full),
                        fraction_str(-high) if high is not None else "",
                        fraction_str(-low),
                        fraction_str(-full),
                    )
                )

    def draw(fig: Any) -> None:
        ax = fig.subplots(1, 1)
        for k, name in enumerate(d.bets):
            points = [(100 * float(x), c / d.n_coups) for x, c in house_cumulative(d, k) if c]
            house = -d.full_shoe[k]
            share = favourable_share(d, k)
            label = (
                f"{bet_label(name)}: full shoe {decimal_str(100 * house, 2)} %, "
                f"≤ 0 before {decimal_str(100 * share, 2)} % of coups"
            )
            ax.plot([x for x, _ in points], [y for _, y in points], "-", lw=1.2, color=f"C{k}", label=label)
            at_full = next(y for x, y in points if x >= 100 * float(house) - 1e-9)  # the tally up to the full shoe's edge
            ax.plot([100 * float(house)], [at_full], "o", ms=4, color=f"C{k}")
        ax.axvline(0, color="0.3", lw=0.7)
        ax.set_yscale("log")
        ax.set_xlim(-40, 40)
        ax.set_ylim(max(0.5 / d.n_coups, 1e-6), 1.5)
        ax.set_xlabel("the bet's exact house edge before a coup, on the cards not yet seen (%)")
        ax.set_ylabel("share of coups at which it\nwas at most this (log scale)")
        ax.grid(True, color="0.88", lw=0.6)
        legend_above(ax, ncol=2, fontsize=6.5, note="a dot: the full shoe's exact edge; left of 0, the bet favours the player")

    caption = (
        f"The exact house edge (%) of each side bet before every coup of {d.n_shoes:,} seeded shoes of 8 decks dealt to "
        f"the cut card 14, turn and burn ({d.n_coups:,} coups, seed {d.seed}), on the cards not yet seen: the share of "
        "coups at which it was at most x, so at 0 how often the bet favoured the player; a dot marks the full shoe's "
        "edge. The shares are ESTIMATES (the exact tallies in the CSV, bins of 0.1 %); axis cut at ±40 %."
    )
    return Figure(
        "edge-distribution",
        caption,
        (
            "bet",
            "edge_from",
            "edge_to",
            "coups",
            "full_shoe_edge_exact",
            "house_edge_from",
            "house_edge_to",
            "full_shoe_house_edge_exact",
        ),
        tuple(rows),
        draw,
        height=2.9,
    )
