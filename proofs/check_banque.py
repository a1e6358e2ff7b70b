#!/usr/bin/env python3
"""Independent checker of baccara banque certificates (format ``baccarat-banque-certificate``, versions 1 and 2).

Standard library only; imports nothing from ``solver/``. It re-derives the game from the shoe by its
own enumeration and verifies every stated number exactly. ``proofs/check.py`` dispatches here on the
certificate's ``format`` field; this file also runs alone: ``python proofs/check_banque.py FILES``.

The game. Cards are dealt Player 1, Player 2, banker, twice. A banker's natural (8 or 9 on two cards)
or two players' naturals end the coup; one player's natural settles his tableau (he wins). A player
without a natural draws on 0-4, stands on 6-7 and at 5 draws with probability x (Player 1) or y
(Player 2) in his information set; then the banker, having seen each tableau (third card 0-9, "S"
stood, "N" natural), draws with probability r in his cell (own total or cards, sight 1, sight 2), or
follows the casino tableau where every live tableau votes the same fixed action. R1, R2 in {-1, 0, 1}:
the banker's result against tableau 1 and 2. Payoffs: the banker X - tax * max(0, X) with
X = theta R1 + (1 - theta) R2; Player 1 -R1, Player 2 -R2.

The enumeration. A deal's weight depends only on the multiset of its card values:
prod_v (n_v)_(k_v) * (N - K)_(9 - K) over N (N - 1) ... (N - 8) (dealing B), or prod_v w_v^k_v *
S^(9 - K) over S^9 (dealing A). The two players' hands are paired and grouped by what a key sees of
them and by their multiset R; for each R the banker's hands are weighted from the cards left.

The claims. ``nash``: every side's slope (gain of drawing over standing) has the sign of its choice
(zero where it mixes), exactly; and (version 2) ``no_equilibrium_with_player1_at``: at each value x
listed, no equilibrium has Player 1 drawing at 5 with probability x. With x fixed (Player 1 has one
set) the game splits into small games of one set of Player 2 against the banker cells that see it;
each small game's equilibria are enumerated (y = 0, y = 1, the breakpoints of its cells, the stretches
between) with the range of Player 1's slope over each, and no combination may meet his condition.
``correlated``: f(z) = h(r) = value, the team's and the banker's
guarantees (LP duality), or with a tax both best replies. ``independent``: f(x y) = h(r) = value for an
optimal product strategy; or, for ``exists: false``, the correlated optimum, the guarantee at the stated
product strategy, and the refutation of every support pattern against r* (re-derived here).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

FORMAT = "baccarat-banque-certificate"
VERSIONS = (1, 2)
"""Version 2 adds the Nash claim ``no_equilibrium_with_player1_at``; version 1 certificates are read as before."""
SIGHTS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "N")
CASINO_TABLEAU = (
    "DDDDDDDDDDD",
    "DDDDDDDDDDD",
    "DDDDDDDDDDD",
    "DDDDDDDDSFD",
    "SSDDDDDDSSD",
    "SSSSFDDDSSD",
    "SSSSSSDDSSS",
    "SSSSSSSSSSS",
)
"""Chemin de fer's casino tableau: banker total 0-7 by what he saw (third card 0-9, then S)."""
FIVES = ("0+5", "1+4", "2+3", "6+9", "7+8")
_RATIONAL = re.compile(r"-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?")


class CheckFailure(Exception):
    """Content that is wrong (exit code 1)."""


class UnusableInput(Exception):
    """Not a banque certificate this checker can read (exit code 2)."""


# ------------------------------------------------------------------------------------------------
# Exact numbers: rationals, and elements of one number field Q(alpha)
# ------------------------------------------------------------------------------------------------


def _poly_eval(p: list[Fraction], x: Fraction) -> Fraction:
    out = Fraction(0)
    for c in reversed(p):
        out = out * x + c
    return out


def _poly_bounds(p: list[Fraction], lo: Fraction, hi: Fraction) -> tuple[Fraction, Fraction]:
    a = b = Fraction(0)
    for c in reversed(p):
        products = (a * lo, a * hi, b * lo, b * hi)
        a, b = min(products) + c, max(products) + c
    return a, b


class Field:
    """alpha: the only root of ``poly`` (constant first) in (lo, hi), checked: a sign change, and the
    derivative of one sign on the interval (after bisection)."""

    def __init__(self, poly: list[Fraction], lo: Fraction, hi: Fraction) -> None:
        if len(poly) < 3 or poly[-1] == 0:
            raise CheckFailure("field: the minimal polynomial must have degree at least 2")
        if lo >= hi or _poly_eval(poly, lo) * _poly_eval(poly, hi) >= 0:
            raise CheckFailure("field: the polynomial must change sign on the interval")
        self.poly, self.lo, self.hi = poly, lo, hi
        self.deriv = [i * c for i, c in enumerate(poly)][1:]
        for _ in range(400):
            dlo, dhi = _poly_bounds(self.deriv, self.lo, self.hi)
            if dlo > 0 or dhi < 0:
                return
            self.bisect()
        raise CheckFailure("field: the interval does not isolate one root")

    def bisect(self) -> None:
        mid = (self.lo + self.hi) / 2
        v = _poly_eval(self.poly, mid)
        if v == 0:
            raise CheckFailure("field: the polynomial has a rational root")
        if v * _poly_eval(self.poly, self.lo) < 0:
            self.hi = mid
        else:
            self.lo = mid

    def reduce(self, c: list[Fraction]) -> tuple[Fraction, ...]:
        c = list(c)
        d = len(self.poly) - 1
        while len(c) > d:
            top = c.pop()
            if top:
                for i in range(d):
                    c[len(c) - d + i] -= top * self.poly[i] / self.poly[-1]
        while c and c[-1] == 0:
            c.pop()
        return tuple(c)


