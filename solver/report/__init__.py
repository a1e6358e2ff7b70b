"""Renderers: small pure functions from result objects to text, JSON-ready dicts, CSV rows and LaTeX.

Every number leaves here either exact (a reduced fraction ``p/q``) or as a decimal that says it was
rounded. Decimals are made from the exact Fraction, never through a float.

>>> fraction_str(Fraction(6, 4)), fraction_str(Fraction(-3)), decimal_str(Fraction(1, 3), 4)
('3/2', '-3', '0.3333')
>>> percent_str(Fraction(8954111587648, 19524993263685), 4)
'45.8597'
"""

from __future__ import annotations

from fractions import Fraction

from solver.cards import Shoe
from solver.exact.numbers import decimal_str, fraction_str

__all__ = ["DEFAULT_TEXT_DIGITS", "TEXT_WIDTH", "decimal_str", "fraction_str", "percent_str", "shoe_words", "where_run"]

DEFAULT_TEXT_DIGITS = 4
"""Decimal places of rounded numbers in text reports unless ``--digits`` says otherwise."""

TEXT_WIDTH = 100
"""Text reports keep their lines within this many columns at the default number of digits."""


def percent_str(x: Fraction | int, digits: int) -> str:
    """``100 x`` rounded to ``digits`` decimals."""
    return decimal_str(Fraction(x) * 100, digits)


def shoe_words(shoe: Shoe) -> str:
    """A shoe named in a sentence: ``6 decks``, ``an infinite deck (dealt with replacement)``, ``shoe 4,1,...``."""
    return "an infinite deck (dealt with replacement)" if shoe.is_infinite else shoe.label()


def where_run(workers: str) -> dict[str, object]:
    """Where a run dealt, JSON-ready: ``workers``, the local processes (a JSON integer, as every count
    is), or null on a Dask cluster, whose address is then ``scheduler`` (null for a local run).
    ``workers``: a result's record of it, a number of processes or the scheduler's address.

    >>> where_run("2"), where_run("tcp://host:8786")
    ({'workers': 2, 'scheduler': None}, {'workers': None, 'scheduler': 'tcp://host:8786'})
    """
    if workers.isdigit():
        return {"workers": int(workers), "scheduler": None}
    return {"workers": None, "scheduler": workers}
