"""The dealing kernel: real shoes, one coup after another, compiled ahead of time in C.

One call, ``deal_shoes(table, n_shoes, rng, counts)``, deals ``n_shoes`` shoes of the :class:`Table`
(the card codes ``codes``, ranks 0–12, or point values when the shoe is known by value only;
``value_of`` maps a code to its point value; the draw tables, the burn, the cut card) and adds every
coup into the integer :class:`Counts`: two structs, whose fields the C kernel reads by name. It is a
plain loop, the way a table deals:

* the shoe is shuffled by Fisher–Yates, one position at a time from the top (:func:`shuffle`, the
  one shuffle of every kernel: the banque and counting kernels shuffle with it too): the card for
  position ``t`` is drawn uniformly from the cards not yet placed (index ``t + rng.integers(0, n − t)``,
  :func:`card_pick`: exactly uniform) and swapped there. The dealt sequence is a uniformly random
  arrangement of the shoe whatever order the array was left in by the previous shoe. Only the
  positions the table can reach are shuffled: the burn card by card, then, before the first coup,
  every position a coup can reach (up to ``2 × COUP_CARDS`` past the cut card, for the coup in
  progress and one more, or past the burn where a first coup of a small shoe starts behind the cut
  card, and at most ``COUP_CARDS`` per coup allowed); cards further behind the cut card are never
  shuffled, because no one sees them. The coups then deal the shuffled cards in order;
  shuffling ahead of the coups keeps the generator out of the chain of decisions the cards make;
* the burn (:class:`BurnMode`): none, a fixed count, or the punto banco custom (turn the first card
  and burn as many more as it counts, a ten-valued card burning 10);
* coups until the cut card appears (the card behind which ``cut`` cards remain): the coup in
  progress when it appears is finished, optionally one more coup is dealt, then a new shoe;
* a coup: Player (ponte), Banker, Player, Banker; a natural ends it; otherwise the player draws with
  probability ``ptab[p1, p2]`` and the banker with ``btab[b1, b2, seen]`` (``seen`` the player's
  third card, or 10 when he stood). A uniform is drawn only where the probability lies strictly
  between 0 and 1 (``rng.random() < q``), so pure strategies use no randomness beyond the shuffle.

The random stream, the contract a seed keeps: per shoe, the burn's cards (each a
``rng.integers(0, m)``, ``m`` the cards not yet placed), then the positions shuffled ahead (one
``rng.integers(0, m)`` each, in order), then each mixed decision's ``rng.random()`` in the order the
coups meet them. With PCG64 a pick takes half of one 64-bit output. (Before 2026-11-30 each card was
drawn as the coup dealt it, as ``floor(rng.random() m)``, a whole output each and uniform up to a bias
below ``m / 2^53``: the same seed dealt other shoes then.)

The function is written here in plain Python (:func:`deal_shoes`, the reference), and runs in one
of three ways (:data:`solver.simulate.engines.ENGINES`), each consuming the same uniforms of the generator in the same order,
so for one seed all three give identical tallies, which the tests check bit for bit:

* ``c``: the same loop in C (solver/simulate/ckernel.c, built by ``pip install``), reading numpy's
  bit generator through its C interface (PCG64, the simulator's generator, stepped inline from the
  state numpy publishes). The default: no JIT to load, so a short run starts in a fraction of a
  second and a long one deals faster;
* ``numba``: this function compiled by numba on first use (cached on disk); what the simulator
  uses, saying so on stderr once (with how to build the C kernel, for the way the package was
  installed), where the C kernel was not built;
* ``python``: this function as it stands (some 200 to 400 times slower: ``rng.integers`` is a costly
  call from Python).

Counts (int64, added to):
    pos_counts[k, w]: coups at position k in their shoe (0 = first) won by w (0 banker, 1 player/ponte, 2 tie).
    first_detail[key]: the first coup of each shoe by its :func:`detail_key`.
    first_cards[v]: point values among the four cards every first coup deals.
    burn_winner[t, w]: the first coup by the value of the turned burn card ``t`` (10: none turned).
    moments[i, j]: sum over shoes of x_i x_j (upper triangle, i <= j), with x = (1, banker wins,
        player wins, ties, coups, first coup won by banker, by player, tied); row 0 holds the sums.

Counts for the cross-check's tests of structure (:mod:`solver.crosscheck.structure`; cards counted by
their code, so by rank, or by value for a shoe known by value; "dealt" means dealt in a coup, not burned):
    first_pairs[k]: first coups by their number k of equal-code pairs among their first four cards.
    serial[a, b]: consecutive shoes of this call whose first coups were won by a, then by b.
    comp[0 / 1, c]: over the shoes that dealt at least ``comp_len`` cards, the sum / sum of squares of
        the number of cards of code c among their first ``comp_len``; shoe_counts[0] counts those shoes.
    next_vec, next_cc, shoe_counts[1:4]: over consecutive shoes (s, s + 1) of this call where shoe s + 1
        dealt at least ``next_len`` cards, with c the codes of all K cards shoe s dealt and y those of
        the first ``next_len`` of shoe s + 1: next_vec = (Σ c y, Σ c, Σ K y, Σ K c) elementwise,
        next_cc = Σ c cᵀ, shoe_counts[1:4] = (pairs, Σ K, Σ K²).
    These are kept only when ``comp_len`` or ``next_len`` is positive: the C kernel then deals
    with a copy of its loop that counts every card (about a fifth slower), and otherwise with one
    that does not, as fast as before they existed.

Engines that deal wrongly on purpose, to show that the cross-check sees them, are test doubles in
tests/faulty_engines.py, outside this loop (before 0.4.0 a ``turn-redeal`` burn lived in it).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, NamedTuple

import numpy as np


class BurnMode(StrEnum):
    """How the start of each shoe is burned: ``none``; ``fixed`` (a number of cards); ``turn`` (the
    punto banco custom: turn the first card and burn as many more as it counts, a ten-valued card 10)."""

    NONE = "none"
    FIXED = "fixed"
    TURN = "turn"

    @property
    def code(self) -> int:
        """The number the compiled kernels read for this mode (0, 1, 2 in the order above)."""
        return list(BurnMode).index(self)


# The compiled loops (C, numba) compare numbers: these are the modes' codes, named once here.
BURN_NONE = BurnMode.NONE.code
BURN_FIXED = BurnMode.FIXED.code
BURN_TURN = BurnMode.TURN.code
N_MOMENTS = 8
N_CODES = 13  # the most card codes: 13 ranks (a shoe known by value uses the first 10)
N_SHOE_COUNTS = 4
COUP_CARDS = 6  # the most cards one coup deals
STOOD = 10
NO_TURN = 10


NEXT_SHOE_CARDS = 16
"""The cards of a shoe's start that the cross-check's test of the next shoe compares with the shoe
before it (the cards left behind a cut card, put back unshuffled on top, are dealt there)."""


class Table(NamedTuple):
    """What the kernel deals: the same for every shoe of a run (the C kernel reads the fields by name).

    Attributes:
        codes: int64, one code per physical card; value_of: int64, each code's point value.
        max_coups: the most coups a shoe holds (1: one coup per freshly shuffled shoe).
        ptab, btab: float64 draw tables, ``ptab[p1, p2]`` and ``btab[b1, b2, seen]``.
        burn_mode: a :class:`BurnMode`'s code; burn_count: the cards of a fixed burn.
        cut: cards behind the cut card; extra_coup: one more coup after the cut card's.
        comp_len, next_len: the shoe-level tallies' lengths (0, 0: not kept; :func:`shoe_test_lengths`).
    """

    codes: np.ndarray
    value_of: np.ndarray
    max_coups: int
    ptab: np.ndarray
    btab: np.ndarray
    burn_mode: int
    burn_count: int
    cut: int
    extra_coup: bool
    comp_len: int
    next_len: int


class Counts(NamedTuple):
    """The integer arrays a call adds to (their meaning: the module docstring)."""

    pos_counts: np.ndarray
    first_detail: np.ndarray
    first_cards: np.ndarray
    burn_winner: np.ndarray
    moments: np.ndarray
    first_pairs: np.ndarray
    serial: np.ndarray
    comp: np.ndarray
    next_vec: np.ndarray
    next_cc: np.ndarray
    shoe_counts: np.ndarray


def shoe_test_lengths(n_cards: int) -> tuple[int, int]:
    """The cards of a shoe that the cross-check's shoe-level tests count: the first half of each shoe
    (every shoe deals at least that many), and its first :data:`NEXT_SHOE_CARDS` (at most half).

    >>> shoe_test_lengths(416)
    (208, 16)
    """
    half = n_cards // 2
    return half, min(NEXT_SHOE_CARDS, half)


def card_pick(rng: Any, m: int) -> int:
    """A uniform index in ``0..m-1`` (``1 <= m < 2**32``): ``rng.integers(0, m)``.

    numpy draws it by Lemire's method on 32-bit halves of the bit generator's outputs
    (``buffered_bounded_lemire_uint32``; D. Lemire, "Fast random integer generation in an interval",
    ACM TOMACS 29(1), 2019): the high 32 bits of ``x m`` for the next 32-bit ``x``, drawn again while
    the low 32 bits fall below ``2^32 mod m``, so every index has probability exactly ``1/m``. For
    PCG64 a 32-bit draw is the low half of a 64-bit output, the high half kept for the next one
    (``rng.random()`` in between leaves it kept): one output serves two cards. The C kernel repeats
    this inline, numba calls numpy's algorithm as numba ports it (:func:`register_numba`).

    >>> rng = np.random.default_rng(5)
    >>> [card_pick(rng, 416) for _ in range(3)] == list(np.random.default_rng(5).integers(0, 416, 3))
    True
    """
    return int(rng.integers(0, m))


def shuffle(cards: np.ndarray, start: int, stop: int, rng: Any) -> None:
    """Fisher–Yates steps for positions ``start .. stop − 1`` of ``cards``: the card for position ``t``
    drawn uniformly from ``cards[t:]`` (:func:`card_pick`) and swapped there. The one shuffle of every
    kernel (this one, banque's and the counting kernel's; numba compiles it into them): burning ``k``
    cards is ``shuffle(cards, top, top + k)``, and a whole shoe is ``shuffle(cards, 0, len(cards))``,
    a uniformly random arrangement whatever order the array was in.

    >>> cards = np.arange(5)
    >>> shuffle(cards, 0, 5, np.random.default_rng(1)); sorted(cards.tolist())
    [0, 1, 2, 3, 4]
    """
    n = len(cards)
    for t in range(start, stop):
        j = t + card_pick(rng, n - t)
        c = cards[j]
        cards[j] = cards[t]
        cards[t] = c


_REGISTERED: list[bool] = []


def register_numba() -> None:
    """Teach numba :func:`card_pick` (numpy's algorithm as numba ports it) and :func:`shuffle` (its own
    body, inlined), once, before compiling a kernel that calls them; the plain-Python engines keep
    calling the Python functions."""
    if _REGISTERED:
        return
    from numba.extending import overload
    from numba.np.random.random_methods import buffered_bounded_lemire_uint32

    @overload(card_pick)
    def _card_pick(rng: Any, m: Any) -> Callable[[Any, Any], Any]:
        # numba's Generator.integers(0, m) draws exactly this, into a new array of one element
        def pick(rng: Any, m: Any) -> Any:
            if m == 1:  # numpy draws nothing for a range of one
                return 0
            return np.int64(buffered_bounded_lemire_uint32(rng.bit_generator, np.uint32(m - 1)))

        return pick

    @overload(shuffle, inline="always")
    def _shuffle(cards: np.ndarray, start: int, stop: int, rng: Any) -> Any:  # numba asks the same signature
        return shuffle

    _REGISTERED.append(True)


# The first coup's detail is tallied by solver.deal.tree.detail_key's code (N_DETAIL of them); the loop
# below writes the same formula inline, as the C kernel does (tests/test_simulate.py holds the three
# kernels equal, and tests/test_crosscheck.py reads the tallies through detail_key).


def deal_shoes(table: Table, n_shoes: int, rng: Any, counts: Counts) -> int:
    """Deal ``n_shoes`` shoes of ``table`` and add their coups to ``counts``; returns the coups dealt."""
    cards = table.codes.copy()
    value_of = table.value_of
    ptab = table.ptab
    btab = table.btab
    max_coups = table.max_coups
    comp_len = table.comp_len
    next_len = table.next_len
    pos_counts = counts.pos_counts
    n = len(cards)
    last = n - table.cut  # cards at index >= last lie behind the cut card
    x = np.zeros(N_MOMENTS, dtype=np.int64)
    hand = np.zeros(4, dtype=np.int64)
    dealt = np.zeros(N_CODES, dtype=np.int64)  # cards of each code this shoe has dealt so far
    head = np.zeros(N_CODES, dtype=np.int64)  # ... among its first next_len
    before = np.zeros(N_CODES, dtype=np.int64)  # ... the shoe before dealt in all
    before_k = -1  # cards the shoe before dealt (-1: no shoe before in this call)
    before_w = -1  # the outcome of the first coup of the shoe before
    counting = comp_len > 0 or next_len > 0  # the shoe tallies asked for
    total_coups = 0
    for _shoe in range(n_shoes):
        for k in range(N_CODES):
            dealt[k] = 0
        n_dealt = 0
        top = 0
        turned = NO_TURN
        n_burn = 0
        if table.burn_mode == BURN_FIXED:
            n_burn = table.burn_count
        elif table.burn_mode == BURN_TURN:
            shuffle(cards, 0, 1, rng)
            turned = value_of[cards[0]]
            top = 1
            n_burn = 10 if turned == 0 else turned
        shuffle(cards, top, top + n_burn, rng)
        top += n_burn
        # the positions the coups can reach, shuffled before the first coup (see "The random stream")
        ahead = min(n, max(last, top) + 2 * COUP_CARDS, top + max_coups * COUP_CARDS)
        shuffle(cards, top, ahead, rng)
        for i in range(N_MOMENTS):
            x[i] = 0
        x[0] = 1
        coup = 0
        stop_after = False
        while coup < max_coups:
            start = top
            for i in range(4):
                hand[i] = value_of[cards[top]]
                top += 1
            p1 = hand[0]
            b1 = hand[1]
            p2 = hand[2]
            b2 = hand[3]
            pt = (p1 + p2) % 10
            bt = (b1 + b2) % 10
            natural = 1 if (pt >= 8 or bt >= 8) else 0
            p_drew = 0
            b_drew = 0
            if natural == 0:
                seen = STOOD
                q = ptab[p1, p2]
                if q >= 1.0 or (q > 0.0 and rng.random() < q):
                    seen = value_of[cards[top]]
                    top += 1
                    pt = (pt + seen) % 10
                    p_drew = 1
                r = btab[b1, b2, seen]
                if r >= 1.0 or (r > 0.0 and rng.random() < r):
                    bt = (bt + value_of[cards[top]]) % 10
                    top += 1
                    b_drew = 1
            w = 0 if bt > pt else (1 if pt > bt else 2)
            pos_counts[coup, w] += 1
            x[1 + w] += 1
            if coup == 0:
                counts.first_detail[pt * 80 + bt * 8 + p_drew * 4 + b_drew * 2 + natural] += 1
                counts.first_cards[p1] += 1
                counts.first_cards[b1] += 1
                counts.first_cards[p2] += 1
                counts.first_cards[b2] += 1
                counts.burn_winner[turned, w] += 1
                x[5 + w] += 1
                if counting:
                    pairs = 0
                    for i in range(start, start + 4):
                        for k in range(i + 1, start + 4):
                            if cards[i] == cards[k]:
                                pairs += 1
                    counts.first_pairs[pairs] += 1
                    if before_w >= 0:
                        counts.serial[before_w, w] += 1
                    before_w = w
            for i in range(start, top if counting else start):  # the coup's cards: start..top-1, in order
                c = cards[i]
                dealt[c] += 1
                n_dealt += 1
                if n_dealt == next_len:
                    for k in range(N_CODES):
                        head[k] = dealt[k]
                if n_dealt == comp_len:
                    for k in range(N_CODES):
                        counts.comp[0, k] += dealt[k]
                        counts.comp[1, k] += dealt[k] * dealt[k]
                    counts.shoe_counts[0] += 1
            coup += 1
            if stop_after:
                break
            if top > last:  # the cut card has appeared during this coup
                if table.extra_coup:
                    stop_after = True
                else:
                    break
        x[4] = coup
        total_coups += coup
        if counting and before_k >= 0 and n_dealt >= next_len:
            for k in range(N_CODES):
                counts.next_vec[0, k] += before[k] * head[k]
                counts.next_vec[1, k] += before[k]
                counts.next_vec[2, k] += before_k * head[k]
                counts.next_vec[3, k] += before_k * before[k]
                for m in range(N_CODES):
                    counts.next_cc[k, m] += before[k] * before[m]
            counts.shoe_counts[1] += 1
            counts.shoe_counts[2] += before_k
            counts.shoe_counts[3] += before_k * before_k
        if counting:
            for k in range(N_CODES):
                before[k] = dealt[k]
            before_k = n_dealt
        for i in range(N_MOMENTS):
            for k in range(i, N_MOMENTS):
                counts.moments[i, k] += x[i] * x[k]
    return total_coups
