"""The counting kernel's inputs (:mod:`solver.count.dealer`): four structs whose fields it reads, and
:func:`kernel_structs`, which builds the shoe-independent three for a study, once.

* :class:`Table`: the table dealt and what the player knows;
* :class:`Law`: the coup bets' exact law (the int64 trie of :mod:`solver.count.fastlaw` and the
  float64 route's dense trie of :mod:`solver.count.denselaw`);
* :class:`Bets`: the bets' settlements, the first-card bets' tables and the counts' tags;
* :class:`Counts`: the arrays a call adds to.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from solver.count.config import CountConfig, first_card_tables
from solver.count.denselaw import use_float
from solver.count.fastlaw import fast_law
from solver.deal.outcome import Outcomes
from solver.punto.bet import tier_index
from solver.rules.tableau import PUNTO_BANCO

N_DETAIL_CODES = 10 * 10 * 11 * 11 * 10
"""The coup's codes the bets are settled by: two-card totals, third cards (or none), the highest card."""


class Table(NamedTuple):
    """The table dealt and what the player knows, the same for every shoe of a study.

    Attributes:
        cards: int64, the type of each physical card; value_of, rank_of, suit_of: each type's value,
            rank (−1 unknown) and suit.
        max_coups: the most coups a shoe holds; burn_mode: a :class:`~solver.simulate.kernel.BurnMode`'s
            code; burn_count: a fixed burn's cards; cut: cards behind the cut card; extra_coup: one
            more coup after the cut card's.
        ptab, btab: float64 draw tables (as in :class:`solver.simulate.kernel.Table`).
        unseen_mode: the player's edge is taken on the cards he has not seen (else on those left in
            the shoe); decks_unseen: the true count divides by the unseen cards (else by the shoe's).
    """

    cards: np.ndarray
    value_of: np.ndarray
    rank_of: np.ndarray
    suit_of: np.ndarray
    max_coups: int
    burn_mode: int
    burn_count: int
    cut: int
    extra_coup: bool
    ptab: np.ndarray
    btab: np.ndarray
    unseen_mode: bool
    decks_unseen: bool


class Law(NamedTuple):
    """The coup bets' exact law, shoe-independent: the int64 trie's arrays
    (:meth:`solver.count.fastlaw.FastLaw.arguments`), the keys' multipliers, and the float64 route's
    dense trie (:meth:`solver.count.denselaw.DenseLaw.arguments`), used where ``dense_route``."""

    parent: np.ndarray
    factor: np.ndarray
    segments: np.ndarray
    segment_key: np.ndarray
    segment_size: np.ndarray
    pair_node: np.ndarray
    pair_count: np.ndarray
    residual: int
    multiplier: np.ndarray
    scale: np.ndarray
    dense_route: bool
    dense_nodes: int
    run_src: np.ndarray
    run_dst: np.ndarray
    run_len: np.ndarray
    run_factor: np.ndarray
    seg_tasks: np.ndarray
    task_factor: np.ndarray
    task_node: np.ndarray
    task_coef: np.ndarray
    task_len: np.ndarray
    coef: np.ndarray
    task_pairs: np.ndarray
    dense_node: np.ndarray
    dense_count: np.ndarray


class Bets(NamedTuple):
    """How the bets are settled and counted: the coup bets' tier by detail code and their pays, the
    first-card bets' tables (:func:`solver.count.config.first_card_tables`), and the counts' tags and
    thresholds (``counted``: the bets that have a count)."""

    detail_tier: np.ndarray
    tier_pays: np.ndarray
    first_mult: np.ndarray
    first_scale: np.ndarray
    first_pays: np.ndarray
    use_suits: bool
    tags: np.ndarray
    threshold_num: np.ndarray
    threshold_den: np.ndarray
    counted: np.ndarray


class Counts(NamedTuple):
    """The arrays a call adds to (their meaning: the module docstring)."""

    moments: np.ndarray
    hist: np.ndarray
    positive: np.ndarray
    ev_min: np.ndarray
    ev_max: np.ndarray
    depth_coups: np.ndarray
    depth_ev: np.ndarray
    depth_positive: np.ndarray


@lru_cache(maxsize=8)
def kernel_structs(config: CountConfig) -> tuple[Table, Law, Bets]:
    """The kernel's shoe-independent inputs for a study (cached): the table and what the player knows,
    the coup bets' compiled law (float route where exact), and the bets' settlements and counts."""
    ordered = config.ordered
    coup = tuple(b for b, _ in ordered if not b.first_cards)
    first = tuple(b for b, _ in ordered if b.first_cards)
    law = fast_law(coup, PUNTO_BANCO, winner=False)
    rows = Outcomes.from_keys(np.arange(N_DETAIL_CODES))
    detail_tier = np.zeros((max(len(coup), 1), N_DETAIL_CODES), dtype=np.int64)
    most = max((len(b.tiers) for b in coup), default=0)
    tier_pays = np.full((max(len(coup), 1), most + 1), -1.0)
    for j, bet in enumerate(coup):
        detail_tier[j] = tier_index(bet, rows)
        for i, t in enumerate(bet.tiers):
            tier_pays[j, i] = float(t.pays)
        tier_pays[j, len(bet.tiers) :] = -1.0
    suits = config.type_level == "suit"
    first_mult, first_scale, first_pays = first_card_tables(first, suits)
    cards, value_of, rank_of, suit_of = config.card_types()
    counts = [c for _, c in ordered]
    num = np.array([c.threshold.numerator if c else 0 for c in counts], dtype=np.int64)
    den = np.array([c.threshold.denominator if c else 1 for c in counts], dtype=np.int64)
    counted = np.array([c is not None for c in counts], dtype=np.bool_)
    sim = config.table
    ptab, btab = sim.strategy.float_tables()
    burn = sim.burn
    table = Table(
        cards,
        value_of,
        rank_of,
        suit_of,
        sim.max_coups,
        burn.mode.code,
        burn.count,
        sim.cut,
        sim.extra_coup,
        ptab,
        btab,
        config.knowledge == "unseen",
        config.decks == "unseen",
    )
    trie = (law.parent, law.factor, law.segments, law.segment_key, law.segment_size, law.pair_node, law.pair_count)
    d = law.dense
    dense = (d.run_src, d.run_dst, d.run_len, d.run_factor, d.seg_tasks, d.task_factor, d.task_node, d.task_coef, d.task_len)
    laws = Law(
        *trie,
        law.residual,
        law.multiplier,
        law.scale,
        use_float(len(cards), "auto"),
        d.nodes,
        *dense,
        d.coef,
        d.task_pairs,
        d.pair_node,
        d.pair_count,
    )
    bets = Bets(detail_tier, tier_pays, first_mult, first_scale, first_pays, suits, config.tag_matrix(), num, den, counted)
    return table, laws, bets
