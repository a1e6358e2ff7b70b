"""The parts the exact counting kernels share: a shoe's tables at the start, and at the end the
residual key and the bets' numerators (:func:`solver.count.fastlaw.numerators`, int64;
:func:`solver.count.denselaw.float_numerators`, float64 sums); and :data:`LANES`, the shoes the lane
kernels price at once (:mod:`solver.count.lanelaw`, :mod:`solver.count.lanes`).

Plain Python, called as they are by the uncompiled kernels; :func:`register` teaches numba to compile
them into a kernel (inlined), once, before a kernel that calls them is compiled. (numba asks an
overload and its implementation for the same signature, annotations included: hence ``Any`` throughout.)
"""

from __future__ import annotations

from typing import Any

from solver.deal.weights import MAX_CARDS

LANES = 8
"""Shoes :func:`solver.count.lanelaw.lane_sums` prices at once, one per lane of the vector registers
(:mod:`solver.count.lanes`)."""


def shoe_tables(counts: Any, size: Any, table: Any, pads: Any) -> Any:
    """Into ``table``, entry ``8 v + b``: ``n_v − b``, what adding a card of value ``v`` to a multiset
    holding ``b`` of them multiplies its weight by; into ``pads``, entry ``k``: ``(N − k)(N − k − 1) …
    (N − 5)``, the ways to deal the rest of a coup after ``k`` cards (``pads[0]`` is ``D``)."""
    for v in range(10):
        for b in range(8):
            table[8 * v + b] = counts[v] - b
    for k in range(MAX_CARDS + 1):
        p = 1
        for j in range(MAX_CARDS - k):
            p *= size - k - j
        pads[k] = p


def settle(sums: Any, d: Any, residual: Any, multiplier: Any, scale: Any, out: Any) -> Any:
    """The residual key's weight, ``D`` minus the others', into ``sums``; each bet's EV numerator over
    ``scale × D``, ``Σ_key multiplier[key, bet] × sums[key] − scale × D``, into ``out``."""
    total = 0
    for k in range(len(sums)):
        total += sums[k]
    sums[residual] = d - total
    for b in range(multiplier.shape[1]):
        acc = -scale[b] * d
        for k in range(len(sums)):
            acc += multiplier[k, b] * sums[k]
        out[b] = acc


_REGISTERED: list[bool] = []


def register() -> None:
    """Let numba compile :func:`shoe_tables` and :func:`settle` (their own bodies, inlined) into the
    kernels that call them."""
    if not _REGISTERED:
        from numba.extending import overload

        @overload(shoe_tables, inline="always")
        def _shoe_tables(counts: Any, size: Any, table: Any, pads: Any) -> Any:
            return shoe_tables

        @overload(settle, inline="always")
        def _settle(sums: Any, d: Any, residual: Any, multiplier: Any, scale: Any, out: Any) -> Any:
            return settle

        _REGISTERED.append(True)
