"""The documentation's examples are executed, and their output compared with the program's.

Every fenced ```console block in docs/*.md is a session: a line ``$ COMMAND`` runs a command, and
the lines after it, up to the next ``$`` line or the end of the block, are its expected output
(stdout; with stderr appended when the command fails, as a terminal would show an error). A line
holding only ``...`` matches any run of lines, none included. Trailing spaces are ignored.

- ``$ baccarat ARGS`` with no shell syntax runs in-process (fast); anything else (pipes,
  redirections, ``cat``, ``head``) runs under bash, where ``baccarat`` is this checkout's command.
  ``COLUMNS`` is 100, so ``--help`` output does not depend on the terminal.
- The commands of one page run in order in one fresh temporary directory, so a later command can read
  a file an earlier one wrote. A ```file:NAME block writes its text to NAME there first (for
  example, a batch file the next command reads).
- A ```console-skip block is shown to readers but not run: for runs too long for a test (minutes to
  hours). Only the pages in :data:`SKIP_ALLOWED` may have one, so skipping cannot spread silently.
- A ```pycon block is a Python session (``>>> `` lines and their output, as doctest reads them):
  the blocks of one page run in order in one namespace, in the page's temporary directory, with
  doctest's ELLIPSIS and NORMALIZE_WHITESPACE. docs/api.md is written in them.
- A page of :data:`NEEDS` (Gambit's how-to) is skipped, saying why, where its optional package is absent.
- Outside those blocks, no fenced block may show a ``baccarat`` command or Python that imports the
  package (it would escape the check).

The README's ```sh blocks are checked more lightly: each ``baccarat`` command in them runs and exits 0.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p.name for p in DOCS.glob("*.md"))
SKIP_ALLOWED = {"simulate.md", "counting.md", "howto-parsheet.md"}
"""Pages allowed a ```console-skip block: simulate.md, whose measured runs of 10^8 to 4 x 10^10 coups
take minutes to hours (their results are quoted from docs/benchmarks.md and the cut-card table), and
counting.md, whose counting studies of 10^5 shoes take minutes each (their results are quoted), and
howto-parsheet.md, whose PDF needs pdflatex (tests/test_parsheet.py runs that command where it is installed)."""

NEEDS = {"howto-gambit.md": "pygambit"}
"""Pages whose examples need an optional package (the test extra installs it): skipped, saying so, without it."""

SKIP_MARKER = "console-skip"
COLUMNS = "100"
SHELL_SYNTAX = re.compile(r"[|<>;&$`*?()\\]")
FENCE = re.compile(r"^( *)```([^\n`]*)\n(.*?)^\1```[ \t]*$", re.MULTILINE | re.DOTALL)
"""A fenced block, also indented (inside a list item); its text is dedented by the fence's indent."""


@dataclass(frozen=True)
class Block:
    page: str
    line: int  # 1-based line of the opening fence
    info: str
    text: str


@dataclass(frozen=True)
class Example:
    page: str
    line: int  # 1-based line of the command
    command: str
    expected: tuple[str, ...]


def blocks(text: str, page: str) -> list[Block]:
    """The fenced blocks of a Markdown page."""
    out = []
    for m in FENCE.finditer(text):
        indent = len(m.group(1))
        body = "".join(line[indent:] if line[:indent].strip() == "" else line for line in m.group(3).splitlines(True))
        out.append(Block(page, text.count("\n", 0, m.start()) + 1, m.group(2).strip(), body))
    return out


def examples(block: Block) -> list[Example]:
    """The ``$ command`` / expected output pairs of one console block."""
    out: list[Example] = []
    command: str | None = None
    start = 0
    expected: list[str] = []
    for k, line in enumerate(block.text.splitlines()):
        if line.startswith("$ "):
            if command is not None:
                out.append(Example(block.page, start, command, tuple(expected)))
            command, start, expected = line[2:].strip(), block.line + 1 + k, []
        elif command is None:
            if line.strip():
                raise AssertionError(f"{block.page}:{block.line + 1 + k}: output before any '$ ' command")
        else:
            expected.append(line)
    if command is not None:
        out.append(Example(block.page, start, command, tuple(expected)))
    return out


