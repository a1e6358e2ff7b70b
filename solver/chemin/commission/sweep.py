"""Chemin de fer as a function of the commission: the equilibrium's exact pieces over a range of α.

With commission α the banker's net slope in cell i is, over the shoe's common denominator,

    s_i(q; α) = (1 − α)(bW_i + Σ_j GW_ji q_j) − (bL_i + Σ_j GL_ji q_j),

affine in α, while the ponte's gross slope g_j(r) = a_j + Σ_i G_ji r_i does not depend on α at all.
So an equilibrium keeps its *form* (which sets are pure, at which value, and which are mixed) over
an interval of α on which:

- the banker's mixed cells stay mixed at the same probabilities (they make the ponte indifferent,
  and his indifference does not involve α);
- the ponte's mixed sets follow q(α), the solution of the banker's indifference equations
  s_i(q; α) = 0 in his mixed cells: by Cramer's rule q_j(α) = N_j(α) / Δ(α), polynomials of degree
  at most the number of mixed sets;
- every condition stays true: each q_j(α) in [0, 1], each pure banker cell's slope of the right sign
  (a rational function N/Δ of α), Δ(α) ≠ 0.

The form changes where one of these polynomials changes sign: a *breakpoint*, an algebraic number
(:class:`~solver.exact.algebraic.Algebraic`; rational where the polynomial has a rational root). The payoffs
are rational functions of α on each piece. :func:`commission_sweep` walks a range [lo, hi] ⊆ [0, 1/10]:
solve exactly at a rational α (:func:`~solver.chemin.solve.solve`), read the form, compute its piece
(the largest interval around α where its conditions hold, found exactly from the roots of the
condition polynomials), and continue just past the piece's end until the range is covered.

Uniqueness is decided at each piece's sample point as for one α (one ponte set: every equilibrium
enumerated; several: the case analysis of :mod:`solver.chemin.commission.cases`), and over the whole piece
by :attr:`CommissionSweep.inside` (:mod:`solver.chemin.commission.interval`: case analyses whose exact
proofs are shown to hold on windows of α that cover the piece). At a breakpoint both neighbouring
pieces' limits are equilibria (the conditions are closed); where they differ, the equilibrium there is
not unique, and every banker strategy between the two limits is an equilibrium too when the ponte's
limits agree (the banker's replies to one q form a convex set).

>>> from solver.cards import Shoe
>>> sweep = commission_sweep(Shoe.decks(6), 1, "casino")
>>> [p.lo.text() for p in sweep.pieces], sweep.pieces[0].ponte[0].text()
(['0'], '1')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

from solver.cards import Shoe
from solver.chemin.commission.pieces import Piece, RationalFunction, game_at, piece_of, slope_numerator
from solver.chemin.game import MAX_COMMISSION, Game, build_game
from solver.errors import ModelError, SolverError
from solver.exact.algebraic import Algebraic, padd, pmul, pscale, rational_between, sorted_algebraic
from solver.exact.numbers import fraction_str
from solver.rules.tableau import Tableau

if TYPE_CHECKING:
    from solver.chemin.commission.interval import Inside

__all__ = [
    "CommissionSweep",
    "Junction",
    "Piece",
    "RationalFunction",
    "check_solves",
    "commission_sweep",
    "equilibrium_at",
    "junctions",
]

MAX_SOLVES = 200
"""The most single-α solves a sweep makes before it gives up (a range with too many pieces)."""


@dataclass(frozen=True, eq=False)
class CommissionSweep:
    """The equilibrium of one shoe and model over a range of commissions, piece by piece.

    Attributes:
        game: the game (its win and loss forms do not depend on α; its own commission is ``lo``).
        lo, hi: the range.
        pieces: consecutive pieces covering [lo, hi]; neighbours share an end.
        overlaps: intervals where two pieces' forms hold at once (two distinct equilibria).
        solves: how many single-α solves the sweep made.
    """

    game: Game
    lo: Fraction
    hi: Fraction
    pieces: tuple[Piece, ...]
    overlaps: tuple[tuple[Algebraic, Algebraic], ...]
    solves: int

    @cached_property
    def inside(self) -> tuple[Inside, ...]:
        """For each piece, whether its equilibrium is the only one at every α inside it, decided
        exactly over the whole piece (:func:`solver.chemin.commission.interval.piece_uniqueness`)."""
        from solver.chemin.commission.interval import piece_uniqueness

        return tuple(piece_uniqueness(self.game, p) for p in self.pieces)

    @property
    def breakpoints(self) -> tuple[Algebraic, ...]:
        """Where the form changes: the shared ends of neighbouring pieces."""
        return tuple(p.hi for p in self.pieces[:-1])

    method = "exact pieces of the equilibrium as functions of the commission, each solved and certified at a sample"
    """How the sweep was made (the :class:`~solver.exact.result.Result` protocol)."""

    @property
    def exact(self) -> bool:
        """Always: the pieces' formulas and breakpoints are exact (rational functions, algebraic numbers)."""
        return True

    @property
    def certified(self) -> bool:
        """Each piece's equilibrium certified at its sample α (a sweep that cannot certify one raises)."""
        return True

    @property
    def unique(self) -> bool | None:
        """The equilibrium unique at every α inside every piece (:attr:`inside`): True, False (a second one
        found in some piece), None (not decided somewhere)."""
        verdicts = [i.unique for i in self.inside]
        return False if False in verdicts else (True if all(verdicts) else None)

    @property
    def parameters(self) -> dict[str, str]:
        """The inputs, as JSON writes them."""
        g = self.game
        return {
            "shoe": g.shoe.label(),
            "model": g.model.name(g.shoe),
            "information": str(int(g.model.information)),
            "freedom": g.model.sheet,
            "commission": f"{fraction_str(self.lo)}..{fraction_str(self.hi)}",
        }

    def __repr__(self) -> str:
        return (
            f"CommissionSweep({self.game.label} on {self.game.shoe.label()}, commission {fraction_str(self.lo)}.."
            f"{fraction_str(self.hi)}: {len(self.pieces)} piece{'' if len(self.pieces) == 1 else 's'})"
        )

    def piece_at(self, alpha: Fraction) -> Piece:
        """The first piece containing a rational α."""
        for p in self.pieces:
            if p.contains(alpha):
                return p
        raise ModelError(f"commission {alpha} is outside the sweep [{self.lo}, {self.hi}]")


