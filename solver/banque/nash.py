"""Nash equilibria of the three-person game (Player 1, Player 2, the banker): which search, and what it proved.

Player 1 minimises E[R1], Player 2 minimises E[R2] (each his own tableau), the banker maximises
θ E[R1] + (1 − θ) E[R2] net of the tax. Each payoff is multilinear and holds a side's variables
linearly, so a profile is an equilibrium iff every side plays, set by set, a best reply to the signs
of its exact slopes: draw where drawing gains, stand where it loses, mix only where the slope is zero.

Two searches:

* **complete** (:mod:`solver.banque.parametric`), where Player 1 has one set and the game splits into
  small games of one set of Player 2 each (information 1 and 2, either second player): x = 0, x = 1,
  every point of the partition of Player 1's probability x and every root of Player 1's slope on every
  piece between them. An equilibrium exists (Nash's theorem), so this search always finds one unless a
  point or piece is *undecided*; then the answer names every undecided part, and what it proved about
  the rest ("no equilibrium with x in ...").
* **proposed** (:mod:`solver.banque.proposals`, information 3): supports proposed by fictitious play in
  floats, solved and certified exactly. It is not exhaustive; when it finds nothing the answer says so
  and proves nothing about the supports it did not certify.

The complete search orders its work to find one early and stops there: x = 0 and x = 1 (where it
finds none, that is proved, and the answer and its certificate say so: Player 1 must mix); then an
exact bisection on the sign of Player 1's slope (:mod:`solver.banque.bisection`, a fast path that
proves nothing when it fails); then every point and piece of the partition. Every answer is certified
by exact best replies of all three sides (:func:`certify_profile`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from solver.banque.bisection import bisect
from solver.banque.forms import Payoff
from solver.banque.parametric import ONE, ZERO, SplitGame, as_number, in_field, partition, piece_roots, profile, solve_at, split
from solver.banque.proposals import support_search
from solver.banque.subgame import Undecided, components
from solver.banque.support import NashAnswer, certify_profile
from solver.errors import SolverError
from solver.exact.algebraic import Algebraic, rational_between
from solver.exact.numberfield import decimal_of

ENDS = (
    "Player 1's pure strategies tried first: an equilibrium at {where}, the small games of Player 2 "
    "against the banker solved exactly (every component); certified by exact best-reply checks of all three sides"
)
BISECTION = (
    "x = 0 and x = 1 proved not to be equilibria (every component of the small games of Player 2 against "
    "the banker enumerated exactly); bisection on the sign of Player 1's slope, in exact arithmetic, found "
    "{where}; solved exactly (algebraic numbers where needed) and certified by exact best-reply checks of "
    "all three sides"
)
COMPLETE = (
    "complete search over Player 1's draw probability x (x = 0, x = 1, the {points} points where the small "
    "games of Player 2 against the banker change form, and every root of Player 1's slope on the {pieces} "
    "pieces between them); found {where}; solved exactly (algebraic numbers where needed) and certified by "
    "exact best-reply checks of all three sides"
)


class NashNotFound(SolverError):
    """No certified Nash equilibrium was found; ``covered`` says exactly what the search proved and what
    it left open (an equilibrium exists, by Nash's theorem, in the part left open); ``proposal`` is the
    float profile the search ended on, if any (for :mod:`solver.banque.bounds`)."""

    def __init__(self, covered: str, proposal: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> None:
        super().__init__(f"no certified Nash equilibrium found: {covered}")
        self.covered = covered
        self.proposal = proposal


@dataclass(frozen=True)
class Piece:
    """One part of the complete search: a point x of the partition, or the open piece (lo, hi)."""

    lo: Algebraic
    hi: Algebraic | None

    def words(self) -> str:
        if self.hi is None:
            return f"x = {self.lo.decimal(6)}"
        return f"x in ({self.lo.decimal(6)}, {self.hi.decimal(6)})"


def nash(pb: Payoff, p1: Payoff, p2: Payoff, inert: tuple[tuple[bool, ...], ...], hint: NashAnswer | None = None) -> NashAnswer:
    """A certified Nash equilibrium (see the module docstring).

    Args:
        pb: the banker's payoff (he maximises it); p1, p2: E[R1] and E[R2] (each player minimises his).
        inert: per side, the sets whose choice changes nothing.
        hint: an equilibrium of a nearby game (the previous θ of a sweep), for the proposed search.

    Raises:
        NashNotFound: no equilibrium was certified; the message says what the search covered.
    """
    game = split(pb, p1, p2)
    if game is not None:
        return complete_search(pb, p1, p2, game)
    found, tried, state = support_search(pb, p1, p2, inert, hint=hint)
    if found is not None:
        return found
    m1, m2, _ = pb.sizes()
    raise NashNotFound(
        f"the search is not exhaustive here (Player 1 has {m1} sets and Player 2's {m2} sets share banker cells, "
        f"so the game does not split into small games of one set each): it tried the {tried} supports that "
        "fictitious play proposed, and a support it did not certify is not refuted; nothing is proved about "
        "the others (an equilibrium exists, by Nash's theorem)",
        state,
    )


def complete_search(pb: Payoff, p1: Payoff, p2: Payoff, game: SplitGame) -> NashAnswer:
    """The complete search of :mod:`solver.banque.parametric`: x = 0 and x = 1, then the fast path of
    :mod:`solver.banque.bisection`, then every point and piece of the partition.

    Raises:
        NashNotFound: every part was searched and an undecided part remains (named in the message).
    """
    m2 = pb.sizes()[1]
    undecided: dict[Piece, str] = {}
    refuted: list[Fraction] = []
    for part in (Piece(ZERO, None), Piece(ONE, None)):
        try:
            found = _attempt(pb, p1, p2, game, as_number(part.lo), None, m2)
        except Undecided as e:
            undecided[part] = str(e)
            continue
        if found is not None:
            return _with_method(found, ENDS.format(where=part.words()))
        refuted.append(part.lo.value)
    if len(refuted) == 2:
        for candidate in bisect(game):
            x, at = (candidate, None) if isinstance(candidate, Fraction) else (as_number(candidate), candidate)
            found = _attempt(pb, p1, p2, game, x, at, m2)
            if found is not None:
                shown = candidate.decimal(6) if isinstance(candidate, Algebraic) else decimal_of(candidate, 6)
                return _with_method(found, BISECTION.format(where=f"x = {shown}"), refuted)
    points = partition(game)
    for part in _pieces(points):
        try:
            for x, at in _candidates(game, part):
                found = _attempt(pb, p1, p2, game, x, at, m2)
                if found is not None:
                    where = part.words() if part.hi is None else f"a root of Player 1's slope with {part.words()}"
                    method = COMPLETE.format(points=len(points), pieces=len(points) - 1, where=where)
                    return _with_method(found, method, refuted)
        except Undecided as e:
            undecided[part] = str(e)
    open_parts = "; ".join(f"{p.words()} ({why})" for p, why in undecided.items())
    raise NashNotFound(
        f"the complete search over Player 1's draw probability x proved that no equilibrium has x outside "
        f"the parts it could not decide: {open_parts}; an equilibrium exists (Nash's theorem), so one lies there"
    )


def _pieces(points: list[Algebraic]) -> Iterator[Piece]:
    """Every open piece and every inner point of the partition, ascending (the ends are tried first)."""
    for lo, hi in zip(points, points[1:]):
        yield Piece(lo, hi)
        if hi != points[-1]:
            yield Piece(hi, None)


def _candidates(game: SplitGame, part: Piece) -> Iterator[tuple[Any, Algebraic | None]]:
    """The x to solve at for one part: the point itself, or the roots of Player 1's slope on the piece."""
    if part.hi is None:
        yield as_number(part.lo), part.lo
        return
    s = rational_between(part.lo, part.hi)
    per_group = [components(g, s) for g in game.groups]
    for root in piece_roots(per_group, game.t0, part.lo, part.hi, s):
        if isinstance(root, Fraction):
            yield root, None
        else:
            yield as_number(root), root


def _attempt(pb: Payoff, p1: Payoff, p2: Payoff, game: SplitGame, x: Any, at: Algebraic | None, m2: int) -> NashAnswer | None:
    choice = solve_at(game, x)
    if choice is None:
        return None
    xs, ys, rs = profile(game, x, choice, m2)
    if at is not None:  # one field for all three strategies (numbers of two fields do not mix)
        every = in_field(xs + ys + rs, at)
        xs, ys, rs = every[: len(xs)], every[len(xs) : len(xs) + len(ys)], every[len(xs) + len(ys) :]
    if not certify_profile(pb, p1, p2, xs, ys, rs):  # pragma: no cover - the enumeration's own answer
        raise SolverError("the complete search's equilibrium did not certify (a bug: please report it)")
    return NashAnswer(
        x=tuple(xs),
        y=tuple(ys),
        r=tuple(rs),
        field=_field_of(xs + ys + rs),
        banker_payoff=pb.value(xs, ys, rs),
        result1=p1.value(xs, ys, rs),
        result2=p2.value(xs, ys, rs),
        support=(
            tuple(q for q, v in enumerate(xs) if 0 < v < 1),
            tuple(q for q, v in enumerate(ys) if 0 < v < 1),
            tuple(q for q, v in enumerate(rs) if 0 < v < 1),
        ),
        method="",
    )


def _field_of(values: list[Any]) -> Any:
    from solver.exact.numberfield import FieldElement

    fields = {v.field for v in values if isinstance(v, FieldElement)}
    return fields.pop() if fields else None


def _with_method(a: NashAnswer, method: str, refuted: list[Fraction] | None = None) -> NashAnswer:
    from dataclasses import replace

    return replace(a, method=method, refuted=tuple(refuted or ()))
