"""``baccarat banque``: one banker against two tableaux, solved exactly as a three-person game."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.banque.game import BanqueModel
    from solver.banque.solve import BanqueSolution
    from solver.banque.sweep import BanqueFailure
    from solver.cards import Shoe
    from solver.cli.sweep_lines import LineShoe, LineShoes

from solver.cli.common import (
    EXIT_FAILED,
    Progress,
    add_export_option,
    add_format_options,
    add_shoe_options,
    emit,
    export_target,
    note,
    render,
    shoes_from_args,
)
from solver.cli.sweep_lines import add_shoes_option, line_shoes
from solver.cli.workers import SWEEP_WORKERS, add_run_options
from solver.errors import InputError
from solver.simulate.tasks import Idle

EPILOG = """\
models:
  shoe             --decks D (the casinos deal 3 or 6 decks), or inf (with replacement: Ethier's
                   dealing A); a finite shoe is dealt without replacement (dealing B)
  --information    1: each side knows his own total; 2: the banker also knows his two cards;
                   3: the players know their two cards too (chemin de fer's meanings)
  --second-player  blind: Player 2's choice at 5 ignores tableau 1 (the literature's model);
                   sees-first: it may depend on what he saw of tableau 1 (third card, S, N)
  --freedom        parlor: the banker is free in every cell; casino: he follows chemin de fer's
                   casino tableau where the live tableaux agree (a natural does not vote), and is
                   free where they conflict or where the tableau leaves him a choice
  --tax RATE       the cagnotte on the banker's net win of each coup, tableaux netted (0 to 1/10)
  --theta T        Player 1's share of the stake: 1/2, 0.45, a list 1/3,1/2, a sweep LO..HI/STEPS

concepts:
  nash             a Nash equilibrium of the three-person game (irrational ones written exactly)
  correlated       the players as one team with a shared random device (a linear program)
  independent      the team with independent choices: it exists for some theta only; where it
                   does not, that is proved and the team's best guarantee found is printed
  all              the three (default)

examples:
  baccarat banque                                       6 decks, theta 1/2, every concept
  baccarat banque --decks inf --freedom parlor          the rule sheets' 0.87 %
  baccarat banque --theta 1/20..19/20/18 --concept correlated --format csv
  baccarat banque --decks inf --second-player sees-first --format json
  baccarat banque --decks 6 --certificate certs         checkable certificates, one per concept
  baccarat banque --shoes seen.txt --concept correlated  each line's shoe, in order
  baccarat banque --decks 6 --freedom parlor --limit     where banque meets chemin de fer (theta -> 1)
  baccarat banque --decks inf --export efg banque.efg   the three-person game for Gambit (.efg)

JSON: --format json writes one document, its results a list (one per shoe, theta and concept);
--format jsonl one line for each. --shoes FILE solves each line's shoe as a deck list's, every result
with the line's number and text (line, input); with --format jsonl each line is answered as it is
solved (a pipe as it arrives).

