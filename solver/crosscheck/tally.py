"""Integer tallies of shoes and coups for the tests of structure: one layout for a file and our simulator.

A file of coups is read into a :class:`CardStream` (every card dealt, in order, with its coup and
shoe); :func:`shoe_tallies` reduces it to a :class:`ShoeTallies`, the same integer sums the
simulator's kernel adds up while it deals (:mod:`solver.simulate.kernel`), so a file and our own
simulator go through the same statistics. Cards are counted by *kind* (rank, or point value).

For the marked shoes (``s`` = 1, 2, …; ``c_s`` the kinds of all ``K_s`` cards shoe ``s`` dealt):

* ``comp``: over the shoes that dealt at least ``comp_len`` cards (half the shoe, see
  :func:`solver.simulate.kernel.shoe_test_lengths`), the sum and the sum of squares of the kinds
  among their first ``comp_len`` cards;
* ``next_*``: over consecutive shoes ``(s, s + 1)`` where shoe ``s + 1`` dealt at least ``next_len``
  cards, with ``y`` the kinds of its first ``next_len`` cards: ``Σ c_s y``, ``Σ c_s``, ``Σ K_s y``,
  ``Σ K_s c_s``, ``Σ c_s c_sᵀ``, ``Σ K_s``, ``Σ K_s²`` (all that the test of the next shoe needs).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.simulate.kernel import shoe_test_lengths

RANK_KINDS = 13
VALUE_KINDS = 10
MAX_COUP_CARDS = 9
"""The most cards a coup deals: six at punto banco and chemin de fer, nine at baccara banque."""


@dataclass(frozen=True, eq=False)
class CardStream:
    """Every card of a file of coups in deal order, with the coups' and shoes' boundaries.

    Attributes:
        ranks: rank 0–12 of each card, −1 where the file wrote ``0`` (a ten-valued card, rank unknown).
        values: point value 0–9 of each card.
        coup_starts: index of each coup's first card, and the number of cards at the end.
        coup_drew: who drew a third card: 1 where the player (ponte) did; at baccara banque 1 Player 1,
            2 Player 2 and 4 the banker, added.
        coup_lines: the line of each coup.
        shoe_starts: index of the first coup of each marked shoe (empty when the file marks none).
    """

    ranks: np.ndarray
    values: np.ndarray
    coup_starts: np.ndarray
    coup_drew: np.ndarray
    coup_lines: np.ndarray
    shoe_starts: np.ndarray

    @property
    def by_rank(self) -> bool:
        """Every card names its rank."""
        return bool(len(self.ranks) == 0 or self.ranks.min() >= 0)

    def kinds(self, by_rank: bool) -> np.ndarray:
        """Each card's rank, or its point value (int8, not copied)."""
        return self.ranks if by_rank else self.values

    def first_four(self, coups: np.ndarray, by_rank: bool) -> np.ndarray:
        """The kinds of the first four cards of the given coups, one row per coup."""
        kinds, starts = self.kinds(by_rank), self.coup_starts[coups]
        out = np.empty((len(coups), 4), dtype=np.int8)
        for j in range(4):  # column by column: no index array four times the size
            out[:, j] = kinds[starts + j]
        return out

    def shoe_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """First card and number of cards of each marked shoe."""
        first = self.coup_starts[self.shoe_starts]
        ends = np.append(first[1:], self.coup_starts[-1])
        return first, ends - first


def pair_histogram(first4: np.ndarray) -> np.ndarray:
    """Coups by their number of equal-kind pairs among the first four cards (index 0–6)."""
    rows = np.asarray(first4)
    pairs = sum((rows[:, i] == rows[:, j]).astype(np.int64) for i in range(4) for j in range(i + 1, 4))
    return np.bincount(pairs, minlength=7).astype(np.int64)


@dataclass(frozen=True, eq=False)
class ShoeTallies:
    """The integer sums of marked shoes behind the shoe-level tests (layout of the module docstring).

    Attributes:
        by_rank: kinds are ranks (13) or point values (10).
        shoes: marked shoes; ``comp_shoes`` of them dealt at least ``comp_len`` cards.
        comp: ``[sum, sum of squares]`` of the kinds among the first ``comp_len`` cards, shape (2, K).
        next_pairs: consecutive pairs of shoes counted; ``next_vec`` = ``[Σ c y, Σ c, Σ K y, Σ K c]``,
            shape (4, K); ``next_cc`` = ``Σ c cᵀ``; ``next_k1``, ``next_kk`` = ``Σ K``, ``Σ K²``.
        impossible: where a shoe dealt more cards of a kind than the stated shoe holds, in words.
    """

    by_rank: bool
    shoes: int
    comp_len: int
    comp_shoes: int
    comp: np.ndarray
    next_len: int
    next_pairs: int
    next_vec: np.ndarray
    next_cc: np.ndarray
    next_k1: int
    next_kk: int
    impossible: str | None = None

    @classmethod
    def from_kernel(
        cls, by_rank: bool, shoes: int, size: int, comp: np.ndarray, next_vec: np.ndarray, next_cc: np.ndarray, counts: np.ndarray
    ) -> ShoeTallies:
        """The simulator's tallies (arrays of 13 kinds, the first 10 used for a shoe by value)."""
        k = RANK_KINDS if by_rank else VALUE_KINDS
        comp_len, next_len = shoe_test_lengths(size)
        return cls(
            by_rank,
            shoes,
            comp_len,
            int(counts[0]),
            comp[:, :k].copy(),
            next_len,
            int(counts[1]),
            next_vec[:, :k].copy(),
            next_cc[:k, :k].copy(),
            int(counts[2]),
            int(counts[3]),
        )


