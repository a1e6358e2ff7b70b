"""The disk cache of deal trees and compiled bet sets: read back equal, rebuilt when damaged, bounded, off."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solver.cards import Shoe
from solver.deal.tree import build_deal_tree
from solver.punto import bets_from_names, compile_bets
from solver.punto.compiled import forget_compiled_bets
from solver.rules.tableau import PUNTO_BANCO
from solver.store import cache


@pytest.fixture(autouse=True)
def _fresh_notes(monkeypatch) -> None:
    """Each test sees its own rebuilds said (the cache says each once a process)."""
    monkeypatch.setattr(cache, "_reported", set())


def test_entries_read_back_equal_and_damaged_ones_are_rebuilt(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    arrays = {"a": np.arange(5), "b": np.ones((2, 3), dtype=np.int64)}
    cache.save_arrays("thing", "k1", arrays)
    back = cache.load_arrays("thing", "k1")
    assert back is not None and all(np.array_equal(back[k], v) for k, v in arrays.items())
    plain = cache.load_plain("thing", "k1")
    assert plain == {"a": ([0, 1, 2, 3, 4], (5,)), "b": ([1] * 6, (2, 3))}
    entry = tmp_path / f"thing-k1{cache.SUFFIX}"
    whole = entry.read_bytes()
    flipped = bytearray(whole)
    flipped[-3] ^= 1  # one bit of the data: the header still reads
    for damaged in (whole[:-8], whole + b"\0" * 8, whole.replace(b"<i8", b"<q8", 1), b"not an entry", bytes(flipped)):
        entry.write_bytes(damaged)
        assert cache.load_arrays("thing", "k1") is None and cache.load_plain("thing", "k1") is None
    assert cache.load_arrays("thing", "absent") is None


def _entry_with_checksum(head: bytes, data: bytes) -> bytes:
    """An entry whose checksum is right for a header and data someone wrote by hand."""
    import zlib

    return cache.MAGIC + b"%08x\n" % zlib.crc32(head + b"\n" + data) + head + b"\n" + data


HEADER_EDITS = [
    (b"<i8", b">i8"),
    (b"<i8", b",i8"),
    (b"<i8", b"<m8"),
    (b"<i8", b"|O8"),
    (b"[5]", b"[50000000000000]"),
    (b"[5]", b"[-5]"),
]


@pytest.mark.parametrize(("old", "new"), HEADER_EDITS, ids=[f"{a.decode()}->{b.decode()}" for a, b in HEADER_EDITS])
def test_the_checksum_covers_the_header_and_a_header_is_read_only_as_written(old, new, tmp_path, monkeypatch, capsys) -> None:
    """Issue 29: the CRC covered the data only; an entry whose header's dtype or shape was edited gave
    IndexError, SyntaxError or MemoryError tracebacks, or could be read as other numbers. An edited
    header now fails the checksum; and one given a checksum that matches (written by hand) is refused
    all the same, because no table of contents but save_arrays's is read."""
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    cache.save_arrays("thing", "k", {"a": np.arange(5), "b": np.ones((2, 3), dtype=np.int64)})
    entry = tmp_path / f"thing-k{cache.SUFFIX}"
    whole = entry.read_bytes()
    assert old in whole
    entry.write_bytes(whole.replace(old, new, 1))
    assert cache.load_arrays("thing", "k") is None and cache.load_plain("thing", "k") is None
    assert "fails its checksum; rebuilding it" in capsys.readouterr().err
    at = len(cache.MAGIC) + 9
    head, _, data = whole[at:].partition(b"\n")
    entry.write_bytes(_entry_with_checksum(head.replace(old, new, 1), data))
    assert cache.load_arrays("thing", "k") is None and cache.load_plain("thing", "k") is None
    cache.save_arrays("thing", "k", {"a": np.arange(5), "b": np.ones((2, 3), dtype=np.int64)})  # the rebuild
    back = cache.load_arrays("thing", "k")
    assert back is not None and back["a"].tolist() == [0, 1, 2, 3, 4]


def test_a_rebuild_is_said_once(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    entry = tmp_path / f"thing-once{cache.SUFFIX}"
    entry.write_bytes(b"garbage")
    for _ in range(3):
        assert cache.load_arrays("thing", "once") is None
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"baccarat: note: the cache entry {entry} is not an entry"), err


