"""Uniqueness of the commission game's equilibrium over a whole piece of α, not only at one α.

A piece of the sweep (:mod:`solver.chemin.commission.pieces`) is an interval of commissions on which one
equilibrium (q(α), r) keeps its form. Is it the *only* equilibrium at every α of the piece? The case
analysis of :mod:`solver.chemin.commission.cases` decides that at one rational α₁; this module shows that
its proof, read as a function of α, holds on the whole open interval (lo, hi), exactly.

Only the ponte's system depends on α: its rows are the banker's net slopes

    s_i(x; α) = Σ (W − L) − α Σ W      (affine in α for fixed x; W, L the win and loss forms),

while the banker's rows (the ponte's gross slopes) and every split of the tree do not. So:

- A leaf refuted on the banker's side is refuted at every α.
- A leaf refuted on the ponte's side by integer multipliers y shows, at α₁, that
  F(α) = max over the case's box of Σ_k y_k σ_k s_k(x; α) is negative. The maximum over the box of
  a function affine in α at each of its points is *convex* in α. A convex function that is ≤ 0 at
  both ends of an interval and < 0 at one interior point is < 0 on the whole open interval (were it 0
  at an interior point it would equal its chord, hence 0, everywhere on the interval). So the same
  multipliers refute the case at every α in (lo, hi) once F(lo) ≤ 0, F(hi) ≤ 0 (exact signs at the
  algebraic ends) and F(α₁) < 0.
- A pinned leaf (the case's equations leave one point, the known equilibrium) holds on the interval
  when q(α) satisfies the case's equations and fixed coordinates identically (polynomial identities
  after clearing Δ) and the equations keep full column rank: a maximal minor chosen at α₁ (a
  polynomial of degree at most its size, found by interpolation) has no root inside (lo, hi).
- Iterated dominance: each banker step says a net slope keeps one sign over a box, a condition of
  the same convex kind; each ponte step does not involve α.

So one tree, built at α₁, proves uniqueness on a *window*: the open interval around α₁ on which every
condition holds. The functions F are piecewise affine in α with rational kinks (where a coefficient
changes sign), so each window's ends are found exactly: rational zeros of F, or real roots of a
minor. Where a window stops short of the piece's end, a new tree is built at that end (a rational α
strictly inside its own window) and the walk goes on, until the windows cover the piece or
:data:`MAX_TREES` trees are spent. Every equilibrium at every α of the covered part lies in a leaf of
a tree valid there, and each leaf holds none, or only (q(α), r): the equilibrium is unique there. An
end of the piece is covered too when every condition of the last tree is strict there (the range's
own ends; never a breakpoint where the equilibrium jumps).

>>> from solver.cards import Shoe
>>> from solver.chemin.commission.sweep import commission_sweep
>>> sweep = commission_sweep(Shoe.decks(1), 2, "parlor", 0, "1/40")
>>> inside = piece_uniqueness(sweep.game, sweep.pieces[0])
>>> inside.unique, inside.ends, inside.leaves > 50
(True, (True, True), True)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from solver.chemin.commission.cases import Case, Pinned, Refuted, Split, case_analysis, key_text, reduced_systems
from solver.chemin.commission.pieces import Piece, game_at, slope_numerator
from solver.chemin.commission.systems import DRAW, INDIFFERENT, STAND, refutation
from solver.chemin.commission.windows import Line, Window, add, at, zeros_of_box_max
from solver.chemin.dominance import iterated_dominance
from solver.chemin.game import Game
from solver.exact.algebraic import (
    Algebraic,
    Poly,
    interpolate,
    padd,
    peval,
    pmul,
    poly,
    pscale,
    psub,
    rational_between,
    real_roots,
)
from solver.exact.linalg import det, independent_rows
from solver.rules.tableau import Action
from solver.strategy import Side

Ends = tuple[Algebraic | None, Algebraic | None]
"""A window's lower and upper end (None: beyond the piece)."""


