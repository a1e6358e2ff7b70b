"""Exact integers of up to 128 bits inside compiled kernels, and fractions of them reduced to lowest terms.

A batch of shoes is priced and written at the compiled kernel's speed (``baccarat punto --shoes``):
the numbers are exact integers larger than int64 holds on shoes of more than about 24 decks (a
denominator ``N (N − 1) … (N − 5)`` of 1,000 decks is about ``2^94``), and a Python ``Fraction`` per
printed number would cost more than the pricing. So a number here is a pair of ``uint64`` limbs
``(hi, lo)``, the integer ``hi × 2^64 + lo`` modulo ``2^128``, read as two's complement where it may be
negative; unsigned ``uint64`` arithmetic wraps by definition (numba emits no overflow flag for it), so
every sum and product below is exact modulo ``2^128``, and exact outright where the true value lies in
``[−2^127, 2^127)``, which the callers guard.

**Reduced fractions without a gcd.** Every denominator the batch writes is a product of known small
factors (``N``, ``N − 1``, …, the payout scale), so its prime factorisation is known. A numerator is
reduced by dividing out, prime by prime, as many factors ``p`` as both hold. For odd ``p`` the test
and the division are one multiplication: with ``p⁻¹`` the inverse of ``p`` modulo ``2^128`` (Newton's
iteration ``x ← x (2 − p x)`` doubles the correct low bits from ``x = p``, correct to 3 bits as
``p² ≡ 1 (mod 8)``), ``q = m p⁻¹ mod 2^128`` equals ``m / p`` exactly when ``p`` divides ``m``, and
otherwise ``q p ≥ 2^128`` (``q p ≡ m``, and ``q p < 2^128`` would force ``q p = m``); so ``p | m`` iff
the product ``q p`` does not overflow 128 bits (Granlund and Montgomery, "Division by invariant
integers using multiplication", PLDI 1994, §9). Below 2^64 the same holds with ``p⁻¹ mod 2^64`` and
the limit ``⌊(2^64 − 1) / p⌋`` (one multiplication and a comparison, no division). A 128-bit number
is tested more cheaply still by folding its 32-bit limbs, with the residues of ``2^32``, ``2^64`` and
``2^96`` modulo ``p``, into a 64-bit number of the same residue (:func:`residues`), and divided only
where ``p`` divides it. Factors 2 are counted with trailing zeros. The
result is ``p/q`` in lowest terms, which :mod:`solver.exact.digits` writes as
:func:`solver.exact.numbers.fraction_str` does.

A line's denominators share their primes, so :func:`list_primes` lists them once a line, each power
``p^j`` with its inverse, and :func:`reduce_listed` tests every power on the numerator at once (the tests
are independent: no test waits for a division) and divides both numbers once, by the product of those
that divide; :func:`reduce_by` (one prime after another) is the general way, for numbers past 2^104.

Compiled by numba (imported with this module: import it only where compiled code needs it; the
functions are inlined into their callers, whose disk cache :func:`solver.store.jitcache.drop_stale`
keeps honest); tested against Python integers (tests/test_fast_paths.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
LOW32 = U64(0xFFFFFFFF)

MAX_PRIMES = 96
"""Distinct primes a shoe's two denominators may hold (ten factors below 2^32 have at most 90)."""

TABLE_ROWS = 8
"""Rows of a table of primes (:func:`reduce_by`): ``p``, then :func:`inverses` of ``p``, then :func:`residues`."""

FOLD_LIMIT = U64(1 << 30)
"""Primes below this are tested on 128-bit numbers by :func:`residues` (the folded sum stays below 2^64)."""