def _clean(lines: list[str] | tuple[str, ...]) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line-by-line equality where an ``...`` line in ``expected`` stands for any run of lines."""
    # reach[j]: expected[:i] can match actual[:j]
    reach = [True] + [False] * len(actual)
    for e in expected:
        if e == "...":
            seen = False
            for j in range(len(actual) + 1):
                seen = seen or reach[j]
                reach[j] = seen
        else:
            reach = [False] + [reach[j] and actual[j] == e for j in range(len(actual))]
    return reach[len(actual)]


def run_with_code(command: str, cwd: Path) -> tuple[str, int]:
    """Run one documented command in ``cwd``; return what a terminal would show, and the exit code."""
    words = shlex.split(command)
    if words and words[0] == "baccarat" and not SHELL_SYNTAX.search(command):
        old = Path.cwd()
        os.chdir(cwd)
        try:
            r = run_cli(words[1:])
        finally:
            os.chdir(old)
        return r.out + (r.err if r.code != 0 else ""), r.code
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": COLUMNS}
    script = (
        f'baccarat() {{ "{sys.executable}" -m solver.cli "$@"; }}\n'
        f'baccarat-check() {{ "{sys.executable}" "{ROOT / "proofs" / "check.py"}" "$@"; }}\n{command}\n'
    )
    p = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    return p.stdout + (p.stderr if p.returncode != 0 else ""), p.returncode


def run(command: str, cwd: Path) -> str:
    """Run one documented command in ``cwd``; return what a terminal would show."""
    return run_with_code(command, cwd)[0]


def run_pycon(block: Block, namespace: dict[str, object], path: Path, workdir: Path) -> int:
    """Run one ```pycon block as a doctest in ``namespace``; raise AssertionError on a failure."""
    import doctest
    import io

    test = doctest.DocTestParser().get_doctest(block.text, namespace, f"{block.page}:{block.line}", str(path), block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report = io.StringIO()
    old = Path.cwd()
    os.chdir(workdir)
    try:
        result = runner.run(test, out=report.write, clear_globs=False)
    finally:
        os.chdir(old)
    namespace.update(test.globs)
    if result.failed:
        raise AssertionError(f"{block.page}:{block.line}: a Python example has drifted:\n{report.getvalue()}")
    return result.attempted


def check_page(path: Path, workdir: Path) -> int:
    """Run every example of a page in ``workdir``; raise AssertionError on the first drift. Returns the count."""
    page = path.name
    n = 0
    namespace: dict[str, object] = {}
    for block in blocks(path.read_text(encoding="utf-8"), page):
        if block.info.startswith("file:"):
            (workdir / block.info[5:].strip()).write_text(block.text, encoding="utf-8")
            continue
        if block.info == "pycon":
            n += run_pycon(block, namespace, path, workdir)
            continue
        if block.info != "console":
            continue
        for ex in examples(block):
            actual = _clean(run(ex.command, workdir).splitlines())
            expected = _clean(ex.expected)
            if not matches(expected, actual):
                diff = "\n".join(difflib.unified_diff(expected, actual, "documented", "actual", lineterm=""))
                raise AssertionError(f"{page}:{ex.line}: the output of `{ex.command}` has drifted:\n{diff}")
            n += 1
    return n


@pytest.fixture
def columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", COLUMNS)


@pytest.mark.parametrize("page", PAGES)
def test_page_examples(page: str, tmp_path: Path, columns: None) -> None:
    if page in NEEDS:
        pytest.importorskip(NEEDS[page], reason=f"{page} needs {NEEDS[page]} (pip install -e '.[test]')")
    check_page(DOCS / page, tmp_path)


def test_the_docs_exist() -> None:
    want = {
        "index.md",
        "tutorial.md",
        "howto-partly-dealt-shoe.md",
        "howto-kemeny-snell.md",
        "howto-latex-tables.md",
        "howto-crosscheck.md",
        "reference.md",
        "discussion.md",
        "api.md",
    }
    assert want <= set(PAGES)
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for name in sorted(want - {"index.md"}):
        assert f"({name})" in index, f"docs/index.md does not link {name}"


def test_no_command_escapes_the_check() -> None:
    for page in PAGES:
        for block in blocks((DOCS / page).read_text(encoding="utf-8"), page):
            if block.info == SKIP_MARKER:
                assert page in SKIP_ALLOWED, f"{page}:{block.line}: a {SKIP_MARKER} block outside {sorted(SKIP_ALLOWED)}"
                continue
            if block.info in ("console", "pycon") or block.info.startswith("file:"):
                continue
            for line in block.text.splitlines():
                assert not re.match(r"\s*(\$\s*)?baccarat\s", line), (
                    f"{page}:{block.line}: a baccarat command in a ```{block.info} block is never run; use ```console"
                )
                assert not re.match(r"\s*(>>>\s*)?(import solver|from solver)", line), (
                    f"{page}:{block.line}: Python using the package in a ```{block.info} block is never run; use ```pycon"
                )


def test_a_drifted_example_fails(tmp_path: Path, columns: None) -> None:
    page = tmp_path / "drift.md"
    page.write_text(
        "```console\n$ baccarat punto --decks inf --format csv\nshoe,item,exact,decimal\n...\n"
        "inf,P(tie),460601/4826809,\n...\n```\n",
        encoding="utf-8",
    )
    assert check_page(page, tmp_path) == 1
    page.write_text(
        "```console\n$ baccarat punto --decks inf --format csv\nshoe,item,exact,decimal\n...\n"
        "inf,P(tie),460602/4826809,\n...\n```\n",
        encoding="utf-8",
    )
    with pytest.raises(AssertionError, match=r"drift.md:2: the output of `baccarat punto --decks inf --format csv`"):
        check_page(page, tmp_path)


