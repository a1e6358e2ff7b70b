"""Decimal text of exact integers of up to 128 bits inside compiled kernels (the ``(hi, lo)`` pairs of
:mod:`solver.exact.wide`), and of reduced fractions of them, written as
:func:`solver.exact.numbers.fraction_str` writes them (``p`` when ``q = 1``, ``0`` for zero).

Eight decimal digits at a time in one 64-bit word (:func:`digits8`: split by multiplications by
reciprocals, in lanes of the word, then stored at once), the leading block shifted past its zeros
(:func:`digit_count`, without a branch on the length); a number of more than 64 bits is first cut at
``10^19`` by one multiplication by a 128-bit reciprocal (:func:`divmod_e19`; past 2^127, by long division in
32-bit limbs by ``10^9``). The stores are unaligned eight-byte stores in the machine's byte order (the
first digit in the lowest byte: little-endian, as on x86-64 and AArch64, which the tests check), and may
write up to seven bytes past the number: a buffer holds eight bytes more than its text. Text written
already is copied eight bytes at a time too (:func:`copy_back`). :mod:`solver.exact.template` fills whole
lines of text with them.

Compiled by numba (imported with this module: import it only where compiled code needs it; the
functions are inlined into their callers, whose disk cache :func:`solver.store.jitcache.drop_stale`
keeps honest); tested against Python's ``str`` (tests/test_fast_paths.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from solver.exact.wide import LOW32, ONE, U64, ZERO, leading_zeros, mul_hi, sub

E4 = U64(10**4)
E8 = U64(10**8)
E9 = U64(10**9)
E16 = U64(10**16)
TWO_DIGITS = np.frombuffer("".join(f"{i:02d}" for i in range(100)).encode("ascii"), dtype=np.uint8).copy()

MAX_DIGITS = 40
"""Characters of a signed 128-bit integer at most (39 digits and a sign)."""


@intrinsic
def _store8(typingctx: Any, buf: Any, pos: Any, value: Any) -> Any:
    """Store a ``uint64`` at byte ``pos`` of a ``uint8`` array, unaligned, in the machine's byte order."""
    sig = types.void(buf, pos, value)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array = context.make_array(signature.args[0])(context, builder, args[0])
        at = builder.bitcast(builder.gep(array.data, [args[1]]), ir.IntType(64).as_pointer())
        builder.store(args[2], at, align=1)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _load8(typingctx: Any, buf: Any, pos: Any) -> Any:
    """Load a ``uint64`` from byte ``pos`` of a ``uint8`` array, unaligned, in the machine's byte order."""
    sig = types.uint64(buf, pos)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array = context.make_array(signature.args[0])(context, builder, args[0])
        at = builder.bitcast(builder.gep(array.data, [args[1]]), ir.IntType(64).as_pointer())
        return builder.load(at, align=1)

    return sig, codegen


store8: Any = _store8
"""``store8(buf, pos, word)``: a ``uint64`` stored unaligned at byte ``pos`` of a ``uint8`` array (compiled
code only)."""
load8: Any = _load8
"""``load8(buf, pos)``: the ``uint64`` at byte ``pos`` of a ``uint8`` array, unaligned (compiled code only)."""


POWERS_OF_TEN = np.array([10**k for k in range(20)], dtype=np.uint64)
"""``10^k`` for ``k < 20`` (:func:`digit_count`)."""


@njit(cache=True, inline="always")
def digit_count(x: Any) -> Any:
    """The number of decimal digits of a ``uint64`` (1 for 0), without a branch: ``⌊bits × log10 2⌋`` by
    ``1233 / 4096``, one less where ``x`` is below that power of ten."""
    y = x | ONE
    t = ((U64(64) - leading_zeros(y)) * U64(1233)) >> U64(12)
    return t + ONE - (ONE if y < POWERS_OF_TEN[t] else ZERO)


ASCII_ZEROS = U64(0x3030303030303030)
"""Eight ASCII ``0`` in one word: digits 0 to 9 in each byte become their characters."""


