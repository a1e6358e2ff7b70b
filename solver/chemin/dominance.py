"""Iterated strict dominance over the free decisions, with exact margins."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from solver.chemin.game import Game
from solver.rules.tableau import Action
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


def _arrays(*xs: np.ndarray, width: int) -> list[np.ndarray]:
    """The integer arrays in int64 where every sum of ``width`` of their entries fits, else as they are
    (Python integers, object dtype)."""
    try:
        out: list[Any] = [np.array(x.tolist(), dtype=np.int64).reshape(x.shape) for x in xs]
    except OverflowError:
        return list(xs)
    if max((max(float(x.max()), -float(x.min())) for x in out if x.size), default=0.0) * (width + 2) < 2.0**62:
        return out
    return list(xs)


def iterated_dominance(game: Game) -> tuple[DominanceStep, ...]:
    """Iterated strict dominance on the free decisions, in rounds until nothing changes.

    Each round first settles every banker set whose net slope has one sign over the open ponte box,
    then every ponte set whose gross slope has one sign over the open banker box. The box's bounds
    are 0 or 1 and the slopes' coefficients integers, so each slope's range is an integer sum: the
    constant, the coefficients of the sets settled at 1, and the negative (least) or positive
    (greatest) coefficients of the open ones. Settling a banker set changes no banker set's range
    (they range over the ponte's box), nor a ponte set the ponte's: so a round's settles of one side
    are found at once, in int64 where every sum fits (else in Python integers), and only a margin
    becomes a Fraction.
    """
    net, gross = game.net, game.gross
    m, n = len(game.ponte_sets), len(game.banker_sets)
    # banker set i's slope over the ponte box: b_i + Σ_j G_ji q_j; ponte set j's over the banker box: a_j + Σ_i G_ji r_i
    Gb, Gp, b, a = _arrays(net.G.reshape(m, n), gross.G.reshape(m, n), net.b, gross.a, width=max(m, n))
    dtype = Gb.dtype
    neg_b, pos_b = np.minimum(Gb, 0), np.maximum(Gb, 0)
    neg_p, pos_p = np.minimum(Gp, 0), np.maximum(Gp, 0)
    open_q, open_r = np.ones(m, dtype=bool), np.ones(n, dtype=bool)
    on_q, on_r = np.zeros(m, dtype=dtype), np.zeros(n, dtype=dtype)
    net_den, gross_den = int(net.denominator), int(gross.denominator)
    DRAW, STAND = Action.DRAW, Action.STAND
    steps: list[DominanceStep] = []
    while True:
        fixed = b + on_q @ Gb
        low, high = fixed + open_q @ neg_b, fixed + open_q @ pos_b
        draw, stand = open_r & (low > 0), open_r & (high < 0)
        ups, lows, highs = draw.tolist(), low.tolist(), high.tolist()
        for i in np.flatnonzero(draw | stand).tolist():
            up = ups[i]
            margin = Fraction(int(lows[i]) if up else -int(highs[i]), net_den)
            steps.append(DominanceStep(Side.BANKER, game.banker_sets[i], DRAW if up else STAND, margin))
        open_r &= ~(draw | stand)
        on_r[draw] = 1
        fixed = a + Gp @ on_r
        low, high = fixed + neg_p @ open_r, fixed + pos_p @ open_r
        # The ponte minimises the banker's gross result: drawing is dominant when the slope is < 0.
        pdraw, pstand = open_q & (high < 0), open_q & (low > 0)
        ups, lows, highs = pdraw.tolist(), low.tolist(), high.tolist()
        for j in np.flatnonzero(pdraw | pstand).tolist():
            up = ups[j]
            margin = Fraction(-int(highs[j]) if up else int(lows[j]), gross_den)
            steps.append(DominanceStep(Side.PONTE, game.ponte_sets[j], DRAW if up else STAND, margin))
        open_q &= ~(pdraw | pstand)
        on_q[pdraw] = 1
        if not (draw.any() or stand.any() or pdraw.any() or pstand.any()):
            return tuple(steps)
