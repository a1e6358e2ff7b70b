"""Exact laws behind the tests of structure: pairs within a coup, the spread of a shoe's cards, repeats.

The cards are counted by *kind*: by rank when the shoe is known rank by rank (and the coups name
ranks), by point value otherwise. For a shoe of ``N`` cards with ``n_k`` cards of kind ``k``:

* **pairs**: the number of equal-kind pairs among the first four cards of a coup dealt from the full
  shoe (0, 1, 2 (two pairs), 3 (three of a kind) or 6 (four of a kind)). Each of the 15 set
  partitions of the four positions into blocks of equal kind has probability
  ``Σ_{distinct kinds k_B} Π_B (n_{k_B})_{|B|} / (N)_4`` (falling factorials; ``p_k^{|B|}`` for an
  infinite shoe, dealt with replacement). The rate of a pair, ``Σ n_k (n_k − 1) / (N (N − 1))``,
  depends on the size of the shoe and not only on its proportions: 31/415 at 8 decks, 27/363 at 7,
  1/13 with replacement;
* **spread**: Pearson's ``Q = Σ_k (x_k − μ_k)² / μ_k`` of the kinds among the first ``L`` cards of
  a shoe (``μ_k = L n_k / N``), whose counts are multivariate hypergeometric: exactly
  ``E Q = (N − L)/(N − 1) Σ_k (1 − n_k/N)``, and ``Var Q`` from the factorial moments
  ``E Π_k (x_k)_{a_k} = (L)_{Σa} Π_k (n_k)_{a_k} / (N)_{Σa}`` (Johnson, Kotz and Balakrishnan,
  *Discrete Multivariate Distributions*, 1997, ch. 39). A shoe smaller than stated deals a tighter
  spread, a shoe dealt with replacement a wider one;
* **repeats**: no sequence of ``L`` cards dealt from the full shoe has probability above
  ``Π_{t<L} min(1, max_k n_k / (N − t))``, so two independent such sequences agree with at most that
  probability (``P(X = Y) = Σ_x P(x)² ≤ max_x P(x)``).

>>> law = pair_law((32,) * 13, infinite=False)
>>> law[1], sum(law.values())
(Fraction(1396736, 3942085), Fraction(1, 1))
>>> pair_mean((32,) * 13, infinite=False)
Fraction(186, 415)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import permutations
from math import comb, prod

from solver.deal.weights import falling

PAIR_COUNTS = (0, 1, 2, 3, 6)
"""The possible numbers of equal-kind pairs among four cards."""

_PARTITIONS: tuple[tuple[int, ...], ...] = (
    (1, 1, 1, 1),
    (2, 1, 1),
    (2, 1, 1),
    (2, 1, 1),
    (2, 1, 1),
    (2, 1, 1),
    (2, 1, 1),
    (2, 2),
    (2, 2),
    (2, 2),
    (3, 1),
    (3, 1),
    (3, 1),
    (3, 1),
    (4,),
)
"""The block sizes of the 15 set partitions of four positions (one line per partition)."""


def _block_sum(counts: tuple[int, ...], sizes: tuple[int, ...], infinite: bool) -> Fraction:
    """``Σ`` over distinct kinds given to the blocks of ``Π n_{k_B}`` falling ``|B|`` (or ``p^{|B|}``)."""
    live = [c for c in counts if c]
    total = sum(live)
    acc = 0
    for kinds in permutations(range(len(live)), len(sizes)):
        if infinite:
            acc += prod(live[k] ** b for k, b in zip(kinds, sizes))
        else:
            acc += prod(falling(live[k], b) for k, b in zip(kinds, sizes))
    return Fraction(acc, total**4 if infinite else falling(total, 4))


@cache
def pair_law(counts: tuple[int, ...], infinite: bool) -> dict[int, Fraction]:
    """The exact law of the number of equal-kind pairs among the first four cards of a coup.

    Args:
        counts: cards of each kind in the shoe (13 ranks or 10 values).
        infinite: dealt with replacement (then only the proportions matter).

    Returns:
        Pair count (0, 1, 2, 3, 6) → probability; the probabilities sum to 1 exactly.
    """
    out = dict.fromkeys(PAIR_COUNTS, Fraction(0))
    for sizes in _PARTITIONS:
        out[sum(comb(b, 2) for b in sizes)] += _block_sum(counts, sizes, infinite)
    return out


def pair_mean(counts: tuple[int, ...], infinite: bool) -> Fraction:
    """The expected number of equal-kind pairs among four cards: ``6 Σ n_k (n_k − 1) / (N (N − 1))``."""
    return sum((k * q for k, q in pair_law(counts, infinite).items()), Fraction(0))


def pair_variance(counts: tuple[int, ...], infinite: bool) -> Fraction:
    """The exact variance of the number of equal-kind pairs among four cards."""
    law = pair_law(counts, infinite)
    mean = pair_mean(counts, infinite)
    return sum((k * k * q for k, q in law.items()), Fraction(0)) - mean * mean


# -- the spread of the first L cards of a shoe ---------------------------------------------------------


def _stirling2(p: int, i: int) -> int:
    """Stirling numbers of the second kind: ``x^p = Σ_i S(p, i) (x)_i``."""
    if p == i:
        return 1
    if i == 0 or i > p:
        return 0
    return i * _stirling2(p - 1, i) + _stirling2(p - 1, i - 1)


def _raw_moment(n: tuple[int, ...], total: int, draws: int, powers: tuple[int, ...]) -> Fraction:
    """``E Π_j x_j^{powers_j}`` for the hypergeometric counts ``x_j`` of the kinds with ``n`` cards."""

    def expand(j: int, orders: tuple[int, ...]) -> Fraction:
        if j == len(powers):
            k = sum(orders)
            num = falling(draws, k) * prod(falling(c, a) for c, a in zip(n, orders))
            return Fraction(num, falling(total, k))
        return sum((_stirling2(powers[j], i) * expand(j + 1, orders + (i,)) for i in range(powers[j] + 1)), Fraction(0))

    return expand(0, ())


@cache
def spread_moments(counts: tuple[int, ...], draws: int) -> tuple[Fraction, Fraction]:
    """Exact mean and variance of Pearson's ``Q`` over the kinds of the first ``draws`` cards of a shoe.

    ``Q = Σ_k (x_k − μ_k)² / μ_k`` with ``μ_k = draws · n_k / N``, kinds with no card left out.

    >>> spread_moments((2, 2), 2)
    (Fraction(2, 3), Fraction(8, 9))
    """
    n = tuple(c for c in counts if c)
    total = sum(n)
    if not 0 < draws <= total:
        raise ValueError(f"draw between 1 and {total} cards, not {draws}")
    mu = [Fraction(draws * c, total) for c in n]

    def central(j: int, power: int) -> Fraction:
        return sum(
            (comb(power, i) * _raw_moment((n[j],), total, draws, (i,)) * (-mu[j]) ** (power - i) for i in range(power + 1)),
            Fraction(0),
        )

    def central22(j: int, k: int) -> Fraction:
        acc = Fraction(0)
        for a in range(3):
            for b in range(3):
                acc += (
                    comb(2, a)
                    * comb(2, b)
                    * (-mu[j]) ** (2 - a)
                    * (-mu[k]) ** (2 - b)
                    * _raw_moment((n[j], n[k]), total, draws, (a, b))
                )
        return acc

    second = [central(j, 2) for j in range(len(n))]
    mean = sum((s / m for s, m in zip(second, mu)), Fraction(0))
    square = sum((central(j, 4) / mu[j] ** 2 for j in range(len(n))), Fraction(0))
    for j in range(len(n)):
        for k in range(j + 1, len(n)):
            square += 2 * central22(j, k) / (mu[j] * mu[k])
    return mean, square - mean * mean


# -- repeats ---------------------------------------------------------------------------------------------


def sequence_bound(counts: tuple[int, ...], length: int, infinite: bool) -> Fraction:
    """An upper bound on the probability of any one sequence of ``length`` kinds dealt from the shoe.

    >>> sequence_bound((4,) * 13, 2, infinite=False)
    Fraction(4, 663)
    """
    total, most = sum(counts), max(counts)
    if infinite:
        return Fraction(most, total) ** length
    out = Fraction(1)
    for t in range(length):
        if total - t <= 0:
            break
        out *= min(Fraction(1), Fraction(most, total - t))
    return out
