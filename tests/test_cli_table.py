"""``baccarat table``: its output, its log, bad input (one line, exit 2), interruption, reproducibility."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import run_cli

from solver.sessions import LogWriter, Policies, TableConfig, apply_coup, card_dealer, log_header, run_sessions, start, table_play
from solver.simulate import KEMENY_SNELL

ROOT = Path(__file__).resolve().parents[1]
LOG_FIELDS = (
    "coup",
    "shoe",
    "banker",
    "bank",
    "stakes",
    "calls",
    "outcome",
    "tax",
    "bankrolls",
    "bank_after",
    "garage",
    "house",
    "event",
)


def amount(x: object) -> Fraction:
    """An amount as the log writes it: a JSON integer or a "p/q" string, never a float."""
    assert isinstance(x, int) and not isinstance(x, bool) or isinstance(x, str) and "/" in x and "." not in x, x
    return Fraction(x)  # type: ignore[arg-type]


def check_log(path: Path) -> list[dict]:
    """Every line whole: the header first, then coups with the fields the issue names; the money on every
    line the same. Returns the coups."""
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    header, *lines = [json.loads(line) for line in text.splitlines()]
    assert header["type"] == "header" and header["log"] == "baccarat table log"
    assert all(x["type"] in ("coup", "session") for x in lines)
    lines = [x for x in lines if x["type"] == "coup"]
    totals = set()
    for rec in lines:
        assert all(k in rec for k in LOG_FIELDS)
        totals.add(
            sum(amount(v) for v in rec["bankrolls"].values())
            + amount(rec["bank_after"])
            + amount(rec["garage"])
            + amount(rec["house"])
        )
        amount(rec["bank"]), amount(rec["tax"])
    assert len(totals) <= 1
    return lines


def test_chemin_log_and_text(tmp_path: Path) -> None:
    log = tmp_path / "coups.jsonl"
    r = run_cli(["table", "--seed", "2", "--log", str(log)])
    assert r.code == 0, r.err
    assert "Chemin de fer at the table, 1 session of 1 shoe, seed 2" in r.out
    lines = check_log(log)
    assert [x["coup"] for x in lines] == list(range(1, len(lines) + 1))
    assert "session ends" in lines[-1]["event"] and lines[-1]["bank_after"] == 0
    assert {x["outcome"] for x in lines} <= {"banker", "ponte", "tie"}
    assert sum(amount(x["tax"]) for x in lines) == amount(lines[-1]["house"])
    assert all({"offered", "ranks", "burned", "cut_card", "cards_left", "ended"} <= set(x) for x in lines)
    assert lines[-1]["ended"] == "shoes finished" and lines[-1]["cut_card"] and lines[0]["burned"] == []


def test_banque_json_and_log(tmp_path: Path) -> None:
    log = tmp_path / "banque.jsonl"
    r = run_cli(
        [
            "table",
            "--game",
            "banque",
            "--banque",
            "ouverte",
            "--seed",
            "1",
            "--log",
            str(log),
            "--format",
            "json",
            "--sessions",
            "2",
        ]
    )
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert out["sessions"] == 2 and out["table"]["banque"] == "ouverte" and out["exact"] is None
    assert set(out["estimates"]) >= {"house_per_coup", "banker_per_coup", "run_length"}
    lines = check_log(log)
    assert {x["session"] for x in lines} == {0, 1}
    assert all(set(x["outcome"]) == {"1", "2"} and set(x["stakes"]) == {"1", "2"} for x in lines)


BAD = [
    (["--seats", "7"], "a table seats 8 to 12 players, got 7"),
    (["--seats", "13"], "a table seats 8 to 12 players, got 13"),
    (["--minimum-banco", "100", "--minimum-stake", "150"], "the minimum stake (150) must not exceed the minimum banco (100)"),
    (["--minimum-banco", "-5"], "must not be negative"),
    (["--minimum-banco", "0.5e"], "must be a number"),
    (["--commission", "1.5"], "the tax is a share of the winnings in [0, 1), got 3/2"),
    (["--capital-tax", "1/40"], "the tax on the bank's capital is a house rule of baccara banque"),
    (["--log", "x.jsonl", "--workers", "2"], "--log writes each coup as it is played, in this process"),
    (["--decks", "inf"], "the table deals physical shoes"),
    (["--cut", "3"], "the cut card must leave at least 6 cards behind it"),
    (["--strategy", "nope"], "unknown strategy 'nope'"),
]


@pytest.mark.parametrize("args,message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_options_one_line_exit_2(args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = run_cli(["table", *args])
    assert r.code == 2 and r.out == ""
    assert r.err.count("\n") == 1 and message in r.err, r.err


POLICIES = [
    ({"stake": -10}, "policy.json: stake must not be negative, got -10"),
    ({"stakes": 10}, "policy.json: unknown policy field 'stakes'"),
    ({"seats": {"3": {"colour": "red"}}}, "policy.json, seat 3: unknown policy field 'colour'"),
    ({"seats": {"11": {"stake": 20}}}, "policy.json: seat '11' is not a seat of this table (1 to 10)"),
    ({"stake": 5}, "a stake of 5 is below the minimum stake 10 (0 for no stake)"),
    ({"stake": "ten"}, "policy.json: stake must be a number such as 0.05 or 1/20, got 'ten'"),
    ({"banco": "cheval"}, "banco is one of none, solo, a_deux, avec, marche at chemin"),
    ({"bank": 50}, "a bank of 50 is below the minimum banco 100"),
    ({"pass_after": -1}, "pass_after is a whole number of wins"),
    ({"garage": "yes"}, "garage is true or false"),
    ([1, 2], "a policy file is a JSON object"),
]


@pytest.mark.parametrize("policy,message", POLICIES, ids=[m for _, m in POLICIES])
def test_bad_policy_file_one_line_exit_2(policy: object, message: str, tmp_path: Path) -> None:
    path, log = tmp_path / "policy.json", tmp_path / "coups.jsonl"
    path.write_text(json.dumps(policy))
    r = run_cli(["table", "--policy", str(path), "--log", str(log)])
    assert r.code == 2 and r.out == ""
    assert r.err.count("\n") == 1 and message in r.err, r.err
    assert not log.exists()  # refused before any coup, and before the log is opened


def _casino_banker(total: int, seen: int) -> float:
    """The casino tableau's banker, mixing half and half at its free cells 3/9 and 5/4."""
    if (total, seen) in ((3, 9), (5, 4)):
        return 0.5
    if seen == 10:
        return 1 if total <= 5 else 0
    draws = {0: range(10), 1: range(10), 2: range(10), 3: [0, 1, 2, 3, 4, 5, 6, 7], 4: range(2, 8), 5: range(5, 8), 6: (6, 7)}
    return 1 if seen in draws.get(total, ()) else 0


