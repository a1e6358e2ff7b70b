"""``baccarat punto``: punto banco's exact outcome law and bet edges."""

from __future__ import annotations

import argparse
from functools import partial
from typing import TYPE_CHECKING

from solver.cli.common import (
    JSON_FORMATS,
    add_format_options,
    add_shoe_options,
    add_tableau_option,
    commission_text,
    emit,
    emit_document,
    house_from_args,
    render,
    shoes_from_args,
    write_csv,
)
from solver.cli.workers import add_run_options
from solver.errors import InputError
from solver.rules.tableau import PUNTO_BANCO

if TYPE_CHECKING:
    from solver.punto import Bet
    from solver.rules.house import HouseRules

EPILOG = """\
bets: the whole catalogue by default (baccarat punto --bets list names them, each with what it is); \
--bets NAMES selects, e.g. --bets banker,player,dragon_bonus_player; families take a value: tie:K, \
tie_on_T:K, banker:ALPHA, dragon7:K, panda8:K (e.g. tie_on_7:45). --bet FILE prices your own pay \
tables (TOML or JSON; see docs/howto-side-bets.md), alone unless --bets is also given. Bets on pairs \
need the shoe's ranks, on suits its suits: the catalogue leaves out those the shoe cannot settle.

JSON: --format json writes one document, its results a list (one per shoe); --format jsonl one line per \
shoe, as it is priced. --shoes always writes JSON lines, one a shoe as it comes (with or without \
--format json or jsonl).

examples:
  baccarat punto                                    8 decks, exact report
  baccarat punto --decks 6 --digits 6               6 decks, decimals to 6 places
  baccarat punto --decks 1,2,4,6,8,inf              the shoes side by side
  baccarat punto --remove 5,5,K,0,9 --format json   a partly dealt shoe, as JSON
  baccarat punto --shoes seen.txt                   one JSON line per shoe in the file
  tail -f seen.txt | baccarat punto --shoes -       a live tracker: each line answered as it comes
  baccarat punto --shoes day.txt --workers 2        a batch on two processes, the lines in order
  baccarat punto --bets dragon_bonus_player,lucky6  the pay tables of two side bets
  baccarat punto --bet my_bets.toml                 your own pay tables
  baccarat punto --tableau house.toml               a house's sheet (every cell fixed; its Tie pay)
"""


def chosen_bets(
    args: argparse.Namespace,
    commission: str | None = None,
    house: HouseRules | None = None,
) -> tuple[tuple[Bet, ...], bool]:
    """The bets ``--bets`` and ``--bet`` ask for, and whether unsettled ones may be left out (the
    default catalogue) rather than refused (bets named). A ``--tableau`` sheet that says what the Tie
    pays puts one Tie bet at that pay in place of the catalogue's Ties. ``commission``: the Banker bet's
    (default ``--commission``)."""
    bets, skip = _chosen(args, args.commission if commission is None else commission)
    if house is None or house.tie_pays is None:
        return bets, skip
    from solver.punto.main_bets import tie_bet

    ties = [k for k, b in enumerate(bets) if b.name in ("tie_8to1", "tie_9to1")]
    house_tie = tie_bet(int(house.tie_pays))
    if not ties:
        return bets, skip
    already = any(b.name == house_tie.name for b in bets)
    kept = [
        house_tie if k == ties[0] and not already else b
        for k, b in enumerate(bets)
        if k not in ties[1:] and not (already and k == ties[0])
    ]
    return tuple(kept), skip


def _chosen(args: argparse.Namespace, commission: str) -> tuple[tuple[Bet, ...], bool]:
    from solver.punto import bets_from_names, catalogue, catalogue_names, read_bet_file

    own: tuple[Bet, ...] = ()
    for path in args.bet or ():
        taken = catalogue_names() + tuple(b.name for b in own)
        own += read_bet_file(path, reserved=taken)
    if args.bets is None:
        return (own if own else catalogue(commission)), not own
    if args.bets.strip() == "all":
        return catalogue(commission) + own, True
    return bets_from_names(args.bets, commission) + own, False


