"""The generated LaTeX compiles: docs/report.tex over fresh `baccarat tables` and `baccarat figures`, and
`report --format latex`. To look at every page, render them: ``python3 tests/render_pages.py OUT``.

Runs pdflatex (Debian: texlive-latex-base, texlive-latex-recommended, lmodern; `.ci/run` installs
them) and fails on any LaTeX error, undefined reference, or overfull box. The PDF is then read back
with pdftotext (poppler-utils), where installed, to check that the tables are really in it. Skips,
saying why, where pdflatex is absent.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PDFLATEX = shutil.which("pdflatex")
TEX_TIMEOUT = 60  # seconds per pdflatex run; a healthy run takes well under one

pytestmark = pytest.mark.skipif(
    PDFLATEX is None,
    reason="pdflatex is not installed (apt-get install texlive-latex-base texlive-latex-recommended lmodern; see README)",
)

BAD_LOG = re.compile(
    r"^(?:!.*|.*Overfull \\[hv]box.*|.*LaTeX Warning: (?:Reference|Citation).*undefined.*|"
    r".*There were undefined references.*|.*LaTeX Error.*)$",
    re.MULTILINE,
)


def compile_tex(directory: Path, name: str, runs: int = 2) -> str:
    """pdflatex ``name`` in ``directory`` (twice, for references); return the log of the last run."""
    assert PDFLATEX is not None
    for _ in range(runs):
        r = subprocess.run(
            [PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", name],
            cwd=directory,
            capture_output=True,
            text=True,
            timeout=TEX_TIMEOUT,
        )
        log = (directory / name).with_suffix(".log").read_text(encoding="latin-1")
        assert r.returncode == 0, f"pdflatex failed on {name}:\n" + "\n".join(log.splitlines()[-40:])
    return log


def check_log(log: str) -> None:
    problems = BAD_LOG.findall(log)
    assert not problems, "LaTeX problems:\n" + "\n".join(problems)


def pdf_text(pdf: Path) -> str | None:
    if shutil.which("pdftotext") is None:
        return None
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def build_report(
    cli,
    directory: Path,
    figure_options: tuple[str, ...] = ("--decks", "1,inf", "--coups", "2e4", "--thetas", "1/4,1/2", "--count-shoes", "100"),
) -> Path:
    """docs/report.tex compiled in ``directory`` over fresh tables and figures; returns the PDF."""
    shutil.copy(ROOT / "docs" / "report.tex", directory / "report.tex")
    r = cli(["latex", "--out", str(directory / "tables"), "--force", "--decks", "6,inf", "--thetas", "1/4,1/2"])
    assert r.code == 0, r.err
    r = cli(["figures", "--out", str(directory / "figures"), "--force", *figure_options])
    assert r.code == 0, r.err
    check_log(compile_tex(directory, "report.tex"))
    return directory / "report.pdf"


def test_report_tex_compiles(cli, tmp_path: Path) -> None:
    text = pdf_text(build_report(cli, tmp_path))
    if text is not None:
        for needle in (
            "Table 1: Punto banco",
            "45.8597",
            "Table 7: Chemin de fer",
            "Table 3: The side-bet catalogue",
            "Effects of removal on 8 decks",
            "Baccara banque at",
            "0.8680",
            "1.2916",
            "Exact values",
            "8954111587648/19524993263685",
            "banker’s optimal tableau",
            "Figure 1: Punto banco",
            "Figure 8: The cut-card effect",
            "Figure 7: Baccara banque",
            "Figure 2: Side bets",
            "Made by baccarat figures",
        ):
            assert needle in text.replace("'", "’"), f"{needle!r} is not in the PDF"


def test_report_format_latex_compiles(cli, tmp_path: Path) -> None:
    r = cli(["report", "--decks", "inf", "--format", "latex"])
    assert r.code == 0, r.err
    (tmp_path / "full.tex").write_text(r.out, encoding="utf-8")
    check_log(compile_tex(tmp_path, "full.tex"))
    text = pdf_text(tmp_path / "full.pdf")
    if text is not None:
        assert "Baccarat: the full exact report" in text and "679568/53094899" in text and "In brief" in text


def test_certificate_statements_compile(tmp_path: Path) -> None:
    # The citable LaTeX statements beside the certificates: a few of each kind, in one document.
    certs = Path(__file__).resolve().parents[1] / "proofs" / "certificates"
    names = ["A1-parlor-inf-a0", "B3-parlor-d8-a0", "B3-parlor-d6-a1_20", "B2-casino-d1-a1_20"]
    body = "\n".join(r"\input{" + str(certs / f"{n}.tex") + "}" for n in names)
    (tmp_path / "statements.tex").write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n\\usepackage{amsthm}\n"
        "\\newtheorem{theorem}{Theorem}\n\\begin{document}\n" + body + "\n\\end{document}\n",
        encoding="utf-8",
    )
    check_log(compile_tex(tmp_path, "statements"))
    text = pdf_text(tmp_path / "statements.pdf")
    if text is not None:
        assert "Certificate B3-parlor-d8-a0" in text and "9/11" in text


def test_commission_sweep_table_compiles(cli, tmp_path: Path) -> None:
    """`baccarat chemin --commission LO..HI --format latex` (a table, with uniqueness over each piece in
    its caption) inside a minimal document."""
    r = cli(
        ["chemin", "--decks", "1", "--information", "2", "--freedom", "parlor", "--commission", "0..1/10", "--format", "latex"]
    )
    assert r.code == 0, r.err
    doc = (
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{lmodern,booktabs,array,amsmath}\n"
        "\\usepackage[margin=2cm]{geometry}\n\\begin{document}\n" + r.out + "\n\\end{document}\n"
    )
    (tmp_path / "sweep.tex").write_text(doc, encoding="utf-8")
    compile_tex(tmp_path, "sweep.tex", runs=1)
    text = pdf_text(tmp_path / "sweep.pdf")
    if text is not None:
        assert "proved (1 case analysis" in " ".join(text.split())
