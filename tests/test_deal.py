"""The enumerator's exact invariants, and agreement with a brute force over physical cards."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Shoe
from solver.deal.outcome import outcomes
from solver.deal.tree import deal_tree, denominator, multiset_weights
from solver.deal.weights import falling
from solver.rules.tableau import CHEMIN_PARLOR, PUNTO_BANCO


def punto_by_hand(p: list[int], b: list[int], deck: list[int]) -> tuple[int, int, int]:
    """Finish a punto banco coup with explicit ifs (independent of rules.py); return totals and cards used."""
    pt, bt = (p[0] + p[1]) % 10, (b[0] + b[1]) % 10
    used = 0
    if pt >= 8 or bt >= 8:
        return pt, bt, used
    third = None
    if pt <= 5:
        third = deck[used]
        used += 1
        pt = (pt + third) % 10
    if third is None:
        draw = bt <= 5
    elif bt <= 2:
        draw = True
    elif bt == 3:
        draw = third != 8
    elif bt == 4:
        draw = 2 <= third <= 7
    elif bt == 5:
        draw = 4 <= third <= 7
    elif bt == 6:
        draw = third in (6, 7)
    else:
        draw = False
    if draw:
        bt = (bt + deck[used]) % 10
        used += 1
    return pt, bt, used


def brute_force(values: tuple[int, ...]) -> Counter[tuple[int, int]]:
    """Count every ordered six-card sequence of physical cards by (player total, banker total)."""
    cards = [v for v, n in enumerate(values) for _ in range(n)]
    law: Counter[tuple[int, int]] = Counter()
    for seq in itertools.permutations(range(len(cards)), 6):
        v = [cards[i] for i in seq]
        pt, bt, _ = punto_by_hand([v[0], v[2]], [v[1], v[3]], v[4:])
        law[pt, bt] += 1
    return law


def law_of(shoe: Shoe) -> Counter[tuple[int, int]]:
    t = outcomes(shoe)
    law: Counter[tuple[int, int]] = Counter()
    for p, b, w in zip(t.p_total.tolist(), t.b_total.tolist(), t.weights.tolist()):
        law[p, b] += w
    return +law


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=6, max_size=8))
def test_agrees_with_brute_force_over_physical_cards(cards: list[int]) -> None:
    shoe = Shoe.from_values([cards.count(v) for v in range(10)])
    assert law_of(shoe) == +brute_force(shoe.values)


def test_brute_force_nine_card_shoe() -> None:
    shoe = Shoe.from_values((2, 1, 1, 1, 1, 1, 0, 1, 0, 1))
    assert law_of(shoe) == +brute_force(shoe.values)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=10, max_size=10).filter(lambda c: sum(c) >= 6))
def test_weights_sum_to_denominator(counts: list[int]) -> None:
    shoe = Shoe.from_values(counts)
    t = outcomes(shoe)
    assert int(t.weights.sum()) == denominator(shoe) == falling(sum(counts), 6)
    assert all(w > 0 for w in t.weights.tolist())


def test_first_card_law_is_exact() -> None:
    # The law of the first card is n_v / N exactly: sum path weights by the first card dealt.
    shoe = Shoe.decks(8).remove(["5", "K", "K", "9"])
    tree = deal_tree(PUNTO_BANCO)
    g = tree.grouping("first-card", lambda t: t.cards[:, 0].astype(np.int64))
    sums = g.evaluate(multiset_weights(tree, shoe))
    for v, s in zip(g.keys.tolist(), sums.tolist()):
        assert Fraction(s, denominator(shoe)) == Fraction(shoe.values[v], shoe.size)


def test_infinite_deck_is_the_limit_of_large_shoes() -> None:
    inf = outcomes(Shoe.infinite())
    assert inf.denominator == 13**6 and int(inf.weights.sum()) == 13**6
    # With replacement the law of the first two cards is a product: check P(natural) exactly.
    p_two = Fraction(0)
    for a in range(10):
        for b in range(10):
            if (a + b) % 10 >= 8:
                p_two += Fraction(4 if a == 0 else 1, 13) * Fraction(4 if b == 0 else 1, 13)
    p_no_natural = (1 - p_two) ** 2
    assert inf.probability(~inf.natural) == p_no_natural


def test_huge_shoe_uses_python_integers() -> None:
    shoe = Shoe.decks(40)  # denominator above 2^63
    assert denominator(shoe) > 2**63
    t = outcomes(shoe)
    assert t.weights.dtype == object
    assert sum(t.weights.tolist()) == denominator(shoe)


def test_parlor_tree_paths_of_a_pure_strategy_sum_to_denominator() -> None:
    tree = deal_tree(CHEMIN_PARLOR)
    # Pure strategy: ponte draws at 5, banker always stands.
    keep = ~((tree.p_free & ~tree.p_drew) | (tree.b_free & tree.b_drew))
    shoe = Shoe.decks(2)
    w = multiset_weights(tree, shoe)[tree.multiset]
    assert int(w[keep].sum()) == denominator(shoe)
