"""The whole set of each side's optimal strategies in a zero-sum game, described exactly."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from solver.chemin.game import Game
from solver.chemin.guarantees import banker_slope_signs, ponte_slope_signs
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
    Inequalities that hold on the whole box are dropped, and of the constraints on one weighted
    combination only the tightest are kept (:func:`tightest`). The banker's set is symmetric.
    Constraints are scaled so that their weights sum to one (a weighted average) where they can be.
    """
    c = game.gross
    D = c.denominator
    ps = ponte_slope_signs(c, r)
    bs = banker_slope_signs(c, q)
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
        const = Fraction(int(c.b[i]), D) + sum(
            (Fraction(int(c.G[j][i]), D) * q[j] for j in range(m) if j not in free_q), Fraction(0)
        )
        rel = "=" if 0 < r[i] < 1 else (">=" if r[i] == 1 else "<=")
        con = constraint(coef, const, rel, game.ponte_sets)
        if con is not None:
            cons_q.append(con)
    cons_r = []
    for j in range(m):
        coef = {i: Fraction(int(c.G[j][i]), D) for i in free_r if c.G[j][i] != 0}
        const = Fraction(int(c.a[j]), D) + sum(
            (Fraction(int(c.G[j][i]), D) * r[i] for i in range(n) if i not in free_r), Fraction(0)
        )
        rel = "=" if 0 < q[j] < 1 else ("<=" if q[j] == 1 else ">=")
        con = constraint(coef, const, rel, game.banker_sets)
        if con is not None:
            cons_r.append(con)
    ponte = _pinned(
        OptimalSet(
            Side.PONTE,
            {game.ponte_sets[j]: q[j] for j in range(m) if j not in free_q},
            tuple(game.ponte_sets[j] for j in free_q),
            tightest(cons_q),
        )
    )
    banker = _pinned(
        OptimalSet(
            Side.BANKER,
            {game.banker_sets[i]: r[i] for i in range(n) if i not in free_r},
            tuple(game.banker_sets[i] for i in free_r),
            tightest(cons_r),
        )
    )
    return ponte, banker


def _pinned(o: OptimalSet) -> OptimalSet:
    """The same set, with every free coordinate that one equality alone pins to a value (and that no
    other constraint mentions) moved to the fixed ones."""
    uses: dict[InfoSet, int] = {}
    for c in o.constraints:
        for k in c.weights:
            uses[k] = uses.get(k, 0) + 1
    pins = {
        next(iter(c.weights)): c.rhs / next(iter(c.weights.values()))
        for c in o.constraints
        if c.relation == "=" and len(c.weights) == 1 and uses[next(iter(c.weights))] == 1
    }
    if not pins:
        return o
    fixed = dict(o.fixed)
    fixed.update(pins)
    return OptimalSet(
        o.player,
        fixed,
        tuple(k for k in o.free if k not in pins),
        tuple(c for c in o.constraints if not (len(c.weights) == 1 and next(iter(c.weights)) in pins)),
    )


def tightest(cons: list[Constraint]) -> tuple[Constraint, ...]:
    """The same feasible set, described by the tightest constraints: of all the constraints on one
    weighted combination w·x, keep the largest lower bound and the smallest upper bound (one equality
    when they meet, or when an equality is given), in the order the combinations first appear.

    >>> from solver.strategy import InfoSet, Side
    >>> x = {InfoSet(Side.PONTE, cards=(0, 5)): Fraction(1)}
    >>> [(c.relation, str(c.rhs)) for c in tightest([Constraint(x, ">=", Fraction(1, 6)),
    ...                                               Constraint(x, ">=", Fraction(3, 4)),
    ...                                               Constraint(x, "<=", Fraction(1))])]
    [('>=', '3/4'), ('<=', '1')]
    """
    groups: dict[tuple[tuple[InfoSet, Fraction], ...], dict[str, Fraction]] = {}
    weights: dict[tuple[tuple[InfoSet, Fraction], ...], dict[InfoSet, Fraction]] = {}
    for con in cons:
        key = tuple(sorted(con.weights.items(), key=lambda kv: kv[0].sort_key()))
        weights.setdefault(key, con.weights)
        g = groups.setdefault(key, {})
        if con.relation == "=":
            g["="] = con.rhs
        elif con.relation == ">=":
            g[">="] = max(g.get(">=", con.rhs), con.rhs)
        else:
            g["<="] = min(g.get("<=", con.rhs), con.rhs)
    out: list[Constraint] = []
    for key, g in groups.items():
        w = weights[key]
        if "=" in g:
            out.append(Constraint(w, "=", g["="]))
        elif ">=" in g and "<=" in g and g[">="] == g["<="]:
            out.append(Constraint(w, "=", g[">="]))
        else:
            out += [Constraint(w, rel, g[rel]) for rel in (">=", "<=") if rel in g]
    return tuple(out)
