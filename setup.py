"""Build the simulator's C dealing kernel (everything else is declared in pyproject.toml).

The extension is optional: where no C compiler is found the install still succeeds, and the
simulator falls back to the same kernel compiled by numba, saying so on stderr.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("solver.simulate.ckernel", ["solver/simulate/ckernel.c"], optional=True),
    ],
)