exit status: 0 every answer found and certified; 2 unusable input; 3 some concept at some theta has
no certified answer (the others are printed; each failure is one line on stderr)
"""


EXIT_SOME_FAILED = EXIT_FAILED
"""The exit code when some concept at some θ has no certified answer (the run failed, not its input):
every answer found is printed on stdout (and its certificate written), each failure one line on stderr."""


def run(args: argparse.Namespace) -> int:
    from solver.banque.game import BanqueModel
    from solver.banque.solve import CONCEPTS
    from solver.banque.sweep import parse_thetas
    from solver.banque.vocabulary import Concept, Freedom, SecondPlayer
    from solver.cli.sweeps import banque_solutions
    from solver.exact.numbers import exact
    from solver.report.banque import CSV_HEADER, banque_csv_rows, banque_dict, banque_latex, banque_table_text, banque_text

    model = BanqueModel(
        args.information, SecondPlayer.parse(args.second_player), Freedom.parse(args.freedom), exact(args.tax, "the tax")
    )
    if args.limit:
        return _limit(args, model)
    thetas = parse_thetas(args.theta)
    if args.export:
        from solver.banque.gambit import write_gambit
        from solver.banque.game import build_banque

        line_shoes(args)  # refuses --shoes: one game
        form, path, shoe = export_target(args)
        if len(thetas) != 1:
            raise InputError("--export writes one game: give one --theta, not a list")
        note(f"wrote {write_gambit(build_banque(shoe, model), thetas[0], form, path, args.force)} (Gambit {form})")
        return 0
    concepts = list(CONCEPTS) if args.concept == "all" else [Concept.parse(args.concept)]
    if model.tax and Concept.INDEPENDENT in concepts:
        if args.concept == Concept.INDEPENDENT:
            from solver.errors import ModelError

            raise ModelError("the independent cooperative solution is computed without a tax only (use --tax 0)")
        concepts.remove(Concept.INDEPENDENT)
        note("the independent cooperative solution is left out: it is computed without a tax only")
    lines = line_shoes(args)  # the options checked first, then the lines (read first unless --format jsonl)
    if lines is not None:
        return _run_lines(args, lines, model, thetas, concepts)
    shoes = shoes_from_args(args)
    wanted = len(shoes) * len(thetas) * len(concepts)
    if args.certificate:  # a target that cannot hold them is refused before the solves
        from solver.store.files import files_for

        files_for(args.certificate, [str(k) for k in range(wanted)], "one per shoe, concept and theta", f"up to {wanted}")
    solutions, failures = banque_solutions(args, shoes, model, thetas, concepts)
    if args.certificate and solutions:
        from solver.banque.certificate import write_certificates

        write_certificates(solutions, args.certificate, overwrite=args.force)
    if solutions or args.format == "json":  # one document, its results listed, even when none was found
        if args.format == "latex":
            emit([banque_latex(solutions, args.digits)])
        else:
            render(solutions, args, banque_dict, (CSV_HEADER, banque_csv_rows), banque_text, banque_table_text)
    for f in failures:
        report_failure(f, f"{f.shoe.label()}, " if len(shoes) > 1 else "")
    return EXIT_SOME_FAILED if failures else 0


def report_failure(f: BanqueFailure, where: str) -> None:
    """One line on stderr: a concept at a θ with no certified answer, and why (``where``: which shoe)."""
    from solver.exact.numbers import fraction_str

    sys.stdout.flush()
    sys.stderr.write(f"baccarat: error: {where}theta {fraction_str(f.theta)}, {f.concept.value}: {f.reason}\n")


def _run_lines(args: argparse.Namespace, lines: LineShoes, model: BanqueModel, thetas: list[Any], concepts: list[Any]) -> int:
    """``--shoes``: each line's solves as a deck list's shoe's (solver.cli.sweep_lines), a chunk of lines at
    a time (all of them when read first; as they arrive with --format jsonl)."""
    from solver.cli.sweep_lines import by_line, emit_line_results, flush, write_line_csv
    from solver.cli.sweeps import banque_by_shoe
    from solver.report.banque import CSV_HEADER, banque_csv_rows, banque_dict, banque_latex

    if args.certificate and lines.read_first is not None:  # a target that cannot hold them is refused before the solves
        from solver.store.files import files_for

        wanted = len(lines.read_first) * len(thetas) * len(concepts)
        files_for(args.certificate, [str(k) for k in range(wanted)], "one per line, concept and theta", f"up to {wanted}")
    failures: list[tuple[LineShoe, BanqueFailure]] = []
    solutions: list[BanqueSolution] = []

    def solved() -> Iterator[tuple[LineShoe, BanqueSolution]]:  # the progress line: the solves of each chunk
        for chunk in lines.chunks():
            for line, (found, failed) in zip(chunk, banque_by_shoe(args, [x.shoe for x in chunk], model, thetas, concepts)):
                for f in failed:
                    failures.append((line, f))
                    if lines.streaming:
                        report_failure(f, f"{line.where()}, ")
                solutions.extend(found)
                yield from ((line, s) for s in found)
            if lines.streaming:
                flush()

    pairs: Iterable[tuple[LineShoe, BanqueSolution]] = solved()
    if not lines.streaming:
        pairs = list(pairs)
        _certify(args, solutions)
    if args.format in ("json", "jsonl"):
        emit_line_results(pairs, args, banque_dict)
    elif args.format == "csv":
        write_line_csv(pairs, CSV_HEADER, banque_csv_rows, args.digits)
    else:
        groups = by_line(pairs)
        if args.format == "latex":
            emit(["\n".join(f"% {line.heading()}\n" + banque_latex(found, args.digits) for line, found in groups)])
        elif groups:
            emit(["\n\n".join(f"{line.heading()}\n" + _view(found, args.digits) for line, found in groups)])
    lines.finish()
    if lines.streaming:
        _certify(args, solutions)
    else:
        for line, f in failures:
            report_failure(f, f"{line.where()}, ")
    return EXIT_SOME_FAILED if failures else 0


def _view(solutions: list[BanqueSolution], digits: int | None) -> str:
    from solver.report.banque import banque_table_text, banque_text

    return banque_text(solutions[0], digits) if len(solutions) == 1 else banque_table_text(solutions, digits)


def _certify(args: argparse.Namespace, solutions: list[BanqueSolution]) -> None:
    if args.certificate and solutions:
        from solver.banque.certificate import write_certificates

        write_certificates(solutions, args.certificate, overwrite=args.force)


def _limit(args: argparse.Namespace, model: BanqueModel) -> int:
    """``--limit``: the limit as θ → 1 on each shoe (each line's, with ``--shoes``), beside chemin de fer's
    value on it."""
    from solver.banque.limit import theta_one_limit
    from solver.chemin.game import build_game
    from solver.chemin.solve import solve
    from solver.cli.common import emit_results
    from solver.errors import InputError
    from solver.report.banque import limit_dict, limit_text

    if args.theta != "1/2" or args.concept != "all" or args.certificate or args.export:
        raise InputError(
            "--limit takes no --theta, --concept, --certificate or --export (it is the Nash equilibrium's limit as theta -> 1)"
        )
    if args.format not in ("text", "json", "jsonl"):
        raise InputError("--limit writes text, json or jsonl")
    lines = line_shoes(args)
    if lines is None:
        shoes = shoes_from_args(args)
        entries: Iterable[tuple[LineShoe | None, Shoe]] = [(None, shoe) for shoe in shoes]
        progress = Progress(len(shoes), "shoes")
    else:
        entries = ((line, line.shoe) for line in lines.each() if not isinstance(line, Idle))
        progress = Progress(lines.total or 0, "lines")

    def found() -> Iterator[tuple[LineShoe | None, Any, Any]]:
        with progress:
            for n, (line, shoe) in enumerate(entries, start=1):
                limit = theta_one_limit(shoe, model)  # first: a model without a limit is refused before any solve
                yield line, limit, solve(build_game(shoe, model.information, model.freedom.value))
                progress.update(n if line is None else line.number)

    if args.format in ("json", "jsonl"):
        emit_results(({**(line.fields() if line else {}), **limit_dict(lim, ch, args.digits)} for line, lim, ch in found()), args)
    else:
        texts = [(f"{line.heading()}\n" if line else "") + limit_text(lim, ch, args.digits) for line, lim, ch in found()]
        emit(["\n\n".join(texts)])
    if lines is not None:
        lines.finish()
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "banque",
        help="baccara banque: one banker against two tableaux, solved exactly",
        description="Baccara banque as a three-person game (Player 1, Player 2, the banker) with stake share "
        "theta: the Nash equilibrium, the correlated and the independent cooperative solutions, exact "
        "(rational or algebraic), each certified.",
        epilog=EPILOG,
    )
    add_shoe_options(p, default_decks="6", several=True)
    add_format_options(p, formats=("text", "json", "csv", "latex"))
    p.add_argument("--theta", default="1/2", metavar="T", help="Player 1's share of the stake (default 1/2)")
    p.add_argument("--information", type=int, choices=(1, 2, 3), default=1, help="information model (default 1)")
    p.add_argument(
        "--second-player",
        choices=("blind", "sees-first"),
        default="blind",
        help="what Player 2's choice may depend on (default blind)",
    )
    p.add_argument(
        "--freedom", choices=("casino", "parlor"), default="casino", help="which banker decisions are free (default casino)"
    )
    p.add_argument("--tax", default="0", metavar="RATE", help="cagnotte on the banker's net win of a coup, 0 to 1/10 (default 0)")
    p.add_argument(
        "--concept", choices=("nash", "correlated", "independent", "all"), default="all", help="solution concept (default all)"
    )
    p.add_argument("--certificate", metavar="FILE", help="write a certificate (JSON) that proofs/check.py verifies")
    p.add_argument(
        "--limit",
        action="store_true",
        help="the exact limit of the Nash equilibrium's value as theta -> 1, beside chemin de fer's on the same shoe",
    )
    add_export_option(p)
    p.add_argument("--force", action="store_true", help="overwrite an existing certificate or --export file")
    add_shoes_option(p, "one result a theta and concept")
    add_run_options(p.add_argument_group("run"), SWEEP_WORKERS)
    p.set_defaults(run=run)
