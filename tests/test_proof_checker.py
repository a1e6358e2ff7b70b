"""Tests of the independent certificate checker, proofs/check.py.

The checker must not share code with the solver, so these tests build their own fixtures: a small
exact Foster solver for games with one ponte information set (minimise the convex piecewise-linear
guarantee f(q) at its breakpoints), iterated dominance by vertex evaluation, certificates written
from those, and brute forces over physical cards that the checker's enumeration must match exactly.

Regenerate the committed fixtures in tests/data/certificates/ with
``REGENERATE_CERTIFICATES=1 python -m pytest tests/test_proof_checker.py -k fixture_files``.
"""

from __future__ import annotations

import ast
import copy
import doctest
import importlib.util
import itertools
import json
import os
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKER = ROOT / "proofs" / "check.py"
FIXTURES = ROOT / "tests" / "data" / "certificates"

_spec = importlib.util.spec_from_file_location("proofs_check", CHECKER)
assert _spec is not None and _spec.loader is not None
check = importlib.util.module_from_spec(_spec)
sys.modules["proofs_check"] = check
_spec.loader.exec_module(check)

STANDARD_WEIGHTS = [4, 1, 1, 1, 1, 1, 1, 1, 1, 1]
ONE_DECK = [16, 4, 4, 4, 4, 4, 4, 4, 4, 4]


# ---------------------------------------------------------------------------------------------
# Fixture builders: a small exact solver that knows nothing of the solver package
# ---------------------------------------------------------------------------------------------


def shoe_of(spec: dict) -> object:
    field = "weights" if spec["dealing"] == "A" else "counts"
    return check.Shoe(spec["dealing"], tuple(spec[field]))


def foster(form, keys) -> tuple[Fraction, dict[str, Fraction], Fraction]:
    """Optimal strategies of a zero-sum game with one ponte set "5" (Foster's method).

    f(q) = (c0 + a q + sum_i max(0, b_i + G_i q)) / D is convex and piecewise linear, so its
    minimum is at 0, 1 or a breakpoint -b_i / G_i.  At the minimiser q*, cells with nonzero slope
    are forced; the tight cells are then filled greedily so that the ponte's slope a + G.r is 0
    (q* interior), >= 0 (q* = 0) or <= 0 (q* = 1).
    """
    d = Fraction(form.denominator)

    def slope(i: str, q: Fraction) -> Fraction:
        return form.b[i] + form.g["5"][i] * q

    def f(q: Fraction) -> Fraction:
        return (form.c0 + form.a["5"] * q + sum(max(Fraction(0), slope(i, q)) for i in keys)) / d

    candidates = {Fraction(0), Fraction(1)}
    for i in keys:
        if form.g["5"][i]:
            t = Fraction(-form.b[i], form.g["5"][i])
            if 0 < t < 1:
                candidates.add(t)
    q = min(sorted(candidates), key=f)
    r = {i: Fraction(1 if slope(i, q) > 0 else 0) for i in keys}
    tight = [i for i in keys if slope(i, q) == 0]
    current = form.a["5"] + sum(form.g["5"][i] * r[i] for i in keys)

    def satisfied(x: Fraction) -> bool:
        return x == 0 if 0 < q < 1 else (x >= 0 if q == 0 else x <= 0)

    for i in tight:  # each tight cell, raised from 0, moves the ponte's slope by its coefficient
        coefficient = form.g["5"][i]
        if satisfied(current):
            break
        if coefficient != 0 and (coefficient > 0) != (current > 0):
            r[i] = min(Fraction(1), -current / coefficient)
            current += coefficient * r[i]
    assert satisfied(current), "no optimal banker strategy found"
    return q, r, f(q)


