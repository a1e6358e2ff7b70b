"""Reading a file of baccara banque coups: both tableaux and the banker's decision, checked coup by coup.

The format (documented in docs/howto-crosscheck.md; the file around the lines, shoe markers,
settlements and comments, in :mod:`solver.crosscheck.coupfile`), one coup per line::

    cards[;outcome[;settlements]]

* cards, separated by commas (``A``, ``2``–``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``; ``1`` an ace,
  ``0`` a ten-valued card of unknown rank): the six dealt first, in deal order (Player 1, Player 2,
  the banker, Player 1, Player 2, the banker); then, unless naturals ended the coup (the banker's, or
  both players'), three places in the order the hands act: Player 1's third card, Player 2's third
  card, the banker's third card, each ``-`` where that hand drew none (it stood, or held a natural).
  ``-`` at the end may be left out. ``4,6,3,K,Q,2,7,-,9``: Player 1 (4, K) drew a 7, Player 2 (6, Q)
  stood, the banker (3, 2) drew a 9;
* outcome (optional): two letters, tableau 1's then tableau 2's, each ``B`` (the banker beat it),
  ``P`` (its player won) or ``T`` (a tie), as the engine reported them: ``BP``;
* settlements (optional): ``banker=`` the banker's net result per unit of total stake (θ R1 +
  (1 − θ) R2, less the tax on his net win), ``player1=`` and ``player2=`` each player's net result per
  unit he staked (−R1, −R2): ``banker=1/2,player1=-1,player2=0``;
* a line ``shoe`` starts a freshly shuffled shoe; ``#`` starts a comment.

Every decision is checked against the rules and the strategy dealt (a player draws on 0–4 and stands
on 6–7; where the strategy draws or stands for certain, so must the engine): a coup that breaks them is
the engine's fault (:class:`~solver.crosscheck.coupfile.RuleBroken`), not a malformed file.

>>> from solver.banque import BanqueModel, solve_banque
>>> from solver.cards import Shoe
>>> from solver.crosscheck.banque import solution_tables
>>> s = solve_banque(Shoe.infinite(), BanqueModel(1, "blind", "casino"), Fraction(1, 2), "nash")
>>> rules = BanqueCoups(solution_tables(s))
>>> coup = rules.coup("4,6,3,K,Q,2,7,-,9;BP")
>>> coup.outcome == OUTCOMES.index((1, -1)), coup.drew
(True, 5)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TextIO

from solver.banque.deal import OUTCOMES
from solver.crosscheck.banque import CARDS_PER_COUP, SETTLEMENT_TESTS, ExactTables, serial_class
from solver.crosscheck.coupfile import Coup, Decision, RuleBroken, card, decision, read_coup_file, split_line
from solver.crosscheck.sample import Sample
from solver.errors import InputError
from solver.simulate.banque_kernel import N_DETAIL, NATURAL, STOOD, detail_key

__all__ = ["BanqueCoups", "read_banque_coups"]

_LETTERS = {"B": 1, "P": -1, "T": 0}
"""An outcome letter → the banker's result against that tableau."""
_HOW = "two letters, tableau 1's then tableau 2's, each B, P or T (e.g. BP)"
THIRD_CARDS = 3
"""Places after the six first cards: Player 1's, Player 2's and the banker's third card."""


def _sight(s: int) -> str:
    return "stood" if s == STOOD else "had a natural" if s == NATURAL else f"drew a {s}"


