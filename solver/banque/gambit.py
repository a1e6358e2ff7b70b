"""Baccara banque as a Gambit game: the extensive form (``.efg``) of the three-person game at one stake
share θ, exact throughout.

The tree is the game's own enumeration (:mod:`solver.banque.deal`, through :func:`~solver.banque.game.build_banque`)
grouped by what the players can tell apart. Its chance moves are exactly these:

1. at the root, the deal up to the first free decision: Player 1's information set at 5 (``player 1 5``;
   ``player 1 1+4`` under information 3); where his play is fixed, Player 2's set (``player 2 5``, or under
   ``sees-first`` with what he saw of tableau 1, ``player 2 5/3``); where both are fixed, the banker's
   free cell (``banker 4/3/S``: his total or cards, what he saw of tableau 1 and of tableau 2); where
   nobody chooses (the naturals, and the casino's fixed cells), the joint result;
2. after Player 1's choice: Player 2's set, or the banker's cell, or the result, as above;
3. after Player 2's choice: the banker's cell, or the result;
4. after the banker's choice: the result.

Each branch's probability is the exact conditional probability of the deals below it (reduced fractions);
a chance move with one branch is left out. The results are the nine joint outcomes (R1, R2), the
banker's result against tableau 1 and against tableau 2; at each, Player 1 gets −R1, Player 2 gets
−R2 (each his own tableau, per unit staked) and the banker θ R1 + (1 − θ) R2 less the tax on a net win:
the payoffs of :mod:`solver.banque.nash`. Cells that no deal reaches have no node. The normal form
(at least 2 × 2 × 2^204 pure profiles) is never written.

>>> from solver.cards import Shoe
>>> from solver.banque.game import BanqueModel, build_banque
>>> tree = game_tree(build_banque(Shoe.infinite(), BanqueModel(1, "blind", "casino")), Fraction(1, 2))
>>> [len(s) for s in tree.infosets], tree.outcomes[6]
([1, 1, 204], Outcome(label='banker wins on 1, loses on 2', payoffs=(Fraction(-1, 1), Fraction(1, 1), Fraction(0, 1))))
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from solver.banque.deal import OUTCOMES
from solver.banque.game import BanqueGame, banker_payoff
from solver.banque.solve import BanqueSolution
from solver.errors import ModelError, SolverError
from solver.exact.numbers import exact, fraction_str
from solver.store.files import write_text
from solver.store.gambit import GambitForm, GameTree, Move, Outcome, Result, Reveal, Step

PLAYERS = ("Player 1", "Player 2", "Banker")
ACTIONS = ("draw", "stand")
_WORDS = {1: "wins", 0: "ties", -1: "loses"}

COMMENT = (
    "Written by baccarat (an exact solver). Chance deals the cards, grouped by what the players can tell apart: "
    "before each free decision the decider's information set (Player 1's, then Player 2's, then the banker's cell), "
    "after the last one the joint result. Probabilities and payoffs are exact rationals."
)


def result_label(r1: int, r2: int) -> str:
    """A joint outcome in words, e.g. ``banker wins on 1, loses on 2``."""
    return f"banker {_WORDS[r1]} on 1, {_WORDS[r2]} on 2"


def game_tree(game: BanqueGame, theta: Fraction | int | str) -> GameTree:
    """Banque at stake share θ as a Gambit game tree (module docstring), from the game's own enumeration.

    Raises:
        ModelError: θ outside [0, 1].
        SolverError: the plays' weights do not add up to the shoe's denominator (a bug).
    """
    t = exact(theta, "theta")
    if not 0 <= t <= 1:
        raise ModelError(f"theta must lie in [0, 1], got {t}")
    banker = banker_payoff(t, game.model.tax)
    outcomes = tuple(Outcome(result_label(r1, r2), (Fraction(-r1), Fraction(-r2), u)) for (r1, r2), u in zip(OUTCOMES, banker))
    steps: list[Step] = []
    first: list[list[int]] = []
    for side, sets in enumerate((game.player1_sets, game.player2_sets, game.banker_sets)):
        first.append([])
        for s in sets:
            first[side].append(len(steps))
            steps += [Reveal(f"{PLAYERS[side].lower()} {s}"), Move(side, str(s), 0), Move(side, str(s), 1)]
    result = len(steps)
    steps += [Result(k) for k in range(len(OUTCOMES))]
    plays: dict[tuple[int, ...], int] = {}
    columns = (game.x, game.dx, game.y, game.dy, game.r, game.dr, game.outcome)
    for w, *key in zip(game.weight.tolist(), *(c.tolist() for c in columns)):
        if not w:
            continue
        play: tuple[int, ...] = ()
        for side in range(3):
            var, branch = key[2 * side], key[2 * side + 1]
            if var >= 0:
                play += (first[side][var], first[side][var] + 2 - branch)
        play += (result + key[6],)
        plays[play] = plays.get(play, 0) + int(w)
    for o, w in enumerate(game.constant):
        if w:
            plays[(result + o,)] = plays.get((result + o,), 0) + w
    title = f"Baccara banque {game.label}, {game.shoe.label()}, theta {fraction_str(t)}, tax {fraction_str(game.model.tax)}"
    tree = GameTree(title, COMMENT, PLAYERS, ACTIONS, outcomes, tuple(steps), plays)
    if tree.total != game.denominator:
        raise SolverError(f"{game.label}: the deals weigh {tree.total}, not the shoe's denominator {game.denominator}")
    return tree


def _form(form: GambitForm | str, game: BanqueGame) -> GambitForm:
    if GambitForm(form) is GambitForm.NFG:
        sizes = " x ".join(f"2^{len(s)}" for s in (game.player1_sets, game.player2_sets, game.banker_sets))
        raise ModelError(f"banque's normal form would have {sizes} pure profiles: too large to write; export the game tree (efg)")
    return GambitForm.EFG


def gambit_game(game: BanqueGame, theta: Fraction | int | str, form: GambitForm | str = GambitForm.EFG) -> Any:
    """The game at θ as a ``pygambit.Game`` (the extensive form).

    Raises:
        InputError: pygambit is not installed (write the file with :func:`write_gambit` instead).
        ModelError: the normal form is asked for (too large), or θ outside [0, 1].
    """
    _form(form, game)
    return game_tree(game, theta).pygambit()


def write_gambit(
    game: BanqueGame, theta: Fraction | int | str, form: GambitForm | str, path: str | Path, overwrite: bool = False
) -> Path:
    """Write the game at θ in Gambit's ``.efg`` format to ``path`` (whole, or not at all).

    Raises:
        InputError: the file exists (and not ``overwrite``) or cannot be written.
        ModelError: the normal form is asked for (too large), or θ outside [0, 1].
    """
    _form(form, game)
    return write_text(path, game_tree(game, theta).efg(), overwrite)


def gambit_profile(solution: BanqueSolution) -> tuple[Any, Any]:
    """``(pygambit game, profile)``: the solved game's extensive form at the solution's θ, read by Gambit, and
    the solution as a rational behaviour profile, on which Gambit's own checks run (``profile.max_regret()``
    is 0 exactly at a Nash equilibrium).

    Raises:
        InputError: pygambit is not installed.
        ModelError: the solution has no banker strategy, or irrational entries (Gambit's profiles are rational).
    """
    if solution.banker is None or solution.field is not None:
        raise ModelError(f"{solution.concept}: Gambit's profiles hold rational draw probabilities for all three sides")
    g = solution.game
    sides = zip((g.player1_sets, g.player2_sets, g.banker_sets), (solution.player1, solution.player2, solution.banker))
    return game_tree(g, solution.theta).profile([{str(s): Fraction(p) for s, p in zip(sets, v)} for sets, v in sides])
