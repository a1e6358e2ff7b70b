"""The `baccarat punto` command: formats, batch mode, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import json_result
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Shoe
from solver.punto import punto_banco


@pytest.fixture(autouse=True)
def batch_kernels(monkeypatch):  # type: ignore[no-untyped-def]
    """Batches in this process take the compiled kernels, on disk or not (the route these tests hold to the
    one-shoe route); when they are chosen is tested on its own (the last tests of this file)."""
    from solver.cli import shoes

    monkeypatch.setattr(shoes, "use_kernels", lambda *_: True)


def test_json_carries_exact_probabilities(cli) -> None:
    r = cli(["punto", "--decks", "8", "--format", "json"])
    assert r.code == 0 and r.err == ""
    data = json_result(r.out)
    assert data["probabilities"]["banker"] == "8954111587648/19524993263685"
    total = sum(Fraction(v) for v in data["probabilities"].values())
    assert total == 1
    banker = next(b for b in data["bets"] if b["name"] == "banker")
    assert Fraction(banker["edge"]) == punto_banco(Shoe.decks(8)).bet("banker").edge


def test_digits_adds_decimals(cli) -> None:
    data = json_result(cli(["punto", "--format", "json", "--digits", "6"]).out)
    assert data["probabilities_decimal"]["tie"] == "0.095156"
    assert next(b for b in data["bets"] if b["name"] == "banker")["edge_decimal"] == "0.010579"


def test_remove_matches_the_library(cli) -> None:
    data = json_result(cli(["punto", "--remove", "5,5,K,0,9", "--format", "json"]).out)
    expect = punto_banco(Shoe.decks(8).remove(["5", "5", "K", "0", "9"]))
    assert Fraction(data["probabilities"]["player"]) == expect.player
    assert data["shoe"]["values"][0] == 126


def test_deck_list_prints_one_row_per_shoe(cli) -> None:
    r = cli(["punto", "--decks", "1,2,inf", "--bets", "banker,player,tie_8to1"])
    rows = [line for line in r.out.splitlines() if line.startswith(("1 deck", "2 decks", "inf"))]
    assert len(rows) == 3


def test_deck_list_with_the_whole_catalogue_prints_one_column_per_shoe(cli) -> None:
    r = cli(["punto", "--decks", "1,2,inf"])
    lines = r.out.splitlines()
    assert lines[1].split() == ["1", "deck", "2", "decks", "inf"]
    rows = [line.split()[1:] for line in lines[2:] if line.startswith("  ")]
    assert len(rows) == 3 + len(json_result(cli(["punto", "--format", "json"]).out)["bets"])  # every bet
    assert all(len(v) == 3 for v in rows) and max(map(len, lines)) <= 100


def test_csv(cli) -> None:
    lines = cli(["punto", "--decks", "6", "--format", "csv"]).out.splitlines()
    assert lines[0] == "shoe,item,exact,decimal"
    assert lines[1].startswith("6 decks,P(banker),")


def test_batch_one_json_line_per_shoe(cli) -> None:
    text = "# seen so far\n--decks 8 --remove 5,5\n\n--shoe 4,1,1,1,1,1,1,1,1,1\n--decks 6\n"
    r = cli(["punto", "--shoes", "-"], stdin=text)
    assert r.code == 0
    records = [json.loads(line) for line in r.out.splitlines()]
    assert [rec["line"] for rec in records] == [2, 4, 5]
    assert Fraction(records[2]["probabilities"]["banker"]) == punto_banco(Shoe.decks(6)).banker


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["punto", "--decks", "0"], "positive whole number"),
        (["punto", "--decks", "x"], "positive whole number"),
        (["punto", "--shoe", "1,2,3"], "10 counts by point value or 13 by rank"),
        (["punto", "--shoe", "1,1,1,1,1,0,0,0,0,0"], "at least 6 cards"),
        (["punto", "--shoe=-1,8,8,8,8,8,8,8,8,8"], "must not be negative"),
        (["punto", "--remove", "Z"], "unknown card"),
        (["punto", "--shoe", "6,0,0,0,0,0,0,0,0,1", "--remove", "9,9"], "no card of value 9"),
        (["punto", "--decks", "inf", "--remove", "5"], "infinite"),
        (["punto", "--decks", "8", "--shoe", "1,1,1,1,1,1,1,1,1,1"], "not both"),
        (["punto", "--commission", "abc"], "commission"),
        (["punto", "--format", "xml"], "invalid choice"),
        (["punto", "--shoes", "/nonexistent/file"], "cannot read"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, argv: list[str], message: str) -> None:
    r = cli(argv)
    assert r.code == 2
    assert r.out == ""
    assert r.err.count("\n") == 1 and message in r.err


def test_batch_names_the_bad_line(cli) -> None:
    # Lines are answered as they come: the one before the bad line is answered, then one error line.
    r = cli(["punto", "--shoes", "-"], stdin="--decks 8\n--decks 8 --remove Q,X\n--decks 6\n")
    assert r.code == 2
    assert [json.loads(line)["line"] for line in r.out.splitlines()] == [1]
    assert r.err.count("\n") == 1 and "line 2" in r.err and "unknown card" in r.err


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("--decks", "line 1: argument --decks: expected one argument"),
        ("--decks 8 --remove", "line 1: argument --remove: expected one argument"),
        ("--decks 8 --shoe 4,1,1,1,1,1,1,1,1,1", "not both"),
        ("--decks 8 --bogus", "unexpected '--bogus'"),
        ("--decks 8,6", "one shoe per line"),
        ("--decks 'eight", "No closing quotation"),
        ("--shoe 1,1,1,1,1,0,0,0,0,0", "at least 6 cards"),
        ("--shoe 6,0,0,0,0,0,0,0,0,0 --remove 9", "no card of value 9"),
        ("--decks 1 --remove K,K,K,K,K", "no K is left"),
        ("--decks 1 --remove KS,KS", "no KS is left"),
        ("--decks inf --remove 5", "infinite"),
    ],
)
def test_a_malformed_line_is_one_error_line(cli, line: str, message: str) -> None:
    """One line on stderr (ours, not argparse's usage and then ours: issue 29, item 5), exit code 2."""
    r = cli(["punto", "--shoes", "-"], stdin=line + "\n")
    assert r.code == 2 and r.out == ""
    assert r.err.count("\n") == 1 and r.err.startswith("baccarat: error: standard input, ") and message in r.err, r.err


def test_format_json_is_accepted_with_shoes_and_csv_refused(cli) -> None:
    text = "--decks 8 --remove 5,5\n"
    plain, as_json = cli(["punto", "--shoes", "-"], stdin=text), cli(["punto", "--shoes", "-", "--format", "json"], stdin=text)
    assert plain.code == as_json.code == 0
    drop = lambda out: {k: v for k, v in json.loads(out).items() if k != "command"}  # noqa: E731
    assert drop(plain.out) == drop(as_json.out)
    r = cli(["punto", "--shoes", "-", "--format", "csv"], stdin=text)
    assert r.code == 2 and r.out == "" and "JSON lines" in r.err
    r = cli(["punto", "--workers", "2"])
    assert r.code == 2 and "--shoes" in r.err
    r = cli(["punto", "--worker-wait", "5"])
    assert r.code == 2 and "--worker-wait price a batch of shoes: give them with --shoes" in r.err
    r = cli(["punto", "--shoes", "-", "--worker-wait", "5"], stdin=text)
    assert r.code == 2 and r.out == "" and "--worker-wait goes with --scheduler" in r.err


def test_help_explains_every_option() -> None:
    for argv in (["--help"], ["punto", "--help"]):
        out = subprocess.run([sys.executable, "-m", "solver.cli", *argv], capture_output=True, text=True, check=True).stdout
        assert "example" in out
    out = subprocess.run([sys.executable, "-m", "solver.cli", "punto", "--help"], capture_output=True, text=True).stdout
    for option in ("--decks", "--shoe", "--remove", "--format", "--digits", "--shoes", "--commission"):
        assert option in out


def test_pricing_a_shoe_from_the_cache_does_without_numpy(tmp_path) -> None:
    """Once the catalogue is compiled into the disk cache, ``baccarat punto`` reads it back and prices the
    shoe in plain Python integers (solver.deal.weights): the process never imports numpy, whose import alone
    costs more than the rest of the command (docs/benchmarks.md). The same numbers as the library."""
    env = {**__import__("os").environ, "BACCARAT_CACHE": str(tmp_path)}
    script = (
        "import json, sys\nfrom solver.cli import main\nsys.stdout = open(sys.argv[1], 'w')\n"
        "main(['punto', '--decks', '6', '--remove', '5,5,KS', '--format', 'json'])\n"
        "sys.stdout.close(); sys.stdout = sys.__stdout__\nprint(json.dumps('numpy' in sys.modules))"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", script, str(tmp_path / f"out{i}.json")], env=env, capture_output=True, text=True, check=True
        )
        for i in range(2)
    ]
    assert [json.loads(r.stdout) for r in runs] == [True, False]  # built with numpy, then read back without
    first, second = ((tmp_path / f"out{i}.json").read_text() for i in range(2))
    assert first == second
    data = json_result(second)
    expected = punto_banco(Shoe.decks(6).remove(["5", "5", "KS"]), bets=(), skip_unsettled=True)
    assert Fraction(data["probabilities"]["banker"]) == expected.banker
    assert {b["name"] for b in data["bets"]} >= {"either_pair", "dragon_bonus_banker", "big_tiger"}


