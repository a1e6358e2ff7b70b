"""``baccarat chemin``: the ponte-versus-banker game, solved exactly and certified; with a commission
range, the equilibrium as exact pieces over that range."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.cli.common import (
    JSON_FORMATS,
    add_export_option,
    add_format_options,
    add_shoe_options,
    add_tableau_option,
    commission_text,
    emit,
    emit_results,
    export_target,
    house_from_args,
    note,
    render,
    shoes_from_args,
)
from solver.cli.sweep_lines import add_shoes_option
from solver.cli.workers import SWEEP_WORKERS, add_run_options
from solver.errors import InputError

if TYPE_CHECKING:
    from solver.cards import Shoe
    from solver.chemin.commission.sweep import CommissionSweep
    from solver.cli.sweep_lines import LineShoe, LineShoes
    from solver.simulate.tasks import Idle

EPILOG = """\
models (Ethier's names):
  dealing              A: an infinite deck (--decks inf); B: the shoe, dealt without replacement
  --information        1: each side sees his own total; 2: the banker also sees his two cards; 3: both do
  --freedom            casino: the rule sheet (the banker free at 3 v 9 and 5 v 4); parlor: every banker \
decision free
  --tableau NAME|FILE  instead, a house's own sheet: its free cells are the decisions; its commission too
  --commission         one value, or a range LO..HI within 0..1/10 for the equilibrium as exact pieces over it

JSON: --format json writes one document, its results a list (one per shoe); --format jsonl one line per \
shoe. --shoes FILE solves each line's shoe as a deck list's, every result with the line's number and \
text (line, input); with --format jsonl each line is answered as it is solved (a pipe as it arrives).

examples:
  baccarat chemin --decks inf --information 1 --freedom parlor     Kemeny and Snell's game
  baccarat chemin --decks 6 --information 3 --freedom parlor       Ethier and Gamez's B3
  baccarat chemin --decks 1,2,3,4,5,6,7,8,inf --information 2      one row per shoe
  baccarat chemin --decks 6 --commission 0.05 --format json        the casino game with commission
  baccarat chemin --decks 6 --information 2 --commission 0..1/10   the equilibrium for every commission
  baccarat chemin --decks 6 --tableau simplified                   a house's simplified sheet
  baccarat chemin --shoes seen.txt --format jsonl --workers 2      each line's shoe, in order
  baccarat chemin --decks 6 --information 3 --certificate b3.json  write a checkable certificate
  baccarat chemin --freedom parlor --export efg b1.efg             the parlor game B1 for Gambit
"""


def commission_range(text: str) -> tuple[str, str] | None:
    """``LO..HI`` as its two ends (checked by the sweep), or None for a single commission."""
    if ".." not in text:
        return None
    lo, _, hi = text.partition("..")
    if not lo.strip() or not hi.strip():
        raise InputError(f"--commission: a range is written LO..HI, e.g. 0..1/10, got {text!r}")
    return lo.strip(), hi.strip()


def run(args: argparse.Namespace) -> int:
    from solver.cli.sweep_lines import line_shoes
    from solver.cli.sweeps import chemin_solutions
    from solver.exact.numbers import exact
    from solver.report.chemin import CSV_HEADER, chemin_csv_rows, chemin_dict, chemin_table_text, chemin_text

    house = house_from_args(args)
    if house is not None and args.freedom is not None:
        raise InputError("give --freedom or --tableau, not both (a house's sheet says which decisions are free)")
    freedom = house.tableau if house is not None else (args.freedom or "casino")
    commission = commission_text(args, house, "0")
    span = commission_range(commission)
    if span is not None and args.export:
        raise InputError("--export writes one game: give one commission, not a range")
    if span is None and args.format == "latex":
        raise InputError("--format latex is for a commission range (e.g. --commission 0..1/10)")
    if span is not None:
        return _run_range(args, freedom, span)
    alpha = exact(commission, "commission")
    if args.shoes is not None:  # the options checked first, then the lines (read first unless --format jsonl)
        from solver.chemin.game import game_model

        game_model(args.information, freedom, alpha)
    lines = line_shoes(args)
    if args.export:
        from solver.chemin.gambit import write_gambit
        from solver.chemin.game import build_game

        form, path, shoe = export_target(args)
        note(f"wrote {write_gambit(build_game(shoe, args.information, freedom, alpha), form, path, args.force)} (Gambit {form})")
        return 0
    if lines is not None:
        return _run_lines(args, lines, freedom, alpha)
    solutions = chemin_solutions(args, shoes_from_args(args), args.information, freedom, alpha)
    if args.certificate:
        from solver.chemin.certificate import write_certificates

        write_certificates(solutions, args.certificate, overwrite=args.force)
    render(solutions, args, chemin_dict, (CSV_HEADER, chemin_csv_rows), chemin_text, chemin_table_text)
    return 0


def _run_lines(args: argparse.Namespace, lines: LineShoes, freedom: Any, alpha: Fraction) -> int:
    """``--shoes``: each line's game solved as a deck list's (solver.cli.sweep_lines)."""
    from solver.cli.sweep_lines import emit_line_results, progressed, solved, write_line_csv
    from solver.cli.sweeps import chemin_stream
    from solver.report.chemin import CSV_HEADER, chemin_csv_rows, chemin_dict, chemin_table_text

    pairs = progressed(solved(args, lines, lambda shoes: chemin_stream(args, shoes, args.information, freedom, alpha)), lines)
    written: list[Any] = []
    if args.certificate:  # every line's certificate, as a deck list's: written once every line is solved
        pairs = _kept(pairs, written)
    if not lines.streaming:
        pairs = iter(list(pairs))
        _certify(args, written)
    if args.format in JSON_FORMATS:
        emit_line_results(pairs, args, chemin_dict)
    elif args.format == "csv":
        write_line_csv(pairs, CSV_HEADER, chemin_csv_rows, args.digits)
    else:
        found = list(pairs)
        emit([chemin_table_text([s for _, s in found], args.digits, [line.number for line, _ in found])])
    lines.finish()
    if lines.streaming:
        _certify(args, written)
    return 0


def _kept(pairs: Iterator[tuple[LineShoe, Any]], kept: list[Any]) -> Iterator[tuple[LineShoe, Any]]:
    for pair in pairs:
        kept.append(pair[1])
        yield pair


def _certify(args: argparse.Namespace, solutions: list[Any]) -> None:
    if args.certificate and solutions:
        from solver.chemin.certificate import write_certificates

        write_certificates(solutions, args.certificate, overwrite=args.force)


def _run_range(args: argparse.Namespace, freedom: Any, span: tuple[str, str]) -> int:
    """The equilibrium over a commission range, piece by piece (solver.chemin.commission.sweep)."""
    import shlex

    from solver.chemin.commission.sweep import commission_span
    from solver.chemin.game import game_model
    from solver.cli.sweep_lines import line_shoes
    from solver.cli.sweeps import commission_range_stream, commission_ranges
    from solver.report.commission import sweep_dict, sweep_latex, sweep_text

    if args.certificate:
        raise InputError("--certificate is for one commission; a range is certified piece by piece by its solves")
    if args.format == "csv":
        raise InputError("--format csv is for one commission; a range prints as text, json, jsonl or latex")
    lo, hi = commission_span(*span)
    game_model(args.information, freedom, lo)  # the options checked before the lines are read
    lines = line_shoes(args)
    sweeps: Iterable[tuple[LineShoe | None, CommissionSweep]]
    if lines is None:
        sweeps = [(None, s) for s in commission_ranges(args, shoes_from_args(args), args.information, freedom, lo, hi)]
    else:
        from solver.cli.sweep_lines import progressed, solved

        def stream(shoes: Iterable[Shoe | Idle]) -> Iterator[CommissionSweep]:
            return commission_range_stream(args, shoes, args.information, freedom, lo, hi)

        sweeps = progressed(solved(args, lines, stream), lines)
    if args.format in JSON_FORMATS:
        emit_results(({**(line.fields() if line else {}), **sweep_dict(s, args.digits)} for line, s in sweeps), args)
    elif args.format == "latex":
        words = ["baccarat", "chemin"]
        for option in ("decks", "shoe", "remove", "shoes", "information", "freedom", "tableau", "commission", "digits"):
            if getattr(args, option) is not None:
                words += [f"--{option}", str(getattr(args, option))]
        command = shlex.join([*words, "--format", "latex"])
        d = args.digits if args.digits is not None else 4
        sys.stdout.write("".join((f"% {line.heading()}\n" if line else "") + sweep_latex(s, d, command) for line, s in sweeps))
    else:
        emit(["\n\n".join((f"{line.heading()}\n" if line else "") + sweep_text(s, args.digits) for line, s in sweeps)])
    if lines is not None:
        lines.finish()
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "chemin",
        help="chemin de fer: the ponte-versus-banker game, solved exactly",
        description="Chemin de fer as a game: optimal (or, with commission, equilibrium) strategies for the "
        "ponte and the banker, the exact value, certified in exact rationals, with iterated dominance; with a "
        "commission range, the equilibrium as exact functions of the commission, piece by piece.",
        epilog=EPILOG,
    )
    add_shoe_options(p, default_decks="6", several=True)
    add_format_options(p, ("text", "json", "csv", "latex"))
    p.add_argument("--information", type=int, choices=(1, 2, 3), default=1, help="information model (default 1)")
    p.add_argument("--freedom", choices=("casino", "parlor"), help="which banker decisions are free (default casino)")
    add_tableau_option(p)
    p.add_argument(
        "--commission",
        metavar="ALPHA",
        help="house share of banker wins, 0 to 1/10, or a range LO..HI such as 0..1/10 (default 0, or the --tableau sheet's)",
    )
    p.add_argument("--certificate", metavar="FILE", help="write a certificate (JSON) that proofs/check.py verifies")
    add_export_option(p)
    p.add_argument("--force", action="store_true", help="overwrite an existing certificate or --export file")
    add_shoes_option(p, "one result a line")
    add_run_options(p.add_argument_group("run"), SWEEP_WORKERS)
    p.set_defaults(run=run)
