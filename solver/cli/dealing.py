"""What ``baccarat simulate`` and ``baccarat crosscheck`` share: the table's options, the strategy,
and running the simulator with progress."""

from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.cards import Shoe
from solver.cli.common import (
    Progress,
    add_tableau_option,
    commission_text,
    house_from_args,
    note,
    note_compiling,
    one_shoe,
    parse_count,
    seed_option,
)
from solver.cli.messages import KERNELS
from solver.cli.workers import add_run_options, scheduler_from_args
from solver.cli.workers import workers_from_args as workers_from_args  # where the commands before it found it
from solver.errors import BaccaratError, InputError, ModelError
from solver.exact.numbers import exact
from solver.rules.tableau import TABLEAUX
from solver.store.documents import read_document
from solver.strategy import Strategy

if TYPE_CHECKING:
    from solver.crosscheck import ExactLaw
    from solver.rules.house import HouseRules
    from solver.simulate import Payout, SimConfig, SimulationResult

STRATEGIES = ("kemeny-snell", "solved", "casino", "parlor", "punto")
DEFAULT_SIM_COUPS = 10**6


def strategies_epilog(freedom: str = "parlor") -> str:
    """The help's paragraphs on chemin de fer's strategies, ``--tableau`` and ``--draw`` (``simulate``,
    ``crosscheck``, ``table``); ``freedom``: the command's default ``--freedom`` for ``--strategy solved``."""
    return f"""\
strategies (--game chemin, --strategy S):
  kemeny-snell    the casino tableau; the ponte draws at 5 with probability 9/11, the banker draws at 3 v 9 \
and stands at 5 v 4 (the default)
  solved          the solver's certified strategy for this shoe under --information (default 3), --freedom \
(default {freedom}) and --commission: an equilibrium, mixed where it mixes
  casino, parlor  a tableau whose free cells you set with --draw, e.g. --draw P5=9/11 --draw B3/9=D
  FILE.json       draw tables by cards: {{"player": 10x10, "banker": 10x10x11}} probabilities

--tableau NAME|FILE: a house's sheet instead of the usual tableau (punto banco: every cell fixed; chemin de \
fer: its free cells set with --draw, or --strategy solved under it); its commission and Tie pay too.

cells for --draw: P<total>=<p> (the ponte), B<total>/<third card 0-9 or S>=<p> (the banker); p is D, S, or \
an exact probability such as 9/11.
"""


def customs_epilog(cut: bool = True) -> str:
    """The help's paragraph on the dealing customs; ``cut``: the command has ``--cut`` and ``--extra-coup``."""
    more = (
        "  --cut N       cards behind the cut card (punto banco 14 by default, also 16; chemin de fer 7; baccara banque 10)\n"
        "  --extra-coup  deal one more coup after the cut card appears (a punto banco custom)\n"
        if cut
        else ""
    )
    return (
        "customs:\n  --burn B      none, a number of cards, or turn (punto banco's default: turn the first card, burn that "
        "many, a ten burns 10)\n" + more
    )


SIM_EPILOG = strategies_epilog() + "\n" + customs_epilog()
"""The help's paragraphs on strategies and customs, as ``simulate`` prints them."""


def positive_count(text: str) -> int:
    """argparse type: a positive count (``1e6`` allowed)."""
    return parse_count(text)


