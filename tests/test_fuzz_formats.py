"""A fuzz test of every file format users write (issue 29, class 6): bet files, house tableaux,
policies, coup files, certificates, strategy files and the shoe syntax, each "valid, or one line and
exit code 2". Inputs are valid files mutated (characters inserted, deleted or replaced, lines cut),
documents built at random (deep, huge numbers, odd types) and raw bytes.

The default run spends a modest budget (about a dozen examples a format, derandomised, so the suite
stays quick and its result stable); ``-m slow`` spends a large one, at random.
"""

from __future__ import annotations

import io
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from solver.errors import BaccaratError

ROOT = Path(__file__).resolve().parents[1]
CERTIFICATE = ROOT / "tests" / "data" / "certificates" / "b1-i1-casino-c0.json"

BUDGETS = [pytest.param(12, id="modest"), pytest.param(600, id="large", marks=pytest.mark.slow)]

# -- inputs ------------------------------------------------------------------------------------------

PIECES = st.sampled_from(
    ['"', "'", "[", "]", "{", "}", ",", ":", "=", "\n", "#", "\\", "/", ".", "-", "e", "1e999999", "9" * 120, "1/0",
     "0", "7", "[[bet]]", "[[bet.tier]]", "true", "null", "NaN", "inf", "\ufeff", "\x00", "é", "∞", " "]
)  # fmt: skip
TEXT = st.one_of(PIECES, st.text(max_size=8))


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str]) -> str:
    """One of ``seeds`` with a few characters inserted, deleted or replaced, or cut short."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace", "cut"]))
        if op == "insert":
            text = text[:at] + draw(TEXT) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 6)) :]
        elif op == "replace":
            text = text[:at] + draw(TEXT) + text[at + 1 :]
        else:
            text = text[:at]
    return text


JSON_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**130), 10**130),
        st.sampled_from(["1e1000000", "1e-99999", "1/3", "0.05", "draw", "stand", "free", "tie", "-1", "∞"]),
        st.text(max_size=6),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)


def documents(seeds: list[str], keys: list[str]) -> st.SearchStrategy[bytes]:
    """Mutated seeds, documents built at random (on the format's own keys), nesting bombs, raw bytes."""
    built = st.dictionaries(st.sampled_from(keys), JSON_VALUES, max_size=5).map(json.dumps)
    deep = st.integers(30, 3000).map(lambda n: "[" * n + "]" * n)
    text = st.one_of(mutated(seeds), built, deep)
    return st.one_of(text.map(lambda t: t.encode("utf-8", "surrogatepass")), st.binary(max_size=64))


# -- the check -----------------------------------------------------------------------------------------


def valid_or_one_line(read: Callable[[], object]) -> None:
    """``read()`` returns, or raises a BaccaratError of exit code 2 whose message is one line."""
    try:
        read()
    except BaccaratError as e:
        message = str(e)
        assert e.exit_code == 2, message
        assert message and "\n" not in message and "\r" not in message, repr(message)
        assert "Traceback" not in message


BOMBS = {
    # the reproductions, tried first in every format (with the format's own syntax)
    ".json": [
        b"[" * 5000 + b"]" * 5000,
        b'{"a": ' + b"9" * 5000 + b"}",
        b'{"a": 1e1000000}',
        b'{"a": -1e-1000000}',
        b'{"a": NaN}',
    ],
    ".toml": [
        b"a = " + b"[" * 5000 + b"]" * 5000,
        b"a = " + b"9" * 5000,
        b"a = 1e1000000",
        b"a = " + b"{b = " * 3000 + b"1" + b"}" * 3000,
    ],
    ".txt": [b"x" * 200_000, b"\0" * 10, b"\xff\xfe"],
}


def fuzz(budget: int, inputs: st.SearchStrategy[bytes], suffix: str, read: Callable[[Path], object]) -> None:
    """Write each input to a file named ``*suffix`` and read it with ``read`` (the :data:`BOMBS` first)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"input{suffix}"

        def bombs(test: Callable[[bytes], None]) -> Callable[[bytes], None]:
            for data in BOMBS[suffix]:
                test = example(data)(test)
            return test

        @settings(
            max_examples=budget,
            deadline=None,
            derandomize=budget < 100,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @bombs
        @given(inputs)
        def run(data: bytes) -> None:
            path.write_bytes(data)
            valid_or_one_line(lambda: read(path))

        run()


# -- the formats -----------------------------------------------------------------------------------------

BET_TOML = """[[bet]]
name = "tie_on_7"
description = "Tie on a total of 7, pays 45 to 1"

[[bet.tier]]
pays = 45
when = { winner = "tie", banker_total = 7 }

[[bet]]
name = "stingy"
[[bet.tier]]
pays = "3/2"
label = "win by 9"
when = { winner = "player", natural = false, margin = 9 }
"""
BET_JSON = '{"bet": [{"name": "tie_on_7", "tier": [{"pays": 45.5, "when": {"winner": "tie", "banker_total": 7}}]}]}'
BET_KEYS = ["bet", "name", "tier", "pays", "when", "label", "description"]


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_bet_files(budget: int, suffix: str) -> None:
    from solver.punto import read_bet_file

    fuzz(budget, documents([BET_TOML, BET_JSON], BET_KEYS), suffix, read_bet_file)


HOUSE_TOML = """name = "my-house"
commission = "1/20"
tie_pays = 8
[player]
0 = "draw"
1 = "draw"
2 = "draw"
3 = "draw"
4 = "draw"
5 = "free"
6 = "stand"
7 = "stand"
[banker]
0 = "DDDDDDDDDDD"
1 = "DDDDDDDDDDD"
2 = "DDDDDDDDDDD"
3 = "DDDDDDDDSFD"
4 = "SSDDDDDDSSD"
5 = "SSSSFDDDSSD"
6 = "SSSSSSDDSSS"
7 = "SSSSSSSSSSS"
"""


def _house_json() -> str:
    from solver.rules.house import HOUSES

    return json.dumps(HOUSES["casino"].as_dict())


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_house_tableaux(budget: int, suffix: str) -> None:
    from solver.rules.house import read_house_rules

    keys = ["name", "description", "commission", "tie_pays", "player", "banker"]
    fuzz(budget, documents([HOUSE_TOML, _house_json()], keys), suffix, read_house_rules)


POLICY = '{"name": "two banco players", "stake": 20, "seats": {"3": {"banco": "solo", "banco_up_to": 800}, "7": {"banco": "avec", "suivi": false, "bankroll": 12.5}}}'  # noqa: E501


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("game", ["chemin", "banque"])
def test_policies(budget: int, game: str) -> None:
    from solver.sessions.config import TableConfig
    from solver.sessions.policy import load_policies

    table = TableConfig(game)
    keys = ["name", "seats", "stake", "bankroll", "banco", "banco_up_to", "suivi", "bank", "pass_after", "bid"]
    fuzz(budget, documents([POLICY], keys), ".json", lambda p: load_policies(str(p), table))


def _strategy_json() -> str:
    from solver.strategy import KEMENY_SNELL

    player, banker = KEMENY_SNELL.tables()
    return json.dumps({"name": "ks", "player": player.tolist(), "banker": banker.tolist()}, default=str)


@pytest.mark.parametrize("budget", BUDGETS)
def test_strategy_files(budget: int) -> None:
    from solver.cli.dealing import strategy_file

    fuzz(budget, documents([_strategy_json()], ["player", "banker", "name"]), ".json", lambda p: strategy_file(str(p)))


def _coup_seeds() -> list[str]:
    from solver.cli.crosscheck import HELP_COUPS

    return ["\n".join(HELP_COUPS) + "\n", "shoe\n" + "2,K,3,3,7,4;B\n" * 3 + "# a comment\n5,3,K,Q,-,7;P\n"]


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("game", ["punto", "chemin"])
def test_coup_files(budget: int, game: str) -> None:
    from solver.crosscheck import read_coups
    from solver.simulate import default_payouts
    from solver.store.files import open_text
    from solver.strategy import KEMENY_SNELL, PUNTO_STRATEGY

    strategy = PUNTO_STRATEGY if game == "punto" else KEMENY_SNELL
    payouts = default_payouts(game, __import__("fractions").Fraction(1, 20))

    def read(path: Path) -> object:
        with open_text(str(path), sys.stdin) as stream:
            return read_coups(stream, path.name, strategy, game, payouts)

    lines = st.lists(mutated(_coup_seeds()).map(lambda t: t.replace("\n", ";")), max_size=4).map("\n".join)
    inputs = st.one_of(mutated(_coup_seeds()), lines).map(lambda t: t.encode("utf-8", "surrogatepass"))
    fuzz(budget, st.one_of(inputs, st.binary(max_size=64)), ".txt", read)


@pytest.mark.parametrize("budget", BUDGETS)
def test_shoe_syntax(budget: int) -> None:
    from solver.cards import parse_decks, parse_shoe
    from solver.cli.shoe_lines import Lines

    def read_shoe_lines(text: str) -> object:
        """Every line of a ``punto --shoes`` file read as the batch reads it (the quick reading into arrays,
        the slow one where it must), its first bad line or its lack of any shoe raised at the end."""
        lines = Lines(io.StringIO(text), "shoes.txt")
        chunks = list(lines)
        lines.finish()
        return chunks

    words = st.one_of(mutated(["8", "1,2,8,inf", "128,32,32,32,32,32,32,32,32,32", "5,5,K,0,9", "A,2,10,J,Q,K"]), TEXT)

    @settings(max_examples=budget * 4, deadline=None, derandomize=budget < 100, database=None)
    @given(words, words, st.sampled_from(["decks", "shoe", "remove", "list", "lines"]))
    def run(a: str, b: str, how: str) -> None:
        if how == "decks":
            valid_or_one_line(lambda: parse_shoe(decks=a, remove=b))
        elif how == "shoe":
            valid_or_one_line(lambda: parse_shoe(shoe=a, remove=b))
        elif how == "remove":
            valid_or_one_line(lambda: parse_shoe(remove=a))
        elif how == "list":
            valid_or_one_line(lambda: parse_decks(a))
        else:
            text = f"--decks {a} --remove {b}\n--shoe {b}\n{a}\n"
            valid_or_one_line(lambda: read_shoe_lines(text))

    run()


def _checker():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(CERTIFICATE.parents[3] / "proofs"))
    try:
        import check
    finally:
        sys.path.pop(0)
    return check


@pytest.mark.parametrize("budget", BUDGETS)
def test_certificates(budget: int) -> None:
    """The checker never raises: a certificate is "ok", "fail" (exit 1) or "unusable" (exit 2), with a
    one-line reason. A mutation that keeps the JSON readable keeps the seed's shoe (a new shoe is a new
    enumeration, a second each; the shoe's own bounds are tested in test_proof_checker.py)."""
    check = _checker()
    seed = CERTIFICATE.read_text(encoding="utf-8")
    shoe = json.loads(seed)["shoe"]
    keys = ["format", "version", "shoe", "model", "value", "ponte", "banker", "dominance", "claims", "cases"]

    def read(path: Path) -> None:
        data = path.read_bytes()
        try:
            cert = json.loads(data)
            if isinstance(cert, dict) and cert.get("shoe") != shoe and "shoe" in cert:
                cert["shoe"] = shoe
                path.write_text(json.dumps(cert), encoding="utf-8")
        except (ValueError, RecursionError):
            pass
        result = check.check_file(path)
        assert result.status in ("ok", "fail", "unusable") and result.exit_code in (0, 1, 2)
        line = result.line(path.name)
        assert "\n" not in line and "Traceback" not in line, line

    fuzz(budget, documents([seed], keys), ".json", read)
