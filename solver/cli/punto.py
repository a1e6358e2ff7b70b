"""``baccarat punto``: punto banco's exact outcome law and bet edges."""

from __future__ import annotations

import argparse

from solver.cli.common import (
    SHOE_HELP,
    Progress,
    add_format_options,
    add_shoe_options,
    emit_json,
    open_input,
    read_shoe_lines,
    render,
    shoes_from_args,
    source_name,
)
from solver.errors import InputError

EPILOG = """\
examples:
  baccarat punto                                   8 decks, exact report
  baccarat punto --decks 6 --digits 6              6 decks, decimals to 6 places
  baccarat punto --decks 1,2,4,6,8,inf             one row per shoe
  baccarat punto --remove 5,5,K,0,9 --format json  a partly dealt shoe, as JSON
  baccarat punto --shoes seen.txt                  one JSON line per shoe in the file
"""


def run(args: argparse.Namespace) -> int:
    from solver.bets import punto_banco
    from solver.report.punto import CSV_HEADER, punto_csv_rows, punto_dict, punto_table_text, punto_text

    if args.shoes is not None:
        given = [f"--{o}" for o in ("decks", "shoe", "remove") if getattr(args, o) is not None]
        if given or args.format != "text":
            raise InputError(f"--shoes reads every shoe from its file and writes JSON lines: leave out "
                             f"{', '.join(given + (['--format'] if args.format != 'text' else []))}")
        stream = open_input(args.shoes)
        lines = read_shoe_lines(stream, source_name(args.shoes))
        if not lines:
            raise InputError(f"{source_name(args.shoes)} holds no shoe (one per line, e.g. --decks 8 --remove 5,5)")
        progress = Progress(len(lines), "shoes")
        for i, (number, line, shoe) in enumerate(lines):
            record = punto_dict(punto_banco(shoe, args.commission), args.digits)
            record = {"line": number, "input": line, **record}
            emit_json([record], args, lines=True)
            progress.update(i + 1)
        progress.close()
        return 0
    results = [punto_banco(s, args.commission) for s in shoes_from_args(args)]
    render(results, args, punto_dict, (CSV_HEADER, punto_csv_rows), punto_text, punto_table_text)
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "punto",
        help="punto banco: exact outcome law and bet edges",
        description="Punto banco on a shoe: the exact probabilities of banker, player and tie, and the "
        "exact house edge of every bet (Banker at 0.95 to 1, Player, Tie at 8 and 9 to 1, EZ Baccarat, "
        "Dragon 7, Panda 8, and the Player and Banker Pair side bets where the shoe's ranks are known).",
        epilog=SHOE_HELP + "\n\n" + EPILOG,
    )
    add_shoe_options(p)
    add_format_options(p)
    p.add_argument("--commission", default="1/20", metavar="ALPHA",
                   help="Banker bet commission, e.g. 0.05 or 1/20 (default 1/20)")
    p.add_argument("--shoes", metavar="FILE",
                   help="batch: one shoe per line (--decks/--shoe/--remove syntax), '-' for stdin; "
                   "writes one JSON object per line")
    p.set_defaults(run=run)
