"""``baccarat chemin --shoes FILE`` and ``baccarat banque --shoes FILE`` (issue 27): each line's shoe
solved as a deck list's, with every option; the same results as the deck list, on workers as in one
process, in input order, each with its line's number and text; a bad line one error line; the
combinations that need one shoe refused. Small shoes and information 1 keep it short."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import json_results

# Comments, a blank line and a removal: the lines 1 and 4 hold the shoes of --decks 1,2 --remove 5,5.
TWO = "--decks 1 --remove 5,5\n\n# a comment line\n--decks 2 --remove 5,5   # two decks\n"
DECK_LIST = ["--decks", "1,2", "--remove", "5,5"]
LINES = [(1, "--decks 1 --remove 5,5"), (4, "--decks 2 --remove 5,5")]


def _results(run) -> list[dict]:  # type: ignore[no-untyped-def]
    assert run.code == 0, run.err
    return json_results(run.out)


def _without_line(results: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in ("line", "input")} for r in results]


def _jsonl(run) -> list[dict]:  # type: ignore[no-untyped-def]
    """Each line of --format jsonl, without the provenance (the command names the file and the run options)."""
    assert run.code == 0, run.err
    return [{k: v for k, v in json.loads(t).items() if k not in ("tool", "command")} for t in run.out.splitlines()]


@pytest.fixture
def two(tmp_path: Path) -> str:
    path = tmp_path / "shoes.txt"
    path.write_text(TWO, encoding="utf-8")
    return str(path)


def test_chemin_lines_are_the_deck_list_s_results_with_their_lines(cli, two) -> None:  # type: ignore[no-untyped-def]
    listed = _results(cli(["chemin", *DECK_LIST, "--format", "json"]))
    lined = _results(cli(["chemin", "--shoes", two, "--format", "json"]))
    assert [(r["line"], r["input"]) for r in lined] == LINES
    assert _without_line(lined) == listed and len(listed) == 2
    assert [list(r)[:2] for r in lined] == [["line", "input"]] * 2  # first, as punto --shoes writes them
    assert _jsonl(cli(["chemin", "--shoes", two, "--format", "jsonl"])) == lined  # the document's results, line by line


def test_chemin_lines_on_two_workers_are_one_process_s(cli, two) -> None:  # type: ignore[no-untyped-def]
    args = ["chemin", "--shoes", two, "--format", "json"]
    assert _results(cli([*args, "--workers", "2"])) == _results(cli(args))
    streamed = _jsonl(cli(["chemin", "--shoes", two, "--format", "jsonl", "--workers", "2"]))
    assert streamed == _jsonl(cli(["chemin", "--shoes", two, "--format", "jsonl"])) and [r["line"] for r in streamed] == [1, 4]


def test_chemin_lines_on_a_dask_cluster_are_one_process_s(cli, two) -> None:  # type: ignore[no-untyped-def]
    distributed = pytest.importorskip("distributed", reason="Dask's distributed is an optional extra")
    args = ["chemin", "--shoes", two, "--format", "jsonl"]
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster:
        remote = _jsonl(cli([*args, "--scheduler", cluster.scheduler_address]))
    assert remote == _jsonl(cli(args)) and [r["line"] for r in remote] == [1, 4]


def test_chemin_options_apply_to_every_line(cli) -> None:  # type: ignore[no-untyped-def]
    """--commission, --information, --freedom, --digits on each line as on the deck list; a commission
    range too (one sweep a line)."""
    extra = ["--information", "2", "--freedom", "parlor", "--commission", "1/20", "--digits", "3", "--format", "json"]
    lined = _results(cli(["chemin", "--shoes", "-", *extra], stdin="--decks inf\n--decks 1\n"))
    assert _without_line(lined) == _results(cli(["chemin", "--decks", "inf,1", *extra]))
    span = ["--commission", "0..1/10", "--format", "json"]
    swept = _results(cli(["chemin", "--shoes", "-", *span], stdin="--decks inf\n"))
    assert _without_line(swept) == _results(cli(["chemin", "--decks", "inf", *span])) and swept[0]["line"] == 1


def test_chemin_text_and_csv_name_each_line(cli, two) -> None:  # type: ignore[no-untyped-def]
    text = cli(["chemin", "--shoes", two])
    listed = cli(["chemin", *DECK_LIST])
    assert text.code == 0, text.err
    rows, deck_rows = text.out.splitlines(), listed.out.splitlines()
    assert rows[2].split()[0] == "line" and [r.split()[0] for r in rows[3:]] == ["1", "4"]
    assert [r.split(None, 1)[1] for r in rows[3:]] == [r.strip() for r in deck_rows[3:]]  # the deck list's rows
    csv = cli(["chemin", "--shoes", two, "--format", "csv"]).out.splitlines()
    deck_csv = cli(["chemin", *DECK_LIST, "--format", "csv"]).out.splitlines()
    assert csv[0] == "line,input," + deck_csv[0]
    assert [row.split(",", 4)[:2] for row in csv[1:3]] == [["1", '"--decks 1 --remove 5'], ["1", '"--decks 1 --remove 5']]
    assert [row.split('5,5",', 1)[1] for row in csv[1:]] == deck_csv[1:]


def test_banque_lines_are_the_deck_list_s_results(cli) -> None:  # type: ignore[no-untyped-def]
    extra = ["--concept", "correlated", "--theta", "1/3,1/2", "--format", "json"]
    stdin = "--decks inf\n--decks 1  # one deck\n"
    lined = _results(cli(["banque", "--shoes", "-", *extra], stdin=stdin))
    assert _without_line(lined) == _results(cli(["banque", "--decks", "inf,1", *extra]))
    assert [(r["line"], r["input"], r["theta"]) for r in lined] == [
        (1, "--decks inf", "1/3"),
        (1, "--decks inf", "1/2"),
        (2, "--decks 1", "1/3"),
        (2, "--decks 1", "1/2"),
    ]
    on_two = _results(cli(["banque", "--shoes", "-", *extra, "--workers", "2"], stdin=stdin))
    assert on_two == lined
    text = cli(["banque", "--shoes", "-", "--concept", "correlated"], stdin=stdin).out
    assert text.startswith("line 1: --decks inf\n") and "\n\nline 2: --decks 1\nbaccara banque, 1 deck" in text


def test_banque_limit_takes_lines_too(cli) -> None:  # type: ignore[no-untyped-def]
    lined = _results(cli(["banque", "--shoes", "-", "--limit", "--format", "json"], stdin="--decks inf\n"))
    assert _without_line(lined) == _results(cli(["banque", "--decks", "inf", "--limit", "--format", "json"]))
    assert lined[0]["line"] == 1


def test_certificates_are_the_deck_list_s(cli, two, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for name, args in (("lines", ["--shoes", two]), ("list", DECK_LIST)):
        assert cli(["chemin", *args, "--certificate", str(tmp_path / name)]).code == 0
    files = sorted(p.name for p in (tmp_path / "lines").iterdir())
    assert len(files) == 2 and files == sorted(p.name for p in (tmp_path / "list").iterdir())
    assert all((tmp_path / "lines" / f).read_bytes() == (tmp_path / "list" / f).read_bytes() for f in files)


@pytest.mark.parametrize("command", ["chemin", "banque"])
def test_a_bad_line_is_one_error_line_naming_it(cli, command, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.txt"
    path.write_text("--decks inf\n# fine so far\n--decks 1 --remove 5,Z\n--decks 2\n", encoding="utf-8")
    extra = ["--concept", "correlated"] if command == "banque" else []
    whole = cli([command, "--shoes", str(path), *extra, "--format", "json"])
    assert whole.code == 2 and whole.out == ""  # read first: refused before any solve
    assert whole.err.startswith(f"baccarat: error: {path}, line 3: unknown card 'Z'") and len(whole.err.splitlines()) == 1
    streamed = cli([command, "--shoes", str(path), *extra, "--format", "jsonl"])
    assert streamed.code == 2 and len(streamed.err.strip().splitlines()) == 1 and f"{path}, line 3:" in streamed.err
    assert [json.loads(t)["line"] for t in streamed.out.splitlines()] == [1]  # the lines before it are answered
    empty = cli([command, "--shoes", "-"], stdin="# nothing\n\n")
    assert empty.code == 2 and "standard input holds no shoe" in empty.err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["chemin", "--decks", "6"], "--shoes reads every shoe from its file: leave out --decks"),
        (["banque", "--shoe", "32,8,8,8,8,8,8,8,8,8", "--remove", "5"], "leave out --shoe, --remove"),
        (["chemin", "--export", "efg", "x.efg"], "--export writes one game: give one shoe"),
        (["banque", "--export", "efg", "x.efg"], "--export writes one game: give one shoe"),
        (["chemin", "--commission", "0..1/10", "--certificate", "c"], "--certificate is for one commission"),
        (["chemin", "--commission", "0..1/10", "--format", "csv"], "--format csv is for one commission"),
        (["chemin", "--format", "latex"], "--format latex is for a commission range"),
        (["banque", "--limit", "--format", "csv"], "--limit writes text, json or jsonl"),
        (["chemin", "--worker-wait", "5"], "--worker-wait goes with --scheduler"),
    ],
)
def test_combinations_that_need_one_shoe_are_refused(cli, argv, message) -> None:  # type: ignore[no-untyped-def]
    run = cli([argv[0], "--shoes", "-", *argv[1:]], stdin="--decks inf\n")
    assert run.code == 2 and run.out == "" and message in run.err, run.err
    assert len(run.err.strip().splitlines()) == 1


@pytest.mark.parametrize("extra", [[], ["--workers", "2"]], ids=["one process", "two workers"])
def test_a_stream_is_answered_line_by_line(extra: list[str]) -> None:
    """``--format jsonl`` with ``--shoes -``: the first line's answer comes before the second line is
    written (on workers too: the stream tells the executor when it waits)."""
    import select

    p = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "chemin", "--shoes", "-", "--format", "jsonl", *extra],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert p.stdin is not None and p.stdout is not None
        p.stdin.write("--decks inf\n")
        p.stdin.flush()
        ready, _, _ = select.select([p.stdout], [], [], 120)
        assert ready, "no answer to the first line while the stream stays open"
        first = json.loads(p.stdout.readline())
        assert (first["line"], first["input"], first["shoe"]["decks"]) == (1, "--decks inf", "inf")
        p.stdin.write("--decks 1\n")
        p.stdin.close()
        second = json.loads(p.stdout.readline())
        assert (second["line"], second["shoe"]["decks"]) == (2, 1)
        assert p.wait(timeout=120) == 0
    finally:
        p.kill()


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_a_concept_without_answer_names_its_line_and_exits_3(cli, monkeypatch, fmt) -> None:  # type: ignore[no-untyped-def]
    """banque: a concept at a θ with no certified answer is one line on stderr naming the line (here
    line 2's, made to fail), every other answer printed, exit status 3."""
    import solver.cli.sweeps as sweeps
    from solver.banque.sweep import BanqueFailure

    real = sweeps.banque_by_shoe

    def failing(args, shoes, model, thetas, concepts):  # type: ignore[no-untyped-def]
        each = real(args, shoes, model, thetas, concepts)
        return [
            ([], [BanqueFailure(s.shoe, s.model, s.theta, s.concept, "no answer, for the test") for s in found])
            if shoe.full_decks == 1
            else (found, failed)
            for shoe, (found, failed) in zip(shoes, each)
        ]

    monkeypatch.setattr(sweeps, "banque_by_shoe", failing)
    run = cli(["banque", "--shoes", "-", "--concept", "correlated", "--format", fmt], stdin="--decks inf\n--decks 1\n")
    assert run.code == 3
    assert run.err.strip().splitlines() == [
        "baccarat: error: standard input, line 2, theta 1/2, correlated: no answer, for the test"
    ]
    answered = json_results(run.out) if fmt == "json" else [json.loads(t) for t in run.out.splitlines()]
    assert [r["line"] for r in answered] == [1]


@pytest.mark.parametrize(
    "argv", [["chemin", "--commission", "1/2"], ["banque", "--theta", "2"], ["banque", "--limit", "--theta", "1/3"]]
)
def test_a_bad_option_is_refused_before_the_lines_are_read(argv: list[str]) -> None:
    """Text and JSON read the whole input first: a bad option must not wait for the end of a stream that
    is still open (a live tracker), but be refused at once."""
    p = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", *argv, "--shoes", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert p.stdin is not None
        p.stdin.write("--decks inf\n")
        p.stdin.flush()  # and left open
        assert p.wait(timeout=120) == 2
        assert p.stderr is not None and p.stderr.read().startswith("baccarat: error: ")
    finally:
        p.kill()
