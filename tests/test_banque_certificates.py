"""Banque certificates: the committed set is what the solver produces (the float-searched answers to the
bounds of tests/searched.py); the independent checker accepts it, through proofs/check.py's dispatch
too, and rejects tampered copies.

The checker (proofs/check_banque.py) imports nothing from solver/; it is loaded here from its file, as
the chemin de fer checker is in test_proof_checker.py, and its enumeration is cached per shoe, so the
24 committed certificates cost two enumerations.
"""

from __future__ import annotations

import ast
import copy
import importlib.util
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from solver.banque.certificate import certificate_name, certificate_text, standard_solutions, write_certificates
from solver.banque.game import BanqueModel
from solver.banque.solve import solve_banque
from solver.cards import Shoe
from tests.searched import assert_same_certificate

ROOT = Path(__file__).resolve().parents[1]
CERTS = ROOT / "proofs" / "certificates" / "banque"
CHECK_BANQUE = ROOT / "proofs" / "check_banque.py"
CHECK = ROOT / "proofs" / "check.py"

_spec = importlib.util.spec_from_file_location("check_banque_under_test", CHECK_BANQUE)
assert _spec is not None and _spec.loader is not None
checker = importlib.util.module_from_spec(_spec)
sys.modules["check_banque_under_test"] = checker
_spec.loader.exec_module(checker)


def _load(name: str) -> dict:
    return json.loads((CERTS / name).read_text())


def _verdict(cert: dict) -> str:
    try:
        checker.check(cert)
    except checker.CheckFailure as e:
        return "fail: " + str(e)
    except checker.UnusableInput as e:
        return "unusable: " + str(e)
    return "ok"


@pytest.mark.slow
def test_committed_banque_certificates_are_regenerated_exactly() -> None:
    expected = {certificate_name(s): certificate_text(s) for s in standard_solutions()}
    committed = {p.stem for p in CERTS.glob("*.json")}
    assert committed == set(expected), "run: python -m solver.banque.certificate proofs/certificates/banque"
    for name, text in expected.items():
        assert_same_certificate(text, (CERTS / f"{name}.json").read_text(), name)


