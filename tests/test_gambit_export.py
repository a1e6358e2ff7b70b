"""The Gambit exports (.efg, .nfg) read back by a reader of our own and held against the additive games.

The reader below is written from Gambit's documentation of the formats, independently of the writer
(solver/store/gambit.py): it parses each node line, checks that every chance move's probabilities sum to
one exactly, and evaluates a behaviour profile by walking the tree. Every chemin de fer model and the
small banque models are checked: the expected payoffs of both (all three) players at a solution, read in
the file, equal the additive game's exact values. No pygambit here (tests/test_gambit_solve.py uses it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from solver.banque.forms import payoff
from solver.banque.gambit import game_tree as banque_tree
from solver.banque.game import RESULT_1, RESULT_2, BanqueModel, banker_payoff, build_banque
from solver.cards import Shoe
from solver.chemin.gambit import gambit_text, game_tree, strategic_game
from solver.chemin.game import build_game
from solver.chemin.guarantees import normal_form
from solver.chemin.solve import solve
from solver.errors import ModelError, SolverError
from solver.store.gambit import GameTree, Move, Outcome, Result, Reveal
from solver.strategy import Side

SHOES = {"A": Shoe.infinite(), "B": Shoe.decks(6)}
MODELS = [(d, info, fr) for d in "AB" for info in (1, 2, 3) for fr in ("casino", "parlor")]
TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|(\S+)')


def tokens(text: str) -> list[str]:
    """The words of a line of Gambit's formats: quoted labels unquoted (escapes undone), other words as they are."""
    return [re.sub(r"\\(.)", r"\1", q) if bare == "" else bare for q, bare in TOKEN.findall(text)]


def efg_payoffs(text: str, draw: Callable[[int, str], Fraction]) -> tuple[list[Fraction], int, dict[int, set[str]]]:
    """Each player's expected payoff in an .efg file when player p draws with probability ``draw(p, label)``
    in his information set ``label`` (actions: draw, stand); also the number of nodes and each player's sets."""
    lines = text.splitlines()
    words = tokens(lines[0])
    assert words[:3] == ["EFG", "2", "R"], lines[0]
    players = words[words.index("{") + 1 : words.index("}")]
    body: Iterator[str] = iter(line for line in lines[2:] if line.strip())
    count = [0]
    seen: dict[int, set[str]] = {}

    def node() -> list[Fraction]:
        w = tokens(next(body))
        count[0] += 1
        inside = w[w.index("{") + 1 : w.index("}")]
        if w[0] == "t":
            assert len(inside) == len(players)
            return [Fraction(x) for x in inside]
        if w[0] == "c":
            probs = [Fraction(p) for p in inside[1::2]]
            assert sum(probs) == 1 and all(p > 0 for p in probs), w
            children = [node() for _ in probs]
            return [sum((p * c[k] for p, c in zip(probs, children)), Fraction(0)) for k in range(len(players))]
        assert w[0] == "p" and inside == ["draw", "stand"], w
        player, label = int(w[2]), w[4]
        seen.setdefault(player, set()).add(label)
        x = draw(player, label)
        a, b = node(), node()
        return [x * u + (1 - x) * v for u, v in zip(a, b)]

    result = node()
    assert next(body, None) is None, "lines after the tree"
    return result, count[0], seen


@pytest.mark.parametrize("dealing,info,freedom", MODELS)
def test_every_chemin_tree_gives_the_games_exact_payoffs(dealing: str, info: int, freedom: str) -> None:
    g = build_game(SHOES[dealing], info, freedom, Fraction(1, 20))
    s = solve(build_game(SHOES[dealing], info, freedom))  # any exact strategy profile will do: the zero-sum optimum
    q, r = list(s.q), list(s.r)
    draws = {(1, str(k)): x for k, x in zip(g.ponte_sets, q)} | {(2, str(k)): x for k, x in zip(g.banker_sets, r)}
    tree = game_tree(g)
    (ponte, banker), nodes, seen = efg_payoffs(tree.efg(), lambda p, label: draws[(p, label)])
    assert banker == g.net.value(q, r)  # with the 5 % commission
    assert ponte == -g.gross.value(q, r)
    assert nodes == tree.nodes
    # The sets in the file are the reachable ones, named as the game names them, in Gambit's order.
    assert seen[1] == {str(k) for k, inert in zip(g.ponte_sets, g.inert_ponte) if not inert}
    assert {str(k) for k, i in zip(g.banker_sets, g.inert_banker) if not i} <= seen[2] <= {str(k) for k in g.banker_sets}
    assert set(tree.infosets[1]) == seen[2]