def test_entries_that_are_not_regular_files_are_ignored_at_once(tmp_path, monkeypatch) -> None:
    """Issue 29: an entry that was a FIFO hung punto; one that was a symbolic link to /dev/zero
    exhausted the memory. Neither is opened for reading now; the rebuild replaces them."""
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    fifo = tmp_path / f"thing-fifo{cache.SUFFIX}"
    os.mkfifo(fifo)
    zero = tmp_path / f"thing-zero{cache.SUFFIX}"
    zero.symlink_to("/dev/zero")
    (tmp_path / f"thing-dir{cache.SUFFIX}").mkdir()
    for key in ("fifo", "zero", "dir"):
        assert cache.load_arrays("thing", key) is None and cache.load_plain("thing", key) is None
    for key in ("fifo", "zero"):
        cache.save_arrays("thing", key, {"a": np.arange(3)})
        back = cache.load_plain("thing", key)
        assert back == {"a": ([0, 1, 2], (3,))}
    assert os.path.exists("/dev/zero") and not zero.is_symlink()


TAMPERS = {
    "dtype big-endian": lambda b: b.replace(b"<i8", b">i8", 1),
    "dtype garbage": lambda b: b.replace(b"<i8", b",i8", 1),
    "dtype timedelta": lambda b: b.replace(b"<i8", b"<m8", 1),
    "truncated": lambda b: b[: len(b) // 2],
    "emptied": lambda b: b"",
}


def _tamper_rounds(kinds: list[str], entries: int, every: bool) -> list[list[str]]:
    """The tamper each entry gets, round by round: every kind on every entry (``every``), or the kinds
    spread over the entries so that each kind is used at least once in few rounds."""
    if every:
        return [[k] * entries for k in kinds]
    rounds = -(-len(kinds) // entries)
    return [[kinds[(r * entries + i) % len(kinds)] for i in range(entries)] for r in range(rounds)]


CACHE_COMMANDS = [
    pytest.param(["punto", "--decks", "6", "--bets", "dragon7,panda8"], False, id="punto"),
    pytest.param(["chemin", "--decks", "1"], False, id="chemin", marks=pytest.mark.slow),
    pytest.param(["punto", "--decks", "6", "--bets", "dragon7,panda8"], True, id="punto-every", marks=pytest.mark.slow),
    pytest.param(["chemin", "--decks", "1"], True, id="chemin-every", marks=pytest.mark.slow),
    pytest.param(["eor", "--decks", "8", "--bets", "dragon7"], True, id="eor-every", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("command", "every"), CACHE_COMMANDS)
def test_commands_rebuild_a_tampered_cache_and_print_the_same_numbers(command, every, tmp_path) -> None:
    """Every entry of the cache edited (a header's dtype, truncated, emptied), made a FIFO or a link to
    /dev/zero: the command prints the same numbers, a note on stderr per entry rebuilt, no traceback,
    no hang. (With ``-m slow``: every kind on every entry, for more commands.)"""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root), cache.ENV: str(tmp_path)}

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "solver.cli", *command], capture_output=True, text=True, env=env, timeout=300, check=False
        )

    clean = run()
    assert clean.returncode == 0 and clean.stderr == "", clean.stderr
    entries = sorted(tmp_path.glob(f"*{cache.SUFFIX}"))
    assert entries
    for kinds in _tamper_rounds([*TAMPERS, "fifo", "zero"], len(entries), every):
        for kind, entry in zip(kinds, entries):
            whole = entry.read_bytes()
            entry.unlink()
            if kind == "fifo":
                os.mkfifo(entry)
            elif kind == "zero":
                entry.symlink_to("/dev/zero")
            else:
                entry.write_bytes(TAMPERS[kind](whole))
        again = run()
        assert again.returncode == 0 and again.stdout == clean.stdout, (kinds, again.stderr)
        notes = again.stderr.splitlines()
        assert len(notes) == len(entries) and all(n.startswith("baccarat: note: the cache entry ") for n in notes), (kinds, notes)
    assert run().stderr == ""  # rebuilt: read as they are


