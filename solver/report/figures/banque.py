"""The figure of baccara banque: the banker's advantage against θ for each solution concept (exact; entered
in :data:`solver.report.figures.FIGURES`)."""

from __future__ import annotations

from typing import Any

from solver.analysis.figures import FigureInputs
from solver.banque.committed import theta_one_limit_of
from solver.exact.numberfield import decimal_of
from solver.exact.numbers import fraction_str
from solver.report.banque import CONCEPT_NAMES, exact_json
from solver.report.banque_section import certified_word
from solver.report.figures.plot import ROUNDED, Figure


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

    def draw(fig: Any) -> None:
        ax = fig.subplots(1, 1)
        for k, c in enumerate(concepts):
            pts = [(float(e.theta), float(decimal_of(e.value * 100, 8))) for e in entries if e.concept == c and e.exists]
            if pts:
                ax.plot(
                    [x for x, _ in pts], [y for _, y in pts], ["o-", "s--", "^:"][k % 3], ms=4, lw=1.2, label=CONCEPT_NAMES[c]
                )
        if limit is not None:
            ax.plot([1.0], [float(decimal_of(limit * 100, 8))], "k*", ms=8, label="limit as θ → 1 (chemin de fer on tableau 1)")
        ax.set_xlabel("θ, Player 1's share of the total stake")
        ax.set_ylabel("banker's advantage (%)")
        ax.grid(True, color="0.88", lw=0.6)
        ax.legend(fontsize=7)

    caption = (
        f"Baccara banque on an infinite deck (model {first.label}: information 1, a blind second player, every "
        "banker decision free, no tax): the banker's advantage, his expected gain per unit of total stake in %, "
        "against Player 1's share θ of the stake, for each solution concept: the Nash equilibrium, the "
        "correlated cooperative solution (the players as a team with a shared random device) and the "
        "independent cooperative one, drawn only where it exists (elsewhere proved not to). Every point is exact "
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
        height=3.0,
    )