def test_a_strategy_file_is_played_exactly(tmp_path: Path) -> None:
    """A strategy file's decimals are read exactly (0.5 is one half): the ponte mixes at 5, the banker
    at the casino tableau's free cells."""
    P = [[1 if (a + b) % 10 <= 4 else 0.5 if (a + b) % 10 == 5 else 0 for b in range(10)] for a in range(10)]
    B = [[[_casino_banker((a + b) % 10, s) for s in range(11)] for b in range(10)] for a in range(10)]
    path = tmp_path / "half.json"
    path.write_text(json.dumps({"name": "half at five", "player": P, "banker": B}))
    r = run_cli(["table", "--strategy", str(path), "--format", "json"])
    assert r.code == 0, r.err
    assert json.loads(r.out)["strategy"] == "half at five"
    B[3][0][0] = B[0][3][0] = 0  # the banker stands on 3 against a 0: the casino tableau draws there
    path.write_text(json.dumps({"name": "stands on 3/0", "player": P, "banker": B}))
    r = run_cli(["table", "--strategy", str(path)])
    assert r.code == 2 and r.err.count("\n") == 1 and "(B3/0)" in r.err, r.err
    r = run_cli(["table", "--strategy", str(path), "--freedom", "parlor"])
    assert r.code == 0, r.err


def test_a_policy_file_is_played(tmp_path: Path) -> None:
    """Decimals are read exactly: a stake of 12.5 is 25/2."""
    path = tmp_path / "players.json"
    path.write_text(json.dumps({"name": "a banco player", "stake": 12.5, "seats": {"2": {"banco": "solo", "bankroll": 100000}}}))
    log = tmp_path / "log.jsonl"
    r = run_cli(["table", "--policy", str(path), "--log", str(log), "--seed", "4"])
    assert r.code == 0 and "policies: a banco player" in r.out
    lines = check_log(log)
    assert any(x["calls"]["won"] == {"seat": 2, "call": "solo"} for x in lines)
    assert any("25/2" in x["stakes"].values() for x in lines)


