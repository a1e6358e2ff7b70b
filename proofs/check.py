#!/usr/bin/env python3
"""Independent checker of chemin de fer certificates (format ``baccarat-chemin-certificate``, version 1).

A certificate states a shoe, an information model, a freedom ("parlor" or "casino"), a commission,
the ponte's and the banker's strategies, the value, a list of iterated strict dominance steps and
claims (optimality, uniqueness, equilibrium).  This module re-derives everything from the shoe by
its own deliberately simple enumeration and verifies every number exactly.  It imports nothing
from ``solver/``: its whole value is that it shares no code with the program that wrote the
certificate.  It trusts only Python's integers, ``fractions.Fraction`` and the enumeration below.

The game.  Cards are dealt ponte, banker, ponte, banker (p1, b1, p2, b2); totals are sums mod 10.
A two-card 8 or 9 (naturel) ends the coup.  Otherwise the ponte draws on 0-4, stands on 6-7 and at 5
draws with probability q_j in his information set j; if he draws, his third card c is seen by the
banker, who then draws with probability r_i in his information set i = (own information, c or "S").
Higher total wins, equal totals void the coup.  Per unit stake the banker's gross result is
W - L (W, L: the events "banker wins", "banker loses"), his net gain with commission alpha is
(1 - alpha) W - L, and the ponte's payoff is L - W.

The bilinear form.  Every one of these expectations has the shape

    E(q, r) = c0 + sum_j a_j q_j + sum_i b_i r_i + sum_{j,i} G_ji q_j r_i,

because on each deal at most one ponte decision and one banker decision are taken, and each enters
the probability of a branch as a factor x or 1 - x.  `coefficients` computes (c0, a, b, G) for the
win, loss and tie probabilities exactly, as integers over the common denominator D of six-card
sequences (Ethier, *The Doctrine of Chances*, 2010, ch. 19: pad every coup to six cards).

Run as a script: ``python proofs/check.py [FILES or DIRS ...]``; see proofs/README.md.

>>> shoe = Shoe("A", (4, 1, 1, 1, 1, 1, 1, 1, 1, 1))
>>> game = coefficients(shoe, 1, "casino")
>>> game.ponte_keys, game.banker_keys
(('5',), ('3/9', '5/4'))
>>> game.win.denominator == 13 ** 6
True
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
import textwrap
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

FORMAT = "baccarat-chemin-certificate"
VERSION = 1
BANQUE_FORMAT = "baccarat-banque-certificate"
"""Baccara banque certificates are checked by check_banque.py, beside this file (dispatched on "format")."""

VALUES = range(10)
SEEN = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S")
"""What the banker saw of the ponte: his third card's point value, or "S" if he stood."""

PONTE_KEYS_BY_COMPOSITION = ("0+5", "1+4", "2+3", "6+9", "7+8")
"""The ponte's information sets at 5 under information 3: his two-card compositions of total 5."""

CASINO_TABLEAU = {
    # banker total: action against seen = 0 1 2 3 4 5 6 7 8 9 S   (D draw, S stand, F free)
    0: "DDDDDDDDDDD",
    1: "DDDDDDDDDDD",
    2: "DDDDDDDDDDD",
    3: "DDDDDDDDSFD",
    4: "SSDDDDDDSSD",
    5: "SSSSFDDDSSD",
    6: "SSSSSSDDSSS",
    7: "SSSSSSSSSSS",
}
"""The casino tableau of chemin de fer as data: banker total (0-7) -> one letter per seen card.

Free cells only at (3, 9) and (5, 4).  Punto banco's banker rule is this table with D in both free
cells (3 draws against a 9, 5 draws against a 4).
"""

