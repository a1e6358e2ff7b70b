"""The simulator: the compiled kernel against its own plain-Python source, the customs of the table,
reproducibility on any executor, and the honesty of the standard errors."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from solver.cards import Shoe
from solver.errors import InputError, ModelError
from solver.rules.tableau import CHEMIN_CASINO, PUNTO_BANCO, Action
from solver.simulate import (
    KEMENY_SNELL,
    PUNTO_STRATEGY,
    Burn,
    SimConfig,
    parse_burn,
    simulate,
    strategy_from_cells,
)
from solver.simulate import run as run_module
from solver.simulate.engines import ENGINES
from solver.simulate.run import Tallies, deal
from solver.strategy import InfoSet, Side, Strategy

EIGHT = Shoe.decks(8)


def _same(a, b) -> bool:  # type: ignore[no-untyped-def]
    return (a.n_shoes, a.n_coups) == (b.n_shoes, b.n_coups) and all(
        np.array_equal(getattr(a, k), getattr(b, k)) for k in Tallies.ARRAYS
    )


@pytest.mark.parametrize(
    "config",
    [
        SimConfig.punto(EIGHT),
        SimConfig.punto(Shoe.decks(1), burn=Burn("fixed", 3), cut=16, extra_coup=True),
        SimConfig.chemin(Shoe.decks(6)),
        SimConfig.chemin(Shoe.decks(2), strategy_from_cells(CHEMIN_CASINO, ["P5=1/2", "B3/9=2/3", "B5/4=1/5"])),
        SimConfig.punto(EIGHT, first_coup_only=True),
        SimConfig.punto(Shoe.from_values((5, 1, 1, 1, 1, 1, 1, 1, 1, 4)), cut=14, first_coup_only=True),
        SimConfig.punto(Shoe.from_values((16, 4, 4, 4, 4, 4, 4, 4, 4, 4)), burn=Burn("none"), cut=6),
        SimConfig.punto(EIGHT, shoe_tallies=True),
        SimConfig.chemin(
            Shoe.decks(2), strategy_from_cells(CHEMIN_CASINO, ["P5=1/2", "B3/9=2/3", "B5/4=1/5"]), shoe_tallies=True
        ),
        SimConfig.punto(Shoe.from_values((16, 4, 4, 4, 4, 4, 4, 4, 4, 4)), burn=Burn("none"), cut=6, shoe_tallies=True),
    ],
    ids=[
        "punto",
        "fixed-burn-extra-coup",
        "chemin",
        "chemin-mixed-everywhere",
        "first-coup",
        "first-coup-of-17-cards",
        "by-value",
        "punto-shoe-tallies",
        "chemin-mixed-shoe-tallies",
        "by-value-shoe-tallies",
    ],
)
def test_compiled_kernels_equal_their_python_source(config: SimConfig) -> None:
    """Same seed, same random numbers in the same order: identical tallies from the C kernel, numba's
    and plain Python, and the generator left in the same state."""
    rngs = {e: np.random.default_rng(11) for e in ENGINES}
    runs = {e: deal(config, 40, rngs[e], engine=e) for e in ENGINES}
    assert _same(runs["c"], runs["python"]) and _same(runs["numba"], runs["python"])
    assert rngs["c"].bit_generator.state == rngs["python"].bit_generator.state == rngs["numba"].bit_generator.state
    assert runs["c"].n_coups > 40 or config.first_coup_only


def _coups_in_one_shoe(config: SimConfig) -> int:
    t = deal(config, 1, np.random.default_rng(0))
    return t.n_coups


def test_cut_card_and_burn_customs_on_a_shoe_of_naturals() -> None:
    """52 nines: every coup is a natural of four cards, so the count of coups is known exactly.

    Cut at 14 (38 cards before it): coups end at 4, 8, ..., 40; the cut card appears in the tenth
    coup (cards 37-40), which is finished: 10 coups; one more with the extra coup. Burning 3: coups
    end at 7, ..., 39: 9 coups. Turning a nine burns nine more (10 cards): coups end at 14, ..., 42,
    and the coup ending at 38 does not reach the cut card: 8 coups.
    """
    nines = Shoe.from_values((0,) * 9 + (52,))
    base = dict(game="punto", shoe=nines, strategy=PUNTO_STRATEGY, cut=14)
    assert _coups_in_one_shoe(SimConfig(**base, burn=Burn("none"))) == 10  # type: ignore[arg-type]
    assert _coups_in_one_shoe(SimConfig(**base, burn=Burn("none"), extra_coup=True)) == 11  # type: ignore[arg-type]
    assert _coups_in_one_shoe(SimConfig(**base, burn=Burn("fixed", 3))) == 9  # type: ignore[arg-type]
    assert _coups_in_one_shoe(SimConfig(**base, burn=Burn("turn"))) == 8  # type: ignore[arg-type]
    assert _coups_in_one_shoe(SimConfig(**base, burn=Burn("none"), first_coup_only=True)) == 1  # type: ignore[arg-type]


def test_same_seed_same_result_whatever_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_module, "CHUNK_COUPS", 20_000)  # many chunks from a small run
    config = SimConfig.chemin(Shoe.decks(6))
    one = simulate(config, shoes=1500, seed=5, workers=1)
    two = simulate(config, shoes=1500, seed=5, workers=2)
    assert run_module.chunk_count(config, 1500) > 4
    assert (one.workers, two.workers) == ("1", "2")  # two processes really dealt
    assert _same(one.tallies, two.tallies)
    other = simulate(config, shoes=1500, seed=6, workers=2)
    assert not _same(one.tallies, other.tallies)


def test_a_run_of_a_few_chunks_deals_in_this_process() -> None:
    """One process per MIN_CHUNKS_PER_PROCESS chunks at most: starting a worker costs more than a chunk."""
    config = SimConfig.punto(EIGHT)
    per_chunk = run_module.chunk_size(config)
    assert run_module.workers_used(config, 3 * per_chunk, 2) == 1
    assert run_module.workers_used(config, 4 * per_chunk, 2) == 2
    cap = run_module.max_workers()
    assert run_module.workers_used(config, 400 * per_chunk, min(8, cap)) == min(8, cap)
    assert run_module.workers_used(config, 10**6 * per_chunk, 100_000) == cap  # a sane multiple of the cores
    assert run_module.workers_used(config, 400 * per_chunk, 1) == 1
    with pytest.raises(InputError):
        run_module.workers_used(config, 10, 0)


def test_chunks_and_seeds_are_lazy_and_the_same_as_spawned() -> None:
    config = SimConfig.punto(EIGHT)
    sizes = run_module.chunk_sizes(config, 10**15)  # a generator: nothing is built up front
    assert next(sizes) == run_module.chunk_size(config)
    assert run_module.chunk_count(config, 10**15) == -(-(10**15) // run_module.chunk_size(config))
    lazy = run_module.chunk_seeds(7)
    for child in np.random.SeedSequence(7).spawn(5):
        mine = next(lazy)
        assert mine.spawn_key == child.spawn_key and (mine.generate_state(4) == child.generate_state(4)).all()


def test_same_result_on_a_dask_cluster(monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    monkeypatch.setattr(run_module, "CHUNK_COUPS", 20_000)
    config = SimConfig.punto(EIGHT)
    local = simulate(config, shoes=600, seed=3, workers=1)
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster:
        remote = simulate(config, shoes=600, seed=3, scheduler=cluster.scheduler_address)
    assert _same(local.tallies, remote.tallies)


def test_first_coup_counts_and_positions_add_up() -> None:
    r = simulate(SimConfig.punto(EIGHT), shoes=3000, seed=2, workers=1)
    t = r.tallies
    assert t.pos_counts[0].sum() == t.first_detail.sum() == t.burn_winner.sum() == r.n_shoes
    assert t.first_cards.sum() == 4 * r.n_shoes
    assert t.pos_counts.sum() == r.n_coups == t.moments[0, 4]
    assert t.burn_winner[10].sum() == 0  # every shoe turned a card
    first = r.first_coup()
    assert sum(first[f"outcome:{k}"].value for k in ("banker", "player", "tie")) == pytest.approx(1.0)


def test_standard_errors_match_the_spread_between_seeds() -> None:
    """The delta-method SE of the whole-shoe average and of the paired cut-card effect agree with the
    spread of 40 independent runs (the ratio of spread to SE lies in [0.6, 1.5]; at 39 degrees of
    freedom a correct SE leaves that range with probability below 1e-4, and the seeds are fixed)."""
    config = SimConfig.chemin(Shoe.decks(1), burn=Burn("none"), cut=7)
    whole, eff, se_w, se_e = [], [], [], []
    for seed in range(40):
        r = simulate(config, shoes=2000, seed=seed, workers=1)
        w, e = r.whole_shoe()["outcome:banker"], r.cut_card_effect()["outcome:banker"]
        whole.append(w.value)
        eff.append(e.value)
        se_w.append(w.se)
        se_e.append(e.se)
    assert 0.6 < np.std(whole, ddof=1) / np.mean(se_w) < 1.5
    assert 0.6 < np.std(eff, ddof=1) / np.mean(se_e) < 1.5


def test_draw_tables_of_tableau_strategies() -> None:
    p, b = Strategy(PUNTO_BANCO).tables()
    assert p.shape == (10, 10) and b.shape == (10, 10, 11)
    assert p[3, 2] == 1 and p[3, 3] == 0 and p[4, 4] == 0  # 5 draws, 6 stands, 8 (a natural) never asks
    assert b[0, 3, 8] == 0 and b[0, 3, 9] == 1 and b[2, 2, 10] == 1 and b[3, 3, 6] == 1 and b[3, 3, 8] == 0
    with pytest.raises(ModelError, match="leaves P5, B3/9, B5/4 free"):
        Strategy(CHEMIN_CASINO).tables()
    s = Strategy(
        CHEMIN_CASINO,
        {
            InfoSet(Side.PONTE, 5): Fraction(9, 11),
            InfoSet(Side.BANKER, 3, seen=(9,)): Action.DRAW,
            InfoSet(Side.BANKER, 5, seen=(4,)): Action.STAND,
        },
    )  # type: ignore[dict-item]
    p, b = s.tables()
    assert p[2, 3] == Fraction(9, 11) and b[1, 2, 9] == 1 and b[1, 4, 4] == 0
    fp, _ = s.float_tables()
    assert fp[2, 3] == pytest.approx(9 / 11)
    with pytest.raises(TypeError):
        Strategy(CHEMIN_CASINO, {InfoSet(Side.PONTE, 5): 0.5})  # type: ignore[dict-item]


def test_strategies_and_customs_are_validated() -> None:
    with pytest.raises(ModelError, match="finite"):
        SimConfig.punto(Shoe.infinite())
    with pytest.raises(ModelError, match="at least 6"):
        SimConfig.punto(EIGHT, cut=5)
    with pytest.raises(ModelError, match="at least 12"):
        SimConfig.punto(EIGHT, cut=10, extra_coup=True)
    with pytest.raises(ModelError, match="--burn"):
        parse_burn("some")
    with pytest.raises(ModelError, match="shape"):
        Strategy.from_tables(np.zeros((10, 9), dtype=int), np.zeros((10, 10, 11), dtype=int))
    with pytest.raises(ModelError, match=r"\[0, 1\]"):
        Strategy.from_tables(np.full((10, 10), 2), np.zeros((10, 10, 11), dtype=int))
    with pytest.raises(ModelError, match="floats"):
        Strategy.from_tables(np.full((10, 10), 0.5), np.zeros((10, 10, 11)))
    assert KEMENY_SNELL.is_mixed() and KEMENY_SNELL.mixed() == ((InfoSet(Side.PONTE, 5), Fraction(9, 11)),)


def test_mixed_cell_is_drawn_with_its_probability() -> None:
    """Ponte drawing at 5 with probability 1/2 against pure strategies: the detail law moves halfway."""
    half = strategy_from_cells(CHEMIN_CASINO, ["P5=1/2", "B3/9=D", "B5/4=S"])
    r = simulate(SimConfig.chemin(EIGHT, half, first_coup_only=True), shoes=400_000, seed=9, workers=1)
    # the ponte's two-card 5 with no natural stands: player total 5 with no third card, no natural
    stood5 = sum(int(r.tallies.first_detail[5 * 80 + b * 8 + 0 * 4 + d * 2]) for b in range(10) for d in (0, 1))
    from solver.crosscheck import exact_law

    stands = exact_law("chemin", EIGHT, strategy_from_cells(CHEMIN_CASINO, ["P5=S", "B3/9=D", "B5/4=S"]))
    p_stand5 = sum(float(q) for k, q in (stands.detail or {}).items() if k // 80 == 5 and k % 8 // 4 == 0 and k % 2 == 0)
    expected = 0.5 * p_stand5 * r.n_shoes
    assert abs(stood5 - expected) < 5 * np.sqrt(expected)


class Recording:
    """A generator that records every draw the kernel asks for: ``("pick", m)`` or ``("uniform",)``."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.draws: list[tuple[str, ...] | tuple[str, int]] = []

    def integers(self, low: int, high: int) -> int:
        self.draws.append(("pick", high))
        return int(self.rng.integers(low, high))

    def random(self) -> float:
        self.draws.append(("uniform",))
        return float(self.rng.random())


def test_a_first_coup_that_starts_behind_the_cut_card_is_dealt_from_shuffled_cards() -> None:
    """17 ten-valued cards, the turned burn: the ten burns 10 more, so the first coup starts at card 12,
    behind the cut card (14 from the end) and needs the shoe's last six cards. Version 0.3.0 shuffled
    only up to 12 cards past the cut card: 15 positions, and the coup's last two cards came unshuffled."""
    tens = Shoe.from_values((17,) + (0,) * 9)
    rng = Recording(1)
    deal(SimConfig.punto(tens, first_coup_only=True), 1, rng, engine="python")  # type: ignore[arg-type]
    assert rng.draws == [("pick", 17 - t) for t in range(17)]  # every position, in order


def test_every_position_the_coups_can_reach_is_shuffled_once_in_order() -> None:
    config = SimConfig.punto(Shoe.decks(1))  # 52 cards, cut 14: the coups reach at most 12 past the cut card
    rng = Recording(2)
    deal(config, 1, rng, engine="python")  # type: ignore[arg-type]
    assert rng.draws == [("pick", 52 - t) for t in range(len(rng.draws))]  # punto banco draws no uniform
    assert len(rng.draws) == 52 - 14 + 12
