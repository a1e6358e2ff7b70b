"""The one error hierarchy of the solver.

Every error a user can cause is a :class:`BaccaratError`; the command line turns it into one line on
stderr and exit code 2. Anything else escaping is a bug.
"""

from __future__ import annotations


class BaccaratError(Exception):
    """Base of every error the user can act on."""

    exit_code = 2
    """The command's exit code for this error: 2, unusable input."""


class ShoeError(BaccaratError, ValueError):
    """A shoe specification that does not describe a usable shoe."""


class ModelError(BaccaratError, ValueError):
    """An unknown or inconsistent game model (information, freedom, commission)."""


class InputError(BaccaratError, ValueError):
    """A malformed input file or option value."""


class SolverError(BaccaratError, RuntimeError):
    """A numerical solver failed or its answer could not be certified."""


class RunError(BaccaratError, RuntimeError):
    """The run failed for a reason outside its input (a Dask cluster that died or was left without
    workers, a worker that crashed): exit code 3, distinct from a cross-check's rejection (1)."""

    exit_code = 3