def dominance_steps(game, gross, net) -> list[dict]:
    """Iterated strict dominance computed by evaluating at vertices (one ponte set).

    A banker cell's net slope is affine in q, so its minimum over q in [0, 1] is at q = 0 or 1.
    The ponte is tested only when few banker cells are open, by enumerating all vertices of the
    open banker box.
    """
    settled_q: dict[str, Fraction] = {}
    settled_r: dict[str, Fraction] = {}
    steps = []
    d_net, d_gross = Fraction(net.denominator), Fraction(gross.denominator)
    changed = True
    while changed:
        changed = False
        for i in game.banker_keys:
            if i in settled_r:
                continue
            qs = [settled_q["5"]] if "5" in settled_q else [Fraction(0), Fraction(1)]
            values = [(net.b[i] + net.g["5"][i] * q) / d_net for q in qs]
            for action, sign in (("D", 1), ("S", -1)):
                margin = min(sign * v for v in values)
                if margin > 0:
                    steps.append({"player": "banker", "infoset": i, "action": action, "margin": str(margin)})
                    settled_r[i] = Fraction(1 if action == "D" else 0)
                    changed = True
        open_cells = [i for i in game.banker_keys if i not in settled_r]
        if "5" not in settled_q and len(open_cells) <= 10:
            values = []
            for vertex in itertools.product((0, 1), repeat=len(open_cells)):
                r = dict(settled_r, **dict(zip(open_cells, map(Fraction, vertex), strict=True)))
                values.append(-(gross.a["5"] + sum(gross.g["5"][i] * r[i] for i in game.banker_keys)) / d_gross)
            for action, sign in (("D", 1), ("S", -1)):
                margin = min(sign * v for v in values)
                if margin > 0:
                    steps.append({"player": "ponte", "infoset": "5", "action": action, "margin": str(margin)})
                    settled_q["5"] = Fraction(1 if action == "D" else 0)
                    changed = True
    return steps


def certificate(shoe: dict, information: int, freedom: str, commission: Fraction, q, r, steps, claims) -> dict:
    """A version-1 certificate for the given strategies; payoffs from the checker's forms."""
    game = check.coefficients(shoe_of(shoe), information, freedom)
    value = game.net(commission).value(q, r)
    return {
        "format": "baccarat-chemin-certificate",
        "version": 1,
        "shoe": shoe,
        "model": {"information": information, "freedom": freedom, "commission": str(commission)},
        "value": str(value),
        "ponte_payoff": str(-game.gross().value(q, r)),
        "banker_payoff": str(value),
        "ponte": {j: str(x) for j, x in q.items()},
        "banker": {i: str(x) for i, x in r.items()},
        "dominance": steps,
        "claims": claims,
    }


def zero_sum_certificate(shoe: dict, information: int, freedom: str, claims: dict) -> dict:
    game = check.coefficients(shoe_of(shoe), information, freedom)
    gross = game.gross()
    q, r, _ = foster(gross, game.banker_keys)
    steps = dominance_steps(game, gross, gross)
    return certificate(shoe, information, freedom, Fraction(0), {"5": q}, r, steps, claims)


def kemeny_snell() -> dict:
    """Dealing A, information 1, parlor, no commission (Kemeny and Snell 1957)."""
    claims = {"optimal": True, "unique_ponte": True, "unique_banker": True}
    return zero_sum_certificate({"dealing": "A", "weights": STANDARD_WEIGHTS}, 1, "parlor", claims)


def casino_one_deck() -> dict:
    """One deck, information 1, casino freedom, no commission."""
    claims = {"optimal": True, "unique_ponte": True, "unique_banker": True}
    return zero_sum_certificate({"dealing": "B", "counts": ONE_DECK}, 1, "casino", claims)


def casino_one_deck_commission() -> dict:
    """One deck, information 1, casino freedom, commission 1/20: the banker's best replies by
    enumerating his four pure strategies against the ponte's dominant draw at 5."""
    alpha = Fraction(1, 20)
    shoe = {"dealing": "B", "counts": ONE_DECK}
    game = check.coefficients(shoe_of(shoe), 1, "casino")
    gross, net = game.gross(), game.net(alpha)
    steps = dominance_steps(game, gross, net)
    q = {"5": Fraction(1)}
    pures = [dict(zip(game.banker_keys, map(Fraction, v), strict=True)) for v in itertools.product((0, 1), repeat=2)]
    r = max(pures, key=lambda r: net.value(q, r))
    claims = {"equilibrium": True, "unique_equilibrium": True}
    return certificate(shoe, 1, "casino", alpha, q, r, steps, claims)


def all_fixtures() -> dict[str, dict]:
    return {
        "a-i1-parlor-c0-kemeny-snell.json": kemeny_snell(),
        "b1-i1-casino-c0.json": casino_one_deck(),
        "b1-i1-casino-c1_20.json": casino_one_deck_commission(),
    }


