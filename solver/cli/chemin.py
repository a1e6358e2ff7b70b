"""``baccarat chemin``: the ponte-versus-banker game, solved exactly and certified."""

from __future__ import annotations

import argparse

from solver.cli.common import SHOE_HELP, Progress, add_format_options, add_shoe_options, render, shoes_from_args

EPILOG = """\
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


def run(args: argparse.Namespace) -> int:
    from solver.equilibrium import solve
    from solver.game import build_game
    from solver.numbers import exact
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


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "chemin",
        help="chemin de fer: the ponte-versus-banker game, solved exactly",
        description="Chemin de fer as a game: optimal (or, with commission, equilibrium) strategies for the "
        "ponte and the banker, the exact value, certified in exact rationals, with iterated dominance.",
        epilog=SHOE_HELP + "\n\n" + EPILOG,
    )
    add_shoe_options(p, default_decks="6")
    add_format_options(p)
    p.add_argument("--information", type=int, choices=(1, 2, 3), default=1, help="information model (default 1)")
    p.add_argument("--freedom", choices=("casino", "parlor"), default="casino", help="which banker decisions are free")
    p.add_argument("--commission", default="0", metavar="ALPHA", help="house share of banker wins, 0 to 1/10 (default 0)")
    p.add_argument("--certificate", metavar="FILE", help="write a certificate (JSON) that proofs/check.py verifies")
    p.add_argument("--force", action="store_true", help="overwrite an existing certificate file")
    p.set_defaults(run=run)
