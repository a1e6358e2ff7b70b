"""Render every page of the generated documents to PNG, to look at before calling a layout done.

    python3 tests/render_pages.py OUT_DIR [--full-figures]

Builds docs/report.tex over fresh ``baccarat tables`` and ``baccarat figures`` (a short figure run
unless ``--full-figures``), and ``baccarat report --format latex``, in OUT_DIR, and renders each page
with pdftoppm to OUT_DIR/report-NN.png and OUT_DIR/full-N.png. Needs pdflatex and poppler-utils.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import run_cli  # noqa: E402
from test_latex_compile import build_report, check_log, compile_tex  # noqa: E402


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    out = Path(argv[0]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    options: tuple[str, ...] = (
        ()
        if "--full-figures" in argv
        else ("--decks", "1,inf", "--coups", "2e4", "--thetas", "1/4,1/2,3/4", "--count-shoes", "200")
    )
    pdf = build_report(run_cli, out, options)
    r = run_cli(["report", "--format", "latex"])
    (out / "full.tex").write_text(r.out, encoding="utf-8")
    check_log(compile_tex(out, "full.tex"))
    for doc, prefix in ((pdf, "report"), (out / "full.pdf", "full")):
        subprocess.run(["pdftoppm", "-r", "60", "-png", str(doc), str(out / prefix)], check=True)
    pages = sorted(out.glob("*.png"))
    print("\n".join(map(str, pages)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
