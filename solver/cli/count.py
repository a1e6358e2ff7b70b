"""``baccarat count``: deal shoes like the table and take every coup's exact edges; what counters win."""

from __future__ import annotations

import argparse

from solver.cli.common import (
    JSON_FORMATS,
    Progress,
    add_format_options,
    add_shoe_options,
    emit,
    emit_document,
    one_shoe,
    parse_count,
    write_csv,
)
from solver.cli.messages import KERNELS, note_compiling
from solver.cli.workers import add_run_options, scheduler_from_args, workers_from_args
from solver.errors import InputError

DEFAULT_BETS = "dragon7,panda8"

EPILOG = """\
bets: as for baccarat punto (--bets NAMES, --bet FILE); default dragon7,panda8.

what the player knows (--knowledge): unseen (default; he sees every card dealt and the turned burn card, \
not the cards burned face down; his edge is taken on every card he has not seen) or remaining (he knows \
every card out of the shoe: his edge is taken on the cards left in the shoe, and he counts the burned \
cards too).

perfect play bets whenever the exact edge is positive; a count (--tags with --true-count) bets when the \
running count of the cards seen, divided by the decks not seen, reaches the threshold. --tags takes 10 \
tags (A, 2, ..., 9, T) or 13 (A, ..., K), for every bet, or 'eor': each bet's own count from its effects \
of removal (baccarat eor; --level L).

customs:
  --burn B      none, a number of cards, or turn (default turn: turn the first card, burn that many, a ten burns 10)
  --cut N       cards behind the cut card (default 14)
  --extra-coup  deal one more coup after the cut card appears

examples:
  baccarat count --shoes 10000 --seed 1                   Dragon 7 and Panda 8, perfect play
  baccarat count --bets big_tiger --tags 0,0,-1,-1,-1,-2,1,2,2,0 --true-count 8 --shoes 1e5
  baccarat count --bets dragon7 --tags eor --true-count 4 --format json
"""


def run(args: argparse.Namespace) -> int:
    from solver.cli.punto import chosen_bets
    from solver.count import CountConfig, LinearCount, count_study
    from solver.count.eor import effects_of_removal
    from solver.report.count import COUNT_CSV_HEADER, count_csv_rows, count_dict, count_text
    from solver.simulate import parse_burn

    shoe = one_shoe(args)
    if args.bets is None and not args.bet:
        args.bets = DEFAULT_BETS
    bets, _ = chosen_bets(args)
    if (args.tags is None) != (args.true_count is None):
        raise InputError("give --tags and --true-count together (the count and the true count at which to bet)")
    counts: list[LinearCount | None] = [None] * len(bets)
    if args.tags is not None:
        if args.tags.strip() == "eor":
            eor = effects_of_removal(shoe, bets, "rank", args.level)
            counts = [
                LinearCount(b.tags, args.true_count, f"effects of removal of {b.name}, level {args.level}") for b in eor.bets
            ]
        else:
            one = LinearCount.parse(args.tags, args.true_count)
            counts = [one] * len(bets)
    table: dict[str, object] = {"cut": args.cut, "extra_coup": args.extra_coup}
    if args.burn is not None:
        table["burn"] = parse_burn(args.burn)
    config = CountConfig.punto(shoe, bets, counts, args.knowledge, **table)  # type: ignore[arg-type]
    shoes = args.shoes if args.shoes is not None else max(1, round(args.coups / config.table.expected_coups_per_shoe()))
    note_compiling(KERNELS["count"])
    progress = Progress(shoes, "shoes")
    result = count_study(
        config,
        shoes=shoes,
        seed=args.seed,
        workers=workers_from_args(args),
        scheduler=scheduler_from_args(args),
        progress=progress.update,
    )
    progress.close()
    if args.format in JSON_FORMATS:
        emit_document(count_dict(result, args.digits), args)
    elif args.format == "csv":
        write_csv(COUNT_CSV_HEADER, count_csv_rows(result, args.digits))
    else:
        emit([count_text(result, args.digits)])
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "count",
        help="counting at scale: real shoes, every coup's exact edge, what perfect play and a count win",
        description="Deal shoes the way the table does (burn, cut card) and, before every coup, take the exact "
        "edge of each bet on the cards the player knows. Reports, with standard errors: the distribution of the "
        "edge, how often it is positive, and what the player wins per shoe and per 100 coups betting only when "
        "the edge is positive (perfect play) or when his count reaches a threshold.",
        epilog=EPILOG,
    )
    add_shoe_options(p)
    add_format_options(p)
    p.add_argument("--bets", metavar="NAMES", help=f"bets, comma-separated (default {DEFAULT_BETS})")
    p.add_argument("--bet", action="append", metavar="FILE", help="your own pay tables, a TOML or JSON file (repeatable)")
    p.add_argument("--commission", default="1/20", metavar="ALPHA", help="the Banker bet's commission (default 1/20)")
    c = p.add_argument_group("count")
    c.add_argument("--tags", metavar="TAGS", help="10 tags A,2,...,9,T or 13 A,...,K; or 'eor'")
    c.add_argument("--true-count", metavar="T", help="bet when the true count is at least T (exact, e.g. 8 or 15/2)")
    c.add_argument("--level", type=int, default=2, metavar="L", help="with --tags eor: the largest tag (default 2)")
    c.add_argument(
        "--knowledge", choices=("unseen", "remaining"), default="unseen", help="what the player knows (default unseen)"
    )
    t = p.add_argument_group("dealing")
    t.add_argument("--burn", metavar="B", help="none, a number of cards, or turn (default turn)")
    t.add_argument("--cut", type=parse_count, default=14, metavar="N", help="cards behind the cut card (default 14)")
    t.add_argument("--extra-coup", action="store_true", help="deal one more coup after the cut card appears")
    r = p.add_argument_group("run")
    size = r.add_mutually_exclusive_group()
    size.add_argument("--coups", type=parse_count, default=10**5, metavar="N", help="about N coups, in whole shoes (default 1e5)")
    size.add_argument("--shoes", type=parse_count, metavar="N", help="exactly N shoes")
    r.add_argument("--seed", type=int, default=0, help="seed of the run (default 0); same seed, same result")
    add_run_options(r)
    p.set_defaults(run=run)
