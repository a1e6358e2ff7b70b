"""Text with exact numbers filled in by compiled code: a template of literal bytes and slots, filled
line by line (:func:`fill`), each fraction reduced by :mod:`solver.exact.wide`
(:func:`~solver.exact.wide.reduce_listed`, or :func:`~solver.exact.wide.reduce_by` where it does not apply,
then by the payout scale's primes) and written by :mod:`solver.exact.digits`
(:func:`~solver.exact.digits.write_quotient`).

The batch of ``baccarat punto --shoes`` writes its JSON lines this way (the templates are cut from what
``json.dumps`` writes for a result, :mod:`solver.report.punto_batch`): a line's denominators are products of
known factors (``N``, ``N − 1``, …; the payout scales), so each line factors them once (a sieve of
smallest factors) and every fraction of the line is reduced by those primes: tested all at once, each
on the numerator itself, and divided out once (:func:`~solver.exact.wide.reduce_listed`).

The writer stores eight bytes at a time (:func:`~solver.exact.digits.write_leading`): ``out`` must hold eight
bytes more than the text.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from solver.exact.digits import TWO_DIGITS, copy_back, write_quotient, write_signed
from solver.exact.wide import (
    LISTED_HIGH,
    LISTED_ROWS,
    MAX_PRIMES,
    ONE,
    TABLE_ROWS,
    ZERO,
    from_int,
    inverses,
    list_primes,
    mul_small,
    reduce_by,
    reduce_listed,
    residues,
    sub,
)

U64 = np.uint64

LITERAL, NUMBER, FRACTION, LINE, TEXT, LIST, INT, NEGATED = range(8)
"""Template operations (rows ``(op, a, b, c, d)`` of :func:`fill`'s ``ops``): ``LITERAL`` bytes ``a``
to ``a + b`` of the literals; ``NUMBER`` value ``a`` as a signed integer; ``FRACTION`` value ``a``
(negated if ``b``) over the line's denominator ``c`` (value ``c``: 0 with the first six factors, 1 with
the other four) times multiplier ``d`` (−1: none); ``LINE`` the line number; ``TEXT`` the line's text;
``LIST`` the line's integers ``a`` to ``a + b`` as a JSON list; ``INT`` its integer ``a``; ``NEGATED``
the last fraction written, negated (a house edge after its expected value: one reduction for both)."""


KNOWN_LIMIT = 1 << 17
"""The inverses of the primes below this are kept from line to line (a shoe's factors are close to those of the
lines before it: found once a chunk, not once a line); a larger sieve keeps none (2^17 primes' four words
are 4 MB)."""

SEEN_BITS = 8
"""A line's fractions already written are kept in a table of ``2^SEEN_BITS`` entries (a line has about a
hundred fractions, forty of them repeats: a bet's push is the tie's probability, a loss another's win)."""

SEEN_SEED = U64(0x9E3779B97F4A7C15)
"""The multiplier of the table's hash (Fibonacci hashing: ``2^64`` over the golden ratio, odd)."""


@njit(cache=True, inline="always")
def seen_slot(h: Any, lo: Any, key: Any) -> Any:
    """The entry of a fraction (numerator ``(h, lo)``, denominator and multiplier ``key``) in the table of
    those a line has written."""
    return ((lo ^ (h * U64(0xD6E8FEB86659FD93)) ^ U64(key)) * SEEN_SEED) >> U64(64 - SEEN_BITS)


@njit(cache=True, inline="always")
def smallest_factors(limit: Any) -> Any:
    """``spf[n]``, the smallest prime factor of every ``2 <= n <= limit`` (a sieve)."""
    spf = np.zeros(limit + 1, np.int64)
    for n in range(2, limit + 1):
        if spf[n] == 0:
            for m in range(n, limit + 1, n):
                if spf[m] == 0:
                    spf[m] = n
    return spf


@njit(cache=True, inline="always")
def factor_table(factors: Any, spf: Any, table: Any, exps: Any, known: Any) -> Any:
    """The primes of two denominators, ``∏ factors[0:6]`` and ``∏ factors[6:10]`` (positive factors of at
    most ``len(spf) − 1``), into column ``k`` of ``table``: ``(p, p⁻¹ mod 2^64, limit, inverse hi, inverse
    lo)`` (:func:`~solver.exact.wide.inverses`; the residues of rows 5 to 7 are :func:`add_residues`'), their
    exponents in the first into ``exps[0]``, in the second into ``exps[1]``; returns how many primes. The
    inverses of a prime below ``known.shape[1]`` are taken from ``known`` where it holds them (a non-zero
    first row), and put there where it does not."""
    n = 0
    for j in range(10):
        x = factors[j]
        row = 0 if j < 6 else 1
        while x > 1:
            p = spf[x]
            k = 0
            while x % p == 0:
                x //= p
                k += 1
            at = n
            for i in range(n):
                if table[0, i] == U64(p):
                    at = i
                    break
            if at == n:
                table[0, n] = U64(p)
                if p != 2:
                    if p < known.shape[1] and known[0, p] != ZERO:
                        table[1, n], table[2, n], table[3, n], table[4, n] = known[0, p], known[1, p], known[2, p], known[3, p]
                    else:
                        table[1, n], table[2, n], table[3, n], table[4, n] = inverses(U64(p))
                        if p < known.shape[1]:
                            known[0, p], known[1, p], known[2, p], known[3, p] = (
                                table[1, n],
                                table[2, n],
                                table[3, n],
                                table[4, n],
                            )
                exps[0, n] = 0
                exps[1, n] = 0
                n += 1
            exps[row, at] += k
    return n