def add_table_options(p: argparse.ArgumentParser, simulate: bool) -> None:
    """The game, strategy, dealing and run options."""
    g = p.add_argument_group("game")
    g.add_argument(
        "--game",
        choices=("punto", "chemin", "banque"),
        default="punto",
        help="punto banco, chemin de fer or baccara banque (default punto)",
    )
    g.add_argument(
        "--strategy",
        metavar="S",
        help="chemin de fer strategy: kemeny-snell (default), solved, casino, parlor, or a JSON file of draw tables",
    )
    g.add_argument(
        "--information",
        type=int,
        choices=(1, 2, 3),
        help="with --strategy solved: the information model solved for (default 3; banque 1)",
    )
    g.add_argument(
        "--freedom",
        choices=("casino", "parlor"),
        help="with --strategy solved: which banker decisions are free (default parlor; banque casino)",
    )
    g.add_argument("--draw", action="append", metavar="CELL=P", help="set one tableau cell, e.g. P5=9/11 or B3/9=D (repeatable)")
    g.add_argument("--commission", metavar="ALPHA", help="commission on banker wins (default 1/20, or the --tableau sheet's)")
    add_tableau_option(g)  # type: ignore[arg-type]
    t = p.add_argument_group("dealing")
    t.add_argument(
        "--burn", metavar="B", help="none, a number of cards, or turn (default: turn for punto, none for chemin and banque)"
    )
    if simulate:
        t.add_argument(
            "--cut",
            type=positive_count,
            metavar="N",
            help="cards behind the cut card (default 14 for punto, 7 for chemin, 10 for banque)",
        )
        t.add_argument("--extra-coup", action="store_true", help="deal one more coup after the cut card appears")
    r = p.add_argument_group("run")
    r.add_argument("--seed", type=seed_option, default=0, help="seed of the run (default 0); same seed, same result")
    add_run_options(r)


def strategy_file(path: str) -> Strategy:
    """A strategy from a JSON file of draw tables by cards (numbers read exactly, ``0.5`` as one half)."""

    import numpy as np

    data = read_document(path, "json")  # decimals kept as written, read exactly (and bounded) by exact()
    if not isinstance(data, dict) or "player" not in data or "banker" not in data:
        raise InputError(f"{path}: a strategy file is a JSON object with 'player' (10x10) and 'banker' (10x10x11) tables")

    def table(x: object, shape: tuple[int, ...]) -> np.ndarray:
        arr = np.array(x, dtype=object)
        if arr.shape != shape:
            raise InputError(f"{path}: a table of shape {shape} was expected, got {arr.shape}")
        try:
            table: np.ndarray = np.vectorize(lambda v: exact(v, "draw probability"), otypes=[object])(arr)
            return table
        except (BaccaratError, TypeError) as e:
            raise InputError(f"{path}: {e}") from None

    try:
        return Strategy.from_tables(
            table(data["player"], (10, 10)), table(data["banker"], (10, 10, 11)), str(data.get("name", Path(path).name))
        )
    except ModelError as e:
        raise InputError(f"{path}: {e}") from None


def solved_strategy(args: argparse.Namespace, shoe: Shoe) -> Strategy:
    """The solver's strategy for the shoe: chemin de fer under ``--information`` and ``--freedom`` (or
    the ``--tableau`` sheet), with ``--commission``, solved exactly and certified."""
    from solver.chemin.game import build_game
    from solver.chemin.solve import solve

    house = house_from_args(args)
    freedom = house.tableau if house is not None else (args.freedom or "parlor")
    alpha = exact(commission_text(args, house, "1/20"), "--commission")
    information = args.information if args.information is not None else 3
    return solve(build_game(shoe, information, freedom, alpha)).strategy


def strategy_from_args(args: argparse.Namespace, shoe: Shoe, notes: bool = True) -> Strategy:
    """The strategy named by ``--strategy`` and ``--draw``, with a note on stderr where it breaks the rules
    (``notes``; a caller that refuses such a strategy says so itself)."""
    strategy = _strategy_from_args(args, shoe)
    if args.game == "chemin" and notes:
        rule_notes(strategy)
    return strategy


def rule_notes(strategy: Strategy) -> None:
    """Say (on stderr) where a strategy departs from chemin de fer's rules: it is dealt as given."""
    from solver.strategy import format_infoset

    broken = strategy.breaks_rules()
    if broken:
        cells = ", ".join(("P" if s.side.value == "ponte" else "B") + format_infoset(s) for s in broken)
        note(f"this strategy overrides cells the {strategy.tableau.name} tableau fixes ({cells}); it is dealt as given")
    P, _ = strategy.tables()
    wrong = sorted(
        {
            (a + b) % 10
            for a in range(10)
            for b in range(10)
            if (a + b) % 10 < 8 and (a + b) % 10 != 5 and P[a, b] != (1 if (a + b) % 10 <= 4 else 0)
        }
    )
    if wrong:
        note(
            f"the ponte does not follow chemin de fer's rules (draw on 0-4, stand on 6-7) on {', '.join(map(str, wrong))}: "
            "the strategy is dealt as given, and there is no exact law to compare with"
        )