@pytest.fixture(scope="module")
def fixtures() -> dict[str, dict]:
    return all_fixtures()


# ---------------------------------------------------------------------------------------------
# The checker's own documentation
# ---------------------------------------------------------------------------------------------


def test_doctests_pass() -> None:
    result = doctest.testmod(check, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5 and result.failed == 0


# ---------------------------------------------------------------------------------------------
# The enumeration: exact invariants, published values and brute force over physical cards
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shoe",
    [
        check.Shoe("A", tuple(STANDARD_WEIGHTS)),
        check.Shoe("B", tuple(ONE_DECK)),
        check.Shoe("B", (1, 2, 0, 1, 1, 2, 0, 1, 0, 1)),
    ],
)
@pytest.mark.parametrize("information", [1, 2, 3])
@pytest.mark.parametrize("freedom", ["parlor", "casino"])
def test_probabilities_sum_to_the_common_denominator(shoe, information, freedom) -> None:
    """W + L + T = 1 for every strategy pair: constant D, every other coefficient exactly zero."""
    game = check.coefficients(shoe, information, freedom)
    total = check.combine([(1, game.win), (1, game.loss), (1, game.tie)])
    assert total.c0 == total.denominator == shoe.pad(0)
    assert not any(total.a.values()) and not any(total.b.values())
    assert not any(x for row in total.g.values() for x in row.values())


def test_punto_banco_eight_decks_matches_the_published_counts() -> None:
    """With the ponte drawing at 5 and the banker drawing at (3, 9) and (5, 4), the casino tableau
    is punto banco's.  Published 8-deck combination counts (e.g. the Wizard of Odds baccarat
    appendix; Ethier, The Doctrine of Chances, 2010, ch. 19): banker 2,292,252,566,437,888,
    player 2,230,518,282,592,256, tie 475,627,426,473,216 of 4,998,398,275,503,360; Player edge
    -1.2351 %."""
    game = check.coefficients(check.Shoe("B", tuple(8 * n for n in ONE_DECK)), 1, "casino")
    q, r = {"5": Fraction(1)}, {"3/9": Fraction(1), "5/4": Fraction(1)}
    d = 4_998_398_275_503_360
    assert game.win.denominator == d
    assert game.win.value(q, r) == Fraction(2_292_252_566_437_888, d)
    assert game.loss.value(q, r) == Fraction(2_230_518_282_592_256, d)
    assert game.tie.value(q, r) == Fraction(475_627_426_473_216, d)
    gain = game.gross().value(q, r)
    assert gain == Fraction(2_292_252_566_437_888 - 2_230_518_282_592_256, d)
    assert round(100 * gain, 4) == Fraction(12351, 10000)  # Player edge -1.2351 %


def casino_rule(total: int, seen: int | None) -> bool | None:
    """The casino tableau written as rules (True draw, False stand, None free), independently of
    the checker's table: seen is the ponte's third card, None if he stood."""
    if total <= 2:
        return True
    if total == 3:
        return True if seen is None else (None if seen == 9 else seen != 8)
    if total == 4:
        return True if seen is None else 2 <= seen <= 7
    if total == 5:
        return True if seen is None else (None if seen == 4 else 5 <= seen <= 7)
    if total == 6:
        return seen in (6, 7)
    return False


Poly = dict[tuple[str, ...], int]
"""A polynomial in the decisions: monomial (), (j,), (i,) or (j, i) -> integer coefficient."""


