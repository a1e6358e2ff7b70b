"""``baccarat simulate`` end to end: formats, reproducibility, one-line errors, a fast --help."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def _json(run) -> dict:  # type: ignore[no-untyped-def]
    assert run.code == 0, run.err
    return json.loads(run.out)


def test_text_report_labels_estimates(cli) -> None:  # type: ignore[no-untyped-def]
    run = cli(["simulate", "--coups", "2e5", "--seed", "1", "--workers", "1"])
    assert run.code == 0, run.err
    assert "ESTIMATES, each ± its standard error" in run.out
    assert "cut-card effect, whole shoe minus first coup (against the exact first-coup law (enumerator))" in run.out
    assert "P(banker)                              0.458597" in run.out


def test_json_is_reproducible_on_any_number_of_workers(cli) -> None:  # type: ignore[no-untyped-def]
    args = ["simulate", "--game", "chemin", "--decks", "6", "--shoes", "20000", "--seed", "7", "--format", "json"]
    one, two = _json(cli(args + ["--workers", "1"])), _json(cli(args + ["--workers", "2"]))
    for d in (one, two):
        del d["seconds"], d["workers"], d["command"]
    assert one == two
    assert one["exact"] is False and one["shoes"] == 20000 and one["table"]["cut"] == 7
    items = {i["item"]: i for i in one["items"]}
    assert set(items) == {"outcome:banker", "outcome:ponte", "outcome:tie", "bet:banker", "bet:ponte"}
    assert (
        items["outcome:banker"]["exact_first_coup"] == "32863623115424/71591641966845"
        or "/" in items["outcome:banker"]["exact_first_coup"]
    )
    e = items["bet:banker"]["cut_card_effect"]
    assert e["ci_low"] < e["estimate"] < e["ci_high"] and e["se"] > 0
    assert one["by_position"][0]["position"] == 1
    assert sum(one["counts"]["first_coup"].values()) == 20000 == one["by_position"][0]["coups"]
    assert sum(one["counts"]["whole_shoe"].values()) == one["coups"]


def test_csv(cli) -> None:  # type: ignore[no-untyped-def]
    run = cli(["simulate", "--shoes", "500", "--workers", "1", "--format", "csv", "--burn", "none", "--cut", "16"])
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0] == "section,item,estimate,se,ci_low,ci_high,units,exact"
    assert lines[1].startswith("first_coup,outcome:banker,") and lines[1].endswith(",500,8954111587648/19524993263685")
    assert any(line.startswith("cut_card_effect,bet:tie_8to1,") for line in lines)


def test_chemin_with_cells_and_a_strategy_file(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run = cli(
        [
            "simulate",
            "--game",
            "chemin",
            "--strategy",
            "casino",
            "--draw",
            "P5=1/2",
            "--draw",
            "B3/9=D",
            "--draw",
            "B5/4=1/3",
            "--shoes",
            "300",
            "--workers",
            "1",
            "--commission",
            "0",
        ]
    )
    assert run.code == 0, run.err
    assert "strategy: casino P5=1/2,B3/9=D,B5/4=1/3" in run.out
    tables = {
        "player": [["1" if (a + b) % 10 <= 4 else "0" for b in range(10)] for a in range(10)],
        "banker": [[["1" if (a + b) % 10 <= 5 else "0"] * 11 for b in range(10)] for a in range(10)],
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(tables))
    run = cli(["simulate", "--game", "chemin", "--strategy", str(path), "--shoes", "300", "--workers", "1"])
    assert run.code == 0, run.err
    assert "exact first coup" in run.out  # the exact law of card tables: solver.chemin.game.strategy_law
    # Tables outside chemin de fer's rules (the ponte mixing on 3) have no exact law here: the report
    # compares with the simulated first coups instead.
    tables["player"][1][2] = tables["player"][2][1] = "1/2"
    path.write_text(json.dumps(tables))
    run = cli(["simulate", "--game", "chemin", "--strategy", str(path), "--shoes", "300", "--workers", "1"])
    assert run.code == 0, run.err
    assert "simulated first coups of the same shoes (paired)" in run.out
    assert "baccarat: note: the ponte does not follow chemin de fer's rules (draw on 0-4, stand on 6-7) on 3" in run.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--burn", "some"], "--burn takes none, a number of cards, or turn"),
        (["--decks", "inf"], "finite shoe"),
        (["--decks", "1,2"], "one shoe"),
        (["--strategy", "casino"], "--strategy and --draw are for --game chemin"),
        (["--game", "chemin", "--strategy", "casino"], "the casino tableau leaves P5, B3/9, B5/4 free"),
        (["--game", "chemin", "--draw", "X5=1"], "a choice is written"),
        (["--cut", "3"], "at least 6 cards behind it"),
        (["--coups", "many"], "expected a whole number"),
        (["--scheduler", "tcp://127.0.0.1:9"], "Dask"),
    ],
)
def test_errors_are_one_line(cli, args: list[str], message: str, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("solver.simulate.cluster.DASK_CONNECT_TIMEOUT", "1s")
    run = cli(["simulate", "--shoes", "10", "--workers", "1", *args])
    assert run.code == 2 and run.out == ""
    assert message in run.err and run.err.count("\n") == 1


def test_scheduler(cli) -> None:  # type: ignore[no-untyped-def]
    distributed = pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    args = ["simulate", "--shoes", "3000", "--seed", "4", "--format", "json"]
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster:
        remote = _json(cli(args + ["--scheduler", cluster.scheduler_address]))
    local = _json(cli(args + ["--workers", "1"]))
    assert remote["scheduler"] == cluster.scheduler_address and remote["workers"] is None
    assert local["scheduler"] is None and local["workers"] == 1  # a count is a JSON integer
    for d in (local, remote):
        del d["seconds"], d["workers"], d["scheduler"], d["command"]
    assert local == remote


def test_help_stays_fast() -> None:
    """Building the parser imports neither numba nor scipy."""
    code = "import sys, solver.cli; solver.cli.build_parser(); print('numba' in sys.modules, 'scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_a_mutually_exclusive_group_is_never_broken_across_usage_lines() -> None:
    # Python 3.13's argparse wraps `[--coups N | --shoes N]` as `[--coups N |` / `--shoes N]` where 3.11
    # keeps it whole; the house formatter keeps it whole on every version, so `--help` (and the
    # reference that quotes it) reads the same everywhere. Every width from 30 to 100 columns, so the
    # group meets a line end at some of them.
    from solver.cli.parser import HelpFormatter, Parser

    p = Parser(prog="baccarat simulate")
    for name in ("--game", "--decks", "--tax"):
        p.add_argument(name, metavar="X")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--coups", metavar="N")
    size.add_argument("--shoes", metavar="N")
    p.add_argument("--first-coup", action="store_true")
    p.add_argument("paths", nargs="*")
    for width in range(30, 101):
        formatter = HelpFormatter(prog="baccarat simulate", width=width)
        formatter.add_usage(None, p._actions, p._mutually_exclusive_groups)
        usage = formatter.format_help()
        assert "[--coups N | --shoes N]" in usage, (width, usage)
        assert " ".join(usage.split()).startswith("usage: baccarat simulate [-h] [--game X]"), usage