# -- the sweep ----------------------------------------------------------------------------------------


def commission_span(lo: Fraction | int | str, hi: Fraction | int | str) -> tuple[Fraction, Fraction]:
    """A commission range's two ends, exact.

    Raises:
        ModelError: the range is reversed or leaves [0, 1/10].
    """
    from solver.exact.numbers import exact

    a, b = exact(lo, "commission"), exact(hi, "commission")
    if not 0 <= a <= b <= MAX_COMMISSION:
        raise ModelError(f"a commission range runs from low to high within [0, 1/10], got {a}..{b}")
    return a, b


def commission_sweep(
    shoe: Shoe,
    information: int,
    freedom: str | Tableau,
    lo: Fraction | int | str = 0,
    hi: Fraction | int | str = MAX_COMMISSION,
    progress: Callable[[Fraction], None] | None = None,
) -> CommissionSweep:
    """The equilibrium of chemin de fer on ``shoe`` for every commission α in [lo, hi], exactly.

    Args:
        shoe, information, freedom: the game (see :func:`solver.chemin.game.build_game`).
        lo, hi: the range, within [0, 1/10], lo <= hi.
        progress: called with each α solved.

    Raises:
        ModelError: the range is reversed or leaves [0, 1/10].
        SolverError: more than :data:`MAX_SOLVES` solves were needed.

    Sweeps are remembered per (shoe, model, range).
    """
    a, b = commission_span(lo, hi)
    key = (shoe, information, freedom, a, b)
    if key not in _SWEEPS:
        if len(_SWEEPS) >= 32:
            _SWEEPS.clear()
        _SWEEPS[key] = _sweep(shoe, information, freedom, a, b, progress)
    return _SWEEPS[key]


_SWEEPS: dict[tuple[object, ...], CommissionSweep] = {}


def _sweep(
    shoe: Shoe, information: int, freedom: str | Tableau, a: Fraction, b: Fraction, progress: Callable[[Fraction], None] | None
) -> CommissionSweep:
    from solver.chemin.solve import solve

    game = build_game(shoe, information, freedom, a)
    found: list[Piece] = []
    pieces: list[Piece] = []
    overlaps: list[tuple[Algebraic, Algebraic]] = []
    solves = 0

    def piece_at(alpha: Fraction) -> Piece:
        nonlocal solves
        solves += 1
        if solves > MAX_SOLVES:
            raise SolverError(f"more than {MAX_SOLVES} solves for the commission range {a}..{b}")
        if progress is not None:
            progress(alpha)
        s = solve(game_at(game, alpha))
        p = piece_of(s.game, s.q, s.r, alpha, s.unique_equilibrium if alpha else (s.unique_ponte and s.unique_banker), a, b)
        found.append(p)
        return p

    first = piece_at(a)
    pieces.append(first)
    covered = first.hi
    end = Algebraic.rational(b)
    while covered < end:
        # The piece that starts where the covered part ends: one found already, or solve just beyond;
        # a solve that lands in a later piece narrows the search.
        nxt = next((p for p in found if p.lo == covered and covered < p.hi), None)
        if nxt is None:
            bound = sorted_algebraic([p.lo for p in found if covered < p.lo] + [end])[0]
            p = piece_at(rational_between(covered, bound))
            if covered < p.lo:
                continue
            if p.lo < covered:
                overlaps.append((p.lo, covered))
            nxt = p
        pieces.append(nxt)
        covered = nxt.hi
    return CommissionSweep(game, a, b, tuple(pieces), tuple(overlaps), solves)


