"""Games written in Gambit's text formats: a game tree as an extensive form (``.efg``), a table of pure
strategies as a strategic form (``.nfg``), and either read back as a ``pygambit.Game`` where pygambit is
installed (Gambit's documentation, "Game representation formats").

A :class:`GameTree` is given by its *plays*: each play is a sequence of steps, a chance move's
:class:`Reveal`, a player's :class:`Move` or the final :class:`Result`, with an exact integer weight.
Plays that share their first steps share those nodes, so the tree is the trie of its plays:

* a node whose next steps are reveals (or results) is a chance node; the probability of each branch is
  the weight below it over the weight below the node, written as a reduced fraction;
* a node whose next steps are moves is a decision node of the moves' player, in the information set the
  moves name (one set of actions for every decision, in :attr:`GameTree.actions` order);
* a result ends a play at a terminal node with that outcome's payoffs (exact rationals).

A chance node with a single branch (probability 1) is left out: its one child takes its place.

A play's weight counts its chance events only (the players' choices are not in it), so the weights
below a decision node are the same along each of its actions; that is checked, and so is every action
being there. Information sets are numbered per player in the order a depth-first traversal meets them,
the order Gambit lists a behaviour profile in (:attr:`GameTree.infosets`).

>>> tree = GameTree(
...     "coin", "", ("Row", "Column"), ("up", "down"),
...     (Outcome("one", (Fraction(1), Fraction(-1))), Outcome("two", (Fraction(-1), Fraction(1, 2)))),
...     (Reveal("heads"), Move(0, "h", 0), Move(0, "h", 1), Result(0), Result(1)),
...     {(0, 1, 3): 1, (0, 2, 4): 1, (4,): 2},
... )
>>> print(tree.efg())
EFG 2 R "coin" { "Row" "Column" }
""
<BLANKLINE>
c "" 1 "" { "heads" 1/3 "two" 2/3 } 0
p "" 1 1 "h" { "up" "down" } 0
t "" 1 "one" { 1 -1 }
t "" 2 "two" { -1 1/2 }
t "" 2 "two" { -1 1/2 }
<BLANKLINE>
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from solver.errors import InputError, SolverError

PYGAMBIT = "pygambit>=17.0.0b2"
"""The pygambit this package is tested with (the first release with a wheel for Linux and Python 3.11–3.13)."""


class GambitForm(StrEnum):
    """Which of Gambit's formats a game is written in."""

    EFG = "efg"
    """The extensive form: a game tree with chance and information sets."""
    NFG = "nfg"
    """The normal (strategic) form: every pure strategy of every player, and the payoffs."""


@dataclass(frozen=True)
class Outcome:
    """A terminal consequence: its label and each player's payoff (exact)."""

    label: str
    payoffs: tuple[Fraction, ...]


@dataclass(frozen=True)
class Reveal:
    """A chance move's branch: what chance deals, as a label."""

    label: str


@dataclass(frozen=True)
class Move:
    """A player's action (index into :attr:`GameTree.actions`) in the information set labelled ``infoset``;
    ``player`` indexes :attr:`GameTree.players`."""

    player: int
    infoset: str
    action: int


@dataclass(frozen=True)
class Result:
    """The end of a play: the outcome (index into :attr:`GameTree.outcomes`)."""

    outcome: int


Step = Reveal | Move | Result


