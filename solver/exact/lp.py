"""Float linear programs, for proposals only: every solver's one way to call HiGHS.

A float optimum is never a result: the callers snap it to rationals (or read a support from it) and
certify exactly. :func:`linear_program` solves

    min cost·x  subject to  A_ub x ≤ b_ub,  A_eq x = b_eq,  lo ≤ x ≤ hi

with HiGHS, through highspy (HiGHS's own Python interface, which loads in a tenth of the time
``scipy.optimize`` takes) where it is installed, else through ``scipy.optimize.linprog`` (the same
HiGHS, bundled with scipy). Both give the row duals with scipy's sign convention (the derivative of
the optimum with respect to the right-hand side).

>>> import numpy as np
>>> a = linear_program(np.array([-1.0, -1.0]), A_ub=np.array([[1.0, 2.0]]), b_ub=np.array([2.0]),
...                    lo=np.zeros(2), hi=np.ones(2))
>>> [round(float(v), 6) for v in a.x], round(a.fun, 6), [round(float(v), 6) for v in a.ineq_duals]
([1.0, 0.5], -1.5, [-0.5])
"""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

FLOAT_TOL = 1e-9
"""Tolerance used only to read a float LP answer (which bound, which cells tight); never to certify."""

ENGINES = ("highspy", "scipy")
"""The two ways to HiGHS (:func:`linear_program`'s ``engine``)."""


@dataclass(frozen=True)
class LPAnswer:
    """An optimal solution: the point, the optimum, and the duals of the ≤ rows and of the = rows."""

    x: np.ndarray
    fun: float
    ineq_duals: np.ndarray
    eq_duals: np.ndarray


def default_engine() -> str:
    """``highspy`` where it is installed, else ``scipy``."""
    try:
        import highspy  # noqa: F401
    except ImportError:
        return "scipy"
    return "highspy"


def linear_program(
    cost: np.ndarray,
    A_ub: Any = None,
    b_ub: Any = None,
    A_eq: Any = None,
    b_eq: Any = None,
    lo: Any = None,
    hi: Any = None,
    engine: str | None = None,
    presolve: bool = True,
) -> LPAnswer | None:
    """min cost·x s.t. A_ub x ≤ b_ub, A_eq x = b_eq, lo ≤ x ≤ hi (lo 0 and hi +∞ where not given; a
    bound may be ±inf; the matrices dense or scipy sparse); None unless solved to optimality.

    ``presolve=False`` skips HiGHS's presolve, which costs more than it saves on a program of a few
    dozen variables (the answer is an optimum either way; where there are several, which one may differ)."""
    n = len(cost)
    if n == 0:  # no variable (e.g. a house sheet with no free decision): HiGHS has no empty program
        ub = np.zeros(0) if b_ub is None else np.asarray(b_ub, dtype=float)
        eq = np.zeros(0) if b_eq is None else np.asarray(b_eq, dtype=float)
        if np.any(ub < 0) or np.any(eq != 0):
            return None  # infeasible: 0 ≤ b_ub and 0 = b_eq must hold
        return LPAnswer(np.zeros(0), 0.0, np.zeros(len(ub)), np.zeros(len(eq)))
    lo = np.zeros(n) if lo is None else np.asarray(lo, dtype=float)
    hi = np.full(n, np.inf) if hi is None else np.asarray(hi, dtype=float)
    if (engine or default_engine()) == "scipy":
        from scipy.optimize import linprog

        res = linprog(
            cost,
            A_ub=A_ub,
            b_ub=b_ub,
            A_eq=A_eq,
            b_eq=b_eq,
            bounds=list(zip(lo, hi)),
            method="highs",
            options={"presolve": presolve},
        )
        if res.status != 0:
            return None
        return LPAnswer(res.x, float(res.fun), np.asarray(res.ineqlin.marginals), np.asarray(res.eqlin.marginals))
    import highspy

    inf = highspy.kHighsInf
    n_ub = 0 if A_ub is None else A_ub.shape[0]
    n_eq = 0 if A_eq is None else A_eq.shape[0]
    h = _solver(presolve)
    start, index, value = _columns([m for m in (A_ub, A_eq) if m is not None], n)
    eq_rhs = np.zeros(0) if b_eq is None else np.asarray(b_eq, dtype=float)
    passed = h.passModel(
        n,
        n_ub + n_eq,
        len(value),
        int(highspy.MatrixFormat.kColwise),
        int(highspy.ObjSense.kMinimize),
        0.0,
        np.asarray(cost, dtype=float),
        np.where(np.isinf(lo), -inf, lo),
        np.where(np.isinf(hi), inf, hi),
        np.concatenate([np.full(n_ub, -inf), eq_rhs]),
        np.concatenate([np.zeros(0) if b_ub is None else np.asarray(b_ub, dtype=float), eq_rhs]),
        start,
        index,
        value,
        np.zeros(n, dtype=np.int32),
    )
    if passed == highspy.HighsStatus.kError:
        return None
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    solution = h.getSolution()
    duals = np.array(solution.row_dual)
    return LPAnswer(np.array(solution.col_value), float(h.getInfo().objective_function_value), duals[:n_ub], duals[n_ub:])


def _columns(blocks: list[Any], n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The stacked matrix of ``blocks`` in compressed columns (start, row index, value), zeros left out."""
    if any(hasattr(b, "tocsc") for b in blocks):
        from scipy.sparse import csc_matrix, vstack

        m = csc_matrix(vstack(blocks))
        m.eliminate_zeros()
        m.sort_indices()
        return m.indptr.astype(np.int32), m.indices.astype(np.int32), m.data.astype(float)
    dense = np.vstack([np.asarray(b, dtype=float) for b in blocks]) if blocks else np.zeros((0, n))
    cols, rows = np.nonzero(dense.T)  # column-major order: by column, then by row
    start = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(cols, minlength=n), out=start[1:])
    return start, rows.astype(np.int32), dense.T[cols, rows]


_HIGHS_GREETED: list[bool] = []
_SOLVER: dict[int, list[Any]] = {}


def _solver(presolve: bool) -> Any:
    """This thread's one quiet ``highspy.Highs`` (made once: making one costs more than a small solve;
    one per thread, so threads never share a model), with presolve on or off. Each
    :func:`linear_program` passes it a whole new model, which clears the last one's basis and solution,
    so answers do not depend on what it solved before."""
    key = threading.get_ident()
    if key not in _SOLVER:
        h = quiet_highs()
        h.setOptionValue("output_flag", False)
        _SOLVER[key] = [h, None]
    entry = _SOLVER[key]
    if entry[1] != presolve:
        entry[0].setOptionValue("presolve", "choose" if presolve else "off")
        entry[1] = presolve
    return entry[0]


def quiet_highs() -> Any:
    """A ``highspy.Highs`` solver, without the greeting HiGHS's library prints on standard output when
    a process makes its first one (before any option can turn it off): our stdout carries data only."""
    import highspy

    if _HIGHS_GREETED:
        return highspy.Highs()
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
        h = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    _HIGHS_GREETED.append(True)
    return h