def test_version_without_loading_the_commands() -> None:
    """``baccarat --version`` answers as argparse would, before any command (or numpy) is imported."""
    from solver import __version__

    script = "import sys\nfrom solver.cli import main\ncode = main(['--version'])\nprint(code, 'numpy' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert r.stdout.splitlines() == [f"baccarat {__version__}", "0 False"]


# -- batches of shoes: the compiled route against the single-shoe route ----------------------------------

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def depleted_lines(seed: int, decks: tuple[int, ...], per: int) -> list[str]:
    """Shoes as a tracker writes them: ``d`` decks less the first cards of a shuffled shoe, by rank and
    suit, by rank only, or by value only."""
    rng = random.Random(seed)
    out = []
    for d in decks:
        for k in range(per):
            cards = [f"{r}{s}" for r in RANK_NAMES for s in "SHDC" for _ in range(d)]
            rng.shuffle(cards)
            seen = cards[: rng.randrange(0, min(len(cards) - 6, 400))]
            if k % 3 == 1:
                seen = [c[:-1] for c in seen]  # ranks only: the suits become unknown
            elif k % 3 == 2 and seen:
                seen[0] = "0"  # a ten-valued card of unknown rank: the ranks become unknown
            out.append(f"--decks {d}" + (f" --remove {','.join(seen)}" if seen else ""))
    return out


