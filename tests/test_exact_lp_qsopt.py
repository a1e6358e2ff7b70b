"""A second, independent exact LP solver agrees with every certified zero-sum value.

QSopt_ex's exact simplex (``esolver``, Debian package ``qsopt-ex``; .ci/run installs it) reads the
compact LP of a game in CPLEX LP format (min a·q + Σ t subject to t_i − G_i·q >= b_i, t >= 0,
0 <= q <= 1, integer coefficients) and prints its exact optimum. The value of the game is then
(c0 + optimum) / D; it must equal the solver's certified value exactly.
"""

from __future__ import annotations

import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from solver.cards import Shoe
from solver.chemin.game import Coefficients, build_game
from solver.chemin.solve import solve

ESOLVER = shutil.which("esolver")
pytestmark = pytest.mark.skipif(ESOLVER is None, reason="QSopt_ex's esolver is not installed (apt-get install qsopt-ex)")


def _linear(pairs: list[tuple[int, str]]) -> str:
    terms = [("- " if c < 0 else "+ ") + f"{abs(c)} {v}" for c, v in pairs if c != 0]
    text = " ".join(terms)
    return text[2:] if text.startswith("+ ") else text


def lp_file(c: Coefficients) -> str:
    m, n = c.G.shape
    lines = ["Minimize", " obj: " + _linear([(int(c.a[j]), f"q{j}") for j in range(m)] + [(1, f"t{i}") for i in range(n)])]
    lines.append("Subject To")
    for i in range(n):
        lines.append(f" c{i}: " + _linear([(1, f"t{i}")] + [(-int(c.G[j][i]), f"q{j}") for j in range(m)]) + f" >= {int(c.b[i])}")
    lines.append("Bounds")
    lines += [f" 0 <= q{j} <= 1" for j in range(m)]
    lines.append("End")
    return "\n".join(lines) + "\n"


def exact_lp_value(c: Coefficients, workdir: Path) -> Fraction:
    lp, sol = workdir / "game.lp", workdir / "game.sol"
    lp.write_text(lp_file(c))
    run = subprocess.run([ESOLVER or "esolver", "-L", "-O", str(sol), str(lp)], capture_output=True, text=True, timeout=60)
    text = sol.read_text()
    assert "status OPTIMAL" in text, run.stdout + run.stderr
    value = next(line.split("=", 1)[1].strip() for line in text.splitlines() if line.strip().startswith("Value"))
    return (c.c0 + Fraction(value)) / c.denominator


CASES = [(Shoe.infinite(), 1)] + [(Shoe.decks(d), info) for d in range(1, 9) for info in (1, 2, 3)]


@pytest.mark.parametrize("freedom", ["casino", "parlor"])
def test_qsopt_agrees_with_every_certified_value(freedom: str, tmp_path: Path) -> None:
    for shoe, info in CASES:
        s = solve(build_game(shoe, info, freedom))
        assert exact_lp_value(s.game.gross, tmp_path) == s.value, (shoe.label(), info, freedom)
