"""Fast paths equal the plain computations they replaced. In integers instead of Fractions: iterated
dominance (ranges over a box of 0/1 bounds, kept up to date), a payoff at behaviour strategies, the
guarantees f(q), h(r). By a sort instead of an argsort: the deal tree's multiset numbering. In 128-bit
pairs in compiled code instead of Python integers: sums, products, divisibility and reduced fractions
written as text (solver.exact.wide, solver.exact.digits). Exact versus exact: ``==``."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Shoe
from solver.chemin.dominance import DominanceStep, _arrays
from solver.chemin.game import Coefficients, Game, build_game
from solver.chemin.guarantees import banker_slope_signs, ponte_slope_signs
from solver.chemin.solve import banker_guarantee, banker_slopes, iterated_dominance, ponte_guarantee, ponte_slopes, solve
from solver.deal.tree import unique_inverse
from solver.exact.numbers import numerators
from solver.rules.tableau import Action
from solver.strategy import Side

GAMES = [
    (Shoe.infinite(), 1, "parlor", Fraction(0)),
    (Shoe.decks(1), 3, "parlor", Fraction(1, 20)),
    (Shoe.decks(6), 2, "casino", Fraction(0)),
    (Shoe.decks(6), 3, "parlor", Fraction(0)),
    (Shoe.decks(8), 3, "casino", Fraction(1, 20)),
    (Shoe.from_values((20, 4, 4, 4, 4, 8, 4, 4, 4, 4)), 3, "parlor", Fraction(1, 10)),
]


def plain_dominance(game: Game) -> tuple[DominanceStep, ...]:
    """Iterated strict dominance as first written: Fraction bounds, every range recomputed each round."""

    def span(const: int, coeffs: list[int], lo: list[Fraction], hi: list[Fraction]) -> tuple[Fraction, Fraction]:
        mn = mx = Fraction(const)
        for g, a, b in zip(coeffs, lo, hi):
            mn += min(g * a, g * b)
            mx += max(g * a, g * b)
        return mn, mx

    net, gross = game.net, game.gross
    m, n = len(game.ponte_sets), len(game.banker_sets)
    qlo, qhi = [Fraction(0)] * m, [Fraction(1)] * m
    rlo, rhi = [Fraction(0)] * n, [Fraction(1)] * n
    steps: list[DominanceStep] = []
    done_b: set[int] = set()
    done_p: set[int] = set()
    changed = True
    while changed:
        changed = False
        for i in range(n):
            if i not in done_b:
                mn, mx = span(int(net.b[i]), [int(net.G[j][i]) for j in range(m)], qlo, qhi)
                if mn > 0 or mx < 0:
                    act = Action.DRAW if mn > 0 else Action.STAND
                    steps.append(DominanceStep(Side.BANKER, game.banker_sets[i], act, (mn if mn > 0 else -mx) / net.denominator))
                    done_b.add(i)
                    rlo[i] = rhi[i] = Fraction(act is Action.DRAW)
                    changed = True
        for j in range(m):
            if j not in done_p:
                mn, mx = span(int(gross.a[j]), [int(x) for x in gross.G[j]], rlo, rhi)
                if mn > 0 or mx < 0:
                    act = Action.DRAW if mx < 0 else Action.STAND
                    steps.append(DominanceStep(Side.PONTE, game.ponte_sets[j], act, (-mx if mx < 0 else mn) / gross.denominator))
                    done_p.add(j)
                    qlo[j] = qhi[j] = Fraction(act is Action.DRAW)
                    changed = True
    return tuple(steps)


def test_dominance_in_python_integers_where_int64_could_overflow() -> None:
    """A 1000-deck shoe's coefficients are too large for int64 sums: the same steps in Python integers."""
    game = build_game(Shoe.decks(1000), 3, "parlor", Fraction(1, 20))
    assert _arrays(game.net.G, width=len(game.banker_sets))[0].dtype == object
    assert _arrays(build_game(Shoe.decks(8), 3, "parlor").net.G, width=500)[0].dtype == np.int64
    assert iterated_dominance(game) == plain_dominance(game)


