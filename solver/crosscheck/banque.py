"""Baccara banque's cross-check: the solved strategies as the simulator deals them, their exact law,
and simulated coups held against it.

Strategies. A :class:`~solver.banque.BanqueSolution` is played through the table's reader of it,
:class:`solver.banque.play.SolvedBanque` (the rules where the game fixes a decision; the casino
tableau where the live tableaux agree; an irrational probability through the nearest fraction over
2^64). A Nash or independent solution is one *atom*: each player draws on his own. A correlated one
is a joint law of the two players' choices: Player 1's pure strategy ``a`` with probability λ_a, and
Player 2's draw given ``a`` with probability v_a,k / λ_a (:meth:`TeamStrategy.support`); the simulator
draws the atom, then each player's choice, so the two are sampled jointly (:func:`team_plays`).

The exact law (:func:`banque_law`) of a coup from a freshly shuffled shoe under those strategies, from
the banque enumeration (:func:`solver.banque.deal.enumerate_coup`): each key of the enumeration has
an exact integer weight; the three sides' choices enter as factors q or 1 − q (Kuhn: behaviour
strategies), mixed over the atoms with their λ. It gives the law of the joint outcome (R1, R2), the
law of the coup's *detail* (:func:`solver.simulate.banque_kernel.detail_key`: the banker's two-card
total, what each tableau showed, whether he drew; or the outcome of a coup ended by naturals) and the
banker's exact expected result per unit of total stake, which equals the solver's certified value.

The cross-check (:func:`crosscheck_banque` for our simulator; a file of banque coups through
:mod:`solver.crosscheck.banque_coups`) runs the registry's tests that apply
(:mod:`solver.crosscheck.registry`), each at ``alpha / m``: the joint outcome law (chi-square, 8
degrees of freedom); the detail law (chi-square, cells under 5 expected pooled; it sees a wrong
decision of any side in the cells where it is taken); the card law (the six cards every coup deals,
multivariate hypergeometric: the statistic divided by (N − 6)/(N − 1)); the settlements as the engine
settled them (the banker's result: a z-score against the exact mean with the exact variance; it sees
a wrong settlement, e.g. a cagnotte not taken); and for a file the tests of structure (pairs, serial
over :data:`SERIAL_CLASSES`, and for marked shoes shoe composition, next shoe, repeats). Only the first
coup of each shoe is held to the law: a later coup of a shoe comes from a depleted shoe whose
composition depends on the coups before, so its law is not the enumerator's (as for the other games,
:mod:`solver.crosscheck`).

>>> from solver.banque import BanqueModel, solve_banque
>>> s = solve_banque(Shoe.infinite(), BanqueModel(1, "blind", "casino"), Fraction(1, 2), "correlated")
>>> law = banque_law(s)
>>> law.reference()["banker"] == s.value, sum(law.detail.values()), len(team_plays(s))
(True, Fraction(1, 1), 2)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from solver.banque.deal import FIVES, LIVE_COMPOSITIONS, OUTCOMES, Enumeration, enumerate_coup
from solver.banque.game import RESULT_1, RESULT_2, banker_payoff
from solver.banque.play import SolvedBanque
from solver.banque.solve import BanqueSolution
from solver.cards import Shoe
from solver.crosscheck.law import DEFAULT_ALPHA, Settles
from solver.crosscheck.sample import Sample
from solver.crosscheck.verdict import CrossCheck, crosscheck
from solver.errors import ModelError
from solver.simulate.banque import FUNCTIONALS, BanqueDraws, BanqueSimResult
from solver.simulate.banque_kernel import N_DETAIL, N_ENDED, NATURAL, SIGHTS

CARDS_PER_COUP = 6
"""The cards every banque coup deals (two to each hand)."""

SERIAL_CLASSES = ("banker ahead", "players ahead", "level")
"""What the serial test reads of a banque coup: whether the banker won more tableaux than he lost
(R1 + R2 > 0), fewer, or as many. The nine joint outcomes, some as rare as 1 %, would need far more
coups than a file holds for the serial statistic's chi-square law to hold at the tests' small rates;
these three classes are each about a third of the coups."""

SETTLEMENT_TESTS = {"banker": "banker's result", "player1": "player 1's result", "player2": "player 2's result"}
"""The settlements a banque engine may report, and the names of their tests."""


def outcome_label(o: tuple[int, int]) -> str:
    """A joint outcome as written: the banker's result against tableau 1 / tableau 2, e.g. ``+1/-1``.

    >>> outcome_label((1, -1)), outcome_label((0, 0))
    ('+1/-1', '0/0')
    """
    return "/".join(f"{r:+d}" if r else "0" for r in o)


def serial_class(o: tuple[int, int]) -> int:
    """The index of a joint outcome's class in :data:`SERIAL_CLASSES`."""
    total = o[0] + o[1]
    return 0 if total > 0 else 1 if total < 0 else 2


