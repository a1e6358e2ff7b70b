"""Every equilibrium of the commission game, by an exhaustive case analysis with exact refutations.

With commission α > 0 chemin de fer is a bimatrix game: the ponte minimises the banker's gross result
W − L, the banker maximises his net gain (1 − α) W − L. Write the ponte's *gross* slope in his set j
and the banker's *net* slope in his cell i (both affine; docs/design.md, "The mathematics the code respects"):

    g_j(r) = a_j + Σ_i G_ji r_i          s_i(q) = b_i + Σ_j G_ji q_j.

(q, r) is an equilibrium iff, coordinate by coordinate (each payoff is affine in each coordinate),
g_j > 0 ⇒ q_j = 0, g_j < 0 ⇒ q_j = 1, s_i > 0 ⇒ r_i = 1 and s_i < 0 ⇒ r_i = 0. So in every
equilibrium each free coordinate is in one of three *states* (closed; they may overlap):

    draw:         x = 1, and its slope favours drawing weakly (ponte g_j ≤ 0; banker s_i ≥ 0);
    stand:        x = 0, and its slope favours standing weakly (ponte g_j ≥ 0; banker s_i ≤ 0);
    indifferent:  its slope is 0 (x anywhere in [0, 1]).

A *case* gives some coordinates a state. Each state is one condition on the coordinate itself and
one on the other side's slope, so the equilibria of a case are exactly the pairs (q, r) with q in
the ponte's system and r in the banker's (:mod:`solver.chemin.commission.systems`): the two sides
separate. Splitting a coordinate into its three states covers every equilibrium of a case. A case
holds no equilibrium when one system has no solution (Farkas multipliers, checked exactly); it
holds at most one when each side's equations pin its free coordinates (full column rank), and if
that point is the known equilibrium, nothing else. Coordinates settled by iterated strict
dominance keep their value in every equilibrium, so the analysis runs on the others.

:func:`case_analysis` builds a tree of cases: the ponte's sets first, then the banker's cells,
first those whose slopes the ponte's system already holds to one sign (two of each one's cases are
then empty; they are settled in one chain, cut short where the banker's system becomes empty), else
one whose draw or stand the banker's system rules out. An indifferent case borrows its refutation
from its sibling that draws or stands (an equation implies the inequality). Floats (HiGHS, float
vertices) only choose splits and propose multipliers; every refutation in the tree is exact. The
tree is the proof, and proofs/check.py verifies it with its own code (docs/certificate-format.md).

>>> from solver.cards import Shoe
>>> from solver.chemin.game import build_game
>>> from solver.chemin.solve import solve
>>> s = solve(build_game(Shoe.decks(2), 3, "parlor", Fraction(1, 20)))
>>> s.unique_equilibrium, s.cases is not None and s.cases.leaves > 100
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from solver.chemin.commission.guidance import ranges
from solver.chemin.commission.systems import (
    DRAW,
    FORCED,
    INDIFFERENT,
    STAND,
    CaseState,
    SideSystem,
    pinned_point,
    refutation,
    shortest_prefix,
)
from solver.chemin.dominance import DominanceStep
from solver.chemin.game import Game
from solver.rules.tableau import Action
from solver.strategy import InfoSet, Side

STATES = tuple(state.name.lower() for state in CaseState)
"""The three states of a coordinate as certificates write them, in the order a split lists its cases."""

MAX_CASES = 5000
"""The most cases a search visits before it stops (uniqueness is then "not decided")."""


@dataclass(frozen=True)
class Refuted:
    """A case with no equilibrium: ``side``'s system has no solution, by ``multipliers`` on its rows.

    The rows are named by the other side's coordinates; the multipliers are coprime integers.
    """

    side: Side
    multipliers: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Pinned:
    """A case whose equations pin both sides at the known equilibrium."""


@dataclass(frozen=True)
class Split:
    """A case split on one coordinate into its three cases (:data:`STATES` order)."""

    player: Side
    infoset: str
    cases: tuple[Case, Case, Case]


Case = Split | Refuted | Pinned


@dataclass(frozen=True)
class CaseAnalysis:
    """The outcome of :func:`case_analysis`.

    Attributes:
        unique: True (``proof`` covers every equilibrium and ends only at the known one), False
            (``other`` is a second equilibrium, checked exactly) or None (not decided).
        proof: the tree of cases, when ``unique``.
        other: a second equilibrium (q, r), when not ``unique``.
        leaves: how many cases the tree ends in.
        why: when not decided, the reason.
    """

    unique: bool | None
    proof: Case | None = None
    other: tuple[tuple[Fraction, ...], tuple[Fraction, ...]] | None = None
    leaves: int = 0
    why: str = ""


def key_text(key: object) -> str:
    """An information set as written in certificates (``"1+4"``, ``"0+6/S"``)."""
    if isinstance(key, str):
        return key
    assert isinstance(key, InfoSet)
    return key.text


def preorder(case: Case) -> Iterator[Case]:
    """The cases of a tree in depth-first order, each split before its three cases."""
    yield case
    if isinstance(case, Split):
        for c in case.cases:
            yield from preorder(c)


# -- the reduced game ---------------------------------------------------------------------------------


class _Reduced:
    """The game after dominance: integer slope rows between the open coordinates of both sides."""

    def __init__(self, game: Game, dominance: tuple[DominanceStep, ...]) -> None:
        settled = {(d.player, key_text(d.infoset)): 1 if d.action is Action.DRAW else 0 for d in dominance}
        pkeys = [key_text(k) for k in game.ponte_sets]
        bkeys = [key_text(k) for k in game.banker_sets]
        self.P = [j for j, k in enumerate(pkeys) if (Side.PONTE, k) not in settled]
        self.B = [i for i, k in enumerate(bkeys) if (Side.BANKER, k) not in settled]
        self.q_settled = {j: settled[(Side.PONTE, k)] for j, k in enumerate(pkeys) if (Side.PONTE, k) in settled}
        self.r_settled = {i: settled[(Side.BANKER, k)] for i, k in enumerate(bkeys) if (Side.BANKER, k) in settled}
        gross, net = game.gross, game.net
        # The ponte's system: rows from the banker's open cells (NET slopes) over the ponte's open sets.
        self.ponte = SideSystem(
            Side.PONTE,
            tuple(pkeys[j] for j in self.P),
            tuple(int(net.b[i]) + sum(int(net.G[j][i]) * v for j, v in self.q_settled.items()) for i in self.B),
            tuple(tuple(int(net.G[j][i]) for j in self.P) for i in self.B),
            +1,
        )
        # The banker's system: rows from the ponte's open sets (GROSS slopes) over the banker's open cells.
        self.banker = SideSystem(
            Side.BANKER,
            tuple(bkeys[i] for i in self.B),
            tuple(int(gross.a[j]) + sum(int(gross.G[j][i]) * v for i, v in self.r_settled.items()) for j in self.P),
            tuple(tuple(int(gross.G[j][i]) for i in self.B) for j in self.P),
            -1,
        )
        self.m, self.n = len(game.ponte_sets), len(game.banker_sets)
        self.inert = any(game.inert_ponte[j] for j in self.P) or any(game.inert_banker[i] for i in self.B)

    def full(self, q_open: list[Fraction], r_open: list[Fraction]) -> tuple[list[Fraction], list[Fraction]]:
        """Whole strategies from the open coordinates and the settled ones."""
        q = [Fraction(self.q_settled.get(j, 0)) for j in range(self.m)]
        r = [Fraction(self.r_settled.get(i, 0)) for i in range(self.n)]
        for j, v in zip(self.P, q_open):
            q[j] = v
        for i, v in zip(self.B, r_open):
            r[i] = v
        return q, r


# -- the search ---------------------------------------------------------------------------------------


class _Search:
    def __init__(self, game: Game, q: list[Fraction], r: list[Fraction], dominance: tuple[DominanceStep, ...]) -> None:
        self.game = game
        self.red = _Reduced(game, dominance)
        self.q = [q[j] for j in self.red.P]
        self.r = [r[i] for i in self.red.B]
        self.visited = 0
        self.witnesses: dict[Side, list[np.ndarray]] = {Side.PONTE: [], Side.BANKER: []}
        self.other: tuple[list[Fraction], list[Fraction]] | None = None

    # A case is (ponte states, banker states): dicts from open coordinate to state.

    def refute(self, side: SideSystem, own: dict[int, int], other: dict[int, int]) -> Refuted | None:
        y = refutation(side, own, other, self.witnesses[side.side])
        return None if y is None else self.named(side, y)

    def named(self, side: SideSystem, y: dict[int, int]) -> Refuted:
        """The leaf refuting ``side``'s system by the multipliers ``y`` (on the other side's coordinates)."""
        names = self.red.banker.keys if side is self.red.ponte else self.red.ponte.keys
        return Refuted(side.side, tuple((names[k], w) for k, w in sorted(y.items())))

    def search(self, pc: dict[int, int], bc: dict[int, int], tried: bool = False) -> Case | None:
        """The proof for a case not yet refuted; None when the search stops (budget, or a second equilibrium).
        ``tried``: the banker's system of this very case was tried and not refuted."""
        self.visited += 1
        if self.visited > MAX_CASES or self.other is not None:
            return None
        red = self.red
        xq = pinned_point(red.ponte, pc, bc)
        xr = pinned_point(red.banker, bc, pc)
        if xq is not None and xr is not None:
            if xq == self.q and xr == self.r:
                return Pinned()
            from solver.chemin.commission.bimatrix import is_equilibrium

            q, r = red.full(xq, xr)
            if is_equilibrium(self.game, q, r):
                self.other = (q, r)
                return None
        ponte_open = [v for v in range(len(red.ponte.keys)) if v not in pc]
        if ponte_open:
            return self.split(Side.PONTE, ponte_open[0], pc, bc, {})
        whole = None if tried else self.refute(red.banker, bc, pc)
        if whole is not None:
            return whole
        cells = [i for i in range(len(red.banker.keys)) if i not in bc]
        if not cells:
            return self.refute(red.ponte, pc, bc)  # every coordinate has a state: empty, or a continuum
        spans = ranges(red.ponte, pc, bc, cells)
        if spans is None:  # the ponte's system looks empty
            leaf = self.refute(red.ponte, pc, bc)
            if leaf is not None:
                return leaf
            spans = [(-1.0, 1.0)] * len(cells)
        forced = sorted(
            ((max(lo, -hi), i, lo > 0) for i, (lo, hi) in zip(cells, spans) if lo > FORCED or hi < -FORCED), reverse=True
        )
        if forced:
            return self.chain(pc, bc, forced)
        # No cell is forced by the ponte: split where the banker's own system rules out most.
        best: tuple[int, int, dict[int, Case]] = (-1, cells[0], {})
        for i in cells:
            known: dict[int, Case] = {}
            for state in (DRAW, STAND):
                leaf = self.refute(red.banker, {**bc, i: state}, pc)
                if leaf is not None:
                    known[state] = leaf
            if len(known) > best[0]:
                best = (len(known), i, known)
            if len(known) == 2:
                break
        return self.split(Side.BANKER, best[1], pc, bc, best[2])

    def chain(self, pc: dict[int, int], bc: dict[int, int], forced: list[tuple[float, int, bool]]) -> Case | None:
        """Settle the banker cells whose slopes the ponte's system holds to one sign (``forced``: margin,
        cell, slope positive; widest margin first), as a chain of splits whose other two cases are empty.

        The banker's system only shrinks as cells are settled: if it is empty with every forced cell
        settled, the chain stops at the shortest prefix that the same multipliers refute, the cells
        that narrow their bound the most first; if not, every forced cell is settled and the search goes
        on below. The ponte's refutations of a cell's other states stay valid further down the chain
        (a case only gains rows); where one cannot be found (the floats misjudged), that cell is split
        on its own and the search sorts it out."""
        red = self.red
        links: list[tuple[int, int]] = [(i, DRAW if positive else STAND) for _, i, positive in forced]
        settled = {**bc, **dict(links)}
        y = refutation(red.banker, settled, pc, self.witnesses[Side.BANKER])
        if y is not None:
            links = shortest_prefix(red.banker, bc, pc, y, links)
        outs: list[dict[int, Case]] = []
        for i, keep in links:
            known = self.ruled_out(pc, bc, i, keep)
            if len(known) < 2:
                return self.split(Side.BANKER, i, pc, bc, known)
            outs.append(known)
        end: Case | None
        if y is not None:
            end = self.named(red.banker, y)
        else:
            self.visited += len(links) - 1
            end = self.search(pc, settled, tried=True)
            if end is None:
                return None
        for (i, _), known in zip(reversed(links), reversed(outs)):
            children = [known.get(state, end) for state in (DRAW, STAND, INDIFFERENT)]
            end = Split(Side.BANKER, red.banker.keys[i], (children[0], children[1], children[2]))
        return end

    def ruled_out(self, pc: dict[int, int], bc: dict[int, int], i: int, keep: int) -> dict[int, Case]:
        """Refutations, by the ponte's system, of banker cell i's two states other than ``keep``: its
        own row alone where that row keeps one sign on the ponte's box (the commonest), else any."""
        red = self.red
        draws = [v for v, s in pc.items() if s == DRAW]
        stands = [v for v, s in pc.items() if s == STAND]
        least, most = red.ponte.row_ranges(draws, stands)[i]
        name = red.banker.keys[i]
        known: dict[int, Case] = {}
        for state in (STAND, INDIFFERENT) if keep == DRAW else (DRAW, INDIFFERENT):
            if keep == DRAW and least > 0:  # the slope is positive on the whole box: it can neither stand nor be 0
                known[state] = Refuted(Side.PONTE, ((name, -1 if state == INDIFFERENT else 1),))
            elif keep == STAND and most < 0:
                known[state] = Refuted(Side.PONTE, ((name, 1),))
            else:
                wrong = STAND if keep == DRAW else DRAW
                leaf = (_as_indifferent(known[wrong], red.ponte, name, wrong) if state == INDIFFERENT else None) or self.refute(
                    red.ponte, pc, {**bc, i: state}
                )
                if leaf is None:
                    break
                known[state] = leaf
        return known

    def split(self, player: Side, v: int, pc: dict[int, int], bc: dict[int, int], known: dict[int, Case]) -> Case | None:
        """Split a case on one coordinate; ``known`` holds cases already refuted."""
        red = self.red
        keys = red.ponte.keys if player is Side.PONTE else red.banker.keys
        rows_side = red.banker if player is Side.PONTE else red.ponte  # the system in which v gives a row
        children: list[Case] = []
        for state in (DRAW, STAND, INDIFFERENT):
            npc, nbc = ({**pc, v: state}, bc) if player is Side.PONTE else (pc, {**bc, v: state})
            child = known.get(state)
            if child is None and state == INDIFFERENT:
                child = _as_indifferent(children[0], rows_side, keys[v], DRAW) or _as_indifferent(
                    children[1], rows_side, keys[v], STAND
                )
            tried = False
            if child is None and player is Side.PONTE:
                # Where the ponte's set may draw and may stand, the banker's system holds points on both
                # sides of its slope's zero, so (being convex) one where it is 0: no refutation to look for.
                feasible_both = state == INDIFFERENT and not any(
                    isinstance(c, Refuted) and c.side is Side.BANKER for c in children
                )
                if not feasible_both:
                    child = self.refute(red.banker, nbc, npc)
                tried = True
            if child is None:
                child = self.search(npc, nbc, tried)
            if child is None:
                return None
            children.append(child)
        return Split(player, keys[v], (children[0], children[1], children[2]))


