"""Reading a file of dealt coups: every coup checked against the rules, shoes and settlements read.

The format (documented in docs/howto-crosscheck.md), one coup per line::

    cards[;outcome[;settlements]]

* cards: in deal order (Player, Banker, Player, Banker, then the third cards in the order dealt),
  separated by commas, as ranks ``A``, ``2``–``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``; ``1`` is
  read as an ace and ``0`` as a ten-valued card of unknown rank (an engine that deals point values:
  a file that writes ``0`` is then counted by point values, not by ranks). A ``-`` in the fifth place
  says the player stood and the fifth card is the banker's (``5,3,K,Q,-,7``); without it, a five-card
  coup whose player was free to draw is read as his draw;
* outcome (optional): ``B``, ``P`` or ``T`` as the engine reported it, checked against the cards;
* settlements (optional): ``bet=result`` for the bets the engine settled, separated by commas, each
  result the net amount per unit staked as an exact number (``banker=19/20,player=-1,tie_8to1=-1``
  or ``banker=0.95``); a bet settled on one coup must be settled on every coup;
* a line ``shoe`` says a freshly shuffled shoe starts with the next coup (the coups before the first
  such line are a shoe too). A file with no ``shoe`` line is read as coups each dealt from a freshly
  shuffled shoe; one that has them, as the shoes it marks;
* ``#`` starts a comment; blank lines are skipped.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from typing import TextIO

import numpy as np

from solver.cards import RANKS, card_token
from solver.crosscheck.sample import Sample
from solver.crosscheck.tally import CardStream
from solver.deal.tree import N_DETAIL, detail_key
from solver.errors import BaccaratError, InputError
from solver.exact.numbers import exact
from solver.punto import STANDARD_COMMISSION
from solver.rules.tableau import STOOD
from solver.simulate.config import Payout, default_payouts
from solver.store.files import read_lines
from solver.strategy import Strategy

SHOE_MARKER = "shoe"
"""A line holding only this word (any case) starts a new shoe."""

_TOKENS: dict[str, tuple[int, int]] = {}
for _t in (*RANKS, "T", "1", "0"):
    _rank, _value = card_token(_t)
    _TOKENS[_t] = (-1 if _rank is None else _rank, _value)

_OUTCOME_LETTERS = {"B": 0, "P": 1, "T": 2}


class _Held:
    """Counts of the coups held to the first-coup law (every coup, or each shoe's first)."""

    def __init__(self) -> None:
        self.winner = [0, 0, 0]
        self.detail = [0] * N_DETAIL
        self.cards = [0] * 10
        self.serial = [0] * 9
        self.previous = -1
        self.index = array("q")
        self.settled: Counter[str | None] = Counter()  # coups by the text of their settlements

    def add(self, index: int, w: int, key: int, values: list[int], settled: str | None) -> None:
        self.winner[w] += 1
        self.detail[key] += 1
        for v in values[:4]:
            self.cards[v] += 1
        if self.previous >= 0:
            self.serial[3 * self.previous + w] += 1
        self.previous = w
        self.index.append(index)
        self.settled[settled] += 1

    def bets(self, parsed: dict[str | None, dict[str, Fraction]], names: tuple[str, ...]) -> dict[str, tuple[float, float]]:
        """Bet → (sum, sum of squares) of the settlements, exactly, then as floats."""
        out = {}
        for name in names:
            total = sum((count * parsed[text][name] for text, count in self.settled.items()), Fraction(0))
            square = sum((count * parsed[text][name] ** 2 for text, count in self.settled.items()), Fraction(0))
            out[name] = (float(total), float(square))
        return out


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
        and every card in a :class:`~solver.crosscheck.tally.CardStream`.

    Raises:
        InputError: naming the first bad line (a bad card, a wrong number of cards for the rules, a
            reported outcome that does not follow from the cards, a bad settlement), or an empty file.
    """
    p_tab, b_tab = strategy.tables()
    ptab = [[_must(p_tab[i, j]) for j in range(10)] for i in range(10)]
    btab = [[[_must(b_tab[i, j, k]) for k in range(11)] for j in range(10)] for i in range(10)]
    names = tuple(p.name for p in (payouts if payouts is not None else default_payouts(game, STANDARD_COMMISSION)))
    ranks, values = array("b"), array("b")
    starts, drew, lines, shoe_starts = array("q"), array("b"), array("i"), array("q")
    every: _Held | None = None
    firsts: _Held | None = None
    settled_names: tuple[str, ...] | None = None
    parsed: dict[str | None, dict[str, Fraction]] = {}
    marked = False
    new_shoe = True
    for number, raw in read_lines(stream, source):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.lower() == SHOE_MARKER:
            marked = True
            new_shoe = True
            continue
        try:
            w, key, coup_ranks, coup_values, p_drew, settle_text = _check_coup(line, ptab, btab)
            settled = parsed.get(settle_text)
            if settled is None:  # an engine writes few different settlements: each is read once
                settled = parsed[settle_text] = _settlements(settle_text, names)
            if settled_names is None:
                settled_names = tuple(settled)
            elif tuple(settled) != settled_names:
                raise InputError(_settled_differently(settled_names, tuple(settled)))
        except BaccaratError as e:
            raise InputError(f"{source}, line {number}: {e}") from None
        if every is None or firsts is None:
            every, firsts = _Held(), _Held()
        index = len(starts)
        starts.append(len(values))
        ranks.extend(coup_ranks)
        values.extend(coup_values)
        drew.append(p_drew)
        lines.append(number)
        every.add(index, w, key, coup_values, settle_text)
        if new_shoe:
            shoe_starts.append(index)
            firsts.add(index, w, key, coup_values, settle_text)
            new_shoe = False
    if every is None or firsts is None:
        raise InputError(f"{source}: no coups found")
    n_coups = len(starts)
    starts.append(len(values))
    held = firsts if marked else every
    cards = CardStream(
        np.frombuffer(ranks, dtype=np.int8).copy(),
        np.frombuffer(values, dtype=np.int8).copy(),
        np.frombuffer(starts, dtype=np.int64).copy(),
        np.frombuffer(drew, dtype=np.int8).copy(),
        np.frombuffer(lines, dtype=np.int32).astype(np.int64),
        np.frombuffer(shoe_starts, dtype=np.int64).copy() if marked else np.zeros(0, np.int64),
    )
    bets = held.bets(parsed, settled_names or ())
    return Sample(
        source,
        len(held.index),
        np.array(held.winner, np.int64),
        np.array(held.detail, np.int64),
        np.array(held.cards, np.int64),
        None,
        bets,
        whole_shoes=marked,
        coups=n_coups,
        shoes=len(shoe_starts) if marked else 0,
        serial=np.array(held.serial, np.int64).reshape(3, 3),
        stream=cards,
        held=np.frombuffer(held.index, dtype=np.int64).copy(),
    )


def _settled_differently(before: tuple[str, ...], now: tuple[str, ...]) -> str:
    said, says = (", ".join(bets) if bets else "no bet" for bets in (before, now))
    return f"settles {says}, but the coups before settle {said} (settle the same bets on every coup)"


def _settlements(text: str | None, names: tuple[str, ...]) -> dict[str, Fraction]:
    """``bet=result`` pairs, in the order of ``names``."""
    if text is None or not text.strip():
        return {}
    out: dict[str, Fraction] = {}
    for part in text.split(","):
        name, eq, amount = part.partition("=")
        name = name.strip().lower()
        if not eq or not name:
            raise InputError(f"settlement {part.strip()!r}: write bet=result, e.g. banker=19/20")
        if name not in names:
            raise InputError(f"settlement of an unknown bet {name!r} (the bets are {', '.join(names)})")
        if name in out:
            raise InputError(f"bet {name!r} settled twice")
        out[name] = exact(amount.strip(), f"the settlement of {name}")
    return {n: out[n] for n in names if n in out}


def _must(p: Fraction) -> int:
    """0 stand, 1 draw, 2 either."""
    return 1 if p >= 1 else 0 if p <= 0 else 2


def _check_coup(
    line: str, ptab: list[list[int]], btab: list[list[list[int]]]
) -> tuple[int, int, list[int], list[int], int, str | None]:
    """One coup: ``(outcome, detail key, ranks, values, player drew, settlement text or None)``, given
    the rules as :func:`_must` codes: ``ptab[p1][p2]`` and ``btab[b1][b2][seen]``."""
    body, sep, rest_text = line.partition(";")
    reported, _, settle_text = rest_text.partition(";") if sep else ("", "", "")
    tokens = [t.strip() for t in body.split(",")]
    if "" in tokens:
        raise InputError(f"empty card in {body.strip()!r} (cards are separated by commas)")
    stood_mark = len(tokens) >= 5 and tokens[4] == "-"
    if stood_mark:
        del tokens[4]
    ranks, values = [], []
    for t in tokens:
        got = _TOKENS.get(t.upper())
        if got is None:
            raise InputError(f"bad card {t!r} (use A, 2-9, T or 10, J, Q, K; 1 is an ace, 0 a ten-valued card)")
        ranks.append(got[0])
        values.append(got[1])
    n = len(values)
    if n < 4:
        raise InputError(f"{n} cards: a coup deals at least 4")
    p1, b1, p2, b2 = values[:4]
    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
    natural = pt >= 8 or bt >= 8
    p_drew = b_drew = 0
    if natural:
        if n != 4 or stood_mark:
            raise InputError(
                f"{n} cards after a natural ({'player' if pt >= 8 else 'banker'} {max(pt, bt)}): a natural ends the coup with 4"
            )
    else:
        p_rule = ptab[p1][p2]
        rest = values[4:]
        if p_rule == 1 and stood_mark:
            raise InputError(f"the player must draw on {pt}, but the line says he stood")
        if p_rule == 0 or stood_mark:
            p_drew = 0
        elif p_rule == 1:
            p_drew = 1
        elif len(rest) != 1:
            p_drew = 1 if rest else 0
        else:  # five cards and the player's draw left to chance: whose is the fifth?
            drew_ok = btab[b1][b2][rest[0]] != 1
            stood_ok = btab[b1][b2][STOOD] != 0
            if not (drew_ok or stood_ok):
                raise InputError(
                    f"5 cards, but neither reading is legal: had the player stood, the banker must stand on "
                    f"{(b1 + b2) % 10}; had he drawn the {rest[0]}, the banker must draw again"
                )
            p_drew = 1 if drew_ok else 0  # both legal: no '-' means the player drew (the file format's rule)
        if p_drew and not rest:
            raise InputError(f"4 cards, but the player must draw on {pt}")
        seen = STOOD
        if p_drew:
            seen = rest[0]
            pt = (pt + seen) % 10
            rest = rest[1:]
        b_rule = btab[b1][b2][seen]
        seen_text = "the player stood" if seen == STOOD else f"the player's third card {seen}"
        if b_rule == 1 and not rest:
            raise InputError(f"{n} cards, but the banker must draw on {(b1 + b2) % 10} after {seen_text}")
        if b_rule == 0 and rest:
            raise InputError(f"{n} cards, but the banker must stand on {(b1 + b2) % 10} after {seen_text}")
        if len(rest) > 1:
            drew = "the banker drew" if b_rule == 1 else "the banker may draw"
            raise InputError(f"{n} cards, but the coup ends with {n - len(rest) + 1} ({seen_text}, {drew} on {(b1 + b2) % 10})")
        if rest:
            bt = (bt + rest[0]) % 10
            b_drew = 1
    w = 0 if bt > pt else 1 if pt > bt else 2
    if sep and reported.strip():
        r = reported.strip().upper()
        if r not in _OUTCOME_LETTERS:
            raise InputError(f"reported outcome {reported.strip()!r}: use B, P or T")
        if _OUTCOME_LETTERS[r] != w:
            truth = "BPT"[w]
            raise InputError(f"reported {r} but the cards give {truth} (player {pt}, banker {bt})")
    elif sep and not settle_text.strip():
        raise InputError(f"reported outcome {reported.strip()!r}: use B, P or T")
    return w, detail_key(pt, bt, p_drew, b_drew, int(natural)), ranks, values, p_drew, settle_text or None
