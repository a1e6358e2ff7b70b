"""What every answer says of itself: how it was obtained, from what, and how far it is proved.

STYLE.md rule 3 (scipy's ``OptimizeResult``, Gambit's ``NashComputationResult``): a result records its
method, whether it is exact and certified, and the inputs it came from. :class:`Result` is that one
protocol, shared by the games' answers (punto banco's :class:`~solver.punto.pricing.PuntoResult`, chemin
de fer's :class:`~solver.chemin.solve.Solution` and commission sweep, baccara banque's solution) and by
the estimates (a simulation is not exact, and says so). ``unique`` has one meaning everywhere: True,
proved unique; False, proved not unique (a second answer exists); None, not decided.

:data:`Number` is the type of an exact number an answer may hold: an integer, a fraction, or a real
algebraic number (an irrational equilibrium), never a float.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Protocol, TypeAlias, runtime_checkable

from solver.exact.algebraic import Algebraic
from solver.exact.numberfield import FieldElement

Number: TypeAlias = int | Fraction | Algebraic | FieldElement
"""An exact number: an integer, a fraction, or a real algebraic number (in a number field or alone)."""


@runtime_checkable
class Result(Protocol):
    """The provenance every answer carries (docs/design.md, "Invariants")."""

    @property
    def method(self) -> str:
        """How the answer was obtained, in words."""
        ...

    @property
    def parameters(self) -> dict[str, str]:
        """The inputs it came from (shoe, model, commission, θ, ...), as they are written in JSON."""
        ...

    @property
    def exact(self) -> bool:
        """Whether every number is exact (False for estimates, which carry their standard errors)."""
        ...

    @property
    def certified(self) -> bool:
        """Whether the answer's claims were checked exactly by this run."""
        ...

    @property
    def unique(self) -> bool | None:
        """True: proved unique; False: proved not unique; None: not decided."""
        ...