@pytest.mark.parametrize(
    "name", ["A1-blind-casino-inf-t1_2-nash", "A1-sees-first-parlor-inf-t1_2-correlated", "B1-blind-casino-d6-t1_2-independent"]
)
def test_some_committed_certificates_are_regenerated_exactly(name: str) -> None:
    # The full regeneration is slow (every concept of eight models); three of them, one per concept.
    data = _load(name + ".json")
    counts = data["shoe"].get("counts")
    shoe = (
        Shoe.infinite()
        if counts is None
        else Shoe.decks(counts[1] // 4)
        if counts == [16 * (counts[1] // 4)] + [counts[1]] * 9
        else Shoe.from_values(counts)
    )
    m = data["model"]
    s = solve_banque(
        shoe, BanqueModel(m["information"], m["second_player"], m["freedom"]), Fraction(data["theta"]), data["concept"]
    )
    assert certificate_name(s) == name
    assert_same_certificate(certificate_text(s), (CERTS / f"{name}.json").read_text(), name)
    assert _verdict(json.loads(certificate_text(s))) == "ok"


def test_the_checker_mixes_rationals_and_field_elements() -> None:
    # A rational on the left of a field element kept only the rational part: 2 * alpha was 0, and
    # 1 + alpha had no field, so its sign was the sign of 1. The team's guarantee at an irrational
    # product strategy came out wrong (the solver's exact polish found one; tests/searched.py).
    field = checker.Field([Fraction(-2), Fraction(0), Fraction(1)], Fraction(1), Fraction(2))  # sqrt 2
    alpha = checker.Num(field, (Fraction(0), Fraction(1)))
    two = checker.Num(None, (Fraction(2),))
    assert (two * alpha).c == (Fraction(0), Fraction(2)) and (two * alpha).f is field
    assert (alpha * alpha) == 2 and (two * alpha * alpha) == 4
    assert (checker.Num(None, (Fraction(1),)) - alpha).sign() == -1  # 1 - sqrt 2 < 0
    assert (Fraction(3, 2) - alpha).sign() == 1


def test_the_checker_accepts_an_irrational_product_strategy(monkeypatch: pytest.MonkeyPatch) -> None:
    # The exact polish's point on the blind infinite deck is a quadratic irrational; the solver writes
    # the nearest simple fraction, but the algebraic point itself must check too (it was rejected).
    from solver.banque import independent

    monkeypatch.setattr(independent, "_rational_near", lambda v: v)
    s = solve_banque(Shoe.infinite(), BanqueModel(1, "blind", "casino"), Fraction(1, 2), "independent")
    cert = json.loads(certificate_text(s))
    assert cert["field"] is not None and cert["claims"] == {"exists": False}
    assert _verdict(cert) == "ok"


def test_the_checker_verifies_the_infinite_deck_certificates() -> None:
    # One enumeration (the infinite deck's); test_certificates.py runs check.py over all 24 in a process.
    names = sorted(p.name for p in CERTS.glob("A1-*.json"))
    assert len(names) == 12 and len(list(CERTS.glob("*.json"))) == 24
    for name in names:
        assert _verdict(_load(name)) == "ok", name


@pytest.mark.slow
def test_the_checker_verifies_every_committed_banque_certificate() -> None:
    for name in sorted(p.name for p in CERTS.glob("*.json")):
        assert _verdict(_load(name)) == "ok", name


def test_an_edited_shoe_fails(tmp_path: Path) -> None:
    shoe = Shoe.from_values((3, 1, 0, 2, 1, 0, 2, 1, 1, 0))
    s = solve_banque(shoe, BanqueModel(1, "blind", "parlor"), Fraction(1, 2), "correlated")
    (path,) = write_certificates([s], str(tmp_path / "small.json"))
    good = json.loads(path.read_text())
    assert _verdict(good) == "ok"
    bad = copy.deepcopy(good)
    bad["shoe"]["counts"][4] += 1
    assert _verdict(bad).startswith("fail")


@pytest.mark.parametrize("edit", ["value", "strategy", "theta", "team", "claim"])
def test_tampered_copies_fail(edit: str) -> None:
    nash = _load("A1-blind-parlor-inf-t1_2-nash.json")
    corr = _load("A1-blind-parlor-inf-t1_2-correlated.json")
    indep = _load("A1-blind-casino-inf-t1_2-independent.json")
    bad = copy.deepcopy(corr if edit == "team" else indep if edit == "claim" else nash)
    if edit == "value":
        v = bad["value"]
        bad["value"] = v[:-1] + ("1" if v[-1] != "1" else "2")
    elif edit == "strategy":
        bad["player1"]["5"] = "4/5"
    elif edit == "theta":
        bad["theta"] = "11/20"
    elif edit == "team":
        team = bad["team"]
        team[0]["probability"], team[1]["probability"] = team[1]["probability"], team[0]["probability"]
    else:
        bad["claims"] = {"exists": True}
    assert _verdict(bad).startswith("fail"), edit


def test_unusable_inputs() -> None:
    assert _verdict({"format": "baccarat-banque-certificate", "version": 3}).startswith("unusable")
    assert _verdict({"format": "something else"}).startswith("unusable")


def test_check_py_dispatches_on_the_format(tmp_path: Path) -> None:
    # A small odd shoe keeps the subprocess's own enumeration fast.
    shoe = Shoe.from_values((3, 1, 0, 2, 1, 0, 2, 1, 1, 0))
    s = solve_banque(shoe, BanqueModel(1, "sees-first", "casino"), Fraction(2, 5), "nash")
    (path,) = write_certificates([s], str(tmp_path / "small.json"))
    chemin = ROOT / "tests" / "data" / "certificates" / "b1-i1-casino-c0.json"
    r = subprocess.run([sys.executable, str(CHECK), str(path), str(chemin)], capture_output=True, text=True, timeout=300)
    lines = r.stdout.splitlines()
    assert r.returncode == 0, r.stdout + r.stderr
    assert lines[0].startswith(f"OK  {path}  B1 11 cards, sees-first, casino, tax 0, theta 2/5, nash  value=")
    assert lines[0].endswith("[equilibrium]")
    assert lines[1].startswith(f"OK  {chemin}  B 1 deck, information 1, casino, commission 0")
    data = json.loads(path.read_text())
    data["player2"][next(iter(data["player2"]))] = "1/3"
    path.write_text(json.dumps(data))
    r = subprocess.run([sys.executable, str(CHECK), str(path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and r.stdout.startswith("FAIL")


def test_checker_imports_nothing_from_the_solver() -> None:
    tree = ast.parse(CHECK_BANQUE.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert all(not a.name.startswith("solver") for a in node.names)
        if isinstance(node, ast.ImportFrom):
            assert not (node.module or "").startswith("solver")
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    roots = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    roots |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert roots <= allowed, roots - allowed


def test_the_payoff_weights_belong_to_their_game() -> None:
    # The weights were once cached by id(game): a game freed and a new one built at the same address
    # (as CPython does) got the old game's weights, and a correct certificate failed (seen on 3.13).
    u = [Fraction(k + 1, 3) for k in range(9)]
    tables = [[(None, None, None, None, None, None, [t + o for o in range(9)])] for t in range(50)]
    addresses = set()
    for t, terms in enumerate(tables):
        game = checker.Game(terms, 1, [], [], [])
        addresses.add(id(game))
        weights, d = checker._term_weights(game, u)
        assert d == 3 and weights == [sum((k + 1) * (t + k) for k in range(9))], t
        del game
    assert len(addresses) < len(tables)  # an address was reused: the case the old cache got wrong


def test_a_version_1_certificate_still_checks() -> None:
    # The format grew to version 2 (the Nash claim no_equilibrium_with_player1_at); a certificate written
    # in version 1 (this one was committed before) is still read, and may not carry the new claim.
    old = json.loads((ROOT / "tests" / "data" / "certificates" / "banque-v1-A1-blind-parlor-inf-t1_2-nash.json").read_text())
    assert old["version"] == 1 and _verdict(old) == "ok"
    grown = copy.deepcopy(old)
    grown["claims"]["no_equilibrium_with_player1_at"] = ["0", "1"]
    assert _verdict(grown).startswith("fail: claims: unknown key")


def test_the_checker_rederives_where_player_1_must_mix() -> None:
    nash = _load("A1-blind-parlor-inf-t1_2-nash.json")
    assert nash["claims"]["no_equilibrium_with_player1_at"] == ["0", "1"]
    description, _, claims = checker.check(nash)
    assert claims == ("equilibrium", "no equilibrium with Player 1 at 0, 1"), description
    for wrong in (["9/11"], ["0", "9/11"]):  # the equilibrium's own x: it admits one
        bad = copy.deepcopy(nash)
        bad["claims"]["no_equilibrium_with_player1_at"] = wrong
        assert _verdict(bad) == "fail: claims.no_equilibrium_with_player1_at: x = 9/11 admits an equilibrium"
    casino = _load("A1-blind-casino-inf-t1_2-nash.json")  # both players draw at 5 there
    assert "no_equilibrium_with_player1_at" not in casino["claims"]
    casino["claims"]["no_equilibrium_with_player1_at"] = ["1"]
    assert _verdict(casino) == "fail: claims.no_equilibrium_with_player1_at: x = 1 admits an equilibrium"
