"""Reading a file of punto banco or chemin de fer coups: every coup checked against the rules.

The format (documented in docs/howto-crosscheck.md; the file around the lines, shoe markers,
settlements and comments, in :mod:`solver.crosscheck.coupfile`), one coup per line::

    cards[;outcome[;settlements]]

* cards: in deal order (Player, Banker, Player, Banker, then the third cards in the order dealt),
  separated by commas, as ranks ``A``, ``2``–``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``; ``1`` is
  read as an ace and ``0`` as a ten-valued card of unknown rank (an engine that deals point values:
  a file that writes ``0`` is then counted by point values, not by ranks). A ``-`` in the fifth place
  says the player stood and the fifth card is the banker's (``5,3,K,Q,-,7``); without it, a five-card
  coup whose player was free to draw is read as his draw;
* outcome (optional): ``B``, ``P`` or ``T`` as the engine reported it, checked against the cards;
* settlements (optional): ``bet=result`` for the bets the engine settled (``banker``, ``player``,
  ``tie_8to1``; chemin de fer ``banker``, ``ponte``), e.g. ``banker=19/20,player=-1,tie_8to1=-1``;
* a line ``shoe`` starts a freshly shuffled shoe; ``#`` starts a comment.

A coup the rules do not allow (a number of cards the tableau forbids, a reported outcome the cards
do not give) is a fault of the engine (:class:`~solver.crosscheck.coupfile.RuleBroken`), not a
malformed file.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from solver.crosscheck.coupfile import SHOE_MARKER, Coup, Decision, RuleBroken, card, decision, read_coup_file, split_line
from solver.crosscheck.sample import Sample
from solver.deal.tree import N_DETAIL, detail_key
from solver.errors import InputError
from solver.punto import STANDARD_COMMISSION
from solver.rules.tableau import STOOD
from solver.simulate.config import Payout, default_payouts
from solver.strategy import Strategy

__all__ = ["SHOE_MARKER", "PuntoCoups", "read_coups"]

_OUTCOME_LETTERS = {"B": 0, "P": 1, "T": 2}


class PuntoCoups:
    """The reader of a punto banco or chemin de fer line (a :class:`~solver.crosscheck.coupfile.CoupRules`):
    which draws the strategy forces, which it leaves to chance, and the bets a line may settle."""

    outcomes = 3
    serial_classes = 3
    detail_size = N_DETAIL
    cards_per_coup = 4

    def __init__(self, strategy: Strategy, game: str, payouts: Iterable[Payout] | None = None) -> None:
        p_tab, b_tab = strategy.tables()
        self.ptab = [[decision([p_tab[i, j]]) for j in range(10)] for i in range(10)]
        self.btab = [[[decision([b_tab[i, j, k]]) for k in range(11)] for j in range(10)] for i in range(10)]
        pays = payouts if payouts is not None else default_payouts(game, STANDARD_COMMISSION)
        self.bets = tuple(p.name for p in pays)

    def coup(self, line: str) -> Coup:
        w, key, ranks, values, drew, settled = _check_coup(line, self.ptab, self.btab)
        return Coup(w, w, key, ranks, values, drew, settled)


def read_coups(stream: TextIO, source: str, strategy: Strategy, game: str, payouts: Iterable[Payout] | None = None) -> Sample:
    """Read a file of dealt coups (format above), checking every coup is legal under the strategy's rules.

    Args:
        stream: the text.
        source: its name, for messages.
        strategy: the rules and strategy the engine plays (which draws are forced, which free).
        game: ``punto`` or ``chemin``.
        payouts: the bets whose settlements a file may report (default: the game's, at 5 % commission).

    Returns:
        A :class:`Sample`: the coups held to the first-coup law (every coup, or each marked shoe's first),
        every card in a :class:`~solver.crosscheck.tally.CardStream`, and the coups that break the
        strategy's rules (``rule_breaks``: a number of cards the tableau does not allow, an outcome
        reported against the cards), which the cross-check rejects.

    Raises:
        InputError: naming the first line that cannot be read (a bad card, a bad outcome letter, a bad
            settlement), or an empty file.
    """
    return read_coup_file(stream, source, PuntoCoups(strategy, game, payouts))


def _check_coup(
    line: str, ptab: list[list[Decision]], btab: list[list[list[Decision]]]
) -> tuple[int, int, list[int], list[int], int, str | None]:
    """One coup: ``(outcome, detail key, ranks, values, player drew, settlement text or None)``, given
    the rules as :func:`~solver.crosscheck.coupfile.decision` codes: ``ptab[p1][p2]`` and ``btab[b1][b2][seen]``."""
    tokens, reported, settle_text = split_line(line, "B, P or T")
    if reported and reported.upper() not in _OUTCOME_LETTERS:
        raise InputError(f"reported outcome {reported!r}: use B, P or T")
    stood_mark = len(tokens) >= 5 and tokens[4] == "-"
    if stood_mark:
        del tokens[4]
    ranks, values = [], []
    for t in tokens:
        rank, value = card(t)
        ranks.append(rank)
        values.append(value)
    n = len(values)
    if n < 4:
        raise RuleBroken(f"{n} cards: a coup deals at least 4")
    p1, b1, p2, b2 = values[:4]
    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
    natural = pt >= 8 or bt >= 8
    p_drew = b_drew = 0
    if natural:
        if n != 4 or stood_mark:
            raise RuleBroken(
                f"{n} cards after a natural ({'player' if pt >= 8 else 'banker'} {max(pt, bt)}): a natural ends the coup with 4"
            )
    else:
        p_rule = ptab[p1][p2]
        rest = values[4:]
        if p_rule is Decision.DRAW and stood_mark:
            raise RuleBroken(f"the player must draw on {pt}, but the line says he stood")
        if p_rule is Decision.STAND or stood_mark:
            p_drew = 0
        elif p_rule is Decision.DRAW:
            p_drew = 1
        elif len(rest) != 1:
            p_drew = 1 if rest else 0
        else:  # five cards and the player's draw left to chance: whose is the fifth?
            drew_ok = btab[b1][b2][rest[0]] is not Decision.DRAW
            stood_ok = btab[b1][b2][STOOD] is not Decision.STAND
            if not (drew_ok or stood_ok):
                raise RuleBroken(
                    f"5 cards, but neither reading is legal: had the player stood, the banker must stand on "
                    f"{(b1 + b2) % 10}; had he drawn the {rest[0]}, the banker must draw again"
                )
            p_drew = 1 if drew_ok else 0  # both legal: no '-' means the player drew (the file format's rule)
        if p_drew and not rest:
            raise RuleBroken(f"4 cards, but the player must draw on {pt}")
        seen = STOOD
        if p_drew:
            seen = rest[0]
            pt = (pt + seen) % 10
            rest = rest[1:]
        b_rule = btab[b1][b2][seen]
        seen_text = "the player stood" if seen == STOOD else f"the player's third card {seen}"
        if b_rule is Decision.DRAW and not rest:
            raise RuleBroken(f"{n} cards, but the banker must draw on {(b1 + b2) % 10} after {seen_text}")
        if b_rule is Decision.STAND and rest:
            raise RuleBroken(f"{n} cards, but the banker must stand on {(b1 + b2) % 10} after {seen_text}")
        if len(rest) > 1:
            drew = "the banker drew" if b_rule is Decision.DRAW else "the banker may draw"
            raise RuleBroken(f"{n} cards, but the coup ends with {n - len(rest) + 1} ({seen_text}, {drew} on {(b1 + b2) % 10})")
        if rest:
            bt = (bt + rest[0]) % 10
            b_drew = 1
    w = 0 if bt > pt else 1 if pt > bt else 2
    if reported and _OUTCOME_LETTERS[reported.upper()] != w:
        raise RuleBroken(f"reported {reported.upper()} but the cards give {'BPT'[w]} (player {pt}, banker {bt})")
    return w, detail_key(pt, bt, p_drew, b_drew, int(natural)), ranks, values, p_drew, settle_text or None
