"""The ``baccarat`` command: one module per command, shared options in :mod:`solver.cli.common`.

Results go to stdout, progress and messages to stderr. Exact by default; ``--digits N`` asks for
decimals. Any error the user can cause is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import shlex
import sys
from collections.abc import Sequence

from solver import __version__
from solver.cli.common import EXIT_FAILED, EXIT_INTERRUPTED, add_message_options, configure_messages
from solver.cli.output import prepare_streams, silence_stdout
from solver.cli.parser import EXIT_USAGE, Parser
from solver.errors import BaccaratError
from solver.simulate.executor import keep_one_thread

COMMANDS = (
    "report",
    "punto",
    "chemin",
    "banque",
    "latex",
    "figures",
    "simulate",
    "crosscheck",
    "table",
    "eor",
    "count",
    "parsheet",
)
"""The commands, in the order ``baccarat --help`` lists them; each is the module ``solver.cli.NAME``, with
``add_parser(sub)``. Only the command being run is imported (a command's imports cost start-up time)."""

ALIASES = {"tables": "latex"}
"""Older names of commands, still accepted: ``baccarat tables`` is ``baccarat latex``."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``baccarat`` argument parser with every command, or with the command ``only`` alone."""
    parser = Parser(
        prog="baccarat",
        description="Exact solver for baccarat: punto banco, chemin de fer and baccara banque, with certificates.",
        epilog="Run 'baccarat COMMAND --help' for a command's options and examples.\n\n"
        "examples:\n  baccarat report\n  baccarat punto --decks 6 --remove 5,5,K --format json\n",
    )
    parser.add_argument("--version", action="version", version=f"baccarat {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name in COMMANDS if only is None else (only,):
        importlib.import_module(f"solver.cli.{name}").add_parser(sub)
    for p in sub.choices.values():
        add_message_options(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``baccarat`` with ``argv`` (default: the process's arguments); returns the exit code.

    Exit codes: 0 done (or the check passed); 1 the cross-check rejected; 2 unusable input; 3 the run
    failed (the output could not be written, a Dask cluster failed or was left without workers);
    130 interrupted.
    """
    keep_one_thread()  # before numpy loads: the process can then fork its workers safely
    prepare_streams()
    install_signal_handlers()
    words = list(sys.argv[1:] if argv is None else argv)
    if words == ["--version"]:  # what argparse prints, without importing every command (and numpy) first
        sys.stdout.write(f"baccarat {__version__}\n")
        return 0
    if words and words[0] in ALIASES:
        words[0] = ALIASES[words[0]]
    parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
    args = parser.parse_args(words)
    args.command_line = shlex.join(["baccarat", *words])
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        configure_messages(args)
        code = int(args.run(args))
        sys.stdout.flush()
        return code
    except BaccaratError as e:
        sys.stderr.write(f"baccarat: error: {e}\n")
        return e.exit_code
    except BrokenPipeError:  # the reader stopped listening (e.g. piped into head): stop quietly, like a Unix tool
        silence_stdout()
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("baccarat: interrupted\n")
        return EXIT_INTERRUPTED
    except OSError as e:
        if _is_stdout_error(e):
            silence_stdout()
            sys.stderr.write(f"baccarat: error: cannot write the output: {e.strerror or e}\n")
            return EXIT_FAILED
        raise


def install_signal_handlers() -> None:
    """SIGTERM and SIGHUP end the run as Ctrl-C does: work stops, worker processes are stopped, one
    line on stderr ("interrupted"), exit code 130 — never an orphaned process (workers also ask the
    kernel to kill them if their parent dies: :func:`solver.simulate.run.die_with_parent`)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            signal.signal(sig, interrupt)


def _is_stdout_error(e: OSError) -> bool:
    """Whether an OSError came from writing standard output (a full disk, a closed descriptor)."""
    try:
        sys.stdout.flush()
    except OSError:
        return True
    return e.filename is None and e.errno is not None


if __name__ == "__main__":
    sys.exit(main())
