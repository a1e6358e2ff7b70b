"""A run of several θ and concepts: every certified answer kept, every failure recorded with its reason.

θ as users write it (:func:`parse_thetas`: a value, a list, a sweep ``LO..HI/STEPS``); every concept at
every θ from one enumeration (:func:`solve_sweep`), the coefficients not depending on θ. A concept at a θ
that has no certified answer (a Nash search that could not finish: it says what it covered, with
certified bounds) is recorded as a :class:`BanqueFailure` and the run goes on.

>>> from solver.cards import Shoe
>>> from solver.banque.game import BanqueModel
>>> done, failed = solve_sweep(Shoe.infinite(), BanqueModel(1, "blind", "casino"), parse_thetas("1/4,1/2"), ["nash"])
>>> [str(s.theta) for s in done], failed
(['1/4', '1/2'], [])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from solver.banque.game import BanqueModel, build_banque
from solver.banque.solve import BanqueSolution, check_theta, solve_banque
from solver.banque.vocabulary import Concept
from solver.cards import Shoe
from solver.errors import ModelError, SolverError

MAX_THETAS = 1000
"""The most values of θ one command may ask for."""


def parse_thetas(text: str) -> list[Fraction]:
    """θ as users write it: ``1/2``, ``0.45``, a comma list ``1/3,1/2``, or a sweep ``LO..HI/STEPS``
    (STEPS + 1 equally spaced values from LO to HI). Every value must lie in (0, 1).

    >>> [str(t) for t in parse_thetas("1/4..3/4/2")], [str(t) for t in parse_thetas("0.5, 1/3")]
    (['1/4', '1/2', '3/4'], ['1/2', '1/3'])

    Raises:
        ModelError: a value outside (0, 1), or a malformed sweep.
    """
    out: list[Fraction] = []
    for part in str(text).split(","):
        p = part.strip()
        if ".." in p:
            lo_text, _, rest = p.partition("..")
            hi_text, slash, steps_text = rest.rpartition("/")
            if not slash or not hi_text:
                raise ModelError(f"a sweep of theta is written LO..HI/STEPS, e.g. 1/20..19/20/18, got {p!r}")
            try:
                steps = int(steps_text)
            except ValueError:
                raise ModelError(f"the number of steps of a sweep is a whole number, got {steps_text!r}") from None
            if not 1 <= steps < MAX_THETAS:
                raise ModelError(f"a sweep has 1 to {MAX_THETAS - 1} steps, got {steps}")
            try:
                lo, hi = check_theta(lo_text), check_theta(hi_text)
            except ModelError as e:
                raise ModelError(
                    f"a sweep of theta is written LO..HI/STEPS, e.g. 1/20..19/20/18; in {p!r} LO is "
                    f"{lo_text!r}, HI {hi_text!r} and STEPS {steps}: {e}"
                ) from None
            out += [lo + (hi - lo) * k / steps for k in range(steps + 1)]
        else:
            out.append(check_theta(p))
        if len(out) > MAX_THETAS:
            raise ModelError(f"at most {MAX_THETAS} values of theta")
    return out


@dataclass(frozen=True)
class BanqueFailure:
    """A concept at a θ that a run could not answer: what was asked, and why (``reason``: what the search
    proved and left open, and the certified bounds; see :class:`~solver.banque.nash.NashNotFound`)."""

    shoe: Shoe
    model: BanqueModel
    theta: Fraction
    concept: Concept
    reason: str


def load_solvers(information: int) -> None:
    """Import what a solve imports when it first runs (sympy, scipy's optimisers and sparse matrices,
    HiGHS: about 0.8 s of CPU; and ``sympy.tensor.tensor``, which sympy's first sum imports, with
    ``sympy.combinatorics``: about 0.1 s more) and build the enumeration's shoe-independent tables of
    ``information`` (:func:`solver.banque.deal.structure`, about 0.3 s). A sweep that forks local
    workers calls it first, so that the workers share all this instead of each doing it again."""
    import highspy  # noqa: F401
    import scipy.optimize  # noqa: F401
    import scipy.sparse  # noqa: F401
    import sympy  # noqa: F401
    import sympy.tensor.tensor  # noqa: F401

    from solver.banque.deal import multiset_table, structure

    multiset_table()
    structure(information)


def solve_sweep(
    shoe: Shoe,
    model: BanqueModel,
    thetas: Sequence[object],
    concepts: Sequence[Concept | str],
    progress: Callable[[int], None] | None = None,
) -> tuple[list[BanqueSolution], list[BanqueFailure]]:
    """Every concept at every θ, from one enumeration (the coefficients do not depend on θ): every answer
    certified, and every concept and θ that has none, with its reason; one failure never stops the run.
    Each Nash search is seeded with the last θ's equilibrium found.

    ``progress`` is called with the number of concepts and θ done (answered or not).

    Raises:
        ModelError: θ outside (0, 1), an unknown concept, the independent concept with a tax.
    """
    g = build_banque(shoe, model)
    wanted = [Concept.parse(c) for c in concepts]
    done: list[BanqueSolution] = []
    failed: list[BanqueFailure] = []
    last_nash: BanqueSolution | None = None
    for t in thetas:
        theta = check_theta(t)
        for c in wanted:
            try:
                hint = last_nash if c in (Concept.NASH, Concept.INDEPENDENT) else None
                s = solve_banque(shoe, model, theta, c, game=g, hint=hint)
            except ModelError:
                raise
            except SolverError as e:
                failed.append(BanqueFailure(shoe, model, theta, c, str(e)))
            else:
                if c is Concept.NASH:
                    last_nash = s
                done.append(s)
            if progress is not None:
                progress(len(done) + len(failed))
    return done, failed


def solve_concepts(
    shoe: Shoe,
    model: BanqueModel,
    thetas: Sequence[object],
    concepts: Sequence[Concept | str],
    progress: Callable[[int], None] | None = None,
) -> list[BanqueSolution]:
    """Every concept at every θ, as :func:`solve_sweep`, where every one must be answered.

    Raises:
        SolverError: some concept at some θ has no certified answer (the first one's reason).
    """
    done, failed = solve_sweep(shoe, model, thetas, concepts, progress)
    if failed:
        raise SolverError(failed[0].reason)
    return done