MAX_TREES = 16
"""The most case analyses :func:`piece_uniqueness` runs on one piece."""


@dataclass(frozen=True)
class Inside:
    """Whether a piece's equilibrium is the only one at every α strictly inside the piece.

    Attributes:
        unique: True (proved for every α in the open interval), False (``other`` is a second
            equilibrium at ``samples[-1]``) or None (not decided; ``covered`` is the part proved).
        samples: the rational α at which the case analyses ran, in the order of the walk.
        leaves: how many cases their trees end in, in all.
        ends: whether the proof also covers the piece's lower and upper end (strict there).
        covered: the interval on which uniqueness is proved (open, or closed where ``ends`` says).
        other: a second equilibrium (q, r), when not unique.
        why: when not decided, the reason.
    """

    unique: bool | None
    samples: tuple[Fraction, ...]
    leaves: int = 0
    ends: tuple[bool, bool] = (False, False)
    covered: tuple[Algebraic, Algebraic] | None = None
    other: tuple[tuple[Fraction, ...], tuple[Fraction, ...]] | None = None
    why: str = ""


def _sum_lines(G: list[list[Line]], i: int, box: dict[int, int]) -> Poly:
    """Σ over the box's coordinates at 1 of cell i's coefficients, as a polynomial in α."""
    total: Line = (0, 0)
    for j, v in box.items():
        if v:
            total = add(total, G[j][i])
    return poly(*total)


def _lines(game: Game) -> tuple[list[Line], list[list[Line]]]:
    """The banker's net slopes as lines in α, over the shoe's denominator: cell i's is
    b_i(α) + Σ_j G_ji(α) q_j, each coefficient (W − L) − α W."""
    W, L = game.win, game.loss
    if W.denominator != L.denominator:  # pragma: no cover - build_game gives both one denominator
        raise AssertionError("win and loss forms over different denominators")
    m, n = len(game.ponte_sets), len(game.banker_sets)
    b = [(int(W.b[i]) - int(L.b[i]), -int(W.b[i])) for i in range(n)]
    G = [[(int(W.G[j][i]) - int(L.G[j][i]), -int(W.G[j][i])) for i in range(n)] for j in range(m)]
    return b, G


def _leaves(case: Case, pc: dict[str, int], bc: dict[str, int]) -> Iterator[tuple[Case, dict[str, int], dict[str, int]]]:
    """Every leaf of a case tree with the states its path gives (by information-set name)."""
    if isinstance(case, Split):
        for state, child in zip((DRAW, STAND, INDIFFERENT), case.cases):
            if case.player is Side.PONTE:
                yield from _leaves(child, {**pc, case.infoset: state}, bc)
            else:
                yield from _leaves(child, pc, {**bc, case.infoset: state})
    else:
        yield case, pc, bc


def _lower(a: Algebraic, b: Algebraic) -> Algebraic:
    return a if a < b else b


def _higher(a: Algebraic, b: Algebraic) -> Algebraic:
    return b if a < b else a