class Num:
    """An exact number: a Fraction (field None) or a polynomial in alpha."""

    __slots__ = ("f", "c")

    def __init__(self, field: Field | None, coefficients: tuple[Fraction, ...]) -> None:
        self.f, self.c = field, coefficients

    @staticmethod
    def of(field: Field | None, x: Any) -> Num:
        if isinstance(x, Num):
            return x
        q = Fraction(x)
        return Num(field, (q,) if q else ())

    def __add__(self, o: Any) -> Num:
        o = Num.of(self.f, o)
        f = self.f if self.f is not None else o.f  # a rational and a field element: the field's
        n = max(len(self.c), len(o.c))
        c = [(self.c[i] if i < len(self.c) else 0) + (o.c[i] if i < len(o.c) else 0) for i in range(n)]
        while c and c[-1] == 0:
            c.pop()
        return Num(f, tuple(Fraction(v) for v in c))

    __radd__ = __add__

    def __neg__(self) -> Num:
        return Num(self.f, tuple(-v for v in self.c))

    def __sub__(self, o: Any) -> Num:
        return self + (-Num.of(self.f, o))

    def __rsub__(self, o: Any) -> Num:
        return Num.of(self.f, o) + (-self)

    def __mul__(self, o: Any) -> Num:
        o = Num.of(self.f, o)
        f = self.f if self.f is not None else o.f  # a rational times a field element: the field's
        if not self.c or not o.c:
            return Num(f, ())
        out = [Fraction(0)] * (len(self.c) + len(o.c) - 1)
        for i, a in enumerate(self.c):
            for j, b in enumerate(o.c):
                out[i + j] += a * b
        if f is None:
            return Num(None, (out[0],) if out[0] else ())
        return Num(f, f.reduce(out))

    __rmul__ = __mul__

    def sign(self) -> int:
        if not self.c:
            return 0
        if self.f is None or len(self.c) == 1:
            return (self.c[0] > 0) - (self.c[0] < 0)
        for _ in range(2000):
            lo, hi = _poly_bounds(list(self.c), self.f.lo, self.f.hi)
            if lo > 0:
                return 1
            if hi < 0:
                return -1
            self.f.bisect()
        raise CheckFailure("cannot decide the sign of a number (is the polynomial irreducible?)")

    def __eq__(self, o: object) -> bool:
        return (self - o).sign() == 0

    def __hash__(self) -> int:  # pragma: no cover - not used as a key
        return hash(self.c)

    def __str__(self) -> str:
        if self.f is None or len(self.c) <= 1:
            return str(self.c[0] if self.c else 0)
        return "[" + ", ".join(str(v) for v in self.c) + "]"


# ------------------------------------------------------------------------------------------------
# The enumeration
# ------------------------------------------------------------------------------------------------