def refuse_unranked_tens(args: argparse.Namespace, bets: tuple[Bet, ...]) -> None:
    """A bet named on the first cards' ranks with a ten removed as ``0`` (of unknown rank): refused with
    the fix, the ten's rank (the shoe's ranks are then unknown, and no pair can be settled).

    Raises:
        InputError: such a bet, and a ``0`` in ``--remove``.
    """
    tokens = [t.strip() for t in (args.remove or "").split(",")]
    needing = [b.name for b in bets if b.first_cards]
    if "0" in tokens and needing:
        raise InputError(
            f"bet {needing[0]} reads the first cards' ranks, and --remove 0 takes out a ten-valued card of unknown "
            "rank: name its rank (T, J, Q or K), e.g. --remove K rather than 0"
        )


def _list_catalogue(args: argparse.Namespace) -> None:
    """``--bets list``: each catalogued bet's name and what it is, then the families (text, JSON or CSV)."""
    from solver.punto import FAMILIES, catalogue
    from solver.report.punto import catalogue_dict, catalogue_rows, catalogue_text

    bets = catalogue()
    if args.format in JSON_FORMATS:
        emit_document(catalogue_dict(bets, FAMILIES), args)
    elif args.format == "csv":
        write_csv(("name", "description"), catalogue_rows(bets, FAMILIES))
    else:
        emit([catalogue_text(bets, FAMILIES)])


def run(args: argparse.Namespace) -> int:
    from solver.punto import punto_banco
    from solver.report.punto import CSV_HEADER, punto_csv_rows, punto_dict, punto_table_text, punto_text

    if args.bets is not None and args.bets.strip() == "list":
        _list_catalogue(args)
        return 0
    house = house_from_args(args)
    commission = commission_text(args, house, "1/20")
    tableau = house.tableau if house is not None else PUNTO_BANCO
    bets, skip = chosen_bets(args, commission, house)
    as_dict = partial(punto_dict, detail=True)
    if args.shoes is not None:  # each line stands alone: a bet a line's shoe cannot settle is left out of its line
        from solver.cli.shoe_lines import refuse_shoe_options
        from solver.cli.shoes import run_batch

        refuse_shoe_options(args)
        if args.format == "csv":
            raise InputError(
                "--shoes writes JSON lines: --format csv is not available with it (leave out --format, or give json)"
            )
        return run_batch(args, bets, commission, tableau)
    given = [f"--{o.replace('_', '-')}" for o in ("workers", "scheduler", "worker_wait") if getattr(args, o) is not None]
    if given:
        raise InputError(f"{' and '.join(given)} price a batch of shoes: give them with --shoes")
    shoes = shoes_from_args(args)
    if not skip:
        refuse_unranked_tens(args, bets)
    results = (punto_banco(s, commission, bets, skip_unsettled=skip, tableau=tableau) for s in shoes)  # jsonl: each as priced
    as_text = partial(punto_text, detail=True, pay_tables=args.breakdown)
    render(results, args, as_dict, (CSV_HEADER, partial(punto_csv_rows, detail=True)), as_text, punto_table_text)
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "punto",
        help="punto banco: exact outcome law and bet edges",
        description="Punto banco on a shoe: the exact probabilities of banker, player and tie, and for every "
        "bet of the side-bet catalogue (or those you choose, or your own pay tables) the exact house edge, "
        "the probability and return of each line of its pay table, the variance and standard deviation, the "
        "edge excluding pushes and the element of risk.",
        epilog=EPILOG,
    )
    add_shoe_options(p, several=True)
    add_format_options(p)
    p.add_argument(
        "--commission", metavar="ALPHA", help="Banker bet commission, e.g. 0.05 or 1/20 (default 1/20, or the --tableau sheet's)"
    )
    add_tableau_option(p)
    p.add_argument(
        "--bets",
        metavar="NAMES",
        help="bets to price, comma-separated: catalogue names or families (default: all); 'list' prints the names",
    )
    p.add_argument("--bet", action="append", metavar="FILE", help="your own pay tables, a TOML or JSON file (repeatable)")
    p.add_argument(
        "--breakdown",
        action="store_true",
        help="every bet's pay table in the text report and in --shoes lines (JSON and CSV always carry them)",
    )
    p.add_argument(
        "--shoes",
        metavar="FILE",
        help="batch: one shoe per line (--decks/--shoe/--remove syntax), '-' for stdin; "
        "writes one JSON object per line as each line arrives (a bet a line's shoe cannot settle is listed in 'omitted')",
    )
    add_run_options(
        p.add_argument_group("run (with --shoes)"), "local processes pricing the batch (default 1); the same lines, in order"
    )
    p.set_defaults(run=run)
