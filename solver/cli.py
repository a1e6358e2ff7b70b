"""The ``baccarat`` command.

Results go to stdout, progress and messages to stderr. Exact by default; ``--digits N`` asks for
decimals. Any error the user can cause is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import csv
import json
import shlex
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn, TextIO

from solver.cards import Shoe, parse_decks, parse_shoe
from solver.errors import BaccaratError, InputError

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


SHOE_HELP = """\
shoe options (all commands):
  --decks D      D standard decks (default 8), 'inf' for an infinite deck (with replacement),
                 or a list such as 1,2,8,inf for one result per shoe
  --shoe COUNTS  10 counts by point value (tens and court cards first), e.g.
                 --shoe 128,32,32,32,32,32,32,32,32,32, or 13 counts by rank A,2,...,10,J,Q,K
  --remove CARDS cards already seen, taken out of the shoe, e.g. --remove 5,5,K,0,9
                 (A, 2-9, T or 10, J, Q, K; 0 = any ten-valued card)"""


def add_shoe_options(p: argparse.ArgumentParser, default_decks: str = "8") -> None:
    g = p.add_argument_group("shoe")
    g.add_argument("--decks", metavar="D", help=f"deck count, 'inf', or a comma list (default {default_decks})")
    g.add_argument("--shoe", metavar="COUNTS", help="10 counts by point value or 13 by rank, comma-separated")
    g.add_argument("--remove", metavar="CARDS", help="cards to take out of the shoe, comma-separated")
    p.set_defaults(default_decks=default_decks)


def add_format_options(p: argparse.ArgumentParser, formats: Sequence[str] = ("text", "json", "csv")) -> None:
    p.add_argument("--format", choices=formats, default="text", help="output format (default text)")
    p.add_argument(
        "--digits",
        type=_nonnegative_int,
        metavar="N",
        help="also print decimals rounded to N places (exact fractions are always printed)",
    )


def _nonnegative_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 0 or n > 60:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to 60, got {n}")
    return n


def shoes_from_args(args: argparse.Namespace) -> list[Shoe]:
    """The shoes named by ``--decks`` / ``--shoe`` / ``--remove`` (a deck list gives several)."""
    if args.shoe is not None:
        if args.decks is not None:
            raise InputError("give either --decks or --shoe, not both")
        return [parse_shoe(shoe=args.shoe, remove=args.remove)]
    shoes = parse_decks(args.decks if args.decks is not None else args.default_decks)
    if args.remove:
        shoes = [s.remove(t for t in args.remove.split(",") if t.strip()) for s in shoes]
    return shoes


# -- batch files ------------------------------------------------------------------------------------

_LINE_PARSER = _Parser(prog="shoe line", add_help=False)
_LINE_PARSER.add_argument("--decks")
_LINE_PARSER.add_argument("--shoe")
_LINE_PARSER.add_argument("--remove")


def read_shoe_lines(stream: TextIO, source: str) -> list[tuple[int, str, Shoe]]:
    """Parse a batch file: one shoe per line in the ``--decks``/``--shoe``/``--remove`` syntax.

    Blank lines and ``#`` comments are skipped. Every line is checked before any work starts;
    the first bad line raises :class:`InputError` naming it.
    """
    out = []
    for number, raw in enumerate(stream, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            words = shlex.split(line)
            known, extra = _LINE_PARSER.parse_known_args(words)
            if extra:
                raise InputError(f"unexpected {' '.join(extra)!r}")
            if known.decks is not None and "," in known.decks:
                raise InputError("one shoe per line: --decks takes a single count here")
            shoe = parse_shoe(decks=known.decks, shoe=known.shoe, remove=known.remove)
        except (BaccaratError, ValueError) as e:
            raise InputError(f"{source}, line {number}: {e}") from None
        except SystemExit:
            raise InputError(f"{source}, line {number}: cannot read {line!r}") from None
        out.append((number, line, shoe))
    return out


class Progress:
    """A quiet progress line on stderr, shown only once work has taken more than a second."""

    def __init__(self, total: int, what: str, stream: TextIO | None = None) -> None:
        self.total, self.what, self.stream = total, what, stream or sys.stderr
        self.start = time.perf_counter()
        self.shown = False
        self.last = 0.0

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if now - self.start < 1.0 or now - self.last < 0.2:
            return
        self.last, self.shown = now, True
        rate = done / (now - self.start)
        self.stream.write(f"\r{self.what}: {done}/{self.total} ({rate:,.0f}/s)")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write(f"\r{self.what}: {self.total}/{self.total} done in {time.perf_counter() - self.start:.1f} s\n")


def _open_input(name: str) -> TextIO:
    if name == "-":
        return sys.stdin
    try:
        return open(name, encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read {name}: {e.strerror}") from None


def emit(rows: Iterable[str]) -> None:
    for r in rows:
        sys.stdout.write(r + "\n")


def write_csv(header: Sequence[str], rows: Iterable[Sequence[str]]) -> None:
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)


def render(results: Sequence[Any], args: argparse.Namespace, as_dict: Callable[..., dict[str, object]],
           as_csv: tuple[Sequence[str], Callable[..., list[tuple[str, ...]]]], as_text: Callable[..., str],
           as_table: Callable[..., str]) -> None:
    """Write results in the format asked for: one JSON object per result (indented when alone), CSV
    rows, one text report, or a text table with one row per result."""
    if args.format == "json":
        emit(json.dumps(as_dict(r, args.digits), indent=None if len(results) > 1 else 2) for r in results)
    elif args.format == "csv":
        header, rows = as_csv
        write_csv(header, (row for r in results for row in rows(r, args.digits)))
    elif len(results) == 1:
        emit([as_text(results[0], args.digits)])
    else:
        emit([as_table(results, args.digits)])


# -- punto ------------------------------------------------------------------------------------------

PUNTO_EPILOG = """\
examples:
  baccarat punto                                   8 decks, exact report
  baccarat punto --decks 6 --digits 6              6 decks, decimals to 6 places
  baccarat punto --decks 1,2,4,6,8,inf             one row per shoe
  baccarat punto --remove 5,5,K,0,9 --format json  a partly dealt shoe, as JSON
  baccarat punto --shoes seen.txt                  one JSON line per shoe in the file
