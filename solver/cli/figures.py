"""``baccarat figures``: the figures (PDF and PNG), each with the CSV of the numbers it draws."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from solver.analysis.depletion import COUNT_SHOES
from solver.banque.committed import THETA_SWEEP
from solver.cards import parse_decks
from solver.cli.common import Progress, emit, parse_count, seed_option
from solver.errors import InputError
from solver.store.files import check_out_dir, check_writable, write_files

DEFAULT_DECKS = "1,2,3,4,5,6,7,8,inf"
DEFAULT_COUPS = 10**6
DEFAULT_SEED = 1
EXTENSIONS = ("pdf", "png", "csv", "tex")
"""The files written for each figure."""

EPILOG = """\
Writes, for each figure, NAME.pdf (for papers), NAME.png (for screens), NAME.csv (exactly the numbers
it draws: exact fractions, and estimates in columns that say so) and NAME.tex (a LaTeX figure whose
caption names this command), and prints their paths. docs/report.tex inputs them from figures/
and the tables from tables/, so it needs both generators, run from the repository's root, then pdflatex
twice (for the references):

  baccarat latex --out docs/tables && baccarat figures --out docs/figures
  cd docs && pdflatex report.tex && pdflatex report.tex

figures: punto-edges, chemin-values, ponte-draw-at-5, banker-mixed-cell (exact, by deck count);
cut-card-effect (recorded long simulations, estimates); convergence (a short seeded simulation of
--coups first coups on 8 decks, estimates, against the exact value); edge-vs-removed (side bets'
exact edges as cards of one value leave 8 decks); edge-distribution (the exact edge before every
coup of --count-shoes seeded shoes, a simulated distribution); banque-theta (baccara banque's
banker's advantage against --thetas for each concept, exact; theta 1/2 read from the committed
certificates, the others solved, about a second each).

examples:
  baccarat figures --out docs/figures
  baccarat figures --out figs --decks 1,2,4,8,inf --only punto-edges,chemin-values
"""


def command_words(args: argparse.Namespace, shown: bool = False) -> list[str]:
    """The command as the user could type it again, with the options that differ from the defaults; ``shown``:
    as a caption shows it to readers, with an absolute ``--out`` (this machine's directory, which draws
    nothing) written ``DIR``."""
    out = "DIR" if shown and Path(args.out).is_absolute() else args.out
    words = ["baccarat", "figures", "--out", out]
    if args.decks != DEFAULT_DECKS:
        words += ["--decks", args.decks]
    if args.coups != DEFAULT_COUPS:
        words += ["--coups", str(args.coups)]
    if args.seed != DEFAULT_SEED:
        words += ["--seed", str(args.seed)]
    if args.thetas != THETA_SWEEP:
        words += ["--thetas", args.thetas]
    if args.count_shoes != COUNT_SHOES:
        words += ["--count-shoes", str(args.count_shoes)]
    if args.only:
        words += ["--only", args.only]
    return words  # --force changes what is overwritten, not what is drawn


def run(args: argparse.Namespace) -> int:
    from solver.analysis.figures import FigureInputs
    from solver.banque import parse_thetas
    from solver.report.figures import FIGURES, figure_csv, figure_tex, images

    names = list(FIGURES) if not args.only else [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in FIGURES]
    if unknown:
        raise InputError(f"unknown figure {unknown[0]!r} (choose from {', '.join(FIGURES)})")
    shoes = parse_decks(args.decks)
    if any(s.full_decks is None and not s.is_infinite for s in shoes):
        raise InputError("--decks takes whole deck counts and 'inf'")
    out = check_out_dir(args.out)  # before the work: a directory that cannot take the files is refused at once
    check_writable([out / f"{name}.{ext}" for name in names for ext in EXTENSIONS], args.force)
    command, shown = shlex.join(command_words(args)), shlex.join(command_words(args, shown=True))
    inputs = FigureInputs(shoes, coups=args.coups, seed=args.seed, thetas=parse_thetas(args.thetas), count_shoes=args.count_shoes)
    from solver.cli.messages import KERNELS, note_compiling
    from solver.simulate.engines import resolve

    dealt = KERNELS["deal"] if "convergence" in names and resolve() == "numba" else ()
    note_compiling(dealt + (KERNELS["count"] if "edge-distribution" in names else ()))
    with Progress(len(names), "figures") as progress:
        for k, name in enumerate(names):
            fig = FIGURES[name](inputs)
            files = {out / f"{name}.{ext}": data for ext, data in images(fig, shown).items()}
            files[out / f"{name}.csv"] = figure_csv(fig).encode("utf-8")
            files[out / f"{name}.tex"] = figure_tex(fig, command, shown).encode("utf-8")
            emit(str(path) for path in write_files(files, overwrite=True))  # refused up front unless --force
            progress.update(k + 1)
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "figures",
        help="write the figures (PDF, PNG) with the CSV of the numbers they draw",
        description="Draw punto banco's edges and chemin de fer's values and optimal strategies against the number "
        "of decks, the cut-card effect, a simulation converging on the exact value, side bets' exact edges as the "
        "shoe is depleted and over real shoes, and baccara banque's value against theta; each figure as PDF and PNG "
        "beside the CSV of exactly the numbers it draws and a LaTeX float whose caption names this command.",
        epilog=EPILOG,
    )
    p.add_argument("--out", required=True, metavar="DIR", help="directory to write the files into (created if needed)")
    p.add_argument(
        "--decks",
        default=DEFAULT_DECKS,
        metavar="LIST",
        help=f"deck counts of the by-deck figures, 'inf' for an infinite deck (default {DEFAULT_DECKS})",
    )
    p.add_argument(
        "--coups",
        type=parse_count,
        default=DEFAULT_COUPS,
        metavar="N",
        help="first coups in the convergence figure's simulation (default 1e6)",
    )
    p.add_argument("--seed", type=seed_option, default=DEFAULT_SEED, help=f"seed of that simulation (default {DEFAULT_SEED})")
    p.add_argument(
        "--thetas",
        default=THETA_SWEEP,
        metavar="T",
        help=f"values of theta of the banque-theta figure: a list or a sweep LO..HI/STEPS (default {THETA_SWEEP})",
    )
    p.add_argument(
        "--count-shoes",
        type=parse_count,
        default=COUNT_SHOES,
        metavar="N",
        help=f"shoes dealt for the edge-distribution figure (default {COUNT_SHOES})",
    )
    p.add_argument("--only", metavar="NAMES", help="write only these figures, comma-separated")
    p.add_argument("--force", action="store_true", help="overwrite figure files that already exist in DIR")
    p.set_defaults(run=run)
