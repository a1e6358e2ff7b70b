"""Bets on the first cards' ranks and suits: Player Pair, Banker Pair, Either Pair, Perfect Pairs.

These bets read only the player's and the banker's first two cards, the first four cards dealt. Any
four positions of a shuffled shoe have the law of the first four cards, so their law comes straight
from the shoe's composition by *card type* (rank and suit; or rank alone when suits do not matter).

A side's two cards fall into one *class*: bit 0 set for a pair (same rank), bit 1 for suited (same
suit). Each class is a signed sum of the indicators ``1, SR, SS, ST`` (same rank, same suit, same
type): perfect pair ``ST``, pair not suited ``SR − ST``, suited not pair ``SS − ST``, neither
``1 − SR − SS + ST``. So the joint law of the two sides' classes follows from the sixteen *moments*
``M[X, Y]``, the number of ordered ways to deal the player two cards with ``X`` and then the banker
two with ``Y`` (:func:`first_card_moments`). With ``G`` the counts of the groups ``Y`` compares
(types, ranks or suits; ``Q_G = Σ G (G − 1)``) and ``a, b`` the player's cards, removing them changes
the banker's count by ``−4 G_j + 6`` when both are in group ``j`` and by ``−2 (G_i − 1) − 2 (G_j − 1)``
otherwise, so summing over the player's pairs,

    M[X, Y] = |X| Q_G − 4 Σ_t m_t G_{g(t)} partners_X(t) + 4 |X| + 2 |X ∧ same group|,

with ``partners_X(t)`` the cards that make ``X`` with a card of type ``t`` (and ``M[X, 1] = |X| (N − 2)
(N − 3)``): a few sums over the 52 (or 13) types, exact integers over ``N (N − 1)(N − 2)(N − 3)``.
Dealing with replacement (the infinite deck) the two sides are independent.

>>> law = first_cards_law(Shoe.decks(8))
>>> law.probability(lambda p, b: p & 1)  # Player Pair: (4d − 1) / (52d − 1)
Fraction(31, 415)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from solver.cards import Shoe
from solver.errors import ModelError
from solver.punto.bet import Bet, BetResult, Tier, result_from_weights
from solver.punto.events import Condition

PAIR, SUITED = 1, 2

# Classes as signed sums of the indicators (1, SR, SS, ST): rows none, pair, suited, perfect.
CLASS_BASIS = ((1, -1, -1, 1), (0, 1, 0, -1), (0, 0, 1, -1), (0, 0, 0, 1))
RANK_CLASS_BASIS = ((1, -1), (0, 1))  # rows no pair, pair; columns 1, SR


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


def first_card_moments(m: Any, rank_of: Any, suit_of: Any, n_groups: Any, out: Any) -> None:
    """The moments ``M[X, Y]`` (``X, Y`` in 1, SR, SS, ST) of the first four cards, into ``out`` (4 × 4).

    ``m`` counts the cards of each type, ``rank_of`` and ``suit_of`` give each type's rank and suit,
    ``n_groups`` the number of ranks and suits (13, 4); with one type per rank pass ``suit_of`` all
    zero and read only the rows and columns 1, SR (see the module docstring). Plain Python (lists, a
    dict for ``out``, exact integers) or compiled by numba (int64 arrays; the counting kernel).
    """
    n_types = len(m)
    ranks = [0] * n_groups[0]
    suits = [0] * n_groups[1]
    n = 0
    for t in range(n_types):
        ranks[rank_of[t]] += m[t]
        suits[suit_of[t]] += m[t]
        n += m[t]
    q_type = 0
    for t in range(n_types):
        q_type += m[t] * (m[t] - 1)
    q_rank = 0
    for r in range(len(ranks)):
        q_rank += ranks[r] * (ranks[r] - 1)
    q_suit = 0
    for u in range(len(suits)):
        q_suit += suits[u] * (suits[u] - 1)
    size = (n * (n - 1), q_rank, q_suit, q_type)  # |X| for X = 1, SR, SS, ST
    q_of = (q_rank, q_suit, q_type)  # Q_G for Y = SR, SS, ST (groups: rank, suit, type)
    # |X ∧ same group of Y|, rows X = 1, SR, SS, ST; columns Y = SR, SS, ST
    same = ((q_rank, q_suit, q_type), (q_rank, q_type, q_type), (q_type, q_suit, q_type), (q_type, q_type, q_type))
    for x in range(4):
        out[x, 0] = size[x] * (n - 2) * (n - 3)
        for y in range(3):
            acc = 0
            for t in range(n_types):
                if x == 0:
                    partners = n - 1
                elif x == 1:
                    partners = ranks[rank_of[t]] - 1
                elif x == 2:
                    partners = suits[suit_of[t]] - 1
                else:
                    partners = m[t] - 1
                if y == 0:
                    g = ranks[rank_of[t]]
                elif y == 1:
                    g = suits[suit_of[t]]
                else:
                    g = m[t]
                acc += m[t] * g * partners
            out[x, y + 1] = size[x] * q_of[y] - 4 * acc + 4 * size[x] + 2 * same[x][y]


def _types(shoe: Shoe, use_suits: bool) -> tuple[list[int], list[int], list[int]]:
    counts = shoe.suits if use_suits else shoe.ranks
    assert counts is not None
    rank_of = [t // 4 for t in range(len(counts))] if use_suits else list(range(len(counts)))
    suit_of = [t % 4 for t in range(len(counts))] if use_suits else [0] * len(counts)
    return list(counts), rank_of, suit_of


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
        raise ModelError(
            "suit bets need the shoe's suits: give 52 counts by rank and suit, or remove cards with "
            "their suit (e.g. KS); rank counts that are multiples of four mean equal suits"
        )
    counts, rank_of, suit_of = _types(shoe, use_suits)
    basis = CLASS_BASIS if use_suits else RANK_CLASS_BASIS
    columns = [0, 1, 2, 3] if use_suits else [0, 1]
    classes = [0, PAIR, SUITED, PAIR | SUITED] if use_suits else [0, PAIR]
    n = sum(counts)
    if shoe.is_infinite:  # with replacement: each side's indicator counts, independent
        by_rank, by_suit = [0] * 13, [0] * 4
        for c, r, u in zip(counts, rank_of, suit_of):
            by_rank[r] += c
            by_suit[u] += c
        single = [n * n, sum(r * r for r in by_rank), sum(u * u for u in by_suit), sum(c * c for c in counts)]
        side = [sum(basis[c][j] * single[x] for j, x in enumerate(columns)) for c in range(len(classes))]
        weights = {(classes[a], classes[b]): side[a] * side[b] for a in range(len(classes)) for b in range(len(classes))}
        return FirstCardsLaw(shoe, use_suits, weights, n**4)
    moments: dict[tuple[int, int], int] = {}  # exact Python integers (the counting kernel passes an int64 array)
    first_card_moments(counts, rank_of, suit_of, (13, 4), moments)
    k = len(columns)
    joint = [
        [sum(basis[a][i] * moments[columns[i], columns[j]] * basis[b][j] for i in range(k) for j in range(k)) for b in range(k)]
        for a in range(k)
    ]
    weights = {(classes[a], classes[b]): joint[a][b] for a in range(k) for b in range(k)}
    return FirstCardsLaw(shoe, use_suits, weights, n * (n - 1) * (n - 2) * (n - 3))


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
    return Bet(
        f"{side}_pair",
        f"{side.capitalize()} Pair: the {side}'s first two cards are a pair, pays {pays} to 1",
        (Tier(Fraction(pays), Condition.of(**{f"{side}_pair": True}), "pair"),),
    )


def pair_bets(shoe: Shoe, pays: int = 11) -> tuple[BetResult, ...]:
    """Player Pair and Banker Pair results; empty for a shoe known by value only."""
    if shoe.ranks is None:
        return ()
    return tuple(evaluate_first_cards(side_pair_bet(side, pays), shoe) for side in ("player", "banker"))
