"""The counting kernel and studies: the fast exact law against the reference route, the compiled kernel
against its plain-Python self, the table's customs, reproducibility on any executor, and the two routes
to a bet's mean (exact edges, simulated results) agreeing within their standard errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Shoe
from solver.count import CountConfig, LinearCount, count_study
from solver.count import run as run_module
from solver.count.fastlaw import fast_law
from solver.count.run import deal
from solver.errors import InputError, ModelError
from solver.punto import bets_from_names, catalogue, punto_banco
from solver.simulate import Burn

COUP_BETS = tuple(b for b in catalogue() if not b.first_cards)
RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")


@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=0, max_size=300))
def test_fast_law_equals_the_exact_route(removed: list[int]) -> None:
    shoe = Shoe.decks(8).remove(RANK_LABELS[r] for r in removed)
    law = fast_law(COUP_BETS, winner=True)
    reference = punto_banco(shoe, bets=COUP_BETS)
    assert law.evs(shoe) == [r.ev for r in reference.bets]
    assert law.evs(shoe, compiled_kernel=False) == law.evs(shoe)
    weights = law.key_weights(shoe)
    assert sum(weights) == reference.denominator


def test_fast_law_refuses_shoes_too_large_for_int64() -> None:
    with pytest.raises(ModelError, match="too large"):
        fast_law(bets_from_names("dragon7")).numerators(Shoe.decks(30))
    with pytest.raises(ModelError, match="finite"):
        fast_law(bets_from_names("dragon7")).numerators(Shoe.infinite())


MIXED = bets_from_names("dragon7,big_tiger,either_pair,perfect_pairs_v2")


def test_compiled_kernel_equals_plain_python() -> None:
    counts = [None, LinearCount.parse("0,0,-1,-1,-1,-2,1,2,2,0", 8), LinearCount.parse("1,1,1,1,1,1,1,1,1,1", -1), None]
    for knowledge in ("unseen", "remaining"):
        config = CountConfig.punto(Shoe.decks(2), MIXED, counts, knowledge=knowledge)
        a = deal(config, 3, np.random.default_rng(4), compiled=False)
        b = deal(config, 3, np.random.default_rng(4), compiled=True)
        assert a.n_coups == b.n_coups > 0
        for name in ("moments", "hist", "positive", "ev_min", "ev_max", "depth_coups", "depth_ev", "depth_positive"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name


def coups_in_one_shoe(**table: object) -> int:
    nines = Shoe.from_values((0,) * 9 + (52,))
    return deal(CountConfig.punto(nines, bets_from_names("dragon7"), **table), 1, np.random.default_rng(0)).n_coups


def test_the_tables_customs_as_the_simulator_deals_them() -> None:
    # 52 nines, every coup a natural of four cards (see tests/test_simulate.py for the arithmetic).
    assert coups_in_one_shoe(burn=Burn("none")) == 10
    assert coups_in_one_shoe(burn=Burn("none"), extra_coup=True) == 11
    assert coups_in_one_shoe(burn=Burn("fixed", 3)) == 9
    assert coups_in_one_shoe() == 8  # turn a nine, burn nine more


def test_first_coup_edge_is_the_full_shoe_edge() -> None:
    # With no burn the first coup of every shoe is dealt from the full shoe: unseen = 416 cards, the
    # only coups in the depth bucket 416 // 26; their exact edge is the enumerator's.
    bets = bets_from_names("dragon7,either_pair")
    config = CountConfig.punto(Shoe.decks(8), bets, burn=Burn("none"))
    t = deal(config, 5, np.random.default_rng(1))
    k = 416 // 26
    assert t.depth_coups[k] == 5
    exact = punto_banco(Shoe.decks(8), bets=bets)
    for b, r in enumerate(exact.bets):
        assert t.depth_ev[b, k] / 5 == pytest.approx(float(r.ev), rel=1e-12)


def test_same_seed_same_result_whatever_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_module, "CHUNK_COUPS", 4_000)  # many chunks from a small run
    config = CountConfig.punto(Shoe.decks(8), bets_from_names("big_tiger,either_pair"))
    one = run_module.run_study(config, 300, seed=5, workers=1)
    two = run_module.run_study(config, 300, seed=5, workers=2)
    assert len(run_module.chunk_sizes(config, 300)) > 4
    assert np.array_equal(one.moments, two.moments) and np.array_equal(one.hist, two.hist)
    other = run_module.run_study(config, 300, seed=6, workers=1)
    assert not np.array_equal(one.moments, other.moments)


def test_same_result_on_a_dask_cluster(monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    monkeypatch.setattr(run_module, "CHUNK_COUPS", 4_000)
    config = CountConfig.punto(Shoe.decks(8), bets_from_names("big_tiger"))
    local = run_module.run_study(config, 200, seed=3, workers=1)
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster:
        remote = run_module.run_study(config, 200, seed=3, scheduler=cluster.scheduler_address)
    assert np.array_equal(local.moments, remote.moments)


def test_exact_edges_and_simulated_results_agree() -> None:
    # The mean exact edge over every coup and the mean simulated result of the same bets estimate the
    # same number; with fixed seeds they must agree within 4 standard errors (a false alarm once in
    # about 16,000 runs per bet if the kernel is right).
    bets = bets_from_names("dragon7,panda8,big_tiger,either_pair,perfect_pairs")
    r = count_study(CountConfig.punto(Shoe.decks(8), bets), shoes=1500, seed=2026)
    for b in r.bets:
        assert abs(b.agreement()) < 4, (b.name, b.mean_edge, b.mean_result)
        assert b.perfect.frequency.value == pytest.approx(b.positive.value)
        assert b.perfect.win_per_shoe.value >= 0
        assert b.lowest <= b.quantiles[0][1] + 0.001 and b.quantiles[-1][1] <= b.highest + 0.001
    assert r.evaluations == 5 * r.n_coups


def test_count_bets_only_past_the_threshold() -> None:
    tags = "0,0,-1,-1,-1,-2,1,2,2,0"
    bets = bets_from_names("big_tiger")
    never = count_study(CountConfig.punto(Shoe.decks(8), bets, [LinearCount.parse(tags, 1000)]), shoes=50, seed=1, workers=1)
    always = count_study(CountConfig.punto(Shoe.decks(8), bets, [LinearCount.parse(tags, -1000)]), shoes=50, seed=1, workers=1)
    assert never.bet("big_tiger").count.frequency.value == 0  # type: ignore[union-attr]
    assert always.bet("big_tiger").count.frequency.value == 1  # type: ignore[union-attr]
    assert always.bet("big_tiger").count.average_edge.value == pytest.approx(always.bet("big_tiger").mean_edge.value)  # type: ignore[union-attr]


def test_bad_studies_are_refused() -> None:
    with pytest.raises(InputError, match="10 tags"):
        LinearCount.parse("1,2,3", 8)
    with pytest.raises(ModelError, match="cut card"):
        CountConfig.punto(Shoe.decks(8), bets_from_names("dragon7"), cut=3)
    with pytest.raises(ModelError, match="suits"):
        CountConfig.punto(Shoe.decks(8).remove(["K"]), bets_from_names("perfect_pairs"))
    with pytest.raises(ModelError, match="finite"):
        CountConfig.punto(Shoe.infinite(), bets_from_names("dragon7"))


def test_a_counting_study_deals_the_simulators_cards() -> None:
    """One shuffle for every kernel: for one generator the counting kernel deals the simulator's shoes
    (the same coups, the generator left in the same state); until 0.4.0 it drew floor(u m) per card."""
    from solver.simulate import SimConfig
    from solver.simulate.run import deal as simulate_deal

    for table in ({}, {"burn": Burn("fixed", 3), "cut": 16, "extra_coup": True}):
        study = CountConfig.punto(Shoe.decks(2), bets_from_names("dragon7"), **table)  # type: ignore[arg-type]
        sim, counted = np.random.default_rng(8), np.random.default_rng(8)
        dealt = simulate_deal(SimConfig.punto(Shoe.decks(2), **table), 40, sim)  # type: ignore[arg-type]
        assert deal(study, 40, counted).n_coups == dealt.n_coups
        assert sim.bit_generator.state == counted.bit_generator.state