def test_mixed_types_read_back_and_plain_reads_only_integers(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    arrays = {"flag": np.array([True, False]), "x": np.linspace(0, 1, 3), "n": np.arange(4, dtype=np.int8)[::2]}
    cache.save_arrays("mixed", "k", arrays)
    back = cache.load_arrays("mixed", "k")
    assert back is not None and all(np.array_equal(back[k], v) and back[k].dtype == v.dtype for k, v in arrays.items())
    assert cache.load_plain("mixed", "k") is None


def test_entries_are_bounded(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    (tmp_path / "set-old.npz").write_bytes(b"an entry of the first format")
    (tmp_path / "other-old.npz").write_bytes(b"another name's")
    for i in range(6):
        cache.save_arrays("set", f"k{i}", {"a": np.arange(i)}, keep=3)
    assert len(list(tmp_path.glob(f"set-*{cache.SUFFIX}"))) == 3
    assert not (tmp_path / "set-old.npz").exists() and (tmp_path / "other-old.npz").exists()
    assert cache.load_arrays("set", "k5") is not None


def test_the_whole_cache_is_bounded_and_the_least_recently_used_go_first(tmp_path, monkeypatch) -> None:
    """Past MAX_BYTES a write removes the entries least recently used, a read counting as a use; the entry
    just written and a write in progress (a dot file) stay."""
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    for i in range(4):
        cache.save_arrays("tree", f"k{i}", {"a": np.arange(1000)})
        os.utime(tmp_path / f"tree-k{i}{cache.SUFFIX}", (1000.0 + i, 1000.0 + i))  # k0 oldest
    size = (tmp_path / f"tree-k0{cache.SUFFIX}").stat().st_size
    (tmp_path / f".tree-partial{cache.SUFFIX}").write_bytes(b"x" * size)
    os.utime(tmp_path / f".tree-partial{cache.SUFFIX}", (1.0, 1.0))
    assert cache.load_arrays("tree", "k0") is not None  # read now: the most recently used
    monkeypatch.setattr(cache, "MAX_BYTES", 4 * size + size // 2)  # six entries of one size (the dot file counts)
    cache.save_arrays("other", "new", {"a": np.arange(1000)})
    left = sorted(p.name for p in tmp_path.glob(f"*{cache.SUFFIX}"))
    assert left == [
        f".tree-partial{cache.SUFFIX}",
        f"other-new{cache.SUFFIX}",
        f"tree-k0{cache.SUFFIX}",
        f"tree-k3{cache.SUFFIX}",
    ], left
    monkeypatch.setattr(cache, "MAX_BYTES", 0)
    cache.save_arrays("other", "newer", {"a": np.arange(10)})
    assert cache.load_arrays("other", "newer") is not None  # the one just written stays, however small the bound


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
    from solver.deal.tree import deal_tree

    tree = deal_tree(PUNTO_BANCO)  # in memory (from disk or built)
    fresh = build_deal_tree(PUNTO_BANCO)
    for name in ("cards", "p_total", "b_total", "multiset", "multisets", "natural"):
        assert np.array_equal(getattr(tree, name), getattr(fresh, name))


def test_chemin_grouping_from_disk_equals_a_fresh_one(tmp_path, monkeypatch) -> None:
    from solver.chemin.paths import structure
    from solver.rules.tableau import CHEMIN_PARLOR

    monkeypatch.setenv(cache.ENV, str(tmp_path))
    structure.cache_clear()
    fresh = structure(CHEMIN_PARLOR, 2)  # built and written
    assert len(list(tmp_path.glob(f"chemin-*{cache.SUFFIX}"))) == 1
    structure.cache_clear()
    again = structure(CHEMIN_PARLOR, 2)  # read back
    assert again is not fresh and again.banker_sets == fresh.banker_sets
    for name in ("keys", "starts", "multiset", "count"):
        assert np.array_equal(getattr(fresh.grouping, name), getattr(again.grouping, name))
    assert np.array_equal(fresh.banker_index, again.banker_index)
    structure.cache_clear()


def test_a_kernel_compiled_before_a_change_of_the_code_is_compiled_afresh(tmp_path, monkeypatch) -> None:
    """numba checks a cached kernel against its own file only; solver.store.jitcache drops it when the
    package's code (any module, e.g. one it calls) changed."""
    from solver.store import jitcache

    source = tmp_path / "dealer.py"
    source.write_text("def deal(): ...\n")
    folder = tmp_path / "__pycache__"
    folder.mkdir()
    entries = [folder / "dealer.deal-51.py311.nbi", folder / "dealer.deal-51.py311.1.nbc"]
    other = folder / "dealer.other-9.py311.nbi"

    def compile_() -> None:  # what numba writes when it compiles
        for p in (*entries, other):
            p.write_bytes(b"machine code")

    monkeypatch.setattr(jitcache, "code_digest", lambda: "code as it was")
    compile_()
    assert jitcache.drop_stale(source, "deal")  # no record of the code yet: dropped
    assert not any(p.exists() for p in entries) and other.exists()
    compile_()
    assert not jitcache.drop_stale(source, "deal")  # nothing changed: kept
    assert all(p.exists() for p in entries)
    monkeypatch.setattr(jitcache, "code_digest", lambda: "code changed elsewhere")
    assert jitcache.drop_stale(source, "deal") and not any(p.exists() for p in entries)
    compile_()
    assert not jitcache.drop_stale(source, "deal") and all(p.exists() for p in entries)


def test_a_kernel_is_cached_when_this_code_compiled_it(tmp_path, monkeypatch) -> None:
    """``punto --shoes`` takes its kernels only where loading them is cheap (solver.store.jitcache.is_cached):
    an index written by numba for this Python, stamped with this code's digest."""
    from solver.store import jitcache

    source = tmp_path / "batch.py"
    source.write_text("def price(): ...\n")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(jitcache, "code_digest", lambda: "this code")
    assert not jitcache.is_cached(source, "price")  # nothing on disk
    jitcache.drop_stale(source, "price")  # before compiling: the stamp
    assert not jitcache.is_cached(source, "price")  # stamped, not compiled
    (tmp_path / "__pycache__" / "batch.price-247.py27.nbi").write_bytes(b"index")
    assert not jitcache.is_cached(source, "price")  # another Python's entries: this one would compile
    this = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    (tmp_path / "__pycache__" / f"batch.price-247.{this}.nbi").write_bytes(b"index")
    assert jitcache.is_cached(source, "price") and not jitcache.is_cached(source, "other")
    monkeypatch.setattr(jitcache, "code_digest", lambda: "code changed elsewhere")
    assert not jitcache.is_cached(source, "price")  # compiled by other code: drop_stale will drop it
    monkeypatch.setattr(jitcache, "code_digest", lambda: "this code")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert not jitcache.is_cached(source, "price")  # kept elsewhere: cannot tell


def test_a_kernel_numba_cached_is_cached(tmp_path, monkeypatch) -> None:
    """is_cached reads the index names numba really writes (one per Python version): a kernel compiled
    with ``cache=True`` in a fresh module is cached afterwards, not before."""
    from solver.store import jitcache

    (tmp_path / "kern.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    jitcache.drop_stale(tmp_path / "kern.py", "twice")  # the stamp, as the package's kernels do
    assert not jitcache.is_cached(tmp_path / "kern.py", "twice")
    import importlib

    sys.modules.pop("kern", None)
    assert importlib.import_module("kern").twice(21) == 42
    assert jitcache.is_cached(tmp_path / "kern.py", "twice"), sorted(p.name for p in (tmp_path / "__pycache__").iterdir())


def test_the_code_digest_covers_every_source_file_of_the_package(tmp_path) -> None:
    """One digest keys every cache entry and kernel (docs/design.md, "Invariants"): a change to any module,
    however deep, or to the C kernel changes it; compiled files beside the sources do not."""
    from solver.store.digest import PACKAGE, code_digest, digest_of

    assert code_digest() == digest_of(PACKAGE)
    (tmp_path / "deal").mkdir()
    (tmp_path / "strategy" / "__pycache__").mkdir(parents=True)
    (tmp_path / "deal" / "tree.py").write_text("A = 1\n")
    (tmp_path / "strategy" / "infoset.py").write_text("COMPOSITIONS = (1, 2)\n")
    (tmp_path / "kernel.c").write_text("int x;\n")
    before = digest_of(str(tmp_path))
    (tmp_path / "strategy" / "__pycache__" / "infoset.cpython-311.pyc").write_bytes(b"compiled")
    assert digest_of(str(tmp_path)) == before
    for path, text in (("strategy/infoset.py", "COMPOSITIONS = (2, 1)\n"), ("kernel.c", "int y;\n")):
        (tmp_path / path).write_text(text)
        assert digest_of(str(tmp_path)) != before
        before = digest_of(str(tmp_path))