class _Tree:
    """One case analysis at a rational α of the piece, and the window on which its proof holds."""

    def __init__(self, game: Game, piece: Piece, alpha: Fraction) -> None:
        self.alpha = alpha
        self.window = Window(piece)
        self.leaves = 0
        g = game_at(game, alpha)
        q, r, _, _ = piece.at(alpha)
        dominance = iterated_dominance(g)
        self.analysis = case_analysis(g, list(q), list(r), dominance)
        if self.analysis.proof is None:
            return
        self.ponte, self.banker = reduced_systems(g, dominance)
        b, G = _lines(game)
        pkeys = [key_text(k) for k in game.ponte_sets]
        bkeys = [key_text(k) for k in game.banker_sets]
        pindex = {k: j for j, k in enumerate(pkeys)}
        bindex = {k: i for i, k in enumerate(bkeys)}
        # Iterated dominance, replayed in order: each banker step's slope keeps its sign over its box.
        settled_q: dict[int, int] = {}
        for step in dominance:
            value = 1 if step.action is Action.DRAW else 0
            if step.player is Side.PONTE:
                settled_q[pindex[key_text(step.infoset)]] = value
                continue
            i = bindex[key_text(step.infoset)]
            w = -1 if value else 1  # draws: the max of −s_i stays < 0; stands: the max of s_i
            self.convex((w * b[i][0], w * b[i][1]), {j: (w * G[j][i][0], w * G[j][i][1]) for j in range(len(pkeys))}, settled_q)
        settled_r = {bindex[key_text(s.infoset)] for s in dominance if s.player is Side.BANKER}
        settled_r_keys = {bkeys[i] for i in settled_r}
        N, delta = piece.numerators, piece.delta
        if any(psub(N[j], pscale(delta, v)) for j, v in settled_q.items()):
            self.window.broken = "a set settled by dominance mixes on the piece"
        for leaf, pc, bc in _leaves(self.analysis.proof, {}, {}):
            self.leaves += 1
            box = {**settled_q, **{pindex[k]: 1 if s == DRAW else 0 for k, s in pc.items() if s != INDIFFERENT}}
            if isinstance(leaf, Refuted) and leaf.side is Side.PONTE:
                const: Line = (0, 0)
                coef: dict[int, Line] = {}
                for name, w in leaf.multipliers:
                    i = bindex[name]
                    ws = w * (-1 if bc[name] == STAND else 1)
                    const = add(const, b[i], ws)
                    for j in range(len(pkeys)):
                        if G[j][i] != (0, 0):
                            coef[j] = add(coef.get(j, (0, 0)), G[j][i], ws)
                if not self.convex(const, coef, box, piece) and not self.banker_refutes(pc, bc):
                    self.narrowest(
                        const,
                        coef,
                        box,
                        piece,
                        self.equations_window(piece, box, [bindex[k] for k in bc if k not in settled_r_keys], bc, bkeys, b, G),
                    )
            elif isinstance(leaf, Pinned):
                self.pinned(game, piece, box, sorted({bindex[k] for k, s in bc.items() if s == INDIFFERENT} - settled_r), G)
            # a leaf refuted on the banker's side holds at every α: the ponte's gross slopes do not involve α

    def convex(self, const: Line, coef: dict[int, Line], fixed: dict[int, int], piece: Piece | None = None) -> bool:
        """Narrow the window to where F(α) = max over the box of const + coef·x stays negative.

        With ``piece``, only when F stays negative over the whole piece (else False: nothing narrowed)."""
        zeros = zeros_of_box_max(const, coef, fixed, self.alpha)
        if zeros is None:
            if piece is not None:
                return False
            self.window.broken = "a condition fails at the sample"
            return True
        if piece is not None and any(z is not None and (piece.lo < Algebraic.rational(z) < piece.hi) for z in zeros):
            return False
        for side, z in enumerate(zeros):
            if z is not None:
                self.window.cut(side, Algebraic.rational(z))
        return True

    def narrowest(self, const: Line, coef: dict[int, Line], fixed: dict[int, int], piece: Piece, other: Ends | None) -> None:
        """Cut the window to the union of the multipliers' window and ``other`` (another proof that the
        same case is empty, on an interval around the sample; None: there is none)."""
        zeros = zeros_of_box_max(const, coef, fixed, self.alpha)
        if zeros is None:
            self.window.broken = "a condition fails at the sample"
            return
        for side in (0, 1):
            zero = zeros[side]
            z = None if zero is None else Algebraic.rational(zero)
            if other is not None:
                o = other[side]
                z = None if (z is None or o is None) else (_lower if side == 0 else _higher)(z, o)
            if z is not None:
                self.window.cut(side, z)

    def equations_window(
        self,
        piece: Piece,
        box: dict[int, int],
        cells: list[int],
        bc: dict[str, int],
        bkeys: list[str],
        b: list[Line],
        G: list[list[Line]],
    ) -> Ends | None:
        """The interval around the sample on which the case's equations pin the ponte at a point x(α)
        (Cramer's rule, polynomials in α) that breaks one of the case's conditions: a bound, an
        inequality, or an equation not used to pin it. Its ends are real roots (None: beyond the piece)."""
        equal = [i for i in cells if bc[bkeys[i]] == INDIFFERENT]
        free = [j for j in range(len(G)) if j not in box]

        def lines_at(x: Fraction, rows: list[int]) -> tuple[list[list[Fraction]], list[Fraction]]:
            matrix = [[at(G[j][i], x) for j in free] for i in rows]
            rhs = [-(at(b[i], x) + sum((at(G[j][i], x) for j, v in box.items() if v), Fraction(0))) for i in rows]
            return matrix, rhs

        chosen = [equal[k] for k in independent_rows(lines_at(self.alpha, equal)[0], want=len(free))] if free else []
        if len(chosen) < len(free):
            return None
        xs = [Fraction(t) for t in range(len(free) + 1)]
        systems = [lines_at(x, chosen) for x in xs]
        delta = interpolate(xs, [det(m) for m, _ in systems])
        numer = [
            interpolate(xs, [det([r[:c] + [h] + r[c + 1 :] for r, h in zip(m, rhs)]) for m, rhs in systems])
            for c in range(len(free))
        ]
        violations: list[Poly] = []  # each > 0 where the point breaks that condition
        for c in range(len(free)):
            violations += [pscale(pmul(numer[c], delta), -1), pmul(psub(numer[c], delta), delta)]
        for i in cells:
            if i in chosen:
                continue
            S = pmul(padd(poly(*b[i]), _sum_lines(G, i, box)), delta)
            for c, j in enumerate(free):
                S = padd(S, pmul(poly(*G[j][i]), numer[c]))
            state = bc[bkeys[i]]
            violations.append(
                pmul(pmul(S, S), pmul(delta, delta))
                if state == INDIFFERENT
                else pscale(pmul(S, delta), 1 if state == STAND else -1)
            )
        lo, _ = piece.lo.approximations(Fraction(1, 10**6))
        _, hi = piece.hi.approximations(Fraction(1, 10**6))
        here = Algebraic.rational(self.alpha)
        best: Ends | None = None
        for p in violations:
            if peval(p, self.alpha) <= 0:
                continue
            roots = real_roots(p, lo - 1, hi + 1)
            below = [r for r in roots if r < here]
            above = [r for r in roots if here < r]
            w = (below[-1] if below else None, above[0] if above else None)
            if best is None:
                best = w
            else:
                best = (
                    None if best[0] is None or w[0] is None else _lower(best[0], w[0]),
                    None if best[1] is None or w[1] is None else _higher(best[1], w[1]),
                )
        return best

    def banker_refutes(self, pc: dict[str, int], bc: dict[str, int]) -> bool:
        """Whether the banker's system of a case (which does not involve α) has no solution: the case is
        then empty at every α, whatever the ponte's multipliers say."""
        own = {self.banker.keys.index(k): s for k, s in bc.items()}
        other = {self.ponte.keys.index(k): s for k, s in pc.items()}
        return refutation(self.banker, own, other) is not None

    def pinned(self, game: Game, piece: Piece, box: dict[int, int], equal: list[int], G: list[list[Line]]) -> None:
        """A pinned leaf: q(α) must meet its fixed coordinates and equations identically, and its equations
        keep full column rank (a maximal minor chosen at the sample, a polynomial in α, must not vanish)."""
        N, delta = piece.numerators, piece.delta
        if any(psub(N[j], pscale(delta, v)) for j, v in box.items()) or any(slope_numerator(game, i, N, delta) for i in equal):
            self.window.broken = "a pinned case's point is not the piece's equilibrium along α"
            return
        free = [j for j in range(len(game.ponte_sets)) if j not in box]
        if not free:
            return

        def matrix(x: Fraction) -> list[list[Fraction]]:
            return [[at(G[j][i], x) for j in free] for i in equal]

        chosen = independent_rows(matrix(self.alpha), want=len(free))
        if len(chosen) < len(free):
            self.window.broken = "a pinned case's equations do not pin its point"
            return
        xs = [Fraction(t) for t in range(len(free) + 1)]
        minor = interpolate(xs, [det([m[k] for k in chosen]) for m in map(matrix, xs)])
        lo, _ = piece.lo.approximations(Fraction(1, 10**6))
        _, hi = piece.hi.approximations(Fraction(1, 10**6))
        here = Algebraic.rational(self.alpha)
        for root in real_roots(minor, lo - 1, hi + 1):
            self.window.cut(1 if here < root else 0, root)


