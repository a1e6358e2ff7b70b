"""Chemin de fer as a Gambit game: the extensive form (``.efg``) and, where it is small enough, the normal
form (``.nfg``), exact throughout.

The tree is the game's own enumeration (:mod:`solver.chemin.paths`) grouped by what the players can tell
apart, as the additive game's coefficients are. Its chance moves are exactly these:

1. at the root, the deal up to the first free decision: the ponte's information set at 5
   (``ponte 5``; ``ponte 1+4`` under information 3) where he is free; where his play is fixed (a natural,
   or a total other than 5), the banker's free cell as he sees it (``banker 3/9``, ``banker 0+6/S``), or,
   where neither side chooses, the result (``banker wins``, ``ponte wins``, ``tie``);
2. after the ponte's choice: the banker's free cell (his total or cards and the ponte's third card, or
   ``S``), or the result where the banker's play is fixed;
3. after the banker's choice: the result.

Each branch's probability is the exact conditional probability of the deals below it (reduced
fractions, never decimals); a chance move with one branch is left out. The ponte (player 1) decides in
his information sets, the banker (player 2) in his cells, each ``draw`` or ``stand``. The outcomes are
``banker wins`` (ponte −1, banker 1 − α), ``ponte wins`` (1, −1) and ``tie`` (0, 0): with α = 0 the game is
zero-sum. Sets that no deal reaches have no node.

>>> from solver.cards import Shoe
>>> from solver.chemin.game import build_game
>>> tree = game_tree(build_game(Shoe.infinite(), 1, "casino"))
>>> tree.infosets, tree.nodes
((('5',), ('3/9', '5/4')), 42)
>>> for line in tree.efg().splitlines()[3:5]:
...     print(line)  # doctest: +ELLIPSIS
c "" 1 "" { "ponte 5" 2192/28561 "banker 3/9" 1424/371293 "banker 5/4" 1424/371293 "banker wins" ... } 0
p "" 1 1 "5" { "draw" "stand" } 0
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver.chemin.game import Game
from solver.chemin.guarantees import normal_form
from solver.chemin.paths import structure
from solver.chemin.solve import Solution
from solver.deal.weights import denominator
from solver.errors import SolverError
from solver.exact.numbers import fraction_str
from solver.store.files import write_text
from solver.store.gambit import GambitForm, GameTree, Move, Outcome, Result, Reveal, Step, StrategicGame
from solver.strategy import InfoSet, Side

PLAYERS = ("Ponte", "Banker")
ACTIONS = ("draw", "stand")
RESULTS = {1: "banker wins", 2: "ponte wins", 0: "tie"}
"""The paths' outcome codes (:mod:`solver.chemin.paths`) and the outcomes' labels, in the file's order."""


def _title(game: Game) -> str:
    return f"Chemin de fer {game.label}, {game.shoe.label()}, commission {fraction_str(game.model.commission)}"


COMMENT = (
    "Written by baccarat (an exact solver). Chance deals the cards, grouped by what the players can tell apart: "
    "at the root the ponte's information set at 5, or (his play fixed) the banker's free cell, or the result; "
    "after the ponte's choice the banker's free cell or the result; after the banker's choice the result. "
    "Probabilities and payoffs are exact rationals."
)