@njit(cache=True, inline="always")
def digits8(x: Any) -> Any:
    """The eight decimal digits of a ``uint64`` below 10^8 (leading zeros) as ASCII in one ``uint64``, the first
    digit in its lowest byte, without a division or a table (SWAR: two lanes of four digits, then four of
    two, then eight of one, each split by a multiplication by a reciprocal: ``⌊5243 y / 2^19⌋ = ⌊y / 100⌋``
    below 10^4, ``⌊103 y / 2^10⌋ = ⌊y / 10⌋`` below 100)."""
    a = x // E4
    v = a | ((x - a * E4) << U64(32))
    t = ((v * U64(5243)) >> U64(19)) & U64(0x0000007F0000007F)
    v = t | ((v - U64(100) * t) << U64(16))
    t = ((v * U64(103)) >> U64(10)) & U64(0x000F000F000F000F)
    v = t | ((v - U64(10) * t) << U64(8))
    return v + ASCII_ZEROS


@njit(cache=True, inline="always")
def write_eight(buf: Any, pos: Any, x: Any) -> Any:
    """A ``uint64`` below 10^8 as exactly eight digits (leading zeros), one store (:func:`digits8`)."""
    store8(buf, pos, digits8(x))
    return pos + 8


@njit(cache=True, inline="always")
def write_leading(buf: Any, pos: Any, x: Any) -> Any:
    """The digits of a ``uint64`` below 10^8 at ``buf[pos:]``, without a branch on their number ``n``: the eight
    digits shifted past the ``8 − n`` leading zeros, one store (the ``8 − n`` bytes after the number are
    overwritten too: the buffer must hold them, and what follows is written after)."""
    n = digit_count(x)
    store8(buf, pos, digits8(x) >> (U64(8) * (U64(8) - n)))
    return pos + n


@njit(cache=True, inline="always")
def write_u64(buf: Any, pos: Any, x: Any) -> Any:
    """The decimal digits of a ``uint64`` at ``buf[pos:]``; returns the position after them. Cut into
    blocks of eight digits (:func:`write_eight`) below the leading one (:func:`write_leading`)."""
    if x < E8:
        return write_leading(buf, pos, x)
    if x < E16:
        top = x // E8
        return write_eight(buf, write_leading(buf, pos, top), x - top * E8)
    top = x // E16
    rest = x - top * E16
    middle = rest // E8
    pos = write_eight(buf, write_leading(buf, pos, top), middle)
    return write_eight(buf, pos, rest - middle * E8)


@njit(cache=True, inline="always")
def copy_back(buf: Any, pos: Any, start: Any, n: Any) -> Any:
    """Copy the ``n`` bytes of ``buf`` written at ``start`` to ``pos``, at least ``n`` bytes later, eight at a
    time (:func:`load8`, :func:`store8`); returns ``pos + n``. The last store may write up to seven bytes
    past them (:func:`write_leading`'s rule); the bytes read are the copy's own or those past them, so a
    source ending where the copy begins is copied exactly. (Byte by byte, numba cannot tell that the two
    do not overlap: a line's repeated fractions, copied so, took a fifth of the writer's time.)"""
    for k in range(0, n, 8):
        store8(buf, pos + k, load8(buf, start + k))
    return pos + n


@njit(cache=True, inline="always")
def write_chunk(buf: Any, pos: Any, x: Any) -> Any:
    """A number below 10^9 as exactly nine digits (leading zeros)."""
    t = x // E8
    buf[pos] = U64(48) + t
    return write_eight(buf, pos + 1, x - t * E8)


@njit(cache=True, inline="always")
def divmod_e9(h: Any, lo: Any) -> Any:
    """``(m // 10^9, m % 10^9)`` of ``m = (h, lo)``, by long division in 32-bit limbs."""
    cur = h >> U64(32)
    q3 = cur // E9
    cur = ((cur - q3 * E9) << U64(32)) | (h & LOW32)
    q2 = cur // E9
    cur = ((cur - q2 * E9) << U64(32)) | (lo >> U64(32))
    q1 = cur // E9
    cur = ((cur - q1 * E9) << U64(32)) | (lo & LOW32)
    q0 = cur // E9
    return (q3 << U64(32)) | q2, (q1 << U64(32)) | q0, cur - q0 * E9


