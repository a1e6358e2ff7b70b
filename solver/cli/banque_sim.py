"""``baccarat simulate --game banque`` and ``baccarat crosscheck --game banque``: the banque solver's
strategies dealt from real shoes, and held against the exact law."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import TYPE_CHECKING

from solver.cli.common import (
    EXIT_OK,
    EXIT_REJECT,
    JSON_FORMATS,
    Progress,
    emit,
    emit_document,
    one_shoe,
    open_input,
    source_name,
    write_csv,
)
from solver.cli.messages import KERNELS, note_compiling
from solver.errors import InputError

if TYPE_CHECKING:
    from solver.banque import BanqueSolution
    from solver.banque.deal import Enumeration
    from solver.crosscheck.banque import BanqueLaw
    from solver.simulate.banque import BanqueSimResult, BanqueTable

BANQUE_EPILOG = """\
baccara banque (--game banque): the banque solver's strategies (--strategy solved, the only one), solved for \
the shoe under --information (default 1), --second-player (default blind), --freedom (default casino), \
--theta and --tax, for the --concept: nash (each player draws on his own) or correlated (the two players' \
choices drawn jointly from the team's shared random device); independent where it exists. The banker's \
result per unit of total stake is theta R1 + (1 - theta) R2 less the tax on his net win of the coup; no \
burn by default, the cut card 10 cards from the end.
"""


def add_banque_options(p: argparse.ArgumentParser) -> None:
    """The options of a banque table (shared by ``simulate`` and ``crosscheck``)."""
    b = p.add_argument_group("baccara banque (--game banque)")
    b.add_argument("--theta", metavar="T", help="tableau 1's share of the stake (default 1/2)")
    b.add_argument(
        "--second-player",
        choices=("blind", "sees-first"),
        help="whether Player 2's choice at 5 may depend on what tableau 1 showed (default blind)",
    )
    b.add_argument("--concept", choices=("nash", "correlated", "independent"), help="the solution dealt (default nash)")
    b.add_argument("--tax", metavar="RATE", help="cagnotte on the banker's net win of a coup, 0 to 1/10 (default 0)")


BANQUE_DEFAULTS = {"theta": "1/2", "second_player": "blind", "concept": "nash", "tax": "0"}


def check_game_options(args: argparse.Namespace) -> None:
    """Refuse the banque options for another game (they would be ignored), and fill in their defaults
    for baccara banque."""
    given = [name for name in BANQUE_DEFAULTS if getattr(args, name, None) is not None]
    if args.game != "banque":
        if given:
            options = ", ".join("--" + name.replace("_", "-") for name in given)
            raise InputError(f"{options} {'is' if len(given) == 1 else 'are'} for --game banque")
        return
    for name, default in BANQUE_DEFAULTS.items():
        if getattr(args, name, None) is None:
            setattr(args, name, default)


def _check_options(args: argparse.Namespace) -> None:
    if args.strategy not in (None, "solved") or args.draw:
        raise InputError("baccara banque deals the banque solver's strategies: --strategy solved (the default), no --draw")
    if args.commission is not None or getattr(args, "tableau", None):
        raise InputError(
            "baccara banque takes its tax with --tax (the cagnotte on the banker's net win), not --commission or --tableau"
        )
    if getattr(args, "extra_coup", False):
        raise InputError("--extra-coup is a punto banco custom; baccara banque deals to the cut card")


def solved(args: argparse.Namespace) -> tuple[BanqueSolution, Enumeration]:
    """The solution the options name, solved exactly and certified, and the enumeration it came from."""
    from solver.banque import BanqueModel, solve_banque
    from solver.banque.deal import enumerate_coup
    from solver.banque.vocabulary import Freedom, SecondPlayer
    from solver.exact.numbers import exact

    _check_options(args)
    check_game_options(args)
    info = args.information if args.information is not None else 1
    freedom = Freedom.parse(args.freedom or Freedom.CASINO)
    model = BanqueModel(info, SecondPlayer.parse(args.second_player), freedom, exact(args.tax, "the tax"))
    shoe = one_shoe(args)
    enumeration = enumerate_coup(shoe, info)
    return solve_banque(shoe, model, args.theta, args.concept, enumeration=enumeration), enumeration


def table_from_args(args: argparse.Namespace, first_coup_only: bool) -> tuple[BanqueTable, BanqueLaw]:
    """The simulated table the options name, and the exact first-coup law of its strategies."""
    from solver.crosscheck.banque import banque_law, draws_of, solution_tables
    from solver.simulate import parse_burn
    from solver.simulate.banque import DEFAULT_CUT, BanqueTable

    solution, enumeration = solved(args)
    tables = solution_tables(solution)
    burn = parse_burn(args.burn if args.burn is not None else "none")
    table = BanqueTable(
        solution.shoe,
        draws_of(solution, tables),
        solution.theta,
        solution.model.tax,
        burn=burn,
        cut=getattr(args, "cut", None) or DEFAULT_CUT,
        first_coup_only=first_coup_only,
    )
    return table, banque_law(solution, tables, enumeration)


def deal(table: BanqueTable, args: argparse.Namespace, shoes: int | None, coups: int, law: BanqueLaw) -> BanqueSimResult:
    """Deal with a progress line on stderr."""
    from solver.cli.workers import scheduler_from_args, workers_from_args
    from solver.simulate.banque import shoes_for_coups, simulate_banque

    n = shoes if shoes is not None else shoes_for_coups(table, coups)
    note_compiling(KERNELS["banque"])
    with Progress(n, "shoes") as progress:
        return simulate_banque(
            table,
            shoes=n,
            seed=args.seed,
            workers=workers_from_args(args),
            scheduler=scheduler_from_args(args),
            progress=progress.update,
            exact=law.reference(),
        )


def simulate(args: argparse.Namespace) -> int:
    """``baccarat simulate --game banque``."""
    from solver.report.banque_sim import banque_simulate_csv_rows, banque_simulate_dict, banque_simulate_text
    from solver.report.simulate import SIM_CSV_HEADER

    table, law = table_from_args(args, args.first_coup)
    result = deal(table, args, args.shoes, args.coups, law)
    if args.format in JSON_FORMATS:
        emit_document(banque_simulate_dict(result, args.digits), args)
    elif args.format == "csv":
        write_csv(SIM_CSV_HEADER, banque_simulate_csv_rows(result, args.digits))
    else:
        emit([banque_simulate_text(result, args.digits)])
    return 0


def crosscheck(args: argparse.Namespace, alpha: Fraction, coups: int) -> int:
    """``baccarat crosscheck --game banque``: our simulator (``--simulate N``) or a file of dealt banque
    coups (``--coups FILE``), at false-alarm rate ``alpha``."""
    from solver.crosscheck import crosscheck as check
    from solver.crosscheck.banque import banque_law, crosscheck_banque, solution_tables
    from solver.crosscheck.banque_coups import read_banque_coups
    from solver.report.banque_sim import banque_crosscheck_csv_rows, banque_crosscheck_dict, banque_crosscheck_text
    from solver.report.simulate import CC_CSV_HEADER

    if args.whole_shoes and args.simulate is None:
        raise InputError("--whole-shoes goes with --simulate N")
    if args.coups is not None:
        if args.simulate is not None:
            raise InputError("give either --coups FILE (a file of dealt coups) or --simulate N, not both")
        solution, enumeration = solved(args)
        tables = solution_tables(solution)
        stream = open_input(args.coups)
        try:
            sample = read_banque_coups(stream, source_name(args.coups), tables)
        finally:
            if stream is not sys.stdin:
                stream.close()
        cc = check(sample, banque_law(solution, tables, enumeration), alpha=alpha)
    else:
        table, law = table_from_args(args, first_coup_only=not args.whole_shoes)
        cc = crosscheck_banque(deal(table, args, None, coups, law), law, alpha)
    if args.format in JSON_FORMATS:
        emit_document(banque_crosscheck_dict(cc), args)
    elif args.format == "csv":
        write_csv(CC_CSV_HEADER, banque_crosscheck_csv_rows(cc))
    else:
        emit([banque_crosscheck_text(cc)])
    return EXIT_OK if cc.passed else EXIT_REJECT
