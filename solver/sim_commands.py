"""Bodies of ``baccarat simulate`` and ``baccarat crosscheck`` (their options live in solver/cli.py)."""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

from solver.bets import exact as exact_number
from solver.cards import Shoe
from solver.cli import Progress, _open_input, emit, shoes_from_args, write_csv
from solver.errors import BaccaratError, InputError, ModelError
from solver.rules import TABLEAUX

EXIT_PASS, EXIT_REJECT = 0, 1
STRATEGIES = ("kemeny-snell", "solved", "casino", "parlor", "punto")
DEFAULT_SIM_COUPS = 10**6


def parse_count(text: str) -> int:
    """A positive count as users write it: ``1000000``, ``1e6``, ``10_000_000``."""
    t = text.strip().replace("_", "").replace(",", "")
    try:
        if "e" in t.lower():
            mant, exp = t.lower().split("e")
            value = Fraction(mant) * 10 ** int(exp)
            if value.denominator != 1:
                raise ValueError
            n = int(value)
        else:
            n = int(t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number such as 1000000 or 1e6, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return n


def one_shoe(args: argparse.Namespace) -> Shoe:
    shoes = shoes_from_args(args)
    if len(shoes) != 1:
        raise InputError("this command takes one shoe, not a list")
    return shoes[0]


def _strategy_file(path: str):  # type: ignore[no-untyped-def]
    from solver.simulate import card_strategy

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: not JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(data, dict) or "player" not in data or "banker" not in data:
        raise InputError(f"{path}: a strategy file is a JSON object with 'player' (10x10) and 'banker' (10x10x11) tables")

    def table(x: object, shape: tuple[int, ...]) -> np.ndarray:
        arr = np.array(x, dtype=object)
        if arr.shape != shape:
            raise InputError(f"{path}: a table of shape {shape} was expected, got {arr.shape}")
        if any(isinstance(v, float) for v in arr.flat):
            return arr.astype(np.float64)
        try:
            return np.vectorize(lambda v: exact_number(v, "draw probability"), otypes=[object])(arr)
        except (BaccaratError, TypeError) as e:
            raise InputError(f"{path}: {e}") from None

    return card_strategy(table(data["player"], (10, 10)), table(data["banker"], (10, 10, 11)),
                         str(data.get("name", Path(path).name)))


def solved_strategy(args: argparse.Namespace, shoe: Shoe):  # type: ignore[no-untyped-def]
    """The solver's strategy for the shoe: chemin de fer under ``--information`` and ``--freedom``,
    with ``--commission``, solved exactly and certified, as draw tables by cards."""
    from solver.equilibrium import draw_tables, solve
    from solver.game import build_game
    from solver.simulate import card_strategy

    solution = solve(build_game(shoe, args.information, args.freedom, exact_number(args.commission, "--commission")))
    P, B = draw_tables(solution)
    name = f"solved {solution.game.label}, commission {solution.game.model.commission}"
    return card_strategy(np.array(P, dtype=object), np.array(B, dtype=object), name)


def strategy_from_args(args: argparse.Namespace, shoe: Shoe):  # type: ignore[no-untyped-def]
    """The strategy named by ``--strategy`` and ``--draw``."""
    from solver.simulate import KEMENY_SNELL, PUNTO_STRATEGY, strategy_from_cells

    name = args.strategy
    draws = args.draw or []
    if args.game == "punto":
        if name not in (None, "punto") or draws:
            raise InputError("punto banco plays its fixed tableau: --strategy and --draw are for --game chemin")
        return PUNTO_STRATEGY
    if name is None:
        name = "kemeny-snell"
    if name == "solved":
        if draws:
            raise InputError("--draw applies to a tableau, not to the solved strategy")
        return solved_strategy(args, shoe)
    if name == "kemeny-snell":
        if not draws:
            return KEMENY_SNELL
        cells = ["P5=9/11", "B3/9=D", "B5/4=S"] + draws
        return strategy_from_cells(TABLEAUX["casino"], cells)
    if name in TABLEAUX:
        return strategy_from_cells(TABLEAUX[name], draws)
    if Path(name).suffix.lower() == ".json" or Path(name).exists():
        if draws:
            raise InputError("--draw applies to a tableau, not to a strategy file")
        return _strategy_file(name)
    raise InputError(f"unknown strategy {name!r} (choose from {', '.join(STRATEGIES)}, or a JSON file of draw tables)")


def config_from_args(args: argparse.Namespace, first_coup_only: bool):  # type: ignore[no-untyped-def]
    from solver.simulate import DEFAULT_BURN, DEFAULT_CUT, SimConfig, parse_burn

    shoe = one_shoe(args)
    strategy = strategy_from_args(args, shoe)
    burn = parse_burn(args.burn if args.burn is not None else DEFAULT_BURN[args.game])
    cut = getattr(args, "cut", None) or DEFAULT_CUT[args.game]
    return SimConfig(args.game, shoe, strategy, burn=burn, cut=cut, extra_coup=bool(getattr(args, "extra_coup", False)),
                     first_coup_only=first_coup_only, commission=exact_number(args.commission, "--commission"))


def _exact_reference(config):  # type: ignore[no-untyped-def]
    from solver.crosscheck import exact_law

    try:
        return exact_law(config.game, config.shoe, config.strategy)
    except ModelError:
        return None


def _run(config, args: argparse.Namespace, shoes: int | None, coups: int | None, exact):  # type: ignore[no-untyped-def]
    from solver.simulate import shoes_for_coups, simulate

    n_shoes = shoes if shoes is not None else shoes_for_coups(config, coups or DEFAULT_SIM_COUPS)
    progress = Progress(n_shoes, "shoes")
    try:
        result = simulate(config, shoes=n_shoes, seed=args.seed, workers=args.workers, scheduler=args.scheduler,
                          progress=progress.update, exact=exact)
    finally:
        progress.close()
    return result


def cmd_simulate(args: argparse.Namespace) -> int:
    from solver.report.simulate import SIM_CSV_HEADER, simulate_csv_rows, simulate_dict, simulate_text

    config = config_from_args(args, args.first_coup)
    law = _exact_reference(config)
    exact = law.reference(config.payouts) if law is not None else None
    coups = args.coups if args.shoes is None else None
    result = _run(config, args, args.shoes, coups, exact)
    if args.format == "json":
        emit([json.dumps(simulate_dict(result, args.digits), indent=2)])
    elif args.format == "csv":
        write_csv(SIM_CSV_HEADER, simulate_csv_rows(result, args.digits))
    else:
        emit([simulate_text(result, args.digits)])
    return 0


def cmd_crosscheck(args: argparse.Namespace) -> int:
    from solver.crosscheck import burn_laws, crosscheck, exact_law, read_coups, sample_from_simulation
    from solver.report.simulate import CC_CSV_HEADER, crosscheck_csv_rows, crosscheck_dict, crosscheck_text
    from solver.simulate import default_payouts

    alpha = exact_number(args.alpha, "--alpha")
    if not 0 < alpha < 1:
        raise InputError(f"--alpha must lie strictly between 0 and 1, got {alpha}")
    commission = exact_number(args.commission, "--commission")
    payouts = default_payouts(args.game, commission)
    if args.coups is not None:
        if args.simulate is not None:
            raise InputError("give either --coups FILE (a file of dealt coups) or --simulate N, not both")
        shoe = one_shoe(args)
        strategy = strategy_from_args(args, shoe)
        source = "standard input" if args.coups == "-" else args.coups
        stream = _open_input(args.coups)
        try:
            sample = read_coups(stream, source, strategy, args.game, payouts)
        finally:
            if stream is not sys.stdin:
                stream.close()
        law = exact_law(args.game, shoe, strategy)
        cc = crosscheck(sample, law, payouts, alpha=alpha)
    else:
        config = config_from_args(args, first_coup_only=True)
        law = exact_law(config.game, config.shoe, config.strategy)
        burns = burn_laws(law, config.strategy) if config.burn.mode.startswith("turn") and law.detail is not None else None
        result = _run(config, args, None, args.simulate or DEFAULT_SIM_COUPS, None)
        cc = crosscheck(sample_from_simulation(result), law, payouts, burns, alpha)
    if args.format == "json":
        emit([json.dumps(crosscheck_dict(cc), indent=2)])
    elif args.format == "csv":
        write_csv(CC_CSV_HEADER, crosscheck_csv_rows(cc))
    else:
        emit([crosscheck_text(cc)])
    return EXIT_PASS if cc.passed else EXIT_REJECT
