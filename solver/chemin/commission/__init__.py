"""Chemin de fer with the house's commission on the banker's wins: a bimatrix game, solved exactly.

* :mod:`.bimatrix` — equilibria at one commission α, and their check;
* :mod:`.cases` (with :mod:`.systems` and :mod:`.guidance`) — every equilibrium, by an exhaustive case
  analysis with exact refutations;
* :mod:`.sweep` and :mod:`.pieces` — the equilibrium as exact functions of α over a range;
* :mod:`.interval` and :mod:`.windows` — uniqueness over a whole piece of α.
"""