# -- checks -------------------------------------------------------------------------------------------


def check_solves(sweep: CommissionSweep, alphas: list[Fraction]) -> list[str]:
    """Compare each piece, evaluated at the given rational α, with a fresh exact solve there.

    Returns one line per disagreement (none: the sweep agrees with every solve).
    """
    from solver.chemin.solve import solve

    problems = []
    for alpha in alphas:
        s = solve(game_at(sweep.game, alpha))
        q, r, banker, ponte = sweep.piece_at(alpha).at(alpha)
        if (q, r, banker, ponte) != (s.q, s.r, s.banker_payoff, s.ponte_payoff):
            problems.append(f"alpha = {alpha}: the piece gives another equilibrium than a fresh solve")
    return problems


def equilibrium_at(game: Game, piece: Piece, theta: Algebraic) -> bool:
    """Whether the piece's formulas, continued to the algebraic α = theta, give an equilibrium there.

    Every sign is computed exactly in Q(theta), from the game's own win and loss forms: each ponte set
    must be a best reply to r (gross slopes, not depending on α), each banker cell to q(theta) (net
    slope Δ·s_i, with the sign of Δ), and each q_j(theta) in [0, 1].
    """
    W, L = game.win, game.loss
    m, n = len(game.ponte_sets), len(game.banker_sets)
    delta, N, r = piece.delta, piece.numerators, piece.banker
    sd = theta.sign_of(delta)
    if sd == 0:
        return False
    for j in range(m):
        if theta.sign_of(pmul(N[j], delta)) < 0 or theta.sign_of(pmul(padd(delta, pscale(N[j], -1)), delta)) < 0:
            return False
        g = int(W.a[j]) - int(L.a[j]) + sum((int(W.G[j][i]) - int(L.G[j][i])) * r[i] for i in range(n) if r[i])
        sq = theta.sign_of(pmul(N[j], delta))  # q_j > 0 ?
        s1 = theta.sign_of(pmul(padd(delta, pscale(N[j], -1)), delta))  # q_j < 1 ?
        if (g > 0 and sq > 0) or (g < 0 and s1 > 0):
            return False
    for i in range(n):
        s = theta.sign_of(slope_numerator(game, i, N, delta)) * sd
        if (s > 0 and r[i] != 1) or (s < 0 and r[i] != 0):
            return False
    return True


@dataclass(frozen=True)
class Junction:
    """What happens at a breakpoint between two pieces.

    ``equilibria``: both pieces' limits are equilibria there (must hold). ``same_ponte``,
    ``same_banker``: whether the two limits' strategies agree; where they do not, the equilibrium at
    the breakpoint is not unique. ``same_banker_payoff``, ``same_ponte_payoff``: whether the payoffs
    agree (the banker's must where the ponte's strategy does: the cells that change are those he is
    indifferent in).
    """

    at: Algebraic
    equilibria: bool
    same_ponte: bool
    same_banker: bool
    same_banker_payoff: bool
    same_ponte_payoff: bool

    @property
    def unique(self) -> bool:
        return self.same_ponte and self.same_banker


def junctions(sweep: CommissionSweep) -> list[Junction]:
    """Each breakpoint, with both neighbouring pieces continued to it and compared exactly."""
    out = []
    for left, right in zip(sweep.pieces, sweep.pieces[1:]):
        theta = left.hi

        def same(f: RationalFunction, g: RationalFunction, theta: Algebraic = theta) -> bool:
            return theta.sign_of(padd(pmul(f.numerator, g.denominator), pscale(pmul(g.numerator, f.denominator), -1))) == 0

        ok = (
            not left.open_hi
            and not right.open_lo
            and equilibrium_at(sweep.game, left, theta)
            and equilibrium_at(sweep.game, right, theta)
        )
        out.append(
            Junction(
                at=theta,
                equilibria=ok,
                same_ponte=all(same(f, g) for f, g in zip(left.ponte, right.ponte)),
                same_banker=left.banker == right.banker,
                same_banker_payoff=same(left.banker_payoff, right.banker_payoff),
                same_ponte_payoff=same(left.ponte_payoff, right.ponte_payoff),
            )
        )
    return out
