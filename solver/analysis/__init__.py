"""What the reports, the paper's tables and the figures compute; :mod:`solver.report` renders it.

* :mod:`.report` — the full report on a shoe (:func:`~solver.analysis.report.full_report`);
* :mod:`.paper` — the paper's tables (:func:`~solver.analysis.paper.paper_results`);
* :mod:`.figures` — what each figure draws, each family computed once (:class:`~solver.analysis.figures.FigureInputs`);
* :mod:`.depletion` — side bets as cards leave the shoe, and the edge's distribution over shoes.
"""