def expected_line(out_line: str, number: int, text: str, shoe: Shoe, options: dict[str, object]) -> str:
    """The line the single-shoe route gives: ``punto_banco``'s Fractions through ``punto_dict``."""
    from solver.report.punto import punto_dict

    got = json.loads(out_line)
    result = punto_banco(shoe, options.get("commission", "1/20"), options["bets"], skip_unsettled=True)
    record = {"line": number, "input": text, **punto_dict(result, options.get("digits"), bool(options.get("breakdown")))}
    return json.dumps({"tool": got["tool"], "command": got["command"], **record})


def check_batch(cli, lines: list[str], argv: tuple[str, ...] = (), **options: object) -> list[dict[str, object]]:
    from solver.cards import parse_shoe
    from solver.cli.shoe_lines import slow_shoe
    from solver.punto import catalogue

    options.setdefault("bets", catalogue(str(options.get("commission", "1/20"))))
    r = cli(["punto", "--shoes", "-", *argv], stdin="\n".join(lines) + "\n")
    assert r.code == 0, r.err
    out = r.out.splitlines()
    assert len(out) == len(lines)
    for n, (text, line) in enumerate(zip(lines, out), start=1):
        shoe = slow_shoe(text)
        assert line == expected_line(line, n, text, shoe, options), text
    assert parse_shoe is not None
    return [json.loads(line) for line in out]


def test_batch_equals_the_single_shoe_route_on_depleted_shoes(cli) -> None:
    """Random depleted shoes of 1 to 8 decks (the float64 route, ``D < 2^53``), of 9 and 24 decks (past
    2^53, the wide route) and of 30, 100 and 1,000 decks (past 2^63): every line byte for byte the JSON of
    ``punto_banco``'s exact result, by rank and suit, by rank, by value."""
    lines = depleted_lines(1, (1, 2, 8), 6) + depleted_lines(2, (9, 24, 30, 100, 1000), 3)
    records = check_batch(cli, lines)
    past = [r for r in records if int(str(r["denominator"])) >= 2**63]
    assert len(past) >= 6 and any(r["shoe"]["values"][0] > 10_000 for r in past)  # type: ignore[index]
    assert any("omitted" in r for r in records)  # the unsettled bets of shoes of unknown ranks or suits