def brute_force(sequences, information: int, freedom: str) -> list[Poly]:
    """Coefficients of W, L, T by playing every (sequence, weight) of six cards, one by one.

    The coup uses the first cards of the sequence in dealing order: p1 b1 p2 b2, then the ponte's
    third card if he draws, then the banker's third card (the 5th card if the ponte stood, the
    6th if he drew).  Each coup is a polynomial in its one ponte decision and one banker decision.
    """
    polys: list[Poly] = [{}, {}, {}]  # win, loss, tie
    for seq, weight in sequences:
        p1, b1, p2, b2 = seq[:4]
        ponte, banker = (p1 + p2) % 10, (b1 + b2) % 10
        branches: list[tuple[Poly, int, int]] = []
        if ponte >= 8 or banker >= 8:
            branches.append(({(): 1}, ponte, banker))
        else:
            j = f"{min(p1, p2)}+{max(p1, p2)}" if information == 3 else "5"
            own = str(banker) if information == 1 else f"{min(b1, b2)}+{max(b1, b2)}"
            ponte_options: list[tuple[bool, Poly]]
            if ponte <= 4:
                ponte_options = [(True, {(): 1})]
            elif ponte >= 6:
                ponte_options = [(False, {(): 1})]
            else:
                ponte_options = [(True, {(j,): 1}), (False, {(): 1, (j,): -1})]
            for draws, p_poly in ponte_options:
                final_ponte = (ponte + seq[4]) % 10 if draws else ponte
                seen = seq[4] if draws else None
                cell = f"{own}/{'S' if seen is None else seen}"
                rule = None if freedom == "parlor" else casino_rule(banker, seen)
                b_options: list[tuple[bool, Poly]]
                if rule is None:
                    b_options = [(True, {(cell,): 1}), (False, {(): 1, (cell,): -1})]
                else:
                    b_options = [(rule, {(): 1})]
                for banker_draws, b_poly in b_options:
                    third = seq[5] if draws else seq[4]
                    final_banker = (banker + third) % 10 if banker_draws else banker
                    poly: Poly = {}
                    for (m1, x1), (m2, x2) in itertools.product(p_poly.items(), b_poly.items()):
                        poly[m1 + m2] = poly.get(m1 + m2, 0) + x1 * x2
                    branches.append((poly, final_ponte, final_banker))
        for poly, final_ponte, final_banker in branches:
            k = 0 if final_banker > final_ponte else (1 if final_banker < final_ponte else 2)
            for monomial, x in poly.items():
                polys[k][monomial] = polys[k].get(monomial, 0) + weight * x
    return polys


def as_polynomial(form) -> Poly:
    poly: Poly = {(): form.c0}
    poly.update({(j,): x for j, x in form.a.items()})
    poly.update({(i,): x for i, x in form.b.items()})
    poly.update({(j, i): x for j, row in form.g.items() for i, x in row.items()})
    return {m: x for m, x in poly.items() if x}


def test_enumeration_matches_physical_cards_for_a_tiny_shoe() -> None:
    """All ordered draws of six distinct physical cards of a 9-card shoe, all six models."""
    counts = (2, 1, 0, 1, 1, 2, 1, 0, 0, 1)  # two 0s, a 1, a 3, a 4, two 5s, a 6, a 9
    cards = [v for v in range(10) for _ in range(counts[v])]
    sequences = [(seq, 1) for seq in itertools.permutations(cards, 6)]
    shoe = check.Shoe("B", counts)
    for information, freedom in itertools.product((1, 2, 3), ("parlor", "casino")):
        game = check.coefficients(shoe, information, freedom)
        expected = brute_force(sequences, information, freedom)
        assert game.win.denominator == len(sequences)
        for form, poly in zip((game.win, game.loss, game.tie), expected, strict=True):
            assert as_polynomial(form) == {m: x for m, x in poly.items() if x}, (information, freedom)


def test_enumeration_matches_weighted_sequences_for_dealing_a() -> None:
    """Dealing A with four values of unequal weight: all 4^6 value sequences, weight = product."""
    weights = (3, 0, 1, 0, 0, 2, 1, 0, 0, 0)
    support = [v for v in range(10) if weights[v]]
    sequences = []
    for seq in itertools.product(support, repeat=6):
        weight = 1
        for v in seq:
            weight *= weights[v]
        sequences.append((seq, weight))
    shoe = check.Shoe("A", weights)
    for information, freedom in itertools.product((1, 2, 3), ("parlor", "casino")):
        game = check.coefficients(shoe, information, freedom)
        expected = brute_force(sequences, information, freedom)
        assert game.win.denominator == sum(weights) ** 6
        for form, poly in zip((game.win, game.loss, game.tie), expected, strict=True):
            assert as_polynomial(form) == {m: x for m, x in poly.items() if x}, (information, freedom)


def test_model_keys() -> None:
    assert set(check.banker_keys(2, "casino")) == {
        "0+3/9", "1+2/9", "4+9/9", "5+8/9", "6+7/9", "0+5/4", "1+4/4", "2+3/4", "6+9/4", "7+8/4",
    }  # fmt: skip
    assert len(check.banker_keys(3, "parlor")) == 44 * 11
    assert check.ponte_keys(1) == check.ponte_keys(2) == ("5",)


