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


def _range_over_box(const: int, coeffs: list[int], lo: list[Fraction], hi: list[Fraction]) -> tuple[Fraction, Fraction]:
    mn = mx = Fraction(const)
    for g, a, b in zip(coeffs, lo, hi):
        if g:
            x, y = g * a, g * b
            mn += min(x, y)
            mx += max(x, y)
    return mn, mx


def iterated_dominance(game: Game) -> tuple[DominanceStep, ...]:
    """Iterated strict dominance on the free decisions, in rounds until nothing changes.

    Each round first settles every banker set whose net slope has one sign over the open ponte box,
    then every ponte set whose gross slope has one sign over the open banker box.
    """
    net, gross = game.net, game.gross
    m, n = len(game.ponte_sets), len(game.banker_sets)
    qlo, qhi = [Fraction(0)] * m, [Fraction(1)] * m
    rlo, rhi = [Fraction(0)] * n, [Fraction(1)] * n
    steps: list[DominanceStep] = []
    settled_b: set[int] = set()
    settled_p: set[int] = set()
    Gn = [[int(x) for x in row] for row in net.G.T] if m else [[] for _ in range(n)]
    Gg = [[int(x) for x in row] for row in gross.G] if n else [[] for _ in range(m)]
    changed = True
    while changed:
        changed = False
        for i in range(n):
            if i in settled_b:
                continue
            mn, mx = _range_over_box(int(net.b[i]), Gn[i], qlo, qhi)
            if mn > 0 or mx < 0:
                action = Action.DRAW if mn > 0 else Action.STAND
                margin = (mn if mn > 0 else -mx) / net.denominator
                steps.append(DominanceStep(Side.BANKER, game.banker_sets[i], action, margin))
                settled_b.add(i)
                rlo[i] = rhi[i] = Fraction(1 if action is Action.DRAW else 0)
                changed = True
        for j in range(m):
            if j in settled_p:
                continue
            mn, mx = _range_over_box(int(gross.a[j]), Gg[j], rlo, rhi)
            # The ponte minimises the banker's gross result: drawing is dominant when the slope is < 0.
            if mn > 0 or mx < 0:
                action = Action.DRAW if mx < 0 else Action.STAND
                margin = (-mx if mx < 0 else mn) / gross.denominator
                steps.append(DominanceStep(Side.PONTE, game.ponte_sets[j], action, margin))
                settled_p.add(j)
                qlo[j] = qhi[j] = Fraction(1 if action is Action.DRAW else 0)
                changed = True
    return tuple(steps)