@intrinsic
def _mul_hi(typingctx: Any, a: Any, b: Any) -> Any:
    """The high 64 bits of the 128-bit product of two ``uint64``."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return sig, codegen


def _zero_bits(count: str, zero_defined: bool) -> Any:
    """An intrinsic counting the leading (``count="ctlz"``) or trailing (``"cttz"``) zero bits of a ``uint64``
    (as ``uint64``), by LLVM's instruction of that name; 64 for 0 where ``zero_defined``, else undefined there."""

    def bits(typingctx: Any, a: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return getattr(builder, count)(args[0], ir.Constant(ir.IntType(1), 0 if zero_defined else 1))

        return types.uint64(types.uint64), codegen

    bits.__name__ = f"_{count}"
    return intrinsic(bits)


mul_hi: Any = _mul_hi
"""``mul_hi(a, b)``: the high 64 bits of the 128-bit product of two ``uint64`` (compiled code only)."""
trailing_zeros: Any = _zero_bits("cttz", zero_defined=False)
"""``trailing_zeros(a)``: the trailing zero bits of a non-zero ``uint64`` (compiled code only)."""
leading_zeros: Any = _zero_bits("ctlz", zero_defined=True)
"""``leading_zeros(a)``: the leading zero bits of a ``uint64``, 64 for 0 (compiled code only)."""


@njit(cache=True, inline="always")
def add(ah: Any, al: Any, bh: Any, bl: Any) -> Any:
    """``a + b`` modulo 2^128."""
    lo = al + bl
    return ah + bh + (ONE if lo < al else ZERO), lo


@njit(cache=True, inline="always")
def sub(ah: Any, al: Any, bh: Any, bl: Any) -> Any:
    """``a − b`` modulo 2^128."""
    return ah - bh - (ONE if al < bl else ZERO), al - bl


@njit(cache=True, inline="always")
def mul_small(h: Any, lo: Any, m: Any) -> Any:
    """``(h, lo) × m`` modulo 2^128, for a ``uint64`` ``m``."""
    return h * m + mul_hi(lo, m), lo * m


@njit(cache=True, inline="always")
def mul(ah: Any, al: Any, bh: Any, bl: Any) -> Any:
    """``a × b`` modulo 2^128."""
    return mul_hi(al, bl) + al * bh + ah * bl, al * bl


@njit(cache=True, inline="always")
def from_int(x: Any) -> Any:
    """An ``int64`` as a (two's complement) 128-bit pair."""
    return (~ZERO if x < 0 else ZERO), U64(x)


@njit(cache=True, inline="always")
def inverses(p: Any) -> Any:
    """``(p⁻¹ mod 2^64, ⌊(2^64 − 1) / p⌋, p⁻¹ mod 2^128 as (hi, lo))`` of an odd ``uint64`` ``p`` (see the
    module docstring: Newton's iteration from ``x = p``, correct to 3 bits, then 6, 12, …, 96; one more
    step in 128 bits)."""
    x = p
    for _ in range(5):
        x *= U64(2) - p * x
    th, tl = mul_hi(p, x), p * x
    th, tl = sub(ZERO, U64(2), th, tl)
    ih, il = mul(ZERO, x, th, tl)
    return x, ~ZERO // p, ih, il


@njit(cache=True, inline="always")
def residues(p: Any) -> Any:
    """``(2^32 mod p, 2^64 mod p, 2^96 mod p)`` of a ``uint64`` ``p > 1``: a 128-bit ``m`` of 32-bit limbs
    ``a0 … a3`` is ``a0 + a1 2^32 + a2 2^64 + a3 2^96``, so ``m ≡ a0 + a1 r1 + a2 r2 + a3 r3 (mod p)``, a sum
    below 2^64 for ``p`` below :data:`FOLD_LIMIT`: one 64-bit divisibility test (:func:`divide_out`'s)
    decides ``p | m``."""
    r1 = (ONE << U64(32)) % p
    r2 = (r1 * r1) % p
    return r1, r2, (r2 * r1) % p


@njit(cache=True, inline="always")
def divide_out(h: Any, lo: Any, p: Any, inv: Any, limit: Any, ih: Any, il: Any, most: Any) -> Any:
    """``(m / p^k as (hi, lo), k)`` for the largest ``k <= most`` with ``p^k | m``, ``m = (h, lo)`` non-zero,
    ``inv, limit, (ih, il)`` being :func:`inverses` of ``p`` (unused for ``p = 2``). Below 2^64 a test is
    one multiplication and a comparison: ``p | m`` iff ``m p⁻¹ mod 2^64 <= ⌊(2^64 − 1) / p⌋``; above, the
    same in 128 bits, ``p | m`` iff ``q = m p⁻¹ mod 2^128`` has ``q p < 2^128``."""
    if p == U64(2):
        k = trailing_zeros(lo) if lo != ZERO else U64(64) + trailing_zeros(h)
        if k > most:
            k = most
        if k == ZERO:
            return h, lo, k
        if k >= U64(64):
            return ZERO, h >> (k - U64(64)), k
        return h >> k, (lo >> k) | (h << (U64(64) - k)), k
    k = ZERO
    while k < most:
        if h == ZERO:
            q = lo * inv
            if q > limit:
                break
            lo = q
        else:
            qh, ql = mul(h, lo, ih, il)
            carry = mul_hi(ql, p)
            top = qh * p + carry
            if mul_hi(qh, p) != ZERO or top < carry:
                break
            h, lo = qh, ql
        k += ONE
    return h, lo, k


@njit(cache=True, inline="always")
def divide_exactly(h: Any, lo: Any, p: Any, ih: Any, il: Any, k: Any) -> Any:
    """``m / p^k`` for an ``m`` that ``p^k`` divides (``(ih, il)`` the inverse of an odd ``p``)."""
    if p == U64(2):
        if k >= U64(64):
            return ZERO, h >> (k - U64(64))
        if k == ZERO:
            return h, lo
        return h >> k, (lo >> k) | (h << (U64(64) - k))
    for _ in range(k):
        h, lo = mul(h, lo, ih, il)
    return h, lo


@njit(cache=True, inline="always")
def reduce_by(h: Any, lo: Any, dh: Any, dl: Any, table: Any, exps: Any, row: Any, first: Any, last: Any) -> Any:
    """``m / g`` and ``den / g`` for ``g``, the largest divisor of ``m = (h, lo)`` (non-zero) among the
    divisors of ``∏ table[0, k]^exps[row, k]`` over ``first <= k < last``, which ``den`` holds (``table``'s
    rows: :data:`TABLE_ROWS`). Where both are below 2^64 (every number of a shoe of up to about 24 decks)
    in 64 bits only, without a branch on divisibility (a division that fails leaves the numbers as they
    were, so the next one fails too). Above, an odd prime below :data:`FOLD_LIMIT` is tested by the
    residues of the 32-bit limbs (:func:`residues`) and divided out by its 128-bit inverse only where it
    divides. (A row index, not a row: a view would cost a reference count a call.)"""
    for k in range(first, last):
        e = exps[row, k]
        if e == 0:
            continue
        p = table[0, k]
        inv = table[1, k]
        limit = table[2, k]
        if h == ZERO and dh == ZERO:
            if p == U64(2):
                t = trailing_zeros(lo)
                if t > U64(e):
                    t = U64(e)
                lo >>= t
                dl >>= t
                continue
            for _ in range(e):
                q = lo * inv
                ok = q <= limit
                lo = q if ok else lo
                dl = dl * inv if ok else dl  # den / p, exactly: p divides it
            continue
        if p == U64(2) or p >= FOLD_LIMIT:
            h, lo, used = divide_out(h, lo, p, inv, limit, table[3, k], table[4, k], U64(e))
            if used != ZERO:
                dh, dl = divide_exactly(dh, dl, p, table[3, k], table[4, k], used)
            continue
        for _ in range(e):
            if h == ZERO:
                q = lo * inv
                if q > limit:
                    break
                lo = q
            else:
                s = (lo & LOW32) + (lo >> U64(32)) * table[5, k] + (h & LOW32) * table[6, k] + (h >> U64(32)) * table[7, k]
                if s * inv > limit:
                    break
                h, lo = mul(h, lo, table[3, k], table[4, k])
            if dh == ZERO:
                dl *= inv
            else:
                dh, dl = mul(dh, dl, table[3, k], table[4, k])
    return h, lo, dh, dl


LISTED_ROWS = 7
"""Rows of a list of a denominator's odd prime powers (:func:`list_primes`, :func:`reduce_listed`): for each
``q = p^j`` dividing it (``j = 1, 2, …``), ``q``, ``q⁻¹ mod 2^64``, ``⌊(2^64 − 1) / q⌋``, ``2^64 mod q``, ``p``,
``p⁻¹ mod 2^64`` and the bits of ``p``."""

LISTED_HIGH = U64(1 << 40)
""":func:`reduce_listed` takes numerators below ``2^104``, a high word below this: with ``q`` below
:data:`LISTED_LIMIT`, ``hi × (2^64 mod q)`` stays below 2^64."""

LISTED_LIMIT = U64(1 << 24)
"""The prime powers :func:`list_primes` lists are below this (a shoe's factors are below 2^22, and its powers of
3 and 5 below 2^24; a larger one sends the line the general way)."""


@njit(cache=True, inline="always")
def reduce_listed(h: Any, lo: Any, dh: Any, dl: Any, listed: Any, row: Any, n: Any, e2: Any) -> Any:
    """``(m / g, den / g)`` for ``g = gcd(m, den)``, ``m = (h, lo)`` non-zero with ``h`` below
    :data:`LISTED_HIGH`, where ``den``'s odd prime powers are the first ``n`` columns of ``listed[row]``
    (:func:`list_primes`) and its exponent of 2 is ``e2``; ``(m, 0)``, declined, where ``g``'s odd part may
    not fit in 64 bits (the caller then takes :func:`reduce_by`).

    Every power ``q`` is tested on ``m`` itself, independently of the others and without a branch:
    ``m ≡ lo + hi (2^64 mod q) (mod q)``, a sum below 2^64 (plus ``2^64 mod q`` once where it wraps), and
    ``q | s`` iff ``s q⁻¹ mod 2^64 ≤ ⌊(2^64 − 1) / q⌋`` (the module docstring). Each power that divides
    brings one factor ``p`` to ``g`` and ``p⁻¹`` to ``g⁻¹ mod 2^64``; both numbers are divided once at the
    end, by ``g⁻¹`` (mod 2^64 where both fit in 64 bits, else mod 2^128 after one Newton step)."""
    t = trailing_zeros(lo) if lo != ZERO else U64(64) + trailing_zeros(h)
    if t > U64(e2):
        t = U64(e2)
    if h == ZERO and dh == ZERO:
        lo >>= t
        dl >>= t
        x = ONE
        for k in range(n):
            ok = lo * listed[row, 1, k] <= listed[row, 2, k]
            x *= listed[row, 5, k] if ok else ONE
        return ZERO, lo * x, ZERO, dl * x
    x = ONE
    g = ONE
    bits = ZERO
    for k in range(n):
        r = listed[row, 3, k]
        s = lo + h * r
        s += r if s < lo else ZERO
        ok = s * listed[row, 1, k] <= listed[row, 2, k]
        x *= listed[row, 5, k] if ok else ONE
        g *= listed[row, 4, k] if ok else ONE
        bits += listed[row, 6, k] if ok else ZERO
    if bits > U64(63):
        return h, lo, ZERO, ZERO  # g may not fit in 64 bits: declined (no denominator is 0)
    if t != ZERO:  # the tests above are of odd powers: the same before or after the factors 2
        if t >= U64(64):
            h, lo = ZERO, h >> (t - U64(64))
            dh, dl = ZERO, dh >> (t - U64(64))
        else:
            h, lo = h >> t, (lo >> t) | (h << (U64(64) - t))
            dh, dl = dh >> t, (dl >> t) | (dh << (U64(64) - t))
    if g == ONE:
        return h, lo, dh, dl
    th, tl = mul_hi(g, x), g * x
    th, tl = sub(ZERO, U64(2), th, tl)
    ih, il = mul(ZERO, x, th, tl)
    h, lo = mul(h, lo, ih, il)
    dh, dl = mul(dh, dl, ih, il)
    return h, lo, dh, dl


@njit(cache=True, inline="always")
def list_primes(table: Any, exps: Any, row: Any, n: Any, listed: Any, at: Any) -> Any:
    """The odd prime powers of row ``row`` of a table of primes (:func:`reduce_by`'s, its first ``n`` columns,
    rows 0 to 4 filled) into ``listed[at]`` as :func:`reduce_listed` takes them; returns ``(how many, the
    exponent of 2, whether every power is below`` :data:`LISTED_LIMIT` ``)``. ``2^64 mod q`` comes from
    ``⌊(2^64 − 1) / q⌋`` without another division."""
    m = 0
    e2 = 0
    fits = True
    for k in range(n):
        e = exps[row, k]
        if e == 0:
            continue
        p = table[0, k]
        if p == U64(2):
            e2 = e
            continue
        q = ONE
        iq = ONE
        b = U64(64) - leading_zeros(p)
        for _ in range(e):
            q *= p
            iq *= table[1, k]
            if q >= LISTED_LIMIT:
                fits = False
                break
            listed[at, 0, m] = q
            listed[at, 1, m] = iq
            limit = table[2, k] if q == p else ~ZERO // q
            rest = ~ZERO - limit * q + ONE  # 2^64 mod q, or q
            listed[at, 2, m] = limit
            listed[at, 3, m] = ZERO if rest == q else rest
            listed[at, 4, m] = p
            listed[at, 5, m] = table[1, k]
            listed[at, 6, m] = b
            m += 1
    return m, e2, fits
