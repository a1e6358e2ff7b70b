"""The ``baccarat`` console script: :func:`solver.cli.main`, with an interruption while the modules
load (the first tens of milliseconds) ending as quietly as one later on."""

from __future__ import annotations

import sys


def run() -> None:
    """Run the command line and exit with its code."""
    try:
        from solver.cli import main

        code = main()
    except KeyboardInterrupt:
        sys.stderr.write("baccarat: interrupted\n")
        code = 130
    sys.exit(code)
