"""Bets on the first cards' ranks and suits: Player Pair, Banker Pair, Either Pair, Perfect Pairs.

These bets read only the player's and the banker's first two cards, the first four cards dealt. Any
four positions of a shuffled shoe have the law of the first four cards, so their law comes straight
from the shoe's composition by *card type*: the rank (13 types) where only ranks matter, the rank and
suit (52 types) where suits do.

Let ``m_t`` be the number of cards of type ``t`` and ``A``, ``B`` two sets of ordered type pairs (an
event on the player's two cards, and one on the banker's). The number of ordered ways to deal the
player two cards in ``A`` is ``C_A(m) = Σ_{a,b} A_ab m_a (m_b − [a = b])``; after the player's cards
``a, b`` the shoe is ``m − e_a − e_b``, and expanding the quadratic form,

    C_B(m − e_a − e_b) = C_B(m) − g_a − g_b + 2 B_aa + 2 B_bb + B_ab + B_ba,   g = B m + Bᵀ m,

so the joint count ``Σ_{a,b} A_ab m_a (m_b − [a = b]) C_B(m − e_a − e_b)`` is exact integer
arithmetic on 13 × 13 or 52 × 52 arrays, over the denominator ``N (N − 1)(N − 2)(N − 3)``. Dealing
with replacement (the infinite deck) the two hands are independent: ``C'_A C'_B / T⁴`` with
``C'_A = mᵀ A m`` over ``T`` equally likely types.

A side's first two cards fall into one *class*: bit 0 set for a pair (same rank), bit 1 for suited
(same suit, where the suits are known). :func:`first_cards_law` gives the exact weight of every
(player class, banker class).

>>> law = first_cards_law(Shoe.decks(8))
>>> law.probability(lambda p, b: p & 1)  # Player Pair: (4d − 1) / (52d − 1)
Fraction(31, 415)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from solver.cards import Shoe
from solver.errors import ModelError

from .core import Bet, BetResult, Tier, result_from_weights
from .events import Condition

PAIR, SUITED = 1, 2


@dataclass(frozen=True)
class FirstCardsLaw:
    """The exact law of the classes of the player's and the banker's first two cards.

    Attributes:
        shoe: the shoe.
        suits: whether the suits are known (else only the pair bit is meaningful).
        weights: ``(player class, banker class) → weight`` (integers over ``denominator``).
        denominator: ``N (N − 1)(N − 2)(N − 3)``, or ``T⁴`` dealing with replacement.
    """

    shoe: Shoe
    suits: bool
    weights: dict[tuple[int, int], int]
    denominator: int

    def probability(self, event: Callable[[int, int], int | bool]) -> Fraction:
        """Exact probability of an event on the two classes."""
        return Fraction(sum(w for (p, b), w in self.weights.items() if event(p, b)), self.denominator)


def _class_matrices(types: int, by_suit: bool) -> list[np.ndarray]:
    t = np.arange(types)
    rank = t // 4 if by_suit else t
    same_rank = rank[:, None] == rank[None, :]
    if not by_suit:
        return [~same_rank, same_rank]
    same_suit = (t % 4)[:, None] == (t % 4)[None, :]
    return [~same_rank & ~same_suit, same_rank & ~same_suit, ~same_rank & same_suit, same_rank & same_suit]


def first_cards_law(shoe: Shoe, suits: bool | None = None) -> FirstCardsLaw:
    """The exact law of the first four cards' pair and suit classes on ``shoe``.

    Args:
        shoe: a shoe known by rank.
        suits: use the suits (default: where they are known).

    Raises:
        ModelError: the shoe's ranks are unknown, or ``suits`` asked for and unknown.
    """
    if shoe.ranks is None:
        raise ModelError("pair bets need the shoe's ranks; give --decks or 13 counts by rank, and remove cards by rank")
    use_suits = shoe.suits is not None if suits is None else suits
    if use_suits and shoe.suits is None:
        raise ModelError("suit bets need the shoe's suits: give 52 counts by rank and suit, or remove cards with "
                         "their suit (e.g. KS); rank counts that are multiples of four mean equal suits")
    counts = shoe.suits if use_suits else shoe.ranks
    assert counts is not None
    mats = _class_matrices(len(counts), use_suits)
    n = sum(counts)
    big = n ** 4 > 2**62
    m = np.array(counts, dtype=object if big else np.int64)
    weights: dict[tuple[int, int], int] = {}
    if shoe.is_infinite:
        single = [int(m @ a.astype(m.dtype) @ m) for a in mats]
        for k, ck in enumerate(single):
            for l, cl in enumerate(single):
                weights[k, l] = ck * cl
        denominator_ = n**4
    else:
        pair_count = m[:, None] * (m[None, :] - np.eye(len(m), dtype=m.dtype))
        for k, a in enumerate(mats):
            base = np.where(a, pair_count, 0)
            for l, b in enumerate(mats):
                bb = b.astype(m.dtype)
                c_b = int(np.where(b, pair_count, 0).sum())
                g = bb @ m + bb.T @ m
                diag = np.diag(bb)
                rem = c_b - g[:, None] - g[None, :] + 2 * diag[:, None] + 2 * diag[None, :] + bb + bb.T
                weights[k, l] = int((base * rem).sum())
        denominator_ = n * (n - 1) * (n - 2) * (n - 3)
    classes = [0, PAIR] if not use_suits else [0, PAIR, SUITED, PAIR | SUITED]
    named = {(classes[k], classes[l]): w for (k, l), w in weights.items()}
    return FirstCardsLaw(shoe, use_suits, named, denominator_)


def _class_values(p: int, b: int) -> dict[str, int]:
    out = {}
    for side, c in (("player", p), ("banker", b)):
        out[f"{side}_pair"] = int(bool(c & PAIR))
        out[f"{side}_suited"] = int(bool(c & SUITED))
        out[f"{side}_perfect_pair"] = int(c == PAIR | SUITED)
    return out


def evaluate_first_cards(bet: Bet, shoe: Shoe, law: FirstCardsLaw | None = None) -> BetResult:
    """The exact result law of a bet on the first cards' ranks and suits.

    Args:
        bet: a bet whose pay table reads the first cards.
        shoe: the shoe.
        law: the shoe's :func:`first_cards_law`, if already computed.

    Raises:
        ModelError: the bet reads the coup's outcome, or the shoe lacks the ranks (suits) it needs.
    """
    if not bet.first_cards:
        raise ModelError(f"bet {bet.name} is settled by the coup's outcome, not by the first cards")
    if law is None or (bet.needs_suits and not law.suits):
        law = first_cards_law(shoe, suits=True if bet.needs_suits else None)
    tier_w = [0] * len(bet.tiers)
    lose = 0
    for (p, b), w in law.weights.items():
        values = _class_values(p, b)
        for i, tier in enumerate(bet.tiers):
            assert isinstance(tier.when, Condition)
            if tier.when.holds(values):
                tier_w[i] += w
                break
        else:
            lose += w
    return result_from_weights(bet, tier_w, lose, law.denominator)


def pair_probability(shoe: Shoe) -> Fraction:
    """Exact probability that two given cards of a coup (the player's two, or the banker's) are a pair.

    Any two positions of a shuffled shoe have the law of the first two cards dealt, so this is
    Σ_r n_r (n_r − 1) / (N (N − 1)) over the ranks r, or Σ_r c_r² / (Σ c)² dealing with replacement.

    >>> pair_probability(Shoe.decks(8))
    Fraction(31, 415)

    Raises:
        ModelError: the shoe was given by point value only, so its ranks are unknown.
    """
    if shoe.ranks is None:
        raise ModelError("pair bets need the shoe's ranks; give --decks or 13 counts by rank, and remove cards by rank")
    n = shoe.ranks
    total = sum(n)
    if shoe.is_infinite:
        return Fraction(sum(c * c for c in n), total * total)
    return Fraction(sum(c * (c - 1) for c in n), total * (total - 1))


@lru_cache(maxsize=16)
def side_pair_bet(side: str, pays: int = 11) -> Bet:
    """Player Pair or Banker Pair: the side's first two cards are of the same rank; pays ``pays`` to 1."""
    return Bet(f"{side}_pair", f"{side.capitalize()} Pair: the {side}'s first two cards are a pair, pays {pays} to 1",
               (Tier(Fraction(pays), Condition.of(**{f"{side}_pair": True}), "pair"),))


def pair_bets(shoe: Shoe, pays: int = 11) -> tuple[BetResult, ...]:
    """Player Pair and Banker Pair results; empty for a shoe known by value only."""
    if shoe.ranks is None:
        return ()
    return tuple(evaluate_first_cards(side_pair_bet(side, pays), shoe) for side in ("player", "banker"))
