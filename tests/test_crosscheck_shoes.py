"""The tests of structure (pairs, serial, shoe composition, next shoe, repeats) and whole shoes.

- The exact laws behind them, against brute force over physical cards and against the enumerator.
- One set of statistics for a file and for our simulator: the same shoes dealt by the simulator's
  kernel and written to a file by the independent engine (tests/independent_engine.py) give the same
  integer tallies.
- The statistics are calibrated: under a correct engine their p-values are uniform (fixed seeds).
- The reader: shoe markers, settlements, the tokens ``1`` and ``0``.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations, product

import numpy as np
import pytest
from independent_engine import RANKS, Engine, text

from solver.cards import Shoe
from solver.crosscheck import CardStream, crosscheck, exact_law, read_coups
from solver.crosscheck.shoelaw import pair_law, pair_mean, pair_variance, sequence_bound, spread_moments
from solver.crosscheck.structure import next_shoe_test, serial_test, spread_test
from solver.crosscheck.tally import pair_histogram, shoe_tallies
from solver.deal.tree import deal_tree, denominator, multiset_weights
from solver.errors import InputError
from solver.rules.tableau import PUNTO_BANCO
from solver.simulate import SimConfig, kernel
from solver.simulate.run import Tallies
from solver.strategy import PUNTO_STRATEGY

EIGHT = Shoe.decks(8)


# -- the exact laws ------------------------------------------------------------------------------------


def _physical(counts: tuple[int, ...]) -> list[int]:
    return [k for k, c in enumerate(counts) for _ in range(c)]


def _pairs(kinds: tuple[int, ...]) -> int:
    return sum(a == b for a, b in combinations(kinds, 2))


@pytest.mark.parametrize("counts", [(3, 2, 2, 1, 4), (4, 4, 4), (1, 1, 1, 1, 1, 5), (6, 1)])
def test_pair_law_by_brute_force_over_physical_cards(counts: tuple[int, ...]) -> None:
    cards = _physical(counts)
    seen = Counter(_pairs(tuple(cards[i] for i in idx)) for idx in permutations(range(len(cards)), 4))
    total = sum(seen.values())
    law = pair_law(counts, infinite=False)
    assert law == {k: Fraction(seen.get(k, 0), total) for k in law}
    assert pair_mean(counts, False) == sum(Fraction(k * c, total) for k, c in seen.items())
    mean = pair_mean(counts, False)
    assert pair_variance(counts, False) == sum(Fraction(c, total) * (k - mean) ** 2 for k, c in seen.items())


def test_pair_law_with_replacement_by_brute_force() -> None:
    counts = (1, 2, 3)
    weight = Counter[int]()
    for kinds in product(range(3), repeat=4):
        weight[_pairs(kinds)] += math.prod(counts[k] for k in kinds)
    law = pair_law(counts, infinite=True)
    assert law == {k: Fraction(weight.get(k, 0), 6**4) for k in law}
    assert pair_mean((1,) * 13, True) == Fraction(6, 13)  # 6 pairs, each equal with probability 1/13


@pytest.mark.parametrize("shoe", [EIGHT, Shoe.decks(1).remove(["5", "K", "K"])], ids=["8-decks", "1-deck-less-3"])
def test_pair_law_by_value_agrees_with_the_enumerator(shoe: Shoe) -> None:
    """The enumerator's deal tree weighs every coup; summed by the equal values among each coup's first
    four cards, it gives the law of :func:`pair_law` on the shoe's values, exactly."""
    tree = deal_tree(PUNTO_BANCO)
    w = multiset_weights(tree, shoe)[tree.multiset]
    first4 = tree.cards[:, :4]
    pairs = sum((first4[:, i] == first4[:, j]).astype(np.int64) for i, j in combinations(range(4), 2))
    by_pairs = {k: Fraction(int(w[pairs == k].astype(object).sum()), denominator(shoe)) for k in (0, 1, 2, 3, 6)}
    assert by_pairs == pair_law(shoe.values, infinite=False)


def test_pair_rates_that_tell_shoe_sizes_apart() -> None:
    """Six pairs among four cards, each of equal rank with probability (n - 1)/(N - 1) for n cards of a
    rank: 8 decks 31/415, 7 decks 27/363, with replacement 1/13."""
    assert pair_mean((32,) * 13, False) == 6 * Fraction(31, 415)
    assert pair_mean((28,) * 13, False) == 6 * Fraction(27, 363)
    assert pair_mean((1,) * 13, True) == 6 * Fraction(1, 13)


