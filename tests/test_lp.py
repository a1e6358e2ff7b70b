"""solver.lp: the one way to HiGHS, shared by every solver (proposals only; answers are certified exactly)."""

from __future__ import annotations

import numpy as np

from solver.lp import linear_program


def test_threads_never_share_a_model() -> None:
    """Each thread solves on its own HiGHS object: four threads solving different programs at once
    each get their own optimum, every time."""
    import threading

    found: list[tuple[int, float]] = []

    def solve(k: int) -> None:
        for _ in range(100):
            a = linear_program(np.array([-1.0, -1.0]), A_ub=np.array([[1.0, 2.0 + k]]), b_ub=np.array([2.0]),
                               lo=np.zeros(2), hi=np.ones(2))
            assert a is not None
            found.append((k, round(a.fun, 9)))

    threads = [threading.Thread(target=solve, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(set(found)) == [(0, -1.5), (1, round(-4 / 3, 9)), (2, -1.25), (3, -1.2)] and len(found) == 400
