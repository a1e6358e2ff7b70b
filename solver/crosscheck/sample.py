"""Samples to test: our simulator's coups, or a file of dealt coups (read by :mod:`solver.crosscheck.reader`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from solver.crosscheck.tally import CardStream, ShoeTallies
from solver.simulate import SimulationResult
from solver.simulate.config import Payout
from solver.simulate.kernel import NO_TURN

# -- samples ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleBreaks:
    """The coups of a file that break the rules (or the strategy's fixed decisions): a fault of the
    engine, which no false alarm can produce.

    Attributes:
        count: coups that break the rules.
        first: (line, what is wrong) for the first of them.
    """

    count: int
    first: tuple[tuple[int, str], ...]


@dataclass(frozen=True, eq=False)
class Sample:
    """Coups to hold against the exact law.

    The coups *held* to the exact law of a coup from a freshly shuffled shoe are every coup of a file
    that marks no shoes (each taken to come from a fresh shoe), and the first coup of each shoe of a
    file that marks its shoes, or of our simulator. The shoe-level tests use every card of the shoes.

    Attributes:
        source: where they came from.
        n: number of coups held to the first-coup law.
        winner: their counts of banker, player (ponte), tie.
        detail: their counts by detail key (length 800), or ``None``.
        cards: counts of the point values of their first four cards, or ``None``.
        burn: counts by (turned burn card value 0–9, outcome), or ``None``.
        bets: bet name → (sum of results, sum of squared results) over the held coups, as the engine
            settled them: only bets the engine reports (our simulator's; a file's settlements).
        whole_shoes: the coups were dealt through whole shoes, which the sample marks.
        coups: every coup read or dealt (0: the same as ``n``), those that break the rules included.
        shoes: the shoes (0: none marked).
        serial: counts of consecutive held coups by (previous outcome, next outcome), 3 × 3.
        pairs: held coups by the number of equal-kind pairs among their first four cards (length 7),
            when counted as they were dealt (our simulator); a file's are counted from ``stream``.
        by_rank: ``pairs`` and ``shoe_tallies`` count ranks (else point values).
        shoe_tallies: the shoe-level sums of our simulator's shoes.
        stream: a file's cards, coups and shoes; ``held``: the indices of its held coups.
        rule_breaks: a file's coups that break the rules (left out of everything above), or None.
    """

    source: str
    n: int
    winner: np.ndarray
    detail: np.ndarray | None = None
    cards: np.ndarray | None = None
    burn: np.ndarray | None = None
    bets: dict[str, tuple[float, float]] = field(default_factory=dict)
    whole_shoes: bool = False
    coups: int = 0
    shoes: int = 0
    serial: np.ndarray | None = None
    pairs: np.ndarray | None = None
    by_rank: bool = True
    shoe_tallies: ShoeTallies | None = None
    stream: CardStream | None = None
    held: np.ndarray | None = None
    rule_breaks: RuleBreaks | None = None

    @property
    def total_coups(self) -> int:
        """Every coup of the sample."""
        return self.coups or self.n


def _bet_sums(winner: np.ndarray, payouts: Iterable[Payout]) -> dict[str, tuple[float, float]]:
    out = {}
    for p in payouts:
        a = np.array([float(x) for x in p.vector()])
        out[p.name] = (float(a @ winner), float((a * a) @ winner))
    return out


def sample_from_simulation(result: SimulationResult) -> Sample:
    """Our simulator's coups: the first coup of every shoe held to the first-coup law (bets settled by
    the engine's payouts); when it kept them (``SimConfig.shoe_tallies``), the first coups' pairs and
    serial tallies and, when it dealt whole shoes, the shoes' tallies."""
    t = result.tallies
    config = result.config
    winner = t.pos_counts[0].copy()
    burn = t.burn_winner[:NO_TURN].copy() if t.burn_winner[:NO_TURN].sum() else None
    by_rank = config.shoe.ranks is not None
    whole = not config.first_coup_only
    shoes = None
    structure = config.shoe_tallies
    if whole and structure:
        shoes = ShoeTallies.from_kernel(by_rank, t.n_shoes, config.shoe.size, t.comp, t.next_vec, t.next_cc, t.shoe_counts)
    mode = "whole shoes" if whole else "first coups"
    return Sample(
        source=f"simulation ({config.strategy.name}; {config.burn.label()}; {mode}; seed {result.seed})",
        n=int(winner.sum()),
        winner=winner,
        detail=t.first_detail.copy(),
        cards=t.first_cards.copy(),
        burn=burn,
        bets=_bet_sums(winner, config.payouts),
        whole_shoes=whole,
        coups=t.n_coups,
        shoes=t.n_shoes if whole else 0,
        serial=t.serial.copy() if structure else None,
        pairs=t.first_pairs.copy() if structure else None,
        by_rank=by_rank,
        shoe_tallies=shoes,
    )