# ---------------------------------------------------------------------------------------------
# Certificates that must pass
# ---------------------------------------------------------------------------------------------


def test_kemeny_snell(fixtures) -> None:
    """Kemeny and Snell (1957), "Game-theoretic solution of baccarat", Amer. Math. Monthly 64:
    the ponte draws at 5 with probability 9/11; the banker's advantage is about 1.28 %."""
    cert = fixtures["a-i1-parlor-c0-kemeny-snell.json"]
    assert cert["ponte"] == {"5": "9/11"}
    assert cert["value"] == "679568/53094899"  # our exact refinement of 0.0128
    assert round(Fraction(cert["value"]), 4) == Fraction(128, 10000)
    assert 0 < Fraction(cert["banker"]["6/S"]) < 1  # the banker mixes at 6 when the ponte stood
    result = check.check_certificate(cert)
    assert result.ok, result.reason
    assert result.unique == ("ponte", "banker")
    assert len(cert["dominance"]) > 70


def test_casino_one_deck(fixtures) -> None:
    """One deck, casino tableau: standing at (5, 4) strictly dominates for the banker; then drawing
    at 5 for the ponte; then drawing at (3, 9) for the banker.  Three steps settle the game."""
    cert = fixtures["b1-i1-casino-c0.json"]
    assert [(s["player"], s["infoset"], s["action"]) for s in cert["dominance"]] == [
        ("banker", "5/4", "S"),
        ("ponte", "5", "D"),
        ("banker", "3/9", "D"),
    ]
    assert cert["ponte"] == {"5": "1"} and cert["banker"] == {"3/9": "1", "5/4": "0"}
    result = check.check_certificate(cert)
    assert result.ok, result.reason
    assert result.value == Fraction(2967581, 229033350)


def test_commission_equilibrium(fixtures) -> None:
    cert = fixtures["b1-i1-casino-c1_20.json"]
    result = check.check_certificate(cert)
    assert result.ok, result.reason
    assert result.unique == ("equilibrium",)
    # The Nash property by the normal form: no pure deviation gains for either side.
    game = check.coefficients(check.Shoe("B", tuple(ONE_DECK)), 1, "casino")
    gross, net = game.gross(), game.net(Fraction(1, 20))
    q = {k: Fraction(v) for k, v in cert["ponte"].items()}
    r = {k: Fraction(v) for k, v in cert["banker"].items()}
    for vertex in itertools.product((0, 1), repeat=2):
        other = dict(zip(game.banker_keys, map(Fraction, vertex), strict=True))
        assert net.value(q, other) <= net.value(q, r)
    for x in (Fraction(0), Fraction(1)):
        assert gross.value({"5": x}, r) >= gross.value(q, r)
    assert Fraction(cert["value"]) != -Fraction(cert["ponte_payoff"])  # not zero-sum


def test_documented_example_is_the_fixture() -> None:
    """docs/certificate-format.md shows b1-i1-casino-c0.json; keep the two identical."""
    text = (ROOT / "docs" / "certificate-format.md").read_text(encoding="utf-8")
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    assert json.loads(example) == json.loads((FIXTURES / "b1-i1-casino-c0.json").read_text(encoding="utf-8"))


def test_committed_fixture_files_are_current_and_pass(fixtures) -> None:
    """The files in tests/data/certificates are exactly what the builders above produce."""
    if os.environ.get("REGENERATE_CERTIFICATES"):
        FIXTURES.mkdir(parents=True, exist_ok=True)
        for name, cert in fixtures.items():
            (FIXTURES / name).write_text(json.dumps(cert, indent=1) + "\n", encoding="utf-8")
    for name, cert in fixtures.items():
        assert json.loads((FIXTURES / name).read_text(encoding="utf-8")) == cert, name


# ---------------------------------------------------------------------------------------------
# Tampering: every number is verified
# ---------------------------------------------------------------------------------------------


def change_digit(text: str) -> str:
    """Change the last digit of a rational string (9 -> 8, others + 1)."""
    k = max(i for i, ch in enumerate(text) if ch.isdigit())
    new = "8" if text[k] == "9" else str(int(text[k]) + 1)
    return text[:k] + new + text[k + 1 :]