E19 = U64(10**19)
E19_MAGIC_HI = U64(0xEC1E4A7DB69561A5)
E19_MAGIC_LO = U64(0x2B31E9E3D06C32E6)
"""``M = ⌈2^191 / 10^19⌉`` as (hi, lo): ``⌊m / 10^19⌋ = ⌊m M / 2^191⌋`` for every ``m < 2^127`` (Granlund and
Montgomery 1994, Theorem 4.2: ``2^191 ≤ M 10^19 ≤ 2^191 + 2^64``)."""


@njit(cache=True, inline="always")
def divmod_e19(h: Any, lo: Any) -> Any:
    """``(m // 10^19, m % 10^19)`` of ``m = (h, lo) < 2^127``, both below 2^64: the high half of the 256-bit
    product ``m M`` (:data:`E19_MAGIC_HI`) shifted by 63."""
    p0h = mul_hi(lo, E19_MAGIC_LO)
    p1h, p1l = mul_hi(lo, E19_MAGIC_HI), lo * E19_MAGIC_HI
    p2h, p2l = mul_hi(h, E19_MAGIC_LO), h * E19_MAGIC_LO
    p3h, p3l = mul_hi(h, E19_MAGIC_HI), h * E19_MAGIC_HI
    w1 = p0h + p1l
    c = ONE if w1 < p0h else ZERO
    w1b = w1 + p2l
    c += ONE if w1b < w1 else ZERO
    w2 = p1h + p2h
    c2 = ONE if w2 < p1h else ZERO
    w2b = w2 + p3l
    c2 += ONE if w2b < w2 else ZERO
    w2c = w2b + c
    c2 += ONE if w2c < w2b else ZERO
    w3 = p3h + c2
    q = (w3 << ONE) | (w2c >> U64(63))
    return q, lo - q * E19


@njit(cache=True, inline="always")
def write_unsigned(buf: Any, pos: Any, h: Any, lo: Any) -> Any:
    """The decimal digits of an unsigned 128-bit ``(h, lo)``: below 2^127 cut once at ``10^19``
    (:func:`divmod_e19`), above in 9-digit chunks (:func:`divmod_e9`)."""
    if h == ZERO:
        return write_u64(buf, pos, lo)
    if h >> U64(63) == ZERO:
        q, r = divmod_e19(h, lo)
        pos = write_u64(buf, pos, q)
        a = r // E16
        b = r - a * E16
        store8(buf, pos, digits8(a) >> U64(40))
        middle = b // E8
        pos = write_eight(buf, pos + 3, middle)
        return write_eight(buf, pos, b - middle * E8)
    n = 0
    c0 = c1 = c2 = ZERO
    while h != ZERO:  # at most three rounds: 2^128 / 10^27 < 2^39
        h, lo, r = divmod_e9(h, lo)
        if n == 0:
            c0 = r
        elif n == 1:
            c1 = r
        else:
            c2 = r
        n += 1
    pos = write_u64(buf, pos, lo)
    if n >= 3:
        pos = write_chunk(buf, pos, c2)
    if n >= 2:
        pos = write_chunk(buf, pos, c1)
    return write_chunk(buf, pos, c0)


@njit(cache=True, inline="always")
def write_signed(buf: Any, pos: Any, h: Any, lo: Any) -> Any:
    """A signed (two's complement) 128-bit integer in decimal."""
    if h >> U64(63) != ZERO:
        buf[pos] = 45  # "-"
        h, lo = sub(ZERO, ZERO, h, lo)
        pos += 1
    return write_unsigned(buf, pos, h, lo)


@njit(cache=True, inline="always")
def write_quotient(buf: Any, pos: Any, h: Any, lo: Any, dh: Any, dl: Any) -> Any:
    """A reduced fraction ``p/q`` of unsigned 128-bit ``p = (h, lo)`` and ``q = (dh, dl)`` as ``p/q``, or ``p``
    when ``q = 1``."""
    pos = write_unsigned(buf, pos, h, lo)
    if dh != ZERO or dl != ONE:
        buf[pos] = 47  # "/"
        pos = write_unsigned(buf, pos + 1, dh, dl)
    return pos