def plain_value(c: Coefficients, q: list[Fraction], r: list[Fraction]) -> Fraction:
    total = Fraction(c.c0) + sum((int(a) * x for a, x in zip(c.a, q)), Fraction(0))
    total += sum((int(b) * y for b, y in zip(c.b, r)), Fraction(0))
    total += sum((int(c.G[j][i]) * q[j] * r[i] for j in range(len(q)) for i in range(len(r))), Fraction(0))
    return total / c.denominator


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0].spec()}-B{g[1]}-{g[2]}-{g[3]}")
def game(request: pytest.FixtureRequest) -> Game:
    return build_game(*request.param)


def test_dominance_in_integers_equals_the_fraction_version(game: Game) -> None:
    fast, plain = iterated_dominance(game), plain_dominance(game)
    assert fast == plain
    assert all(isinstance(s.margin, Fraction) and s.margin > 0 for s in fast)


def test_payoff_and_guarantees_in_integers(game: Game) -> None:
    s = solve(game)
    q, r = list(s.q), list(s.r)
    mixed_q = [Fraction(k + 1, k + 3) for k in range(len(q))]  # denominators that do not divide each other
    mixed_r = [Fraction(k % 7, 7 + k % 5) for k in range(len(r))]
    for c in (game.net, game.gross, game.win, game.loss):
        for qq, rr in ((q, r), (mixed_q, mixed_r), (q, mixed_r), (mixed_q, r)):
            assert c.value(qq, rr) == plain_value(c, qq, rr)
    c = game.gross
    for qq in (q, mixed_q):
        f = Fraction(c.c0, c.denominator) + sum((Fraction(int(a), c.denominator) * x for a, x in zip(c.a, qq)), Fraction(0))
        slopes = [
            Fraction(int(b), c.denominator)
            + sum((Fraction(int(c.G[j][i]), c.denominator) * qq[j] for j in range(len(qq))), Fraction(0))
            for i, b in enumerate(c.b)
        ]
        assert ponte_guarantee(c, qq) == f + sum((x for x in slopes if x > 0), Fraction(0))
    for rr in (r, mixed_r):
        h = Fraction(c.c0, c.denominator) + sum((Fraction(int(b), c.denominator) * y for b, y in zip(c.b, rr)), Fraction(0))
        slopes = [
            Fraction(int(a), c.denominator)
            + sum((Fraction(int(c.G[j][i]), c.denominator) * rr[i] for i in range(len(rr))), Fraction(0))
            for j, a in enumerate(c.a)
        ]
        assert banker_guarantee(c, rr) == h + sum((x for x in slopes if x < 0), Fraction(0))


def test_numerators() -> None:
    assert numerators([]) == ([], 1)
    assert numerators([Fraction(-1, 4), Fraction(5, 6), Fraction(0)]) == ([-3, 10, 0], 12)


@given(st.lists(st.integers(0, 7**10), max_size=300), st.sampled_from([0, 1, 2**40, 2**61]))
def test_unique_inverse_is_numpys(values: list[int], offset: int) -> None:
    code = np.array(values, dtype=np.int64) + offset  # large offsets take np.unique's own path
    uniq, inverse = unique_inverse(code)
    want_uniq, want_inverse = np.unique(code, return_inverse=True)
    assert np.array_equal(uniq, want_uniq) and np.array_equal(inverse, want_inverse.ravel())


def _sign(x: Fraction | int) -> int:
    return (x > 0) - (x < 0)


def test_slope_signs_are_the_slopes_signs(game: Game) -> None:
    """The integer slopes that only sign tests read have the exact slopes' signs and zeros."""
    s = solve(game)
    mixed_q = [Fraction(k + 1, k + 3) for k in range(len(s.q))]
    mixed_r = [Fraction(k % 3, 2) for k in range(len(s.r))]
    for q, r in ((list(s.q), list(s.r)), (mixed_q, mixed_r)):
        for c in (game.net, game.gross):
            assert [_sign(x) for x in banker_slope_signs(c, q)] == [_sign(x) for x in banker_slopes(c, q)]
            assert [_sign(x) for x in ponte_slope_signs(c, r)] == [_sign(x) for x in ponte_slopes(c, r)]


# -- 128-bit integers in compiled code (solver.exact.wide, .digits) against Python integers ---------------

WIDE_INTS = st.one_of(st.integers(-(2**127), 2**127 - 1), st.integers(-(2**64), 2**64), st.integers(-1000, 1000))


def split(x: int) -> tuple[np.uint64, np.uint64]:
    x %= 2**128
    return np.uint64(x >> 64), np.uint64(x % 2**64)