def quoted(text: str) -> str:
    """A label as Gambit's formats write it: in double quotes, a quote or backslash escaped."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def fraction_str(x: Fraction | int) -> str:
    """An exact number as Gambit reads it: ``-19/20``, ``3`` (a float is refused: Gambit files are exact)."""
    if not isinstance(x, Fraction | int) or isinstance(x, bool):
        raise TypeError(f"Gambit's files here hold exact numbers, got {x!r}")
    return str(Fraction(x))


def _payoffs(values: Sequence[Fraction]) -> str:
    return "{ " + " ".join(fraction_str(v) for v in values) + " }"


@dataclass(frozen=True, eq=False)
class GameTree:
    """An extensive game as the trie of its weighted plays (module docstring).

    Attributes:
        title, comment: the file's title and comment.
        players: the personal players, in Gambit's order (player 1 first).
        actions: every decision's actions, in order.
        outcomes: the terminal outcomes.
        steps: the steps the plays index.
        plays: each play (a tuple of indices into ``steps``, ending in a :class:`Result`) with its weight;
            plays of weight 0 are left out.
    """

    title: str
    comment: str
    players: tuple[str, ...]
    actions: tuple[str, ...]
    outcomes: tuple[Outcome, ...]
    steps: tuple[Step, ...]
    plays: Mapping[tuple[int, ...], int]

    @cached_property
    def _written(self) -> tuple[list[str], tuple[tuple[str, ...], ...], int]:
        return _write_tree(self)

    def efg(self) -> str:
        """The game in Gambit's ``.efg`` format (version 2), exact rationals throughout.

        Raises:
            SolverError: the plays are not a game (weights differ along a decision's actions, a decision
                lacks an action, or a node mixes chance and decisions): a bug in the caller.
        """
        return "\n".join(self._written[0]) + "\n"

    @property
    def infosets(self) -> tuple[tuple[str, ...], ...]:
        """Per player, the labels of his information sets in Gambit's order (first met depth-first)."""
        return self._written[1]

    @property
    def total(self) -> int:
        """The weight at the root: the plays' weights summed along one pure strategy profile."""
        return self._written[2]

    @property
    def nodes(self) -> int:
        """The number of nodes of the tree."""
        return len(self._written[0]) - 3

    def pygambit(self) -> Any:
        """This game as a ``pygambit.Game``, read by Gambit from :meth:`efg`.

        Raises:
            InputError: pygambit is not installed.
        """
        return _pygambit().read_efg(io.StringIO(self.efg()))

    def profile(self, first: Sequence[Mapping[str, Fraction]]) -> tuple[Any, Any]:
        """``(pygambit game, profile)``: this game read by Gambit and a rational behaviour profile of it, in
        which player p plays the first of two actions with probability ``first[p][label]`` in his set
        ``label`` (every set of :attr:`infosets` must be given; others are ignored).

        Raises:
            InputError: pygambit is not installed.
            SolverError: the decisions do not have two actions, or a probability outside [0, 1].
        """
        if len(self.actions) != 2:
            raise SolverError(f"{self.title}: a profile by first-action probabilities needs two actions")
        data = []
        for sets, given in zip(self.infosets, first):
            rows = []
            for label in sets:
                p = Fraction(given[label])
                if not 0 <= p <= 1:
                    raise SolverError(f"{self.title}: probability {p} in {label!r} is not in [0, 1]")
                rows.append([fraction_str(p), fraction_str(1 - p)])
            data.append(rows)
        g = self.pygambit()
        return g, g.mixed_behavior_profile(data=data, rational=True)

    def read_profile(self, profile: Any) -> list[dict[str, Fraction]]:
        """A pygambit behaviour profile of this game read back: per player, the probability of the first
        action in each of his sets (pygambit 17 lists a player's sets in :attr:`infosets` order)."""
        out = []
        for player, sets in zip(self.players, self.infosets):
            behaviour = list(profile[player])
            if len(behaviour) != len(sets):
                raise SolverError(f"{self.title}: the profile has {len(behaviour)} sets for {player}, the game {len(sets)}")
            out.append({label: Fraction(mixed[self.actions[0]]) for label, (_, mixed) in zip(sets, behaviour)})
        return out