"""


def _cmd_punto(args: argparse.Namespace) -> int:
    from solver.bets import punto_banco
    from solver.report.punto import CSV_HEADER, punto_csv_rows, punto_dict, punto_table_text, punto_text

    if args.shoes is not None:
        stream = _open_input(args.shoes)
        lines = read_shoe_lines(stream, "standard input" if args.shoes == "-" else args.shoes)
        progress = Progress(len(lines), "shoes")
        for i, (number, line, shoe) in enumerate(lines):
            record = punto_dict(punto_banco(shoe, args.commission), args.digits)
            record = {"line": number, "input": line, **record}
            sys.stdout.write(json.dumps(record) + "\n")
            progress.update(i + 1)
        progress.close()
        return 0
    results = [punto_banco(s, args.commission) for s in shoes_from_args(args)]
    render(results, args, punto_dict, (CSV_HEADER, punto_csv_rows), punto_text, punto_table_text)
    return 0


def _add_punto(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "punto",
        help="punto banco: exact outcome law and bet edges",
        description="Punto banco on a shoe: the exact probabilities of banker, player and tie, and the "
        "exact house edge of every bet (Banker at 0.95 to 1, Player, Tie at 8 and 9 to 1, EZ Baccarat, "
        "Dragon 7, Panda 8, and the Player and Banker Pair side bets where the shoe's ranks are known).",
        epilog=SHOE_HELP + "\n\n" + PUNTO_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_shoe_options(p)
    add_format_options(p)
    p.add_argument("--commission", default="1/20", metavar="ALPHA",
                   help="Banker bet commission, e.g. 0.05 or 1/20 (default 1/20)")
    p.add_argument("--shoes", metavar="FILE",
                   help="batch: one shoe per line (--decks/--shoe/--remove syntax), '-' for stdin; "
                   "writes one JSON object per line")
    p.set_defaults(run=_cmd_punto)


# -- chemin ------------------------------------------------------------------------------------------

CHEMIN_EPILOG = """\
models (Ethier's names): dealing A = infinite deck (--decks inf), B = the shoe without replacement;
information 1 = each side sees his own total; 2 = the banker sees his composition; 3 = both do.
freedom: casino = the rule sheet (banker free at 3 v 9 and 5 v 4); parlor = every banker decision free.

examples:
  baccarat chemin --decks inf --information 1 --freedom parlor     Kemeny and Snell's game
  baccarat chemin --decks 6 --information 3 --freedom parlor       Ethier and Gamez's B3
  baccarat chemin --decks 1,2,3,4,5,6,7,8,inf --information 2      one row per shoe
  baccarat chemin --decks 6 --commission 0.05 --format json        the casino game with commission
  baccarat chemin --decks 6 --information 3 --certificate b3.json  write a checkable certificate
"""


def _cmd_chemin(args: argparse.Namespace) -> int:
    from solver.bets import exact
    from solver.equilibrium import solve
    from solver.game import build_game
    from solver.report.chemin import CSV_HEADER, chemin_csv_rows, chemin_dict, chemin_table_text, chemin_text

    alpha = exact(args.commission, "commission")
    shoes = shoes_from_args(args)
    progress = Progress(len(shoes), "games")
    solutions = []
    for k, shoe in enumerate(shoes):
        solutions.append(solve(build_game(shoe, args.information, args.freedom, alpha)))
        progress.update(k + 1)
    progress.close()
    if args.certificate:
        from solver.certificate import write_certificates

        write_certificates(solutions, args.certificate, overwrite=args.force)
    render(solutions, args, chemin_dict, (CSV_HEADER, chemin_csv_rows), chemin_text, chemin_table_text)
    return 0


def _add_chemin(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "chemin",
        help="chemin de fer: the ponte-versus-banker game, solved exactly",
        description="Chemin de fer as a game: optimal (or, with commission, equilibrium) strategies for the "
        "ponte and the banker, the exact value, certified in exact rationals, with iterated dominance.",
        epilog=SHOE_HELP + "\n\n" + CHEMIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_shoe_options(p, default_decks="6")
    add_format_options(p)
    p.add_argument("--information", type=int, choices=(1, 2, 3), default=1, help="information model (default 1)")
    p.add_argument("--freedom", choices=("casino", "parlor"), default="casino", help="which banker decisions are free")
    p.add_argument("--commission", default="0", metavar="ALPHA", help="house share of banker wins, 0 to 1/10 (default 0)")
    p.add_argument("--certificate", metavar="FILE", help="write a certificate (JSON) that proofs/check.py verifies")
    p.add_argument("--force", action="store_true", help="overwrite an existing certificate file")
    p.set_defaults(run=_cmd_chemin)


# -- report -----------------------------------------------------------------------------------------

REPORT_EPILOG = """\
examples:
  baccarat report                           the full report, each game on its usual shoe
  baccarat report --decks 6 --format json   both games on 6 decks, as JSON
  baccarat report --format latex > r.tex    a LaTeX document (pdflatex r.tex)
  baccarat report --commission 0            leave out the games with commission
"""


def _report_shoes(args: argparse.Namespace) -> tuple[Shoe, Shoe]:
    """(punto banco shoe, chemin de fer shoe): each as played unless the user named one for both."""
    if args.decks is None and args.shoe is None:
        return parse_shoe(decks="8", remove=args.remove), parse_shoe(decks="6", remove=args.remove)
    shoes = shoes_from_args(args)
    if len(shoes) != 1:
        raise InputError("report takes one shoe; use 'baccarat punto --decks LIST' or 'baccarat tables' for a table")
    return shoes[0], shoes[0]


def _report_command(args: argparse.Namespace) -> str:
    """The report command as the user could type it again (for the comment in generated LaTeX)."""
    words = ["baccarat", "report"]
    for option in ("decks", "shoe", "remove"):
        if getattr(args, option) is not None:
            words += [f"--{option}", getattr(args, option)]
    if args.commission != "1/20":
        words += ["--commission", args.commission]
    words += ["--format", args.format]
    if args.digits is not None:
        words += ["--digits", str(args.digits)]
    return shlex.join(words)


def _cmd_report(args: argparse.Namespace) -> int:
    from solver.bets import exact
    from solver.report.full import full_dict, full_latex, full_report, full_text, report_steps

    punto_shoe, chemin_shoe = _report_shoes(args)
    alpha = exact(args.commission, "commission")
    progress = Progress(report_steps(alpha), "report")
    rep = full_report(punto_shoe, chemin_shoe, alpha, progress=progress.update)
    progress.close()
    if args.format == "json":
        emit([json.dumps(full_dict(rep, args.digits), indent=2)])
    elif args.format == "latex":
        sys.stdout.write(full_latex(rep, args.digits, command=_report_command(args)))
    else:
        emit([full_text(rep, args.digits)])
    return 0


def _add_report(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "report",
        help="the full report on a shoe (the main job)",
        description="The full exact report: punto banco's outcome law and bet edges; chemin de fer's casino and "
        "parlor games under information 1, 2 and 3, without commission and with the casino's commission, with "
        "values, optimal strategies, the banker's tableau, certification and uniqueness.",
        epilog=REPORT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    g = p.add_argument_group("shoe")
    g.add_argument("--decks", metavar="D", help="deck count or 'inf', for both games (default: each game's shoe as it is "
                   "played, 8 decks for punto banco and 6 for chemin de fer)")
    g.add_argument("--shoe", metavar="COUNTS", help="10 counts by point value (tens first) or 13 by rank (A, 2, ..., K), "
                   "separated by commas, for both games")
    g.add_argument("--remove", metavar="CARDS", help="cards already seen, taken out of each game's shoe, e.g. 5,5,K,0,9")
    p.set_defaults(default_decks="8")
    add_format_options(p, ("text", "json", "latex"))
    p.add_argument("--commission", default="1/20", metavar="ALPHA",
                   help="house share of the banker's wins in the second set of chemin de fer games, "
                   "0 to 1/10 (default 1/20; 0 leaves them out)")
    p.set_defaults(run=_cmd_report)


# -- tables -----------------------------------------------------------------------------------------

TABLES_DECKS = "1,2,3,4,5,6,7,8,inf"

TABLES_EPILOG = """\
Writes one LaTeX file per table (booktabs; each with a caption, a label and a comment naming this
command) and prints their paths. docs/report.tex inputs them from tables/:

  baccarat tables --out docs/tables && cd docs && pdflatex report.tex

The exact appendix tables and the banker's tableaux use each game's shoe as it is played (punto banco
8 decks, chemin de fer 6).

examples:
  baccarat tables --out docs/tables
  baccarat tables --out tables --decks 1,2,6,8,inf --digits 3
"""


def _cmd_tables(args: argparse.Namespace) -> int:
    import os

    from solver.bets import punto_banco
    from solver.equilibrium import solve
    from solver.game import build_game
    from solver.report.full import MODELS
    from solver.report.latex import paper_tables

    shoes = parse_decks(args.decks)
    punto_standard, chemin_standard = Shoe.decks(8), Shoe.decks(6)
    chemin_shoes = shoes + ([chemin_standard] if chemin_standard not in shoes else [])
    punto_shoes = shoes + ([punto_standard] if punto_standard not in shoes else [])
    progress = Progress(len(punto_shoes) + len(chemin_shoes) * len(MODELS), "tables")
    done = 0
    puntos = {}
    for shoe in punto_shoes:
        puntos[shoe] = punto_banco(shoe)
        done += 1
        progress.update(done)
    solutions = []
    for shoe in chemin_shoes:
        for freedom, information in MODELS:
            solutions.append(solve(build_game(shoe, information, freedom)))
            done += 1
            progress.update(done)
    progress.close()
    command = ["baccarat", "tables", "--out", args.out]
    if args.decks != TABLES_DECKS:
        command += ["--decks", args.decks]
    if args.digits != 4:
        command += ["--digits", str(args.digits)]
    files = paper_tables(
        [puntos[s] for s in shoes],
        [x for x in solutions if x.game.shoe in shoes],
        puntos[punto_standard],
        [x for x in solutions if x.game.shoe == chemin_standard],
        args.digits,
        shlex.join(command),
    )
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


def _add_tables(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "tables",
        help="write the LaTeX tables a paper needs",
        description="Write the LaTeX tables (booktabs) of punto banco by deck count, the bet edges, chemin de fer's "
        "values and optimal strategies by model and deck count, the banker's optimal tableaux, and exact appendices.",
        epilog=TABLES_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--out", required=True, metavar="DIR", help="directory to write the .tex files into (created if needed)")
    p.add_argument("--decks", default=TABLES_DECKS, metavar="LIST",
                   help=f"deck counts for the by-shoe tables, 'inf' for an infinite deck (default {TABLES_DECKS})")
    p.add_argument("--digits", type=_nonnegative_int, default=4, metavar="N",
                   help="decimal places where a number is rounded (default 4)")
    p.set_defaults(run=_cmd_tables)


# -- simulate and crosscheck (bodies in solver/sim_commands.py) --------------------------------------

SIM_EPILOG = """\
strategies (--game chemin):
  kemeny-snell   casino tableau, ponte draws at 5 with probability 9/11, banker draws at 3/9 and
                 stands at 5/4 (the default)
  solved         the solver's certified strategy for this shoe under --information (default 3),
                 --freedom (default parlor) and --commission: an equilibrium, mixed where it mixes
  casino, parlor a tableau whose free cells you set with --draw, e.g. --draw P5=9/11 --draw B3/9=D
  FILE.json      draw tables by cards: {"player": 10x10, "banker": 10x10x11} probabilities
cells for --draw: P<total>=<p> (ponte), B<total>/<third card 0-9 or S>=<p> (banker); p is D, S,
  or an exact probability such as 9/11
customs: --burn none | N | turn (punto banco: turn the first card, burn that many, a ten burns 10);
  --cut N cards behind the cut card (punto banco 14 by default, also 16; chemin de fer 7;
  baccara banque 10); --extra-coup deals one more coup after the cut card (a punto banco custom)
"""


def _add_table_options(p: argparse.ArgumentParser, simulate: bool) -> None:
    g = p.add_argument_group("game")
    g.add_argument("--game", choices=("punto", "chemin"), default="punto", help="punto banco or chemin de fer (default punto)")
    g.add_argument("--strategy", metavar="S", help="chemin de fer strategy: kemeny-snell (default), solved, casino, "
                   "parlor, or a JSON file of draw tables")
    g.add_argument("--information", type=int, choices=(1, 2, 3), default=3,
                   help="with --strategy solved: the information model solved for (default 3)")
    g.add_argument("--freedom", choices=("casino", "parlor"), default="parlor",
                   help="with --strategy solved: which banker decisions are free (default parlor)")
    g.add_argument("--draw", action="append", metavar="CELL=P", help="set one tableau cell, e.g. P5=9/11 or B3/9=D (repeatable)")
    g.add_argument("--commission", default="1/20", metavar="ALPHA", help="commission on banker wins (default 1/20)")
    t = p.add_argument_group("dealing")
    t.add_argument("--burn", metavar="B", help="none, a number of cards, or turn (default: turn for punto, none for chemin)")
    if simulate:
        t.add_argument("--cut", type=_positive_count, metavar="N",
                       help="cards behind the cut card (default 14 for punto, 7 for chemin)")
        t.add_argument("--extra-coup", action="store_true", help="deal one more coup after the cut card appears")
    r = p.add_argument_group("run")
    r.add_argument("--seed", type=int, default=0, help="seed of the run (default 0); same seed, same result")
    r.add_argument("--workers", type=_positive_count, metavar="N", help="local processes (default: all cores)")
    r.add_argument("--scheduler", metavar="ADDRESS", help="a Dask distributed scheduler, e.g. tcp://host:8786 "
                   "(pip install 'baccarat-solver[dask]')")


def _positive_count(text: str) -> int:
    from solver.sim_commands import parse_count

    return parse_count(text)


def _cmd_simulate(args: argparse.Namespace) -> int:
    from solver.sim_commands import cmd_simulate

    return cmd_simulate(args)


def _add_simulate(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "simulate",
        help="deal real shoes: estimates by coup, whole shoe versus first coup, cut-card effect",
        description="Deal shuffled shoes the way the table does (burn, cut card, coup in progress finished) and "
        "report estimates with standard errors: the first coup of each shoe (whose law is exactly the "
        "enumerator's), every coup of the shoe, and the cut-card effect between them.",
        epilog=SHOE_HELP + "\n\n" + SIM_EPILOG + "\nexamples:\n"
        "  baccarat simulate --coups 1e8 --seed 1                     punto banco, 8 decks, cut at 14\n"
        "  baccarat simulate --game chemin --decks 6 --coups 1e8      chemin de fer, Kemeny-Snell strategy\n"
        "  baccarat simulate --first-coup --coups 1e7 --format json   one coup per fresh shoe\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_shoe_options(p)
    add_format_options(p)
    _add_table_options(p, simulate=True)
    size = p.add_mutually_exclusive_group()
    size.add_argument("--coups", type=_positive_count, default=10**6, metavar="N",
                      help="about N coups, in whole shoes (default 1e6)")
    size.add_argument("--shoes", type=_positive_count, metavar="N", help="exactly N shoes")
    p.add_argument("--first-coup", action="store_true", help="deal one coup per freshly shuffled shoe")
    p.set_defaults(run=_cmd_simulate)


def _cmd_crosscheck(args: argparse.Namespace) -> int:
    from solver.sim_commands import cmd_crosscheck

    return cmd_crosscheck(args)


def _add_crosscheck(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "crosscheck",
        help="hold simulated coups (ours, or a file of dealt coups) against the exact law",
        description="Check a dealing engine against the exact law: every coup legal under the tableau, then "
        "chi-square tests of the outcome, detail and card laws and z-scores of the bets, at a stated false-alarm "
        "rate, with the smallest deviation the sample could detect. Exit code 0 pass, 1 reject, 2 unusable input.",
        epilog=SHOE_HELP + "\n\n" + SIM_EPILOG + "\ncoup file: one coup per line, the cards in deal order separated by "
        "commas,\n  optionally ';' and the outcome reported (B, P or T); '#' starts a comment:\n"
        "    5,K,2,9,7,3;B\n    9,4,Q,2;P\n\nexamples:\n"
        "  baccarat crosscheck --game punto --decks 8 --coups dealt.txt\n"
        "  engine | baccarat crosscheck --coups -\n"
        "  baccarat crosscheck --simulate 1e7 --seed 1                our own simulator\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_shoe_options(p)
    p.add_argument("--format", choices=("text", "json", "csv"), default="text", help="output format (default text)")
    _add_table_options(p, simulate=False)
    p.add_argument("--coups", metavar="FILE", help="a file of dealt coups, '-' for standard input")
    p.add_argument("--simulate", type=_positive_count, metavar="N",
                   help="check our own simulator on N coups, each from a freshly shuffled shoe (default 1e6)")
    p.add_argument("--alpha", default="1/1000", metavar="RATE", help="false-alarm rate of the whole check (default 1/1000)")
    p.set_defaults(run=_cmd_crosscheck)


# -- main -------------------------------------------------------------------------------------------

COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [  # type: ignore[type-arg]
    _add_report, _add_punto, _add_chemin, _add_tables, _add_simulate, _add_crosscheck,
]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="baccarat",
        description="Exact solver for baccarat: punto banco, chemin de fer, with certificates.",
        epilog="Run 'baccarat COMMAND --help' for a command's options and examples.\n\n"
        "examples:\n  baccarat report\n  baccarat punto --decks 6 --remove 5,5,K --format json\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return int(args.run(args))
    except BaccaratError as e:
        sys.stderr.write(f"baccarat: error: {e}\n")
        return EXIT_USAGE
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("baccarat: interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
