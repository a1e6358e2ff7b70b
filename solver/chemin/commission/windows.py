"""Lines in α and the windows they leave: the exact geometry of :mod:`solver.chemin.commission.interval`.

A *line* is an integer pair (p0, p1), the function p0 + p1·α. The banker's net slope coefficients are
lines (``(W − L) − α W``), so a fixed combination of the ponte's system rows, maximised over a box of
coordinates in [0, 1] (some fixed at 0 or 1), is

    F(α) = const(α) + Σ_fixed c_v(α) x_v + Σ_free max(0, c_v(α)),

a convex, piecewise affine function with rational kinks (where a free c_v changes sign).
:func:`zeros_of_box_max` finds, exactly, the open interval around a point on which F < 0; a
:class:`Window` keeps the intersection of such intervals (and of others with algebraic ends).
"""

from __future__ import annotations

from fractions import Fraction

from solver.chemin.commission.pieces import Piece
from solver.exact.algebraic import Algebraic

Line = tuple[int, int]  # p0 + p1·α, integers


class Window:
    """The open interval of α around a sample on which every condition checked so far holds, within
    the piece; ``closed`` says whether each end is itself covered (only ever at the piece's ends)."""

    def __init__(self, piece: Piece) -> None:
        self.ends = [piece.lo, piece.hi]
        self.closed = [not piece.open_lo, not piece.open_hi]
        self.broken = ""

    def cut(self, side: int, x: Algebraic) -> None:
        """Narrow the window's lower (0) or upper (1) end to x, a point where a condition stops holding
        (on that side of the sample): the end is then never covered itself."""
        if x == self.ends[side] or ((x < self.ends[1]) if side == 1 else (self.ends[0] < x)):
            self.ends[side], self.closed[side] = x, False


def add(a: Line, b: Line, w: int = 1) -> Line:
    """a + w·b."""
    return a[0] + w * b[0], a[1] + w * b[1]


def at(p: Line, x: Fraction) -> Fraction:
    """The line's value at x."""
    return p[0] + p[1] * x


def zeros_of_box_max(
    const: Line, coef: dict[int, Line], fixed: dict[int, int], alpha: Fraction
) -> tuple[Fraction | None, Fraction | None] | None:
    """F(α) = max over the box of const + Σ_v coef_v x_v (``fixed`` coordinates at 0 or 1, the others in
    [0, 1]): None if F(alpha) >= 0, else the nearest zeros of F below and above alpha (None: none).

    F is convex and piecewise affine, with a kink where a free coefficient changes sign: walk the kinks
    outwards from alpha, keeping F's line on the current segment."""
    base = const
    free: list[Line] = []
    for v, c in coef.items():
        if v in fixed:
            if fixed[v]:
                base = add(base, c)
        elif c != (0, 0):
            free.append(c)
    out: list[Fraction | None] = []
    for direction in (-1, 1):
        line = base
        kinks: list[tuple[Fraction, Line, int]] = []
        for c in free:
            here = at(c, alpha)
            slope = c[1] * direction  # the coefficient's slope walking outwards
            if here > 0 or (here == 0 and slope > 0):
                line = add(line, c)
            if c[1]:
                root = Fraction(-c[0], c[1])
                if (root - alpha) * direction > 0:
                    kinks.append((root, c, 1 if slope > 0 else -1))
        if at(line, alpha) >= 0:
            return None
        kinks.sort(key=lambda k: k[0] * direction)
        zero = None
        for x, c, toggle in [*kinks, (None, (0, 0), 0)]:
            if line[1] * direction > 0:  # F grows outwards on this segment: its zero, if before the kink
                z = Fraction(-line[0], line[1])
                if x is None or (z - x) * direction <= 0:
                    zero = z
                    break
            if x is None:
                break
            line = add(line, c, toggle)
        out.append(zero)
    return out[0], out[1]
