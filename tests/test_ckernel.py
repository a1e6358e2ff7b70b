"""The C dealing kernel (solver/simulate/ckernel.c): the same tallies and the same generator state as
the plain-Python kernel for every numpy bit generator, its card picks against numpy's integers (Lemire's
method), its guards against bad input, and the simulate command without numba."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from solver.cards import Shoe
from solver.deal.tree import N_DETAIL
from solver.simulate import SimConfig, engines, kernel
from solver.simulate.run import Tallies, deal

ckernel = pytest.importorskip("solver.simulate.ckernel", reason="the C kernel is built by pip install -e .")

TALLIES = Tallies.ARRAYS
ROOT = Path(__file__).resolve().parents[1]


def _same(a, b) -> bool:  # type: ignore[no-untyped-def]
    return (a.n_shoes, a.n_coups) == (b.n_shoes, b.n_coups) and all(np.array_equal(getattr(a, k), getattr(b, k)) for k in TALLIES)


@pytest.mark.parametrize(
    "bit_generator", [np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64, np.random.MT19937]
)
@pytest.mark.parametrize("half_kept", [False, True], ids=["even", "half-kept"])
def test_every_bit_generator_gives_the_python_kernels_tallies(bit_generator: type, half_kept: bool) -> None:
    """PCG64 is stepped inline; the others are read through numpy's C interface: both the same stream,
    also when the generator starts with the high half of an output kept for the next 32-bit draw."""
    config = SimConfig.chemin(Shoe.decks(2))
    rng_c, rng_py = np.random.Generator(bit_generator(7)), np.random.Generator(bit_generator(7))
    if half_kept:
        rng_c.integers(0, 5), rng_py.integers(0, 5)
    assert _same(deal(config, 30, rng_c, engine="c"), deal(config, 30, rng_py, engine="python"))
    assert np.array_equal(rng_c.integers(0, 2**62, 8), rng_py.integers(0, 2**62, 8))  # both left in one state


def test_a_shoe_of_more_than_2048_cards() -> None:
    config = SimConfig.punto(Shoe.decks(41))  # 2132 cards
    rng_c, rng_py = np.random.default_rng(3), np.random.default_rng(3)
    assert _same(deal(config, 3, rng_c, engine="c"), deal(config, 3, rng_py, engine="python"))
    assert rng_c.bit_generator.state == rng_py.bit_generator.state


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.Philox])
@pytest.mark.parametrize("m", [1, 2, 3, 416, 2**31 + 1, 3 * 2**30, 2**32 - 1])
def test_card_picks_are_numpys_integers(bit_generator: type, m: int) -> None:
    """The kernel's pick is numpy's rng.integers(0, m): Lemire's method on 32-bit halves. Ranges just
    above 2^31 reject about half the draws, so the rejection loop is exercised too; m = 1 draws nothing."""
    rng_c, rng_np = np.random.Generator(bit_generator(4)), np.random.Generator(bit_generator(4))
    rng_c.integers(0, 7), rng_np.integers(0, 7)  # start with a half kept
    assert ckernel.card_picks(rng_c, m, 1001) == rng_np.integers(0, m, 1001).tolist()
    assert rng_c.integers(0, 2**62, 4).tolist() == rng_np.integers(0, 2**62, 4).tolist()
    with pytest.raises(ValueError):
        ckernel.card_picks(rng_c, 0, 1)


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.Philox])
@pytest.mark.parametrize(
    "n, t, count",
    [(416, 0, 416), (416, 9, 407), (2, 0, 2), (1, 0, 1), (2**32 - 1, 0, 3001), (2**31 + 5, 7, 2001), (3 * 2**30, 1, 999)],
)
@pytest.mark.parametrize("half_kept", [False, True], ids=["even", "half-kept"])
def test_the_shuffle_ahead_picks_are_numpys_integers(bit_generator: type, n: int, t: int, count: int, half_kept: bool) -> None:
    """The shuffle ahead takes two picks from one PCG64 output; where Lemire's method tests for a
    rejection (common for n near 2^31 or 3 x 2^30), or a half is kept, it falls back to the plain pick:
    the picks and the generator's state are numpy's rng.integers(0, n - pos) for each position."""
    rng_c, rng_np = np.random.Generator(bit_generator(3)), np.random.Generator(bit_generator(3))
    if half_kept:
        rng_c.integers(0, 9), rng_np.integers(0, 9)
    assert ckernel.shuffle_picks(rng_c, n, t, count) == [int(rng_np.integers(0, n - p)) for p in range(t, t + count)]
    assert rng_c.integers(0, 2**62, 3).tolist() == rng_np.integers(0, 2**62, 3).tolist()


def _args(config: SimConfig, n_shoes: int = 2, **change: object) -> list[object]:
    """The C kernel's four arguments (table, n_shoes, rng, counts), with fields of either struct changed."""
    table = config.kernel_table()._replace(comp_len=208, next_len=16)
    counts = Tallies.zeros(config.max_coups).counts()
    args: dict[str, object] = {"n_shoes": n_shoes, "rng": np.random.default_rng(1)}
    table = table._replace(**{k: v for k, v in change.items() if k in kernel.Table._fields})
    counts = counts._replace(**{k: v for k, v in change.items() if k in kernel.Counts._fields})
    args.update({k: v for k, v in change.items() if k in args})
    return [table, args["n_shoes"], args["rng"], counts]