def _write_tree(tree: GameTree) -> tuple[list[str], tuple[tuple[str, ...], ...], int]:
    """The ``.efg`` lines of a tree, its information sets per player, and its root weight."""
    plays = sorted((p, w) for p, w in tree.plays.items() if w)
    if not plays:
        raise SolverError(f"{tree.title}: a game needs at least one play of positive weight")
    for p, w in plays:
        if w < 0 or not p or not isinstance(tree.steps[p[-1]], Result) or any(isinstance(tree.steps[s], Result) for s in p[:-1]):
            raise SolverError(f"{tree.title}: every play ends in one result and has a positive weight")
    header = f"EFG 2 R {quoted(tree.title)} {{ {' '.join(quoted(p) for p in tree.players)} }}"
    lines = [header, quoted(tree.comment), ""]
    infosets: list[dict[str, int]] = [{} for _ in tree.players]
    chance = [0]
    steps = tree.steps
    actions = "{ " + " ".join(quoted(a) for a in tree.actions) + " }"

    def node(lo: int, hi: int, d: int) -> int:
        """Write the node shared by plays[lo:hi] at depth d (its subtree after it); return its weight."""
        first = plays[lo][0]
        if len(first) == d:
            outcome = tree.outcomes[steps[first[-1]].outcome]  # type: ignore[union-attr]
            lines.append(f't "" {steps[first[-1]].outcome + 1} {quoted(outcome.label)} {_payoffs(outcome.payoffs)}')  # type: ignore[union-attr]
            return plays[lo][1]
        groups = []
        k = lo
        while k < hi:
            s = plays[k][0][d]
            e = k + 1
            while e < hi and plays[e][0][d] == s:
                e += 1
            groups.append((s, k, e))
            k = e
        kinds = {isinstance(steps[s], Move) for s, _, _ in groups}
        if len(kinds) > 1:
            raise SolverError(f"{tree.title}: a node mixes chance and a decision")
        if kinds == {False} and len(groups) == 1:  # chance with one branch (probability 1): no node
            return node(groups[0][1], groups[0][2], d + 1)
        at = len(lines)
        lines.append("")
        if kinds == {True}:
            moves = [steps[s] for s, _, _ in groups]
            first_move = moves[0]
            assert isinstance(first_move, Move)
            if [m.action for m in moves] != list(range(len(tree.actions))) or len({(m.player, m.infoset) for m in moves}) != 1:  # type: ignore[union-attr]
                raise SolverError(f"{tree.title}: the decision at {first_move.infoset!r} does not offer every action once")
            numbers = infosets[first_move.player]
            number = numbers.setdefault(first_move.infoset, len(numbers) + 1)
            lines[at] = f'p "" {first_move.player + 1} {number} {quoted(first_move.infoset)} {actions} 0'
            weights = {node(a, b, d + 1) for _, a, b in groups}
            if len(weights) != 1:
                raise SolverError(f"{tree.title}: the weights differ along the actions at {first_move.infoset!r}")
            return weights.pop()
        chance[0] += 1
        number = chance[0]
        below = [(s, node(a, b, d + 1)) for s, a, b in groups]
        mass = sum(w for _, w in below)
        branches = " ".join(f"{quoted(_branch_label(tree, s))} {fraction_str(Fraction(w, mass))}" for s, w in below)
        lines[at] = f'c "" {number} "" {{ {branches} }} 0'
        return mass

    total = node(0, len(plays), 0)
    order = tuple(tuple(sorted(numbers, key=numbers.__getitem__)) for numbers in infosets)
    return lines, order, total


def _branch_label(tree: GameTree, step: int) -> str:
    s = tree.steps[step]
    if isinstance(s, Reveal):
        return s.label
    assert isinstance(s, Result)
    return tree.outcomes[s.outcome].label


@dataclass(frozen=True, eq=False)
class StrategicGame:
    """A game in strategic form: each player's pure strategies (labels) and his payoff array, indexed by
    one strategy of each player (exact Fractions, object dtype)."""

    title: str
    comment: str
    players: tuple[str, ...]
    strategies: tuple[tuple[str, ...], ...]
    payoffs: tuple[np.ndarray, ...]

    def nfg(self) -> str:
        """The game in Gambit's ``.nfg`` format (payoff version): one line per contingency, the first
        player's strategy changing fastest, each player's payoff in turn."""
        shape = tuple(len(s) for s in self.strategies)
        if any(p.shape != shape for p in self.payoffs) or len(self.payoffs) != len(self.players):
            raise SolverError(f"{self.title}: one payoff array per player, of shape {shape}")
        head = [
            f"NFG 1 R {quoted(self.title)} {{ {' '.join(quoted(p) for p in self.players)} }}",
            "{ " + " ".join("{ " + " ".join(quoted(s) for s in strategies) + " }" for strategies in self.strategies) + " }",
            quoted(self.comment),
            "",
        ]
        body = []
        for index in np.ndindex(*reversed(shape)):
            cell = tuple(reversed(index))
            body.append(" ".join(fraction_str(p[cell]) for p in self.payoffs))
        return "\n".join(head + body) + "\n"

    def pygambit(self) -> Any:
        """This game as a ``pygambit.Game``, read by Gambit from :meth:`nfg`.

        Raises:
            InputError: pygambit is not installed.
        """
        return _pygambit().read_nfg(io.StringIO(self.nfg()))


def _pygambit() -> Any:
    try:
        import pygambit
    except ImportError:
        raise InputError(f"a pygambit.Game needs Gambit's Python package: pip install '{PYGAMBIT}' (or write the file)") from None
    return pygambit
