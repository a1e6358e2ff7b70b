"""``--workers`` and ``--scheduler`` for the exact sweeps (issue 27): chemin de fer over deck lists and
commission ranges, baccara banque over shoes, θ and concepts; the same results as one process, in
input order; and the run options' errors."""

from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import json_results

from solver.banque.game import BanqueModel
from solver.banque.sweep import solve_concepts
from solver.cards import Shoe


def _json(run) -> list[dict]:  # type: ignore[no-untyped-def]
    """The JSON output as a list of results, without the command line (which names the run options)."""
    assert run.code == 0, run.err
    return json_results(run.out)  # the results, without the command line (which names the run options)


def test_a_chemin_deck_list_on_two_workers_is_the_same_in_order(cli) -> None:  # type: ignore[no-untyped-def]
    args = ["chemin", "--decks", "2,inf,1,2", "--information", "2", "--format", "json"]
    one, two = _json(cli(args)), _json(cli([*args, "--workers", "2"]))
    assert one == two and len(one) == 4
    assert [r["shoe"]["decks"] for r in one] == [2, "inf", 1, 2]


def test_a_commission_range_over_shoes_on_two_workers_is_the_same(cli) -> None:  # type: ignore[no-untyped-def]
    args = ["chemin", "--decks", "inf,6", "--commission", "0..1/10", "--format", "json"]
    one, two = _json(cli(args)), _json(cli([*args, "--workers", "2"]))
    assert one == two and len(one) == 2


def test_a_banque_theta_list_on_two_workers_is_one_process_s(cli) -> None:  # type: ignore[no-untyped-def]
    """Each Nash search is seeded with the previous θ's equilibrium, and the independent solution with
    the last Nash equilibrium found before it: the workers' solves receive the same, so the answers are the same."""
    args = ["banque", "--decks", "inf", "--theta", "1/3,1/2,1/3", "--format", "json"]
    one, two = _json(cli(args)), _json(cli([*args, "--workers", "2"]))
    assert one == two
    assert [(r["theta"], r["concept"]) for r in one] == [
        (t, c) for t in ("1/3", "1/2", "1/3") for c in ("nash", "correlated", "independent")
    ]
    library = solve_concepts(
        Shoe.infinite(),
        BanqueModel(1, "blind", "casino", Fraction(0)),
        ["1/3", "1/2", "1/3"],
        ["nash", "correlated", "independent"],
    )
    assert [(str(s.theta), s.concept, s.exists) for s in library] == [(r["theta"], r["concept"], r["exists"]) for r in one]
    assert [str(s.value) for s in library if s.exists] == [r["value"] for r in one if r["exists"]]


def test_a_sweep_on_a_dask_cluster_is_the_same(cli) -> None:  # type: ignore[no-untyped-def]
    distributed = pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    args = ["chemin", "--decks", "1,inf", "--information", "3", "--freedom", "parlor", "--format", "json"]
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster:
        remote = _json(cli([*args, "--scheduler", cluster.scheduler_address]))
    assert remote == _json(cli(args))


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--worker-wait", "5"], "--worker-wait goes with --scheduler"),
        (["--worker-wait", "-1", "--scheduler", "tcp://127.0.0.1:9"], "0 or more"),
        (["--worker-wait", "soon", "--scheduler", "tcp://127.0.0.1:9"], "a number of seconds"),
        (["--workers", "0"], "--workers"),
    ],
)
def test_bad_run_options_are_one_line(cli, extra, message) -> None:  # type: ignore[no-untyped-def]
    for command in (["chemin", "--decks", "inf"], ["simulate", "--shoes", "10"]):
        run = cli([*command, *extra])
        assert run.code == 2 and message in run.err and len(run.err.strip().splitlines()) == 1, run.err


def test_a_cluster_left_without_workers_exits_3_after_the_wait(cli) -> None:  # type: ignore[no-untyped-def]
    """Issue 27: the command waited silently, forever; and 1, its old exit code, is the cross-check's
    "rejected". Now: a note when the wait begins, one error line after it, exit code 3."""
    distributed = pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster:
        run = cli(["crosscheck", "--simulate", "1e4", "--scheduler", cluster.scheduler_address, "--worker-wait", "1"])
    lines = run.err.strip().splitlines()
    assert run.code == 3, run.err
    assert lines[0].startswith("baccarat: note: no Dask worker is connected") and "waiting up to 1 s" in lines[0]
    assert lines[-1].startswith("baccarat: error: no Dask worker is left") and "--worker-wait" in lines[-1]
    assert len(lines) == 2 and run.out == ""