def test_batch_equals_the_single_shoe_route_on_small_odd_and_infinite_shoes(cli) -> None:
    lines = [
        "--shoe 6,0,0,0,0,0,0,0,0,0",  # every coup a tie on zeros
        "--shoe 1,1,1,1,1,1,0,0,0,0",
        "--shoe 1,1,0,0,0,0,0,0,0,0,0,0,4",  # by rank: 6 cards
        "--shoe 3,0,0,0,0,0,0,0,0,0,0,0,4 --remove K",
        "--decks 2 --remove " + ",".join(f"{r}{s}" for r in RANK_NAMES[:12] for s in "SHDC"),  # kings twice as many
        "--decks inf",
        "--decks 8",
        "--shoe 8,8,8,8,8,8,8,8,8,8,8,8,4",  # suits equal, not whole decks
        "--decks 1 --remove K,K,K,K",  # suits unknown, rank counts multiples of four
        "--decks 3000 --remove 5",  # beyond the kernel's range: Python integers
        "--decks 1000000 --remove 5S",  # numbers beyond 128 bits
        "--decks=6 --remove=A,A,10,t,kS,k",
        "--remove 5 --decks 4",
        '--decks 8 --remove "5,5"',
    ]
    records = check_batch(cli, lines)
    assert records[5]["shoe"] == {"dealing": "A", "decks": "inf"}
    assert int(str(records[10]["denominator"])) > 2**128


def test_batch_with_decimals_breakdown_commission_and_chosen_bets(cli) -> None:
    from solver.punto import bets_from_names

    lines = depleted_lines(3, (2, 8, 100), 2)
    check_batch(cli, lines, ("--digits", "5"), digits=5)
    check_batch(cli, lines, ("--breakdown",), breakdown=True)
    check_batch(cli, lines, ("--commission", "1/25"), commission="1/25")
    bets = bets_from_names("banker:1/25,tie_on_7:45,player_pair,perfect_pairs", "1/20")
    check_batch(cli, lines, ("--bets", "banker:1/25,tie_on_7:45,player_pair,perfect_pairs"), bets=bets)


def _outcome(read, line: str) -> object:
    """What ``read`` makes of a shoe line: the shoe, or its one-line error."""
    from solver.errors import InputError

    try:
        return read(line)
    except InputError as e:
        return str(e)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "--decks",
                "--shoe",
                "--remove",
                "--decks=",
                "--remove=",
                "8",
                "1",
                "inf",
                "0",
                "K",
                "KS",
                "10h",
                "5,5",
                "A,A,A,A,A",
                "4,1,1,1,1,1,1,1,1,1",
                "1,2",
                "'5'",
                "-5",
                ",",
                "--bogus",
                "#",
                "x",
                "2,2,2,2,2,2,2,2,2,2,2,2,2",
            ]
        ),
        max_size=6,
    )
)
def test_the_quick_reading_of_a_line_is_the_parsers(words: list[str]) -> None:
    """A line read directly gives the shoe, or the error, that ``shlex`` and the options' parser give."""
    from solver.cli.shoe_lines import parse_line, slow_shoe

    line = " ".join(w if not w.endswith("=") else w + "8" for w in words).split("#")[0].strip()
    if not line:
        return
    assert _outcome(parse_line, line) == _outcome(slow_shoe, line), line


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=1, max_size=60), st.sampled_from(["suits", "ranks", "values", "mixed"]))
def test_the_quick_removal_is_the_shoes(cards: list[int], how: str) -> None:
    from solver.cli.shoe_lines import parse_line, slow_shoe

    names = [f"{RANK_NAMES[c // 4]}{'SHDC'[c % 4]}" for c in cards]
    if how == "ranks":
        names = [n[:-1] for n in names]
    elif how == "values":
        names = ["0" if n[0] in "1JQK" else n[:-1] for n in names]
    elif how == "mixed":
        names = [n if i % 2 else n[:-1] for i, n in enumerate(names)]
    line = "--decks 1 --remove " + ",".join(names)
    assert _outcome(parse_line, line) == _outcome(slow_shoe, line), line