def shoe_tallies(stream: CardStream, counts: tuple[int, ...], by_rank: bool, label: str) -> ShoeTallies:
    """Reduce the marked shoes of a file to :class:`ShoeTallies` (what the kernel adds up as it deals).

    Args:
        stream: the file's cards.
        counts: cards of each kind in the stated shoe.
        by_rank: count ranks (else point values).
        label: the stated shoe in words, for the message about an impossible shoe.
    """
    k = len(counts)
    size = sum(counts)
    comp_len, next_len = shoe_test_lengths(size)
    kinds = stream.kinds(by_rank)
    first, length = stream.shoe_bounds()
    shoes = len(first)
    # cards of each kind among a shoe's first j cards, for j = its length, comp_len and next_len, from
    # the running count of the kind over the whole stream (one kind at a time: memory of one count)
    full, comp_all, y = (np.zeros((shoes, k), dtype=np.int64) for _ in range(3))
    for kind in range(k):
        running = np.concatenate([np.zeros(1, np.int64), np.cumsum(kinds == kind, dtype=np.int64)])
        at = running[first]
        full[:, kind] = running[first + length] - at
        comp_all[:, kind] = running[first + np.minimum(length, comp_len)] - at
        y[:, kind] = running[first + np.minimum(length, next_len)] - at
    impossible = None
    over = full > np.asarray(counts)[None, :]
    if over.any():
        s, kind = np.argwhere(over)[0]
        name = _kind_name(int(kind), by_rank)
        line = int(stream.coup_lines[stream.shoe_starts[s]])
        impossible = (
            f"the shoe that starts at line {line} deals {int(full[s, kind])} cards of {name}, more than "
            f"the {counts[kind]} of {label}"
        )

    long_enough = length >= comp_len
    comp_rows = comp_all[long_enough]
    comp = np.array([comp_rows.sum(axis=0), (comp_rows * comp_rows).sum(axis=0)], dtype=np.int64).reshape(2, k)
    pair = np.flatnonzero(length[1:] >= next_len)  # shoe s is followed by shoe s + 1 long enough
    c, big_k, yy = full[pair], length[pair].astype(np.int64), y[pair + 1]
    next_vec = np.array(
        [(c * yy).sum(axis=0), c.sum(axis=0), (big_k[:, None] * yy).sum(axis=0), (big_k[:, None] * c).sum(axis=0)], dtype=np.int64
    ).reshape(4, k)
    return ShoeTallies(
        by_rank,
        shoes,
        comp_len,
        int(long_enough.sum()),
        comp,
        next_len,
        len(pair),
        next_vec,
        (c.T @ c).astype(np.int64),
        int(big_k.sum()),
        int((big_k * big_k).sum()),
        impossible,
    )


def _kind_name(kind: int, by_rank: bool) -> str:
    from solver.cards import RANKS

    return f"rank {RANKS[kind]}" if by_rank else f"value {kind}"


# -- repeats ---------------------------------------------------------------------------------------------

_BASES = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F))


def coup_codes(stream: CardStream, coups: np.ndarray, by_rank: bool) -> np.ndarray:
    """One integer per coup that two coups share exactly when they deal the same kinds the same way
    (four bits a card, up to :data:`MAX_COUP_CARDS` cards, after the code of who drew)."""
    kinds = stream.kinds(by_rank)
    start = stream.coup_starts[coups]
    size = stream.coup_starts[coups + 1] - start
    code = stream.coup_drew[coups].astype(np.int64)
    for i in range(MAX_COUP_CARDS):
        here = i < size
        card = np.where(here, kinds[np.minimum(start + i, len(kinds) - 1)] + 1, 0)
        code = code * 16 + card
    out: np.ndarray = code
    return out


def repeated_rows(rows: np.ndarray) -> tuple[int, int]:
    """How many rows equal an earlier row, and the index of the first such row (−1 if none).

    Rows are hashed twice (64-bit polynomial hashes); rows that share both hashes are then compared
    exactly, so the count is exact.
    """
    if len(rows) < 2:
        return 0, -1
    h = [np.zeros(len(rows), dtype=np.uint64) for _ in _BASES]
    with np.errstate(over="ignore"):
        for j in range(rows.shape[1]):  # column by column: no copy of the rows (a window view stays a view)
            column = rows[:, j].astype(np.uint64)
            for hash_, base in zip(h, _BASES):
                hash_ *= base
                hash_ += column
    order = np.lexsort((h[1], h[0]))
    same = (h[0][order][1:] == h[0][order][:-1]) & (h[1][order][1:] == h[1][order][:-1])
    if not same.any():
        return 0, -1
    candidates = np.unique(np.concatenate([order[1:][same], order[:-1][same]]))
    seen: dict[bytes, int] = {}
    found, first = 0, -1
    for i in sorted(candidates.tolist()):
        key = rows[i].tobytes()
        if key in seen:
            found += 1
            first = i if first < 0 else first
        else:
            seen[key] = i
    return found, first


def windows(codes: np.ndarray, width: int) -> np.ndarray:
    """The rows of ``width`` consecutive codes (a view, not a copy)."""
    return np.lib.stride_tricks.sliding_window_view(codes, width)
