"""``baccarat table``: chemin de fer and baccara banque sessions with every rule of the money."""

from __future__ import annotations

import argparse
from pathlib import Path

from solver.cli.common import (
    JSON_FORMATS,
    Progress,
    add_format_options,
    add_shoe_options,
    command_line,
    emit,
    emit_document,
    one_shoe,
    write_csv,
)
from solver.cli.dealing import positive_count, strategies_epilog, strategy_from_args, workers_from_args
from solver.errors import BaccaratError, InputError
from solver.exact.numbers import fraction_str
from solver.store.files import check_writable

TABLE_EPILOG = """\
policies (--policy FILE): JSON; fields at the top level apply to every seat, "seats" overrides them seat by \
seat, e.g. {"stake": 20, "seats": {"3": {"banco": "solo"}}}

log (--log FILE): a header line (the table, every policy, the strategy, the seed), then one JSON line per \
coup, written as the coup is played (append-only, whole lines)

drawing: the rule sheet's casino tableau, whose only free cells are P5, B3/9 and B5/4 (--draw sets them; a \
fixed cell is refused); --freedom parlor (or --strategy parlor) frees every banker cell

tax (--commission): chemin de fer 1/20 of the banker's win; baccara banque's cagnotte 1/50 of the banker's \
net winnings at banque limitee, 1/80 at banque ouverte; --capital-tax R (banque) takes R of the bank's \
capital once instead

The rules played, the policy fields and their defaults, the log's fields: docs/table-log.md
"""


