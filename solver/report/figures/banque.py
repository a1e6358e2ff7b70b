"""The figure of baccara banque: the banker's advantage against θ for each solution concept (exact; entered
in :data:`solver.report.figures.FIGURES`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from solver.analysis.figures import FigureInputs
from solver.banque.committed import theta_one_limit_of
from solver.banque.vocabulary import Concept
from solver.exact.numberfield import decimal_of
from solver.exact.numbers import fraction_str
from solver.report.banque import CONCEPT_NAMES, exact_json
from solver.report.banque_section import certified_word
from solver.report.figures.plot import ROUNDED, Figure, legend_above, meeting_note


def _exact(x: Any) -> str:
    """``p/q``, or for an irrational number where to find it exactly."""
    v = exact_json(x)
    return str(v) if isinstance(v, str) else "irrational: baccarat banque --format json gives it exactly"


def banque_theta(inputs: FigureInputs) -> Figure:
    """The banker's advantage in baccara banque against Player 1's share θ, one line per concept."""
    entries = inputs.banque
    concepts = list(dict.fromkeys(e.concept for e in entries))
    rows: tuple[tuple[str, ...], ...] = tuple(
        (
            fraction_str(e.theta),
            e.concept.value,
            str(e.exists).lower(),
            _exact(e.value) if e.exists else "",
            decimal_of(e.value, ROUNDED) if e.exists else "",
            certified_word(e).lower(),
        )
        for e in entries
    )

    first = entries[0]
    limit = theta_one_limit_of(first.shoe, first.model)
    if limit is not None:
        rows += (("1", "limit as theta -> 1", "true", fraction_str(limit), decimal_of(limit, ROUNDED), "committed"),)

    thetas = list(dict.fromkeys(e.theta for e in entries))
    value: dict[tuple[Fraction, Concept], Any] = {(e.theta, e.concept): e.value if e.exists else None for e in entries}
    series = [(CONCEPT_NAMES[c], tuple(value.get((t, c)) for t in thetas)) for c in concepts]
    note = meeting_note([(name.split()[0], values) for name, values in series], [fraction_str(t) for t in thetas], at="θ = ")
    nash, correlated = Concept.NASH, Concept.CORRELATED
    differences = [  # what the players lose by choosing apart rather than with a shared device (drawn below)
        (t, value[(t, nash)], value[(t, correlated)])
        for t in thetas
        if value.get((t, nash)) is not None and value.get((t, correlated)) is not None
    ]

    def percent(x: Any) -> float:
        return float(decimal_of(x * 100, 8))  # for drawing only: the CSV keeps it exact

    def draw(fig: Any) -> None:
        from matplotlib.lines import Line2D

        top, low = fig.subplots(2, 1, sharex=True, height_ratios=(3, 1.3))
        styles = {
            # nested where they coincide: a large hollow circle, a hollow triangle inside it, a small square inside that
            Concept.NASH: {"ls": "-", "marker": "o", "ms": 8, "mfc": "white", "zorder": 3},
            Concept.INDEPENDENT: {"ls": ":", "marker": "^", "ms": 5, "mfc": "white", "zorder": 4},
            Concept.CORRELATED: {"ls": "--", "marker": "s", "ms": 2.5, "zorder": 5},
        }
        for k, (c, (name, values)) in enumerate(zip(concepts, series)):
            ys = [percent(v) if v is not None else float("nan") for v in values]  # nan: a gap where none exists
            top.plot([float(t) for t in thetas], ys, lw=1.2, color=f"C{k}", label=name, **styles[c])
        missing = [float(t) for t in thetas if value.get((t, Concept.INDEPENDENT), 0) is None]
        handles = top.get_legend_handles_labels()[0]
        if missing:
            k = concepts.index(Concept.INDEPENDENT)
            top.plot(missing, [0.02] * len(missing), "x", ms=5, color=f"C{k}", transform=top.get_xaxis_transform(), clip_on=False)
            handles.append(Line2D([], [], ls="none", marker="x", ms=5, color=f"C{k}", label="θ where it does not exist (proved)"))
        if limit is not None:
            (star,) = top.plot([1.0], [percent(limit)], "k*", ms=8, label="limit as θ → 1 (chemin de fer on tableau 1)")
            handles.append(star)
        top.set_ylabel("banker's advantage (%)")
        top.grid(True, color="0.88", lw=0.6)
        legend_above(top, handles, ncol=3, note=note)
        if differences:
            k = concepts.index(nash)
            low.plot(
                [float(t) for t, _, _ in differences],
                [1e6 * float(decimal_of(n - c, 12)) for _, n, c in differences],
                "o-",
                ms=4,
                mfc="white",
                lw=1,
                color=f"C{k}",
            )
        low.axhline(0, color="0.3", lw=0.7)
        low.set_ylabel("Nash minus\ncorrelated\n($10^{-6}$ of the stake)", fontsize=7)
        low.tick_params(labelsize=7)
        low.grid(True, color="0.88", lw=0.6)
        low.set_xlabel("θ, Player 1's share of the total stake")

    caption = (
        f"Baccara banque on an infinite deck (model {first.label}: information 1, a blind second player, every "
        "banker decision free, no tax): the banker's advantage, his expected gain per unit of total stake in %, "
        "against Player 1's share θ of the stake, for each solution concept: the Nash equilibrium, the "
        "correlated cooperative solution (the players as a team with a shared random device) and the "
        "independent cooperative one, drawn only where it exists (a cross on the axis where it is proved not to); where "
        "the three coincide the legend says so, and below, the Nash value minus the correlated one (the price of "
        "playing without a shared device). Every point is exact "
        "(an irrational one drawn from its exact bounds; the CSV says where its exact form is), solved and certified "
        "now or read from a committed certificate that the independent checker verifies (the CSV says which); "
        "at θ = 1/2 the rule sheets' 0.87 %. The star at θ = 1 is the limit as θ → 1, chemin de fer against tableau 1 "
        "with the banker also seeing tableau 2: on this infinite deck chemin de fer's value exactly (Kemeny and "
        "Snell's 1.2799 %); on a finite shoe the limit is above chemin de fer's value, because the cards tableau 2 "
        "shows are gone from the shoe (6 decks: by 0.00105 % of the stake; baccarat banque --limit)."
    )
    return Figure(
        "banque-theta",
        caption,
        ("theta", "concept", "exists", "value_exact", "value_rounded", "certified"),
        rows,
        draw,
        height=3.8,
    )
