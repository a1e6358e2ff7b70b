"""Baccara banque as an additive (multilinear) three-person game, built exactly from the enumeration.

Decisions. Player 1 draws at 5 with probability x_j in his set j (his total, or his composition under
information 3); Player 2 with probability y_k (his set, and under ``sees-first`` what he saw of
tableau 1: a third card, S or N); the banker draws with probability r_i in his cell i (his total or
composition, and what he saw of each tableau). On every deal each of the three takes at most one
decision, entering the deal's probability as x or 1 − x, so the probability of each joint outcome
(R1, R2) ∈ {−1, 0, 1}² (the banker's result against tableau 1, tableau 2) is multilinear:

    P_o(x, y, r) = Σ_m C[m, o] · x_j(m) · y_k(m) · r_i(m),      (absent factors are 1)

with integer coefficients over the enumeration's denominator. Every payoff is a function of the joint
outcome, so every expected payoff is Σ_o u(o) P_o: the banker's, θ R1 + (1 − θ) R2 net of the tax
τ · max(0, θ R1 + (1 − θ) R2) on his net win of the coup; Player 1's −R1 and Player 2's −R2 (their
own tableau). Nothing here depends on θ or τ: a sweep of θ costs one enumeration.

Freedom. ``parlor``: every banker cell is free. ``casino``: the banker follows chemin de fer's casino
tableau (:data:`solver.rules.tableau.CHEMIN_CASINO`) where every live tableau votes the same fixed action (a
tableau settled by a natural does not vote), and is free where they conflict or where a vote is free.

>>> from solver.cards import Shoe
>>> g = build_banque(Shoe.infinite(), BanqueModel(1, "blind", "casino"))
>>> len(g.player1_sets), len(g.player2_sets), len(g.banker_sets)
(1, 1, 204)
>>> sum(g.outcome_law([Fraction(1)], [Fraction(1)], [Fraction(0)] * 204).values())
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from solver.banque.deal import FIVES, LIVE_COMPOSITIONS, OUTCOMES, SIGHTS, Enumeration, enumerate_coup
from solver.banque.vocabulary import Freedom, SecondPlayer
from solver.cards import Shoe
from solver.errors import ModelError
from solver.exact.numbers import exact, numerators
from solver.rules.tableau import CHEMIN_CASINO, Action
from solver.strategy import NATURAL, InfoSet, Side

INFORMATION = (1, 2, 3)
SECOND_PLAYER = tuple(SecondPlayer)
FREEDOM = tuple(Freedom)
MAX_TAX = Fraction(1, 10)


@dataclass(frozen=True)
class BanqueModel:
    """A banque model: information 1–3 (chemin de fer's meanings), what Player 2 may see, the banker's
    freedom, and the tax (cagnotte) τ in [0, 1/10] on the banker's net win of each coup.

    ``second_player`` and ``freedom`` are typed words (:mod:`solver.banque.vocabulary`); their written
    forms are accepted too and parsed once, here."""

    information: int
    second_player: SecondPlayer
    freedom: Freedom
    tax: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        if self.information not in INFORMATION:
            raise ModelError(f"information must be 1, 2 or 3, got {self.information!r}")
        object.__setattr__(self, "second_player", SecondPlayer.parse(self.second_player))
        object.__setattr__(self, "freedom", Freedom.parse(self.freedom))
        tax = exact(self.tax, "the tax")
        if not 0 <= tax <= MAX_TAX:
            raise ModelError(f"the tax must lie in [0, 1/10], got {tax}")
        object.__setattr__(self, "tax", tax)

    def name(self, shoe: Shoe) -> str:
        """Ethier's dealing and information, e.g. ``A1`` or ``B3``."""
        return ("A" if shoe.is_infinite else "B") + str(self.information)


def banker_payoff(theta: Fraction, tax: Fraction = Fraction(0)) -> tuple[Fraction, ...]:
    """The banker's payoff per joint outcome: X − τ max(0, X) with X = θ R1 + (1 − θ) R2.

    >>> [str(u) for u in banker_payoff(Fraction(1, 2), Fraction(1, 50))][6:]
    ['0', '49/100', '49/50']
    """
    out = []
    for r1, r2 in OUTCOMES:
        x = theta * r1 + (1 - theta) * r2
        out.append(x - tax * max(Fraction(0), x))
    return tuple(out)


RESULT_1 = tuple(Fraction(r1) for r1, _ in OUTCOMES)
"""E[R1] as a payoff vector: the banker's result against tableau 1 (Player 1's payoff is minus this)."""
RESULT_2 = tuple(Fraction(r2) for _, r2 in OUTCOMES)
"""E[R2] as a payoff vector."""


def casino_action(total: int, sight1: int, sight2: int) -> Action:
    """The banker's action in a casino banque cell: the common fixed vote of the live tableaux, else FREE."""
    votes = {CHEMIN_CASINO.banker_action(total, s) for s in (sight1, sight2) if s != NATURAL}
    if len(votes) == 1 and Action.FREE not in votes:
        return votes.pop()
    return Action.FREE


@dataclass(frozen=True, eq=False)
class Multilinear:
    """The monomial form: rows (j, k, i) (−1: factor absent) and integer coefficients per joint outcome.

    ``value(u) = Σ_m (C[m] · u) x_j y_k r_i / denominator``.
    """

    j: np.ndarray
    k: np.ndarray
    i: np.ndarray
    coef: np.ndarray  # (monomials × 9) Python integers
    denominator: int

    def payoff(self, u: Sequence[Fraction]) -> tuple[np.ndarray, int]:
        """Integer coefficients of the payoff Σ_o u(o) P_o, and their denominator."""
        ints, d = numerators(Fraction(x) for x in u)
        return self.coef @ np.array(ints, dtype=object), self.denominator * d


@dataclass(frozen=True, eq=False)
class BanqueGame:
    """Baccara banque on one shoe under one model, in branch form (one row per key).

    Attributes:
        shoe, model: what was built.
        player1_sets, player2_sets, banker_sets: the free decisions, in variable order.
        x, dx, y, dy, r, dr: per key, each side's variable (−1: no free decision) and branch (1 drew,
            0 stood, −1 none).
        outcome, weight: per key, the joint outcome (:data:`OUTCOMES`) and its exact integer weight.
        constant: per joint outcome, the weight of the coups where nobody takes a free decision
            (naturals, and folded fixed casino cells are in the keys).
        denominator: the common denominator of the weights.
    """

    shoe: Shoe
    model: BanqueModel
    player1_sets: tuple[InfoSet, ...]
    player2_sets: tuple[InfoSet, ...]
    banker_sets: tuple[InfoSet, ...]
    x: np.ndarray
    dx: np.ndarray
    y: np.ndarray
    dy: np.ndarray
    r: np.ndarray
    dr: np.ndarray
    outcome: np.ndarray
    weight: np.ndarray
    constant: tuple[int, ...]
    denominator: int

    @property
    def label(self) -> str:
        return f"{self.model.name(self.shoe)} {self.model.second_player} {self.model.freedom}"

    @cached_property
    def multilinear(self) -> Multilinear:
        """The monomial form (each factor x or 1 − x expanded), aggregated per (j, k, i)."""
        parts = []
        for ax, sx in ((0, 1), (1, -1)):
            for ay, sy in ((0, 1), (1, -1)):
                for ar, sr in ((0, 1), (1, -1)):
                    ok = np.ones(len(self.weight), dtype=bool)
                    cols = []
                    for var, br, alt in ((self.x, self.dx, ax), (self.y, self.dy, ay), (self.r, self.dr, ar)):
                        if alt:  # the −x part of a 1 − x factor
                            ok &= br == 0
                            cols.append(var)
                        else:  # x for a draw, 1 for a stand or no decision
                            cols.append(np.where(br == 1, var, -1))
                    sign = sx * sy * sr
                    parts.append((cols[0][ok], cols[1][ok], cols[2][ok], self.outcome[ok], self.weight[ok] * sign))
        none = np.full(9, -1, dtype=np.int64)
        parts.append((none, none, none, np.arange(9), np.array(self.constant, dtype=object)))
        j, k, i, o, w = (np.concatenate([p[n] for p in parts]) for n in range(5))
        nk, ni = len(self.player2_sets) + 1, len(self.banker_sets) + 1
        code = (((j + 1) * nk + (k + 1)) * ni + (i + 1)) * 9 + o
        uniq, inv = np.unique(code, return_inverse=True)
        order = np.argsort(inv, kind="stable")
        starts = np.searchsorted(inv[order], np.arange(len(uniq)))
        sums = np.add.reduceat(w[order], starts)
        monos, mrow = np.unique(uniq // 9, return_inverse=True)
        coef = np.zeros((len(monos), 9), dtype=object)
        coef[mrow, uniq % 9] = sums
        keep = np.any(coef != 0, axis=1) | (monos == 0)
        monos, coef = monos[keep], coef[keep]
        return Multilinear(
            j=monos // (nk * ni) - 1, k=monos // ni % nk - 1, i=monos % ni - 1, coef=coef, denominator=self.denominator
        )

    @cached_property
    def inert(self) -> tuple[tuple[bool, ...], tuple[bool, ...], tuple[bool, ...]]:
        """Per side, whether each set's choice can change no outcome probability (every unreachable set)."""
        m = self.multilinear
        live = np.any(m.coef != 0, axis=1)
        out = []
        for var, n in ((m.j, len(self.player1_sets)), (m.k, len(self.player2_sets)), (m.i, len(self.banker_sets))):
            used = np.zeros(n, dtype=bool)
            used[var[live & (var >= 0)]] = True
            out.append(tuple(bool(not u) for u in used))
        return out[0], out[1], out[2]

    def outcome_law(self, x: Sequence[Fraction], y: Sequence[Fraction], r: Sequence[Fraction]) -> dict[tuple[int, int], Fraction]:
        """The exact law of the joint outcome (R1, R2) when the three sides play x, y and r."""
        fx, fy, fr = (_factors(v, var, br) for v, var, br in ((x, self.x, self.dx), (y, self.y, self.dy), (r, self.r, self.dr)))
        d = fx[1] * fy[1] * fr[1]
        terms = self.weight * fx[0] * fy[0] * fr[0]
        law = {}
        for o, rr in enumerate(OUTCOMES):
            law[rr] = Fraction(int(sum(terms[self.outcome == o])) + self.constant[o] * d, self.denominator * d)
        return law


def _factors(values: Sequence[Fraction], var: np.ndarray, branch: np.ndarray) -> tuple[np.ndarray, int]:
    """Per key, the integer numerator of the side's factor (x, 1 − x or 1) over a common denominator."""
    ints, d = numerators(Fraction(v) for v in values)
    num = np.array(ints + [d], dtype=object)  # index −1: no decision
    picked = num[var]
    return np.where(branch == 1, picked, np.where(branch == 0, d - picked, d)), d


def _player_sets(side: Side, information: int) -> list[InfoSet]:
    if information == 3:
        return [InfoSet(side, cards=c) for c in FIVES]
    return [InfoSet(side, 5)]


def _own(code: int, information: int) -> tuple[int, tuple[int, int] | None]:
    if information == 1:
        return code, None
    cards = LIVE_COMPOSITIONS[code]
    return sum(cards) % 10, cards


def build_banque(shoe: Shoe, model: BanqueModel, enumeration: Enumeration | None = None) -> BanqueGame:
    """Build baccara banque on ``shoe`` under ``model``, exactly.

    ``enumeration`` (the coup enumerated for this shoe and information model) may be passed to build
    several models of one shoe from one enumeration.

    Raises:
        ModelError: an invalid model, or an enumeration of another shoe or information model.
        ShoeError: a finite shoe with fewer than nine cards.
    """
    e = enumeration if enumeration is not None else enumerate_coup(shoe, model.information)
    if e.information != model.information or e.shoe != shoe:
        raise ModelError("the enumeration given was made for another shoe or information model")
    info = model.information
    p1 = _player_sets(Side.PLAYER1, info)
    own2 = _player_sets(Side.PLAYER2, info)
    s1 = e.cell // SIGHTS % SIGHTS
    if model.second_player is SecondPlayer.BLIND:
        p2 = own2
        y = e.j2
    else:
        p2 = [InfoSet(Side.PLAYER2, s.total, s.cards, seen=(sight,)) for s in own2 for sight in range(SIGHTS)]
        y = np.where(e.j2 >= 0, e.j2 * SIGHTS + s1, -1)
    # The banker's cells: every (own, sight1, sight2) but two naturals, free or fixed by the casino tableau.
    owns = 8 if info == 1 else len(LIVE_COMPOSITIONS)
    cells = [
        (o * SIGHTS + a) * SIGHTS + b
        for o in range(owns)
        for a in range(SIGHTS)
        for b in range(SIGHTS)
        if not (a == NATURAL and b == NATURAL)
    ]
    free_cells, fixed = [], {}
    for c in cells:
        o, a, b = c // (SIGHTS * SIGHTS), c // SIGHTS % SIGHTS, c % SIGHTS
        total, _ = _own(o, info)
        action = casino_action(total, a, b) if model.freedom is Freedom.CASINO else Action.FREE
        if action is Action.FREE:
            free_cells.append(c)
        else:
            fixed[c] = 1 if action is Action.DRAW else 0
    lookup = {c: n for n, c in enumerate(free_cells)}
    cell_var = np.array([lookup.get(c, -1) for c in e.cell.tolist()], dtype=np.int64)
    fixed_action = np.array([fixed.get(c, -1) for c in e.cell.tolist()], dtype=np.int64)
    keep = (fixed_action < 0) | (fixed_action == e.db)
    dr = np.where(cell_var >= 0, e.db, -1)
    banker = []
    for c in free_cells:
        total, cards = _own(c // (SIGHTS * SIGHTS), info)
        banker.append(InfoSet(Side.BANKER, total, cards, seen=(c // SIGHTS % SIGHTS, c % SIGHTS)))
    return BanqueGame(
        shoe=shoe,
        model=model,
        player1_sets=tuple(p1),
        player2_sets=tuple(p2),
        banker_sets=tuple(banker),
        x=e.j1[keep],
        dx=e.d1[keep],
        y=y[keep],
        dy=e.d2[keep],
        r=cell_var[keep],
        dr=dr[keep],
        outcome=e.outcome[keep],
        weight=e.weight[keep],
        constant=e.constant,
        denominator=e.denominator,
    )