def table_from_args(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The table the options describe."""
    from solver.sessions import TableConfig
    from solver.sessions.config import DRAWING
    from solver.simulate import parse_burn

    shoe = one_shoe(args)
    return TableConfig(
        args.game,
        tableau=DRAWING[drawing_rules(args)],
        rebank=args.rebank,
        seats=args.seats,
        minimum_banco=args.minimum_banco,
        minimum_stake=args.minimum_stake,
        tax=args.commission,
        capital_tax=args.capital_tax,
        banque=args.banque,
        shoes=args.shoes,
        shoe=shoe,
        burn=parse_burn(args.burn if args.burn is not None else "none"),
        cut=args.cut,
    )


def drawing_rules(args: argparse.Namespace) -> str:
    """The table's tableau: ``--freedom`` if given, else parlor for ``--strategy parlor``, else the rule
    sheet's casino tableau."""
    if args.freedom is not None:
        return str(args.freedom)
    return "parlor" if args.strategy == "parlor" else "casino"


def run(args: argparse.Namespace) -> int:
    from solver.report.sessions import TABLE_CSV_HEADER, table_csv_rows, table_dict, table_text
    from solver.sessions import Policies, load_policies, summarize

    table = table_from_args(args)
    if args.log:
        check_writable([Path(args.log)], args.force)
    policies = load_policies(args.policy, table) if args.policy else Policies.defaults(table)
    args.commission = fraction_str(table.tax)  # the solved strategy is solved for the table's tax
    args.freedom = table.tableau.name  # and for the table's drawing rules
    if table.game == "banque" and args.strategy == "solved":
        strategy: object = solved_banque(args, table)
    else:
        strategy = strategy_from_args(args, table.shoe, notes=False)  # a strategy that breaks the rules is refused
    workers = workers_from_args(args) or (1 if args.log else _default_workers())
    with Progress(args.sessions, "sessions") as progress:
        summary = summarize(
            table,
            policies,
            strategy,
            args.sessions,
            args.seed,
            workers,
            args.scheduler,
            args.log,
            progress.update,
            command=command_line(args),
        )
    if args.format in JSON_FORMATS:
        emit_document(table_dict(summary, args.digits), args)
    elif args.format == "csv":
        write_csv(TABLE_CSV_HEADER, table_csv_rows(summary))
    else:
        emit([table_text(summary, args.digits)])
    return 0


def solved_banque(args: argparse.Namespace, table: object) -> object:
    """The banque solver's Nash equilibrium for the table's shoe and tax, as the table's drawing rule:
    ``--information``, ``--freedom``, ``--second-player`` (default sees-first: at the table he sees
    tableau 1) and ``--theta`` (tableau 1's share of the stake the players are assumed to split; 1/2)."""
    from solver.banque import BanqueModel, solve_banque
    from solver.banque.play import SolvedBanque

    if args.draw:
        raise InputError("--draw applies to a tableau, not to the solved strategy")
    model = BanqueModel(args.information, args.second_player, args.freedom, table.tax)  # type: ignore[attr-defined]
    return SolvedBanque(solve_banque(table.shoe, model, args.theta, "nash"))  # type: ignore[attr-defined]


def _default_workers() -> int:
    from solver.simulate import default_workers

    return default_workers()


def _amount(text: str) -> str:
    """argparse type: checked later, exactly (kept as the text the user typed)."""
    from solver.sessions.money import parse_amount

    try:
        parse_amount(text, "amount")
    except BaccaratError as e:
        raise argparse.ArgumentTypeError(str(e).removeprefix("amount: ")) from None
    return text


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "table",
        help="sessions at the table: the bank, banco calls, garage, suite, the house's tax",
        description="Play chemin de fer or baccara banque sessions coup by coup with every rule of the money (the "
        "bank and who holds it, banco calls, suivi and prime, garage, suite, banco double, banque ouverte or "
        "limitee, the tax), and summarise many seeded sessions with standard errors: the house's take, the bank's "
        "result, bank runs and each seat's result. Money is exact and conserved.",
        epilog=strategies_epilog("casino") + "\n" + TABLE_EPILOG + "\nexamples:\n"
        "  baccarat table --sessions 200 --seed 1                     a default chemin de fer table\n"
        "  baccarat table --game banque --banque ouverte --sessions 100\n"
        "  baccarat table --policy players.json --log coups.jsonl     one session, every coup logged\n",
    )
    add_shoe_options(p, default_decks="6")
    add_format_options(p, ("text", "json", "csv"))
    g = p.add_argument_group("table")
    g.add_argument(
        "--game", choices=("chemin", "banque"), default="chemin", help="chemin de fer or baccara banque (default chemin)"
    )
    g.add_argument("--seats", type=int, default=10, metavar="N", help="players at the table, 8 to 12 (default 10)")
    g.add_argument("--minimum-banco", type=_amount, default="100", metavar="A", help="the smallest bank (default 100)")
    g.add_argument("--minimum-stake", type=_amount, metavar="A", help="the smallest stake (default a tenth of the minimum banco)")
    g.add_argument(
        "--banque",
        choices=("limitee", "ouverte"),
        default="limitee",
        help="baccara banque: a fixed bank (limitee, the default) or the banker covers any stake (ouverte)",
    )
    g.add_argument(
        "--commission",
        metavar="RATE",
        help="the house's tax (default 1/20 at chemin de fer; 1/50 at banque limitee, 1/80 at banque ouverte)",
    )
    g.add_argument(
        "--capital-tax",
        metavar="RATE",
        help="baccara banque house rule: RATE of each bank's capital, once, with its first coup, instead of the tax on winnings",
    )
    g.add_argument(
        "--rebank",
        action="store_true",
        help="baccara banque limitee house rule: a busted banker may put up the original sum again (his policy's "
        "rebank) instead of a new auction",
    )
    g.add_argument("--policy", metavar="FILE", help="the players' policies (JSON); default: the documented defaults")
    s = p.add_argument_group("strategy")
    s.add_argument(
        "--strategy",
        metavar="S",
        help="kemeny-snell (default), solved, casino, parlor, or a JSON file of "
        "exact draw tables; at baccara banque, played on each tableau, except 'solved': the banque "
        "solver's Nash equilibrium of the three players",
    )
    s.add_argument(
        "--second-player",
        choices=("blind", "sees-first"),
        default="sees-first",
        help="baccara banque with --strategy solved: whether tableau 2's choice at 5 may depend on what "
        "tableau 1 showed (default sees-first, as at the table)",
    )
    s.add_argument(
        "--theta",
        default="1/2",
        metavar="T",
        help="baccara banque with --strategy solved: tableau 1's share of the stake solved for (default 1/2)",
    )
    s.add_argument(
        "--information",
        type=int,
        choices=(1, 2, 3),
        default=3,
        help="with --strategy solved: the information model solved for (default 3)",
    )
    s.add_argument(
        "--freedom",
        choices=("casino", "parlor"),
        help="the drawing rules: casino, the rule sheet's tableau (default), or parlor, every banker cell free "
        "(default parlor with --strategy parlor); --strategy solved is solved under them",
    )
    s.add_argument(
        "--draw", action="append", metavar="CELL=P", help="set one free tableau cell, e.g. P5=9/11 or B3/9=D (repeatable)"
    )
    d = p.add_argument_group("dealing")
    d.add_argument("--burn", metavar="B", help="none (default), a number of cards, or turn")
    d.add_argument(
        "--cut",
        type=positive_count,
        metavar="N",
        help="cards behind the cut card (default 7 at chemin de fer, 10 at baccara banque)",
    )
    r = p.add_argument_group("run")
    r.add_argument(
        "--shoes",
        type=positive_count,
        default=1,
        metavar="N",
        help="shoes per session; bank and bankrolls carry from shoe to shoe (default 1)",
    )
    r.add_argument("--sessions", type=positive_count, default=1, metavar="N", help="sessions to play (default 1)")
    r.add_argument("--seed", type=int, default=0, help="seed of the run (default 0); same seed, same result")
    r.add_argument("--log", metavar="FILE", help="write every coup to FILE, one JSON line each, as it is played")
    r.add_argument("--force", action="store_true", help="overwrite the --log file if it exists")
    r.add_argument("--workers", type=positive_count, metavar="N", help="local processes (default: all cores; 1 with --log)")
    r.add_argument("--scheduler", metavar="ADDRESS", help="a Dask distributed scheduler, e.g. tcp://host:8786")
    p.set_defaults(run=run)
