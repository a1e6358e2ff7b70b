"""Gambit, an independent exact solver, solves our exported games and checks our equilibria.

- Zero-sum models: ``pygambit.nash.lp_solve(rational=True)`` on the exported tree (and on the normal form)
  finds our exact value, and strategies that are optimal in our additive game (the same ones where ours
  are proved unique). Gambit's exact LP takes minutes on the parlor trees (docs/benchmarks.md), so the
  casino models run by default and Kemeny and Snell's parlor game (A1, B1) with ``-m slow``.
- Our equilibria, with the 5 % commission and for baccara banque at θ = 1/2, are rational behaviour
  profiles on which Gambit's own ``max_regret()`` is exactly 0; a profile moved off the equilibrium is not.

Skipped, saying why, where pygambit (the test extra) is not installed.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from solver.banque import BanqueModel, solve_banque
from solver.banque.gambit import gambit_profile as banque_profile
from solver.banque.gambit import game_tree as banque_tree
from solver.banque.game import build_banque
from solver.cards import Shoe
from solver.chemin.gambit import gambit_game, gambit_profile, read_profile
from solver.chemin.game import build_game
from solver.chemin.guarantees import banker_guarantee, ponte_guarantee
from solver.chemin.solve import solve
from solver.store.gambit import PYGAMBIT

gbt = pytest.importorskip(
    "pygambit", minversion="17.0.0b2", reason=f"Gambit's Python package is not installed: pip install '{PYGAMBIT}'"
)

ROOT = Path(__file__).resolve().parents[1]
SHOES = {"A": Shoe.infinite(), "B": Shoe.decks(6)}


def check_gambit_optimum(dealing: str, info: int, freedom: str, form: str = "efg") -> None:
    """Gambit's exact LP on the exported game: our value, and strategies optimal in our game."""
    s = solve(build_game(SHOES[dealing], info, freedom))
    g = s.game
    profile = gbt.nash.lp_solve(gambit_game(g, form), rational=True).equilibrium
    if form == "nfg":  # a mixed strategy over pure strategies: its value is all we read
        assert profile.payoffs["Banker"] == s.value == -profile.payoffs["Ponte"]
        return
    assert profile.payoffs["Banker"] == s.value == -profile.payoffs["Ponte"]
    q, r = read_profile(g, profile)
    assert ponte_guarantee(g.gross, q) == s.value == banker_guarantee(g.gross, r)  # both optimal in our game
    if s.unique_ponte:
        assert tuple(q) == s.q
    if s.unique_banker:
        assert [x for x, inert in zip(r, g.inert_banker) if not inert] == [
            x for x, inert in zip(s.r, g.inert_banker) if not inert
        ]


@pytest.mark.parametrize("dealing,info", [(d, info) for d in "AB" for info in (1, 2, 3)])
def test_gambit_solves_the_casino_games_exactly(dealing: str, info: int) -> None:
    check_gambit_optimum(dealing, info, "casino")


@pytest.mark.parametrize("dealing", ["A", "B"])
def test_gambit_solves_the_normal_form_exactly(dealing: str) -> None:
    check_gambit_optimum(dealing, 1, "casino", "nfg")


@pytest.mark.slow
def test_kemeny_snell_solved_by_gambit(cli, tmp_path: Path) -> None:
    """Kemeny and Snell (1957): the ponte draws at 5 with probability 9/11; value 679568/53094899 (our
    exact value, pinned in tests/test_headline.py). About 73 s of CPU in Gambit's exact LP."""
    ks = tmp_path / "ks.efg"
    assert cli(["chemin", "--decks", "inf", "--information", "1", "--freedom", "parlor", "--export", "efg", str(ks)]).code == 0
    game = gbt.read_efg(str(ks))
    eq = gbt.nash.lp_solve(game, rational=True).equilibrium
    assert eq.payoffs["Banker"] == Fraction(679568, 53094899)
    assert [mixed["draw"] for _, mixed in eq["Ponte"]] == [Fraction(9, 11)]


@pytest.mark.slow
def test_gambit_solves_b1_parlor_exactly() -> None:
    check_gambit_optimum("B", 1, "parlor")


@pytest.mark.parametrize(
    "dealing,info,freedom",
    [
        ("A", 1, "parlor"),
        ("B", 1, "parlor"),
        ("B", 3, "casino"),
        ("A", 2, "parlor"),
        pytest.param("B", 3, "parlor", marks=pytest.mark.slow),
    ],
)
@pytest.mark.parametrize("alpha", [Fraction(0), Fraction(1, 20)])
def test_gambit_accepts_our_equilibria(dealing: str, info: int, freedom: str, alpha: Fraction) -> None:
    s = solve(build_game(SHOES[dealing], info, freedom, alpha))
    _, profile = gambit_profile(s)
    assert profile.max_regret() == 0
    assert profile.payoffs["Banker"] == s.banker_payoff and profile.payoffs["Ponte"] == s.ponte_payoff


def test_gambit_refuses_what_is_not_an_equilibrium() -> None:
    s = solve(build_game(Shoe.decks(6), 1, "parlor", Fraction(1, 20)))
    moved = type(s)(**{**s.__dict__, "q": (Fraction(1),)})  # the ponte always draws at 5
    _, profile = gambit_profile(moved)
    assert profile.max_regret() > 0


def test_gambit_accepts_our_banque_equilibrium() -> None:
    s = solve_banque(Shoe.infinite(), BanqueModel(1, "blind", "casino"), Fraction(1, 2), "nash")
    _, profile = banque_profile(s)
    assert profile.max_regret() == 0
    assert profile.payoffs["Banker"] == s.value
    assert profile.payoffs["Player 1"] == -s.result1 and profile.payoffs["Player 2"] == -s.result2


def committed_nash() -> list[Path]:
    return sorted((ROOT / "proofs" / "certificates" / "banque").glob("*-nash.json"))


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, id=p.stem, marks=[] if p.stem.startswith("B1-blind-casino") else [pytest.mark.slow])
        for p in committed_nash()
    ],
)
def test_gambit_accepts_the_committed_banque_equilibria(path: Path) -> None:
    """Every committed Nash certificate at θ = 1/2 (read as written, not re-solved) is an equilibrium for Gambit."""
    cert = json.loads(path.read_text())
    model = cert["model"]
    spec = cert["shoe"]
    shoe = Shoe.infinite() if spec["dealing"] == "A" else Shoe.from_values(spec["counts"])
    assert list(shoe.values) == spec.get("weights", spec.get("counts"))
    game = build_banque(shoe, BanqueModel(model["information"], model["second_player"], model["freedom"]))
    tree = banque_tree(game, Fraction(cert["theta"]))
    _, profile = tree.profile([{k: Fraction(v) for k, v in cert[side].items()} for side in ("player1", "player2", "banker")])
    assert profile.max_regret() == 0
    assert profile.payoffs["Banker"] == Fraction(cert["value"])
