"""``baccarat latex`` (also ``baccarat tables``, its older name): the LaTeX tables a paper needs, one file each."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from solver.banque.committed import THETA_SWEEP
from solver.cards import parse_decks
from solver.cli.common import Progress, digits_option, emit
from solver.store.files import check_out_dir, check_writable, write_texts

DEFAULT_DECKS = "1,2,3,4,5,6,7,8,inf"

EPILOG = """\
Writes one LaTeX file per table (booktabs; each with a caption, a label and a comment naming this
command) and prints their paths. docs/report.tex inputs them from tables/ and the figures from
figures/, so it needs both generators, run from the repository's root, then pdflatex twice (for the
references):

  baccarat latex --out docs/tables && baccarat figures --out docs/figures
  cd docs && pdflatex report.tex && pdflatex report.tex

The exact appendix tables and the banker's tableaux use each game's shoe as it is played (punto banco
8 decks, chemin de fer 6); so do the side-bet tables (the catalogue, its pay tables, its effects of
removal, 8 decks). Baccara banque: banque-models (theta 1/2, every model of the committed certificates,
read from them) and banque-theta (the rule sheets' model on the infinite deck at each --thetas value;
theta 1/2 read from its certificates, the others solved: about a second each).

examples:
  baccarat latex --out docs/tables
  baccarat latex --out tables --decks 1,2,6,8,inf --digits 3
  baccarat latex --out tables --thetas 1/4,1/2,3/4   fewer banque solves

'baccarat tables' is the older name of this command and does the same.
"""


def run(args: argparse.Namespace) -> int:
    from solver.analysis.paper import paper_results, paper_steps
    from solver.banque import parse_thetas
    from solver.report.banque_section import BANQUE_TABLE_NAMES, banque_tables
    from solver.report.commission import COMMISSION_TABLE_NAMES, commission_tables
    from solver.report.paper import TABLE_NAMES, paper_tables
    from solver.report.side_bets import SIDE_TABLE_NAMES, side_bet_tables

    shoes = parse_decks(args.decks)
    thetas = parse_thetas(args.thetas)
    out = check_out_dir(args.out)  # before the work: a directory that cannot take the files is refused at once
    names = TABLE_NAMES + COMMISSION_TABLE_NAMES + SIDE_TABLE_NAMES + BANQUE_TABLE_NAMES
    check_writable([out / f"{name}.tex" for name in names], args.force)
    progress = Progress(paper_steps(shoes, commission=True, banque=True, thetas=thetas), "tables")
    results = paper_results(shoes, progress=progress.update, commission=True, banque=True, thetas=thetas, side_bets=True)
    progress.close()
    command = ["baccarat", "latex", "--out", args.out]
    if args.decks != DEFAULT_DECKS:
        command += ["--decks", args.decks]
    if args.thetas != THETA_SWEEP:
        command += ["--thetas", args.thetas]
    if args.digits != 4:
        command += ["--digits", str(args.digits)]
    files = paper_tables(results, args.digits, shlex.join(command))
    files |= commission_tables(results.commission, args.digits, shlex.join(command))
    assert results.catalogue is not None and results.removal is not None
    files |= side_bet_tables(results.catalogue, results.removal, args.digits, shlex.join(command))
    files |= banque_tables(results.banque_models, results.banque_thetas, args.digits, shlex.join(command))
    written = write_texts({Path(args.out) / f"{name}.tex": text for name, text in files.items()}, overwrite=args.force)
    emit(str(path) for path in written)
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "latex",
        help="write the LaTeX tables a paper needs",
        description="Write the LaTeX tables (booktabs) of punto banco by deck count, the bet edges, chemin de fer's "
        "values and optimal strategies by model and deck count (without commission, and with the casino's 5 % on the "
        "banker's wins: both payoffs and the equilibrium strategies), the banker's optimal tableaux, exact appendices, "
        "the side-bet catalogue (edges and risk, pay tables, effects of removal), and baccara banque by model and by "
        "theta.",
        epilog=EPILOG,
    )
    p.add_argument("--out", required=True, metavar="DIR", help="directory to write the .tex files into (created if needed)")
    p.add_argument(
        "--decks",
        default=DEFAULT_DECKS,
        metavar="LIST",
        help=f"deck counts for the by-shoe tables, 'inf' for an infinite deck (default {DEFAULT_DECKS})",
    )
    p.add_argument(
        "--thetas",
        default=THETA_SWEEP,
        metavar="T",
        help=f"values of theta of the banque-theta table: a list 1/4,1/2 or a sweep LO..HI/STEPS (default {THETA_SWEEP})",
    )
    p.add_argument(
        "--digits", type=digits_option, default=4, metavar="N", help="decimal places where a number is rounded (default 4)"
    )
    p.add_argument("--force", action="store_true", help="overwrite table files that already exist in DIR")
    p.set_defaults(run=run)
