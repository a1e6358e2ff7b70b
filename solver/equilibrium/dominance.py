"""Iterated strict dominance over the free decisions, with exact margins."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from solver.game import Game
from solver.rules import Action
from solver.strategy import InfoSet, Side


@dataclass(frozen=True)
class DominanceStep:
    """One decision settled by iterated strict dominance.

    ``margin`` is the least gain, over every strategy still open, of ``action`` over the other
    action for the side that decides (banker: net payoff; ponte: minus the banker's gross result),
    unconditional, per unit staked. It is positive.
    """

    player: Side
    infoset: InfoSet
    action: Action  # DRAW or STAND
    margin: Fraction


class _Ranges:
    """The least and greatest value of each row's slope ``const_k + Σ_l g_kl x_l`` over a box of
    ``x`` in which every coordinate is open (ranging over [0, 1]) or settled at 0 or 1.

    All in integers: ``fixed_k`` is const_k plus the terms of the coordinates settled at 1, and
    ``low_k`` / ``high_k`` add the negative / positive terms of the open ones, so that the range of
    row k is [fixed_k + low_k, fixed_k + high_k]. Settling a coordinate updates every row once.
    """

    def __init__(self, const: list[int], g: list[list[int]]) -> None:
        self.g = g  # g[k][l]
        self.fixed = list(const)
        self.low = [sum(x for x in row if x < 0) for row in g]
        self.high = [sum(x for x in row if x > 0) for row in g]

    def range(self, k: int) -> tuple[int, int]:
        return self.fixed[k] + self.low[k], self.fixed[k] + self.high[k]

    def settle(self, col: int, value: int) -> None:
        for k, row in enumerate(self.g):
            x = row[col]
            if x < 0:
                self.low[k] -= x
            elif x > 0:
                self.high[k] -= x
            if value:
                self.fixed[k] += x


def iterated_dominance(game: Game) -> tuple[DominanceStep, ...]:
    """Iterated strict dominance on the free decisions, in rounds until nothing changes.

    Each round first settles every banker set whose net slope has one sign over the open ponte box,
    then every ponte set whose gross slope has one sign over the open banker box. The box's bounds
    are 0 or 1 and the slopes' coefficients integers, so the ranges are integers (kept up to date as
    decisions settle) and only a margin becomes a Fraction.
    """
    net, gross = game.net, game.gross
    m, n = len(game.ponte_sets), len(game.banker_sets)
    steps: list[DominanceStep] = []
    settled_b: set[int] = set()
    settled_p: set[int] = set()
    # banker row i ranges over the ponte box (columns j); ponte row j over the banker box (columns i)
    banker = _Ranges([int(x) for x in net.b], [[int(x) for x in row] for row in net.G.T] if m else [[] for _ in range(n)])
    ponte = _Ranges([int(x) for x in gross.a], [[int(x) for x in row] for row in gross.G] if n else [[] for _ in range(m)])
    net_den, gross_den = int(net.denominator), int(gross.denominator)
    changed = True
    while changed:
        changed = False
        for i in range(n):
            if i in settled_b:
                continue
            mn, mx = banker.range(i)
            if mn > 0 or mx < 0:
                action = Action.DRAW if mn > 0 else Action.STAND
                margin = Fraction(mn if mn > 0 else -mx, net_den)
                steps.append(DominanceStep(Side.BANKER, game.banker_sets[i], action, margin))
                settled_b.add(i)
                ponte.settle(i, 1 if action is Action.DRAW else 0)
                changed = True
        for j in range(m):
            if j in settled_p:
                continue
            mn, mx = ponte.range(j)
            # The ponte minimises the banker's gross result: drawing is dominant when the slope is < 0.
            if mn > 0 or mx < 0:
                action = Action.DRAW if mx < 0 else Action.STAND
                margin = Fraction(-mx if mx < 0 else mn, gross_den)
                steps.append(DominanceStep(Side.PONTE, game.ponte_sets[j], action, margin))
                settled_p.add(j)
                banker.settle(j, 1 if action is Action.DRAW else 0)
                changed = True
    return tuple(steps)
