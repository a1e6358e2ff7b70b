"""``baccarat eor``: the exact effects of removal of any bets on any shoe, and the linear counts they give."""

from __future__ import annotations

import argparse

from solver.cli.common import add_format_options, add_shoe_options, one_shoe, parse_count, render
from solver.errors import InputError

EPILOG = """\
bets: as for baccarat punto (--bets NAMES, --bet FILE; default the whole catalogue).

tags: each bet's effects scaled so the largest is +-LEVEL (default 2), rounded half away from zero; \
--samples N correlates each count's true count with the bet's exact edge on N random depleted shoes \
(cards removed uniformly between --depth A-B, default 1 to all but 26).

examples:
  baccarat eor --bets big_tiger --by value             Big Tiger by point value, and its count
  baccarat eor --decks 6 --bets dragon7,panda8 --digits 6
  baccarat eor --bets big_tiger --by value --samples 2000 --seed 1
"""


def depth_option(text: str) -> tuple[int, int]:
    """``--depth A-B``: the fewest and most cards removed for each sampled shoe."""
    a, sep, b = text.partition("-")
    try:
        lo, hi = int(a), int(b if sep else a)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected A-B, two whole numbers of cards, got {text!r}") from None
    if lo < 0 or hi < lo:
        raise argparse.ArgumentTypeError(f"expected 0 <= A <= B, got {text!r}")
    return lo, hi


def run(args: argparse.Namespace) -> int:
    from solver.cli.punto import chosen_bets
    from solver.count.eor import effects_of_removal
    from solver.report.count import EOR_CSV_HEADER, eor_csv_rows, eor_dict, eor_text

    shoe = one_shoe(args)
    bets, skip = chosen_bets(args)
    if skip:
        from solver.punto import settles

        bets = tuple(b for b in bets if settles(b, shoe) is None and not (args.samples and b.needs_suits))
    if args.level < 1:
        raise InputError(f"--level must be at least 1, got {args.level}")
    result = effects_of_removal(shoe, bets, args.by, args.level, args.samples or 0, args.seed, args.depth)
    render([result], args, eor_dict, (EOR_CSV_HEADER, eor_csv_rows), eor_text, eor_text, key=None)
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "eor",
        help="effects of removal: the exact change in each bet's edge per card removed, and linear counts",
        description="The exact change in each bet's expected value when one card of each rank (or point value) is "
        "removed from the shoe, as exact fractions with decimals; the linear count with tags proportional to "
        "those effects, its betting correlation, and optionally its correlation with the exact edge over random "
        "depleted shoes.",
        epilog=EPILOG,
    )
    add_shoe_options(p)
    add_format_options(p)
    p.add_argument("--bets", metavar="NAMES", help="bets, comma-separated (default: the whole catalogue)")
    p.add_argument("--bet", action="append", metavar="FILE", help="your own pay tables, a TOML or JSON file (repeatable)")
    p.add_argument("--commission", default="1/20", metavar="ALPHA", help="the Banker bet's commission (default 1/20)")
    p.add_argument(
        "--by", choices=("rank", "value"), default="rank", help="remove and tag by rank or by point value (default rank)"
    )
    p.add_argument("--level", type=int, default=2, metavar="L", help="the largest tag in magnitude (default 2)")
    p.add_argument("--samples", type=parse_count, metavar="N", help="random depleted shoes for the count's correlation")
    p.add_argument("--depth", type=depth_option, metavar="A-B", help="cards removed for each sample (default 1 to all but 26)")
    p.add_argument("--seed", type=int, default=0, help="seed of the samples (default 0)")
    p.set_defaults(run=run)
