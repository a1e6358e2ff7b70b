"""The front door: solve baccara banque under a model, for a stake share θ and a solution concept.

Concepts (:data:`CONCEPTS`):

* ``nash``: a Nash equilibrium of the three-person game (:mod:`solver.banque.nash`);
* ``correlated``: the correlated cooperative solution, the players as one team with a shared random
  device (:mod:`solver.banque.correlated`); with a tax the team-versus-banker game is not zero-sum and
  its equilibrium is found from the zero-sum game on the banker's net payoff (the team's strategy) and
  the team's indifference on the gross payoff (the banker's), then certified by exact best replies;
* ``independent``: the team restricted to independent choices (:mod:`solver.banque.independent`);
  decided for tax 0 only.

Every answer is certified in exact arithmetic before it is returned; a solution says how it was
obtained, whether it exists (False: proved not to), and whether it is unique (None: not decided).

>>> from solver.cards import Shoe
>>> from solver.banque.game import BanqueModel
>>> s = solve_banque(Shoe.infinite(), BanqueModel(1, "blind", "casino"), Fraction(1, 2), "nash")
>>> s.player1, s.player2, s.unique, s.certified
((Fraction(1, 1),), (Fraction(1, 1),), True, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.banque.bounds import bounds_words
from solver.banque.correlated import CorrelatedAnswer, TeamStrategy, correlated, snap_banker
from solver.banque.deal import Enumeration
from solver.banque.dominance import BanqueDominance, iterated_dominance
from solver.banque.forms import Payoff, payoff
from solver.banque.game import RESULT_1, RESULT_2, BanqueGame, BanqueModel, banker_payoff, build_banque
from solver.banque.independent import independent
from solver.banque.nash import NashNotFound, nash
from solver.banque.support import NashAnswer
from solver.banque.team import TeamView
from solver.banque.vocabulary import Concept
from solver.cards import Shoe
from solver.errors import ModelError, SolverError
from solver.exact.linalg import rank
from solver.exact.numberfield import Field, FieldElement, decimal_of
from solver.exact.numbers import exact, fraction_str

CONCEPTS = tuple(Concept)
"""The three concepts, in the order the command shows them."""


@dataclass(frozen=True)
class BanqueSolution:
    """One solution concept of one banque game at one θ, exact and certified.

    Attributes:
        game: the game (shoe and model); theta: Player 1's share of the total stake; concept: see
            :data:`CONCEPTS`.
        exists: the concept has a solution here (False: proved not to; None: not decided).
        value: the banker's expected payoff per unit of total stake, net of the tax (Fraction or
            FieldElement); for an independent solution that does not exist, the team's best guarantee found.
        player1, player2: draw probabilities at 5 per set (for the correlated solution, the marginals).
        banker: draw probabilities per free banker cell (None when the concept gives none).
        team: the correlated team strategy (correlated concept only).
        field: the number field of irrational entries (None: all rational).
        result1, result2: E[R1] and E[R2] at the solution (each player's tableau, the banker's side).
        certified: every claim was checked exactly.
        unique: True: the solution's strategies are proved unique; None: not decided (the Nash search stops at
            the first equilibrium it certifies); False would mean a second solution was exhibited (no
            solver here claims it).
        dominance: decisions settled by iterated strict dominance (for the concept's payoffs).
        method: how it was obtained.
        guarantee_optimal: for an independent solution that does not exist, whether the guarantee is proved
            the best (else None).
        no_equilibrium_at: Nash: values of Player 1's draw probability at 5 where the search proved that no
            equilibrium lies (x = 0 and x = 1 where he must mix; stated in the certificate and re-checked).
    """

    game: BanqueGame
    theta: Fraction
    concept: Concept
    exists: bool | None
    value: Any
    player1: tuple[Any, ...]
    player2: tuple[Any, ...]
    banker: tuple[Any, ...] | None
    team: TeamStrategy | None
    field: Field | None
    result1: Any
    result2: Any
    certified: bool
    unique: bool | None
    dominance: tuple[BanqueDominance, ...]
    method: str
    guarantee_optimal: bool | None = None
    no_equilibrium_at: tuple[Fraction, ...] = ()

    @property
    def model(self) -> BanqueModel:
        return self.game.model

    @property
    def shoe(self) -> Shoe:
        return self.game.shoe

    @property
    def exact(self) -> bool:
        """Always True: every number is a fraction or an element of an exact number field."""
        return True

    @property
    def parameters(self) -> dict[str, str]:
        """The inputs, as the JSON writes them (:class:`~solver.exact.result.Result`)."""
        m = self.model
        return {
            "shoe": self.shoe.label(),
            "information": str(m.information),
            "second_player": m.second_player.value,
            "freedom": m.freedom.value,
            "tax": fraction_str(m.tax),
            "theta": fraction_str(self.theta),
            "concept": self.concept.value,
        }

    def __repr__(self) -> str:
        m = self.model
        head = f"{self.concept.value} at theta {fraction_str(self.theta)}, {m.name(self.shoe)} {m.second_player.value}"
        head += f" {m.freedom.value} on {self.shoe.label()}" + (f", tax {fraction_str(m.tax)}" if m.tax else "")
        if not self.exists:
            return f"BanqueSolution({head}: {'none exists' if self.exists is False else 'not decided'})"
        proved = "certified" if self.certified else "not certified"
        unique = {True: ", unique", False: ", not unique", None: ""}[self.unique]
        return f"BanqueSolution({head}: banker {decimal_of(self.value * 100, 4)} %, {proved}{unique})"


def check_theta(theta: object) -> Fraction:
    """θ as an exact number in the open interval (0, 1).

    Raises:
        ModelError: θ outside (0, 1).
    """
    t = exact(theta, "theta")
    if not 0 < t < 1:
        raise ModelError(f"theta (Player 1's share of the stake) must lie strictly between 0 and 1, got {t}")
    return t


def _field(values: Iterable[Any]) -> Field | None:
    fields = {v.field for v in values if isinstance(v, FieldElement)}
    return fields.pop() if fields else None


def solve_banque(
    shoe: Shoe,
    model: BanqueModel,
    theta: object,
    concept: Concept | str = Concept.CORRELATED,
    game: BanqueGame | None = None,
    enumeration: Enumeration | None = None,
    hint: BanqueSolution | None = None,
) -> BanqueSolution:
    """Solve one concept of banque on ``shoe`` under ``model`` at stake share θ, exactly, certified.

    ``game`` (built for this shoe and model) or ``enumeration`` may be passed to share the enumeration;
    ``hint``, a Nash solution (at a nearby θ for the Nash search in a sweep; at this θ for the independent
    concept, whose best guarantee is then at most the Nash value), seeds the search.

    Raises:
        ModelError: θ outside (0, 1), or an unknown concept.
        SolverError: no certified answer was found.
    """
    which = Concept.parse(concept)
    t = check_theta(theta)
    g = game if game is not None else build_banque(shoe, model, enumeration)
    net = payoff(g, banker_payoff(t, model.tax))
    gross = payoff(g, banker_payoff(t)) if model.tax else net
    r1, r2 = payoff(g, RESULT_1), payoff(g, RESULT_2)
    if which is Concept.NASH:
        return _nash(g, t, net, r1, r2, hint)
    if which is Concept.CORRELATED:
        return _correlated(g, t, net, gross, r1, r2)
    return _independent(g, t, net, r1, r2, hint)


def _nash(g: BanqueGame, t: Fraction, net: Payoff, r1: Payoff, r2: Payoff, hint: BanqueSolution | None = None) -> BanqueSolution:
    dom = iterated_dominance(net, r1, r2)
    seed = None
    if hint is not None and hint.banker is not None:
        seed = NashAnswer(
            x=hint.player1,
            y=hint.player2,
            r=hint.banker,
            field=None,
            banker_payoff=None,
            result1=None,
            result2=None,
            support=((), (), ()),
            method="",
        )
    try:
        ans = nash(net, r1, r2, g.inert, hint=seed)
    except NashNotFound as e:
        raise NashNotFound(f"{e.covered}; {bounds_words(net, r1, r2, e.proposal)}", e.proposal) from None
    settled = len(dom) == sum(len(s) for s in (g.player1_sets, g.player2_sets, g.banker_sets)) - sum(sum(v) for v in g.inert)
    return BanqueSolution(
        game=g,
        theta=t,
        concept=Concept.NASH,
        exists=True,
        value=ans.banker_payoff,
        player1=ans.x,
        player2=ans.y,
        banker=ans.r,
        team=None,
        field=_field(ans.x + ans.y + ans.r),
        result1=ans.result1,
        result2=ans.result2,
        certified=True,
        unique=True if settled else None,
        dominance=dom,
        method=ans.method,
        no_equilibrium_at=ans.refuted,
    )


def _correlated(g: BanqueGame, t: Fraction, net: Payoff, gross: Payoff, r1: Payoff, r2: Payoff) -> BanqueSolution:
    dom = iterated_dominance(net, gross, gross)
    view = TeamView(net)
    ans = correlated(view)
    unique: bool | None = None
    if g.model.tax:
        lam, v = list(ans.team.lam), [list(x) for x in ans.team.v]
        r = snap_banker(TeamView(gross), lam, v, [float(x) for x in ans.banker], best_reply_of=view)
        if r is None:
            raise SolverError(f"no certified correlated equilibrium found for {g.label} at theta {t} with the tax")
        ans = CorrelatedAnswer(value=ans.value, team=ans.team, banker=tuple(r), method=ans.method)
        method = (
            "team strategy from the zero-sum game on the banker's net payoff (linear program, exact support "
            "solve), banker strategy from the team's indifference on the gross payoff; certified by exact "
            "best replies of the team (gross) and the banker (net)"
        )
        value = _team_value(view, ans.team, list(ans.banker))
    else:
        method, value = ans.method, ans.value
        unique = True if unique_correlated(view, ans) else None
    res1 = _team_value(TeamView(r1), ans.team, list(ans.banker))
    res2 = _team_value(TeamView(r2), ans.team, list(ans.banker))
    return BanqueSolution(
        game=g,
        theta=t,
        concept=Concept.CORRELATED,
        exists=True,
        value=value,
        player1=ans.team.player1_marginal(),
        player2=ans.team.player2_marginal(),
        banker=ans.banker,
        team=ans.team,
        field=None,
        result1=res1,
        result2=res2,
        certified=True,
        unique=unique,
        dominance=dom,
        method=method,
    )


def _team_value(view: TeamView, team: TeamStrategy, r: list[Any]) -> Any:
    """The payoff's expectation under a correlated team strategy and a banker strategy, exactly."""
    z = view.moments(team.lam, team.v)
    base, slopes = view.cell_slopes(z)
    total = base + sum((s * ri for s, ri in zip(slopes, r)), Fraction(0))
    return total / view.payoff.denominator


def unique_correlated(view: TeamView, ans: CorrelatedAnswer) -> bool:
    """Sufficient test that the correlated solution is unique: the banker's strategy, and the team's
    moments (all that the payoffs see: marginals and joint draw probabilities).

    Banker: cells with a non-zero slope at z* are forced; the others are pinned if the team's indifference
    equations (interior v, equal costs of the atoms played) have full rank on them. Team: every optimal z
    is a mixture of team best replies to r* making the banker indifferent where r* mixes; z* is unique if
    those linear conditions leave no direction that moves z.
    """
    lam, v = list(ans.team.lam), [list(x) for x in ans.team.v]
    r = list(ans.banker)
    z = view.moments(lam, v)
    _, slopes = view.cell_slopes(z)
    tight = [i for i, s in enumerate(slopes) if s == 0]
    na, (_, m2, n) = len(view.atoms), view.shape
    if tight:
        base = list(r)
        for i in tight:
            base[i] = Fraction(0)
        c0, g0 = view.atom_parts(base)
        pos = [a for a in range(na) if lam[a] > 0]
        tops = {a: [k for k in range(m2) if v[a][k] == lam[a]] for a in pos}

        def cost(c: list[Any], g: list[list[Any]], a: int) -> Any:
            return c[a] + sum((g[a][k] for k in tops[a]), 0)

        cols = []
        for i in tight:
            e = list(base)
            e[i] = Fraction(1)
            c1, g1 = view.atom_parts(e)
            col = [g1[a][k] - g0[a][k] for a in pos for k in range(m2) if 0 < v[a][k] < lam[a]]
            col += [cost(c1, g1, a) - cost(c0, g0, a) - cost(c1, g1, pos[0]) + cost(c0, g0, pos[0]) for a in pos[1:]]
            cols.append(col)
        rows = [list(x) for x in zip(*cols)] if cols and cols[0] else []
        if not rows or rank(rows) < len(tight):
            return False
    # Team: directions among best replies to r*.
    const, gs = view.atom_parts(r)
    costs = [c + sum((g for g in gk if g < 0), 0) for c, gk in zip(const, gs)]
    best = min(costs)
    br = [a for a in range(na) if costs[a] == best]
    if na * (1 + m2) > 200:
        return False
    pure = []
    for a in br:
        ya = [Fraction(1) if g < 0 else Fraction(0) for g in gs[a]]
        lam_a = [Fraction(1) if q == a else Fraction(0) for q in range(na)]
        v_a = [[ya[k] if q == a else Fraction(0) for k in range(m2)] for q in range(na)]
        z0 = view.moments(lam_a, v_a)
        pure.append(z0)
        for k in range(m2):
            if gs[a][k] == 0:
                v_b = [row[:] for row in v_a]
                v_b[a][k] = 1 - v_b[a][k]
                pure.append(view.moments(lam_a, v_b))
    directions = [[p - q for p, q in zip(point, pure[0])] for point in pure[1:]]
    if not directions:
        return True
    mixed = [i for i in range(n) if 0 < r[i] < 1]
    constraints = [view.cell_slopes(d)[1] for d in directions]  # s_i is linear in z: s_i(z0 + d) - s_i(z0)
    base_s = view.cell_slopes([Fraction(0)] * len(z))[1]
    rows = [[constraints[d][i] - base_s[i] for d in range(len(directions))] for i in mixed]
    # z* is unique iff every combination of directions satisfying the constraints moves no moment.
    dir_rank = rank(directions)
    combined = rank(rows + [list(col) for col in zip(*directions)]) if rows else dir_rank
    return rank(rows) == combined if rows else dir_rank == 0


def _independent(
    g: BanqueGame, t: Fraction, net: Payoff, r1: Payoff, r2: Payoff, hint: BanqueSolution | None = None
) -> BanqueSolution:
    if g.model.tax:
        raise ModelError("the independent cooperative solution is computed without a tax only (use --tax 0)")
    dom = iterated_dominance(net, net, net)
    view = TeamView(net)
    corr = correlated(view)
    seeds = [(hint.player1, hint.player2)] if hint is not None and hint.theta == t and hint.concept is Concept.NASH else []
    ans = independent(view, corr, seeds)
    x, y = list(ans.x), list(ans.y)
    if ans.exists:
        r = list(ans.banker or ())
        res1, res2 = r1.value(x, y, r), r2.value(x, y, r)
    else:
        res1 = res2 = None
    return BanqueSolution(
        game=g,
        theta=t,
        concept=Concept.INDEPENDENT,
        exists=ans.exists,
        value=ans.value,
        player1=ans.x,
        player2=ans.y,
        banker=ans.banker,
        team=None,
        field=_field(ans.x + ans.y),
        result1=res1,
        result2=res2,
        certified=ans.exists is not None,
        unique=None,
        dominance=dom,
        method=ans.method,
        guarantee_optimal=None if ans.exists else ans.optimal,
    )