@pytest.mark.parametrize(("counts", "draws"), [((2, 3, 1, 2), 3), ((4, 4, 4), 5), ((1, 5), 2), ((3, 3, 3, 3), 6)])
def test_spread_moments_by_brute_force(counts: tuple[int, ...], draws: int) -> None:
    cards = _physical(counts)
    size = len(cards)
    values = []
    for subset in combinations(range(size), draws):
        x = Counter(cards[i] for i in subset)
        values.append(
            sum((Fraction(x[k]) - Fraction(draws * c, size)) ** 2 / Fraction(draws * c, size) for k, c in enumerate(counts))
        )
    mean = sum(values, Fraction(0)) / len(values)
    var = sum(((q - mean) ** 2 for q in values), Fraction(0)) / len(values)
    assert spread_moments(counts, draws) == (mean, var)


def test_sequence_bound_bounds_every_sequence() -> None:
    counts = (3, 1, 2)
    cards = _physical(counts)
    for length in (1, 2, 3, 4):
        seen = Counter(tuple(cards[i] for i in idx) for idx in permutations(range(len(cards)), length))
        total = sum(seen.values())
        assert max(seen.values()) <= sequence_bound(counts, length, False) * total


# -- one set of statistics for a file and for the simulator ------------------------------------------------


class ScriptedGenerator:
    """Stands in for the kernel's generator: each card pick (``integers(0, m)``: the kernel's Fisher-Yates
    shuffle placing the card at position ``n - m``) takes, from the cards not yet placed, one of the code
    the script names next, shoe by shoe (a shoe starts at position 0). Positions the kernel shuffles
    ahead beyond the cards a shoe dealt take the card already there. The generator keeps its own copy of
    the kernel's cards, swapped as the kernel swaps them."""

    def __init__(self, codes: np.ndarray, shoes: list[list[int]]) -> None:
        self.cards = codes.copy()
        self.script = [list(s) for s in shoes]
        self.shoe = -1

    def integers(self, low: int, high: int) -> int:
        n = len(self.cards)
        top = n - high
        if top == 0:
            self.shoe += 1
        script = self.script[self.shoe]
        j = top + int(np.flatnonzero(self.cards[top:] == script.pop(0))[0]) if script else top
        self.cards[[top, j]] = self.cards[[j, top]]
        return j - top


def test_the_kernel_and_a_file_of_the_same_shoes_give_the_same_tallies() -> None:
    """The independent engine deals 60 whole shoes of 2 decks and writes them; the simulator's kernel
    (the Python reference, which the C and numba kernels equal bit for bit) is made to deal the same
    cards. Read back, the file gives the kernel's tallies exactly: the first coups' laws, the pairs,
    the serial table, and the shoe-level sums."""
    shoe = Shoe.decks(2)
    engine = Engine(decks=2, cut=14)
    record: list[list[str]] = []
    file_text = "".join(engine.lines(0, seed=5, shoes=60, record=record))
    config = SimConfig.punto(shoe, cut=14, shoe_tallies=True)
    table = config.kernel_table()
    script = [[RANKS.index(card) for card in dealt] for dealt in record]
    t = Tallies.zeros(config.max_coups)
    coups = kernel.deal_shoes(table, 60, ScriptedGenerator(table.codes, script), t.counts())
    sample = read_coups(io.StringIO(file_text), "engine", PUNTO_STRATEGY, "punto")
    assert sample.stream is not None and sample.held is not None
    assert (sample.coups, sample.shoes, sample.n) == (coups, 60, 60)
    assert np.array_equal(sample.winner, t.pos_counts[0]) and np.array_equal(sample.detail, t.first_detail)
    assert np.array_equal(sample.cards, t.first_cards) and np.array_equal(sample.serial, t.serial)
    assert np.array_equal(pair_histogram(sample.stream.first_four(sample.held, True)), t.first_pairs)
    mine = shoe_tallies(sample.stream, shoe.ranks or (), True, shoe.label())
    theirs = _kernel_shoe_tallies(t, shoe)
    for name in ("comp_shoes", "next_pairs", "next_k1", "next_kk"):
        assert getattr(mine, name) == getattr(theirs, name), name
    for name in ("comp", "next_vec", "next_cc"):
        assert np.array_equal(getattr(mine, name), getattr(theirs, name)), name
    assert mine.comp_shoes == 60 and mine.next_pairs == 59


def _kernel_shoe_tallies(t: Tallies, shoe: Shoe):  # type: ignore[no-untyped-def]
    from solver.crosscheck import ShoeTallies

    return ShoeTallies.from_kernel(True, t.n_shoes, shoe.size, t.comp, t.next_vec, t.next_cc, t.shoe_counts)


# -- the statistics are calibrated ---------------------------------------------------------------------


def _uniform(p_values: list[float]) -> float:
    from scipy import stats

    return float(stats.kstest(p_values, "uniform").pvalue)