def test_a_drifted_python_example_fails(tmp_path: Path) -> None:
    page = tmp_path / "py.md"
    page.write_text("```pycon\n>>> from fractions import Fraction\n>>> Fraction(2, 4)\nFraction(1, 2)\n```\n", encoding="utf-8")
    assert check_page(page, tmp_path) == 2
    page.write_text("```pycon\n>>> 1 + 1\n3\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="py.md:1: a Python example has drifted"):
        check_page(page, tmp_path)


def test_ellipsis_matching() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "b"], ["a", "b"])
    assert matches(["...", "c"], ["a", "b", "c"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert not matches(["a", "b"], ["a", "b", "c"])


README_COMMAND = re.compile(r"^(baccarat(?:-check)?\s.*|printf .*\|\s*baccarat\s.*)$")


def test_readme_commands_run(tmp_path: Path, columns: None) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    ran = 0
    for block in blocks(text, "README.md"):
        if block.info not in ("sh", "console"):
            continue
        for line in block.text.splitlines():
            line = re.sub(r"\s{2,}#.*$", "", line).strip()
            for part in line.split("&&"):
                m = README_COMMAND.search(part.strip())
                if not m:
                    continue
                command = m.group(1)
                out, code = run_with_code(command, tmp_path)
                assert code == 0, f"README: `{command}` failed: {out}"
                ran += 1
    assert ran >= 5


# -- what the prose says about the project (issue 28) --------------------------------------------------


def pyproject() -> dict[str, object]:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def requirement_names(requirements: list[str]) -> list[str]:
    """``numpy>=1.26`` -> ``numpy``."""
    return [re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0] for r in requirements]


def listed(text: str, after: str) -> set[str]:
    """The names in the parentheses after ``after`` (up to a semicolon), e.g. ``dependencies (numpy, scipy; ...)``."""
    m = re.search(re.escape(after) + r"\s*\(([^);]*)", " ".join(text.split()))
    assert m is not None, f"no list after {after!r}"
    return {name.strip() for name in m.group(1).split(",")}


def test_the_tutorial_lists_the_dependencies_pyproject_installs() -> None:
    # Issue 28: the tutorial listed nashpy (a test extra) as installed and left out matplotlib, highspy, numba.
    project = pyproject()["project"]
    assert isinstance(project, dict)
    tutorial = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    assert listed(tutorial, "its dependencies") == set(requirement_names(project["dependencies"]))
    assert listed(tutorial, "install the test extra") == set(requirement_names(project["optional-dependencies"]["test"]))


def test_the_readme_says_why_each_dependency() -> None:
    project = pyproject()["project"]
    assert isinstance(project, dict)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Dependencies and why") :]
    extras = project["optional-dependencies"]
    for name in requirement_names(project["dependencies"] + extras["test"] + extras["dask"]):
        assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", section), f"the README does not say why {name}"


def test_the_readme_says_how_long_the_tests_take_and_where_skips_are_explained() -> None:
    # Issue 28: the README said neither how long the tests take nor how to see why a test skipped.
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert re.search(r"about \d+ minutes on two cores", readme)
    options = pyproject()["tool"]["pytest"]["ini_options"]["addopts"]  # type: ignore[index]
    assert "-rs" in options.split() and "`-rs`" in readme and "addopts" in readme


def test_benchmarks_speak_to_readers() -> None:
    # Issue 28: docs/benchmarks.md told readers to run commands in a development path and cited ticket numbers.
    text = (DOCS / "benchmarks.md").read_text(encoding="utf-8")
    assert not re.findall(r"\b(?:issues?|tickets?) \d+", text, re.IGNORECASE)
    assert not re.findall(r"the issue(?:'s)?\b", text, re.IGNORECASE)
    assert not re.findall(r"(?:/work/|/tmp\b|/home/|~/)", text)