STANDARD_DECK = (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
"""Point-value counts of one 52-card deck: tens and court cards count 0."""

_RATIONAL = re.compile(r"-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?")


class CheckFailure(Exception):
    """A certificate that was read but whose content is wrong (exit code 1)."""


class UnusableInput(Exception):
    """Input that is not a certificate this checker can read at all (exit code 2)."""


# --------------------------------------------------------------------------------------------
# The shoe and the enumeration
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shoe:
    """A shoe: dealing "B" (finite, without replacement) or "A" (infinite, with replacement).

    ``cards`` holds ten non-negative integers: the counts n_v of point value v for dealing B, the
    weights w_v (value v drawn with probability w_v / sum w) for dealing A.

    A *state* is what is left to deal from: the counts still in the shoe (dealing B) or the
    unchanged weights (dealing A).  ``ways(state, v)`` is ``state[v]`` in both cases, so the
    weight of an ordered k-card sequence is the product of the ways along it: the falling product
    n_{v1} (n_{v2} - [v2 = v1]) ... for B and w_{v1} ... w_{vk} for A.  Divided by
    ``pad(0)`` (= N (N-1) ... (N-5), or (sum w)^6) after multiplying by ``pad(k)`` it is the
    sequence's probability; so every coup, whatever its length, is an integer over one common
    denominator D = ``pad(0)``.

    >>> Shoe("B", STANDARD_DECK).pad(0) == 52 * 51 * 50 * 49 * 48 * 47
    True
    >>> Shoe("A", (4, 1, 1, 1, 1, 1, 1, 1, 1, 1)).pad(4)
    169
    """

    dealing: str
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.dealing not in ("A", "B"):
            raise CheckFailure(f'shoe dealing must be "A" or "B", not {self.dealing!r}')
        if len(self.cards) != 10 or not all(type(n) is int and n >= 0 for n in self.cards):
            raise CheckFailure("shoe needs ten non-negative integers (point values 0-9)")
        if self.dealing == "B" and sum(self.cards) < 6:
            raise CheckFailure("a dealing-B shoe needs at least 6 cards (a coup may use six)")
        if self.dealing == "A" and sum(self.cards) == 0:
            raise CheckFailure("dealing-A weights must not all be zero")

    def remove(self, state: tuple[int, ...], value: int) -> tuple[int, ...]:
        """The state after dealing one card of ``value`` (dealing A: unchanged)."""
        if self.dealing == "A":
            return state
        return state[:value] + (state[value] - 1,) + state[value + 1 :]

    def pad(self, k: int) -> int:
        """Product of the totals of the 6 - k draws that a k-card coup does not make."""
        total = sum(self.cards)
        product = 1
        for m in range(k, 6):
            product *= total - m if self.dealing == "B" else total
        return product


@dataclass(frozen=True)
class Form:
    """A bilinear form E(q, r) = (c0 + a.q + b.r + q.G.r) / denominator with integer numerators.

    ``a`` maps ponte information sets j to a_j, ``b`` maps banker information sets i to b_i and
    ``g[j][i]`` is G_ji.  The maps are dense: every key of the model is present, zeros included.
    """

    denominator: int
    c0: int
    a: dict[str, int]
    b: dict[str, int]
    g: dict[str, dict[str, int]]

    def ponte_slope(self, j: str, r: dict[str, Fraction]) -> Fraction:
        """dE/dq_j = (a_j + sum_i G_ji r_i) / denominator: the gain in E when ponte set j draws."""
        row = self.g[j]
        return (self.a[j] + sum(row[i] * r[i] for i in row)) / Fraction(self.denominator)

    def banker_slope(self, i: str, q: dict[str, Fraction]) -> Fraction:
        """dE/dr_i = (b_i + sum_j G_ji q_j) / denominator: the gain in E when banker set i draws."""
        return (self.b[i] + sum(self.g[j][i] * q[j] for j in self.g)) / Fraction(self.denominator)

    def value(self, q: dict[str, Fraction], r: dict[str, Fraction]) -> Fraction:
        """E(q, r), exactly."""
        total = self.c0 + sum(self.a[j] * q[j] for j in self.a) + sum(self.b[i] * r[i] for i in self.b)
        total += sum(q[j] * sum(row[i] * r[i] for i in row) for j, row in self.g.items())
        return total / Fraction(self.denominator)


def combine(terms: list[tuple[int, Form]], divisor: int = 1) -> Form:
    """The form (sum_k x_k F_k) / divisor for integers x_k and forms F_k over one denominator.

    >>> f = Form(7, 1, {"5": 2}, {"3/9": 3}, {"5": {"3/9": 4}})
    >>> combine([(2, f), (-1, f)], 5) == Form(35, 1, {"5": 2}, {"3/9": 3}, {"5": {"3/9": 4}})
    True
    """
    first = terms[0][1]
    assert all(form.denominator == first.denominator for _, form in terms)
    return Form(
        denominator=first.denominator * divisor,
        c0=sum(x * form.c0 for x, form in terms),
        a={j: sum(x * form.a[j] for x, form in terms) for j in first.a},
        b={i: sum(x * form.b[i] for x, form in terms) for i in first.b},
        g={j: {i: sum(x * form.g[j][i] for x, form in terms) for i in first.g[j]} for j in first.g},
    )


def _composition(x: int, y: int) -> str:
    """Two cards as an unordered composition "a+b" with a <= b."""
    return f"{min(x, y)}+{max(x, y)}"


def _split(weight: int, ponte_total: int, banker_total: int) -> tuple[int, int, int]:
    """(win, loss, tie) weights of a finished coup, from the banker's side."""
    if banker_total > ponte_total:
        return (weight, 0, 0)
    if banker_total < ponte_total:
        return (0, weight, 0)
    return (0, 0, weight)


def _scale(weight: int, triple: tuple[int, int, int]) -> tuple[int, int, int]:
    return (weight * triple[0], weight * triple[1], weight * triple[2])


class _Accumulator:
    """Sparse sums of (win, loss, tie) triples per monomial 1, q_j, r_i, q_j r_i."""

    def __init__(self) -> None:
        self.c0 = [0, 0, 0]
        self.a: dict[str, list[int]] = {}
        self.b: dict[str, list[int]] = {}
        self.g: dict[tuple[str, str], list[int]] = {}

    @staticmethod
    def _add(cell: list[int], triple: tuple[int, int, int], sign: int) -> None:
        for k in range(3):
            cell[k] += sign * triple[k]

    def const(self, triple: tuple[int, int, int], sign: int = 1) -> None:
        self._add(self.c0, triple, sign)

    def ponte(self, j: str, triple: tuple[int, int, int], sign: int = 1) -> None:
        self._add(self.a.setdefault(j, [0, 0, 0]), triple, sign)

    def banker(self, i: str, triple: tuple[int, int, int], sign: int = 1) -> None:
        self._add(self.b.setdefault(i, [0, 0, 0]), triple, sign)

    def cross(self, j: str, i: str, triple: tuple[int, int, int], sign: int = 1) -> None:
        self._add(self.g.setdefault((j, i), [0, 0, 0]), triple, sign)


@cache
def _finest(shoe: Shoe) -> _Accumulator:
    """Enumerate every coup under information 3 and parlor freedom (the finest model).

    Loop over the four first cards p1, b1, p2, b2, then the ponte's third card c, then the
    banker's third card b3, multiplying the ways of each card.  After a non-natural deal the coup
    splits into branches (ponte stands, or ponte draws c), each ending with the banker standing or
    drawing in cell i.  A branch reached with probability factor phi (1, q_j or 1 - q_j) has
    expectation phi (stand + r_i (draw - stand)); expanding phi gives the monomials:

        phi = 1:        c0 += stand;                 b_i += draw - stand
        phi = q_j:      a_j += stand;                G_ji += draw - stand
        phi = 1 - q_j:  c0 += stand; a_j -= stand;   b_i += draw - stand; G_ji -= draw - stand

    where "stand" and "draw" are the (win, loss, tie) weights of the branch's two endings.
    """
    acc = _Accumulator()
    pad4, pad5, pad6 = shoe.pad(4), shoe.pad(5), shoe.pad(6)
    s0 = shoe.cards

    def banker_draws(state: tuple[int, ...], ponte_total: int, banker_total: int) -> tuple[int, int, int]:
        """(win, loss, tie) ways over the banker's third card, dealt from ``state``."""
        win = loss = tie = 0
        for b3 in VALUES:
            ways = state[b3]
            final = (banker_total + b3) % 10
            if final > ponte_total:
                win += ways
            elif final < ponte_total:
                loss += ways
            else:
                tie += ways
        return (win, loss, tie)

    for p1 in VALUES:
        if not s0[p1]:
            continue
        s1 = shoe.remove(s0, p1)
        for b1 in VALUES:
            if not s1[b1]:
                continue
            s2 = shoe.remove(s1, b1)
            for p2 in VALUES:
                if not s2[p2]:
                    continue
                s3 = shoe.remove(s2, p2)
                for b2 in VALUES:
                    if not s3[b2]:
                        continue
                    s4 = shoe.remove(s3, b2)
                    w4 = s0[p1] * s1[b1] * s2[p2] * s3[b2]
                    ponte, banker = (p1 + p2) % 10, (b1 + b2) % 10
                    if ponte >= 8 or banker >= 8:
                        acc.const(_split(w4 * pad4, ponte, banker))
                        continue
                    own = _composition(b1, b2)
                    j = _composition(p1, p2)
                    # (ponte's factor, banker's cell, stand triple, draw triple)
                    branches: list[tuple[str, str, tuple[int, int, int], tuple[int, int, int]]] = []
                    if ponte >= 5:  # the ponte stands: his choice at 5, forced at 6 and 7
                        stand = _split(w4 * pad4, ponte, banker)
                        draw = _scale(w4 * pad5, banker_draws(s4, ponte, banker))
                        branches.append(("1-q" if ponte == 5 else "1", own + "/S", stand, draw))
                    if ponte <= 5:  # the ponte draws c: his choice at 5, forced at 0-4
                        for c in VALUES:
                            if not s4[c]:
                                continue
                            w5 = w4 * s4[c]
                            third = (ponte + c) % 10
                            stand = _split(w5 * pad5, third, banker)
                            draw = _scale(w5 * pad6, banker_draws(shoe.remove(s4, c), third, banker))
                            branches.append(("q" if ponte == 5 else "1", f"{own}/{c}", stand, draw))
                    for factor, cell, stand, draw in branches:
                        diff = (draw[0] - stand[0], draw[1] - stand[1], draw[2] - stand[2])
                        if factor == "1":
                            acc.const(stand)
                            acc.banker(cell, diff)
                        elif factor == "q":
                            acc.ponte(j, stand)
                            acc.cross(j, cell, diff)
                        else:  # 1 - q_j
                            acc.const(stand)
                            acc.ponte(j, stand, -1)
                            acc.banker(cell, diff)
                            acc.cross(j, cell, diff, -1)
    return acc


# --------------------------------------------------------------------------------------------
# Information models and freedoms
# --------------------------------------------------------------------------------------------


def _banker_own_keys(information: int) -> list[str]:
    """The banker's own information: total 0-7 (information 1) or composition a+b, total <= 7."""
    if information == 1:
        return [str(t) for t in range(8)]
    return [f"{x}+{y}" for x in VALUES for y in VALUES if x <= y and (x + y) % 10 <= 7]


def _own_total(own: str) -> int:
    """The two-card total of a banker's own information key ("3" or "1+2")."""
    return sum(int(part) for part in own.split("+")) % 10


def ponte_keys(information: int) -> tuple[str, ...]:
    """The ponte's information sets at 5: "5" under information 1 and 2, his composition under 3.

    >>> ponte_keys(3)
    ('0+5', '1+4', '2+3', '6+9', '7+8')
    """
    return PONTE_KEYS_BY_COMPOSITION if information == 3 else ("5",)


def banker_keys(information: int, freedom: str) -> tuple[str, ...]:
    """The free banker information sets "<own>/<seen>" of a model, in a fixed order.

    >>> len(banker_keys(1, "parlor")), len(banker_keys(3, "parlor")), len(banker_keys(2, "casino"))
    (88, 484, 10)
    >>> banker_keys(1, "casino")
    ('3/9', '5/4')
    """
    keys = []
    for own in _banker_own_keys(information):
        for position, seen in enumerate(SEEN):
            if freedom == "parlor" or CASINO_TABLEAU[_own_total(own)][position] == "F":
                keys.append(f"{own}/{seen}")
    return tuple(keys)


@dataclass(frozen=True)
class Game:
    """The additive game of one shoe under one model: the win, loss and tie probability forms.

    All three forms share the denominator D of the shoe and the model's keys; the strategies of
    fixed cells (casino freedom) are already folded into c0 and a.  The banker's gross result is
    ``win - loss``, his net gain ``(1 - alpha) win - loss``, the ponte's payoff ``loss - win``.
    """

    shoe: Shoe
    information: int
    freedom: str
    ponte_keys: tuple[str, ...]
    banker_keys: tuple[str, ...]
    win: Form
    loss: Form
    tie: Form

    def gross(self) -> Form:
        """The banker's expected gross result W - L."""
        return combine([(1, self.win), (-1, self.loss)])

    def net(self, commission: Fraction) -> Form:
        """The banker's expected net gain (1 - alpha) W - L, alpha = ``commission``."""
        u, v = commission.numerator, commission.denominator
        return combine([(v - u, self.win), (-v, self.loss)], v)

    def inert_ponte(self) -> set[str]:
        """Ponte sets with no effect on any payoff: a_j = 0 and G_ji = 0 in the win and loss forms."""
        return {j for j in self.ponte_keys if all(f.a[j] == 0 and not any(f.g[j].values()) for f in (self.win, self.loss))}

    def inert_banker(self) -> set[str]:
        """Banker sets with no effect on any payoff (every unreachable set is inert)."""
        return {
            i for i in self.banker_keys if all(f.b[i] == 0 and all(f.g[j][i] == 0 for j in f.g) for f in (self.win, self.loss))
        }


@cache
def coefficients(shoe: Shoe, information: int, freedom: str) -> Game:
    """The game of ``shoe`` under ``information`` (1, 2, 3) and ``freedom`` ("parlor", "casino").

    Derived from the finest enumeration (information 3, parlor) by aggregation, which is exact
    because a coarser player uses one probability for all the finer sets he cannot tell apart:
    under information 1 and 2 the ponte's five compositions share q ("5"), so a and G add up over
    them; under information 1 the banker's compositions of one total share r, so b and G add up.
    Under casino freedom a fixed cell has r_i in {0, 1}: its terms r_i b_i and r_i G_ji q_j move
    into c0 and a_j.  Results are cached per (shoe, information, freedom).

    >>> game = coefficients(Shoe("B", STANDARD_DECK), 1, "casino")
    >>> game.win.c0 + game.loss.c0 + game.tie.c0 == game.win.denominator
    True
    """
    if information not in (1, 2, 3):
        raise CheckFailure(f"information must be 1, 2 or 3, not {information!r}")
    if freedom not in ("parlor", "casino"):
        raise CheckFailure(f'freedom must be "parlor" or "casino", not {freedom!r}')
    acc = _finest(shoe)
    p_keys = ponte_keys(information)
    b_keys = banker_keys(information, freedom)
    free = set(b_keys)

    def ponte_of(j: str) -> str:
        return j if information == 3 else "5"

    def banker_of(cell: str) -> tuple[str, int | None]:
        """The model's key of a finest cell, and its fixed draw (0/1) or None if it is free."""
        own, seen = cell.split("/")
        key = f"{_own_total(own)}/{seen}" if information == 1 else cell
        if key in free:
            return key, None
        return key, 1 if CASINO_TABLEAU[_own_total(own)][SEEN.index(seen)] == "D" else 0

    forms = []
    for k in range(3):  # win, loss, tie
        c0 = acc.c0[k]
        a = {j: 0 for j in p_keys}
        b = {i: 0 for i in b_keys}
        g = {j: {i: 0 for i in b_keys} for j in p_keys}
        for j, triple in acc.a.items():
            a[ponte_of(j)] += triple[k]
        for cell, triple in acc.b.items():
            i, fixed = banker_of(cell)
            if fixed is None:
                b[i] += triple[k]
            else:
                c0 += fixed * triple[k]
        for (j, cell), triple in acc.g.items():
            i, fixed = banker_of(cell)
            if fixed is None:
                g[ponte_of(j)][i] += triple[k]
            else:
                a[ponte_of(j)] += fixed * triple[k]
        forms.append(Form(shoe.pad(0), c0, a, b, g))
    return Game(shoe, information, freedom, p_keys, b_keys, forms[0], forms[1], forms[2])


# --------------------------------------------------------------------------------------------
# Exact linear algebra
# --------------------------------------------------------------------------------------------


def rank(rows: list[list[int]] | list[list[Fraction]]) -> int:
    """The rank of a matrix over the rationals, by Gaussian elimination in Fractions.

    >>> rank([[1, 2], [2, 4]]), rank([[1, 2], [0, 1], [3, 3]]), rank([])
    (1, 2, 0)
    """
    matrix = [[Fraction(x) for x in row] for row in rows]
    result = 0
    columns = len(matrix[0]) if matrix else 0
    for col in range(columns):
        pivot = next((k for k in range(result, len(matrix)) if matrix[k][col] != 0), None)
        if pivot is None:
            continue
        matrix[result], matrix[pivot] = matrix[pivot], matrix[result]
        for k in range(len(matrix)):
            if k != result and matrix[k][col] != 0:
                factor = matrix[k][col] / matrix[result][col]
                matrix[k] = [x - factor * y for x, y in zip(matrix[k], matrix[result], strict=True)]
        result += 1
    return result


def _sign(x: Fraction | int) -> int:
    return (x > 0) - (x < 0)


# --------------------------------------------------------------------------------------------
# Reading a certificate
# --------------------------------------------------------------------------------------------


def _rational(text: Any, where: str) -> Fraction:
    """A rational written canonically: "p/q" in lowest terms with q > 1, or an integer "p"."""
    if not isinstance(text, str) or not _RATIONAL.fullmatch(text):
        raise CheckFailure(f'{where}: expected an exact rational string like "3/7", got {json.dumps(text)}')
    try:
        value = Fraction(text)
    except ValueError as error:  # e.g. more digits than Python converts (sys.get_int_max_str_digits)
        raise CheckFailure(f"{where}: {error}") from None
    if str(value) != text:
        raise CheckFailure(f"{where}: {text} is not in lowest terms (write {value})")
    return value


def _probability(text: Any, where: str) -> Fraction:
    value = _rational(text, where)
    if not 0 <= value <= 1:
        raise CheckFailure(f"{where}: probability {text} is not in [0, 1]")
    return value


def _object(obj: Any, where: str, required: set[str], optional: frozenset[str] = frozenset()) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise CheckFailure(f"{where}: expected an object")
    unknown = set(obj) - required - optional
    if unknown:
        raise CheckFailure(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    missing = required - set(obj)
    if missing:
        raise CheckFailure(f"{where}: missing key(s) {', '.join(sorted(missing))}")
    return obj


def _boolean(x: Any, where: str) -> bool:
    if not isinstance(x, bool):
        raise CheckFailure(f"{where}: expected true or false")
    return x


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, val in pairs:
        if key in result:
            raise CheckFailure(f"duplicate key {key!r}")
        result[key] = val
    return result


def _reject_constant(name: str) -> Any:
    raise UnusableInput(f"not JSON: {name} is not a JSON number")


def parse_json(text: str) -> dict[str, Any]:
    """Parse certificate text; raise UnusableInput if it is not a JSON object of this format."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as error:  # JSONDecodeError, over-long integers, deep nesting
        raise UnusableInput(f"not JSON: {error}") from None
    if not isinstance(data, dict):
        raise UnusableInput("not a certificate: the top level is not a JSON object")
    return data


# The largest count (or weight) of one value in a shoe: a billion decks, a thousand times the largest
# shoe the solver deals.  Without a bound, a certificate with 4,000-digit counts is read (Python
# converts up to 4,300 digits) and its enumeration, on numbers of tens of thousands of digits, runs
# for hours; with it, such a file is refused at once.
MAX_SHOE_COUNT = 16 * 10**9


def _shoe(obj: Any) -> Shoe:
    if not isinstance(obj, dict) or obj.get("dealing") not in ("A", "B"):
        raise CheckFailure('shoe: expected an object with "dealing": "A" or "B"')
    field = "weights" if obj["dealing"] == "A" else "counts"
    _object(obj, "shoe", {"dealing", field})
    cards = obj[field]
    if not isinstance(cards, list) or len(cards) != 10 or not all(type(n) is int and n >= 0 for n in cards):
        raise CheckFailure(f"shoe.{field}: expected a list of ten non-negative JSON integers")
    if max(cards) > MAX_SHOE_COUNT:
        raise CheckFailure(f"shoe.{field}: a count above {MAX_SHOE_COUNT:,}, more than this checker accepts")
    return Shoe(obj["dealing"], tuple(cards))


def describe(shoe: Shoe, information: int, freedom: str, commission: Fraction) -> str:
    """A short description of a model, for the checker's one-line report.

    >>> describe(Shoe("B", tuple(8 * n for n in STANDARD_DECK)), 3, "parlor", Fraction(1, 20))
    'B 8 decks, information 3, parlor, commission 1/20'
    """
    if shoe.dealing == "A":
        standard = all(4 * w == shoe.cards[0] for w in shoe.cards[1:])
        text = "A infinite deck" if standard else f"A weights {list(shoe.cards)}"
    else:
        decks = shoe.cards[1] // 4
        standard = shoe.cards == tuple(decks * n for n in STANDARD_DECK)
        text = f"B {decks} deck{'s' if decks != 1 else ''}" if standard else f"B counts {list(shoe.cards)}"
    return f"{text}, information {information}, {freedom}, commission {commission}"


@dataclass(frozen=True)
class CheckResult:
    """The outcome of checking one certificate.

    ``status`` is "ok", "fail" (a claim or number is wrong: exit code 1) or "unusable" (not a
    readable certificate of this format and version: exit code 2).  ``unique`` lists the
    uniqueness claims that were verified ("ponte", "banker" or "equilibrium").
    """

    status: str
    reason: str = ""
    description: str = ""
    value: Fraction | str | None = None
    unique: tuple[str, ...] = ()
    verified: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def exit_code(self) -> int:
        return {"ok": 0, "fail": 1, "unusable": 2}[self.status]

    def line(self, name: str) -> str:
        """The report line: ``OK  <file>  <model>  value=<p/q>  [unique ...]`` or ``FAIL <file>: <why>``."""
        if not self.ok:
            return f"FAIL {name}: {self.reason}"
        if self.verified:  # another game's certificate (check_banque.py): its own line
            return f"OK  {name}  {self.verified}"
        unique = f"  [unique {', '.join(self.unique)}]" if self.unique else ""
        return f"OK  {name}  {self.description}  value={self.value}{unique}"


# --------------------------------------------------------------------------------------------
# Verifying a certificate
# --------------------------------------------------------------------------------------------

_TOP_KEYS = {
    "format",
    "version",
    "shoe",
    "model",
    "value",
    "ponte_payoff",
    "banker_payoff",
    "ponte",
    "banker",
    "dominance",
    "claims",
}


def check_certificate(cert: Any) -> CheckResult:
    """Verify a parsed certificate; never raises on bad content.

    >>> check_certificate({"format": "something else"}).status
    'unusable'
    >>> check_certificate({"format": FORMAT, "version": 1}).reason
    'certificate: missing key(s) banker, banker_payoff, claims, dominance, model, ponte, ponte_payoff, shoe, value'
    """
    try:
        return _check(cert)
    except UnusableInput as error:
        return CheckResult("unusable", str(error))
    except CheckFailure as error:
        return CheckResult("fail", str(error))
    except Exception as error:  # fail closed: an input nobody foresaw is never certified
        return CheckResult("fail", f"cannot check this input ({type(error).__name__}: {error})")


def check_text(text: str) -> CheckResult:
    """Parse and verify certificate text."""
    try:
        cert = parse_json(text)
    except UnusableInput as error:
        return CheckResult("unusable", str(error))
    except CheckFailure as error:
        return CheckResult("fail", str(error))
    return check_certificate(cert)


MAX_CERTIFICATE_BYTES = 64 << 20
"""The largest certificate read (64 MiB; the committed ones take at most 80 kB)."""


def read_certificate(path: str | Path, limit: int = MAX_CERTIFICATE_BYTES) -> str:
    """The text of a certificate file, read with care: a regular file (a FIFO, a device such as
    /dev/null or /dev/zero, or a directory is refused without being opened, so nothing waits on it), at
    most ``limit`` bytes, not empty, UTF-8, without a NUL byte.

    Raises:
        UnusableInput: naming what is wrong, in one line.
    """
    p = Path(path)
    try:
        if not p.exists():
            raise UnusableInput("cannot read: no such file")
        if not p.is_file():
            kind = "a directory" if p.is_dir() else "a FIFO (named pipe)" if p.is_fifo() else "not a regular file"
            if p.is_char_device() or p.is_block_device():
                kind = "a device"
            raise UnusableInput(f"cannot read: {kind}, not a certificate file")
        if p.stat().st_size > limit:
            raise UnusableInput(f"cannot read: larger than {limit:,} bytes, more than a certificate takes")
        with p.open("rb") as fh:
            data = fh.read(limit + 1)
    except OSError as error:
        raise UnusableInput(f"cannot read: {error.strerror or error}") from None
    if len(data) > limit:
        raise UnusableInput(f"cannot read: larger than {limit:,} bytes, more than a certificate takes")
    if not data.strip():
        raise UnusableInput("an empty file, not a certificate")
    nul = data.find(b"\0")
    if nul >= 0:
        raise UnusableInput(f"a NUL byte at offset {nul}: a binary file, not a certificate")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        byte = data[error.start]
        raise UnusableInput(f"not UTF-8 text (byte 0x{byte:02x} at offset {error.start}): not a certificate") from None


def check_file(path: str | Path) -> CheckResult:
    """Read (:func:`read_certificate`), parse and verify one certificate file."""
    try:
        text = read_certificate(path)
    except UnusableInput as error:
        return CheckResult("unusable", str(error))
    return check_text(text)


def _check(cert: Any) -> CheckResult:
    if not isinstance(cert, dict):
        raise UnusableInput("not a certificate: the top level is not a JSON object")
    if cert.get("format") == BANQUE_FORMAT:
        return _check_banque(cert)
    if cert.get("format") != FORMAT:
        raise UnusableInput(f'not a certificate: "format" must be "{FORMAT}"')
    if type(cert.get("version")) is not int or cert["version"] != VERSION:
        raise UnusableInput(f"unsupported version {json.dumps(cert.get('version'))} (this checker reads {VERSION})")
    _object(cert, "certificate", _TOP_KEYS, frozenset({"cases"}))

    # The model and the game it defines.
    shoe = _shoe(cert["shoe"])
    model = _object(cert["model"], "model", {"information", "freedom", "commission"})
    information, freedom = model["information"], model["freedom"]
    if type(information) is not int or information not in (1, 2, 3):
        raise CheckFailure("model.information: expected the integer 1, 2 or 3")
    if freedom not in ("parlor", "casino"):
        raise CheckFailure('model.freedom: expected "parlor" or "casino"')
    alpha = _rational(model["commission"], "model.commission")
    if not 0 <= alpha <= Fraction(1, 10):
        raise CheckFailure(f"model.commission: {alpha} is not in [0, 1/10]")
    game = coefficients(shoe, information, freedom)
    gross, net = game.gross(), game.net(alpha)

    # Strategies: every information set of the model, nothing else; inert sets at "0".
    strategies = {}
    for player, keys, inert in (
        ("ponte", game.ponte_keys, game.inert_ponte()),
        ("banker", game.banker_keys, game.inert_banker()),
    ):
        given = _object(cert[player], player, set(keys))
        strategies[player] = {k: _probability(given[k], f"{player}[{k!r}]") for k in keys}
        for k in sorted(inert):
            if strategies[player][k] != 0:
                raise CheckFailure(f'{player}[{k!r}]: this information set is unreachable (inert), write "0"')
    q, r = strategies["ponte"], strategies["banker"]

    # The claims, read before anything is verified.
    required = "optimal" if alpha == 0 else "equilibrium"
    optional = ("unique_ponte", "unique_banker") if alpha == 0 else ("unique_equilibrium",)
    claims = _object(cert["claims"], "claims", {required}, frozenset(optional))
    if not _boolean(claims[required], f"claims.{required}"):
        raise CheckFailure(f'claims.{required}: a certificate for commission {alpha} must claim "{required}": true')
    claimed = {name for name in optional if _boolean(claims.get(name, False), f"claims.{name}")}

    # Payoffs at (q*, r*).
    value = _rational(cert["value"], "value")
    banker_payoff = _rational(cert["banker_payoff"], "banker_payoff")
    ponte_payoff = _rational(cert["ponte_payoff"], "ponte_payoff")
    expected_net = net.value(q, r)
    if banker_payoff != expected_net:
        raise CheckFailure(f"banker_payoff: {banker_payoff} != banker's expected net gain {expected_net}")
    if value != expected_net:
        raise CheckFailure(f"value: {value} != banker's expected net gain {expected_net}")
    expected_ponte = -gross.value(q, r)
    if ponte_payoff != expected_ponte:
        raise CheckFailure(f"ponte_payoff: {ponte_payoff} != ponte's expected payoff {expected_ponte}")

    settled = _check_dominance(cert["dominance"], game, gross, net, q, r)
    everything_settled = settled == len(game.ponte_keys) + len(game.banker_keys)
    has_cases = "cases" in cert
    if has_cases and (alpha == 0 or "unique_equilibrium" not in claimed):
        raise CheckFailure('cases: a case analysis proves "unique_equilibrium": true, with commission only')
    if "unique_equilibrium" in claimed and len(q) != 1 and not everything_settled and not has_cases:
        raise CheckFailure(
            "claims.unique_equilibrium: only checkable with one ponte information set, "
            "when the dominance steps settle every decision, or with a case analysis (cases)"
        )

    # Verify the claims.
    unique: list[str] = []
    if alpha == 0:
        _check_optimal(gross, q, r, value)
        if "unique_ponte" in claimed:
            _check_unique_ponte(gross, q, r)
            unique.append("ponte")
        if "unique_banker" in claimed:
            _check_unique_banker(gross, gross, q, game.banker_keys, "claims.unique_banker")
            unique.append("banker")
    else:
        _check_equilibrium(gross, net, q, r)
        if "unique_equilibrium" in claimed:
            # Strictly dominated actions are used in no equilibrium, so dominance that settles every
            # decision leaves exactly one equilibrium; otherwise the case analysis, or enumerate (one
            # ponte set).
            if has_cases:
                _check_cases(cert["cases"], cert["dominance"], game, gross, net, q, r)
            elif not everything_settled:
                _check_unique_equilibrium(gross, net, q, game.banker_keys)
            unique.append("equilibrium")
    return CheckResult("ok", "", describe(shoe, information, freedom, alpha), value, tuple(unique))


def _check_banque(cert: dict[str, Any]) -> CheckResult:
    """Delegate a banque certificate to check_banque.py (loaded from beside this file)."""
    import importlib.util

    path = Path(__file__).resolve().with_name("check_banque.py")
    module = sys.modules.get("check_banque")
    if module is None:
        spec = importlib.util.spec_from_file_location("check_banque", path)
        if spec is None or spec.loader is None:
            raise UnusableInput(f"cannot load {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules["check_banque"] = module
        spec.loader.exec_module(module)
    try:
        description, value, claims = module.check(cert)
    except module.UnusableInput as error:
        raise UnusableInput(str(error)) from None
    except module.CheckFailure as error:
        raise CheckFailure(str(error)) from None
    return CheckResult("ok", "", description, value, (), f"{description}  value={value}  [{', '.join(claims)}]")


def _check_dominance(entries: Any, game: Game, gross: Form, net: Form, q: dict[str, Fraction], r: dict[str, Fraction]) -> int:
    """Iterated strict dominance, in list order.

    A banker entry (set i, action X) claims that X beats the other action in cell i by ``margin``
    for every ponte strategy still open: margin = min over q of s_X (b_i + G_i.q) / D in the NET
    form, s_D = +1, s_S = -1, where q_j ranges over [0, 1] unless an earlier ponte entry settled it.
    A ponte entry (set j) is the same with the ponte's payoff -(a_j + G_j.r) / D of the GROSS form,
    r_i over [0, 1] unless an earlier banker entry settled it.  The expression is affine in each
    coordinate, so its minimum over the box takes, coordinate by coordinate, the smaller of the
    two end values.  The margin must be > 0 and exactly equal to that minimum.
    """
    if not isinstance(entries, list):
        raise CheckFailure("dominance: expected a list")
    settled_q: dict[str, Fraction] = {}
    settled_r: dict[str, Fraction] = {}
    for n, entry in enumerate(entries):
        where = f"dominance[{n}]"
        _object(entry, where, {"player", "infoset", "action", "margin"})
        player, key, action = entry["player"], entry["infoset"], entry["action"]
        if action not in ("D", "S"):
            raise CheckFailure(f'{where}: action must be "D" or "S"')
        if not isinstance(key, str):
            raise CheckFailure(f"{where}: infoset must be a string")
        margin = _rational(entry["margin"], f"{where}.margin")
        sign = 1 if action == "D" else -1
        choice = Fraction(1 if action == "D" else 0)
        if player == "banker":
            if key not in game.banker_keys or key in settled_r:
                raise CheckFailure(f"{where}: {key!r} is not a free banker information set still open")
            total = Fraction(sign * net.b[key])
            for j in game.ponte_keys:
                coefficient = sign * net.g[j][key]
                total += coefficient * settled_q[j] if j in settled_q else min(0, coefficient)
            minimum = total / net.denominator
            settled_r[key], certified = choice, r[key]
        elif player == "ponte":
            if key not in game.ponte_keys or key in settled_q:
                raise CheckFailure(f"{where}: {key!r} is not a ponte information set still open")
            row = gross.g[key]
            total = Fraction(-sign * gross.a[key])
            for i in game.banker_keys:
                coefficient = -sign * row[i]
                total += coefficient * settled_r[i] if i in settled_r else min(0, coefficient)
            minimum = total / gross.denominator
            settled_q[key], certified = choice, q[key]
        else:
            raise CheckFailure(f'{where}: player must be "banker" or "ponte"')
        if minimum <= 0:
            raise CheckFailure(f"{where}: {action} is not strictly dominant at {key!r} (minimum margin {minimum})")
        if margin != minimum:
            raise CheckFailure(f"{where}: margin {margin} != {minimum}")
        if certified != choice:
            raise CheckFailure(f"{where}: the certified strategy at {key!r} is {certified}, not {action}")
    return len(settled_q) + len(settled_r)


def _check_optimal(form: Form, q: dict[str, Fraction], r: dict[str, Fraction], value: Fraction) -> None:
    """Zero-sum optimality by LP duality: f(q*) = h(r*) = value.

    f(q) = max_r E(q, r) = c0 + a.q + sum_i max(0, b_i + G_i.q) is what the banker can get against
    q; h(r) = min_q E(q, r) = c0 + b.r + sum_j min(0, a_j + G_j.r) what he is guaranteed by r.
    For all q, r: h(r) <= E(q, r) <= f(q); so f(q*) = h(r*) forces both to be the value.
    """
    d = Fraction(form.denominator)
    f = (form.c0 + sum(form.a[j] * q[j] for j in q)) / d
    f += sum(max(Fraction(0), form.banker_slope(i, q)) for i in r)
    h = (form.c0 + sum(form.b[i] * r[i] for i in r)) / d
    h += sum(min(Fraction(0), form.ponte_slope(j, r)) for j in q)
    if f != h:
        raise CheckFailure(f"claims.optimal: not optimal: the ponte's guarantee {f} != the banker's guarantee {h}")
    if f != value:
        raise CheckFailure(f"claims.optimal: the game's value {f} != value {value}")


def _check_unique_ponte(form: Form, q: dict[str, Fraction], r: dict[str, Fraction]) -> None:
    """The optimal ponte strategies are {q : q best reply to r*, r* best reply to q}.

    Coordinates with a_j + G_j.r* != 0 are forced; every banker cell with 0 < r*_i < 1 must stay
    indifferent, b_i + G_i.q = 0.  If these equations determine the free coordinates (full column
    rank), q* is the only optimal ponte strategy.
    """
    free = [j for j in q if form.ponte_slope(j, r) == 0]
    rows = [[form.g[j][i] for j in free] for i in r if 0 < r[i] < 1]
    if free and rank(rows) < len(free):
        raise CheckFailure(
            f"claims.unique_ponte: uniqueness argument does not hold "
            f"(ponte sets {', '.join(free)} are indifferent and not pinned by the banker's mixed cells)"
        )


def _check_unique_banker(ponte_form: Form, banker_form: Form, q: dict[str, Fraction], keys: tuple[str, ...], claim: str) -> None:
    """The banker's set {r : r best reply to q*, q* best reply to r} is the single point r*.

    Cells with b_i + G_i.q* != 0 (in the banker's own form) are forced.  Each ponte set with
    0 < q*_j < 1 must stay indifferent: a_j + G_j.r = 0 (in the ponte's form).  r* is unique if
    these equations have full column rank in the unforced cells.
    """
    unforced = [i for i in keys if banker_form.banker_slope(i, q) == 0]
    rows = [[ponte_form.g[j][i] for i in unforced] for j in q if 0 < q[j] < 1]
    if unforced and (len(unforced) > len(rows) or rank(rows) < len(unforced)):
        shown = ", ".join(unforced[:6]) + (", ..." if len(unforced) > 6 else "")
        raise CheckFailure(
            f"{claim}: uniqueness argument does not hold (banker cells {shown} are indifferent and not pinned by the ponte)"
        )


def _check_equilibrium(gross: Form, net: Form, q: dict[str, Fraction], r: dict[str, Fraction]) -> None:
    """Nash: each q*_j is a best reply (the ponte minimises the gross result W - L) to r*, and each
    r*_i a best reply (the banker maximises his net gain) to q*; cell by cell, by additivity."""
    for j in q:
        slope = gross.ponte_slope(j, r)
        if (slope > 0 and q[j] != 0) or (slope < 0 and q[j] != 1):
            raise CheckFailure(f"claims.equilibrium: ponte[{j!r}] = {q[j]} is not a best reply (slope {slope})")
    for i in r:
        slope = net.banker_slope(i, q)
        if (slope > 0 and r[i] != 1) or (slope < 0 and r[i] != 0):
            raise CheckFailure(f"claims.equilibrium: banker[{i!r}] = {r[i]} is not a best reply (slope {slope})")


def equilibrium_ponte_strategies(gross: Form, net: Form, keys: tuple[str, ...]) -> tuple[list[Fraction], bool]:
    """All equilibrium ponte strategies q of a game with one ponte information set.

    Returns the equilibrium points among the candidates, and whether some open interval of q
    consists of equilibria (then there are infinitely many).  Candidates: q = 0, q = 1 and every
    q in (0, 1) where a banker cell's net slope b_i + G_i q vanishes; between consecutive
    candidates the banker's best reply is one fixed point r, so an interval is tested at its
    midpoint.  At a candidate q the banker's best replies form a box (cells with nonzero slope
    forced, the others in [0, 1]); q is an equilibrium iff some r in the box makes q a best reply
    of the ponte, who minimises g(r) q with g(r) = a + G.r (gross form): q = 0 needs max g >= 0,
    q = 1 needs min g <= 0, interior q needs min g <= 0 <= max g.
    """
    (j,) = gross.a
    breaks = set()
    for i in keys:
        if net.g[j][i] != 0:
            t = Fraction(-net.b[i], net.g[j][i])
            if 0 < t < 1:
                breaks.add(t)
    points = [Fraction(0), *sorted(breaks), Fraction(1)]

    def is_equilibrium(x: Fraction) -> bool:
        u, v = x.numerator, x.denominator
        low = high = gross.a[j]
        for i in keys:
            slope = net.b[i] * v + net.g[j][i] * u  # sign of the net slope at q = x
            coefficient = gross.g[j][i]
            if slope > 0:
                low, high = low + coefficient, high + coefficient
            elif slope == 0:
                low, high = low + min(0, coefficient), high + max(0, coefficient)
        if x == 0:
            return high >= 0
        if x == 1:
            return low <= 0
        return low <= 0 <= high

    equilibria = [x for x in points if is_equilibrium(x)]
    continuum = any(is_equilibrium((x + y) / 2) for x, y in zip(points, points[1:], strict=False))
    return equilibria, continuum


def _check_unique_equilibrium(gross: Form, net: Form, q: dict[str, Fraction], keys: tuple[str, ...]) -> None:
    """Exactly one equilibrium ponte strategy (q*, by complete enumeration), and at it one banker
    strategy (the rank argument of `_check_unique_banker`, banker slopes net, ponte slopes gross)."""
    equilibria, continuum = equilibrium_ponte_strategies(gross, net, keys)
    if continuum:
        raise CheckFailure("claims.unique_equilibrium: false: a whole interval of ponte strategies is in equilibrium")
    if len(equilibria) != 1:
        shown = ", ".join(str(x) for x in equilibria)
        raise CheckFailure(f"claims.unique_equilibrium: false: the ponte has equilibrium strategies {shown}")
    ((j, qj),) = q.items()
    if equilibria[0] != qj:
        raise CheckFailure(f"claims.unique_equilibrium: the only equilibrium has q = {equilibria[0]}, not {qj}")
    _check_unique_banker(gross, net, q, keys, "claims.unique_equilibrium")


# --------------------------------------------------------------------------------------------
# Uniqueness by an exhaustive case analysis
# --------------------------------------------------------------------------------------------

STATES = ("draw", "stand", "indifferent")
"""The three states of a coordinate, in the order a split lists its cases."""


def _check_cases(
    entries: Any, dominance: list[Any], game: Game, gross: Form, net: Form, q: dict[str, Fraction], r: dict[str, Fraction]
) -> int:
    """Verify a case analysis proving that (q*, r*) is the only equilibrium; return the number of leaves.

    In an equilibrium every coordinate (a ponte set j or a free banker cell i, not settled by the
    dominance steps) is in a state: draw (x = 1 and its slope favours drawing weakly: g_j <= 0 for
    the ponte, GROSS form; s_i >= 0 for the banker, NET form), stand (x = 0, g_j >= 0 or s_i <= 0)
    or indifferent (slope 0).  A case gives some coordinates a state; its equilibria are the pairs
    (q, r) with q in the ponte's system (q in its box, 1 where drawing, 0 where standing, [0, 1]
    otherwise, and for each banker cell of the case the row s_i(q) >= 0, <= 0 or = 0) and r in the
    banker's (symmetric, rows from g_j).  ``entries`` lists a tree of cases in depth-first order:

        ["split", player, infoset]               followed by its draw, stand and indifferent cases;
        ["refuted", side, {coordinate: y, ...}]  side's system is empty: with the signed rows
                                                 l_k >= 0 (or = 0) of the named coordinates,
                                                 max over the box of sum_k y_k l_k < 0, y_k >= 0
                                                 on inequalities (Farkas);
        ["pinned"]                               each side's equations have full column rank on
                                                 its free coordinates, and (q*, r*) meets them.

    The root is the case with no states; a split's three cases cover it; so the leaves cover every
    equilibrium, and the only one they leave is (q*, r*).
    """
    if not isinstance(entries, list) or not entries:
        raise CheckFailure("cases: expected a non-empty list")
    settled = {(e["player"], e["infoset"]): 1 if e["action"] == "D" else 0 for e in dominance}
    open_keys = {
        "ponte": [j for j in game.ponte_keys if ("ponte", j) not in settled],
        "banker": [i for i in game.banker_keys if ("banker", i) not in settled],
    }
    fixed_q = {j: v for (player, j), v in settled.items() if player == "ponte"}
    fixed_r = {i: v for (player, i), v in settled.items() if player == "banker"}
    # rows[side][k] = (constant, {own coordinate: coefficient}): the slope of the other side's coordinate k.
    rows = {
        "ponte": {
            i: (net.b[i] + sum(net.g[j][i] * v for j, v in fixed_q.items()), {j: net.g[j][i] for j in open_keys["ponte"]})
            for i in open_keys["banker"]
        },
        "banker": {
            j: (gross.a[j] + sum(gross.g[j][i] * v for i, v in fixed_r.items()), {i: gross.g[j][i] for i in open_keys["banker"]})
            for j in open_keys["ponte"]
        },
    }
    # The sign that turns a row into "the state is a best reply": a banker cell draws if s_i >= 0,
    # a ponte set draws if g_j <= 0.
    draw_sign = {"ponte": 1, "banker": -1}
    other = {"ponte": "banker", "banker": "ponte"}
    star = {"ponte": q, "banker": r}
    position = 0
    leaves = 0

    def box(side: str, states: dict[tuple[str, str], str]) -> dict[str, tuple[int, int]]:
        out = {}
        for k in open_keys[side]:
            state = states.get((side, k))
            out[k] = (1, 1) if state == "draw" else (0, 0) if state == "stand" else (0, 1)
        return out

    def refuted(where: str, side: str, multipliers: Any, states: dict[tuple[str, str], str]) -> None:
        given = _object(multipliers, f"{where} multipliers", set(), frozenset(rows[side]))
        constant = Fraction(0)
        coefficient: dict[str, Fraction] = {k: Fraction(0) for k in open_keys[side]}
        for k, text in given.items():
            y = _rational(text, f"{where} multipliers[{k!r}]")
            state = states.get((other[side], k))
            if state is None:
                raise CheckFailure(f"{where}: {k!r} has no state in this case, so it gives no row")
            if state == "indifferent":
                sign = 1
            else:
                if y < 0:
                    raise CheckFailure(f"{where}: the multiplier of the inequality {k!r} is negative")
                sign = draw_sign[side] if state == "draw" else -draw_sign[side]
            const, coef = rows[side][k]
            constant += y * sign * const
            for v, c in coef.items():
                coefficient[v] += y * sign * c
        bounds = box(side, states)
        top = constant + sum(max(c * bounds[v][0], c * bounds[v][1]) for v, c in coefficient.items())
        if top >= 0:
            raise CheckFailure(f"{where}: the multipliers do not refute the {side}'s system (maximum {top} >= 0)")

    def pinned(where: str, states: dict[tuple[str, str], str]) -> None:
        for side in ("ponte", "banker"):
            bounds = box(side, states)
            for k, (lo, hi) in bounds.items():
                if lo == hi and star[side][k] != lo:
                    raise CheckFailure(f"{where}: the case fixes {side}[{k!r}] at {lo}, the certificate has {star[side][k]}")
            free = [k for k, (lo, hi) in bounds.items() if lo < hi]
            equations = [k for k in rows[side] if states.get((other[side], k)) == "indifferent"]
            for k in equations:
                const, coef = rows[side][k]
                if const + sum(c * star[side][v] for v, c in coef.items()) != 0:
                    raise CheckFailure(f"{where}: the certified {side} strategy breaks the equation of {k!r}")
            if rank([[rows[side][k][1][v] for v in free] for k in equations]) < len(free):
                raise CheckFailure(f"{where}: the equations do not pin the {side}'s free coordinates")

    def walk(states: dict[tuple[str, str], str]) -> None:
        nonlocal position, leaves
        if position >= len(entries):
            raise CheckFailure("cases: the list ends before the tree does")
        where = f"cases[{position}]"
        entry = entries[position]
        position += 1
        if not isinstance(entry, list) or not entry or not isinstance(entry[0], str):
            raise CheckFailure(f'{where}: expected ["split", ...], ["refuted", ...] or ["pinned"]')
        kind = entry[0]
        if kind == "split" and len(entry) == 3 and entry[1] in open_keys:
            player, key = entry[1], entry[2]
            if key not in open_keys[player] or (player, key) in states:
                raise CheckFailure(f"{where}: {key!r} is not an open {player} information set without a state")
            for state in STATES:
                walk({**states, (player, key): state})
        elif kind == "refuted" and len(entry) == 3 and entry[1] in open_keys:
            refuted(where, entry[1], entry[2], states)
            leaves += 1
        elif kind == "pinned" and len(entry) == 1:
            pinned(where, states)
            leaves += 1
        else:
            raise CheckFailure(f"{where}: malformed case {json.dumps(entry)[:80]}")

    walk({})
    if position != len(entries):
        raise CheckFailure(f"cases[{position}]: entries after the end of the tree")
    return leaves


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------


def _files(paths: list[str]) -> list[tuple[str, Path]]:
    """The certificate files named: a file as given, a directory as every *.json under it (one with
    none is named itself, and reported as unusable)."""
    found: list[tuple[str, Path]] = []
    for name in paths:
        path = Path(name)
        inside = sorted(path.rglob("*.json")) if path.is_dir() else []
        if inside:
            found.extend((str(p), p) for p in inside)
        else:  # a file, or a directory with no certificate in it: said so in its own line
            found.append((name, path))
    return found


def main(argv: list[str] | None = None) -> int:
    """Check certificates and print one line each (and, for several, a summary line); return 0 (all OK),
    1 (a claim fails), 2 (unusable), 3 (the report could not be written: a closed, full or broken stdout,
    said in one line on stderr), 130 (interrupted)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        _say("baccarat-check: interrupted")
        return 130
    except ReportFailed as error:
        _silence_stdout()
        _say(f"baccarat-check: error: cannot write the report: {error}")
        return 3


class ReportFailed(Exception):
    """Standard output cannot take the report (closed, full, or its reader gone)."""


def _report(text: str) -> None:
    """Write ``text`` to stdout now (flushed), or raise :class:`ReportFailed`."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except AttributeError:  # started with stdout closed: Python gives None
        raise ReportFailed("standard output is closed") from None
    except (OSError, ValueError) as error:
        raise ReportFailed(getattr(error, "strerror", None) or error) from None


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's layout with every word whole: a path is never broken at its hyphens."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_long_words=False, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in self._split_lines(text, width - len(indent)))


def _main(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(
        prog="baccarat-check",
        formatter_class=_HelpFormatter,
        description="Independently check chemin de fer and baccara banque certificates (exact rationals, own "
        "enumeration; the standard library only). One line per certificate, then a summary line.",
    )
    default = Path(__file__).resolve().parent / "certificates"
    parser.add_argument("paths", nargs="*", help=f"certificate files or directories (default: every *.json under {default})")
    stdout, sys.stdout = sys.stdout, io.StringIO()  # argparse would swallow a failed write of --help
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        help_text = sys.stdout.getvalue()
        sys.stdout = stdout
        if help_text:
            _report(help_text)
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    sys.stdout = stdout
    files = _files(args.paths) if args.paths else _files([str(default)] if default.is_dir() else [])
    if not files:
        _say(f"no certificates found under {', '.join(args.paths) or default}")
        return 2
    worst = 0
    tally = {"ok": 0, "fail": 0, "unusable": 0}
    for name, path in files:
        result = check_file(path)
        _report(result.line(name) + "\n")
        worst = max(worst, result.exit_code)
        tally[result.status] += 1
    if len(files) > 1:
        _report(summary_line(tally) + "\n")
    return worst


def summary_line(tally: dict[str, int]) -> str:
    """The last line of a check of several certificates: how many, and how many of each outcome.

    >>> summary_line({"ok": 122, "fail": 1, "unusable": 1})
    'checked 124 certificates: 122 OK, 1 failed, 1 unusable'
    """
    total = sum(tally.values())
    return f"checked {total} certificates: {tally['ok']} OK, {tally['fail']} failed, {tally['unusable']} unusable"


def _say(line: str) -> None:
    """One line on stderr, if stderr can take it."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def _silence_stdout() -> None:
    """Point stdout at the null device, so that Python's last flush at exit cannot fail again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # closed, or not a real file
        pass


if __name__ == "__main__":
    sys.exit(main())
