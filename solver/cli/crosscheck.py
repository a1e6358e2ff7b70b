"""``baccarat crosscheck``: hold simulated coups (ours, or a file of dealt coups) against the exact law."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from solver.cli.banque_sim import BANQUE_EPILOG, add_banque_options, check_game_options
from solver.cli.banque_sim import crosscheck as crosscheck_banque
from solver.cli.common import (
    EXIT_OK,
    EXIT_REJECT,
    FORMAT_HELP,
    JSON_FORMATS,
    add_shoe_options,
    commission_text,
    emit,
    emit_document,
    house_from_args,
    one_shoe,
    open_input,
    source_name,
    write_csv,
)
from solver.cli.dealing import (
    DEFAULT_SIM_COUPS,
    add_table_options,
    config_from_args,
    customs_epilog,
    house_payouts,
    positive_count,
    run_simulation,
    strategies_epilog,
    strategy_from_args,
)
from solver.errors import InputError
from solver.exact.numbers import exact

HELP_COUPS = ("shoe", "2,K,3,3,7,4;B", "9,4,Q,2;P;banker=-1,player=1,tie_8to1=-1", "5,3,K,Q,-,7;P")
"""The example lines of the help text (a test reads each one with the file reader)."""
BANQUE_HELP_COUPS = ("shoe", "4,6,3,K,Q,2,7,-,9;BP;banker=0,player1=-1,player2=1", "9,3,5,K,4,3;PB", "2,7,6,3,K,Q,5;BP")
"""The example banque lines of the help text (legal at 6 decks under the default Nash strategies: tested)."""


def run(args: argparse.Namespace) -> int:
    from solver.crosscheck import burn_laws, crosscheck, exact_law, read_coups, sample_from_simulation
    from solver.report.simulate import CC_CSV_HEADER, crosscheck_csv_rows, crosscheck_dict, crosscheck_text

    alpha = exact(args.alpha, "--alpha")
    if not 0 < alpha < 1:
        raise InputError(f"--alpha must lie strictly between 0 and 1, got {alpha}")
    if args.game == "banque":
        return crosscheck_banque(args, alpha, args.simulate or DEFAULT_SIM_COUPS)
    check_game_options(args)
    house = house_from_args(args)
    commission = exact(commission_text(args, house, "1/20"), "--commission")
    payouts = house_payouts(args.game, commission, house)
    if args.coups is not None:
        if args.simulate is not None:
            raise InputError("give either --coups FILE (a file of dealt coups) or --simulate N, not both")
        shoe = one_shoe(args)
        strategy = strategy_from_args(args, shoe)
        stream = open_input(args.coups)
        try:
            sample = read_coups(stream, source_name(args.coups), strategy, args.game, payouts)
        finally:
            if stream is not sys.stdin:
                stream.close()
        law = exact_law(args.game, shoe, strategy)
        cc = crosscheck(sample, law, payouts, alpha=alpha)
    else:
        if args.whole_shoes and args.simulate is None:
            raise InputError("--whole-shoes goes with --simulate N")
        config = replace(config_from_args(args, first_coup_only=not args.whole_shoes), shoe_tallies=True)
        law = exact_law(config.game, config.shoe, config.strategy)
        burns = burn_laws(law, config.strategy) if config.burn.mode.startswith("turn") and law.detail is not None else None
        result = run_simulation(config, args, None, args.simulate or DEFAULT_SIM_COUPS, None)
        cc = crosscheck(sample_from_simulation(result), law, payouts, burns, alpha)
    if args.format in JSON_FORMATS:
        emit_document(crosscheck_dict(cc), args)
    elif args.format == "csv":
        write_csv(CC_CSV_HEADER, crosscheck_csv_rows(cc))
    else:
        emit([crosscheck_text(cc)])
    return EXIT_OK if cc.passed else EXIT_REJECT


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "crosscheck",
        help="hold simulated coups (ours, or a file of dealt coups) against the exact law",
        description="Check a dealing engine against the exact law: every coup legal under the tableau, then "
        "tests of the outcome, detail and card laws, of the structure no marginal law shows (pairs, serial "
        "dependence, shoes' composition, the next shoe, repeats) and of the settlements reported, at a stated "
        "false-alarm rate, with the smallest deviation the sample could detect. Exit code 0 pass; 1 reject (a "
        "test rejects, or a coup breaks the rules); 2 unusable input (a line that cannot be read, bad options); "
        "3 the run failed (e.g. a Dask cluster).",
        epilog=strategies_epilog()
        + "\n"
        + customs_epilog(cut=False)
        + "\n"
        + BANQUE_EPILOG
        + "\ncoup file: one coup per line, the cards in deal order separated by commas (A, 2-9, T or 10, J, Q, K; 1 "
        "is an ace, 0 a ten-valued card), optionally ';' and the outcome reported (B, P or T), and ';' and the "
        "settlements (bet=net result per unit); a line 'shoe' starts a freshly shuffled shoe (mark every shoe of a "
        "file of whole shoes); '#' starts a comment; '-' in fifth place says the player stood (without it a free "
        "player's fifth card is his draw):\n"
        + "".join(f"    {line}\n" for line in HELP_COUPS)
        + "\nbanque coup file (--game banque): the six first cards in deal order (Player 1, Player 2, banker, twice), "
        "then Player 1's, Player 2's and the banker's third card, '-' where that hand drew none ('-' at the end may "
        "be left out); optionally ';' and the outcome on each tableau (two letters of B, P, T) and ';' the "
        "settlements (banker, player1, player2):\n" + "".join(f"    {line}\n" for line in BANQUE_HELP_COUPS) + "\nexamples:\n"
        "  baccarat crosscheck --game punto --decks 8 --coups dealt.txt\n"
        "  engine | baccarat crosscheck --coups -\n"
        "  baccarat crosscheck --simulate 1e7 --seed 1                      our own simulator\n"
        "  baccarat crosscheck --simulate 1e7 --whole-shoes                 ... dealing whole shoes\n"
        "  baccarat crosscheck --game banque --simulate 1e6                 baccara banque, Nash strategies\n"
        "  baccarat crosscheck --game banque --decks 6 --coups dealt.txt    ... a file of banque coups\n",
    )
    add_shoe_options(p)
    p.add_argument("--format", choices=("text", "json", "jsonl", "csv"), default="text", help=FORMAT_HELP)
    add_table_options(p, simulate=False)
    add_banque_options(p)
    p.add_argument("--coups", metavar="FILE", help="a file of dealt coups, '-' for standard input")
    p.add_argument(
        "--simulate",
        type=positive_count,
        metavar="N",
        help="check our own simulator on N coups, each from a freshly shuffled shoe (default 1e6)",
    )
    p.add_argument(
        "--whole-shoes", action="store_true", help="with --simulate: deal whole shoes to the cut card, and test them shoe by shoe"
    )
    p.add_argument("--alpha", default="1/1000", metavar="RATE", help="false-alarm rate of the whole check (default 1/1000)")
    p.set_defaults(run=run)
