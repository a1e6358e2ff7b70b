"""Certificates: the committed set is what the solver produces, and the independent checker accepts it.

proofs/check.py imports nothing from solver/ (tests/test_proof_checker.py shows it); here it is run
as a reader would run it, on the committed certificates, on a fresh one from the command line, and
on tampered copies.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Shoe
from solver.chemin.certificate import certificate_dict, certificate_name, certificate_text, standard_solutions
from solver.chemin.game import build_game
from solver.chemin.solve import solve
from solver.chemin.statement import statement_latex, statement_markdown

ROOT = Path(__file__).resolve().parents[1]
CERTS = ROOT / "proofs" / "certificates"
CHECK = ROOT / "proofs" / "check.py"


def run_checker(*paths: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(CHECK), *map(str, paths)], capture_output=True, text=True, timeout=300)


@cache
def standard() -> tuple:  # type: ignore[type-arg]
    return tuple(standard_solutions())


STANDARD_CLAIMS_BY_CASES = {f"B3-parlor-d{d}-a1_20" for d in range(1, 9)}
"""The standard games whose equilibrium is proved unique by a case analysis (in the certificate):
B3 parlor with the 5 % commission, left open by Ethier and Lee (2023). Every standard certificate
claims uniqueness: optimal strategies of both sides (zero-sum), or the equilibrium (commission)."""


def test_standard_claims_are_pinned() -> None:
    # The committed files are regenerated from the solver (test below), so a weakened claim would be
    # approved there by regenerating them; here it fails.
    for s in standard():
        name = certificate_name(s)
        claims = certificate_dict(s)["claims"]
        assert s.certified, name
        if s.game.zero_sum:
            assert claims == {"optimal": True, "unique_ponte": True, "unique_banker": True}, name
        else:
            assert claims == {"equilibrium": True, "unique_equilibrium": True}, name
            assert ("cases" in certificate_dict(s)) == (name in STANDARD_CLAIMS_BY_CASES), name


def test_committed_certificates_are_regenerated_exactly() -> None:
    expected = {certificate_name(s): s for s in standard()}
    committed = {p.stem for p in CERTS.glob("*.json")}
    assert committed == set(expected), "proofs/certificates differs; run: python -m solver.chemin.certificate proofs/certificates"
    for name, s in expected.items():
        assert (CERTS / f"{name}.json").read_text() == certificate_text(s), name
        assert (CERTS / f"{name}.md").read_text() == statement_markdown(s, name), name
        assert (CERTS / f"{name}.tex").read_text() == statement_latex(s, name), name


REPRESENTATIVES = sorted({p.name for p in CERTS.glob("A1-*.json")} | {p.name for p in CERTS.glob("B?-*-d6-*.json")})
"""One committed certificate per model (A1; B1, B2, B3 on 6 decks; casino and parlor; commission 0 and 5 %),
the B3 parlor case analysis among them: what the default run has the checker verify. Every committed
certificate is verified by the slow test below, and by ``.ci/run`` (``python3 proofs/check.py``)."""


def test_checker_verifies_one_committed_certificate_per_model() -> None:
    assert len(REPRESENTATIVES) == 16
    r = run_checker(*(CERTS / name for name in REPRESENTATIVES))
    assert r.returncode == 0, r.stdout + r.stderr
    lines = [line for line in r.stdout.splitlines() if line.startswith(("OK", "FAIL"))]
    assert len(lines) == 16 and all(line.startswith("OK") for line in lines), r.stdout


@pytest.mark.slow
def test_checker_verifies_every_committed_certificate() -> None:
    r = run_checker()
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    chemin = [line for line in lines if "/certificates/banque/" not in line]  # the banque ones: test_banque_certificates.py
    assert len(chemin) == 100 and all(line.startswith("OK") for line in lines)


def _tamper(data: dict, tmp_path: Path, name: str) -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(data))
    return p


def test_tampered_value_and_edited_shoe_fail(tmp_path: Path) -> None:
    data = json.loads((CERTS / "B3-parlor-d6-a0.json").read_text())
    value = data["value"]
    digit = "1" if value[-1] != "1" else "2"
    bad_value = dict(data, value=value[:-1] + digit)
    counts = list(data["shoe"]["counts"])
    counts[5] -= 1
    bad_shoe = dict(data, shoe={"dealing": "B", "counts": counts})
    for name, bad in (("value.json", bad_value), ("shoe.json", bad_shoe)):
        r = run_checker(_tamper(bad, tmp_path, name))
        assert r.returncode == 1 and r.stdout.startswith("FAIL"), r.stdout


def test_cli_writes_a_checkable_certificate(cli, tmp_path: Path) -> None:
    target = tmp_path / "b2.json"
    argv = ["chemin", "--decks", "3", "--information", "2", "--freedom", "parlor", "--certificate", str(target)]
    assert cli(argv).code == 0
    r = run_checker(target)
    assert r.returncode == 0, r.stdout
    again = cli(argv)  # never overwrite what a user has without being asked
    assert again.code == 2 and "exists" in again.err
    assert cli([*argv, "--force"]).code == 0


def test_cli_deck_list_writes_one_certificate_each(cli, tmp_path: Path) -> None:
    out = tmp_path / "certs"
    out.mkdir()
    assert cli(["chemin", "--decks", "1,inf", "--commission", "1/20", "--certificate", str(out)]).code == 0
    files = sorted(p.name for p in out.iterdir())
    assert files == ["A1-casino-inf-a1_20.json", "B1-casino-d1-a1_20.json"]
    assert run_checker(out).returncode == 0


def test_unique_equilibrium_claims_need_an_argument(tmp_path: Path) -> None:
    # B3 casino with commission: dominance settles everything, so uniqueness is claimed and checked.
    casino = json.loads((CERTS / "B3-casino-d6-a1_20.json").read_text())
    assert casino["claims"]["unique_equilibrium"] is True and "cases" not in casino
    # B3 parlor with commission: the claim rests on the case analysis; without it the claim fails.
    parlor = json.loads((CERTS / "B3-parlor-d6-a1_20.json").read_text())
    assert parlor["claims"]["unique_equilibrium"] is True
    del parlor["cases"]
    r = run_checker(_tamper(parlor, tmp_path, "overclaim.json"))
    assert r.returncode == 1 and "unique_equilibrium" in r.stdout


@pytest.mark.parametrize("d", range(1, 9))
def test_b3_commission_uniqueness_is_proved(d: int) -> None:
    # Ethier and Lee, Games 14 (2023) 63, obtain a B3 equilibrium with commission but "are unable to
    # prove uniqueness"; the committed certificates decide it for d = 1..8 at alpha = 1/20: unique, by
    # a case analysis the checker re-verifies (test_checker_verifies_every_committed_certificate).
    data = json.loads((CERTS / f"B3-parlor-d{d}-a1_20.json").read_text())
    assert data["claims"] == {"equilibrium": True, "unique_equilibrium": True}
    kinds = {entry[0] for entry in data["cases"]}
    assert kinds == {"split", "refuted", "pinned"}
    assert sum(entry == ["pinned"] for entry in data["cases"]) == 1


def _first(cases: list, kind: str, side: str | None = None) -> int:
    return next(k for k, e in enumerate(cases) if e[0] == kind and (side is None or e[1] == side))


@pytest.mark.parametrize("how", ["multiplier", "sign", "dropped", "pinned", "settled", "extra"])
def test_tampered_case_analysis_fails(how: str) -> None:
    sys.path.insert(0, str(ROOT / "proofs"))
    import check  # type: ignore[import-not-found]

    data = json.loads((CERTS / "B3-parlor-d1-a1_20.json").read_text())
    cases = data["cases"]
    if how == "multiplier":  # a refutation with two rows (neither refutes alone), one weight zeroed
        k = next(k for k, e in enumerate(cases) if e[0] == "refuted" and len(e[2]) == 2)
        cases[k][2][sorted(cases[k][2])[0]] = "0"
    elif how == "sign":  # an inequality row used with the wrong sign
        k = next(k for k, e in enumerate(cases) if e[0] == "refuted" and len(e[2]) == 1)
        key = next(iter(cases[k][2]))
        cases[k][2][key] = "-" + cases[k][2][key] if not cases[k][2][key].startswith("-") else cases[k][2][key][1:]
    elif how == "dropped":
        del cases[_first(cases, "refuted")]
    elif how == "pinned":  # claim an empty case holds only the equilibrium
        cases[_first(cases, "refuted", "ponte")] = ["pinned"]
    elif how == "settled":  # split on a cell that dominance settled
        cases[_first(cases, "split")] = ["split", "banker", data["dominance"][0]["infoset"]]
    else:
        cases.append(["pinned"])
    result = check.check_certificate(data)
    assert result.status == "fail" and "cases" in result.reason, result.reason


def test_a_banker_reply_kept_from_both_bounds_by_a_pure_ponte_set_is_found() -> None:
    # Found by the property test below: B3 parlor on this shoe has an optimal ponte that is pure, and
    # the banker's optimal reply in one indifferent cell lies strictly inside (0, 1), pinned there by a
    # pure set of the ponte's that is indifferent (its best-reply inequality tight). The reply search
    # tried only the box's corners and the mixed sets' equations, and failed ("could not read an exact
    # banker strategy"); it now searches every vertex of the replies that keep the ponte's play best.
    sys.path.insert(0, str(ROOT / "proofs"))
    import check  # type: ignore[import-not-found]

    s = solve(build_game(Shoe.from_values([3, 6, 0, 5, 0, 5, 2, 6, 1, 0]), 3, "parlor"))
    assert s.certified and all(x in (0, 1) for x in s.q) and any(0 < x < 1 for x in s.r)
    assert check.check_certificate(certificate_dict(s)).status == "ok"


@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=10, max_size=10).filter(lambda c: sum(c) >= 6))
def test_any_shoe_any_model_is_solved_and_independently_verified(counts: list[int]) -> None:
    # Odd shoes give degenerate games (inert cells, ties at breakpoints); every answer must still be
    # certified by the solver and accepted by the independent checker.
    sys.path.insert(0, str(ROOT / "proofs"))
    import check  # type: ignore[import-not-found]

    shoe = Shoe.from_values(counts)
    for info in (1, 2, 3):
        for freedom in ("casino", "parlor"):
            for alpha in (Fraction(0), Fraction(1, 20)):
                s = solve(build_game(shoe, info, freedom, alpha))
                result = check.check_certificate(certificate_dict(s))
                assert result.status == "ok", result.line(f"{counts} {info} {freedom} {alpha}")