def test_serial_statistic_is_chi_square_under_independence() -> None:
    rng = np.random.default_rng(1)
    p = (0.46, 0.44, 0.10)
    w = rng.choice(3, size=(300, 2000), p=p)
    pairs = w[:, :-1] * 3 + w[:, 1:]
    pv = [serial_test(np.bincount(row, minlength=9).reshape(3, 3), p, 0.01).p_value for row in pairs]
    assert _uniform(pv) > 0.001


def test_serial_statistic_sees_outcomes_that_repeat() -> None:
    rng = np.random.default_rng(2)
    w = [0]
    for _ in range(20000):  # the last outcome again one time in ten, otherwise independent
        w.append(w[-1] if rng.random() < 0.1 else int(rng.choice(3, p=(0.46, 0.44, 0.10))))
    table = np.zeros((3, 3), np.int64)
    np.add.at(table, (np.array(w[:-1]), np.array(w[1:])), 1)
    assert serial_test(table, (0.46, 0.44, 0.10), 1e-4).rejected


def _stream_of_shoes(shoes: list[np.ndarray], coup: int = 5) -> CardStream:
    cards = np.concatenate(shoes).astype(np.int8)
    starts, shoe_starts = [], []
    at = 0
    for s in shoes:
        shoe_starts.append(len(starts))
        starts.extend(range(at, at + len(s), coup))
        at += len(s)
    n = len(starts)
    return CardStream(
        cards,
        cards,
        np.array(starts + [len(cards)], np.int64),
        np.zeros(n, np.int8),
        np.arange(n, dtype=np.int64),
        np.array(shoe_starts, np.int64),
    )


def test_shoe_statistics_are_standard_normal_for_shuffled_shoes() -> None:
    """Shoes of two decks by rank, each shuffled anew and dealt to a random depth (13 to 24 cards left):
    the shoe composition and next-shoe z-scores over 150 shoes, 300 times, have uniform p-values."""
    rng = np.random.default_rng(3)
    counts = (8,) * 13
    deck = np.repeat(np.arange(13), 8)
    spread, follow = [], []
    for _ in range(300):
        shoes = [rng.permutation(deck)[: 104 - int(rng.integers(13, 25))] for _ in range(150)]
        t = shoe_tallies(_stream_of_shoes(shoes), counts, True, "2 decks")
        spread.append(spread_test(t, counts, 0.01).p_value)
        follow.append(next_shoe_test(t, counts, 0.01).p_value)
    assert _uniform(spread) > 0.001 and _uniform(follow) > 0.001


def test_shoe_statistics_see_stale_cards_and_a_smaller_shoe() -> None:
    rng = np.random.default_rng(4)
    counts = (8,) * 13
    deck = np.repeat(np.arange(13), 8)
    shoes, left = [], np.zeros(0, np.int64)
    for _ in range(40):  # the 14 cards left behind go back, unshuffled, on top of the next shoe
        order = deck[rng.permutation(104)]
        if len(left):
            pool = list(order)
            for c in left:
                pool.remove(c)
            order = np.concatenate([left, np.array(pool)])
        shoes.append(order[:90])
        left = order[90:]
    t = shoe_tallies(_stream_of_shoes(shoes), counts, True, "2 decks")
    assert next_shoe_test(t, counts, 1e-4).rejected
    small = [rng.permutation(np.repeat(np.arange(13), 7))[:80] for _ in range(400)]  # 91 cards labelled 104
    t = shoe_tallies(_stream_of_shoes(small), counts, True, "2 decks")
    assert spread_test(t, counts, 1e-4).rejected and spread_test(t, counts, 1e-4).statistic < 0


# -- the reader ----------------------------------------------------------------------------------------------


def _read(body: str):  # type: ignore[no-untyped-def]
    return read_coups(io.StringIO(body), "f", PUNTO_STRATEGY, "punto")


def test_shoe_markers() -> None:
    s = _read("9,4,Q,2;P\nSHOE  # a new shoe\n2,K,2,3,2,3;T\n7,K,Q,6;P\nshoe\n\nshoe\n9,4,Q,2\n")
    assert (s.coups, s.shoes, s.n, s.whole_shoes) == (4, 3, 3, True)
    assert s.held is not None and s.held.tolist() == [0, 1, 3]
    unmarked = _read("9,4,Q,2;P\n2,K,2,3,2,3;T\n")
    assert (unmarked.coups, unmarked.shoes, unmarked.n, unmarked.whole_shoes) == (2, 0, 2, False)


