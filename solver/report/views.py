"""Every public result as data: :func:`to_dict` gives the JSON-ready dict the command line writes for it
(a command of several results lists such dicts under ``results``),
:func:`to_frame` a table a notebook shows (a pandas DataFrame, where pandas is installed).

The results live in the layers below (the games, the simulator, the analysis) and do not know how they
are written; this module, in the report layer, finds each one's renderer by its type, so a user needs
one verb for every result:

>>> from solver import Shoe, punto_banco, to_dict
>>> d = to_dict(punto_banco(Shoe.decks(8)))
>>> d["probabilities"]["banker"], [b["name"] for b in d["bets"]][:3]
('8954111587648/19524993263685', ['banker', 'player', 'tie_8to1'])

The table is the CSV the command writes (``--format csv``), one row per line; a column whose every entry
is an exact integer or fraction holds :class:`~fractions.Fraction` values (never floats: exact stays
exact), the others their text (a rounded decimal stays text: it is not exact). pandas is not a
dependency: without it :func:`to_frame` says how to install it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from solver.analysis.parsheet import ParSheet
from solver.analysis.report import FullReport
from solver.banque.solve import BanqueSolution
from solver.chemin.commission.sweep import CommissionSweep
from solver.chemin.solve import Solution
from solver.count.eor import EorResult
from solver.count.stats import CountResult
from solver.crosscheck import CrossCheck
from solver.crosscheck.banque import BanqueLaw
from solver.errors import InputError
from solver.punto.bet import BetResult
from solver.punto.pricing import PuntoResult
from solver.report import banque, chemin, commission, count, full, parsheet, punto, sessions, simulate
from solver.report.banque_sim import banque_crosscheck_dict, banque_simulate_csv_rows, banque_simulate_dict
from solver.report.bets import bet_detail_dict
from solver.sessions.summary import TableSummary
from solver.simulate.banque import BanqueSimResult
from solver.simulate.stats import SimulationResult

Dict = Callable[[Any], dict[str, object]]
Rows = tuple[Sequence[str], Callable[[Any], list[tuple[str, ...]]]]


def _crosscheck_dict(cc: CrossCheck) -> dict[str, object]:
    return banque_crosscheck_dict(cc) if isinstance(cc.law, BanqueLaw) else simulate.crosscheck_dict(cc)


def _punto_dict(r: PuntoResult) -> dict[str, object]:
    return punto.punto_dict(r, detail=True)  # the command's JSON and CSV always carry the pay tables


def _punto_rows(r: PuntoResult) -> list[tuple[str, ...]]:
    return punto.punto_csv_rows(r, detail=True)


VIEWS: tuple[tuple[type, Dict, Rows | None], ...] = (
    (PuntoResult, _punto_dict, (punto.CSV_HEADER, _punto_rows)),
    (BetResult, bet_detail_dict, None),
    (Solution, chemin.chemin_dict, (chemin.CSV_HEADER, chemin.chemin_csv_rows)),
    (CommissionSweep, commission.sweep_dict, None),
    (BanqueSolution, banque.banque_dict, (banque.CSV_HEADER, banque.banque_csv_rows)),
    (EorResult, count.eor_dict, (count.EOR_CSV_HEADER, count.eor_csv_rows)),
    (CountResult, count.count_dict, (count.COUNT_CSV_HEADER, count.count_csv_rows)),
    (BanqueSimResult, banque_simulate_dict, (simulate.SIM_CSV_HEADER, banque_simulate_csv_rows)),
    (SimulationResult, simulate.simulate_dict, (simulate.SIM_CSV_HEADER, simulate.simulate_csv_rows)),
    (CrossCheck, _crosscheck_dict, (simulate.CC_CSV_HEADER, simulate.crosscheck_csv_rows)),
    (TableSummary, sessions.table_dict, (sessions.TABLE_CSV_HEADER, sessions.table_csv_rows)),
    (ParSheet, parsheet.parsheet_dict, (parsheet.CSV_HEADER, parsheet.parsheet_csv_rows)),
    (FullReport, full.full_dict, (full.REPORT_CSV_HEADER, full.full_csv_rows)),
)
"""Each result type, its JSON-ready dict, and its CSV header and rows (None: it has no table view)."""


def _view(result: object) -> tuple[Dict, Rows | None]:
    for kind, as_dict, rows in VIEWS:
        if isinstance(result, kind):
            return as_dict, rows
    names = ", ".join(kind.__name__ for kind, _, _ in VIEWS)
    raise InputError(f"no view of a {type(result).__name__}: to_dict and to_frame take one of {names}")


def to_dict(result: object) -> dict[str, object]:
    """The JSON-ready dict the command line writes for ``result`` (its ``--format json``; a command of
    several results, such as punto's deck list, lists such dicts under ``results``): every exact number a
    string holding an integer or a fraction (docs/reference.md).

    Raises:
        InputError: ``result`` is not one of the results of :data:`VIEWS`.
    """
    as_dict, _ = _view(result)
    return as_dict(result)


def rows(result: object) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The header and rows the command writes for ``result`` with ``--format csv``.

    Raises:
        InputError: ``result`` has no table view (a commission sweep: use :func:`to_dict`).
    """
    _, table = _view(result)
    if table is None:
        raise InputError(f"a {type(result).__name__} has no table view; to_dict gives all of it")
    header, make = table
    return tuple(header), make(result)


EXACT = re.compile(r"-?[0-9]+(/[0-9]+)?")


def exact_column(values: Sequence[str]) -> list[Fraction | None] | None:
    """The column as exact numbers when every entry is an integer, a fraction or empty (None), else None
    (a rounded decimal is not exact, and stays text).

    >>> exact_column(["1/3", "", "-2"]), exact_column(["1/3", "banker"]), exact_column(["0.25"])
    ([Fraction(1, 3), None, Fraction(-2, 1)], None, None)
    """
    if not any(values) or not all(EXACT.fullmatch(v) for v in values if v):
        return None
    return [Fraction(v) if v else None for v in values]


def to_frame(result: object) -> Any:
    """``result`` as a pandas DataFrame: the rows of ``--format csv``, exact columns as Fractions.

    Raises:
        InputError: pandas is not installed, or ``result`` has no table view.
    """
    header, body = rows(result)
    try:
        import pandas
    except ImportError:
        raise InputError("to_frame needs pandas (pip install pandas); to_dict and the CSV need nothing") from None
    columns: dict[str, list[Any]] = {}
    for k, name in enumerate(header):
        text = [row[k] if k < len(row) else "" for row in body]
        columns[name] = exact_column(text) or text
    return pandas.DataFrame(columns)