def test_an_interrupted_session_leaves_whole_lines(tmp_path: Path) -> None:
    """Kill the command (SIGKILL: no clean-up at all) while it writes: every line is whole."""
    log = tmp_path / "long.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "table", "--shoes", "1000", "--log", str(log)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not log.exists() or log.stat().st_size < 50_000):
            time.sleep(0.05)
        assert proc.poll() is None, "the session ended before it could be interrupted"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    lines = check_log(log)
    assert len(lines) > 20 and lines[-1]["coup"] == len(lines)


def test_a_session_stopped_by_an_error_leaves_the_coups_played(tmp_path: Path) -> None:
    """The log is written coup by coup: a failure at the sixth coup leaves five whole lines."""
    table = TableConfig("chemin")
    pols = Policies.defaults(table)
    deal = card_dealer(table, table_play(table, KEMENY_SNELL), __import__("numpy").random.default_rng(1))
    state, _ = start(table, pols)
    path = tmp_path / "five.jsonl"
    with pytest.raises(RuntimeError), LogWriter(str(path), log_header(table, pols, table_play(table, KEMENY_SNELL), 1, 1)) as log:
        for k in range(10):
            if k == 5:
                raise RuntimeError("the table is closed")
            state, record = apply_coup(table, pols, state, deal)
            log.write(record)
    assert len(check_log(path)) == 5


def test_same_seed_same_sessions_on_any_number_of_workers() -> None:
    table = TableConfig("banque")
    pols = Policies.defaults(table)
    play = table_play(table, KEMENY_SNELL)
    one = run_sessions(table, pols, play, 40, seed=9, workers=1)
    two = run_sessions(table, pols, play, 40, seed=9, workers=2)
    assert one == two and one.n == 40 and one.total("coups") > 0
    assert run_sessions(table, pols, play, 40, seed=10, workers=1) != one


def test_same_sessions_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    table = TableConfig("chemin")
    pols = Policies.defaults(table)
    play = table_play(table, KEMENY_SNELL)
    local = run_sessions(table, pols, play, 20, seed=4, workers=1)
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster:
        remote = run_sessions(table, pols, play, 20, seed=4, scheduler=cluster.scheduler_address)
    assert local == remote


def test_the_statistics_of_a_run_do_not_grow_with_its_sessions() -> None:
    """Sessions are reduced to exact running sums as they finish (issue 29): the statistics of 2,400
    sessions take no more room than those of 300 (here measured pickled: what a worker sends back)."""
    import pickle

    table = TableConfig("chemin", shoe=__import__("solver").Shoe.decks(1), cut=30)
    pols = Policies.defaults(table)
    play = table_play(table, KEMENY_SNELL)
    small = run_sessions(table, pols, play, 300, seed=1)
    large = run_sessions(table, pols, play, 2400, seed=1)
    assert large.n == 2400 and large.total("coups") > 7 * small.total("coups")
    assert len(pickle.dumps(large)) < 1.5 * len(pickle.dumps(small))


def test_csv_holds_the_summary_s_numbers() -> None:
    """``--format csv``: the exact totals and counts as the JSON has them, each estimate with its error,
    and the fresh-shoe exact values beside the estimates they go with."""
    import csv
    import io

    args = ["table", "--sessions", "6", "--seed", "4", "--workers", "1"]
    r, j = run_cli([*args, "--format", "csv"]), run_cli([*args, "--format", "json"])
    assert r.code == 0 and j.code == 0, r.err + j.err
    rows = list(csv.reader(io.StringIO(r.out)))
    assert rows[0] == ["section", "item", "estimate", "se", "ci_low", "ci_high", "units", "exact"]
    doc = json.loads(j.out)
    by = {(x[0], x[1]): x for x in rows[1:]}
    assert {k: by["total", k][7] for k in doc["totals"]} == {k: str(v) for k, v in doc["totals"].items()}
    house = by["estimate", "house_per_unit_at_stake"]
    assert float(house[2]) == doc["estimates"]["house_per_unit_at_stake"]["estimate"] and house[6] == "6"
    assert Fraction(house[7]) == Fraction(doc["exact"]["house_per_unit_at_stake"])
    assert {x[1]: int(x[7]) for x in rows if x[0] == "end"} == doc["ends"]
    assert [x[1] for x in rows if x[0] == "seat"] == [str(s) for s in range(1, 11)]
