"""``baccarat simulate``: deal real shoes; estimates by coup, whole shoe versus first coup, cut-card effect."""

from __future__ import annotations

import argparse

from solver.cli.banque_sim import BANQUE_EPILOG, add_banque_options, check_game_options
from solver.cli.banque_sim import simulate as simulate_banque
from solver.cli.common import JSON_FORMATS, add_format_options, add_shoe_options, emit, emit_document, write_csv
from solver.cli.dealing import SIM_EPILOG, add_table_options, config_from_args, exact_reference, positive_count, run_simulation


def run(args: argparse.Namespace) -> int:
    from solver.report.simulate import SIM_CSV_HEADER, simulate_csv_rows, simulate_dict, simulate_text

    if args.game == "banque":
        return simulate_banque(args)
    check_game_options(args)
    config = config_from_args(args, args.first_coup)
    law = exact_reference(config)
    exact_values = law.reference(config.payouts) if law is not None else None
    coups = args.coups if args.shoes is None else None
    result = run_simulation(config, args, args.shoes, coups, exact_values)
    if args.format in JSON_FORMATS:
        emit_document(simulate_dict(result, args.digits), args)
    elif args.format == "csv":
        write_csv(SIM_CSV_HEADER, simulate_csv_rows(result, args.digits))
    else:
        emit([simulate_text(result, args.digits)])
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "simulate",
        help="deal real shoes: estimates by coup, whole shoe versus first coup, cut-card effect",
        description="Deal shuffled shoes the way the table does (burn, cut card, coup in progress finished) and "
        "report estimates with standard errors: the first coup of each shoe (whose law is exactly the "
        "enumerator's), every coup of the shoe, and the cut-card effect between them.",
        epilog=SIM_EPILOG + "\n" + BANQUE_EPILOG + "\nexamples:\n"
        "  baccarat simulate --coups 1e8 --seed 1                     punto banco, 8 decks, cut at 14\n"
        "  baccarat simulate --game chemin --decks 6 --coups 1e8      chemin de fer, Kemeny-Snell strategy\n"
        "  baccarat simulate --first-coup --coups 1e7 --format json   one coup per fresh shoe\n"
        "  baccarat simulate --game banque --decks 6 --tax 1/50       baccara banque, Nash strategies\n",
    )
    add_shoe_options(p)
    add_format_options(p)
    add_table_options(p, simulate=True)
    add_banque_options(p)
    size = p.add_mutually_exclusive_group()
    size.add_argument(
        "--coups", type=positive_count, default=10**6, metavar="N", help="about N coups, in whole shoes (default 1e6)"
    )
    size.add_argument("--shoes", type=positive_count, metavar="N", help="exactly N shoes")
    p.add_argument("--first-coup", action="store_true", help="deal one coup per freshly shuffled shoe")
    p.set_defaults(run=run)