def joined(h: np.uint64, lo: np.uint64) -> int:
    return (int(h) << 64) | int(lo)


@settings(deadline=None)
@given(WIDE_INTS, WIDE_INTS, st.integers(0, 2**64 - 1))
def test_wide_arithmetic_is_python_arithmetic_modulo_2_128(a: int, b: int, m: int) -> None:
    from solver.exact import digits, wide

    mod = 2**128
    assert joined(*wide.add(*split(a), *split(b))) == (a + b) % mod
    assert joined(*wide.sub(*split(a), *split(b))) == (a - b) % mod
    assert joined(*wide.mul(*split(a), *split(b))) == (a * b) % mod
    assert joined(*wide.mul_small(*split(a), np.uint64(m))) == (a * m) % mod
    buf = np.zeros(64, np.uint8)
    assert bytes(buf[: digits.write_signed(buf, 0, *split(a))]).decode() == str(a)


@settings(deadline=None)
@given(st.integers(0, 2**62).map(lambda x: 2 * x + 1), st.integers(1, 2**127 - 1), st.integers(0, 6))
def test_divisibility_and_division_by_inverses(p: int, m: int, k: int) -> None:
    from solver.exact import wide

    inv, limit, ih, il = (np.uint64(x) for x in wide.inverses(np.uint64(p)))  # called from Python: back to uint64
    assert (int(inv) * p) % 2**64 == 1 and int(limit) == (2**64 - 1) // p and (joined(ih, il) * p) % 2**128 == 1
    if m * p**k < 2**127:
        m *= p**k  # p^k divides m (and maybe more)
    most = 6
    h, lo, used = wide.divide_out(*split(m), np.uint64(p), inv, limit, ih, il, np.uint64(most))
    expected = 0
    while expected < most and m % p ** (expected + 1) == 0:
        expected += 1
    assert int(used) == expected and joined(h, lo) == m // p**expected
    two_h, two_lo, two = wide.divide_out(*split(m), np.uint64(2), inv, limit, ih, il, np.uint64(200))
    assert joined(two_h, two_lo) << int(two) == m and joined(two_h, two_lo) % 2 == 1


@settings(deadline=None)
@given(
    st.integers(6, 200_000),
    st.integers(-(2**100), 2**100),
    st.sampled_from([0, 1]),
    st.sampled_from([(), (20,), (2**40 + 15,), (6, 7)]),
)
def test_fractions_are_written_in_lowest_terms(n: int, num: int, which: int, multipliers: tuple[int, ...]) -> None:
    """Against ``fraction_str``: a numerator over ``N (N − 1) … (N − 5)`` (or its first four factors) times a
    payout scale, reduced by the primes of the factors (a sieve) and of the scale."""
    from solver.exact import digits, template, wide
    from solver.exact.numbers import fraction_str

    factors = np.array([n - j for j in range(6)] + [n - j for j in range(4)], dtype=np.int64)
    spf = template.smallest_factors(int(factors.max()))
    table, exps = np.zeros((wide.TABLE_ROWS, wide.MAX_PRIMES), np.uint64), np.zeros((2, wide.MAX_PRIMES), np.int64)
    known = np.zeros((4, len(spf)), np.uint64)
    primes = template.factor_table(factors, spf, table, exps, known)
    template.factor_table(factors, spf, table, exps, known)  # the second time from what it kept
    template.add_residues(table, primes)
    listed = np.zeros((2, wide.LISTED_ROWS, 4 * wide.MAX_PRIMES), np.uint64)
    count, e2, fits = wide.list_primes(table, exps, which, primes, listed, which)
    den = math.prod(int(f) for f in (factors[:6] if which == 0 else factors[6:]))
    values, m_table, m_exps, m_start = template.multiplier_table(multipliers)
    scale = multipliers[0] if multipliers else 1
    if abs(num) >= 2**127 or den * scale >= 2**127:
        return
    buf = np.zeros(200, np.uint8)
    m_lo, m_hi = (int(m_start[0]), int(m_start[1])) if multipliers else (0, 0)
    sign = "-" if num < 0 else ""  # the writer writes the sign and a zero itself (template.fill)
    if num == 0:
        return

    def written(h: int, lo: int, dh: int, dl: int) -> str:
        """The reduced fraction, then by the scale's primes, as the writer (template.fill) does."""
        h, lo, dh, dl = (np.uint64(v) for v in (h, lo, dh, dl))
        if multipliers:
            dh, dl = (np.uint64(v) for v in wide.mul_small(dh, dl, np.uint64(scale)))
            h, lo, dh, dl = (np.uint64(v) for v in wide.reduce_by(h, lo, dh, dl, m_table, m_exps, 0, m_lo, m_hi))
        return sign + bytes(buf[: digits.write_quotient(buf, 0, h, lo, dh, dl)]).decode()

    expected = fraction_str(Fraction(num, den * scale))
    assert written(*wide.reduce_by(*split(abs(num)), *split(den), table, exps, which, 0, primes)) == expected
    if not fits or abs(num) >= 2**104:  # the fast way's domain (wide.LISTED_LIMIT, wide.LISTED_HIGH)
        return
    h, lo, dh, dl = wide.reduce_listed(*split(abs(num)), *split(den), listed, which, count, e2)
    if dh == dl == 0:  # declined (the odd gcd may pass 64 bits)
        assert joined(h, lo) == abs(num)
        return
    assert written(h, lo, dh, dl) == expected