def test_kemeny_snell_tree_is_small_and_exact() -> None:
    tree = game_tree(build_game(Shoe.infinite(), 1, "parlor"))
    text = tree.efg()
    assert text.startswith('EFG 2 R "Chemin de fer A1 parlor, inf, commission 0" { "Ponte" "Banker" }\n')
    assert tree.infosets[0] == ("5",) and len(tree.infosets[1]) == 88
    assert tree.nodes == 1195 and "." not in text.split("\n", 3)[3]  # rationals only, never a decimal point
    # Kemeny and Snell's value at their solution (the ponte draws at 5 with probability 9/11), read in the file.
    s = solve(build_game(Shoe.infinite(), 1, "parlor"))
    draws = dict(zip(map(str, s.game.banker_sets), s.r))
    (ponte, banker), _, _ = efg_payoffs(text, lambda p, label: Fraction(9, 11) if p == 1 else draws[label])
    assert banker == -ponte == Fraction(679568, 53094899)


def nfg_payoffs(text: str) -> tuple[list[list[str]], list[np.ndarray]]:
    """The strategies and each player's payoff array of an .nfg file (payoff version), read independently."""
    words = tokens(text)
    assert words[:3] == ["NFG", "1", "R"]
    k = words.index("}", words.index("{"))
    players = words[words.index("{") + 1 : k]
    k += 1
    assert words[k] == "{"
    strategies, k = [], k + 1
    while words[k] == "{":
        e = words.index("}", k)
        strategies.append(words[k + 1 : e])
        k = e + 1
    assert words[k] == "}" and len(strategies) == len(players)
    numbers = [Fraction(x) for x in words[k + 2 :]]  # after the comment
    shape = tuple(len(s) for s in strategies)
    arrays = [np.empty(shape, dtype=object) for _ in players]
    cells = [tuple(reversed(c)) for c in np.ndindex(*reversed(shape))]  # the first player's strategy fastest
    assert len(numbers) == len(cells) * len(players)
    for n, cell in enumerate(cells):
        for p in range(len(players)):
            arrays[p][cell] = numbers[n * len(players) + p]
    return strategies, arrays


@pytest.mark.parametrize(
    "dealing,info", [("A", 1), ("A", 2), pytest.param("A", 3, marks=pytest.mark.slow), ("B", 1), ("B", 2), ("B", 3)]
)
def test_normal_form_file_is_the_normal_form(dealing: str, info: int) -> None:
    g = build_game(SHOES[dealing], info, "casino", Fraction(1, 20))
    nf = normal_form(g)
    strategies, (ponte, banker) = nfg_payoffs(gambit_text(g, "nfg"))
    assert (ponte == nf.ponte).all() and (banker == nf.banker).all()
    assert strategies[1][1] == nf.label(Side.BANKER, 1) and len(strategies[0]) == 2 ** len(g.ponte_sets)
    # The pure strategies' payoffs are the additive game's at 0/1 strategies (a row and a column at random).
    i, j = len(nf.rows) - 1, len(nf.columns) // 3
    q, r = [Fraction(x) for x in nf.rows[i]], [Fraction(x) for x in nf.columns[j]]
    assert banker[i, j] == g.net.value(q, r) and ponte[i, j] == -g.gross.value(q, r)


def test_normal_form_mixture_is_the_behaviour_strategy() -> None:
    s = solve(build_game(Shoe.decks(6), 2, "casino"))
    nf = normal_form(s.game)
    x, y = nf.mixture(Side.PONTE, s.q), nf.mixture(Side.BANKER, s.r)
    assert sum(x) == sum(y) == 1
    assert x @ nf.banker @ y == s.value and x @ nf.ponte @ y == -s.value


def test_parlor_normal_form_is_refused() -> None:
    g = build_game(Shoe.infinite(), 1, "parlor")
    with pytest.raises(ModelError, match=r"2\^1 x 2\^88"):
        normal_form(g)
    with pytest.raises(ModelError, match="too large"):
        strategic_game(g)


@pytest.mark.parametrize("info,second", [(1, "blind"), (1, "sees-first"), pytest.param(2, "blind", marks=pytest.mark.slow)])
def test_banque_tree_gives_the_games_exact_payoffs(info: int, second: str) -> None:
    shoe = Shoe.decks(6) if info == 1 else Shoe.infinite()
    g = build_banque(shoe, BanqueModel(info, second, "casino", Fraction(1, 50)))
    theta = Fraction(2, 5)
    # A profile with every side mixing somewhere: exact, otherwise arbitrary.
    x = [Fraction(3, 7)] * len(g.player1_sets)
    y = [Fraction(k % 3, 2) for k in range(len(g.player2_sets))]
    r = [Fraction(k % 5, 4) for k in range(len(g.banker_sets))]
    draws = [dict(zip(map(str, sets), v)) for sets, v in ((g.player1_sets, x), (g.player2_sets, y), (g.banker_sets, r))]
    tree = banque_tree(g, theta)
    pays, nodes, seen = efg_payoffs(tree.efg(), lambda p, label: draws[p - 1][label])
    assert pays[2] == payoff(g, banker_payoff(theta, g.model.tax)).value(x, y, r)
    assert pays[0] == -payoff(g, RESULT_1).value(x, y, r) and pays[1] == -payoff(g, RESULT_2).value(x, y, r)
    assert nodes == tree.nodes and [set(s) for s in tree.infosets] == [seen[1], seen[2], seen[3]]