def tampered(cert: dict, edit) -> dict:
    cert = copy.deepcopy(cert)
    edit(cert)
    return cert


TAMPERS = {
    "value": lambda c: c.__setitem__("value", change_digit(c["value"])),
    "banker_payoff": lambda c: c.__setitem__("banker_payoff", change_digit(c["banker_payoff"])),
    "ponte_payoff": lambda c: c.__setitem__("ponte_payoff", change_digit(c["ponte_payoff"])),
    "ponte strategy": lambda c: c["ponte"].__setitem__("5", change_digit(c["ponte"]["5"])),
    "banker strategy": lambda c: c["banker"].__setitem__("6/S", change_digit(c["banker"]["6/S"])),
    "margin": lambda c: c["dominance"][3].__setitem__("margin", change_digit(c["dominance"][3]["margin"])),
    "shoe weight": lambda c: c["shoe"]["weights"].__setitem__(0, 5),
    "commission": lambda c: c["model"].__setitem__("commission", "1/20"),
    "information": lambda c: c["model"].__setitem__("information", 2),
    "freedom": lambda c: c["model"].__setitem__("freedom", "casino"),
    "unknown top key": lambda c: c.__setitem__("comment", "hello"),
    "unknown model key": lambda c: c["model"].__setitem__("rules", "x"),
    "unknown claim": lambda c: c["claims"].__setitem__("unique", True),
    "unknown dominance key": lambda c: c["dominance"][0].__setitem__("note", "x"),
    "infoset not a string": lambda c: c["dominance"][0].__setitem__("infoset", ["6/S"]),
    "unknown ponte set": lambda c: c["ponte"].__setitem__("0+5", "1"),
    "missing banker set": lambda c: c["banker"].pop("0/S"),
    "missing key": lambda c: c.pop("dominance"),
    "not lowest terms": lambda c: c["ponte"].__setitem__("5", "18/22"),
    "decimal": lambda c: c.__setitem__("value", "0.0128"),
    "number not string": lambda c: c["banker"].__setitem__("0/S", 1),
    "probability above 1": lambda c: c["banker"].__setitem__("6/S", "12/11"),
    "margin not strict": lambda c: c["dominance"][0].__setitem__("margin", "0"),
    "dominance contradicts strategy": lambda c: c["banker"].__setitem__(c["dominance"][0]["infoset"], "1/2"),
    "dominance repeated": lambda c: c["dominance"].append(c["dominance"][0]),
    "dominance wrong action": lambda c: c["dominance"][0].__setitem__(
        "action", "S" if c["dominance"][0]["action"] == "D" else "D"
    ),
    "not optimal": lambda c: c["claims"].__setitem__("optimal", False),
    "claims equilibrium at commission 0": lambda c: c.__setitem__("claims", {"equilibrium": True}),
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_tampering_fails(fixtures, name) -> None:
    cert = tampered(fixtures["a-i1-parlor-c0-kemeny-snell.json"], TAMPERS[name])
    result = check.check_certificate(cert)
    assert result.status == "fail", (name, result)
    assert result.exit_code == 1 and result.reason


@pytest.mark.parametrize(
    "edit",
    [
        lambda c: c.__setitem__("version", 2),
        lambda c: c.__setitem__("version", "1"),
        lambda c: c.__setitem__("format", "baccarat-chemin-certificat"),
        lambda c: c.pop("format"),
    ],
)
def test_wrong_format_or_version_is_unusable(fixtures, edit) -> None:
    result = check.check_certificate(tampered(fixtures["b1-i1-casino-c0.json"], edit))
    assert result.status == "unusable" and result.exit_code == 2


def test_every_digit_of_the_casino_certificate_matters(fixtures) -> None:
    """Change each digit of each numeric string (and each shoe count) in turn: all must fail."""
    cert = fixtures["b1-i1-casino-c0.json"]
    paths: list[tuple] = [("value",), ("ponte_payoff",), ("banker_payoff",), ("ponte", "5")]
    paths += [("banker", i) for i in cert["banker"]]
    paths += [("dominance", n, "margin") for n in range(len(cert["dominance"]))]
    count = 0
    for path in paths:
        parent = cert
        for key in path[:-1]:
            parent = parent[key]
        text = parent[path[-1]]
        for k, ch in enumerate(text):
            if not ch.isdigit():
                continue
            for new in "0123456789":
                if new == ch:
                    continue
                changed = copy.deepcopy(cert)
                target = changed
                for key in path[:-1]:
                    target = target[key]
                target[path[-1]] = text[:k] + new + text[k + 1 :]
                result = check.check_certificate(changed)
                assert result.status == "fail", (path, target[path[-1]])
                count += 1
    for v in range(10):
        changed = copy.deepcopy(cert)
        changed["shoe"]["counts"][v] += 1
        assert check.check_certificate(changed).status == "fail", v
    assert count > 100


def test_random_edits_never_crash_and_never_pass(fixtures) -> None:
    """Replace one character of a certificate's JSON text at random (seeded): the checker must
    answer without raising, and may say OK only if the edit left the same certificate."""
    rng = random.Random(20240601)
    original = fixtures["b1-i1-casino-c1_20.json"]
    text = json.dumps(original, indent=1)
    for _ in range(400):
        k = rng.randrange(len(text))
        edited = text[:k] + rng.choice('0123456789/-"{}[],:ab ') + text[k + 1 :]
        result = check.check_text(edited)
        if result.ok:
            assert json.loads(edited) == original, edited


def test_dominance_order_matters(fixtures) -> None:
    """The banker's step at (3, 9) relies on the ponte's earlier step."""
    cert = copy.deepcopy(fixtures["b1-i1-casino-c0.json"])
    steps = cert["dominance"]
    cert["dominance"] = [steps[0], steps[2], steps[1]]
    result = check.check_certificate(cert)
    assert result.status == "fail" and "not strictly dominant" in result.reason


def test_duplicate_key_fails() -> None:
    text = (FIXTURES / "b1-i1-casino-c0.json").read_text(encoding="utf-8")
    text = text.replace('"value":', '"value": "0", "value":', 1)
    result = check.check_text(text)
    assert result.status == "fail" and "duplicate" in result.reason


def test_unique_equilibrium_needs_one_ponte_set(fixtures) -> None:
    cert = copy.deepcopy(fixtures["b1-i1-casino-c1_20.json"])
    game = check.coefficients(shoe_of(cert["shoe"]), 3, "casino")
    q = {j: Fraction(1) for j in game.ponte_keys}
    r = {i: Fraction(1) for i in game.banker_keys}
    cert = certificate(cert["shoe"], 3, "casino", Fraction(1, 20), q, r, [], {"equilibrium": True})
    cert["claims"]["unique_equilibrium"] = True
    result = check.check_certificate(cert)
    assert result.status == "fail" and "one ponte information set" in result.reason


# ---------------------------------------------------------------------------------------------
# Unreachable cells and uniqueness arguments
# ---------------------------------------------------------------------------------------------


def test_unreachable_cells_must_be_zero_and_spoil_banker_uniqueness() -> None:
    shoe = {"dealing": "B", "counts": [2, 1, 0, 1, 1, 2, 1, 0, 0, 1]}
    game = check.coefficients(shoe_of(shoe), 1, "parlor")
    inert = game.inert_banker()
    assert "7/2" in inert  # the shoe has no 2: the ponte never shows one
    cert = zero_sum_certificate(shoe, 1, "parlor", {"optimal": True})
    for i in inert:
        cert["banker"][i] = "0"
    cert["dominance"] = []
    assert check.check_certificate(cert).ok
    bad = copy.deepcopy(cert)
    bad["banker"]["7/2"] = "1"
    assert "unreachable" in check.check_certificate(bad).reason
    bad = copy.deepcopy(cert)
    bad["claims"]["unique_banker"] = True
    assert "uniqueness argument does not hold" in check.check_certificate(bad).reason


def test_equilibrium_enumeration_on_a_coordination_game() -> None:
    """One banker cell x.  Net: slope -1 + 2q (he draws iff q > 1/2).  Gross: the ponte's slope
    1 - 2r (he draws iff r > 1/2).  Equilibria q = 0, 1/2, 1; none on open intervals."""
    net = check.Form(1, 0, {"5": 0}, {"x": -1}, {"5": {"x": 2}})
    gross = check.Form(1, 0, {"5": 1}, {"x": 0}, {"5": {"x": -2}})
    assert check.equilibrium_ponte_strategies(gross, net, ("x",)) == ([0, Fraction(1, 2), 1], False)
    inert = check.Form(1, 0, {"5": 0}, {"x": -1}, {"5": {"x": 0}})
    assert check.equilibrium_ponte_strategies(inert, net, ("x",))[1] is True


def test_rank() -> None:
    assert check.rank([[0, 0], [0, 0]]) == 0
    assert check.rank([[1, 2, 3], [2, 4, 6], [1, 0, 0]]) == 2
    assert check.rank([[Fraction(1, 3), 1], [1, 3]]) == 1


# ---------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------


def run_checker(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(CHECKER), *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def test_command_line_reports_one_line_per_certificate(tmp_path, fixtures) -> None:
    good = FIXTURES / "b1-i1-casino-c0.json"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered(fixtures["b1-i1-casino-c0.json"], TAMPERS["value"])), encoding="utf-8")
    done = run_checker(str(good))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"OK  {good}  B 1 deck, information 1, casino, commission 0  value=2967581/229033350")
    assert "[unique ponte, banker]" in done.stdout
    done = run_checker(str(good), str(bad))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and lines[1].startswith(f"FAIL {bad}: value:")
    assert lines[2] == "checked 2 certificates: 1 OK, 1 failed, 0 unusable"


