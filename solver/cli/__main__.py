"""``python -m solver.cli``: the ``baccarat`` command (the console script is :func:`solver.entry.run`)."""

from solver.cli import leave, main

leave(main())