@dataclass(frozen=True)
class BanqueSettlement:
    """How a banque bet is settled: its name in a file and its net result per unit staked by joint
    outcome (in the order of :data:`~solver.banque.deal.OUTCOMES`)."""

    name: str
    values: tuple[Fraction, ...]

    def vector(self) -> tuple[Fraction, ...]:
        return self.values


def team_plays(solution: BanqueSolution) -> list[tuple[Fraction, SolvedBanque]]:
    """The atoms of a solution's strategies: (probability, the play of that atom).

    Raises:
        ModelError: the solution gives no strategies to deal (an independent solution that does not exist).
    """
    if solution.banker is None or solution.exists is False:
        raise ModelError(
            f"the {solution.concept} solution at theta {solution.theta} gives no strategies to deal (it does not exist here)"
        )
    if solution.team is None:
        return [(Fraction(1), SolvedBanque(solution))]
    return [
        (lam, SolvedBanque(replace(solution, player1=tuple(Fraction(x) for x in atom), player2=cond)))
        for atom, lam, cond in solution.team.support()
    ]


@dataclass(frozen=True)
class ExactTables:
    """One atom's exact draw probabilities by cards: Player 1 ``p1[a][b]``, Player 2 ``p2[a][b][s1]``,
    the banker ``banker[a][b][s1][s2]`` (0 where no decision is taken)."""

    p1: tuple[tuple[Fraction, ...], ...]
    p2: tuple[tuple[tuple[Fraction, ...], ...], ...]
    banker: tuple[tuple[tuple[tuple[Fraction, ...], ...], ...], ...]


def exact_tables(play: SolvedBanque, theta: Fraction, banker: Any = None) -> ExactTables:
    """The exact tables of one atom; ``banker`` (another atom's tables' banker) is reused when given:
    the banker's strategy does not depend on the atom."""
    zero = Fraction(0)

    def live(a: int, b: int) -> bool:
        return (a + b) % 10 < 8

    p1 = tuple(tuple(play.player_draw(1, (a, b), ()) if live(a, b) else zero for b in range(10)) for a in range(10))
    p2 = tuple(
        tuple(tuple(play.player_draw(2, (a, b), (s,)) if live(a, b) else zero for s in range(SIGHTS)) for b in range(10))
        for a in range(10)
    )
    if banker is None:
        stakes = (theta, 1 - theta)
        banker = tuple(
            tuple(
                tuple(
                    tuple(
                        play.banker_draw((a, b), (s1, s2), stakes) if live(a, b) and not (s1 == s2 == NATURAL) else zero
                        for s2 in range(SIGHTS)
                    )
                    for s1 in range(SIGHTS)
                )
                for b in range(10)
            )
            for a in range(10)
        )
    return ExactTables(p1, p2, banker)


def solution_tables(solution: BanqueSolution) -> list[tuple[Fraction, ExactTables]]:
    """Every atom's exact tables with its probability."""
    out: list[tuple[Fraction, ExactTables]] = []
    for lam, play in team_plays(solution):
        out.append((lam, exact_tables(play, solution.theta, out[0][1].banker if out else None)))
    return out


def solution_name(solution: BanqueSolution) -> str:
    return f"solved baccara banque ({solution.concept}, {solution.game.label}, theta {solution.theta}, tax {solution.model.tax})"


def draws_of(solution: BanqueSolution, tables: list[tuple[Fraction, ExactTables]] | None = None) -> BanqueDraws:
    """The simulator's float draw tables of a solution (:class:`~solver.simulate.banque.BanqueDraws`)."""
    tabs = tables if tables is not None else solution_tables(solution)
    lam = np.array([float(la) for la, _ in tabs])
    p1 = np.array([[[float(q) for q in row] for row in t.p1] for _, t in tabs])
    p2 = np.array([[[[float(q) for q in s] for s in row] for row in t.p2] for _, t in tabs])
    banker = np.array(tabs[0][1].banker, dtype=object).astype(np.float64)
    return BanqueDraws(solution_name(solution), lam / lam.sum(), p1, p2, banker)