def _strategy_from_args(args: argparse.Namespace, shoe: Shoe) -> Strategy:
    from solver.strategy import KEMENY_SNELL, PUNTO_STRATEGY, parse_choice, strategy_from_cells

    name = args.strategy
    draws = args.draw or []
    house = house_from_args(args)
    if args.game == "punto":
        if name not in (None, "punto") or draws:
            raise InputError("punto banco plays its fixed tableau: --strategy and --draw are for --game chemin")
        return PUNTO_STRATEGY if house is None else Strategy(house.tableau, {}, f"{house.name} tableau").check()
    if house is not None and name not in (None, "solved"):
        raise InputError("--tableau gives the rules: set its free cells with --draw, or use --strategy solved")
    if house is not None and name is None:
        return strategy_from_cells(house.tableau, draws)
    if name is None:
        name = "kemeny-snell"
    if name == "solved":
        if draws:
            raise InputError("--draw applies to a tableau, not to the solved strategy")
        return solved_strategy(args, shoe)
    if name == "kemeny-snell":
        if not draws:
            return KEMENY_SNELL
        return KEMENY_SNELL.with_choices(dict(parse_choice(d) for d in draws)).check()
    if name in TABLEAUX:
        return strategy_from_cells(TABLEAUX[name], draws)
    if Path(name).suffix.lower() == ".json" or Path(name).exists():
        if draws:
            raise InputError("--draw applies to a tableau, not to a strategy file")
        return strategy_file(name)
    raise InputError(f"unknown strategy {name!r} (choose from {', '.join(STRATEGIES)}, or a JSON file of draw tables)")


def config_from_args(args: argparse.Namespace, first_coup_only: bool) -> SimConfig:
    """The simulated table the options describe."""
    from solver.simulate import DEFAULT_BURN, DEFAULT_CUT, SimConfig, parse_burn

    shoe = one_shoe(args)
    strategy = strategy_from_args(args, shoe)
    burn = parse_burn(args.burn if args.burn is not None else DEFAULT_BURN[args.game])
    cut = getattr(args, "cut", None) or DEFAULT_CUT[args.game]
    house = house_from_args(args)
    commission = exact(commission_text(args, house, "1/20"), "--commission")
    return SimConfig(
        args.game,
        shoe,
        strategy,
        burn=burn,
        cut=cut,
        extra_coup=bool(getattr(args, "extra_coup", False)),
        first_coup_only=first_coup_only,
        commission=commission,
        payouts=house_payouts(args.game, commission, house),
    )


def house_payouts(game: str, commission: Fraction, house: HouseRules | None) -> tuple[Payout, ...]:
    """The usual payouts (:func:`solver.simulate.default_payouts`), with the Tie at the house's pay."""
    from solver.punto.main_bets import tie_bet
    from solver.simulate import Payout, default_payouts

    payouts = default_payouts(game, commission)
    if house is None or house.tie_pays is None:
        return payouts
    tie = Payout.from_bet(tie_bet(int(house.tie_pays)))
    return tuple(tie if p.name.startswith("tie_") else p for p in payouts)


def exact_reference(config: SimConfig) -> ExactLaw | None:
    """The exact first-coup law of the table's game and strategy, when it can be computed."""
    from solver.crosscheck import exact_law

    try:
        return exact_law(config.game, config.shoe, config.strategy)
    except ModelError:
        return None


def run_simulation(
    config: SimConfig, args: argparse.Namespace, shoes: int | None, coups: int | None, exact_values: dict[str, Any] | None
) -> SimulationResult:
    """Deal the shoes with a progress line on stderr."""
    from solver.simulate import simulate
    from solver.simulate.engines import resolve
    from solver.simulate.run import shoes_for_coups

    n_shoes = shoes if shoes is not None else shoes_for_coups(config, coups or DEFAULT_SIM_COUPS)
    if resolve() == "numba":
        note_compiling(KERNELS["deal"])
    with Progress(n_shoes, "shoes") as progress:
        return simulate(
            config,
            shoes=n_shoes,
            seed=args.seed,
            workers=workers_from_args(args),
            scheduler=scheduler_from_args(args),
            progress=progress.update,
            exact=exact_values,
        )
