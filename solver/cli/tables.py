"""``baccarat tables``: the LaTeX tables a paper needs, one file each."""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from solver.cards import parse_decks
from solver.cli.common import Progress, digits_option
from solver.errors import InputError

DEFAULT_DECKS = "1,2,3,4,5,6,7,8,inf"

EPILOG = """\
Writes one LaTeX file per table (booktabs; each with a caption, a label and a comment naming this
command) and prints their paths. docs/report.tex inputs them from tables/:

  baccarat tables --out docs/tables && cd docs && pdflatex report.tex

The exact appendix tables and the banker's tableaux use each game's shoe as it is played (punto banco
8 decks, chemin de fer 6).

examples:
  baccarat tables --out docs/tables
  baccarat tables --out tables --decks 1,2,6,8,inf --digits 3
"""


def run(args: argparse.Namespace) -> int:
    from solver.analysis import paper_results, paper_steps
    from solver.report.paper import paper_tables

    shoes = parse_decks(args.decks)
    progress = Progress(paper_steps(shoes), "tables")
    results = paper_results(shoes, progress=progress.update)
    progress.close()
    command = ["baccarat", "tables", "--out", args.out]
    if args.decks != DEFAULT_DECKS:
        command += ["--decks", args.decks]
    if args.digits != 4:
        command += ["--digits", str(args.digits)]
    files = paper_tables(results, args.digits, shlex.join(command))
    try:
        os.makedirs(args.out, exist_ok=True)
        for name, text in files.items():
            path = os.path.join(args.out, name + ".tex")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            sys.stdout.write(path + "\n")
    except OSError as e:
        raise InputError(f"cannot write to {args.out}: {e.strerror}") from None
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "tables",
        help="write the LaTeX tables a paper needs",
        description="Write the LaTeX tables (booktabs) of punto banco by deck count, the bet edges, chemin de fer's "
        "values and optimal strategies by model and deck count, the banker's optimal tableaux, and exact appendices.",
        epilog=EPILOG,
    )
    p.add_argument("--out", required=True, metavar="DIR", help="directory to write the .tex files into (created if needed)")
    p.add_argument("--decks", default=DEFAULT_DECKS, metavar="LIST",
                   help=f"deck counts for the by-shoe tables, 'inf' for an infinite deck (default {DEFAULT_DECKS})")
    p.add_argument("--digits", type=digits_option, default=4, metavar="N",
                   help="decimal places where a number is rounded (default 4)")
    p.set_defaults(run=run)
