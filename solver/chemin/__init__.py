"""Chemin de fer: the ponte against the banker, solved exactly and certified.

* :mod:`.game` — the additive game built from the enumeration (:func:`~solver.chemin.game.build_game`),
  over the shoe-independent paths of :mod:`.paths`;
* :mod:`.solve` — :func:`~solver.chemin.solve.solve` and :class:`~solver.chemin.solve.Solution`: the
  zero-sum game (:mod:`.zerosum`, :mod:`.guarantees`, :mod:`.optimal`), dominance (:mod:`.dominance`);
* :mod:`.commission` — the game with the house's commission: a bimatrix game, its equilibria, their
  uniqueness by case analysis, and the sweep over the commission α;
* :mod:`.certificate` and :mod:`.statement` — what ``baccarat-check`` verifies, and its citable claim.

The package imports neither punto banco nor baccara banque (docs/design.md, "Packages").
"""
