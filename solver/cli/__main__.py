"""``python -m solver.cli``: the ``baccarat`` command."""

import sys

from solver.cli import main

sys.exit(main())
