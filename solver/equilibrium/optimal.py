"""The whole set of each side's optimal strategies in a zero-sum game, described exactly."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from solver.equilibrium.exact import banker_slopes, ponte_slopes
from solver.game import Game
from solver.strategy import InfoSet, Side


@dataclass(frozen=True)
class Constraint:
    """A linear constraint on one side's strategy: Σ weights[k] · x_k (relation) rhs."""

    weights: dict[InfoSet, Fraction]
    relation: str  # "=", ">=", "<="
    rhs: Fraction


@dataclass(frozen=True)
class OptimalSet:
    """The whole set of one side's optimal strategies in a zero-sum game (DESIGN: given an optimal
    (q*, r*), q is optimal iff q is a best reply to r* and r* to q).

    Sets in ``fixed`` keep their value in every optimal strategy; those in ``free`` range over [0, 1]
    subject to ``constraints``.
    """

    player: Side
    fixed: dict[InfoSet, Fraction]
    free: tuple[InfoSet, ...]
    constraints: tuple[Constraint, ...]


_FLIP = {"=": "=", ">=": "<=", "<=": ">="}


def _normalised(weights: dict[InfoSet, Fraction], relation: str, rhs: Fraction) -> Constraint:
    """Scale a constraint so that its weights sum to one (a weighted average), where they can."""
    total = sum(weights.values(), Fraction(0))
    if total == 0:
        return Constraint(weights, relation, rhs)
    rel = relation if total > 0 else _FLIP[relation]
    return Constraint({k: w / total for k, w in weights.items()}, rel, rhs / total)


def optimal_sets(game: Game, q: list[Fraction], r: list[Fraction]) -> tuple[OptimalSet, OptimalSet]:
    """Describe every optimal strategy of each side of a zero-sum game, exactly.

    Given one optimal pair (q*, r*), q is optimal iff q is a best reply to r* and r* is a best reply
    to q (and symmetrically for the banker). So the ponte's optimal set is: coordinates whose slope
    under r* is non-zero are fixed; the others range over [0, 1] subject to, for every banker set i
    whose slope involves them, b_i + G_i·q = 0 (r*_i mixed), >= 0 (r*_i = 1) or <= 0 (r*_i = 0).
    Inequalities that hold on the whole box are dropped. The banker's set is symmetric. Constraints
    are scaled so that their weights sum to one (a weighted average) where they can be.
    """
    c = game.gross
    D = c.denominator
    ps = ponte_slopes(c, r)
    bs = banker_slopes(c, q)
    m, n = len(q), len(r)
    free_q = [j for j in range(m) if ps[j] == 0 and not game.inert_ponte[j]]
    free_r = [i for i in range(n) if bs[i] == 0 and not game.inert_banker[i]]

    def constraint(coef: dict[int, Fraction], const: Fraction, rel: str, names: tuple[InfoSet, ...]) -> Constraint | None:
        """const + Σ coef_k x_k (rel) 0 over x in [0, 1]^free; None if it holds on the whole box."""
        if not coef:
            return None
        lo = const + sum((min(Fraction(0), w) for w in coef.values()), Fraction(0))
        hi = const + sum((max(Fraction(0), w) for w in coef.values()), Fraction(0))
        if (rel == ">=" and lo >= 0) or (rel == "<=" and hi <= 0):
            return None
        return _normalised({names[k]: w for k, w in coef.items()}, rel, -const)

    cons_q = []
    for i in range(n):
        coef = {j: Fraction(int(c.G[j][i]), D) for j in free_q if c.G[j][i] != 0}
        const = Fraction(int(c.b[i]), D) + sum((Fraction(int(c.G[j][i]), D) * q[j] for j in range(m) if j not in free_q),
                                               Fraction(0))
        rel = "=" if 0 < r[i] < 1 else (">=" if r[i] == 1 else "<=")
        con = constraint(coef, const, rel, game.ponte_sets)
        if con is not None:
            cons_q.append(con)
    cons_r = []
    for j in range(m):
        coef = {i: Fraction(int(c.G[j][i]), D) for i in free_r if c.G[j][i] != 0}
        const = Fraction(int(c.a[j]), D) + sum((Fraction(int(c.G[j][i]), D) * r[i] for i in range(n) if i not in free_r),
                                               Fraction(0))
        rel = "=" if 0 < q[j] < 1 else ("<=" if q[j] == 1 else ">=")
        con = constraint(coef, const, rel, game.banker_sets)
        if con is not None:
            cons_r.append(con)
    ponte = OptimalSet(Side.PONTE, {game.ponte_sets[j]: q[j] for j in range(m) if j not in free_q},
                       tuple(game.ponte_sets[j] for j in free_q), _dedupe(cons_q))
    banker = OptimalSet(Side.BANKER, {game.banker_sets[i]: r[i] for i in range(n) if i not in free_r},
                        tuple(game.banker_sets[i] for i in free_r), _dedupe(cons_r))
    return ponte, banker


def _dedupe(cons: list[Constraint]) -> tuple[Constraint, ...]:
    """Drop repeats, and inequalities implied by an equality with the same weights."""
    equalities = [c for c in cons if c.relation == "="]
    out: list[Constraint] = []
    for con in cons:
        if con in out:
            continue
        implied = any(
            e.weights == con.weights
            and ((con.relation == "<=" and e.rhs <= con.rhs) or (con.relation == ">=" and e.rhs >= con.rhs))
            for e in equalities
        )
        if not implied:
            out.append(con)
    return tuple(out)
