"""What pyproject.toml cannot say: the packages' layout and data, and the simulator's C kernel.

- ``solver`` and its subpackages, with ``py.typed`` (the package is typed: ``mypy --strict`` on a user's
  script sees its types).
- The independent checker, ``proofs/`` in the checkout, installed under a name of its own,
  ``baccarat_proofs`` (``baccarat-check``), with the committed certificates as its package data, so an
  installed ``baccarat report`` reads them and ``baccarat-check`` with no argument checks them all.
- The simulator's C dealing kernel. The extension is optional: where no C compiler is found the install
  still succeeds, and the simulator falls back to the same kernel compiled by numba, saying so on stderr.
"""

from setuptools import Extension, find_packages, setup

CHECKER = ("baccarat_proofs", "baccarat_proofs.certificates", "baccarat_proofs.certificates.banque")

setup(
    # The certificates' folders are listed as packages of data (setuptools' way for folders of data files).
    packages=[*find_packages(include=["solver", "solver.*"]), *CHECKER],
    package_dir={"baccarat_proofs": "proofs"},
    package_data={
        "solver": ["py.typed", "simulate/ckernel.c"],
        "baccarat_proofs": ["py.typed", "README.md"],
        "baccarat_proofs.certificates": ["*.json", "*.md", "*.tex"],
        "baccarat_proofs.certificates.banque": ["*.json"],
    },
    ext_modules=[
        Extension("solver.simulate.ckernel", ["solver/simulate/ckernel.c"], optional=True),
    ],
)
