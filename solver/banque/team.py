"""The two players as one team against the banker: moments, guarantees and the correlated LP.

A team strategy enters every payoff only through its *moments* z[j, k] = E[x_j y_k] (j, k = −1
standing for an absent factor, so z[−1, −1] = 1, z[j, −1] = E[x_j], z[−1, k] = E[y_k]), because each
monomial of the multilinear form holds at most one variable of each player. A correlated team
strategy (a shared random device) is a law on the team's pure strategies; it is written here as
λ_a, the probability that Player 1 plays the pure strategy a (a draw or stand at each of his sets),
and v_a,k = λ_a × P(Player 2 draws at k | a): the payoff is linear in (λ, v), and any joint law with
these conditional marginals is equivalent.

Against moments z the banker's best reply is cell by cell, so the team's guarantee (the most the
banker can get) is

    f(z) = Σ_{m: i = −1} c_m z[j_m, k_m] + Σ_i max(0, s_i(z)),   s_i(z) = Σ_{m: i_m = i} c_m z[j_m, k_m];

against a banker strategy r the team's best reply is a pure strategy: Player 1's a (at most 2^5 to
try), then Player 2 set by set, so the banker's guarantee is

    h(r) = min_a [ Σ_{m ∋ a, k = −1} c_m r_i + Σ_k min(0, Σ_{m ∋ a, k_m = k} c_m r_i) ].

By LP duality min f = max h; a pair with f(z*) = h(r*), checked exactly, is optimal (the same
certificate as chemin de fer's f(q) = h(r)).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from solver.banque.forms import Payoff, scaled
from solver.exact.numbers import quotient

MAX_PLAYER1_SETS = 5


@dataclass(frozen=True, eq=False)
class TeamView:
    """A payoff seen by the team: monomials grouped by moment, and Player 1's pure strategies (atoms)."""

    payoff: Payoff

    @cached_property
    def shape(self) -> tuple[int, int, int]:
        return self.payoff.sizes()

    @cached_property
    def atoms(self) -> tuple[tuple[int, ...], ...]:
        m1 = self.shape[0]
        if m1 > MAX_PLAYER1_SETS:
            raise ValueError("too many Player 1 sets for the team's atoms")
        return tuple(itertools.product((0, 1), repeat=m1))

    @cached_property
    def moment(self) -> np.ndarray:
        """Per monomial, its moment index (j + 1) × (m2 + 1) + (k + 1)."""
        j, k, _ = self.payoff.monomials
        index: np.ndarray = (j + 1) * (self.shape[1] + 1) + (k + 1)
        return index

    @property
    def n_moments(self) -> int:
        return (self.shape[0] + 1) * (self.shape[1] + 1)

    # -- moments of team strategies -------------------------------------------------------------------

    def moments(self, lam: Sequence[Any], v: Sequence[Sequence[Any]]) -> list[Any]:
        """The moments of a correlated strategy (λ_a, v_a,k)."""
        m1, m2, _ = self.shape
        z: list[Any] = [0] * self.n_moments
        for a, la, va in zip(self.atoms, lam, v):
            for j in [-1] + [j for j in range(m1) if a[j]]:
                base = (j + 1) * (m2 + 1)
                z[base] = z[base] + la
                for k in range(m2):
                    z[base + k + 1] = z[base + k + 1] + va[k]
        return z

    def product_moments(self, x: Sequence[Any], y: Sequence[Any]) -> list[Any]:
        """The moments of independent choices x (Player 1) and y (Player 2)."""
        xs = [1, *x]
        ys = [1, *y]
        return [xj * yk for xj in xs for yk in ys]

    # -- the guarantees -----------------------------------------------------------------------------

    def cell_slopes(self, z: Sequence[Any]) -> tuple[Any, list[Any]]:
        """The team's part Σ_{i = −1} c z and the banker's slopes s_i(z), exact, times the denominator."""
        p = self.payoff
        _, _, i = p.monomials
        zz, d = scaled(z)
        terms = p.coef * zz[self.moment]
        base = sum(terms[i < 0].tolist(), 0)
        sums: list[Any] = [0] * self.shape[2]
        for c, t in zip(i.tolist(), terms.tolist()):
            if c >= 0:
                sums[c] = sums[c] + t
        return quotient(base, d), [quotient(s, d) for s in sums]

    def guarantee_team(self, z: Sequence[Any]) -> Any:
        """f(z): the most the banker can get against the moments z (exact)."""
        base, slopes = self.cell_slopes(z)
        total = base + sum((s for s in slopes if s > 0), 0)
        return quotient(total, self.payoff.denominator)

    def atom_parts(self, r: Sequence[Any]) -> tuple[list[Any], list[list[Any]]]:
        """For each atom a: its cost without Player 2's choices, and Player 2's slopes g_a,k(r), times the
        denominator."""
        p = self.payoff
        j, k, i = p.monomials
        rr, d = scaled(r, absent=True)
        terms = (p.coef * rr[i]).tolist()
        m1, m2, _ = self.shape
        const: list[Any] = []
        slopes: list[list[Any]] = []
        jl, kl = j.tolist(), k.tolist()
        for a in self.atoms:
            c0: Any = 0
            g: list[Any] = [0] * m2
            for jj, kk, t in zip(jl, kl, terms):
                if jj >= 0 and not a[jj]:
                    continue
                if kk < 0:
                    c0 = c0 + t
                else:
                    g[kk] = g[kk] + t
            const.append(quotient(c0, d))
            slopes.append([quotient(x, d) for x in g])
        return const, slopes

    def cell_parts(self, cells: Sequence[int]) -> dict[int, tuple[list[Fraction], list[list[Fraction]]]]:
        """For each banker cell: how drawing there (r_i from 0 to 1) moves each atom's cost without Player
        2's choices and each of Player 2's slopes (the derivative of :meth:`atom_parts` in r_i, likewise times
        the denominator)."""
        p = self.payoff
        j, k, i = p.monomials
        m1, m2, _ = self.shape
        wanted = set(cells)
        out = {c: ([Fraction(0)] * len(self.atoms), [[Fraction(0)] * m2 for _ in self.atoms]) for c in cells}
        for jj, kk, ii, c in zip(j.tolist(), k.tolist(), i.tolist(), p.coef.tolist()):
            if ii not in wanted or not c:
                continue
            const, slopes = out[ii]
            for n, a in enumerate(self.atoms):
                if jj >= 0 and not a[jj]:
                    continue
                if kk < 0:
                    const[n] += c
                else:
                    slopes[n][kk] += c
        return out

    def guarantee_banker(self, r: Sequence[Any]) -> Any:
        """h(r): the least the team can hold the banker to against r (exact)."""
        const, slopes = self.atom_parts(r)
        best = min(c + sum((g for g in gs if g < 0), 0) for c, gs in zip(const, slopes))
        return quotient(best, self.payoff.denominator)

    # -- floats for the LP ------------------------------------------------------------------------------

    def lp_matrices(self) -> tuple[np.ndarray, Any, Any]:
        """Float objective over moments, the cells × moments matrix, and the (λ, v) → moments map."""
        from scipy.sparse import coo_matrix

        p = self.payoff
        _, _, i = p.monomials
        scale = max(abs(int(c)) for c in p.coef) or 1
        cf = np.array([int(c) / scale for c in p.coef])
        obj = np.bincount(self.moment[i < 0], weights=cf[i < 0], minlength=self.n_moments)
        sel = i >= 0
        cells = coo_matrix((cf[sel], (i[sel], self.moment[sel])), shape=(self.shape[2], self.n_moments)).tocsr()
        m1, m2, _ = self.shape
        na = len(self.atoms)
        rows, cols = [], []
        for n, a in enumerate(self.atoms):
            for jj in [-1] + [jj for jj in range(m1) if a[jj]]:
                base = (jj + 1) * (m2 + 1)
                rows.append(base)
                cols.append(n)
                for kk in range(m2):
                    rows.append(base + kk + 1)
                    cols.append(na + n * m2 + kk)
        to_moments = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(self.n_moments, na * (1 + m2))).tocsr()
        return obj, cells, to_moments
