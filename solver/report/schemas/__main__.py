"""``python3 -m solver.report.schemas [DIR]``: (re)write the published JSON Schemas (default docs/schemas)."""

import sys

from solver.report.schemas import main

sys.exit(main())