def _as_indifferent(leaf: Case, side: SideSystem, name: str, state: int) -> Refuted | None:
    """From a leaf refuting ``side``'s system where coordinate ``name`` draws or stands (``state``), the
    refutation where it is indifferent: its row is then an equation, which implies the inequality, so
    the same combination serves, the row's multiplier taking the inequality's sign. None unless the
    leaf refutes that side."""
    if not isinstance(leaf, Refuted) or leaf.side is not side.side:
        return None
    sign = side.favour_draw if state == DRAW else -side.favour_draw
    return Refuted(leaf.side, tuple((k, w * sign if k == name else w) for k, w in leaf.multipliers))


_CACHE: dict[tuple[object, ...], CaseAnalysis] = {}


def case_analysis(game: Game, q: list[Fraction], r: list[Fraction], dominance: tuple[DominanceStep, ...]) -> CaseAnalysis:
    """Decide whether the certified equilibrium (q, r) of a commission game is its only equilibrium.

    Returns:
        A :class:`CaseAnalysis`: unique, with its proof (a tree of cases, each ending in an exact
        refutation or at the equilibrium itself); not unique, with a second equilibrium; or not
        decided (an open coordinate that changes no payoff, a case holding a continuum, or more
        than :data:`MAX_CASES` cases). Results are remembered per (shoe, model, q, r).
    """
    key = (game.shoe, game.model, tuple(q), tuple(r))  # the game fixes its dominance steps
    if key in _CACHE:
        return _CACHE[key]
    search = _Search(game, q, r, dominance)
    if search.red.inert:
        result = CaseAnalysis(None, why="an open information set changes no payoff")
    else:
        proof = search.search({}, {})
        if search.other is not None:
            oq, orr = search.other
            result = CaseAnalysis(False, other=(tuple(oq), tuple(orr)))
        elif proof is None:
            why = f"more than {MAX_CASES} cases" if search.visited > MAX_CASES else "a case is neither empty nor a point"
            result = CaseAnalysis(None, why=why)
        else:
            result = CaseAnalysis(True, proof=proof, leaves=sum(1 for c in preorder(proof) if not isinstance(c, Split)))
    _CACHE[key] = result
    return result


def reduced_systems(game: Game, dominance: tuple[DominanceStep, ...]) -> tuple[SideSystem, SideSystem]:
    """The ponte's and the banker's systems of the game after ``dominance`` (their open coordinates,
    and the integer slope rows the other side's open coordinates give them), as the case analysis uses."""
    red = _Reduced(game, dominance)
    return red.ponte, red.banker