def test_workers_give_the_lines_of_one_process(tmp_path) -> None:
    """Two local processes, chunks of a few lines: the same bytes as one process, in input order (but for
    the command each line records)."""
    lines = depleted_lines(4, (1, 8, 100), 5)
    path = tmp_path / "shoes.txt"
    path.write_text("\n".join(lines) + "\n")
    env = {**__import__("os").environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    outs = []
    for extra in ([], ["--workers", "2"]):
        script = (
            "import sys\nfrom solver.cli import shoe_lines\nshoe_lines.CHUNK = 4\nfrom solver.cli import main\n"
            f"sys.exit(main(['punto', '--shoes', {str(path)!r}, *{extra!r}]))"
        )
        r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout)
    assert outs[1].replace(' --workers 2"', '"') == outs[0] and len(outs[0].splitlines()) == len(lines)


@pytest.mark.parametrize("extra", [[], ["--workers", "2"]], ids=["one process", "two workers"])
def test_a_stream_is_answered_line_by_line(extra: list[str]) -> None:
    """``(echo --remove 5; sleep 2; echo --remove 5,5) | baccarat punto --shoes -``: the first answer
    comes before the second line is even written (issue 28), then the second; a live shoe tracker. On
    worker processes too: the stream tells the executor when it is idle, so no answer waits for the next
    line (the executor asked for it before handing back the first answer)."""
    import select

    p = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "punto", "--shoes", "-", *extra],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert p.stdin is not None and p.stdout is not None
        p.stdin.write("--remove 5\n")
        p.stdin.flush()
        ready, _, _ = select.select([p.stdout], [], [], 600)  # a cold start compiles the kernels first
        assert ready, "no answer to the first line while the stream stays open"
        first = json.loads(p.stdout.readline())
        assert first["line"] == 1 and first["shoe"]["values"][5] == 31
        p.stdin.write("--remove 5,5\n")
        p.stdin.close()
        second = json.loads(p.stdout.readline())
        assert second["line"] == 2 and second["shoe"]["values"][5] == 30
        assert p.wait(timeout=60) == 0
    finally:
        p.kill()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(' !"#\\~\x7f\t\x00Aé☺0,5'), max_size=8), max_size=5))
