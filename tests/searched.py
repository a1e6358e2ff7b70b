"""The one answer the solver finds by a float search: the team's best guarantee with independent choices
where no independent cooperative equilibrium exists (solver/banque/independent.py's ``_best_product``).

That answer is exact at the strategy found, and the strategy is polished exactly where the cells meet at
the minimum; elsewhere it is the float search's point, which may move by about 1e-12 with scipy's
version (scipy 1.17.1 moved the old, looser search's point by 1e-4 and every certificate with it). Tests
hold that answer to :data:`POINT` and :data:`VALUE`, and every other answer to equality.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

POINT = 1e-7
"""How far a searched strategy's probabilities may move (absolute)."""
VALUE = 1e-10
"""How far the guarantee at a searched strategy may move (absolute; the values are about 0.0087)."""


def is_searched(answer: dict[str, Any]) -> bool:
    """A JSON answer (a certificate or a result) that a float search found."""
    exists = answer.get("exists", answer.get("claims", {}).get("exists"))
    return answer.get("concept") == "independent" and exists is False


def _number(v: Any) -> float | None:
    if isinstance(v, str):
        try:
            return float(Fraction(v))
        except (ValueError, ZeroDivisionError):
            return None
    return None


def assert_same(mine: dict[str, Any], theirs: dict[str, Any], where: str = "") -> None:
    """``mine == theirs``; for a searched answer, its value and strategies within the stated bounds."""
    if not (is_searched(mine) and is_searched(theirs)):
        assert mine == theirs, where
        return
    assert mine.keys() == theirs.keys(), where
    for key in mine:
        a, b = mine[key], theirs[key]
        if key == "value":
            _close(a, b, (where, key), VALUE)
        elif key.startswith("player"):
            _close(a, b, (where, key), POINT)
        else:
            assert a == b, (where, key)


def _close(a: Any, b: Any, where: object, tolerance: float) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _close(a[k], b[k], where, tolerance)
        return
    fa, fb = _number(a), _number(b)
    if fa is None or fb is None:
        assert a == b, where
        return
    assert math.isclose(fa, fb, rel_tol=0, abs_tol=tolerance), (where, a, b)


def assert_same_certificate(mine: str, theirs: str, where: str = "") -> None:
    """Two certificates' texts: equal, or for a searched answer as :func:`assert_same` says."""
    if mine != theirs:
        assert_same(json.loads(mine), json.loads(theirs), where)
