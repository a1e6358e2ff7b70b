"""The ``baccarat`` command: one module per command, shared options in :mod:`solver.cli.common`.

Results go to stdout, progress and messages to stderr. Exact by default; ``--digits N`` asks for
decimals. Any error the user can cause is one line on stderr and exit code 2.
"""

from __future__ import annotations

import _thread
import argparse
import importlib
import io
import os
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import NoReturn

from solver.cli.common import EXIT_FAILED, EXIT_INTERRUPTED, add_message_options, configure_messages
from solver.cli.messages import finish
from solver.cli.output import prepare_streams, say, silence_stdout
from solver.cli.parser import EXIT_USAGE, Parser
from solver.errors import BaccaratError
from solver.simulate.executor import keep_one_thread
from solver.version import __version__

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

    Exit codes: 0 done (or the check passed; also when the reader of a pipe stops reading, as ``| head``
    does: quietly); 1 the cross-check rejected; 2 unusable input; 3 the run failed (the output could not
    be written: a closed or full standard output is one line on stderr; a Dask cluster failed or was left
    without workers); 130 interrupted (one line, at any moment of the run).
    """
    keep_one_thread()  # before numpy loads: the process can then fork its workers safely
    prepare_streams()
    previous = signal.getsignal(signal.SIGINT) if _main_thread() else None
    unraisable = sys.unraisablehook
    try:
        install_signal_handlers()
        # an interrupt that lands where Python cannot raise it (a finaliser, a C library's callback, as
        # llvmlite's are while numba compiles) is not printed as "Exception ignored" and lost
        sys.unraisablehook = quiet_unraisable_interrupts(unraisable)
        code = _run(list(sys.argv[1:] if argv is None else argv))
        sys.stdout.flush()  # here, not at exit: a full or closed stdout is then one line and exit 1
        return code
    except BaccaratError as e:
        finish()
        say(f"baccarat: error: {e}")
        return e.exit_code
    except KeyboardInterrupt:
        if previous is not None:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C cannot interrupt the goodbye
        finish()
        say("baccarat: interrupted")
        return EXIT_INTERRUPTED
    except ImportError:  # an interrupt inside a C extension's import (numpy's) comes back as an ImportError
        if not SIGNALLED:
            raise
        if previous is not None:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        say("baccarat: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader stopped listening (e.g. piped into head): stop quietly, like a Unix tool
        silence_stdout()
        return 0
    except OSError as e:
        if _is_stdout_error(e):
            silence_stdout()
            say(f"baccarat: error: cannot write the output: {e.strerror or e}")
            return EXIT_FAILED
        raise
    finally:
        sys.unraisablehook = unraisable
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def leave(code: int) -> NoReturn:
    """End the process with ``code``: through Python's usual exit, or, after an interruption, at once
    (standard streams flushed, as far as they can be), without waiting for what Python runs at exit (a
    worker pool's threads, a Dask client), so that nothing it waits on can make an interrupted run hang."""
    if code == EXIT_INTERRUPTED:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        os._exit(code)
    sys.exit(code)


def _run(words: list[str]) -> int:
    """Parse ``words`` and run the command; argparse's own exits (``--help``, a usage error) return
    their code, so that their output is flushed (and its failure reported) like a command's."""
    if words == ["--version"]:  # what argparse prints, without importing every command (and numpy) first
        sys.stdout.write(f"baccarat {__version__}\n")
        return 0
    if words and words[0] in ALIASES:
        words[0] = ALIASES[words[0]]
    parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
    printed = io.StringIO()  # argparse would swallow a failed write of --help: it writes here, then we do
    stdout, sys.stdout = sys.stdout, printed
    try:
        args = parser.parse_args(words)
        code = None
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else EXIT_USAGE)
    finally:
        sys.stdout = stdout
    if printed.getvalue():
        sys.stdout.write(printed.getvalue())
    if code is not None:
        return code
    args.command_line = shlex.join(["baccarat", *words])
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    configure_messages(args)
    return int(args.run(args))


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


SIGNALLED: list[int] = []
"""The interrupting signals this process received during a run (an interrupt that lands inside a C
extension's import is turned into an ImportError there: this says it was an interrupt)."""


def install_signal_handlers() -> None:
    """Ctrl-C (SIGINT), SIGTERM and SIGHUP end the run alike: work stops, worker processes are stopped,
    one line on stderr ("interrupted"), exit code 130 — never an orphaned process (workers also ask the
    kernel to kill them if their parent dies: :func:`solver.simulate.run.die_with_parent`).

    (An interrupt that lands where Python cannot raise it is handled by :func:`quiet_unraisable_interrupts`,
    which :func:`main` installs for the run.)"""
    if not _main_thread():  # signals reach the main thread only
        return

    installer = os.getpid()

    def interrupt(signum: int, frame: object) -> None:
        if os.getpid() != installer:
            # a worker forked from this process and signalled (stopped) before it set its own handlers:
            # it ends as the signal's default would, without a traceback from multiprocessing's bootstrap
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        SIGNALLED.append(signum)
        raise KeyboardInterrupt

    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # ignored: started in the background, or so asked
        signal.signal(signal.SIGINT, interrupt)
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None and signal.getsignal(sig) is not signal.SIG_IGN:  # nohup's SIGHUP stays ignored
            signal.signal(sig, interrupt)


def quiet_unraisable_interrupts(before: Callable[[sys.UnraisableHookArgs], object]) -> Callable[[sys.UnraisableHookArgs], None]:
    """A :func:`sys.unraisablehook` under which a KeyboardInterrupt Python could not raise (in a
    ``__del__``, a ctypes callback, a garbage collector's callback) is raised in the main thread
    instead, just after the hook has returned (``_thread.interrupt_main`` from a timer's thread;
    nothing happens once SIGINT is ignored, as after the goodbye line); any other unraisable error goes
    to ``before``."""

    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        if unraisable.exc_type is None or not issubclass(unraisable.exc_type, KeyboardInterrupt):
            before(unraisable)
            return
        try:
            _interrupt_soon()
        except KeyboardInterrupt:  # the interrupt came back here, inside the hook: once more
            _interrupt_soon()

    return hook


INTERRUPT_AGAIN = 0.02
"""Seconds after which an interrupt Python could not raise is raised again (the hook has returned)."""


_PENDING = threading.Lock()
"""Held while an interrupt is on its way: the interrupts of one Ctrl-C that land in a callback called
many times (``qsort``'s comparisons, a compiler's visitors) are raised once, not once a call."""


def _interrupt_soon() -> None:
    if not _PENDING.acquire(blocking=False):
        return

    def interrupt() -> None:
        _PENDING.release()
        _thread.interrupt_main()

    timer = threading.Timer(INTERRUPT_AGAIN, interrupt)
    timer.daemon = True
    timer.start()


def _is_stdout_error(e: OSError) -> bool:
    """Whether an OSError came from writing standard output (a full disk, a closed descriptor)."""
    try:
        sys.stdout.flush()
    except OSError:
        return True
    return e.filename is None and e.errno is not None


if __name__ == "__main__":
    leave(main())