# -- the exact law ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class BanqueLaw:
    """The exact law of the first coup of a banque shoe under given strategies.

    Attributes:
        shoe, theta, tax: the table; ``outcome``: (R1, R2) → probability, in the order of
        :data:`~solver.banque.deal.OUTCOMES`; ``detail``: detail key → probability; ``method``, ``strategy``.
    """

    shoe: Shoe
    theta: Fraction
    tax: Fraction
    outcome: dict[tuple[int, int], Fraction]
    detail: dict[int, Fraction]
    method: str
    strategy: str

    game = "banque"
    detail_size = N_DETAIL
    """Detail keys of :func:`solver.simulate.banque_kernel.detail_key`."""
    cards_per_coup = CARDS_PER_COUP

    @property
    def names(self) -> tuple[str, ...]:
        """The joint outcomes as written: the banker's result against tableau 1 / tableau 2, e.g. ``+1/-1``."""
        return tuple(outcome_label(o) for o in OUTCOMES)

    def vector(self) -> tuple[Fraction, ...]:
        return tuple(self.outcome[o] for o in OUTCOMES)

    def serial_vector(self) -> tuple[Fraction, ...]:
        """The law of the coup's :data:`SERIAL_CLASSES`."""
        out = [Fraction(0)] * len(SERIAL_CLASSES)
        for o, p in self.outcome.items():
            out[serial_class(o)] += p
        return tuple(out)

    def bet_mean(self, pay: Settles) -> Fraction:
        return self.mean(pay.vector())

    def bet_variance(self, pay: Settles) -> Fraction:
        return self.variance(pay.vector())

    def bet_test_name(self, name: str) -> str:
        return SETTLEMENT_TESTS.get(name, f"bet {name}")

    def settlements(self) -> tuple[BanqueSettlement, ...]:
        """The correct settlements: the banker's net result per unit of total stake (the tax taken), and
        each player's per unit he staked."""
        return (
            BanqueSettlement("banker", banker_payoff(self.theta, self.tax)),
            BanqueSettlement("player1", tuple(-r for r in RESULT_1)),
            BanqueSettlement("player2", tuple(-r for r in RESULT_2)),
        )

    def payoff(self, name: str) -> tuple[Fraction, ...]:
        """A functional of :data:`~solver.simulate.banque.FUNCTIONALS` by joint outcome, settled correctly."""
        return {"banker": banker_payoff(self.theta, self.tax), "tableau1": RESULT_1, "tableau2": RESULT_2}[name]

    def mean(self, u: tuple[Fraction, ...]) -> Fraction:
        return sum((a * p for a, p in zip(u, self.vector())), Fraction(0))

    def variance(self, u: tuple[Fraction, ...]) -> Fraction:
        m = self.mean(u)
        return sum((a * a * p for a, p in zip(u, self.vector())), Fraction(0)) - m * m

    def reference(self) -> dict[str, Fraction]:
        """Exact first-coup means of the simulator's functionals (the banker's value, E R1, E R2)."""
        return {name: self.mean(self.payoff(name)) for name in FUNCTIONALS}


def _lookup(values: dict[int, Fraction], size: int) -> tuple[np.ndarray, int]:
    """Fractions by code as integer numerators over their common denominator (absent codes: 0)."""
    d = math.lcm(*(v.denominator for v in values.values())) if values else 1
    out = np.zeros(size, dtype=object)
    for code, v in values.items():
        out[code] = int(v * d)
    return out, d


def _branch(q: Fraction, branch: int) -> Fraction:
    return q if branch == 1 else (1 - q if branch == 0 else Fraction(1))


