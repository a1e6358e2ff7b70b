"""``baccarat tables``: the LaTeX tables a paper needs, one file each."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from solver.cards import parse_decks
from solver.cli.common import Progress, digits_option
from solver.errors import InputError
from solver.files import check_writable, write_texts

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
    from solver.report.commission import COMMISSION_TABLE_NAMES, commission_tables
    from solver.report.paper import TABLE_NAMES, paper_tables

    shoes = parse_decks(args.decks)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {args.out}: not a directory")
    check_writable([out / f"{name}.tex" for name in TABLE_NAMES + COMMISSION_TABLE_NAMES], args.force)
    progress = Progress(paper_steps(shoes, commission=True), "tables")
    results = paper_results(shoes, progress=progress.update, commission=True)
    progress.close()
    command = ["baccarat", "tables", "--out", args.out]
    if args.decks != DEFAULT_DECKS:
        command += ["--decks", args.decks]
    if args.digits != 4:
        command += ["--digits", str(args.digits)]
    files = paper_tables(results, args.digits, shlex.join(command))
    files |= commission_tables(results.commission, args.digits, shlex.join(command))
    written = write_texts({Path(args.out) / f"{name}.tex": text for name, text in files.items()}, overwrite=args.force)
    for path in written:
        sys.stdout.write(f"{path}\n")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "tables",
        help="write the LaTeX tables a paper needs",
        description="Write the LaTeX tables (booktabs) of punto banco by deck count, the bet edges, chemin de fer's "
        "values and optimal strategies by model and deck count (without commission, and with the casino's 5 % on the "
        "banker's wins: both payoffs and the equilibrium strategies), the banker's optimal tableaux, and exact appendices.",
        epilog=EPILOG,
    )
    p.add_argument("--out", required=True, metavar="DIR", help="directory to write the .tex files into (created if needed)")
    p.add_argument("--decks", default=DEFAULT_DECKS, metavar="LIST",
                   help=f"deck counts for the by-shoe tables, 'inf' for an infinite deck (default {DEFAULT_DECKS})")
    p.add_argument("--digits", type=digits_option, default=4, metavar="N",
                   help="decimal places where a number is rounded (default 4)")
    p.add_argument("--force", action="store_true", help="overwrite table files that already exist in DIR")
    p.set_defaults(run=run)