@pytest.mark.parametrize(
    "change, error",
    [
        ({"rng": np.random.RandomState(1)}, TypeError),
        ({"rng": 5}, TypeError),
        ({"codes": np.zeros(416, np.int32)}, ValueError),
        ({"codes": np.full(416, 13, np.int64)}, ValueError),
        ({"value_of": np.arange(13, dtype=np.int64) + 1}, ValueError),
        ({"ptab": np.zeros((10, 11))}, ValueError),
        ({"btab": np.zeros((10, 10, 11), np.float32)}, ValueError),
        ({"pos_counts": np.zeros((3, 3), np.int64)}, ValueError),
        ({"moments": np.zeros((8, 8), np.int64)[:, ::2]}, TypeError),
        ({"comp": np.zeros((2, 12), np.int64)}, ValueError),
        ({"next_cc": np.zeros((13, 13), np.float64)}, ValueError),
        ({"comp_len": -1}, ValueError),
        ({"value_of": np.zeros(14, np.int64), "codes": np.zeros(416, np.int64)}, ValueError),
        ({"burn_mode": 3}, ValueError),
        ({"burn_mode": "turn"}, TypeError),
        ({"cut": 500}, ValueError),
        ({"cut": 0, "codes": np.zeros(20, np.int64), "max_coups": 6, "pos_counts": np.zeros((6, 3), np.int64)}, ValueError),
        ({"n_shoes": -1}, ValueError),
    ],
)
def test_bad_input_is_refused_not_dealt(change: dict[str, object], error: type) -> None:
    with pytest.raises(error):
        ckernel.deal_shoes(*_args(SimConfig.punto(Shoe.decks(8)), **change))


def test_a_struct_without_a_field_is_refused() -> None:
    table, n, rng, counts = _args(SimConfig.punto(Shoe.decks(8)))
    with pytest.raises(AttributeError, match="max_coups"):
        ckernel.deal_shoes(tuple(table)[:-1], n, rng, counts)  # a plain tuple has no names
    with pytest.raises(AttributeError, match="pos_counts"):
        ckernel.deal_shoes(table, n, rng, {"pos_counts": counts.pos_counts})


def test_read_only_tallies_are_refused() -> None:
    args = _args(SimConfig.punto(Shoe.decks(8)))
    args[-1].next_cc.setflags(write=False)  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        ckernel.deal_shoes(*args)


def test_constants_agree_with_the_python_kernel() -> None:
    for name in (
        "BURN_NONE",
        "BURN_FIXED",
        "BURN_TURN",
        "N_MOMENTS",
        "STOOD",
        "NO_TURN",
        "N_CODES",
        "N_SHOE_COUNTS",
    ):
        assert getattr(ckernel, name) == getattr(kernel, name)
    assert ckernel.N_DETAIL == N_DETAIL  # the detail code is the enumerator's (solver.deal.tree.detail_key)
    assert [ckernel.BURN_NONE, ckernel.BURN_FIXED, ckernel.BURN_TURN] == [m.code for m in kernel.BurnMode]


def test_the_generator_is_locked_while_dealing_and_released_after() -> None:
    rng = np.random.default_rng(2)
    config = SimConfig.punto(Shoe.decks(8))
    results = []

    def one() -> None:
        results.append(deal(config, 200, rng, engine="c").n_coups)

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    one_after_another = np.random.default_rng(2)
    expected = sorted(deal(config, 200, one_after_another, engine="c").n_coups for _ in range(2))
    assert sorted(results) == expected and rng.bit_generator.state == one_after_another.bit_generator.state
    assert rng.bit_generator.lock.acquire(blocking=False)
    rng.bit_generator.lock.release()


def test_without_the_c_kernel_numba_deals_and_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(engines, "c_kernel", lambda: None)
    monkeypatch.setattr(engines, "_COMPILED", [])
    monkeypatch.setattr(engines, "_NOTED", [])
    assert engines.engine() is engines.compiled()
    err = capsys.readouterr().err
    assert "not built" in err and "pip install -e" in err  # this checkout builds it in place
    assert engines.resolve() == "numba" and engines.engine() is engines.compiled()
    assert capsys.readouterr().err == ""  # said once
    with pytest.raises(ImportError):
        engines.engine("c")
    with pytest.raises(ValueError):
        engines.engine("fortran")


def test_the_advice_fits_how_the_package_was_installed(tmp_path: Path) -> None:
    """A source checkout (editable, or on the path) builds the kernel in place; an installed copy (from a
    wheel: no setup.py beside the package) is reinstalled from source."""
    assert "pip install -e" in engines.build_advice(Path(kernel.__file__).resolve().parents[1])
    installed = tmp_path / "site-packages" / "solver"
    (installed / "simulate").mkdir(parents=True)
    advice = engines.build_advice(installed)
    assert "reinstall from source" in advice and "pip install -e" not in advice


def test_the_fallback_note_is_said_once_however_many_workers() -> None:
    """Issue 24: the note came once per worker process. With two workers (forked here, or from a
    forkserver in a process that runs threads) it comes once."""
    code = (
        "import io, contextlib\n"
        "from solver.simulate import engines\n"
        "engines.c_kernel = lambda: None\n"
        "from solver.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['simulate', '--coups', '3e6', '--workers', '2'])\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert run.stderr.count("not built") == 1, run.stderr


def test_simulate_imports_neither_numba_nor_scipy() -> None:
    code = (
        "import sys, io, contextlib; from solver.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['simulate', '--shoes', '20', '--workers', '1'])\n"
        "print(sorted(m for m in ('numba', 'llvmlite', 'scipy') if m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["[]"]
    assert "not built" not in run.stderr