def test_command_line_checks_a_directory(tmp_path) -> None:
    done = run_checker(str(FIXTURES))
    assert done.returncode == 0, done.stdout
    n = len(list(FIXTURES.glob("*.json")))
    assert len(done.stdout.splitlines()) == n + 1
    assert done.stdout.splitlines()[-1] == f"checked {n} certificates: {n} OK, 0 failed, 0 unusable"
    assert run_checker(str(tmp_path)).returncode == 2  # nothing to check


def test_command_line_unusable_input(tmp_path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": ', encoding="utf-8")
    missing = tmp_path / "missing.json"
    for path in (broken, missing):
        done = run_checker(str(FIXTURES / "b1-i1-casino-c0.json"), str(path))
        assert done.returncode == 2
        assert "Traceback" not in done.stdout + done.stderr
        assert done.stdout.splitlines()[-2].startswith(f"FAIL {path}: ")
        assert done.stdout.splitlines()[-1] == "checked 2 certificates: 1 OK, 0 failed, 1 unusable"


def test_command_line_refuses_huge_shoe_counts_at_once(tmp_path) -> None:
    """Issue 10: a certificate with 4,000-digit shoe counts (chemin de fer's or banque's format) once
    ran for hours; now a bound on every count refuses it in well under a second, in one line."""
    banque = json.loads(
        (ROOT / "proofs" / "certificates" / "banque" / "B1-blind-casino-d6-t1_2-nash.json").read_text(encoding="utf-8")
    )
    for name, cert in (("chemin.json", copy.deepcopy(all_fixtures()["b1-i1-casino-c0.json"])), ("banque.json", banque)):
        cert["shoe"]["counts"][3] = 10**3999
        path = tmp_path / name
        path.write_text(json.dumps(cert), encoding="utf-8")
        done = run_checker(str(path))
        assert done.returncode == 1, done.stdout + done.stderr
        assert "Traceback" not in done.stdout + done.stderr
        (line,) = done.stdout.splitlines()
        assert line.startswith(f"FAIL {path}: shoe.counts: a count above 16,000,000,000") and len(line) < 300


def test_checker_imports_nothing_from_the_solver(tmp_path) -> None:
    """By its source (standard library only) and by running it beside a poisoned solver package."""
    allowed = {"__future__", "argparse", "json", "re", "sys", "dataclasses", "fractions", "functools", "pathlib"}
    allowed |= {"typing", "importlib"}  # importlib: check.py loads check_banque.py, beside it, for banque certificates
    allowed |= {"os", "io"}  # os: a report that cannot be written is silenced (issue 29); io: --help written with care
    allowed |= {"textwrap"}  # --help wrapped to the terminal, words whole
    tree = ast.parse(CHECKER.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            imported.add("__import__")
    assert imported <= allowed, imported - allowed
    poison = tmp_path / "solver"
    poison.mkdir()
    (poison / "__init__.py").write_text("raise SystemExit('the checker imported solver')\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    done = run_checker(str(FIXTURES / "b1-i1-casino-c0.json"), env=env)
    assert done.returncode == 0, done.stdout + done.stderr