@njit(cache=True, inline="always")
def add_residues(table: Any, n: Any) -> Any:
    """Rows 5 to 7 of the first ``n`` columns of a table of primes (:func:`factor_table`): the residues the
    general reduction (:func:`~solver.exact.wide.reduce_by`) tests 128-bit numbers by."""
    for k in range(n):
        if table[0, k] != U64(2):
            table[5, k], table[6, k], table[7, k] = residues(table[0, k])


def fill(
    ops: Any,
    op_start: Any,
    literals: Any,
    template: Any,
    values_hi: Any,
    values_lo: Any,
    factors: Any,
    lines: Any,
    text: Any,
    text_start: Any,
    ints: Any,
    m_values: Any,
    m_table: Any,
    m_exps: Any,
    m_start: Any,
    out: Any,
) -> Any:
    """Write one line per shoe ``i`` into ``out`` from template ``template[i]`` (its operations are rows
    ``op_start[t]:op_start[t + 1]`` of ``ops``, see :data:`LITERAL`), each ended by a newline; returns
    the bytes written. Per shoe: ``values_hi/lo[i]`` (the 128-bit values the slots name; values 0 and 1
    are the two denominators), ``factors[i]`` (the denominators' six and four factors, positive),
    ``lines[i]``, its text ``text[text_start[i]:text_start[i + 1]]`` and its integers ``ints[i]``.
    Multiplier ``d`` of a fraction is ``m_values[d]``, its primes columns ``m_start[d]:m_start[d + 1]`` of
    ``m_table`` (as :func:`factor_table`'s) with exponents ``m_exps``. ``out`` must hold every line and eight bytes more.

    A fraction the line has written already (the same numerator, up to its sign, over the same
    denominator and multiplier: compared whole, never by a hash alone) is copied from where it was
    written, not reduced again."""
    limit = 2
    for i in range(len(template)):
        for j in range(10):
            limit = max(limit, factors[i, j])
    spf = smallest_factors(limit)
    known = np.zeros((4, limit + 1 if limit < KNOWN_LIMIT else 1), np.uint64)
    table = np.zeros((TABLE_ROWS, MAX_PRIMES), np.uint64)
    exps = np.zeros((2, MAX_PRIMES), np.int64)
    listed = np.zeros((2, LISTED_ROWS, 4 * MAX_PRIMES), np.uint64)  # at most 78 a row: 6 factors below 2^22, 13 odd primes each
    n_listed = np.zeros(2, np.int64)
    e2_listed = np.zeros(2, np.int64)
    seen_keys = np.zeros((2, 1 << SEEN_BITS), np.uint64)  # numerator (hi, lo) of each entry
    seen = np.full((4, 1 << SEEN_BITS), -1, np.int64)  # its line, denominator and multiplier, start, end
    pos = 0
    last = last_end = 0
    for i in range(len(template)):
        n_primes = factor_table(factors[i], spf, table, exps, known)
        with_residues = False
        listable = True
        for r in range(2):
            n_listed[r], e2_listed[r], fits = list_primes(table, exps, r, n_primes, listed, r)
            listable = listable and fits
        t = template[i]
        for o in range(op_start[t], op_start[t + 1]):
            op = ops[o, 0]
            a = ops[o, 1]
            if op == LITERAL:
                at, src = np.uint64(pos), np.uint64(a)  # unsigned indices: the copy vectorises
                for j in range(np.uint64(ops[o, 2])):
                    out[at + j] = literals[src + j]
                pos += ops[o, 2]
            elif op == NUMBER:
                pos = write_signed(out, pos, values_hi[i, a], values_lo[i, a])
            elif op == FRACTION:
                h, lo = values_hi[i, a], values_lo[i, a]
                if ops[o, 2]:
                    h, lo = sub(ZERO, ZERO, h, lo)
                last = pos
                if h >> U64(63) != ZERO:  # "-", then the fraction of -m
                    out[pos] = 45
                    pos += 1
                    h, lo = sub(ZERO, ZERO, h, lo)
                elif h == ZERO and lo == ZERO:
                    out[pos] = 48
                    pos += 1
                    last_end = pos
                    continue
                c = ops[o, 3]
                d = ops[o, 4]
                key = 2 * d + 2 + c  # c is 0 or 1, d at least -1
                s = seen_slot(h, lo, key)
                if seen[0, s] == i and seen[1, s] == key and seen_keys[0, s] == h and seen_keys[1, s] == lo:
                    pos = copy_back(out, pos, seen[2, s], seen[3, s] - seen[2, s])
                else:
                    scale = ONE
                    m_lo = m_hi = 0
                    if d >= 0:
                        scale, m_lo, m_hi = m_values[d], m_start[d], m_start[d + 1]
                    seen[0, s], seen[1, s], seen[2, s] = i, key, pos
                    seen_keys[0, s], seen_keys[1, s] = h, lo
                    dh, dl = values_hi[i, c], values_lo[i, c]
                    done = False
                    if listable and h < LISTED_HIGH:
                        rh, rl, rdh, rdl = reduce_listed(h, lo, dh, dl, listed, c, n_listed[c], e2_listed[c])
                        if rdh != ZERO or rdl != ZERO:
                            h, lo, dh, dl = rh, rl, rdh, rdl
                            done = True
                    if not done:  # the general way (its residues found once a line, where it is needed)
                        if not with_residues:
                            add_residues(table, n_primes)
                            with_residues = True
                        h, lo, dh, dl = reduce_by(h, lo, dh, dl, table, exps, c, 0, n_primes)
                    if m_hi > m_lo:  # then by the scale's primes (written here: as a function, 1.2 x the fill's time)
                        dh, dl = mul_small(dh, dl, scale)
                        h, lo, dh, dl = reduce_by(h, lo, dh, dl, m_table, m_exps, 0, m_lo, m_hi)
                    pos = write_quotient(out, pos, h, lo, dh, dl)
                    seen[3, s] = pos
                last_end = pos
            elif op == NEGATED:
                start = last
                if out[last] == 45:  # "-x" becomes "x"
                    start += 1
                elif not (last_end - last == 1 and out[last] == 48):  # "0" stays "0", "x" becomes "-x"
                    out[pos] = 45
                    pos += 1
                last = pos
                pos = copy_back(out, pos, start, last_end - start)
                last_end = pos
            elif op == LINE:
                h, lo = from_int(lines[i])
                pos = write_signed(out, pos, h, lo)
            elif op == TEXT:
                at, src = np.uint64(pos), np.uint64(text_start[i])
                b = text_start[i + 1] - text_start[i]
                for j in range(np.uint64(b)):
                    out[at + j] = text[src + j]
                pos += b
            elif op == LIST:
                out[pos] = 91  # "["
                pos += 1
                for k in range(a, a + ops[o, 2]):
                    if k > a:
                        out[pos] = 44  # ", "
                        out[pos + 1] = 32
                        pos += 2
                    v = ints[i, k]
                    if 0 <= v < 10:
                        out[pos] = 48 + v
                        pos += 1
                    elif 0 <= v < 100:
                        out[pos] = TWO_DIGITS[2 * v]
                        out[pos + 1] = TWO_DIGITS[2 * v + 1]
                        pos += 2
                    else:
                        h, lo = from_int(v)
                        pos = write_signed(out, pos, h, lo)
                out[pos] = 93  # "]"
                pos += 1
            else:  # INT
                h, lo = from_int(ints[i, a])
                pos = write_signed(out, pos, h, lo)
        out[pos] = 10
        pos += 1
    return pos


