"""Exact arithmetic the games share: numbers at the boundary, real algebraic numbers, number fields,
exact linear algebra, and float linear programs whose answers are proposals only.

* :mod:`.numbers` — reading what users type (never a float) and writing reduced fractions;
* :mod:`.algebraic` and :mod:`.numberfield` — irrational equilibria, exactly;
* :mod:`.linalg` — ranks and solves over the rationals or a number field;
* :mod:`.lp` — HiGHS in floats: every solver's one way to ask for a proposal, which it then certifies.

Nothing here knows baccarat (docs/design.md, "Layers").
"""
