"""The ``baccarat`` console script: :func:`solver.cli.main`, with an interruption at any moment ending
in one line and exit code 130.

While the command's modules load (the first tenths of a second: argparse, the cards, then the
command's own imports) there is nothing to clean up, so a Ctrl-C then is answered at once by a handler
installed before anything else is imported: the line, and the process ends. :func:`solver.cli.main`
then takes over (Ctrl-C stops the work, stops worker processes and says so), and hands this handler
back when it returns, so that an interrupt while the process ends is answered the same way. After an
interruption the process leaves at once, without waiting for what Python runs at exit (a worker pool's
threads, a Dask client), so nothing it waits on can make it hang.

What no package can answer is an interrupt before this module runs: while Python itself starts (its
``site`` module and installed packages' start-up files, some tens of milliseconds), Python prints its
own traceback.
"""

from __future__ import annotations

import os
import signal

INTERRUPTED = 130
LINE = b"baccarat: interrupted\n"


def interrupted(signum: int, frame: object) -> None:
    """Answer an interrupt while nothing needs cleaning up: one line on stderr, exit code 130, now."""
    try:
        os.write(2, LINE)
    except OSError:
        pass
    os._exit(INTERRUPTED)


def run() -> None:
    """Run the command line and exit with its code (:func:`solver.cli.leave`)."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # a background job's stays ignored
        signal.signal(signal.SIGINT, interrupted)
    from solver.cli import leave, main

    leave(main())


if __name__ == "__main__":
    run()
