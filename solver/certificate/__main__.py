"""``python -m solver.certificate DIR``: (re)write the standard certificates and their statements.

The certificates come from :func:`solver.certificate.standard_solutions`; beside each, its citable
statement in Markdown and LaTeX (:mod:`solver.report.statement`).
"""

from __future__ import annotations

import sys
from pathlib import Path

from solver.certificate import certificate_name, certificate_text, standard_solutions
from solver.files import regenerate
from solver.report.statement import statement_latex, statement_markdown


def write_standard(directory: str | Path) -> list[Path]:
    """(Re)write the standard certificates and their statements into ``directory``."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    written = []
    for s in standard_solutions():
        name = certificate_name(s)
        (d / f"{name}.json").write_text(certificate_text(s), encoding="utf-8")
        (d / f"{name}.md").write_text(statement_markdown(s, name), encoding="utf-8")
        (d / f"{name}.tex").write_text(statement_latex(s, name), encoding="utf-8")
        written.append(d / f"{name}.json")
    return written


def main(argv: list[str] | None = None) -> int:
    return regenerate(argv, "solver.certificate", "proofs/certificates", "certificates and statements", write_standard)


if __name__ == "__main__":
    sys.exit(main())