def test_banque_theta_is_checked() -> None:
    g = build_banque(Shoe.infinite(), BanqueModel(1, "blind", "casino"))
    with pytest.raises(ModelError, match=r"theta must lie in \[0, 1\]"):
        banque_tree(g, Fraction(3, 2))


def test_tree_writer_refuses_what_is_not_a_game() -> None:
    two = (Outcome("a", (Fraction(1), Fraction(-1))), Outcome("b", (Fraction(-1), Fraction(1))))
    steps = (Reveal("x"), Move(0, "s", 0), Move(0, "s", 1), Result(0), Result(1))

    def tree(plays: dict[tuple[int, ...], int]) -> GameTree:
        return GameTree("t", "", ("P", "Q"), ("draw", "stand"), two, steps, plays)

    assert tree({(0, 1, 3): 2, (0, 2, 4): 2, (3,): 1}).total == 3
    with pytest.raises(SolverError, match="weights differ"):  # the choice changed chance's weight
        tree({(0, 1, 3): 2, (0, 2, 4): 1}).efg()
    with pytest.raises(SolverError, match="every action"):  # a decision with one action missing
        tree({(0, 1, 3): 2}).efg()
    with pytest.raises(SolverError, match="mixes chance and a decision"):
        tree({(1, 3): 1, (2, 4): 1, (3,): 1}).efg()
    with pytest.raises(SolverError, match="ends in one result"):
        tree({(0, 1): 1}).efg()


def test_labels_are_quoted() -> None:
    t = GameTree('say "hi"', "a\\b", ("P",), ("draw", "stand"), (Outcome("o", (Fraction(1),)),), (Result(0),), {(0,): 1})
    assert t.efg().splitlines()[:2] == ['EFG 2 R "say \\"hi\\"" { "P" }', '"a\\\\b"']


# -- the command line ---------------------------------------------------------------------------------


def test_cli_export_efg_and_nfg(cli, tmp_path: Path) -> None:
    ks = tmp_path / "ks.efg"
    r = cli(["chemin", "--decks", "inf", "--information", "1", "--freedom", "parlor", "--export", "efg", str(ks)])
    assert r.code == 0 and r.out == "" and "wrote" in r.err
    assert ks.read_text() == game_tree(build_game(Shoe.infinite(), 1, "parlor")).efg()
    again = cli(["chemin", "--decks", "inf", "--information", "1", "--freedom", "parlor", "--export", "efg", str(ks)])
    assert again.code == 2 and "exists; pass --force" in again.err
    nfg = tmp_path / "b1.nfg"
    r = cli(["chemin", "--decks", "6", "--commission", "1/20", "--export", "NFG", str(nfg)])
    assert r.code == 0
    assert nfg.read_text() == strategic_game(build_game(Shoe.decks(6), 1, "casino", Fraction(1, 20))).nfg()
    r = cli(["banque", "--decks", "inf", "--theta", "1/3", "--export", "efg", str(tmp_path / "b.efg")])
    assert r.code == 0
    text = (tmp_path / "b.efg").read_text()
    assert text.startswith('EFG 2 R "Baccara banque A1 blind casino, inf, theta 1/3, tax 0" { "Player 1" "Player 2" "Banker" }')


@pytest.mark.parametrize(
    "argv,message",
    [
        (["chemin", "--freedom", "parlor", "--export", "nfg", "x.nfg"], "2^1 x 2^88 entries; too large"),
        (["chemin", "--export", "gbt", "x.gbt"], "the form is efg (the game tree) or nfg"),
        (["chemin", "--decks", "1,2", "--export", "efg", "x.efg"], "give one shoe"),
        (["chemin", "--commission", "0..1/10", "--export", "efg", "x.efg"], "give one commission"),
        (["chemin", "--export", "efg", "x.efg", "--certificate", "c.json"], "give --export or --certificate"),
        (["banque", "--theta", "1/3,1/2", "--export", "efg", "x.efg"], "give one --theta"),
        (["banque", "--decks", "inf", "--export", "nfg", "x.nfg"], "2^1 x 2^1 x 2^204 pure profiles"),
    ],
)
def test_cli_export_errors(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    r = cli(argv)
    assert r.code == 2 and message in r.err and len(r.err.strip().splitlines()) == 1
    assert not any(tmp_path.iterdir())  # nothing written
