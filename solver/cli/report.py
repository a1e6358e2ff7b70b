"""``baccarat report``: the full exact report on a shoe (the main job)."""

from __future__ import annotations

import argparse
import shlex
import sys

from solver.cards import Shoe, parse_shoe
from solver.cli.common import (
    JSON_FORMATS,
    Progress,
    add_format_options,
    add_tableau_option,
    commission_text,
    emit,
    emit_document,
    house_from_args,
    note,
    shoes_from_args,
    write_csv,
)
from solver.errors import InputError

EPILOG = """\
examples:
  baccarat report                           the full report, each game on its usual shoe
  baccarat report --decks 6 --format json   both games on 6 decks, as JSON
  baccarat report --format csv > r.csv      every number of the report, one a row
  baccarat report --format latex > r.tex    a LaTeX document (pdflatex r.tex)
  baccarat report --commission 0            leave out the games with commission
  baccarat report --tableau simplified      a house's sheet in place of the casino sheet
  baccarat report --banque solve            solve baccara banque now rather than read its certificates
  baccarat report --banque checked          read them, each re-verified by the independent checker
"""


def report_shoes(args: argparse.Namespace) -> tuple[Shoe, Shoe]:
    """(punto banco shoe, chemin de fer shoe): each as played unless the user named one for both."""
    if args.decks is None and args.shoe is None:
        return parse_shoe(decks="8", remove=args.remove), parse_shoe(decks="6", remove=args.remove)
    shoes = shoes_from_args(args)
    if len(shoes) != 1:
        raise InputError("report takes one shoe; use 'baccarat punto --decks LIST' or 'baccarat tables' for a table")
    return shoes[0], shoes[0]


def report_command(args: argparse.Namespace) -> str:
    """The report command as the user could type it again (for the comment in generated LaTeX)."""
    words = ["baccarat", "report"]
    for option in ("decks", "shoe", "remove"):
        if getattr(args, option) is not None:
            words += [f"--{option}", getattr(args, option)]
    if args.commission is not None:
        words += ["--commission", args.commission]
    if args.tableau is not None:
        words += ["--tableau", args.tableau]
    if args.banque != "certificates":
        words += ["--banque", args.banque]
    words += ["--format", args.format]
    if args.digits is not None:
        words += ["--digits", str(args.digits)]
    return shlex.join(words)


def run(args: argparse.Namespace) -> int:
    from solver.analysis.report import full_report, report_steps
    from solver.chemin.game import MAX_COMMISSION
    from solver.exact.numbers import exact
    from solver.report import shoe_words
    from solver.report.full import REPORT_CSV_HEADER, full_csv_rows, full_dict, full_latex, full_text

    punto_shoe, chemin_shoe = report_shoes(args)
    house = house_from_args(args)
    given = commission_text(args, house, "1/20")
    alpha = exact(given, "commission")
    if not 0 <= alpha <= MAX_COMMISSION:  # checked before any work
        raise InputError(f"the commission must lie in [0, 1/10], got {given}")
    progress = Progress(report_steps(alpha, chemin_shoe, args.banque), "report")
    rep = full_report(punto_shoe, chemin_shoe, alpha, progress=progress.update, house=house, banque=args.banque)
    progress.close()
    for shoe in rep.banque_left_out:
        note(
            f"baccara banque on {shoe_words(shoe)} is left out of the report: no committed certificate states it "
            "(baccarat report --banque solve solves it)"
        )
    if args.format in JSON_FORMATS:
        emit_document(full_dict(rep, args.digits), args)
    elif args.format == "csv":
        write_csv(REPORT_CSV_HEADER, full_csv_rows(rep, args.digits))
    elif args.format == "latex":
        sys.stdout.write(full_latex(rep, args.digits, command=report_command(args)))
    else:
        emit([full_text(rep, args.digits)])
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "report",
        help="the full report on a shoe (the main job)",
        description="The full exact report: punto banco's outcome law and bet edges; chemin de fer's casino and "
        "parlor games under information 1, 2 and 3, without commission and with the casino's commission, with "
        "values, optimal strategies, the banker's tableau, certification and uniqueness; the side-bet catalogue; "
        "baccara banque beside chemin de fer (theta 1/2, the chemin de fer shoe and the infinite deck).",
        epilog=EPILOG,
    )
    g = p.add_argument_group("shoe")
    g.add_argument(
        "--decks",
        metavar="D",
        help="deck count or 'inf', for both games (default: each game's shoe as it is "
        "played, 8 decks for punto banco and 6 for chemin de fer)",
    )
    g.add_argument(
        "--shoe",
        metavar="COUNTS",
        help="10 counts by point value (tens first) or 13 by rank (A, 2, ..., K), separated by commas, for both games",
    )
    g.add_argument("--remove", metavar="CARDS", help="cards already seen, taken out of each game's shoe, e.g. 5,5,K,0,9")
    p.set_defaults(default_decks="8")
    add_format_options(p, ("text", "json", "csv", "latex"))
    p.add_argument(
        "--commission",
        metavar="ALPHA",
        help="house share of the banker's wins in the second set of chemin de fer games, "
        "0 to 1/10 (default 1/20, or the --tableau sheet's; 0 leaves them out)",
    )
    add_tableau_option(p)
    p.add_argument(
        "--banque",
        choices=("certificates", "checked", "solve", "off"),
        default="certificates",
        help="the baccara banque section: read each answer from the committed certificate that states "
        "it, not re-checked, leaving out a shoe none states (default: the infinite deck and 6 decks have "
        "them); 'checked': the same, each certificate re-verified by the independent checker (some seconds "
        "each); 'solve': solve and certify all now (some seconds, longer on an odd shoe); 'off': leave the "
        "section out",
    )
    p.set_defaults(run=run)