def test_a_gcd_past_64_bits_is_reduced_the_general_way() -> None:
    """A numerator sharing more than 64 bits of odd factors with its denominator: the fast reduction declines
    it, and the writer reduces it the general way to what ``fraction_str`` writes."""
    from solver.exact import template, wide
    from solver.exact.numbers import fraction_str

    n = 200_000
    factors = np.array([n - j for j in range(6)] + [n - j for j in range(4)], dtype=np.int64)
    den = math.prod(n - j for j in range(6))
    odd = den >> ((den & -den).bit_length() - 1)
    assert odd >= 2**64
    spf = template.smallest_factors(n)
    table, exps = np.zeros((wide.TABLE_ROWS, wide.MAX_PRIMES), np.uint64), np.zeros((2, wide.MAX_PRIMES), np.int64)
    primes = template.factor_table(factors, spf, table, exps, np.zeros((4, 1), np.uint64))
    listed = np.zeros((2, wide.LISTED_ROWS, 4 * wide.MAX_PRIMES), np.uint64)
    count, e2, fits = wide.list_primes(table, exps, 0, primes, listed, 0)
    assert fits
    h, lo, dh, dl = wide.reduce_listed(*split(odd * 3), *split(den), listed, 0, count, e2)
    assert (dh, dl) == (0, 0) and joined(h, lo) == odd * 3  # declined
    assert fraction_line(n, [odd * 3, -odd], [(0, False, 0, -1), (1, False, 0, -1)], ()) == ", ".join(
        fraction_str(Fraction(x, den)) for x in (odd * 3, -odd)
    )


EDGES = sorted(
    {x + d for k in range(1, 39) for x in (10**k,) for d in (-1, 0, 1)}
    | {x + d for x in (2**32, 2**63, 2**64, 2**96, 2**127) for d in (-1, 0, 1)}
)


def test_digits_at_every_block_boundary() -> None:
    """The digits of numbers at the edges of the blocks they are written in (every power of ten: eight
    digits, the 64-bit path's 10^8 and 10^16 cuts, the cut at 10^19 past 2^64, the 9-digit chunks past
    2^127) and of 2^32, 2^63, 2^64, 2^96, 2^127."""
    from solver.exact import digits

    buf = np.zeros(64, np.uint8)
    for x in (0, *EDGES):
        for v in (x, -x):
            if -(2**127) <= v < 2**127:
                assert bytes(buf[: digits.write_signed(buf, 0, *split(v))]).decode() == str(v)
                buf[:] = 65
                end = digits.write_signed(buf, 5, *split(v))  # eight bytes at a time: nothing before it touched
                assert bytes(buf[:end]).decode() == "AAAAA" + str(v)


@settings(deadline=None)
@given(st.integers(0, 40), st.integers(0, 9), st.integers(0, 3))
def test_a_copy_eight_bytes_at_a_time_is_the_bytes(n: int, gap: int, start: int) -> None:
    """``copy_back`` (a line's repeated fraction copied from where it was written): the ``n`` bytes land
    exactly, from a source right before the copy (``gap`` 0: the eight-byte loads then read bytes the copy
    has just written) or further back, nothing before the copy touched."""
    from solver.exact import digits

    buf = ((np.arange(100) * 37 + 11) % 251).astype(np.uint8)
    before = buf.copy()
    pos = start + n + gap
    assert digits.copy_back(buf, pos, start, n) == pos + n
    assert bytes(buf[pos : pos + n]) == bytes(before[start : start + n])
    assert bytes(buf[:pos]) == bytes(before[:pos])


