"""The counting kernel's float64 route (solver.count.denselaw) against the int64 kernel and the reference
route's Fractions, on random depleted shoes of 1 to 8 decks and on tiny shoes; the guard that sends
larger shoes to the int64 kernel; and whole studies dealt the same, tally for tally, on either route."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Shoe
from solver.count import CountConfig, LinearCount, denselaw, fastlaw, lanelaw, lawparts
from solver.count.denselaw import FLOAT_EXACT, dense_trie, float_exact, levels, use_float
from solver.count.fastlaw import fast_law
from solver.count.run import deal
from solver.errors import ModelError
from solver.punto import bets_from_names, catalogue, punto_banco

COUP_BETS = tuple(b for b in catalogue() if not b.first_cards)
STUDY = bets_from_names("dragon7,panda8,big_tiger")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
TALLIES = ("moments", "hist", "positive", "ev_min", "ev_max", "depth_coups", "depth_ev", "depth_positive")


@st.composite
def depleted_shoes(draw: st.DrawFn) -> Shoe:
    decks = draw(st.integers(1, 8))
    size = 52 * decks
    removed = draw(st.lists(st.integers(0, 12), max_size=size - 6))
    shoe = Shoe.decks(decks)
    left = [4 * decks] * 13
    kept = []
    for r in removed:  # no more of a rank than the shoe holds
        if left[r]:
            left[r] -= 1
            kept.append(RANKS[r])
    return shoe.remove(kept)


@settings(max_examples=25, deadline=None)
@given(depleted_shoes())
def test_float_route_equals_int64_and_the_exact_route(shoe: Shoe) -> None:
    law = fast_law(COUP_BETS, winner=True)
    assert float_exact(shoe.size)
    floats, ints = law.numerators(shoe, route="float"), law.numerators(shoe, route="int64")
    assert floats == ints
    reference = punto_banco(shoe, bets=COUP_BETS)
    assert law.evs(shoe, route="float") == [r.ev for r in reference.bets]
    assert law.key_weights(shoe, route="float") == law.key_weights(shoe, route="int64")
    assert sum(law.key_weights(shoe, route="float")) == reference.denominator


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=10, max_size=10).filter(lambda c: sum(c) >= 6))
def test_float_route_on_tiny_shoes(counts: list[int]) -> None:
    # Few cards: many multisets need more cards of a value than the shoe holds (weight 0 through a zero
    # factor, negative factors after it), and tasks with a factor <= 0 are skipped.
    shoe = Shoe.from_values(counts)
    law = fast_law(STUDY)
    assert law.numerators(shoe, route="float") == law.numerators(shoe, route="int64")
    assert law.evs(shoe, route="float") == [r.ev for r in punto_banco(shoe, bets=STUDY).bets]
    assert law.numerators(shoe, compiled_kernel=False, route="float") == law.numerators(shoe, route="float")


def test_dense_and_sparse_tasks_give_the_same_integers() -> None:
    # fill 0: every task a dense coefficient vector; fill above 1: every pair read by index.
    shoe = Shoe.decks(6).remove(["A", "A", "5", "9", "K", "Q", "7", "7", "7", "2"])
    reference = fast_law(STUDY).numerators(shoe, route="int64")
    for fill in (0.0, 0.25, 1.5):
        law = fast_law(STUDY, fill=fill)
        assert law.numerators(shoe, route="float") == reference, fill
    assert fast_law(STUDY, fill=0.0).dense.pair_node.size == 0
    assert fast_law(STUDY, fill=1.5).dense.task_len.sum() == 0


def test_the_dense_trie_holds_every_multiset_once_in_runs() -> None:
    lv = levels(6)
    assert [len(level) for level in lv] == [math.comb(9 + k, k) for k in range(7)]
    for k in range(1, 7):
        assert len(set(lv[k])) == len(lv[k]) and all(list(q) == sorted(q) for q in lv[k])
    # a run's children are its parents with one value appended, the factor's value
    d = dense_trie(np.array([[0, 0, 1, 2, 0, 0, 0, 0, 3, 0]]), np.array([0, 1]), np.array([7]))
    flat = [q for level in lv for q in level]
    for src, dst, n, f in zip(d.run_src, d.run_dst, d.run_len, d.run_factor):
        for i in range(n):
            parent, child = flat[src + i], flat[dst + i]
            assert child == parent + (f // 8,) and parent.count(f // 8) == f % 8


def test_the_guard_sends_larger_shoes_to_the_int64_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    assert math.perm(458, 6) < FLOAT_EXACT <= math.perm(459, 6)
    assert float_exact(416) and float_exact(458) and not float_exact(459)
    assert use_float(416, "auto") and not use_float(468, "auto") and not use_float(416, "int64")
    law = fast_law(bets_from_names("dragon7"))
    nine = Shoe.decks(9)
    with pytest.raises(ModelError, match="not exact"):
        law.numerators(nine, route="float")
    with pytest.raises(ModelError, match="route"):
        law.numerators(Shoe.decks(8), route="fast")
    assert law.evs(nine) == law.evs(nine, route="int64") == [r.ev for r in punto_banco(nine, bets=law.bets).bets]
    with pytest.raises(ModelError, match="not exact"):
        deal(CountConfig.punto(nine, law.bets), 1, np.random.default_rng(0), route="float")

    def no_float_kernel() -> None:
        raise AssertionError("the float kernel was chosen")

    monkeypatch.setattr(denselaw, "compiled", no_float_kernel)
    assert law.evs(nine) == law.evs(nine, route="int64")  # auto on 9 decks: the int64 kernel
    with pytest.raises(AssertionError, match="float kernel was chosen"):
        law.evs(Shoe.decks(8))  # auto on 8 decks: the float kernel


def test_the_guard_is_needed() -> None:
    # Past 2^53 float sums round. On 1,264 cards (D ≈ 2^61.8, still exact in int64 for the key weights)
    # the float kernel, called without its guard, misses the exact key weights the int64 kernel gives;
    # on 380 cards (D ≈ 2^51.4) it finds them.
    law = fast_law(STUDY)
    identity, zero = np.eye(law.keys, dtype=np.int64), np.zeros(law.keys, np.int64)
    for counts, exact in (
        ([97, 101, 89, 103, 91, 99, 93, 107, 95, 389], False),
        ([29, 31, 27, 33, 25, 35, 23, 37, 21, 119], True),
    ):
        c = np.array(counts, dtype=np.int64)
        ints, floats = np.zeros(law.keys, np.int64), np.zeros(law.keys, np.int64)
        fastlaw.compiled()(c, sum(counts), *law.arguments(), law.residual, identity, zero, *law.scratch()[:-1], ints)
        denselaw.compiled()(
            c, sum(counts), *law.dense_arguments(), law.residual, identity, zero, *law.dense_scratch()[:-1], floats
        )
        assert float_exact(sum(counts)) == exact
        assert np.array_equal(ints, floats) == exact, counts


@pytest.mark.parametrize("decks", [1, 8])
def test_a_study_deals_the_same_tallies_on_either_route(decks: int) -> None:
    counts = [LinearCount.parse("0,0,-1,-1,-1,-2,1,2,2,0", 8), None, LinearCount.parse("1,1,1,1,1,1,1,1,1,1", -1)]
    config = CountConfig.punto(Shoe.decks(decks), STUDY, counts)
    a = deal(config, 4, np.random.default_rng(9), route="float")
    b = deal(config, 4, np.random.default_rng(9), route="int64")
    c = deal(config, 4, np.random.default_rng(9))
    assert a.n_coups == b.n_coups == c.n_coups > 0
    for name in TALLIES:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
        assert np.array_equal(getattr(a, name), getattr(c, name)), name


# -- eight shoes at once, and shoes past 2^53 (the batch route of baccarat punto --shoes) ---------------


def lanes(law: fastlaw.FastLaw, counts: list[list[int]], wide: bool) -> list[list[int]]:
    """Every key's weight but the residual's on shoes of ``counts`` by lane_sums (float64, or with ``wide``
    float64 and modulo 2^64, recovered as in solver.count.batch.price)."""
    d, lanes_n = law.dense, lawparts.LANES
    rows = (counts * lanes_n)[:lanes_n]
    c = np.array(rows, dtype=np.int64)
    sums, sums_u = np.zeros(law.keys * lanes_n), np.zeros(law.keys * lanes_n, np.uint64)
    lanelaw.compiled_lanes()(
        c,
        c.sum(axis=1),
        wide,
        d.run_src,
        d.run_dst,
        d.run_len,
        d.run_factor,
        d.seg_tasks,
        d.task_factor,
        d.task_pairs,
        d.pair_node,
        d.pair_count.astype(np.float64),
        d.pair_count.astype(np.uint64),
        law.segment_key,
        law.segment_size,
        np.zeros(d.nodes * lanes_n),
        np.zeros(d.nodes * lanes_n, np.uint64),
        np.zeros(80 * lanes_n),
        np.zeros(80 * lanes_n, np.uint64),
        np.zeros(7 * lanes_n),
        np.zeros(7 * lanes_n, np.uint64),
        sums,
        sums_u,
    )
    out = []
    sums, sums_u = sums.reshape(law.keys, lanes_n), sums_u.reshape(law.keys, lanes_n)
    for lane in range(len(counts)):
        if wide:
            out.append([int(u) + (int(np.rint((f - float(u)) / 2.0**64)) << 64) for f, u in zip(sums[:, lane], sums_u[:, lane])])
        else:
            out.append([int(f) for f in sums[:, lane]])
    return out


def reference_keys(law: fastlaw.FastLaw, counts: list[int]) -> list[int]:
    from solver.punto import compile_bets

    weights = compile_bets(law.bets, winner=law.winner).key_weights(Shoe.from_values(counts), route="plain")
    weights[law.residual] = 0
    return weights


def test_eight_shoes_at_once_in_float64_are_the_exact_keys() -> None:
    law = fast_law(COUP_BETS, winner=True, fill=math.inf)
    assert law.dense.task_len.sum() == 0 and law.dense.coef.size == 0  # every task sparse
    counts = [[128, 32, 32, 32, 32, 32, 32, 32, 32, 32], [20, 8, 8, 8, 8, 6, 6, 4, 4, 4], [6, 0, 0, 0, 0, 0, 0, 0, 0, 0]]
    counts += [[2, 1, 0, 3, 0, 0, 1, 0, 0, 1], [100, 30, 25, 40, 20, 31, 33, 28, 29, 32]]
    for c, got in zip(counts, lanes(law, counts, wide=False)):
        got[law.residual] = 0
        assert got == reference_keys(law, c), c


def test_shoes_past_2_to_the_63_by_two_channels() -> None:
    """Float64 sums within the proven error (solver.count.lanelaw.wide_error) and the same sums modulo
    2^64 give the exact keys on 100 and 1,000 decks; past the bound the recovered keys may be wrong."""
    law = fast_law(COUP_BETS, winner=True, fill=math.inf)
    rounded = lanelaw.wide_terms(law.dense, law.segment_key, law.keys)
    hundred = [1600, 400, 398, 400, 401 - 5, 400, 399, 400, 400, 400]
    thousand = [16000, 4000, 3990, 4000, 4000, 3977, 4000, 4000, 3999, 4000]
    odd = [15000, 3, 4000, 0, 4000, 1, 4000, 4000, 2, 4000]  # values nearly or quite gone
    assert all(lanelaw.wide_exact(sum(c), rounded) for c in (hundred, thousand, odd))
    for c, got in zip((hundred, thousand, odd), lanes(law, [hundred, thousand, odd], wide=True)):
        got[law.residual] = 0
        assert got == reference_keys(law, c), c
        assert math.perm(sum(c), 6) >= 2**63
    huge = [4_000_000, 1_000_000, 1_000_000, 1_000_001, 999_999, 1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000]
    assert not lanelaw.wide_exact(sum(huge), rounded)
    got = lanes(law, [huge], wide=True)[0]
    got[law.residual] = 0
    assert got != reference_keys(law, huge)  # the bound is needed: float sums off by more than 2^63


def test_prepared_bets_read_from_the_disk_cache_are_the_ones_built(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BACCARAT_CACHE", str(tmp_path))
    built = fastlaw.build_fast_law(STUDY, fastlaw.PUNTO_BANCO, True, 0.25)
    first, second = fast_law(STUDY, winner=True), fast_law(STUDY, winner=True)  # built and stored, then read
    assert list(tmp_path.glob("fastlaw-*"))
    for law in (first, second):
        assert law.residual == built.residual and law.dense.nodes == built.dense.nodes
        for name in fastlaw.LAW_ARRAYS:
            assert np.array_equal(getattr(law, name), getattr(built, name)), name
        for name in fastlaw.DENSE_ARRAYS:
            assert np.array_equal(getattr(law.dense, name), getattr(built.dense, name)), name
    shoe = Shoe.decks(8).remove(["5", "5", "K"])
    assert second.numerators(shoe) == built.numerators(shoe)