def piece_uniqueness(game: Game, piece: Piece, max_trees: int = MAX_TREES) -> Inside:
    """Decide whether ``piece``'s equilibrium is unique at every α strictly inside the piece (see the
    module docstring); ``game`` is the sweep's game (any commission: only its win and loss forms are read)."""
    if not piece.lo < piece.hi:  # one α: the piece's own verdict there is the whole answer
        return Inside(
            piece.unique,
            (piece.sample,),
            ends=(True, True),
            covered=(piece.lo, piece.hi) if piece.unique else None,
            why="" if piece.unique is not None else "the piece is one α, where uniqueness is not decided",
        )
    here = Algebraic.rational(piece.sample)
    start = piece.sample if (piece.lo < here < piece.hi and piece.sample > 0) else rational_between(piece.lo, piece.hi)
    if any(game.inert_ponte) or any(game.inert_banker):
        # A free set whose choice changes no payoff, at any α: flipping it gives a second equilibrium.
        q, r, _, _ = piece.at(start)
        flip = (
            tuple(1 - x if inert else x for x, inert in zip(q, game.inert_ponte)),
            tuple(1 - x if inert else x for x, inert in zip(r, game.inert_banker)),
        )
        return Inside(False, (start,), other=flip, why="a free information set changes no payoff")
    trees: list[_Tree] = []
    covered: list[Algebraic] = []
    closed = [False, False]
    for side in (1, 0):  # walk up from the sample to the piece's upper end, then down to its lower end
        alpha = start
        while True:
            if len(trees) >= max_trees:
                return _undecided(trees, covered, f"more than {max_trees} case analyses")
            tree = next((t for t in trees if t.alpha == alpha), None) or _Tree(game, piece, alpha)
            if tree not in trees:
                trees.append(tree)
            a = tree.analysis
            if a.unique is False:
                return Inside(False, tuple(t.alpha for t in trees), sum(t.leaves for t in trees), other=a.other)
            if a.unique is None or tree.window.broken:
                return _undecided(trees, covered, f"at α = {alpha}: {a.why or tree.window.broken}")
            w = tree.window
            if not covered:
                covered = list(w.ends)
            elif not (w.ends[0] < covered[1] if side == 1 else covered[0] < w.ends[1]):
                return _undecided(trees, covered, f"the proof at α = {alpha} does not reach back")
            covered[side] = w.ends[side]
            closed[side] = w.closed[side]
            end = piece.hi if side == 1 else piece.lo
            if covered[side] == end:
                break
            x = covered[side]
            alpha = x.value if x.is_rational else (rational_between(x, end) if side == 1 else rational_between(end, x))
    return Inside(
        True, tuple(t.alpha for t in trees), sum(t.leaves for t in trees), (closed[0], closed[1]), (covered[0], covered[1])
    )


def _undecided(trees: list[_Tree], covered: list[Algebraic], why: str) -> Inside:
    return Inside(
        None,
        tuple(t.alpha for t in trees),
        sum(t.leaves for t in trees),
        covered=(covered[0], covered[1]) if covered else None,
        why=why,
    )
