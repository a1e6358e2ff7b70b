"""A file of dealt coups, any game: its lines, shoe markers and settlements, the coups held to the
first-coup law, every card in deal order, and the coups that break the rules.

A game's reader of one line (:class:`CoupRules`: :class:`solver.crosscheck.reader.PuntoCoups` for
punto banco and chemin de fer, :class:`solver.crosscheck.banque_coups.BanqueCoups` for baccara banque)
turns the cards of a line into a :class:`Coup`, checking it against the rules and the strategy the
engine plays; :func:`read_coup_file` reads the file around it. The file's format, every game:

* one coup per line, ``cards[;outcome[;settlements]]``, the cards in deal order separated by commas
  (how each game writes them: its reader's docstring, and docs/howto-crosscheck.md);
* settlements: ``bet=result`` for the bets the engine settled, separated by commas, each result the net
  amount per unit staked as an exact number (``banker=19/20`` or ``banker=0.95``); a bet settled on
  one coup must be settled on every coup;
* a line ``shoe`` says a freshly shuffled shoe starts with the next coup (the coups before the first
  such line are a shoe too). A file with no ``shoe`` line is read as coups each dealt from a freshly
  shuffled shoe; one that has them, as the shoes it marks;
* ``#`` starts a comment; blank lines are skipped.

Two kinds of bad line. A line that cannot be read (a bad card, a bad outcome letter, a bad
settlement, bets settled differently from the coups before) makes the file unusable: an
:class:`~solver.errors.InputError` naming the line (exit code 2). A line that reads as a coup the rules
do not allow (a draw where the tableau stands, a card after a natural, an outcome reported against
the cards) is a fault of the engine: the reader raises :class:`RuleBroken`, and the file's
:class:`RuleBreaks` (how many, and the first lines) make the cross-check reject it (exit code 1).
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Protocol, TextIO

import numpy as np

from solver.cards import RANKS, card_token
from solver.crosscheck.sample import RuleBreaks, Sample
from solver.crosscheck.tally import CardStream
from solver.errors import BaccaratError, InputError
from solver.exact.numbers import exact
from solver.store.files import read_lines

SHOE_MARKER = "shoe"
"""A line holding only this word (any case) starts a new shoe."""

SHOWN_BREAKS = 5
"""The coups that break the rules whose lines a rejection names."""

CARD_TOKENS: dict[str, tuple[int, int]] = {}
"""Each card as a file writes it (upper case) → (rank 0–12, or −1 for ``0``, a ten of unknown rank; point value)."""
for _t in (*RANKS, "T", "1", "0"):
    _rank, _value = card_token(_t)
    CARD_TOKENS[_t] = (-1 if _rank is None else _rank, _value)


class Decision(Enum):
    """A decision as the readers check it."""

    STAND = "stand"
    """The strategy stands for certain."""
    DRAW = "draw"
    """The strategy draws for certain."""
    EITHER = "either"
    """The strategy leaves it to chance: a line may draw or stand."""


def decision(probabilities: Iterable[Fraction]) -> Decision:
    """The decision the probabilities of drawing a strategy gives make (one, or one per atom of a team's
    strategy: certain only if certain in every one).

    >>> [decision(ps).value for ps in ([Fraction(1)], [Fraction(0), Fraction(0)], [Fraction(0), Fraction(1)])]
    ['draw', 'stand', 'either']
    """
    ps = list(probabilities)
    if all(p >= 1 for p in ps):
        return Decision.DRAW
    return Decision.STAND if all(p <= 0 for p in ps) else Decision.EITHER


class RuleBroken(Exception):
    """A line that reads as a coup the rules (or the strategy's fixed decisions) do not allow."""


@dataclass(frozen=True)
class Coup:
    """One coup as read from its line.

    Attributes:
        outcome: the index of its outcome in the law's order; ``serial``: its class for the serial test.
        detail: its detail key.
        ranks, values: its cards in deal order (rank −1: a ten-valued card of unknown rank).
        drew: who drew a third card (:class:`~solver.crosscheck.tally.CardStream`'s ``coup_drew``).
        settled: the text of its settlements, or None.
    """

    outcome: int
    serial: int
    detail: int
    ranks: list[int]
    values: list[int]
    drew: int
    settled: str | None


class CoupRules(Protocol):
    """A game's reader of one line: the sizes of its tallies, and the check of a coup."""

    @property
    def outcomes(self) -> int:
        """The number of outcomes (and of serial classes: ``serial_classes``)."""

    @property
    def serial_classes(self) -> int: ...

    @property
    def detail_size(self) -> int: ...

    @property
    def cards_per_coup(self) -> int:
        """The cards every coup deals, whatever the decisions (the card law counts them)."""

    @property
    def bets(self) -> tuple[str, ...]:
        """The bets a line may settle, in the order the sample lists them."""

    def coup(self, line: str) -> Coup:
        """The coup of a line (comment stripped).

        Raises:
            InputError: the line cannot be read.
            RuleBroken: the coup breaks the rules.
        """


def split_line(line: str, letters: str) -> tuple[list[str], str, str]:
    """A line's card tokens (stripped), its reported outcome (stripped; empty when absent) and its
    settlements' text; ``letters`` says how an outcome is written, for the message.

    Raises:
        InputError: an empty card, or a ';' with neither an outcome nor settlements after it.
    """
    body, sep, rest = line.partition(";")
    reported, _, settle_text = rest.partition(";") if sep else ("", "", "")
    tokens = [t.strip() for t in body.split(",")]
    if "" in tokens:
        raise InputError(f"empty card in {body.strip()!r} (cards are separated by commas)")
    if sep and not reported.strip() and not settle_text.strip():
        raise InputError(f"reported outcome {reported.strip()!r}: use {letters}")
    return tokens, reported.strip(), settle_text


def card(token: str) -> tuple[int, int]:
    """(rank, value) of a card token (:data:`CARD_TOKENS`).

    Raises:
        InputError: not a card.
    """
    got = CARD_TOKENS.get(token.upper())
    if got is None:
        raise InputError(f"bad card {token!r} (use A, 2-9, T or 10, J, Q, K; 1 is an ace, 0 a ten-valued card)")
    return got


class _Held:
    """Counts of the coups held to the first-coup law (every coup, or each shoe's first)."""

    def __init__(self, rules: CoupRules) -> None:
        self.winner = [0] * rules.outcomes
        self.detail = [0] * rules.detail_size
        self.cards = [0] * 10
        self.k = rules.serial_classes
        self.serial = [0] * (self.k * self.k)
        self.counted = rules.cards_per_coup
        self.previous = -1
        self.index = array("q")
        self.settled: Counter[str | None] = Counter()  # coups by the text of their settlements

    def add(self, index: int, coup: Coup) -> None:
        self.winner[coup.outcome] += 1
        self.detail[coup.detail] += 1
        for v in coup.values[: self.counted]:
            self.cards[v] += 1
        if self.previous >= 0:
            self.serial[self.k * self.previous + coup.serial] += 1
        self.previous = coup.serial
        self.index.append(index)
        self.settled[coup.settled] += 1

    def bets(self, parsed: dict[str | None, dict[str, Fraction]], names: tuple[str, ...]) -> dict[str, tuple[float, float]]:
        """Bet → (sum, sum of squares) of the settlements, exactly, then as floats."""
        out = {}
        for name in names:
            total = sum((count * parsed[text][name] for text, count in self.settled.items()), Fraction(0))
            square = sum((count * parsed[text][name] ** 2 for text, count in self.settled.items()), Fraction(0))
            out[name] = (float(total), float(square))
        return out


class _Breaks:
    def __init__(self) -> None:
        self.count = 0
        self.first: list[tuple[int, str]] = []

    def add(self, line: int, what: str) -> None:
        self.count += 1
        if len(self.first) < SHOWN_BREAKS:
            self.first.append((line, what))


def read_coup_file(stream: TextIO, source: str, rules: CoupRules) -> Sample:
    """Read a file of dealt coups (the format of the module docstring), each line by ``rules``.

    Returns:
        A :class:`Sample`: the coups held to the first-coup law (every coup, or each marked shoe's first),
        every card in a :class:`~solver.crosscheck.tally.CardStream`, and the coups that break the rules
        (``rule_breaks``), left out of every count.

    Raises:
        InputError: naming the first line that cannot be read (a bad card, a bad settlement, bets settled
            differently from the coups before), or a file with no coups.
    """
    ranks, values = array("b"), array("b")
    starts, drew, lines, shoe_starts = array("q"), array("b"), array("i"), array("q")
    every, firsts = _Held(rules), _Held(rules)
    breaks = _Breaks()
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
            coup = rules.coup(line)
            settled = parsed.get(coup.settled)
            if settled is None:  # an engine writes few different settlements: each is read once
                settled = parsed[coup.settled] = _settlements(coup.settled, rules.bets)
            if settled_names is None:
                settled_names = tuple(settled)
            elif tuple(settled) != settled_names:
                raise InputError(_settled_differently(settled_names, tuple(settled)))
        except RuleBroken as e:
            breaks.add(number, str(e))
            continue
        except BaccaratError as e:
            raise InputError(f"{source}, line {number}: {e}") from None
        index = len(starts)
        starts.append(len(values))
        ranks.extend(coup.ranks)
        values.extend(coup.values)
        drew.append(coup.drew)
        lines.append(number)
        every.add(index, coup)
        if new_shoe:
            shoe_starts.append(index)
            firsts.add(index, coup)
            new_shoe = False
    n_coups = len(starts)
    if n_coups + breaks.count == 0:
        raise InputError(f"{source}: no coups found")
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
    k = rules.serial_classes
    return Sample(
        source,
        len(held.index),
        np.array(held.winner, np.int64),
        np.array(held.detail, np.int64),
        np.array(held.cards, np.int64),
        None,
        held.bets(parsed, settled_names or ()),
        whole_shoes=marked,
        coups=n_coups + breaks.count,
        shoes=len(shoe_starts) if marked else 0,
        serial=np.array(held.serial, np.int64).reshape(k, k),
        stream=cards,
        held=np.frombuffer(held.index, dtype=np.int64).copy(),
        rule_breaks=RuleBreaks(breaks.count, tuple(breaks.first)) if breaks.count else None,
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
