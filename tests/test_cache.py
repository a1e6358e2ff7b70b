"""The disk cache of deal trees and compiled bet sets: read back equal, rebuilt when damaged, bounded, off."""

from __future__ import annotations

import numpy as np

from solver import cache
from solver.bets import bets_from_names, compile_bets
from solver.bets.compiled import forget_compiled_bets
from solver.cards import Shoe
from solver.deal import build_deal_tree
from solver.rules import PUNTO_BANCO


def test_entries_read_back_equal_and_damaged_ones_are_rebuilt(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    arrays = {"a": np.arange(5), "b": np.ones((2, 3), dtype=np.int64)}
    cache.save_arrays("thing", "k1", arrays)
    back = cache.load_arrays("thing", "k1")
    assert back is not None and all(np.array_equal(back[k], v) for k, v in arrays.items())
    (tmp_path / "thing-k1.npz").write_bytes(b"not a zip file")
    assert cache.load_arrays("thing", "k1") is None
    assert cache.load_arrays("thing", "absent") is None


def test_entries_are_bounded(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    for i in range(6):
        cache.save_arrays("set", f"k{i}", {"a": np.arange(i)}, keep=3)
    assert len(list(tmp_path.glob("set-*.npz"))) == 3
    assert cache.load_arrays("set", "k5") is not None


def test_off_writes_nothing(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV, "off")
    assert cache.cache_dir() is None
    cache.save_arrays("thing", "k", {"a": np.arange(3)})
    assert cache.load_arrays("thing", "k") is None


def test_compiled_bets_from_disk_equal_a_fresh_compile(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    bets = bets_from_names("dragon7,lucky6,dragon_bonus_banker")
    forget_compiled_bets()
    fresh = compile_bets(bets)
    forget_compiled_bets()
    again = compile_bets(bets)  # read from the disk cache
    assert again is not fresh
    assert np.array_equal(fresh.tiers, again.tiers) and np.array_equal(fresh.grouping.count, again.grouping.count)
    shoe = Shoe.decks(6).remove(["7", "7", "K"])
    assert fresh.tier_weights(shoe) == again.tier_weights(shoe)


def test_cached_tree_equals_a_fresh_build(tmp_path, monkeypatch) -> None:
    from solver.deal import deal_tree

    tree = deal_tree(PUNTO_BANCO)  # in memory (from disk or built)
    fresh = build_deal_tree(PUNTO_BANCO)
    for name in ("cards", "p_total", "b_total", "multiset", "multisets", "natural"):
        assert np.array_equal(getattr(tree, name), getattr(fresh, name))


def test_chemin_grouping_from_disk_equals_a_fresh_one(tmp_path, monkeypatch) -> None:
    from solver.game_paths import structure
    from solver.rules import CHEMIN_PARLOR

    monkeypatch.setenv(cache.ENV, str(tmp_path))
    structure.cache_clear()
    fresh = structure(CHEMIN_PARLOR, 2)  # built and written
    assert len(list(tmp_path.glob("chemin-*.npz"))) == 1
    structure.cache_clear()
    again = structure(CHEMIN_PARLOR, 2)  # read back
    assert again is not fresh and again.banker_sets == fresh.banker_sets
    for name in ("keys", "starts", "multiset", "count"):
        assert np.array_equal(getattr(fresh.grouping, name), getattr(again.grouping, name))
    assert np.array_equal(fresh.banker_index, again.banker_index)
    structure.cache_clear()