class BanqueCoups:
    """The reader of a banque line (a :class:`~solver.crosscheck.coupfile.CoupRules`): which decisions
    the strategy dealt forces (in every atom of a team's strategy), which it leaves to chance."""

    outcomes = len(OUTCOMES)
    serial_classes = 3
    detail_size = N_DETAIL
    cards_per_coup = CARDS_PER_COUP
    bets = tuple(SETTLEMENT_TESTS)

    def __init__(self, tables: Sequence[tuple[Fraction, ExactTables]]) -> None:
        live = [t for lam, t in tables if lam > 0]
        r = range(10)
        self.p1 = [[decision([t.p1[a][b] for t in live]) for b in r] for a in r]
        self.p2 = [[[decision([t.p2[a][b][s] for t in live]) for s in range(12)] for b in r] for a in r]
        bank = live[0].banker
        self.banker = [[[[decision([bank[a][b][s1][s2]]) for s2 in range(12)] for s1 in range(12)] for b in r] for a in r]

    def coup(self, line: str) -> Coup:
        tokens, reported, settled = split_line(line, _HOW)
        if reported and (len(reported) != 2 or any(c not in _LETTERS for c in reported.upper())):
            raise InputError(f"reported outcome {reported!r}: use {_HOW}")
        first, places = tokens[:6], tokens[6:]
        ranks, values = [], []
        for t in first:
            rank, value = card(t)
            ranks.append(rank)
            values.append(value)
        if len(first) < 6:
            raise RuleBroken(f"{len(first)} cards: a banque coup deals at least 6")
        if len(places) > THIRD_CARDS:
            raise RuleBroken(
                f"{len(places)} places after the six cards: a banque coup has three, Player 1's, Player 2's and "
                "the banker's third card"
            )
        thirds: list[tuple[int, int] | None] = [None if t == "-" else card(t) for t in places]
        thirds += [None] * (THIRD_CARDS - len(thirds))
        v = values
        t1, t2, tb = (v[0] + v[3]) % 10, (v[1] + v[4]) % 10, (v[2] + v[5]) % 10
        s1 = NATURAL if t1 >= 8 else STOOD
        s2 = NATURAL if t2 >= 8 else STOOD
        ended = tb >= 8 or (t1 >= 8 and t2 >= 8)
        final, drew, db = tb, 0, 0
        if ended:
            if places:
                who = f"the banker's natural {tb}" if tb >= 8 else f"both players' naturals ({t1}, {t2})"
                raise RuleBroken(f"the line goes on after {who}: naturals end the coup with its six cards")
        else:
            sights = [s1, s2]
            totals = [t1, t2]
            for k in range(2):
                rule = self.p1[v[0]][v[3]] if k == 0 else self.p2[v[1]][v[4]][sights[0]]
                got = thirds[k]
                total = totals[k]
                if total >= 8:
                    if got is not None:
                        raise RuleBroken(f"Player {k + 1} has a natural {total} and draws no card (the line gives him one)")
                    continue
                if rule is Decision.DRAW and got is None:
                    raise RuleBroken(f"Player {k + 1} must draw on {total}, but the line says he stood")
                if rule is Decision.STAND and got is not None:
                    raise RuleBroken(f"Player {k + 1} must stand on {total}, but the line gives him a third card")
                if got is not None:
                    ranks.append(got[0])
                    values.append(got[1])
                    drew += 1 << k
                    sights[k], totals[k] = got[1], (total + got[1]) % 10
            (s1, s2), (t1, t2) = sights, totals
            rule = self.banker[v[2]][v[5]][s1][s2]
            got = thirds[2]
            seen = f"tableau 1 {_sight(s1)} and tableau 2 {_sight(s2)}"
            if rule is Decision.DRAW and got is None:
                raise RuleBroken(f"the banker must draw on {tb} when {seen}, but the line says he stood")
            if rule is Decision.STAND and got is not None:
                raise RuleBroken(f"the banker must stand on {tb} when {seen}, but the line gives him a third card")
            if got is not None:
                ranks.append(got[0])
                values.append(got[1])
                final, db = (tb + got[1]) % 10, 1
                drew += 4
        b1 = tb if s1 == NATURAL else final  # a player's natural met the banker's two cards
        b2 = tb if s2 == NATURAL else final
        r1 = 1 if b1 > t1 else -1 if t1 > b1 else 0
        r2 = 1 if b2 > t2 else -1 if t2 > b2 else 0
        if reported and (_LETTERS[reported[0].upper()], _LETTERS[reported[1].upper()]) != (r1, r2):
            truth = "".join("BTP"[1 - r] for r in (r1, r2))
            raise RuleBroken(
                f"reported {reported.upper()} but the cards give {truth} (tableau 1 {t1}, tableau 2 {t2}, banker {final})"
            )
        o = OUTCOMES.index((r1, r2))
        key = detail_key(ended, o, tb, s1, s2, db)
        return Coup(o, serial_class((r1, r2)), key, ranks, values, drew, settled or None)


def read_banque_coups(stream: TextIO, source: str, tables: Sequence[tuple[Fraction, ExactTables]]) -> Sample:
    """Read a file of banque coups (format above), checking every decision against the rules and the
    strategy dealt (``tables``: :func:`~solver.crosscheck.banque.solution_tables` of the solution).

    Returns:
        A :class:`~solver.crosscheck.sample.Sample` for :func:`~solver.crosscheck.verdict.crosscheck`
        with the solution's :func:`~solver.crosscheck.banque.banque_law`.

    Raises:
        InputError: naming the first line that cannot be read, or an empty file.
    """
    return read_coup_file(stream, source, BanqueCoups(tables))
