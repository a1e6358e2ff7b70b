"""The house rules that code review alone would let slip (DESIGN.md, "Modules"; STYLE.md rules 11, 12).

- Layers are one-way: a module imports only modules of its own layer or lower ones.
- No import cycle among solver's modules.
- A name with a leading underscore is never imported from another module.
- No module is longer than one person can hold in his head (:data:`MAX_LINES`).

Imports are read from the source (every ``import`` statement, also inside functions), not executed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "solver"
MAX_LINES = 400

LAYERS: dict[str, int] = {
    "errors": 0, "numbers": 0, "files": 0, "cache": 0, "jitcache": 0, "algebraic": 0, "numberfield": 0, "linalg": 0, "lp": 0,
    "cards": 1,
    "rules": 2, "house": 2,
    "deal": 3, "outcome": 3, "weights": 3,
    "bets": 4, "strategy": 4,
    "game": 5, "game_paths": 5,
    "equilibrium": 6,
    "certificate": 7, "simulate": 7,
    "crosscheck": 8, "analysis": 8, "curves": 8, "table": 8, "count": 8, "banque_results": 8, "curves_extra": 8,
    "report": 9,
    "cli": 10, "certificate.__main__": 10, "entry": 10,
    # baccara banque: its enumeration beside deal/strategy, its game and polynomial systems beside game, its
    # solvers beside equilibrium, its certificates beside certificate.
    "banque.deal": 4,
    "banque.game": 5, "banque.polysys": 5, "banque.forms": 5,
    "banque.team": 5,
    "banque": 6,
    "banque.certificate": 7,
}
"""Each top-level module or package of solver/ by layer (DESIGN.md: cards → rules → deal →
bets/game/strategy → equilibrium → simulate/crosscheck/... → report → cli). A module may import its
own layer or a lower one. ``certificate.__main__`` is a command (it writes the statements)."""


def modules() -> dict[str, Path]:
    """Dotted module name (``solver.x.y``) → file, for every module of the package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = modules()


def imports(name: str, path: Path) -> list[tuple[str, str | None, int]]:
    """``(module imported, name taken from it or None, line)`` for every import of a solver module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[tuple[str, str | None, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, None, node.lineno) for a in node.names if a.name.startswith("solver")]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            if not base.startswith("solver"):
                continue
            for a in node.names:
                sub = f"{base}.{a.name}"
                out.append((sub, None, node.lineno) if sub in MODULES else (base, a.name, node.lineno))
    return out


def edges() -> list[tuple[str, str, str | None, int]]:
    return [(m, target, taken, line) for m, p in MODULES.items() for target, taken, line in imports(m, p)]


def layer(module: str) -> int:
    rel = module.removeprefix("solver.")
    for key in sorted(LAYERS, key=len, reverse=True):
        if rel == key or rel.startswith(key + "."):
            return LAYERS[key]
    raise KeyError(module)


def test_every_module_has_a_layer() -> None:
    unknown = []
    for m in MODULES:
        if m == "solver":
            continue
        try:
            layer(m)
        except KeyError:
            unknown.append(m)
    assert not unknown, f"give these modules a layer in tests/test_architecture.py LAYERS: {unknown}"


def test_layers_are_one_way() -> None:
    bad = [f"{m}:{line} imports {t}" for m, t, _, line in edges()
           if m != "solver" and t != "solver" and layer(t) > layer(m)]
    assert not bad, "a lower layer imports a higher one:\n" + "\n".join(bad)


def test_no_import_cycle() -> None:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for m, t, _, _ in edges():
        if t in graph and t != m:
            graph[m].add(t)
    # A package's __init__ importing its own submodules is how packages work, not a cycle, as long
    # as no submodule imports the package back (which the edge from the submodule would show).
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(u: str) -> list[str] | None:
        state[u] = 1
        stack.append(u)
        for v in sorted(graph[u]):
            if state.get(v) == 1:
                return stack[stack.index(v):] + [v]
            if v not in state:
                found = visit(v)
                if found:
                    return found
        stack.pop()
        state[u] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            cycle = visit(m)
            assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_no_private_name_is_imported_from_another_module() -> None:
    bad = [f"{m}:{line} imports {taken} from {t}" for m, t, taken, line in edges()
           if taken is not None and taken.startswith("_") and not taken.endswith("__") and t != m]
    assert not bad, "private names used across modules (make them public, documented and tested):\n" + "\n".join(bad)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_is_small_enough(name: str) -> None:
    n = len(MODULES[name].read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"{name} has {n} lines (at most {MAX_LINES}): split it along a line the design draws"


def test_the_checks_can_fail() -> None:
    """The walker sees what it must: a known edge, and a known layer order."""
    found = {(m, t) for m, t, _, _ in edges()}
    assert ("solver.game", "solver.deal") in found
    assert layer("solver.report.full") > layer("solver.analysis") > layer("solver.equilibrium.zerosum")


def test_the_front_door_lists_every_name_it_serves() -> None:
    import solver

    assert set(solver.__all__) == {"__version__", *solver._WHERE}
    for name in solver.__all__:
        assert getattr(solver, name) is not None
