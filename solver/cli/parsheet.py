"""``baccarat parsheet``: the par sheet a casino files with its regulator, for any baccarat game."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from solver.cli.common import (
    Progress,
    add_shoe_options,
    add_tableau_option,
    command_line,
    commission_text,
    digits_option,
    emit,
    emit_results,
    house_from_args,
    parse_count,
    seed_option,
    shoes_from_args,
    write_csv,
)
from solver.errors import InputError, RunError
from solver.exact.numbers import exact
from solver.rules.tableau import PUNTO_BANCO

if TYPE_CHECKING:
    from solver.analysis.dealt_game import Simulation
    from solver.analysis.parsheet import ParSheet

FORMATS = ("text", "pdf", "latex", "csv", "json", "jsonl")
OUT_DEFAULT = ("pdf", "csv", "json")
"""What ``--out DIR`` writes unless ``--format`` says otherwise (the PDF's LaTeX source beside it)."""

FILE_NAMES = {"pdf": "parsheet.pdf", "latex": "parsheet.tex", "csv": "parsheet.csv", "json": "parsheet.json"}
DEFAULT_BETS = "banker,player,tie_8to1"
PDFLATEX_SECONDS = 300

NO_PDFLATEX = (
    "--format pdf needs pdflatex, which is not installed (Debian: apt-get install texlive-latex-base "
    "texlive-latex-recommended lmodern); or ask for --format latex,csv,json"
)

EPILOG = """\
wagers: Banker (at --commission), Player and Tie 8 to 1 by default; --bets NAMES picks catalogue bets \
(baccarat punto --bets list), --bet FILE adds your own pay tables (alone unless --bets is given). A \
--tableau sheet that says what the Tie pays sets the Tie's pay.

games: one sheet per shoe (--decks 6,8) and commission (--commission 1/20,1/25), and with several a \
comparison of them on one page.

output: without --out, the sheet on stdout (--format text, json, jsonl, csv or latex; json: one document \
whose sheets are a list, jsonl: a line per sheet). With --out DIR: parsheet.pdf (with its source \
parsheet.tex), parsheet.csv and parsheet.json, or those --format names (a comma list, e.g. --format \
latex,csv); existing files are kept unless --force. PDF needs pdflatex.

dealt game (ESTIMATES): --simulate N coups dealt in whole shoes (default 1e7; --no-simulate for the exact \
sheet alone) give each wager's edge over the whole shoe against the first coup (the cut-card effect) and \
the cross-check of the shoes against the exact law; wagers not settled on the winner alone are priced at \
every coup of --study N coups (default 1e6) by the counting study.

examples:
  baccarat parsheet                                  8 decks, text
  baccarat parsheet --decks 6,8 --out sheets         PDF, CSV and JSON for 6 and 8 decks
  baccarat parsheet --bet my_bet.toml --out sheets   your own side bet
  baccarat parsheet --commission 1/20,1/25 --no-simulate --format json
"""


def _formats(args: argparse.Namespace) -> tuple[str, ...]:
    if args.format is None:
        return OUT_DEFAULT if args.out is not None else ("text",)
    names = tuple(dict.fromkeys(f.strip() for f in args.format.split(",") if f.strip()))
    bad = [f for f in names if f not in FORMATS]
    if bad or not names:
        raise InputError(f"--format takes {', '.join(FORMATS)} (a comma list with --out), got {args.format!r}")
    if args.out is None:
        if len(names) > 1 or names[0] == "pdf":
            raise InputError("several formats, or pdf, go into files: give --out DIR")
    elif "text" in names or "jsonl" in names:
        raise InputError("--out DIR writes pdf, latex, csv and json files; text and jsonl go to stdout (leave out --out)")
    return names


def _commissions(args: argparse.Namespace, house: object) -> list[str]:
    text = commission_text(args, house, "1/20")  # type: ignore[arg-type]
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise InputError("--commission takes a commission or a comma list, e.g. 1/20,1/25")
    for p in parts:
        alpha = exact(p, "--commission")
        if not 0 <= alpha < 1:
            raise InputError(f"--commission must lie in [0, 1), got {p}")
    return parts


def _simulation(args: argparse.Namespace) -> Simulation | None:
    from solver.analysis.dealt_game import Simulation

    if args.no_simulate:
        if args.simulate is not None or args.study is not None:
            raise InputError("--no-simulate leaves out the dealt game: give it without --simulate and --study")
        return None
    from solver.cli.messages import KERNELS, note_compiling
    from solver.simulate.engines import resolve

    note_compiling(KERNELS["count"] + (KERNELS["deal"] if resolve() == "numba" else ()))
    return Simulation(
        coups=args.simulate or Simulation.coups, study=args.study or Simulation.study, seed=args.seed, workers=args.workers
    )


def sheets_from_args(args: argparse.Namespace) -> list[ParSheet]:
    """Every game's par sheet the options ask for (shoes × commissions)."""
    from solver.analysis.parsheet import par_sheet
    from solver.cli.punto import chosen_bets

    house = house_from_args(args)
    tableau = house.tableau if house is not None else PUNTO_BANCO
    name = house.name if house is not None else "punto banco"
    if args.bets is None and not args.bet:
        args.bets = DEFAULT_BETS
    if args.bets is not None and args.bets.strip() in ("list", "all"):
        raise InputError("--bets takes the names of the wagers on the sheet (baccarat punto --bets list names them)")
    shoes = shoes_from_args(args)
    commissions = _commissions(args, house)
    simulation = _simulation(args)
    burn = args.burn or "turn"
    from solver.simulate import parse_burn

    parse_burn(burn)  # a burn the simulator cannot deal is refused before any work
    games = [(shoe, c) for shoe in shoes for c in commissions]
    out = []
    for k, (shoe, c) in enumerate(games):
        bets, _ = chosen_bets(args, c, house)
        progress = Progress(1, f"game {k + 1}/{len(games)}: shoes")

        def tick(what: str, done: int, total: int, p: Progress = progress) -> None:
            p.total = total
            p.update(done)

        with progress:
            out.append(
                par_sheet(
                    shoe,
                    bets,
                    Fraction(exact(c, "--commission")),
                    tableau,
                    name,
                    cut=args.cut or 14,
                    burn=burn,
                    simulation=simulation,
                    command=command_line(args),
                    progress=tick,
                )
            )
    return out


def compile_pdf(tex: str) -> bytes:
    """The PDF pdflatex makes of ``tex`` (in a temporary directory).

    Raises:
        RunError: pdflatex is missing, fails, or takes longer than :data:`PDFLATEX_SECONDS`.
    """
    exe = shutil.which("pdflatex")
    if exe is None:
        raise RunError(NO_PDFLATEX)
    with tempfile.TemporaryDirectory(prefix="parsheet-") as tmp:
        (Path(tmp) / "parsheet.tex").write_text(tex, encoding="utf-8")
        try:
            done = subprocess.run(
                [exe, "-interaction=nonstopmode", "-halt-on-error", "parsheet.tex"],
                cwd=tmp,
                capture_output=True,
                timeout=PDFLATEX_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise RunError(f"pdflatex took longer than {PDFLATEX_SECONDS} s on the par sheet") from None
        pdf = Path(tmp) / "parsheet.pdf"
        if done.returncode != 0 or not pdf.exists():
            first = next((ln for ln in done.stdout.decode(errors="replace").splitlines() if ln.startswith("!")), "no PDF made")
            raise RunError(f"pdflatex failed on the par sheet: {first}")
        return pdf.read_bytes()


def run(args: argparse.Namespace) -> int:
    from solver.report.parsheet import CSV_HEADER, comparison_text, parsheet_csv_rows, parsheet_dict, parsheet_text
    from solver.report.parsheet_tex import parsheet_tex
    from solver.store.files import check_out_dir, check_writable, write_files

    formats = _formats(args)
    digits = args.digits
    targets: dict[str, Path] = {}
    if args.out is not None:
        out = check_out_dir(args.out)  # before the work: a directory that cannot take the files is refused at once
        names = list(formats) + (["latex"] if "pdf" in formats and "latex" not in formats else [])
        targets = {f: out / FILE_NAMES[f] for f in names}
        check_writable(targets.values(), args.force)
        if "pdf" in formats and shutil.which("pdflatex") is None:
            raise RunError(NO_PDFLATEX)
    sheets = sheets_from_args(args)
    command = command_line(args)
    docs = [parsheet_dict(s, digits) for s in sheets]
    if not targets:
        fmt = formats[0]
        if fmt in ("json", "jsonl"):
            emit_results(docs, args, key="sheets", lines=fmt == "jsonl")
        elif fmt == "csv":
            write_csv(CSV_HEADER, (row for s in sheets for row in parsheet_csv_rows(s, digits)))
        elif fmt == "latex":
            emit([parsheet_tex(sheets, command, digits).rstrip("\n")])
        else:
            texts = [parsheet_text(s, digits) for s in sheets]
            if len(sheets) > 1:
                texts.append(comparison_text(sheets, digits))
            emit(["\n\n".join(texts)])
        return 0
    import csv
    import io

    from solver.cli.common import json_file_text

    files: dict[Path, bytes] = {}
    tex = parsheet_tex(sheets, command, digits)
    if "latex" in targets:
        files[targets["latex"]] = tex.encode("utf-8")
    if "pdf" in targets:
        files[targets["pdf"]] = compile_pdf(tex)
    if "csv" in targets:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(CSV_HEADER)
        w.writerows(row for s in sheets for row in parsheet_csv_rows(s, digits))
        files[targets["csv"]] = buf.getvalue().encode("utf-8")
    if "json" in targets:
        files[targets["json"]] = json_file_text({"sheets": docs}, args).encode("utf-8")
    for path in write_files(files, overwrite=args.force):
        emit([str(path)])
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "parsheet",
        help="the par sheet of a game: every wager's pay table, edge, volatility and hold, as PDF, CSV, JSON",
        description="The par sheet a casino files with its regulator, for any baccarat game: the rules (the drawing "
        "tableau, the commission, the shoe, the cut card and burn), and for every wager each pay line's combinations "
        "(exact counts of card sequences), probability, pays and return, the total return, the house edge per hand and "
        "per resolved wager, the hit frequency, the standard deviation, the volatility index at 90, 95 and 99 %, and "
        "the range of the house's hold over 1,000 to 1,000,000 hands; the dealt game's cut-card effect and a "
        "simulation check (estimates).",
        epilog=EPILOG,
    )
    add_shoe_options(p, several=True)
    g = p.add_argument_group("game")
    g.add_argument(
        "--commission", metavar="ALPHA", help="Banker commission, or a comma list (default 1/20, or the --tableau sheet's)"
    )
    add_tableau_option(g)
    g.add_argument("--bets", metavar="NAMES", help=f"catalogue wagers, comma-separated (default {DEFAULT_BETS})")
    g.add_argument("--bet", action="append", metavar="FILE", help="your own pay tables, a TOML or JSON file (repeatable)")
    g.add_argument("--cut", type=parse_count, metavar="N", help="cards behind the cut card (default 14)")
    g.add_argument("--burn", metavar="B", help="none, a number of cards, or turn (default turn)")
    o = p.add_argument_group("output")
    o.add_argument("--out", metavar="DIR", help="write the files into DIR (created if needed)")
    o.add_argument(
        "--format",
        metavar="F",
        help="text, json, jsonl, csv or latex on stdout; with --out: pdf, latex, csv, json (default pdf,csv,json)",
    )
    o.add_argument("--digits", type=digits_option, default=6, metavar="N", help="decimal places (default 6; percentages N-2)")
    o.add_argument("--force", action="store_true", help="overwrite files that already exist in DIR")
    s = p.add_argument_group("dealt game (estimates)")
    s.add_argument("--simulate", type=parse_count, metavar="N", help="coups dealt in whole shoes (default 1e7)")
    s.add_argument(
        "--study",
        type=parse_count,
        metavar="N",
        help="coups of the counting study, for wagers not settled on the winner (default 1e6)",
    )
    s.add_argument("--no-simulate", action="store_true", help="the exact sheet alone, no dealt game")
    s.add_argument("--seed", type=seed_option, default=0, help="seed of the dealt shoes (default 0)")
    s.add_argument("--workers", type=parse_count, metavar="N", help="local processes (default: all cores)")
    p.set_defaults(run=run)
