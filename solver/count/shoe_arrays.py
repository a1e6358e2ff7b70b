"""Shoes as the batch kernel reads them: what each tells of its cards, its counts as arrays, and the
cards a ``--remove`` list takes out, counted by a compiled scanner (``baccarat punto --shoes``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import IntEnum

import numpy as np

from solver.cards import Shoe


class Kind(IntEnum):
    """What a shoe tells of its cards, hence which bets it settles (:func:`solver.punto.settles`)."""

    SUITS = 0
    """Ranks and suits known: every bet."""
    RANKS = 1
    """Ranks known, suits not: not the bets on suits."""
    VALUES = 2
    """Point values only: no bet on the first cards."""


def kind_of(shoe: Shoe) -> Kind:
    """The shoe's :class:`Kind`."""
    return Kind.VALUES if shoe.ranks is None else Kind.RANKS if shoe.suits is None else Kind.SUITS


def shoe_arrays(shoes: Sequence[Shoe]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(values, types, kinds, infinite)`` of shoes, as :func:`solver.count.batch.price` reads them: ten counts by value; 52
    by rank and suit (:attr:`Kind.SUITS`), or the first 13 by rank (:attr:`Kind.RANKS`), else zeros;
    each shoe's :class:`Kind`; whether it deals with replacement."""
    n = len(shoes)
    values = np.array([s.values for s in shoes], dtype=np.int64).reshape(n, 10)
    types = np.zeros((n, 52), dtype=np.int64)
    kinds = np.zeros(n, dtype=np.int64)
    for i, s in enumerate(shoes):
        if s.suits is not None:
            types[i] = s.suits
        elif s.ranks is not None:
            types[i, :13] = s.ranks
            kinds[i] = Kind.RANKS
        else:
            kinds[i] = Kind.VALUES
    return values, types, kinds, np.array([s.is_infinite for s in shoes], dtype=bool)


SUIT_LETTERS = b"SHDC"
RANK_LETTERS = b"A23456789TJQK"
VALUE_OF_RANK = np.array([(r + 1) % 10 if r < 9 else 0 for r in range(13)], dtype=np.int64)
"""Each rank's point value (A = 1, …, 9; 10, J, Q, K = 0)."""


def count_cards(
    text: np.ndarray, starts: np.ndarray, suited: np.ndarray, ranked: np.ndarray, tens: np.ndarray, plain: np.ndarray
) -> None:
    """Count the cards of comma-separated lists (``--remove`` values; list ``i`` is the ASCII bytes
    ``text[starts[i]:starts[i + 1]]``, no spaces): by rank and suit into ``suited[i]`` (52), by rank alone
    into ``ranked[i]`` (13), ten-valued cards of unknown rank (``0``) into ``tens[i]`` (zeros on entry).
    ``plain[i]`` is left true where every card is one :func:`solver.cards.card_token_suited` reads as a
    rank (``A``/``1``, ``2``–``9``, ``T``/``10``, ``J``, ``Q``, ``K``, any case) with an optional suit
    letter (``S``, ``H``, ``D``, ``C``), or ``0``; else set false (an unknown card, a suit symbol: the
    caller reads that list the slow way, for its error or its symbols). Empty items are skipped, as
    :meth:`solver.cards.Shoe.remove` skips them."""
    for i in range(len(starts) - 1):
        pos = starts[i]
        end = starts[i + 1]
        while pos <= end and plain[i]:
            stop = pos
            while stop < end and text[stop] != 44:  # ","
                stop += 1
            n = stop - pos
            if n > 0:
                suit = -1
                last = text[stop - 1] & 0xDF  # upper case (letters)
                if n >= 2 and not (n == 2 and text[pos] == 48):  # "0S" is no card
                    for s in range(4):
                        if last == SUIT_LETTERS[s]:
                            suit = s
                if suit >= 0:
                    n -= 1
                rank = -1
                c = text[pos]
                if n == 1:
                    u = c & 0xDF if c >= 65 else c
                    if c == 49:  # "1", the ace
                        rank = 0
                    elif c == 48 and suit < 0:  # "0", a ten-valued card of unknown rank
                        rank = 13
                    else:
                        for r in range(13):
                            if u == RANK_LETTERS[r] and (r > 0 or c >= 65):
                                rank = r
                elif n == 2 and c == 49 and text[pos + 1] == 48:  # "10"
                    rank = 9
                if rank < 0:
                    plain[i] = False
                elif rank == 13:
                    tens[i] += 1
                elif suit >= 0:
                    suited[i, 4 * rank + suit] += 1
                else:
                    ranked[i, rank] += 1
            pos = stop + 1


_COUNTER: list[Callable[..., None]] = []


def compiled_counter() -> Callable[..., None]:
    """The numba-compiled :func:`count_cards` (compiled on first use, cached on disk)."""
    if not _COUNTER:
        from numba import njit

        from solver.store.jitcache import drop_stale

        drop_stale(__file__, "count_cards")
        _COUNTER.append(njit(cache=True, nogil=True)(count_cards))
    return _COUNTER[0]
