"""The house rules that code review alone would let slip (docs/design.md, "Layers" and "Packages").

- One line of layers, read from docs/design.md itself: a module imports only modules of a lower layer
  or of its own package; the packages of one layer (the three games, say) never import one another.
- No import cycle among solver's modules.
- A name with a leading underscore is never imported from another module.
- No module named for its history rather than its content (``*_extra``, ``*_misc``, ``*_utils``).
- A module past :data:`WARN_LINES` lines is listed at the end of the test run (tests/conftest.py); past
  :data:`MAX_LINES` it fails (cohesion first: split along a line the design draws, never by a line count).

Imports are read from the source (every ``import`` statement, also inside functions), not executed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "solver"
DESIGN = ROOT / "docs" / "design.md"
WARN_LINES = 400
MAX_LINES = 600
HISTORY_NAMES = re.compile(r"(^|_)(extra|misc|utils?|helpers?|new|old|more)(_|$)")


def layer_line() -> list[list[str]]:
    """The layers of docs/design.md's one line ``errors → {exact, store} → cards → …``, lowest first: each
    layer a list of the top-level modules or packages of solver/ in it."""
    text = DESIGN.read_text(encoding="utf-8")
    match = re.search(r"^Layers: (.+)$", text, flags=re.M)
    assert match, "docs/design.md must state the layers on one line starting 'Layers: '"
    return [[name.strip() for name in part.strip().strip("{}").split(",")] for part in match.group(1).split("→")]


LAYERS = layer_line()
LAYER_OF = {name: k for k, names in enumerate(LAYERS) for name in names}


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


def unit(module: str) -> str:
    """The top-level module or package of solver/ that ``module`` belongs to (``solver.chemin.game`` → ``chemin``)."""
    return module.split(".")[1]


def test_the_layer_line_names_every_part_of_the_package() -> None:
    parts = {unit(m) for m in MODULES if m != "solver"}
    assert parts == set(LAYER_OF), (
        f"docs/design.md's layers and solver/ differ: not in the line "
        f"{sorted(parts - set(LAYER_OF))}, not in solver/ {sorted(set(LAYER_OF) - parts)}"
    )


def test_layers_are_one_way() -> None:
    """The root package ``solver`` is the front door (every name loaded lazily, and ``__version__``): it
    stands above the line, and any module may read the version from it."""
    bad = []
    for m, t, _, line in edges():
        if m == "solver" or t == "solver" or unit(m) == unit(t):
            continue
        lower, higher = LAYER_OF[unit(t)], LAYER_OF[unit(m)]
        if lower > higher:
            bad.append(f"{m}:{line} imports {t} (a higher layer)")
        elif lower == higher:
            bad.append(f"{m}:{line} imports {t} (another package of its own layer)")
    assert not bad, "the layer line of docs/design.md is broken:\n" + "\n".join(bad)


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
                return stack[stack.index(v) :] + [v]
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
    bad = [
        f"{m}:{line} imports {taken} from {t}"
        for m, t, taken, line in edges()
        if taken is not None and taken.startswith("_") and not taken.endswith("__") and t != m
    ]
    assert not bad, "private names used across modules (make them public, documented and tested):\n" + "\n".join(bad)


def test_names_say_what_a_module_holds() -> None:
    bad = [m for m in MODULES for part in m.split(".")[1:] if HISTORY_NAMES.search(part)]
    assert not bad, f"modules named for their history, not their content: {bad}"


def lines_of(name: str) -> int:
    return len(MODULES[name].read_text(encoding="utf-8").splitlines())


def long_modules() -> list[tuple[str, int]]:
    """The modules past :data:`WARN_LINES` lines, longest first: the test run's summary lists them (a note for
    the next change there, not a failure)."""
    return sorted(((m, n) for m in MODULES if (n := lines_of(m)) > WARN_LINES), key=lambda x: -x[1])


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_is_small_enough(name: str) -> None:
    n = lines_of(name)
    assert n <= MAX_LINES, f"{name} has {n} lines (at most {MAX_LINES}): split it along a line the design draws"


def test_the_checks_can_fail() -> None:
    """The walker sees what it must: a known edge, a known layer order, and a name the rule rejects."""
    found = {(m, t) for m, t, _, _ in edges()}
    assert ("solver.chemin.game", "solver.deal.tree") in found
    assert LAYER_OF["report"] > LAYER_OF["analysis"] > LAYER_OF["chemin"] == LAYER_OF["punto"] == LAYER_OF["banque"]
    assert HISTORY_NAMES.search("curves_extra") and HISTORY_NAMES.search("figures_extra")
    assert not HISTORY_NAMES.search("side_bets") and not HISTORY_NAMES.search("extraction")


def test_the_front_door_lists_every_name_it_serves() -> None:
    import solver

    assert set(solver.__all__) == {"__version__", *solver._WHERE}
    for name in solver.__all__:
        assert getattr(solver, name) is not None