def banque_law(
    solution: BanqueSolution, tables: list[tuple[Fraction, ExactTables]] | None = None, enumeration: Enumeration | None = None
) -> BanqueLaw:
    """The exact first-coup law of a solution's strategies as dealt (see the module docstring);
    ``tables`` (:func:`solution_tables`) and ``enumeration`` (of the solution's shoe and information
    model, e.g. the one it was solved from) are reused when given."""
    shoe, info = solution.shoe, solution.model.information
    tabs = tables if tables is not None else solution_tables(solution)
    e = enumeration if enumeration is not None else enumerate_coup(shoe, info)
    if e.shoe != shoe or e.information != info:
        raise ModelError("the enumeration given was made for another shoe or information model")
    s1, s2, own = e.cell // SIGHTS % SIGHTS, e.cell % SIGHTS, e.cell // (SIGHTS * SIGHTS)
    live_cards = LIVE_COMPOSITIONS if info >= 2 else tuple((0, t) for t in range(8))
    bt = np.array([sum(c) % 10 for c in live_cards], dtype=np.int64)[own]
    full = (N_ENDED + ((bt * SIGHTS + s1) * SIGHTS + s2) * 2 + e.db) * 9 + e.outcome
    c1 = (e.j1 + 1) * 3 + e.d1 + 1
    c2 = (((e.j2 + 1) * 3 + e.d2 + 1) * SIGHTS) + s1
    cb = e.cell * 2 + e.db
    five = FIVES if info == 3 else ((0, 5),)

    # the banker's factor, the same for every atom; then the keys grouped by the players' codes
    bank = tabs[0][1].banker
    codes = np.unique(cb)
    fb, db = _lookup(
        {
            int(c): _branch(
                bank[live_cards[c // 2 // 144][0]][live_cards[c // 2 // 144][1]][c // 2 // SIGHTS % SIGHTS][c // 2 % SIGHTS],
                int(c % 2),
            )
            for c in codes
        },
        int(codes.max()) + 1 if len(codes) else 1,
    )
    wb = e.weight * fb[cb]
    group = (c1 * (18 * SIGHTS) + c2) * (N_DETAIL * 9) + full
    uniq, inv = np.unique(group, return_inverse=True)
    order = np.argsort(inv, kind="stable")
    starts = np.searchsorted(inv[order], np.arange(len(uniq)))
    gw = np.add.reduceat(wb[order], starts)
    g1, g2, gfull = uniq // (N_DETAIL * 9) // (18 * SIGHTS), uniq // (N_DETAIL * 9) % (18 * SIGHTS), uniq % (N_DETAIL * 9)
    fk = np.unique(gfull)
    by_full = np.searchsorted(fk, gfull)
    total: dict[int, Fraction] = {}
    for lam, t in tabs:
        f1, d1 = _lookup(
            {
                int(c): _branch(t.p1[five[max(c // 3 - 1, 0)][0]][five[max(c // 3 - 1, 0)][1]], c % 3 - 1)
                for c in np.unique(g1).tolist()
            },
            18,
        )
        f2, d2 = _lookup(
            {
                int(c): _branch(
                    t.p2[five[max(c // SIGHTS // 3 - 1, 0)][0]][five[max(c // SIGHTS // 3 - 1, 0)][1]][c % SIGHTS],
                    c // SIGHTS % 3 - 1,
                )
                for c in np.unique(g2).tolist()
            },
            18 * SIGHTS,
        )
        num = gw * f1[g1] * f2[g2]
        sums = np.zeros(len(fk), dtype=object)
        np.add.at(sums, by_full, num)
        den = e.denominator * d1 * d2 * db
        for k, s in zip(fk.tolist(), sums.tolist()):
            if s:
                total[k] = total.get(k, Fraction(0)) + lam * Fraction(s, den)
    for o, w in enumerate(e.constant):  # coups ended by naturals: no decision taken
        if w:
            total[o] = total.get(o, Fraction(0)) + Fraction(w, e.denominator)
    detail: dict[int, Fraction] = {}
    outcome = {o: Fraction(0) for o in OUTCOMES}
    for k, p in total.items():
        key, o = (k, k) if k < N_ENDED else divmod(k, 9)
        detail[key] = detail.get(key, Fraction(0)) + p
        outcome[OUTCOMES[o]] += p
    if sum(outcome.values()) != 1:
        raise AssertionError("the banque law does not sum to 1")
    how = (
        f"exact banque enumeration (solver.banque.deal) under the strategies as dealt, "
        f"{len(tabs)} atom{'s' if len(tabs) > 1 else ''}"
    )
    return BanqueLaw(shoe, solution.theta, solution.model.tax, outcome, detail, how, solution_name(solution))


# -- the cross-check -------------------------------------------------------------------------------

BanqueCrossCheck = CrossCheck
"""The verdict on banque coups is the cross-check's verdict (the name kept for callers)."""


def sample_from_banque_simulation(result: BanqueSimResult) -> Sample:
    """Our banque simulator's coups: the first coup of every shoe held to the first-coup law, the
    banker's result settled as the engine settles it (:attr:`BanqueTable.settlement`)."""
    t, table = result.tallies, result.table
    first = t.pos_counts[0].copy()
    paid = np.array([float(x) for x in table.settlement])
    whole = not table.first_coup_only
    mode = "whole shoes" if whole else "one coup per freshly shuffled shoe"
    return Sample(
        source=f"simulation ({table.draws.name}; {table.burn.label()}; {mode}; seed {result.seed})",
        n=int(first.sum()),
        winner=first,
        detail=t.first_detail.copy(),
        cards=t.first_cards.copy(),
        bets={"banker": (float(paid @ first), float((paid * paid) @ first))},
        whole_shoes=whole,
        coups=t.n_coups,
        shoes=t.n_shoes if whole else 0,
        by_rank=False,
    )


def crosscheck_banque(result: BanqueSimResult, law: BanqueLaw, alpha: Fraction = DEFAULT_ALPHA) -> CrossCheck:
    """Hold the first coup of every simulated shoe against the exact law (the cross-check's tests that
    apply: :func:`solver.crosscheck.verdict.crosscheck`).

    Raises:
        InputError: too few coups for the outcome law (an expected 5 of the rarest joint outcome).
    """
    return crosscheck(sample_from_banque_simulation(result), law, alpha=alpha)