def test_settlements() -> None:
    s = _read(
        "9,4,Q,2;P;banker=-1,player=1,tie_8to1=-1\n2,K,2,3,2,3;;banker=0,player=0,tie_8to1=8\n"
        "A,3,Q,5;B;tie_8to1=-1, banker=0.95, player=-1\n"
    )
    assert s.bets == {
        "banker": (float(Fraction(-1) + 0 + Fraction(19, 20)), float(1 + Fraction(361, 400))),
        "player": (0.0, 2.0),
        "tie_8to1": (6.0, 66.0),
    }
    assert _read("9,4,Q,2;P\n").bets == {}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("9,4,Q,2;P;banker=-1\n9,4,Q,2;P\n", "line 2: settles no bet, but the coups before settle banker"),
        ("9,4,Q,2;P\n9,4,Q,2;P;banker=-1\n", "line 2: settles banker, but the coups before settle no bet"),
        ("9,4,Q,2;P;pair=11\n", "line 1: settlement of an unknown bet 'pair'"),
        ("9,4,Q,2;P;banker=one\n", "line 1: the settlement of banker"),
        ("9,4,Q,2;P;banker\n", "line 1: settlement 'banker': write bet=result"),
        ("9,4,Q,2;P;banker=1,banker=1\n", "line 1: bet 'banker' settled twice"),
        ("9,4,Q,2;\n", "line 1: reported outcome '': use B, P or T"),
        ("9,4,Q,X\n", "line 1: bad card 'X' (use A, 2-9, T or 10, J, Q, K; 1 is an ace, 0 a ten-valued card)"),
    ],
)
def test_bad_settlements_and_cards_name_the_line(body: str, message: str) -> None:
    with pytest.raises(InputError, match="^f, " + message.replace("(", r"\(").replace(")", r"\)")):
        _read(body)


def test_tokens_one_and_zero() -> None:
    """``1`` is an ace; ``0`` a ten-valued card of unknown rank, which makes the file count by values."""
    ones = _read("1,3,Q,5;B\n")
    assert ones.stream is not None and ones.stream.ranks.tolist() == [0, 2, 11, 4] and ones.stream.by_rank
    zeros = _read("9,4,0,2;P\n0,0,9,9;T\n")
    assert zeros.stream is not None and not zeros.stream.by_rank and zeros.stream.values.tolist()[:4] == [9, 4, 0, 2]
    law = exact_law("punto", EIGHT, PUNTO_STRATEGY)
    coups = "".join(text(Engine(first_coup_only=True, mark_shoes=False), 400, seed=1).replace("K", "0").replace("Q", "0"))
    cc = crosscheck(_read(coups), law)
    pairs = next(t for t in cc.tests if t.name == "pairs")
    assert "equal-value pairs" in pairs.note and cc.passed


# -- the command line ----------------------------------------------------------------------------------------


def test_a_file_of_marked_shoes_on_the_command_line(cli) -> None:  # type: ignore[no-untyped-def]
    import json

    stale = text(Engine(stale=True, settle=True), 20000, seed=3)
    run = cli(["crosscheck", "--coups", "-", "--format", "json"], stdin=stale)
    assert run.code == 1, run.err
    d = json.loads(run.out)
    assert d["coups"] == 20000 and d["held_coups"] == d["shoes"] == stale.count("shoe\n")
    assert [t["name"] for t in d["tests"] if t["rejected"]] == ["next shoe"]
    assert {"bet banker", "bet player", "bet tie_8to1", "repeats"} <= {t["name"] for t in d["tests"]}
    assert d["per_test_rate"] == f"1/{len(d['tests']) * 1000}"


def test_our_simulator_dealing_whole_shoes_on_the_command_line(cli) -> None:  # type: ignore[no-untyped-def]
    run = cli(["crosscheck", "--simulate", "2e5", "--whole-shoes", "--seed", "2", "--workers", "1", "--format", "csv"])
    assert run.code == 0, run.err
    names = [line.split(",")[0] for line in run.out.splitlines()[1:]]
    assert {"shoe composition", "next shoe", "pairs", "serial"} <= set(names) and "repeats" not in names
    refused = cli(["crosscheck", "--whole-shoes"])
    assert refused.code == 2 and "--whole-shoes goes with --simulate N" in refused.err


def test_our_simulator_dealing_a_smaller_shoe_than_stated_is_rejected() -> None:
    """Our own kernel dealing whole shoes of 7 decks, held to the law of 8: the shoe composition test
    rejects at 2 x 10^5 coups (z about -19 expected), and no marginal law does."""
    from solver.crosscheck import sample_from_simulation
    from solver.simulate import simulate

    config = SimConfig.punto(Shoe.decks(7), shoe_tallies=True)
    cc = crosscheck(
        sample_from_simulation(simulate(config, coups=200_000, seed=5, workers=1)), exact_law("punto", EIGHT, PUNTO_STRATEGY)
    )
    assert [t.name for t in cc.tests if t.rejected] == ["shoe composition"]