def multiplier_table(multipliers: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """``(values, table, exponents, start)`` of the multipliers for :func:`fill`: multiplier ``d`` is
    ``values[d]``, its primes columns ``start[d]:start[d + 1]`` of ``table`` (as :func:`factor_table` writes
    them), their exponents in the one row of ``exponents``.

    Raises:
        ValueError: a multiplier is not positive or not below 2^64.
    """
    rows: list[tuple[int, int]] = []
    start = [0]
    for m in multipliers:
        if not 0 < m < 2**64:
            raise ValueError(f"a multiplier is positive and below 2^64, got {m}")
        p = 2
        while m > 1 and p * p <= m:
            if m % p == 0:
                k = 0
                while m % p == 0:
                    m //= p
                    k += 1
                rows.append((p, k))
            p += 1 if p == 2 else 2
        if m > 1:
            rows.append((m, 1))
        start.append(len(rows))
    table = np.zeros((TABLE_ROWS, len(rows)), dtype=np.uint64)
    for r, (p, _) in enumerate(rows):
        if p % 2:
            inv = pow(p, -1, 2**128)
            residue = [pow(2, 32 * j, p) for j in (1, 2, 3)]
            table[:, r] = (p, inv % 2**64, (2**64 - 1) // p, inv >> 64, inv % 2**64, *residue)
        else:
            table[0, r] = p
    return (
        np.array(multipliers, dtype=np.uint64),
        table,
        np.array([[k for _, k in rows]], dtype=np.int64).reshape(1, len(rows)),
        np.array(start, dtype=np.int64),
    )
