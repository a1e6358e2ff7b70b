"""Figures: each a small function of the results (:class:`solver.analysis.figures.FigureInputs`), registered in
:data:`FIGURES`.

A figure function returns a :class:`~solver.report.figures.plot.Figure`: its caption, the CSV of exactly the
numbers it draws (exact ``p/q`` strings; estimates in columns that say so), and a function that draws
it on a matplotlib figure; :mod:`solver.report.figures.plot` renders it. Adding a figure is one function and
one entry in :data:`FIGURES` (a family of figures may live in a module of its own and be entered here).
"""

from __future__ import annotations

from collections.abc import Callable

from solver.analysis.figures import FigureInputs
from solver.report.figures import banque, chemin, punto, side_bets
from solver.report.figures.plot import PNG_DPI, WIDTH_IN, Figure, deck_axis, figure_csv, figure_tex, images, plot_series

__all__ = ["FIGURES", "PNG_DPI", "WIDTH_IN", "Figure", "deck_axis", "figure_csv", "figure_tex", "images", "plot_series"]

FIGURES: dict[str, Callable[[FigureInputs], Figure]] = {
    "punto-edges": punto.punto_edges,
    "chemin-values": chemin.chemin_values,
    "ponte-draw-at-5": chemin.ponte_draw_at_5,
    "banker-mixed-cell": chemin.banker_mixed_cell,
    "cut-card-effect": punto.cut_card_effect,
    "convergence": punto.convergence,
    "edge-vs-removed": side_bets.edge_vs_removed,
    "edge-distribution": side_bets.edge_distribution,
    "banque-theta": banque.banque_theta,
}
"""Every figure ``baccarat figures`` writes, by file name, in the order docs/report.tex shows them."""
