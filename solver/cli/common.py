"""What every command shares: the argument parser (from :mod:`solver.cli.parser`), shoe and format
options, input files, output.

Results go to stdout, progress and messages to stderr. Exact by default; ``--digits N`` asks for
decimals. Any error the user can cause is one line on stderr and exit code 2 (:data:`EXIT_USAGE`).
"""

from __future__ import annotations

import argparse
import csv
import json
import shlex
import sys
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TextIO

from solver.cards import Shoe, parse_decks, parse_shoe
from solver.cli.messages import Progress as Progress  # re-exported for every command, as the rest below
from solver.cli.messages import add_message_options as add_message_options
from solver.cli.messages import configure_messages as configure_messages
from solver.cli.messages import emit as emit
from solver.cli.messages import note as note
from solver.cli.messages import note_compiling as note_compiling
from solver.cli.parser import EXIT_USAGE, HelpFormatter, Parser  # noqa: F401  (re-exported for every command)
from solver.errors import InputError
from solver.store.files import open_text
from solver.version import __version__

if TYPE_CHECKING:
    from solver.rules.house import HouseRules

EXIT_OK = 0
EXIT_REJECT = 1
EXIT_FAILED = 3
"""The run failed for a reason outside its input: the output could not be written, a Dask cluster
failed or was left without workers (:class:`solver.errors.RunError`)."""
EXIT_INTERRUPTED = 130


def add_shoe_options(p: argparse.ArgumentParser, default_decks: str = "8", several: bool = False) -> None:
    """``--decks``, ``--shoe``, ``--remove``; ``several``: the command takes a list of deck counts (one
    result per shoe), else one shoe (:func:`one_shoe` refuses a list)."""
    g = p.add_argument_group("shoe")
    listed = ", or a list such as 1,2,8,inf for one result per shoe" if several else ""
    g.add_argument(
        "--decks",
        metavar="D",
        help=f"D standard decks (default {default_decks}), or 'inf' for an infinite deck (dealt with replacement){listed}",
    )
    g.add_argument(
        "--shoe",
        metavar="COUNTS",
        help="the shoe by its counts: 10 by point value (tens and court cards first), e.g. 128,32,32,32,32,32,32,32,32,32, "
        "13 by rank (A, 2, ..., 10, J, Q, K) or 52 by rank and suit",
    )
    g.add_argument(
        "--remove",
        metavar="CARDS",
        help="cards already seen, taken out of the shoe, e.g. 5,5,K,0,9 (A, 2-9, T or 10, J, Q, K; 0: a ten-valued card "
        "of unknown rank; KS: a king of spades)",
    )
    p.set_defaults(default_decks=default_decks)


def add_format_options(p: argparse.ArgumentParser, formats: Sequence[str] = ("text", "json", "csv")) -> None:
    """``--format`` and ``--digits``; a command with ``json`` also has ``jsonl`` (JSON Lines)."""
    if "json" in formats and "jsonl" not in formats:
        formats = (*formats[: list(formats).index("json") + 1], "jsonl", *formats[list(formats).index("json") + 1 :])
    p.add_argument("--format", choices=formats, default="text", help=FORMAT_HELP)
    p.add_argument(
        "--digits",
        type=digits_option,
        metavar="N",
        help="also print decimals rounded to N places (exact fractions are always printed)",
    )


FORMAT_HELP = "output format (default text; json: one document; jsonl: one JSON document a line, each result as it comes)"