def falling(x: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= x - i
    return out if x >= k else 0


def _comps() -> list[tuple[int, int, int]]:
    return [(a, b, 1 if a == b else 2) for a in range(10) for b in range(a, 10)]


def _player_hands(information: int) -> list[tuple[tuple[Any, ...], int, tuple[int, ...]]]:
    """(interface, orderings, cards) of a player's hands when he acts. Interface: (set or None, branch
    (1 drew, 0 stood, None), sight, final total)."""
    out: list[tuple[tuple[Any, ...], int, tuple[int, ...]]] = []
    for a, b, m in _comps():
        t = (a + b) % 10
        key = (f"{a}+{b}" if information == 3 else "5") if t == 5 else None
        if t >= 8:
            out.append(((None, None, "N", t), m, (a, b)))
        elif t >= 6:
            out.append(((None, None, "S", t), m, (a, b)))
        else:
            if t == 5:
                out.append(((key, 0, "S", t), m, (a, b)))
            for c in range(10):
                out.append(((key, 1 if t == 5 else None, str(c), (t + c) % 10), m, (a, b, c)))
    return out


def _code(cards: tuple[int, ...]) -> int:
    return sum(16**v for v in cards)


class Enumerator:
    """Weights of multisets (given by base-16 codes) for one shoe, padded to nine cards."""

    def __init__(self, dealing: str, cards: tuple[int, ...]) -> None:
        self.dealing, self.cards = dealing, cards
        self.size = sum(cards)
        self.cache: dict[int, int] = {}
        self.denominator = self.size**9 if dealing == "A" else falling(self.size, 9)

    def weight(self, code: int) -> int:
        w = self.cache.get(code)
        if w is None:
            k, w, c = 0, 1, code
            for v in range(10):
                kv = c % 16
                c //= 16
                k += kv
                w *= self.cards[v] ** kv if self.dealing == "A" else falling(self.cards[v], kv)
            w *= self.size ** (9 - k) if self.dealing == "A" else falling(self.size - k, 9 - k)
            self.cache[code] = w
        return w


def _outcome(r1: int, r2: int) -> int:
    return (r1 + 1) * 3 + (r2 + 1)


@lru_cache(maxsize=4)
def enumerate_game(dealing: str, cards: tuple[int, ...], information: int) -> tuple[dict[tuple[Any, ...], list[int]], int]:
    """Every key (set1, branch1, own set2, branch2, banker own, sight1, sight2, banker branch) with its
    weights by joint outcome (index (R1 + 1) * 3 + R2 + 1); naturals ending the coup under the key
    (None, ...). Returns (table, denominator)."""
    en = Enumerator(dealing, cards)
    table: dict[tuple[Any, ...], list[int]] = {}

    def add(key: tuple[Any, ...], o: int, w: int) -> None:
        row = table.get(key)
        if row is None:
            row = table[key] = [0] * 9
        row[o] += w

    comps = _comps()
    # Coups ended by naturals.
    for (a1, b1, m1), (a2, b2, m2), (ab, bb, mb) in itertools.product(comps, comps, comps):
        t1, t2, tb = (a1 + b1) % 10, (a2 + b2) % 10, (ab + bb) % 10
        if tb >= 8 or (t1 >= 8 and t2 >= 8):
            w = m1 * m2 * mb * en.weight(_code((a1, b1, a2, b2, ab, bb)))
            r1 = -1 if tb < 8 else (tb > t1) - (tb < t1)
            r2 = -1 if tb < 8 else (tb > t2) - (tb < t2)
            add((None,) * 8, _outcome(r1, r2), w)
    # The players' hands, paired and grouped by interface and multiset.
    hands = _player_hands(information)
    pairs: dict[int, dict[tuple[Any, Any], int]] = {}
    for (i1, m1, c1), (i2, m2, c2) in itertools.product(hands, hands):
        if i1[2] == "N" and i2[2] == "N":
            continue
        group = pairs.setdefault(_code(c1) + _code(c2), {})
        group[i1, i2] = group.get((i1, i2), 0) + m1 * m2
    banker = []
    for a, b, m in comps:
        t = (a + b) % 10
        if t >= 8:
            continue
        own = str(t) if information == 1 else f"{a}+{b}"
        banker.append((own, 0, t, m, _code((a, b))))
        banker.extend((own, 1, (t + c) % 10, m, _code((a, b, c))) for c in range(10))
    for rcode, group in pairs.items():
        if not en.weight(rcode):  # the players' cards cannot be dealt from this shoe
            continue
        # The banker's hands weighted from the cards the players left: by (own, branch), then final total.
        btab: dict[tuple[str, int], dict[int, int]] = {}
        for own, db, final, m, code in banker:
            w = m * en.weight(rcode + code)
            if w:
                row = btab.setdefault((own, db), {})
                row[final] = row.get(final, 0) + w
        if not btab:
            continue
        for (i1, i2), count in group.items():
            # The joint outcome for each final banker total, against these two tableaux.
            outcome = [
                _outcome(-1 if i1[2] == "N" else (f > i1[3]) - (f < i1[3]), -1 if i2[2] == "N" else (f > i2[3]) - (f < i2[3]))
                for f in range(10)
            ]
            prefix = (i1[0], i1[1], i2[0], i2[1])
            for (own, db), finals in btab.items():
                key = (*prefix, own, i1[2], i2[2], db)
                cell = table.get(key)
                if cell is None:
                    cell = table[key] = [0] * 9
                for final, w in finals.items():
                    cell[outcome[final]] += count * w
    return table, en.denominator


# ------------------------------------------------------------------------------------------------
# The game of a model: terms (P1 set, branch, P2 set, branch, banker cell, branch, weights)
# ------------------------------------------------------------------------------------------------


def _casino(own: str, s1: str, s2: str) -> str:
    total = int(own) if "+" not in own else sum(map(int, own.split("+"))) % 10
    votes = {CASINO_TABLEAU[total][SIGHTS.index(s)] for s in (s1, s2) if s != "N"}
    return votes.pop() if len(votes) == 1 and "F" not in votes else "F"


@dataclass
class Game:
    terms: list[tuple[Any, int | None, Any, int | None, Any, int | None, list[int]]]
    denominator: int
    player1: list[str]
    player2: list[str]
    banker: list[str]
    # Per payoff vector U, the terms' integer weights (filled by _term_weights; the cache lives and
    # dies with its game, so a later game can never be handed an earlier one's weights).
    weights: dict[tuple[Fraction, ...], tuple[list[int], int]] = field(default_factory=dict, repr=False)


def game_of(dealing: str, cards: tuple[int, ...], information: int, second: str, freedom: str) -> Game:
    table, den = enumerate_game(dealing, cards, information)
    terms = []
    for (j, dj, k, dk, own, s1, s2, db), w in table.items():
        cell = None
        if own is not None:
            action = _casino(own, s1, s2) if freedom == "casino" else "F"
            if action != "F":
                if (action == "D") != (db == 1):
                    continue
                db = None
            else:
                cell = f"{own}/{s1}/{s2}"
        if k is not None and second == "sees-first":
            k = f"{k}/{s1}"
        terms.append((j, dj, k, dk, cell, db, w))
    owns = [str(t) for t in range(8)] if information == 1 else [f"{a}+{b}" for a, b, _ in _comps() if (a + b) % 10 < 8]
    banker = [
        f"{o}/{a}/{b}"
        for o in owns
        for a in SIGHTS
        for b in SIGHTS
        if not (a == "N" and b == "N") and (freedom == "parlor" or _casino(o, a, b) == "F")
    ]
    own_sets = list(FIVES) if information == 3 else ["5"]
    p2 = own_sets if second == "blind" else [f"{s}/{t}" for s in own_sets for t in SIGHTS]
    return Game(terms, den, list(own_sets), p2, banker)


def _held(term: tuple[Any, ...], side: int) -> tuple[Any, int | None]:
    """What a term says of one side (0, 1, 2: Player 1, Player 2, the banker): his set (None where he has
    no decision on it) and his branch (1 drew, 0 stood, None)."""
    branch: int | None = term[2 * side + 1]
    return term[2 * side], branch


def _phi(values: dict[str, Any], key: Any, branch: int | None) -> Any:
    if key is None:
        return 1
    v = values[key]
    return v if branch == 1 else 1 - v


def _term_weights(game: Game, u: list[Fraction]) -> tuple[list[int], int]:
    """Per term, the payoff's integer weight Σ_o U_o w_o, and the common denominator of U (cached)."""
    key = tuple(u)
    found = game.weights.get(key)
    if found is None:
        d = 1
        for q in u:
            d = d * q.denominator // _gcd_int(d, q.denominator)
        big = [int(q * d) for q in u]
        found = ([sum(a * b for a, b in zip(big, w)) for *_, w in game.terms], d)
        game.weights[key] = found
    return found


def _gcd_int(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _scaled(values: dict[str, Any]) -> tuple[dict[str, int], int] | None:
    """Rational values as integer numerators over a common denominator; None if some is irrational."""
    d = 1
    rationals = {}
    for k, v in values.items():
        if isinstance(v, Num):
            if len(v.c) > 1:
                return None
            v = v.c[0] if v.c else Fraction(0)
        q = Fraction(v)
        rationals[k] = q
        d = d * q.denominator // _gcd_int(d, q.denominator)
    return {k: int(q * d) for k, q in rationals.items()}, d


def _factor_int(values: tuple[dict[str, int], int], key: Any, branch: int | None) -> int:
    nums, d = values
    if key is None:
        return d
    return nums[key] if branch == 1 else d - nums[key]


def _evaluate(
    game: Game, u: list[Fraction], side: int | None, x: dict[str, Any], y: dict[str, Any], r: dict[str, Any]
) -> dict[Any, Any]:
    """The expectation (side None, under key None) or the slopes of ``side``'s sets, exactly."""
    weights, du = _term_weights(game, u)
    vals = (x, y, r)
    ints = [_scaled(v) for v in vals]
    keys = (game.player1, game.player2, game.banker)[side] if side is not None else [None]
    if all(i is not None for i in ints):
        sums: dict[Any, int] = {k: 0 for k in keys}
        scale = du * game.denominator
        for s, i in enumerate(ints):
            if s != side:
                scale *= i[1]  # type: ignore[index]
        for term, w in zip(game.terms, weights):
            if not w:
                continue
            key = term[2 * side] if side is not None else None
            if side is not None and key is None:
                continue
            part = w if side is None or term[2 * side + 1] == 1 else -w
            for s in range(3):
                if s != side:
                    part *= _factor_int(ints[s], *_held(term, s))  # type: ignore[arg-type]
            sums[key] += part
        return {k: Fraction(v, scale) for k, v in sums.items()}
    out: dict[Any, Any] = {k: Fraction(0) for k in keys}
    for term, w in zip(game.terms, weights):
        if not w:
            continue
        key = term[2 * side] if side is not None else None
        if side is not None and key is None:
            continue
        exact: Any = Fraction(w if side is None or term[2 * side + 1] == 1 else -w, du * game.denominator)
        for s in range(3):
            if s != side:
                exact = exact * _phi(vals[s], *_held(term, s))
        out[key] = out[key] + exact
    return out


def expectation(game: Game, u: list[Fraction], x: dict[str, Any], y: dict[str, Any], r: dict[str, Any]) -> Any:
    return _evaluate(game, u, None, x, y, r)[None]


def slopes(game: Game, u: list[Fraction], side: int, x: dict[str, Any], y: dict[str, Any], r: dict[str, Any]) -> dict[str, Any]:
    """d E / d v for every set v of ``side`` (0: Player 1, 1: Player 2, 2: banker)."""
    return _evaluate(game, u, side, x, y, r)


def payoffs(theta: Fraction, tax: Fraction) -> tuple[list[Fraction], list[Fraction], list[Fraction]]:
    """(banker net, R1, R2) per joint outcome."""
    net, r1s, r2s = [], [], []
    for r1 in (-1, 0, 1):
        for r2 in (-1, 0, 1):
            x = theta * r1 + (1 - theta) * r2
            net.append(x - tax * max(Fraction(0), x))
            r1s.append(Fraction(r1))
            r2s.append(Fraction(r2))
    return net, r1s, r2s


# ------------------------------------------------------------------------------------------------
# Reading a certificate
# ------------------------------------------------------------------------------------------------


def _rational(text: Any, where: str) -> Fraction:
    if not isinstance(text, str) or not _RATIONAL.fullmatch(text) or text == "-0":
        raise CheckFailure(f"{where}: expected an exact rational written like 3/8, got {json.dumps(text)}")
    q = Fraction(text)
    if str(q) != text:
        raise CheckFailure(f"{where}: {text} is not in lowest terms (write {q})")
    return q


def _object(obj: Any, where: str, required: set[str], optional: set[str] = frozenset()) -> dict[str, Any]:  # type: ignore[assignment]
    if not isinstance(obj, dict):
        raise CheckFailure(f"{where}: expected a JSON object")
    missing = required - set(obj)
    extra = set(obj) - required - optional
    if missing:
        raise CheckFailure(f"{where}: missing key(s) {', '.join(sorted(missing))}")
    if extra:
        raise CheckFailure(f"{where}: unknown key(s) {', '.join(sorted(extra))}")
    return obj


class Reader:
    """Reads exact numbers (rationals, or elements of the certificate's field)."""

    def __init__(self, field: Field | None) -> None:
        self.field = field

    def number(self, value: Any, where: str) -> Num:
        if isinstance(value, dict):
            if self.field is None:
                raise CheckFailure(f"{where}: an element of a field, but the certificate gives no field")
            _object(value, where, {"field"})
            coefficients = value["field"]
            if not isinstance(coefficients, list) or not coefficients:
                raise CheckFailure(f"{where}.field: expected a list of rationals")
            c = [_rational(v, f"{where}.field") for v in coefficients]
            if len(c) >= len(self.field.poly) or (len(c) <= 1) or c[-1] == 0:
                raise CheckFailure(f"{where}: an irrational element has 2 to deg-1 coefficients, the last non-zero")
            return Num(self.field, tuple(c))
        return Num.of(self.field, _rational(value, where))

    def probability(self, value: Any, where: str) -> Num:
        v = self.number(value, where)
        if v.sign() < 0 or (v - 1).sign() > 0:
            raise CheckFailure(f"{where}: a probability must lie in [0, 1]")
        return v

    def strategy(self, obj: Any, where: str, keys: list[str]) -> dict[str, Num]:
        _object(obj, where, set(keys))
        return {k: self.probability(obj[k], f"{where}[{k!r}]") for k in keys}


# The largest count (or weight) of one value: a billion decks (as proofs/check.py; without a bound a
# certificate with 4,000-digit counts would be enumerated on enormous integers for hours).
MAX_SHOE_COUNT = 16 * 10**9


def _shoe(obj: Any) -> tuple[str, tuple[int, ...]]:
    if not isinstance(obj, dict) or obj.get("dealing") not in ("A", "B"):
        raise CheckFailure('shoe: expected {"dealing": "A", "weights": [...]} or {"dealing": "B", "counts": [...]}')
    field = "weights" if obj["dealing"] == "A" else "counts"
    _object(obj, "shoe", {"dealing", field})
    cards = obj[field]
    if not isinstance(cards, list) or len(cards) != 10 or any(type(c) is not int or c < 0 for c in cards):
        raise CheckFailure(f"shoe.{field}: expected ten non-negative integers")
    if max(cards) > MAX_SHOE_COUNT:
        raise CheckFailure(f"shoe.{field}: a count above {MAX_SHOE_COUNT:,}, more than this checker accepts")
    if obj["dealing"] == "B" and sum(cards) < 9:
        raise CheckFailure("shoe.counts: a banque coup may need nine cards")
    if sum(cards) == 0:
        raise CheckFailure("shoe: no cards")
    return obj["dealing"], tuple(cards)


# ------------------------------------------------------------------------------------------------
# Verifying the claims
# ------------------------------------------------------------------------------------------------


def _best_reply(values: dict[str, Num], slope: dict[str, Any], maximise: bool, who: str) -> None:
    for key, v in values.items():
        s = Num.of(v.f, slope[key]).sign()
        s = s if maximise else -s
        if (s > 0 and (v - 1).sign() != 0) or (s < 0 and v.sign() != 0):
            raise CheckFailure(f"claims: {who}[{key!r}] = {v} is not a best reply (slope sign {s if maximise else -s})")


def _team(reader: Reader, obj: Any, game: Game, where: str) -> list[tuple[dict[str, Num], Num, dict[str, Num]]]:
    if not isinstance(obj, list) or not obj:
        raise CheckFailure(f"{where}: expected a non-empty list")
    out = []
    total: Any = Fraction(0)
    for n, atom in enumerate(obj):
        w = f"{where}[{n}]"
        _object(atom, w, {"player1", "probability", "player2"})
        _object(atom["player1"], f"{w}.player1", set(game.player1))
        if any(v not in ("D", "S") for v in atom["player1"].values()):
            raise CheckFailure(f"{w}.player1: each set says D or S")
        x = {k: Num.of(None, 1 if v == "D" else 0) for k, v in atom["player1"].items()}
        p = reader.probability(atom["probability"], f"{w}.probability")
        if p.sign() <= 0:
            raise CheckFailure(f"{w}.probability: must be positive")
        y = reader.strategy(atom["player2"], f"{w}.player2", game.player2)
        out.append((x, p, y))
        total = total + p
    if Num.of(None, total) != 1:
        raise CheckFailure(f"{where}: the probabilities must sum to 1")
    return out


def _team_guarantee(game: Game, u: list[Fraction], team: list[tuple[dict[str, Num], Num, dict[str, Num]]]) -> Any:
    """f: the most the banker can get against a correlated team strategy."""
    zero_r = {k: Num.of(None, 0) for k in game.banker}
    base: Any = Fraction(0)
    cells: dict[str, Any] = {k: Fraction(0) for k in game.banker}
    for x, p, y in team:
        base = base + p * expectation(game, u, x, y, zero_r)
        for k, s in slopes(game, u, 2, x, y, zero_r).items():
            cells[k] = cells[k] + p * s
    return base + sum((s for s in cells.values() if Num.of(None, s).sign() > 0), Fraction(0))


def _atom_costs(game: Game, u: list[Fraction], r: dict[str, Any]) -> list[tuple[dict[str, Num], Any, dict[str, Any]]]:
    """For each pure strategy of Player 1: the team's least payoff against r, and Player 2's slopes."""
    out = []
    for bits in itertools.product((0, 1), repeat=len(game.player1)):
        x = {k: Num.of(None, b) for k, b in zip(game.player1, bits)}
        zero_y = {k: Num.of(None, 0) for k in game.player2}
        g = slopes(game, u, 1, x, zero_y, r)
        cost = expectation(game, u, x, zero_y, r) + sum((s for s in g.values() if Num.of(None, s).sign() < 0), Fraction(0))
        out.append((x, cost, g))
    return out


def _banker_guarantee(game: Game, u: list[Fraction], r: dict[str, Any]) -> Any:
    """h: the least the team can hold the banker to against r."""
    costs = [c for _, c, _ in _atom_costs(game, u, r)]
    best = costs[0]
    for c in costs[1:]:
        if (Num.of(None, c) - best).sign() < 0:
            best = c
    return best


def _equal(a: Any, b: Any, what: str) -> None:
    if (Num.of(None, a) - b).sign() != 0:
        raise CheckFailure(f"{what}: {b} differs from {Num.of(None, a)}")


# ------------------------------------------------------------------------------------------------
# Refuting the support patterns of an independent solution (exists: false)
# ------------------------------------------------------------------------------------------------


def _cell_polynomials(
    game: Game, u: list[Fraction], fixed: dict[str, Fraction], free: list[str]
) -> dict[str, dict[tuple[int, ...], Fraction]]:
    """Each banker cell's slope as a polynomial in the free player sets (keys "1:" + set or "2:" + set)."""
    index = {v: n for n, v in enumerate(free)}
    out: dict[str, dict[tuple[int, ...], Fraction]] = {k: {} for k in game.banker}
    for j, dj, k, dk, i, di, w in game.terms:
        if i is None:
            continue
        uw = Fraction(sum(a * b for a, b in zip(u, w)), game.denominator)
        if not uw:
            continue
        poly = {tuple([0] * len(free)): uw if di == 1 else -uw}
        for name, branch in (("1:" + j if j is not None else None, dj), ("2:" + k if k is not None else None, dk)):
            if name is None:
                continue
            new: dict[tuple[int, ...], Fraction] = {}
            for expo, c in poly.items():
                if name in index:
                    e = list(expo)
                    e[index[name]] += 1
                    if branch == 1:
                        new[tuple(e)] = new.get(tuple(e), 0) + c
                    else:
                        new[expo] = new.get(expo, 0) + c
                        new[tuple(e)] = new.get(tuple(e), 0) - c
                else:
                    v = fixed[name] if branch == 1 else 1 - fixed[name]
                    new[expo] = new.get(expo, 0) + c * v
            poly = new
        target = out[i]
        for expo, c in poly.items():
            target[expo] = target.get(expo, 0) + c
    return {k: {e: c for e, c in p.items() if c} for k, p in out.items()}


def _gcd(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    def trim(p: list[Fraction]) -> list[Fraction]:
        while p and p[-1] == 0:
            p = p[:-1]
        return p

    a, b = trim(a), trim(b)
    while b:
        r = list(a)
        while len(r) >= len(b) and r:
            f = r[-1] / b[-1]
            shift = len(r) - len(b)
            r = trim([c - f * (b[i - shift] if 0 <= i - shift < len(b) else 0) for i, c in enumerate(r)])
        a, b = b, r
    return a


def _pattern_feasible(
    eqs: list[dict[tuple[int, ...], Fraction]],
    ineqs: list[tuple[dict[tuple[int, ...], Fraction], int]],
    n: int,
    open_vars: set[int],
) -> bool:
    """Whether the pattern's conditions can hold. Supported: equations in one variable each (their common
    rational root is found exactly); the other variables only in conditions linear in one variable.
    Anything else cannot be verified here (a failure, never a pass)."""
    point: dict[int, Fraction] = {}
    univariate: dict[int, list[Fraction]] = {}
    for e in eqs:
        used = {q for expo in e for q, d in enumerate(expo) if d}
        if not used:
            if any(e.values()):
                return False
            continue
        if len(used) > 1:
            raise CheckFailure("claims.exists: a pattern needs a multivariate solve; this checker cannot verify it")
        (q,) = used
        coeffs = [Fraction(0)] * 8
        for expo, c in e.items():
            coeffs[expo[q]] += c
        univariate[q] = _gcd(univariate[q], coeffs) if q in univariate else coeffs
    for q, p in univariate.items():
        while p and p[-1] == 0:
            p = p[:-1]
        if len(p) == 1:
            return False
        if len(p) != 2:
            raise CheckFailure("claims.exists: a pattern has a nonlinear equation; this checker cannot verify it")
        root = -p[0] / p[1]
        if not (0 < root < 1 if q in open_vars else 0 <= root <= 1):
            return False
        point[q] = root
    lo = {q: Fraction(0) for q in range(n) if q not in point}
    hi = {q: Fraction(1) for q in range(n) if q not in point}
    for poly, sign in ineqs:
        const, lin = Fraction(0), dict[int, Fraction]()
        for expo, c in poly.items():
            term, free_q = c, None
            for q, d in enumerate(expo):
                if d and q in point:
                    term *= point[q] ** d
                elif d:
                    if free_q is not None or d > 1:
                        raise CheckFailure("claims.exists: a pattern's conditions are not linear in one variable")
                    free_q = q
            if free_q is None:
                const += term
            else:
                lin[free_q] = lin.get(free_q, Fraction(0)) + term
        lin = {q: a for q, a in lin.items() if a}
        if len(lin) > 1:
            raise CheckFailure("claims.exists: a pattern's conditions are not linear in one variable")
        if not lin:
            if const * sign < 0:
                return False
            continue
        ((q, a),) = lin.items()
        bound = -const / a
        if (a > 0) == (sign > 0):
            lo[q] = max(lo[q], bound)
        else:
            hi[q] = min(hi[q], bound)
    for q in lo:
        if lo[q] > hi[q] or (q in open_vars and (lo[q] >= 1 or hi[q] <= 0 or lo[q] == hi[q])):
            return False
    return True


def _refute_patterns(game: Game, u: list[Fraction], r: dict[str, Num]) -> None:
    """Every pattern of Player 1 (stand, draw or mix at each set) admits no optimal product strategy."""
    if any(v.f is not None and len(v.c) > 1 for v in r.values()):
        raise CheckFailure("claims.exists: r* must be rational")
    rq = {k: (v.c[0] if v.c else Fraction(0)) for k, v in r.items()}
    atoms = _atom_costs(game, u, rq)
    best = min(Num.of(None, c).c[0] if Num.of(None, c).c else Fraction(0) for _, c, _ in atoms)
    for pattern in itertools.product("01m", repeat=len(game.player1)):
        chosen = [(x, c, g) for x, c, g in atoms if all(p == "m" or int(p) == x[k].sign() for p, k in zip(pattern, game.player1))]
        if any(Num.of(None, c) != best for _, c, _ in chosen):
            continue  # refuted: a pure strategy in the support is not a team best reply
        fixed: dict[str, Fraction] = {}
        free = ["1:" + k for p, k in zip(pattern, game.player1) if p == "m"]
        for p, k in zip(pattern, game.player1):
            if p != "m":
                fixed["1:" + k] = Fraction(int(p))
        conflict = False
        for k in game.player2:
            signs = {Num.of(None, g[k]).sign() for _, _, g in chosen}
            if signs <= {0}:
                free.append("2:" + k)
            elif signs <= {0, 1}:
                fixed["2:" + k] = Fraction(0)
            elif signs <= {0, -1}:
                fixed["2:" + k] = Fraction(1)
            else:
                conflict = True
        if conflict:
            continue
        polys = _cell_polynomials(game, u, fixed, free)
        eqs = [polys[i] for i in game.banker if 0 < rq[i] < 1 and polys[i]]
        ineqs = [(polys[i], 1 if rq[i] == 1 else -1) for i in game.banker if rq[i] in (0, 1) and polys[i]]
        n_open = {q for q, name in enumerate(free) if name.startswith("1:")}
        if _pattern_feasible(eqs, ineqs, len(free), n_open):
            raise CheckFailure(f"claims.exists: false, but the pattern {''.join(pattern)} admits an optimal product strategy")


# ------------------------------------------------------------------------------------------------
# No equilibrium with Player 1 at x (format 2): with x fixed the game splits into small games
# ------------------------------------------------------------------------------------------------

MAX_TIED = 16
"""Most cells free at one point of a small game whose constrained vertices this checker enumerates."""


def _form(game: Game, u: list[Fraction]) -> dict[tuple[Any, Any, Any], int]:
    """The payoff sum_o u(o) P_o as a multilinear form: (Player 1's set or None, Player 2's set or None,
    banker cell or None) -> integer coefficient over a positive denominator (each v or 1 - v expanded)."""
    weights, _ = _term_weights(game, u)
    out: dict[tuple[Any, Any, Any], int] = {}
    for (j, dj, k, dk, i, di, _w), w in zip(game.terms, weights):
        if not w:
            continue
        parts: list[tuple[tuple[Any, ...], int]] = [((), w)]
        for name, branch in ((j, dj), (k, dk), (i, di)):
            grown = []
            for key, c in parts:
                if name is None:
                    grown.append((key + (None,), c))
                elif branch == 1:
                    grown.append((key + (name,), c))
                else:  # 1 - v
                    grown += [(key + (None,), c), (key + (name,), -c)]
            parts = grown
        for key, c in parts:
            out[key] = out.get(key, 0) + c  # type: ignore[index,unused-ignore]
    return out


def _split(game: Game, net: list[Fraction], r1: list[Fraction], r2: list[Fraction]) -> dict[str, Any]:
    """The coefficients of the three slopes, by small game. S_i = c + a x + (b + d x) y_k(i) (the banker's),
    U_k = u0 + u1 x + sum_i (e0_i + e1_i x) r_i (Player 2's), T = t0 + sum_k t_k y_k + sum_i (f_i + g_i y) r_i
    (Player 1's). Fails unless Player 1 has one set and every cell sees at most one set of Player 2."""
    if len(game.player1) != 1:
        raise CheckFailure("claims.no_equilibrium_with_player1_at: Player 1 must have one set (information 1 or 2)")
    forms = [_form(game, u) for u in (net, r1, r2)]
    owner: dict[str, str] = {}
    for form in forms:
        for (_j, k, i), c in form.items():
            if c and k is not None and i is not None and owner.setdefault(i, k) != k:
                raise CheckFailure("claims.no_equilibrium_with_player1_at: a banker cell sees two sets of Player 2")
    s = {i: [0, 0, 0, 0] for i in game.banker}
    for (j, k, i), c in forms[0].items():
        if i is not None:
            s[i][(j is not None) + 2 * (k is not None)] += c
    u = {k: [0, 0] for k in game.player2}
    e = {i: [0, 0] for i in game.banker}
    for (j, k, i), c in forms[2].items():
        if k is not None:
            (u[k] if i is None else e[i])[j is not None] += c
    t0, tk = 0, {k: 0 for k in game.player2}
    f = {i: [0, 0] for i in game.banker}
    for (j, k, i), c in forms[1].items():
        if j is None:
            continue
        if i is None:
            if k is None:
                t0 += c
            else:
                tk[k] += c
        else:
            f[i][k is not None] += c
    return {"s": s, "u": u, "e": e, "t0": t0, "tk": tk, "f": f, "owner": owner}


def _extremes(w: list[Fraction], e: list[Fraction], u0: Fraction, mode: int | None) -> tuple[Fraction, Fraction] | None:
    """Least and greatest sum w r over r in [0, 1]^n with u0 + e.r >= 0 (mode 1), <= 0 (-1), = 0 (0) or
    free (None), at the polytope's vertices; None when it is empty."""
    loose = [q for q in range(len(w)) if mode is None or e[q] == 0]
    tied = [q for q in range(len(w)) if q not in loose]
    if len(tied) > MAX_TIED:
        raise CheckFailure("claims.no_equilibrium_with_player1_at: too many cells free at one point to verify")

    def holds(v: Fraction) -> bool:
        return mode is None or (v >= 0 if mode == 1 else v <= 0 if mode == -1 else v == 0)

    values = []
    for bits in itertools.product((0, 1), repeat=len(tied)):
        if holds(u0 + sum((e[q] for q, b in zip(tied, bits) if b), Fraction(0))):
            values.append(sum((w[q] for q, b in zip(tied, bits) if b), Fraction(0)))
    for q in tied:
        others = [p for p in tied if p != q]
        for bits in itertools.product((0, 1), repeat=len(others)):
            rq = -(u0 + sum((e[p] for p, b in zip(others, bits) if b), Fraction(0))) / e[q]
            if 0 < rq < 1:
                values.append(w[q] * rq + sum((w[p] for p, b in zip(others, bits) if b), Fraction(0)))
    if not values:
        return None
    lo = min(values) + sum((w[q] for q in loose if w[q] < 0), Fraction(0))
    hi = max(values) + sum((w[q] for q in loose if w[q] > 0), Fraction(0))
    return lo, hi


def _small_game(sp: dict[str, Any], k: str | None, cells: list[str], x: Fraction) -> list[tuple[Fraction, Fraction]]:
    """The range of Player 1's slope's part over each component of the equilibria of one small game at x
    (k None: the cells no set of Player 2 reaches: one component, no condition)."""
    ab = {i: (sp["s"][i][0] + sp["s"][i][1] * x, sp["s"][i][2] + sp["s"][i][3] * x) for i in cells}
    ex = {i: sp["e"][i][0] + sp["e"][i][1] * x for i in cells}

    def piece(y: Fraction, drawn: list[str], free: list[str], mode: int | None) -> tuple[Fraction, Fraction] | None:
        t = (sp["tk"][k] if k is not None else 0) * y
        u0 = Fraction(sp["u"][k][0] + sp["u"][k][1] * x) if k is not None else Fraction(0)
        for i in drawn:
            t += sp["f"][i][0] + sp["f"][i][1] * y
            u0 += ex[i]
        got = _extremes([Fraction(sp["f"][i][0] + sp["f"][i][1] * y) for i in free], [Fraction(ex[i]) for i in free], u0, mode)
        return None if got is None else (t + got[0], t + got[1])

    if k is None:
        found = piece(Fraction(0), [i for i in cells if ab[i][0] > 0], [i for i in cells if ab[i][0] == 0], None)
        return [found] if found is not None else []
    points = {Fraction(0), Fraction(1)}
    for a, b in ab.values():
        if b != 0 and 0 < -a / b < 1:
            points.add(-a / b)
    ys = sorted(points)
    out = []
    for n, y in enumerate(ys):
        mode = 1 if n == 0 else -1 if n == len(ys) - 1 else 0
        found = piece(
            y, [i for i in cells if ab[i][0] + ab[i][1] * y > 0], [i for i in cells if ab[i][0] + ab[i][1] * y == 0], mode
        )
        if found is not None:
            out.append(found)
    for y, z in zip(ys, ys[1:]):  # an open stretch: equilibria only where U vanishes all along it
        mid = (y + z) / 2
        drawn = [i for i in cells if ab[i][0] + ab[i][1] * mid > 0]
        free = [i for i in cells if ab[i][0] == 0 and ab[i][1] == 0]
        ends = [piece(end, drawn, free, 0) for end in (y, z)]
        if all(end is not None for end in ends):
            out.append((min(end[0] for end in ends), max(end[1] for end in ends)))  # type: ignore[index]
    return out


def _no_equilibrium_at(game: Game, net: list[Fraction], r1: list[Fraction], r2: list[Fraction], x: Fraction) -> bool:
    """Whether no equilibrium has Player 1 drawing at 5 with probability x: every small game's
    equilibria enumerated (components), and Player 1's slope T kept from his condition (x = 0: T >= 0;
    x = 1: T <= 0; between: T = 0) by every combination."""
    sp = _split(game, net, r1, r2)
    sums = [(Fraction(sp["t0"]), Fraction(sp["t0"]))]
    groups: dict[str | None, list[str]] = {k: [] for k in game.player2}
    groups[None] = []
    for i in game.banker:
        groups[sp["owner"].get(i)].append(i)
    for k, cells in groups.items():
        ranges = _small_game(sp, k, cells, x)
        grown = sorted({(a + lo, b + hi) for a, b in sums for lo, hi in ranges})
        merged: list[tuple[Fraction, Fraction]] = []
        for lo, hi in grown:  # the union of intervals, merged
            if merged and lo <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
            else:
                merged.append((lo, hi))
        sums = merged
    if x == 0:
        return all(hi < 0 for _, hi in sums)
    if x == 1:
        return all(lo > 0 for lo, _ in sums)
    return all(not lo <= 0 <= hi for lo, hi in sums)


# ------------------------------------------------------------------------------------------------
# The certificate
# ------------------------------------------------------------------------------------------------

_TOP = {"format", "version", "shoe", "model", "theta", "concept", "field", "value", "claims"}
_BY_CONCEPT = {"nash": {"player1", "player2", "banker"}, "correlated": {"team", "banker"}}


def check(cert: dict[str, Any]) -> tuple[str, Fraction | str, tuple[str, ...]]:
    """Verify a parsed banque certificate; returns (description, value, verified claims).

    Raises:
        UnusableInput: not this format or version; CheckFailure: a wrong number or claim.
    """
    if cert.get("format") != FORMAT:
        raise UnusableInput(f'not a certificate: "format" must be "{FORMAT}"')
    if type(cert.get("version")) is not int or cert["version"] not in VERSIONS:
        raise UnusableInput(
            f"unsupported version {json.dumps(cert.get('version'))} (this checker reads {', '.join(map(str, VERSIONS))})"
        )
    concept = cert.get("concept")
    if concept not in ("nash", "correlated", "independent"):
        raise CheckFailure('concept: expected "nash", "correlated" or "independent"')
    claims_obj = cert.get("claims")
    exists = claims_obj.get("exists") if isinstance(claims_obj, dict) else None
    extra = _BY_CONCEPT.get(concept) or ({"player1", "player2", "banker"} if exists else {"player1", "player2", "correlated"})
    _object(cert, "certificate", _TOP | extra)
    dealing, cards = _shoe(cert["shoe"])
    model = _object(cert["model"], "model", {"information", "second_player", "freedom", "tax"})
    info, second, freedom = model["information"], model["second_player"], model["freedom"]
    if type(info) is not int or info not in (1, 2, 3):
        raise CheckFailure("model.information: expected the integer 1, 2 or 3")
    if second not in ("blind", "sees-first") or freedom not in ("parlor", "casino"):
        raise CheckFailure('model: second_player is "blind" or "sees-first", freedom "parlor" or "casino"')
    tax = _rational(model["tax"], "model.tax")
    theta = _rational(cert["theta"], "theta")
    if not 0 <= tax <= Fraction(1, 10) or not 0 < theta < 1:
        raise CheckFailure("model.tax must lie in [0, 1/10] and theta in (0, 1)")
    field = None
    if cert["field"] is not None:
        f = _object(cert["field"], "field", {"minimal_polynomial", "interval"})
        poly = [
            Fraction(int(c)) if isinstance(c, str) and re.fullmatch(r"-?[0-9]+", c) else None for c in f["minimal_polynomial"]
        ]
        if None in poly or not isinstance(f["interval"], list) or len(f["interval"]) != 2:
            raise CheckFailure("field: integer coefficients (as strings) and an interval of two rationals")
        field = Field(poly, _rational(f["interval"][0], "field.interval"), _rational(f["interval"][1], "field.interval"))  # type: ignore[arg-type]
    reader = Reader(field)
    game = game_of(dealing, cards, info, second, freedom)
    net, res1, res2 = payoffs(theta, tax)
    gross = payoffs(theta, Fraction(0))[0]
    value = reader.number(cert["value"], "value")
    description = (
        f"{dealing}{info} {'inf' if dealing == 'A' else sum(cards)} cards, {second}, {freedom}, "
        f"tax {tax}, theta {theta}, {concept}"
    )
    if concept == "nash":
        later = {"no_equilibrium_with_player1_at"} if cert["version"] >= 2 else set()
        claims = _object(cert["claims"], "claims", {"equilibrium"}, later)
        x = reader.strategy(cert["player1"], "player1", game.player1)
        y = reader.strategy(cert["player2"], "player2", game.player2)
        r = reader.strategy(cert["banker"], "banker", game.banker)
        _best_reply(x, slopes(game, res1, 0, x, y, r), False, "player1")
        _best_reply(y, slopes(game, res2, 1, x, y, r), False, "player2")
        _best_reply(r, slopes(game, net, 2, x, y, r), True, "banker")
        _equal(expectation(game, net, x, y, r), value, "value")
        verified = ["equilibrium"]
        refuted = claims.get("no_equilibrium_with_player1_at")
        if refuted is not None:
            if not isinstance(refuted, list) or not refuted:
                raise CheckFailure("claims.no_equilibrium_with_player1_at: expected a non-empty list of rationals")
            for n, text in enumerate(refuted):
                at = _rational(text, f"claims.no_equilibrium_with_player1_at[{n}]")
                if not 0 <= at <= 1:
                    raise CheckFailure("claims.no_equilibrium_with_player1_at: each value lies in [0, 1]")
                if not _no_equilibrium_at(game, net, res1, res2, at):
                    raise CheckFailure(f"claims.no_equilibrium_with_player1_at: x = {at} admits an equilibrium")
            verified.append("no equilibrium with Player 1 at " + ", ".join(refuted))
        return description, str(value), tuple(verified)
    if concept == "correlated":
        claim = "equilibrium" if tax else "optimal"
        _object(cert["claims"], "claims", {claim})
        team = _team(reader, cert["team"], game, "team")
        r = reader.strategy(cert["banker"], "banker", game.banker)
        if not tax:
            _equal(_team_guarantee(game, net, team), value, "value (the team's guarantee f)")
            _equal(_banker_guarantee(game, net, r), value, "value (the banker's guarantee h)")
        else:
            played = sum((p * expectation(game, gross, x, y, r) for x, p, y in team), Fraction(0))
            _equal(_banker_guarantee(game, gross, r), played, "claims.equilibrium: the team's best reply (gross)")
            cells = {k: Fraction(0) for k in game.banker}
            for x, p, y in team:
                for k, s in slopes(game, net, 2, x, y, r).items():
                    cells[k] = cells[k] + p * s
            _best_reply(r, cells, True, "banker")
            _equal(sum((p * expectation(game, net, x, y, r) for x, p, y in team), Fraction(0)), value, "value")
        return description, str(value), (claim,)
    _object(cert["claims"], "claims", {"exists"})
    if tax:
        raise CheckFailure("an independent certificate is for tax 0")
    x = reader.strategy(cert["player1"], "player1", game.player1)
    y = reader.strategy(cert["player2"], "player2", game.player2)
    product = [(x1, p, y) for x1, p in _product_atoms(x, game)]
    guarantee = _team_guarantee(game, net, product)
    _equal(guarantee, value, "value (the team's guarantee at the product strategy)")
    if exists is True:
        r = reader.strategy(cert["banker"], "banker", game.banker)
        _equal(_banker_guarantee(game, net, r), value, "claims.exists: the banker's guarantee h")
        return description, str(value), ("exists",)
    if exists is not False:
        raise CheckFailure("claims.exists: expected true or false")
    corr = _object(cert["correlated"], "correlated", {"value", "team", "banker"})
    cvalue = Reader(None).number(corr["value"], "correlated.value")
    team = _team(Reader(None), corr["team"], game, "correlated.team")
    r_star = Reader(None).strategy(corr["banker"], "correlated.banker", game.banker)
    _equal(_team_guarantee(game, net, team), cvalue, "correlated.value (f)")
    _equal(_banker_guarantee(game, net, r_star), cvalue, "correlated.value (h)")
    _refute_patterns(game, net, r_star)
    return description, str(value), ("no independent equilibrium",)


def _product_atoms(x: dict[str, Num], game: Game) -> list[tuple[dict[str, Num], Any]]:
    """A product strategy of Player 1 as a law on his pure strategies."""
    out = []
    for bits in itertools.product((0, 1), repeat=len(game.player1)):
        p: Any = Fraction(1)
        for b, k in zip(bits, game.player1):
            p = p * (x[k] if b else 1 - x[k])
        out.append(({k: Num.of(None, b) for k, b in zip(game.player1, bits)}, p))
    return out


def _read(path: str | Path, limit: int = 64 << 20) -> str:
    """A certificate's text: a regular file (nothing else is opened) of at most ``limit`` bytes, UTF-8."""
    p = Path(path)
    try:
        if not p.is_file():
            raise UnusableInput("cannot read: " + ("not a regular file" if p.exists() else "no such file"))
        with p.open("rb") as fh:
            data = fh.read(limit + 1)
        if len(data) > limit or not data.strip() or b"\0" in data:
            raise UnusableInput("cannot read: " + ("too large" if len(data) > limit else "empty or binary, not a certificate"))
        return data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UnusableInput(f"cannot read: {getattr(e, 'strerror', None) or e}") from None


def check_file(path: str | Path) -> tuple[str, str]:
    """("ok" | "fail" | "unusable", the report line's tail)."""
    try:
        try:
            cert = json.loads(_read(path))
        except (ValueError, RecursionError) as e:
            raise UnusableInput(f"not JSON: {e}") from None
        description, value, claims = check(cert)
        return "ok", f"{description}  value={value}  [{', '.join(claims)}]"
    except UnusableInput as e:
        return "unusable", str(e)
    except CheckFailure as e:
        return "fail", str(e)
    except Exception as e:  # fail closed
        return "fail", f"cannot check this input ({type(e).__name__}: {e})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Independently check baccara banque certificates.")
    parser.add_argument("paths", nargs="+", help="certificate files")
    args = parser.parse_args(argv)
    worst = 0
    try:
        for name in args.paths:
            status, text = check_file(name)
            print(f"OK  {name}  {text}" if status == "ok" else f"FAIL {name}: {text}", flush=True)
            worst = max(worst, {"ok": 0, "fail": 1, "unusable": 2}[status])
    except (OSError, ValueError, AttributeError) as e:  # a closed, full or broken stdout: one line, exit 1
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        print(f"check_banque: error: cannot write the report: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print("check_banque: interrupted", file=sys.stderr)
        return 130
    return worst


if __name__ == "__main__":
    sys.exit(main())