def test_the_lines_texts_are_written_as_json_dumps_writes_them(texts: list[str]) -> None:
    """The texts a batch's lines carry (``input``), escaped at once for a whole chunk where they are plain,
    each where not: byte for byte what ``json.dumps`` writes between the quotes."""
    from solver.report.punto_batch import json_texts

    joined, starts = json_texts(texts)
    assert joined == "".join(json.dumps(t)[1:-1] for t in texts).encode()
    assert [joined[starts[i] : starts[i + 1]] for i in range(len(texts))] == [json.dumps(t)[1:-1].encode() for t in texts]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 3),
    st.lists(st.integers(0, 51), max_size=12, unique=True),
    st.sampled_from(["suits", "ranks", "values", "whole ranks", "whole suits"]),
)
def test_a_shoes_shape_and_integers_are_what_its_spec_writes(decks: int, cards: list[int], how: str) -> None:
    """The compiled shapes (``spec_shapes``, which choose a line's template): from a shoe's shape and
    integers alone, its ``spec()`` is rebuilt exactly, and the shape's kind is the shoe's (the shapes of
    equal suits and of unknown suits write the same keys). Cards taken out by rank and suit, by rank,
    by value, four of a rank (equal suits stay possible) or a card of every rank in one suit."""
    from solver.count.shoe_arrays import kind_of, shoe_arrays
    from solver.report.punto_batch import SHAPE_KIND, spec_shapes

    if how == "whole ranks":
        names = [RANK_NAMES[r] for r in sorted({c // 4 for c in cards}) for _ in range(4)]
    elif how == "whole suits":
        names = [f"{r}{'SHDC'[c % 4]}" for c in cards[:1] for r in RANK_NAMES]
    else:
        names = [f"{RANK_NAMES[c // 4]}{'SHDC'[c % 4]}" for c in cards]
        if how == "ranks":
            names = [n[:-1] for n in names]
        elif how == "values":
            names = ["0" if n[0] in "1JQK" else n[:-1] for n in names]
    shoes = [Shoe.decks(decks).remove(names), Shoe.infinite(), Shoe.from_ranks([4 * decks] * 13)]
    shapes, ints = spec_shapes(*shoe_arrays(shoes))
    for shoe, shape, row in zip(shoes, shapes.tolist(), ints.tolist()):
        values, ranks, suits, decks_of = row[:10], row[10:23], row[23:75], row[75]
        rebuilt: dict[str, object] = {
            0: {"dealing": "B", "values": values, "decks": decks_of, "ranks": ranks},
            1: {"dealing": "B", "values": values, "ranks": ranks},
            2: {"dealing": "B", "values": values, "ranks": ranks, "suits": suits},
            3: {"dealing": "B", "values": values, "ranks": ranks, "suits": None},
            4: {"dealing": "B", "values": values, "ranks": ranks},
            5: {"dealing": "B", "values": values},
            6: {"dealing": "A", "decks": "inf"},
        }[shape]
        assert rebuilt == shoe.spec(), (names, shape)
        assert shape == 6 or SHAPE_KIND[shape] == kind_of(shoe)


def test_the_kernels_are_taken_where_they_pay(monkeypatch) -> None:
    """Compiling the batch kernels takes about 40 s of CPU, a shoe in Python 1.5 to 4 ms: a small file or a
    stream goes one shoe at a time unless the kernels are on disk; workers and long files take them."""
    from solver.cli import shoes

    monkeypatch.undo()  # the real use_kernels (this module's fixture replaced it)
    monkeypatch.setattr(shoes, "kernels_cached", lambda: False)
    assert not shoes.use_kernels(None, None, 5) and not shoes.use_kernels(None, None, None)
    assert shoes.use_kernels(None, None, shoes.COMPILE_LINES) and shoes.use_kernels(2, None, 5)
    monkeypatch.setattr(shoes, "kernels_cached", lambda: True)
    assert shoes.use_kernels(None, None, 5) and shoes.use_kernels(None, None, None)


def test_a_first_small_batch_answers_without_compiling(tmp_path) -> None:
    """With no kernel on disk (numba's cache moved to an empty folder) a few lines and a stream are
    answered one shoe at a time, numba never imported (so nothing compiles: on a fresh install the
    first answer comes in a fraction of a second, not after 40 s), byte for byte the kernels' lines."""
    import os

    from solver.punto import catalogue

    lines = ["--decks 8 --remove 5S,KH,0", "--decks 2 --remove K", "--shoe 13,1,1,1,1,1,1,1,1,1", "--decks inf"]
    script = (
        "import sys\nfrom solver.cli import main\ncode = main(['punto', '--shoes', '-'])\n"
        "sys.stderr.write('numba loaded' if 'numba' in sys.modules else 'numba not loaded')\nsys.exit(code)"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "empty"), "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    r = subprocess.run(
        [sys.executable, "-c", script], input="\n".join(lines) + "\n", env=env, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0 and r.stderr.endswith("numba not loaded"), r.stderr
    options = {"bets": catalogue("1/20")}
    from solver.cli.shoe_lines import slow_shoe

    for n, (text, line) in enumerate(zip(lines, r.stdout.splitlines(), strict=True), start=1):
        assert line == expected_line(line, n, text, slow_shoe(text), options)


def test_a_long_stream_takes_the_kernels_once_it_has_paid_for_them(cli, monkeypatch) -> None:
    """A stream begun one shoe at a time (no kernel on disk) goes over to the kernels after PYTHON_LINES
    lines, in the middle of its chunks: every line as the one-shoe route writes it, in order."""
    from solver.cli import shoe_lines, shoes

    monkeypatch.undo()  # the real use_kernels
    monkeypatch.setattr(shoes, "kernels_cached", lambda: False)
    monkeypatch.setattr(shoes, "PYTHON_LINES", 2)
    monkeypatch.setattr(shoe_lines, "CHUNK", 2)
    priced: list[int] = []
    real = shoes.price_chunk
    monkeypatch.setattr(shoes, "price_chunk", lambda pricer, task: priced.append(len(task.values)) or real(pricer, task))
    lines = depleted_lines(4, (8,), 7)
    check_batch(cli, lines)
    assert priced == [2, 2, 1]  # lines 3 to 7 by the kernels, the first two in Python
