"""solver.exact.lp: the one way to HiGHS, shared by every solver (proposals only; answers are certified exactly)."""

from __future__ import annotations

import numpy as np

from solver.exact.lp import linear_program


def test_threads_never_share_a_model() -> None:
    """Each thread solves on its own HiGHS object: four threads solving different programs at once
    each get their own optimum, every time."""
    import threading

    found: list[tuple[int, float]] = []

    def solve(k: int) -> None:
        for _ in range(100):
            a = linear_program(
                np.array([-1.0, -1.0]), A_ub=np.array([[1.0, 2.0 + k]]), b_ub=np.array([2.0]), lo=np.zeros(2), hi=np.ones(2)
            )
            assert a is not None
            found.append((k, round(a.fun, 9)))

    threads = [threading.Thread(target=solve, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(set(found)) == [(0, -1.5), (1, round(-4 / 3, 9)), (2, -1.25), (3, -1.2)] and len(found) == 400


def test_a_program_without_variables_is_answered_by_either_engine() -> None:
    """HiGHS has no empty program; ours answers it: optimum 0 where 0 meets every row, else none."""
    for engine in ("highspy", "scipy"):
        ok = linear_program(np.zeros(0), A_ub=np.zeros((2, 0)), b_ub=np.array([0.0, 1.0]), engine=engine)
        assert ok is not None and ok.fun == 0 and len(ok.x) == 0 and list(ok.ineq_duals) == [0, 0]
        assert linear_program(np.zeros(0), A_ub=np.zeros((1, 0)), b_ub=np.array([-1.0]), engine=engine) is None
        assert linear_program(np.zeros(0), A_eq=np.zeros((1, 0)), b_eq=np.array([2.0]), engine=engine) is None
