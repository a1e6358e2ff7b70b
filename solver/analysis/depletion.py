"""What the later figures draw: side bets as cards leave the shoe, and the edge's distribution over shoes.

Computed here, drawn in :mod:`solver.report.figures.side_bets` (the banque figure draws
:func:`solver.banque.committed.banque_entries` directly).

* :func:`removal_curves`: a bet's exact edge on the shoe less ``k`` cards of one point value, for a
  range of ``k``: the effects of removal (:mod:`solver.count.eor`) followed beyond one card. Every
  point is an exact solve of a depleted shoe.
* :func:`edge_distribution`: seeded shoes dealt to the cut card (:mod:`solver.count`), with the
  **exact** edge of each bet taken before every coup on the cards not yet seen, tallied in bins of
  1/1000 of the stake: a simulated distribution (an estimate) of exact values.

>>> from solver.punto import bets_from_names
>>> c = removal_curves(Shoe.decks(8), bets_from_names("dragon7"), most=4, step=4)
>>> [(p.value, p.removed) for p in c[:2]], c[0].edge == punto_banco(Shoe.decks(8), bets=bets_from_names("dragon7")).bets[0].edge
([(0, 0), (0, 4)], True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from solver.cards import Shoe
from solver.punto import Bet, punto_banco

FIGURE_BETS = "dragon7,panda8,big_tiger,tie_8to1"
"""The bets of the side-bet figures: the countable side bets the counting literature studies."""

COUNT_SHOES = 1000
"""Shoes dealt for the edge's distribution unless the command says otherwise."""


@dataclass(frozen=True)
class RemovalPoint:
    """A bet's exact house edge on the shoe less ``removed`` cards of point ``value`` (0 for the tens)."""

    bet: str
    value: int
    removed: int
    edge: Fraction


def removal_curves(shoe: Shoe, bets: Sequence[Bet], most: int = 32, step: int = 4) -> tuple[RemovalPoint, ...]:
    """Each bet's exact edge as 0, ``step``, 2 ``step``, … ``most`` cards of each point value leave ``shoe``
    (fewer where the shoe holds fewer), one exact solve per depleted shoe.

    Raises:
        ModelError: an infinite shoe (it does not change when cards are dealt).
    """
    from solver.errors import ModelError

    if shoe.is_infinite:
        raise ModelError("an infinite deck does not change when cards are dealt")
    out = []
    for value in range(10):
        for k in range(0, min(most, shoe.values[value]) + 1, step):
            counts = list(shoe.values)
            counts[value] -= k
            result = punto_banco(Shoe.from_values(counts), bets=bets)
            out += [RemovalPoint(b.name, value, k, b.edge) for b in result.bets]
    return tuple(out)


@dataclass(frozen=True)
class EdgeDistribution:
    """How often each bet's exact edge (for the player) fell in each bin over the coups of simulated shoes.

    Attributes:
        shoe, seed, n_shoes, n_coups: what was dealt (punto banco, turn and burn, cut card 14).
        bets: the bets' names; ``full_shoe``: each bet's exact edge for the player on the full shoe.
        counts: per bet, coups per bin; bin ``i`` < 2000 holds edges in [−1 + i/1000, −1 + (i+1)/1000),
            bin 2000 the edges ≥ 1.
        method: how the numbers were obtained.
    """

    shoe: Shoe
    seed: int
    n_shoes: int
    n_coups: int
    bets: tuple[str, ...]
    full_shoe: tuple[Fraction, ...]
    counts: tuple[tuple[int, ...], ...]
    method: str = (
        "simulated shoes (solver.count: turn and burn, cut card 14), the exact edge of each bet on the "
        "cards not yet seen before every coup; the counts are exact tallies of a seeded simulation"
    )

    @staticmethod
    def bin_low(i: int) -> Fraction:
        """The lower edge of bin ``i`` (for the player, per unit staked)."""
        return Fraction(-1000 + i, 1000)


def edge_distribution(shoe: Shoe, bets: Sequence[Bet], n_shoes: int = COUNT_SHOES, seed: int = 1) -> EdgeDistribution:
    """Deal ``n_shoes`` seeded shoes (in this process) and tally each bet's exact edge before every coup."""
    from solver.count import CountConfig
    from solver.count.run import run_study

    config = CountConfig.punto(shoe, bets)
    tallies = run_study(config, n_shoes, seed=seed, workers=1)
    order = [b.name for b, _ in config.ordered]
    full = punto_banco(shoe, bets=bets)
    return EdgeDistribution(
        shoe=shoe,
        seed=seed,
        n_shoes=tallies.n_shoes,
        n_coups=tallies.n_coups,
        bets=tuple(b.name for b in bets),
        full_shoe=tuple(-full.bet(b.name).edge for b in bets),
        counts=tuple(tuple(int(c) for c in tallies.hist[order.index(b.name)]) for b in bets),
    )