def digits_option(text: str) -> int:
    """``--digits``: a whole number of decimal places, 0 to 60."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 0 or n > 60:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to 60, got {n}")
    return n


MAX_COUNT = 10**15
"""The most coups or shoes a run may ask for (about a year of one core at 35 million coups a second)."""


def parse_count(text: str) -> int:
    """A positive count as users write it: ``1000000``, ``1e6``, ``10_000_000``; at most :data:`MAX_COUNT`."""
    t = text.strip().replace("_", "").replace(",", "")
    try:
        if len(t) > 30:
            raise ValueError
        mant, e, exp = t.lower().partition("e")
        if e:
            power = int(exp)
            if power > 30:
                raise argparse.ArgumentTypeError(f"at most {MAX_COUNT:.0e}, got {text.strip()!r}")
            value = Fraction(mant) * 10**power if power >= 0 else Fraction(mant) / 10**-power
            if value.denominator != 1:
                raise ValueError
            n = int(value)
        else:
            n = int(t)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"expected a whole number such as 1000000 or 1e6, got {text.strip()[:40]!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text.strip()!r}")
    if n > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"at most {MAX_COUNT:.0e}, got {text.strip()!r}")
    return n


def seed_option(text: str) -> int:
    """``--seed``: a whole number from 0 to 2^128 - 1 (numpy's SeedSequence takes non-negative integers)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text[:40]!r}") from None
    if not 0 <= n < 2**128:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to 2^128 - 1, got {text[:40]!r}")
    return n


TABLEAU_HELP = (
    "house rules: a named sheet (casino, parlor, punto, simplified) or a TOML or JSON file giving the "
    "player's action per total and the banker's per total and third card (docs/howto-house-rules.md)"
)


def add_tableau_option(p: argparse.ArgumentParser) -> None:
    """``--tableau NAME|FILE``: a house's rule sheet (solver.rules.house)."""
    p.add_argument("--tableau", metavar="NAME|FILE", help=TABLEAU_HELP)


def house_from_args(args: argparse.Namespace) -> HouseRules | None:
    """The house rules named by ``--tableau``, read and validated (None without the option)."""
    if getattr(args, "tableau", None) is None:
        return None
    from solver.rules.house import house_rules

    return house_rules(args.tableau)


def commission_text(args: argparse.Namespace, house: HouseRules | None, default: str) -> str:
    """``--commission`` as given, else the house's (when its sheet states one), else ``default``."""
    if args.commission is not None:
        return str(args.commission)
    if house is not None and house.commission is not None:
        from solver.exact.numbers import fraction_str

        return fraction_str(house.commission)
    return default


def add_export_option(p: argparse.ArgumentParser) -> None:
    """``--export FORM FILE``: write the game for Gambit (solver.store.gambit) instead of solving it."""
    p.add_argument(
        "--export",
        nargs=2,
        metavar=("FORM", "FILE"),
        help="write the game for Gambit instead of solving it: FORM is efg (the game tree) or nfg (the normal "
        "form, where small enough); one shoe; --force overwrites FILE",
    )


def export_target(args: argparse.Namespace) -> tuple[Any, str, Shoe]:
    """``--export FORM FILE`` read: (the :class:`~solver.store.gambit.GambitForm`, the file, the one shoe).

    Raises:
        InputError: an unknown form, several shoes, or ``--certificate`` too.
    """
    from solver.store.gambit import GambitForm

    form, path = args.export
    if form.lower() not in set(GambitForm):
        raise InputError(f"--export: the form is efg (the game tree) or nfg (the normal form), got {form!r}")
    if getattr(args, "certificate", None):
        raise InputError("give --export or --certificate, not both (an exported game is not solved)")
    shoes = shoes_from_args(args)
    if len(shoes) != 1:
        raise InputError("--export writes one game: give one shoe, not a list")
    return GambitForm(form.lower()), path, shoes[0]


def shoes_from_args(args: argparse.Namespace) -> list[Shoe]:
    """The shoes named by ``--decks`` / ``--shoe`` / ``--remove`` (a deck list gives several)."""
    if args.shoe is not None:
        if args.decks is not None:
            raise InputError("give either --decks or --shoe, not both")
        return [parse_shoe(shoe=args.shoe, remove=args.remove)]
    shoes = parse_decks(args.decks if args.decks is not None else args.default_decks)
    if args.remove:
        shoes = [s.remove(t for t in args.remove.split(",") if t.strip()) for s in shoes]
    return shoes


def one_shoe(args: argparse.Namespace) -> Shoe:
    """The one shoe a command takes."""
    shoes = shoes_from_args(args)
    if len(shoes) != 1:
        raise InputError("this command takes one shoe, not a list")
    return shoes[0]


# -- input files ------------------------------------------------------------------------------------


def open_input(name: str) -> TextIO:
    """A text file to read (UTF-8, a byte-order mark allowed), or standard input for ``-``."""
    return open_text(name, sys.stdin)


def source_name(name: str) -> str:
    """How an input is named in messages."""
    return "standard input" if name == "-" else name


# -- output -----------------------------------------------------------------------------------------


TOOL_NAME = "baccarat"


def command_line(args: argparse.Namespace) -> str:
    """The command as the user could type it again (``baccarat`` and the arguments given, shell-quoted).

    :func:`solver.cli.main` records it on ``args``; without that (a command run directly), the
    process's own arguments."""
    line = getattr(args, "command_line", None)
    return line if line is not None else shlex.join([TOOL_NAME, *sys.argv[1:]])


def json_document(doc: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """A JSON document as every command writes it: ``tool`` (``name``, ``version``) and ``command`` (see
    :func:`command_line`) first, then the document's own fields, unchanged."""
    return {"tool": {"name": TOOL_NAME, "version": __version__}, "command": command_line(args), **doc}


def json_file_text(doc: dict[str, Any], args: argparse.Namespace) -> str:
    """A JSON document for a file a command writes: :func:`json_document`, indented, ending in a newline."""
    return json.dumps(json_document(doc, args), indent=2) + "\n"


JSON_FORMATS = ("json", "jsonl")
"""The ``--format`` words of JSON output: one document (``json``, indented), or JSON Lines (``jsonl``)."""


def emit_document(doc: dict[str, Any], args: argparse.Namespace) -> None:
    """Write a command's one JSON document to stdout through :func:`json_document`: indented for
    ``--format json``, on one line for ``--format jsonl``."""
    emit([json.dumps(json_document(doc, args), indent=None if args.format == "jsonl" else 2)])


def emit_results(
    docs: Iterable[dict[str, Any]], args: argparse.Namespace, key: str = "results", lines: bool | None = None
) -> None:
    """Write the results of a command that gives one per shoe (θ, concept, sheet, ...): for ``--format
    json`` one document (:func:`json_document`) whose ``key`` lists them, whatever their number; for
    ``--format jsonl`` one line per result, each a document of its own, written as it comes (``docs``
    may be a generator). ``lines``: JSON Lines or not, where ``--format`` does not say it alone."""
    if (args.format == "jsonl") if lines is None else lines:
        for d in docs:
            emit([json.dumps(json_document(d, args))])
            sys.stdout.flush()
    else:
        emit([json.dumps(json_document({key: list(docs)}, args), indent=2)])


def emit_json(docs: Sequence[dict[str, Any]], args: argparse.Namespace, lines: bool | None = None) -> None:
    """Write JSON documents to stdout, each through :func:`json_document`: indented when there is one,
    one per line when there are several (or when ``lines`` says so). The form of ``punto --shoes``'s
    JSON Lines; a command's own output goes through :func:`emit_document` or :func:`emit_results`."""
    one_per_line = len(docs) > 1 if lines is None else lines
    emit(json.dumps(json_document(d, args), indent=None if one_per_line else 2) for d in docs)


def write_csv(header: Sequence[str], rows: Iterable[Sequence[str]]) -> None:
    """CSV to stdout."""
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)


def render(
    results: Iterable[Any],
    args: argparse.Namespace,
    as_dict: Callable[..., dict[str, object]],
    as_csv: tuple[Sequence[str], Callable[..., list[tuple[str, ...]]]],
    as_text: Callable[..., str],
    as_table: Callable[..., str],
    key: str | None = "results",
) -> None:
    """Write results in the format asked for: JSON (:func:`emit_results` under ``key``; ``key`` None: a
    command of one result, :func:`emit_document`), CSV rows, one text report, or a text table with one
    row per result."""
    if args.format in JSON_FORMATS:
        if key is None:
            (only,) = results
            emit_document(as_dict(only, args.digits), args)
        else:
            emit_results((as_dict(r, args.digits) for r in results), args, key)
        return
    results = list(results)
    if args.format == "csv":
        header, rows = as_csv
        write_csv(header, (row for r in results for row in rows(r, args.digits)))
    elif len(results) == 1:
        emit([as_text(results[0], args.digits)])
    else:
        emit([as_table(results, args.digits)])
