"""The Nash search of baccara banque: complete where Player 1 has one set, honest where it is not.

Sources pinned here:

* issue 26 (an independent exact solver of the three-person game, written apart from the project):
  on 6 decks, sees-first, parlor, θ = 1/4 a Nash equilibrium exists with the banker's advantage about
  0.9726 %, Player 1 drawing at 5 with probability about 0.8094, Player 2 about 0.80, 0.92, 0.79, 0.77,
  0.90 after a third card of 4–8, 1 after 0–3 or 9 and about 0.81 after a stand or a natural, the
  banker mixing at 8 cells; the old search failed there ("support search exhausted").
* Nash's theorem: every finite game has an equilibrium in mixed (behaviour) strategies, so the
  infinite-deck sees-first game at θ = 9/10, where the old search found none, has one.

Every equilibrium found is certified by the independent checker (proofs/check_banque.py).
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from solver.banque import solve as solve_module
from solver.banque.certificate import certificate_dict
from solver.banque.game import BanqueModel, build_banque
from solver.banque.nash import NashNotFound
from solver.banque.solve import solve_banque
from solver.banque.subgame import Cell, Group, components
from solver.cards import Shoe
from solver.exact.numberfield import decimal_of
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("check_banque_for_nash", ROOT / "proofs" / "check_banque.py")
assert _spec is not None and _spec.loader is not None
checker = importlib.util.module_from_spec(_spec)
sys.modules["check_banque_for_nash"] = checker
_spec.loader.exec_module(checker)


def _checked(s) -> None:  # type: ignore[no-untyped-def]
    cert = json.loads(json.dumps(certificate_dict(s)))
    description, _, claims = checker.check(cert)
    assert claims == ("equilibrium",), description


def test_issue_26_the_six_deck_sees_first_equilibrium_at_a_quarter() -> None:
    s = solve_banque(Shoe.decks(6), BanqueModel(1, "sees-first", "parlor"), Fraction(1, 4), "nash")
    assert s.certified and s.field is None  # rational
    assert decimal_of(s.value * 100, 4) == "0.9726"
    assert decimal_of(s.player1[0], 4) == "0.8094"
    sights = [str(k).split("/")[1] for k in s.game.player2_sets]
    y = dict(zip(sights, s.player2))
    assert [decimal_of(y[c], 2) for c in "45678"] == ["0.80", "0.92", "0.79", "0.77", "0.90"]
    assert all(y[c] == 1 for c in "01239")
    assert decimal_of(y["S"], 2) == decimal_of(y["N"], 2) == "0.81"
    assert sum(1 for v in s.banker if 0 < v < 1) == 8
    assert "bisection" in s.method or "complete search" in s.method


def test_the_infinite_deck_sees_first_game_at_nine_tenths_is_settled() -> None:
    s = solve_banque(Shoe.infinite(), BanqueModel(1, "sees-first", "parlor"), Fraction(9, 10), "nash")
    assert s.certified and s.field is not None and s.field.degree == 2  # irrational: in Q(√d)
    assert decimal_of(s.value * 100, 4) == "1.1225"


def test_the_blind_equilibria_of_the_literature_are_found_again() -> None:
    # The rule sheets' model at θ = 1/2 (both players draw at 5 w.p. 9/11) and the irrational θ = 1/20
    # equilibrium of docs/howto-banque.md, found now by the complete search.
    g = build_banque(Shoe.infinite(), BanqueModel(1, "blind", "parlor"))
    half = solve_banque(g.shoe, g.model, Fraction(1, 2), "nash", game=g)
    assert half.value == Fraction(11138203216, 1283144424133) and half.player1 == (Fraction(9, 11),)
    twentieth = solve_banque(g.shoe, g.model, Fraction(1, 20), "nash", game=g)
    assert decimal_of(twentieth.player1[0], 8) == "0.22062689" and decimal_of(twentieth.player2[0], 8) == "0.83858247"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shoe", "second", "theta"),
    [(Shoe.decks(6), "sees-first", Fraction(1, 4)), (Shoe.infinite(), "sees-first", Fraction(9, 10))],
    ids=["d6-sees-first-1_4", "inf-sees-first-9_10"],
)
def test_the_independent_checker_certifies_the_issues_cases(shoe: Shoe, second: str, theta: Fraction) -> None:
    _checked(solve_banque(shoe, BanqueModel(1, second, "parlor"), theta, "nash"))


# -- the small games, against a brute force ----------------------------------------------------------------


def _random_group(rng: random.Random, cells: int) -> Group:
    def small() -> int:
        return rng.randint(-6, 6)

    return Group(
        0,
        tuple(Cell(q, (small(), small(), small(), small()), (small(), small()), (small(), small())) for q in range(cells)),
        (small(), small()),
        (small(), small()),
    )


def _equilibrium_at(g: Group, x: Fraction, y: Fraction) -> bool:
    """Brute force at a y that is no breakpoint: the cells follow their signs; is y a best reply?"""
    u = g.u[0] + g.u[1] * x
    for c in g.cells:
        s = c.s[0] + c.s[1] * x + (c.s[2] + c.s[3] * x) * y
        assert s != 0
        if s > 0:
            u += c.e[0] + c.e[1] * x
    return (y == 0 and u >= 0) or (y == 1 and u <= 0) or u == 0


@pytest.mark.parametrize("seed", range(40))
def test_every_equilibrium_of_a_small_game_lies_in_a_component(seed: int) -> None:
    rng = random.Random(seed)
    g = _random_group(rng, rng.randint(1, 5))
    x = Fraction(rng.randint(0, 12), 12)
    comps = components(g, x)
    # Sound: every component's ends are equilibria (the free cells' values keep U as the mode says).
    for comp in comps:
        for y, free in (comp.at_lo, comp.at_hi):
            u = g.u[0] + g.u[1] * x + sum(g.cells[q].e[0] + g.cells[q].e[1] * x for q in comp.drawn)
            u += sum((g.cells[q].e[0] + g.cells[q].e[1] * x) * r for q, r in zip(comp.free, free))
            assert (comp.mode > 0 and u >= 0) or (comp.mode < 0 and u <= 0) or (comp.mode == 0 and u == 0)
            assert all(0 <= r <= 1 for r in free) and 0 <= y <= 1
    # Complete: every y of a fine grid that is an equilibrium (away from breakpoints) is in a component.
    for n in range(0, 241):
        y = Fraction(n, 240)
        if any(c.s[0] + c.s[1] * x + (c.s[2] + c.s[3] * x) * y == 0 for c in g.cells):
            continue
        if _equilibrium_at(g, x, y):
            assert any(c.y == y or (c.y_end is not None and c.y <= y <= c.y_end) for c in comps), (seed, y)


# -- where the search is not complete -------------------------------------------------------------------


def _starved(monkeypatch: pytest.MonkeyPatch) -> None:
    from solver.banque import proposals

    monkeypatch.setattr(proposals, "MAX_TRIES", 0)
    monkeypatch.setattr(proposals, "SEARCH_BUDGET", 0)
    monkeypatch.setattr(proposals, "FP_ITERATIONS", 20)


def _says_what_it_covered(text: str) -> None:
    assert text.startswith("no certified Nash equilibrium found: the search is not exhaustive here")
    assert "nothing is proved about the others" in text and "an equilibrium exists" in text
    assert "certified bounds: at every Nash equilibrium the banker's payoff is at least" in text
    assert "exact ε-equilibrium" in text


def test_a_search_that_cannot_finish_says_what_it_covered(monkeypatch: pytest.MonkeyPatch) -> None:
    # Where no complete search applies (here forced: the split form withheld) and the proposals find
    # nothing (no supports allowed), the answer says so without claiming a proof, with the bounds.
    from solver.banque import nash as nash_module

    _starved(monkeypatch)
    monkeypatch.setattr(nash_module, "split", lambda pb, p1, p2: None)
    with pytest.raises(NashNotFound) as e:
        solve_banque(Shoe.infinite(), BanqueModel(1, "blind", "parlor"), Fraction(1, 2), "nash")
    _says_what_it_covered(str(e.value))


@pytest.mark.slow
def test_information_3_has_no_complete_search(monkeypatch: pytest.MonkeyPatch) -> None:
    _starved(monkeypatch)
    shoe = Shoe.from_values((3, 1, 1, 2, 1, 1, 2, 1, 1, 1))
    with pytest.raises(NashNotFound) as e:
        solve_banque(shoe, BanqueModel(3, "blind", "parlor"), Fraction(1, 2), "nash")
    _says_what_it_covered(str(e.value))
    assert "Player 1 has 5 sets" in str(e.value)


def test_a_sweep_keeps_every_answer_and_names_each_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    real = solve_module.nash

    def failing(pb, p1, p2, inert, hint=None):  # type: ignore[no-untyped-def]
        if failing.calls == 1:  # the second θ fails
            failing.calls += 1
            raise NashNotFound("planted for the test")
        failing.calls += 1
        return real(pb, p1, p2, inert, hint=hint)

    failing.calls = 0  # type: ignore[attr-defined]
    monkeypatch.setattr(solve_module, "nash", failing)
    r = run_cli(["banque", "--decks", "inf", "--concept", "nash", "--theta", "1/4,2/3,9/10", "--format", "csv"])
    assert r.code == 3
    rows = r.out.strip().splitlines()
    assert [row.split(",")[5] for row in rows[1:]] == ["1/4", "9/10"]  # the answers found are kept
    (line,) = r.err.splitlines()
    assert line.startswith("baccarat: error: theta 2/3, nash: no certified Nash equilibrium found: planted for the test; ")
    assert "certified bounds: at every Nash equilibrium the banker's payoff is at least 0.9032 %" in line


def test_an_irrational_equilibrium_lives_in_one_field() -> None:
    # Its three strategies were once moved into three copies of one number field: the certificate and
    # the certification did not mind, but the independent concept, seeded with the Nash equilibrium,
    # multiplied numbers of two fields and failed (baccarat banque --decks inf --freedom parlor --theta
    # 1/20..19/20/18, all concepts).
    from solver.exact.numberfield import FieldElement

    s = solve_banque(Shoe.infinite(), BanqueModel(1, "sees-first", "parlor"), Fraction(9, 10), "nash")
    fields = {v.field for v in s.player1 + s.player2 + s.banker if isinstance(v, FieldElement)}
    assert len(fields) == 1
    indep = solve_banque(s.shoe, s.model, s.theta, "independent", game=s.game, hint=s)
    assert indep.certified