def game_tree(game: Game) -> GameTree:
    """Chemin de fer as a Gambit game tree (module docstring), from the game's own enumeration.

    Raises:
        SolverError: the plays' weights do not add up to the shoe's denominator (a bug).
    """
    st = structure(game.model.tableau, game.model.information)
    j, p_drew, i, b_drew, outcome = (a.tolist() for a in st.key_parts)
    alpha = game.model.commission
    pay = {1: (Fraction(-1), 1 - alpha), 2: (Fraction(1), Fraction(-1)), 0: (Fraction(0), Fraction(0))}
    outcomes = tuple(Outcome(RESULTS[o], pay[o]) for o in RESULTS)
    steps: list[Step] = []
    ponte: list[int] = []
    banker: list[int] = []
    for sets, out, side in ((game.ponte_sets, ponte, 0), (game.banker_sets, banker, 1)):
        for s in sets:
            out.append(len(steps))
            steps += [Reveal(f"{PLAYERS[side].lower()} {s}"), Move(side, str(s), 0), Move(side, str(s), 1)]
    result = {o: len(steps) + k for k, o in enumerate(RESULTS)}
    steps += [Result(k) for k in range(len(RESULTS))]
    plays: dict[tuple[int, ...], int] = {}
    for w, jj, pd, ii, bd, o in zip(st.weights(game.shoe).tolist(), j, p_drew, i, b_drew, outcome):
        if not w:
            continue
        play: tuple[int, ...] = ()
        if jj >= 0:
            play += (ponte[jj], ponte[jj] + 2 - pd)
        if ii >= 0:
            play += (banker[ii], banker[ii] + 2 - bd)
        play += (result[o],)
        plays[play] = plays.get(play, 0) + int(w)
    tree = GameTree(_title(game), COMMENT, PLAYERS, ACTIONS, outcomes, tuple(steps), plays)
    if tree.total != denominator(game.shoe):
        raise SolverError(f"{game.label}: the deals weigh {tree.total}, not the shoe's denominator {denominator(game.shoe)}")
    return tree


def strategic_game(game: Game) -> StrategicGame:
    """Chemin de fer's normal form as a Gambit strategic game: the ponte's pure strategies (rows) against the
    banker's (columns), each side's exact payoff (:func:`solver.chemin.guarantees.normal_form`).

    Raises:
        ModelError: the normal form is too large to write (the parlor games).
    """
    nf = normal_form(game)
    strategies = tuple(tuple(nf.label(side, k) for k in range(len(nf.strategies(side)))) for side in (Side.PONTE, Side.BANKER))
    comment = "Written by baccarat (an exact solver): the normal form, exact."
    return StrategicGame(_title(game), comment, PLAYERS, strategies, (nf.ponte, nf.banker))


def gambit_game(game: Game, form: GambitForm | str = GambitForm.EFG) -> Any:
    """The game as a ``pygambit.Game`` (extensive form by default, or ``"nfg"`` for the normal form).

    Raises:
        InputError: pygambit is not installed (write the file with :func:`write_gambit` instead).
        ModelError: the normal form is too large to write.
    """
    return (game_tree(game) if GambitForm(form) is GambitForm.EFG else strategic_game(game)).pygambit()


def gambit_text(game: Game, form: GambitForm | str = GambitForm.EFG) -> str:
    """The game in Gambit's ``.efg`` (default) or ``.nfg`` format."""
    return game_tree(game).efg() if GambitForm(form) is GambitForm.EFG else strategic_game(game).nfg()


def write_gambit(game: Game, form: GambitForm | str, path: str | Path, overwrite: bool = False) -> Path:
    """Write the game in Gambit's ``.efg`` or ``.nfg`` format to ``path`` (whole, or not at all).

    Raises:
        InputError: the file exists (and not ``overwrite``) or cannot be written.
        ModelError: the normal form is too large to write.
    """
    return write_text(path, gambit_text(game, form), overwrite)


def gambit_profile(solution: Solution) -> tuple[Any, Any]:
    """``(pygambit game, profile)``: the solved game's extensive form read by Gambit, and the solution as a
    rational behaviour profile, on which Gambit's own checks run (``profile.max_regret()`` is 0 exactly at
    an equilibrium).

    Raises:
        InputError: pygambit is not installed.
    """
    g = solution.game
    return game_tree(g).profile([draws(g.ponte_sets, solution.q), draws(g.banker_sets, solution.r)])


def draws(sets: Sequence[InfoSet], probabilities: Sequence[Fraction]) -> dict[str, Fraction]:
    """Draw probabilities keyed by the sets' written forms, the labels of the tree's information sets."""
    return {str(s): p for s, p in zip(sets, probabilities)}


def read_profile(game: Game, profile: Any) -> tuple[list[Fraction], list[Fraction]]:
    """``(q, r)``: a pygambit behaviour profile of the game's tree (pygambit 17) read back in the game's sets;
    a set with no node in the tree stands."""
    ponte, banker = game_tree(game).read_profile(profile)
    return [ponte.get(str(s), Fraction(0)) for s in game.ponte_sets], [banker.get(str(s), Fraction(0)) for s in game.banker_sets]