def fraction_line(n: int, numerators: list[int], slots: list[tuple[int, int, int, int]], multipliers: tuple[int, ...]) -> str:
    """One line of ``", "``-separated fractions written by the compiled writer: ``slots`` are ``(value,
    negated, denominator 0 or 1, multiplier or -1)``, the values ``[D, D4, *numerators]`` with ``D = N (N − 1)
    … (N − 5)`` and ``D4`` its first four factors."""
    from solver.exact.template import FRACTION, LITERAL, multiplier_table
    from solver.report.punto_batch import compiled_fill

    factors = [n - j for j in range(6)] + [n - j for j in range(4)]
    values = [math.prod(factors[:6]), math.prod(factors[6:]), *numerators]
    ops = []
    for k, (v, negated, c, d) in enumerate(slots):
        if k:
            ops.append((LITERAL, 0, 2, 0, 0))
        ops.append((FRACTION, 2 + v, negated, c, d))
    hi = np.array([[(x % 2**128) >> 64 for x in values]], dtype=np.uint64)
    lo = np.array([[x % 2**64 for x in values]], dtype=np.uint64)
    out = np.zeros(200 * len(slots) + 1, np.uint8)
    end = compiled_fill()(
        np.array(ops, dtype=np.int64),
        np.array([0, len(ops)], dtype=np.int64),
        np.frombuffer(b", ", dtype=np.uint8).copy(),
        np.zeros(1, np.int64),
        hi,
        lo,
        np.array([factors], dtype=np.int64),
        np.ones(1, np.int64),
        np.zeros(1, np.uint8),
        np.zeros(2, np.int64),
        np.zeros((1, 1), np.int64),
        *multiplier_table(multipliers),
        out,
    )
    text = bytes(out[:end]).decode()
    assert text.endswith("\n")
    return text[:-1]


@settings(deadline=None, max_examples=60)
@given(
    st.sampled_from([12, 300, 5003, 60_000, 4_000_000]),
    st.lists(st.integers(-(2**100), 2**100), min_size=1, max_size=40),
    st.lists(st.tuples(st.integers(0, 79), st.booleans(), st.integers(0, 1), st.integers(-1, 2)), min_size=1, max_size=600),
)
def test_a_lines_repeated_fractions_are_its_fractions(n: int, drawn: list[int], slots: list[tuple[int, int, int, int]]) -> None:
    """The compiled writer copies a fraction the line has written already (the same numerator up to its
    sign, over the same denominator and multiplier) rather than reducing it again: against
    ``fraction_str`` on lines of up to 600 fractions (more than the table of those seen holds: entries
    are overwritten) drawn with many repeats, of both signs, over both denominators and three
    multipliers, with the values that reduce most (zero, multiples of ``D``, of high powers of its
    primes, near 2^64), 64-bit and 128-bit."""
    from solver.exact.numbers import fraction_str

    multipliers = (20, 2 * 1_073_741_827, 2**40 + 15)  # a prime past the 128-bit test's fold, a prime past 2^32
    factors = [n - j for j in range(6)]
    d = math.prod(factors)
    special = [0, d, -3 * d, 2**64 - 1, 2**64, 2**64 + 1, -(2**64), 2**63, 2 ** (64 + 16) * 9, 3**40, 5**30 * 7]
    special += [f**5 * 11 for f in factors[:3]] + [(factors[1] * factors[2]) ** 3, math.prod(factors[:4]) * 13]
    numerators = (drawn + special)[:80]
    numerators += [0] * (80 - len(numerators))
    values = [d, math.prod(factors[:4]), *numerators]
    expected = ", ".join(
        fraction_str(Fraction(-values[2 + v] if neg else values[2 + v], values[c] * (multipliers[m] if m >= 0 else 1)))
        for v, neg, c, m in slots
    )
    if any(abs(values[2 + v]) >= 2**127 or values[c] * (multipliers[m] if m >= 0 else 1) >= 2**127 for v, _, c, m in slots):
        return
    assert fraction_line(n, numerators, [(v, int(neg), c, m) for v, neg, c, m in slots], multipliers) == expected
