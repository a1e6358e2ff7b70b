"""Hand-made result objects for the renderers' layout tests (tests/test_golden.py).

The golden files pin how results are laid out, not what the numbers are: the numbers here are
invented, small and recognisable (1/80, 9/11, ...), and no solver or enumerator runs. The real
numbers are pinned by the tests named after their sources (test_punto_published.py, test_chemin.py,
test_certificates.py), so regenerating a golden file can never approve a wrong number.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from solver.analysis.paper import PaperResults
from solver.analysis.report import MODELS, FullReport
from solver.cards import Shoe
from solver.chemin.game import FREEDOMS, Coefficients, Game, Model
from solver.chemin.solve import Constraint, DominanceStep, OptimalSet, Solution
from solver.punto import BetResult, PuntoResult
from solver.rules.tableau import Action
from solver.strategy import InfoSet, Side, compositions_of

SHOES = (Shoe.decks(1), Shoe.infinite())
METHOD = "hand-made result for a layout test"
F = Fraction


def punto(shoe: Shoe, k: int = 0) -> PuntoResult:
    """Punto banco with invented counts over a denominator of 1000 (``k`` shifts them)."""
    counts = {"banker": 458 + k, "player": 446 - k, "tie": 96}
    d = 1000

    def bet(name: str, description: str, win: int, push: int, pay: Fraction) -> BetResult:
        lose = d - win - push
        return BetResult(name, description, F(win, d), F(lose, d), F(push, d), (pay * win - lose) / d)

    bets = (
        bet("banker", "Banker, pays 19/20 to 1 (5% commission), ties push", counts["banker"], 96, F(19, 20)),
        bet("player", "Player, pays 1 to 1, ties push", counts["player"], 96, F(1)),
        bet("tie_8to1", "Tie, pays 8 to 1", 96, 0, F(8)),
        bet("tie_9to1", "Tie, pays 9 to 1", 96, 0, F(9)),
        bet("ez_banker", "EZ Baccarat Banker, 1 to 1, push on a banker win with a three-card 7", 435 + k, 119, F(1)),
        bet("dragon7", "Dragon 7: banker wins with a three-card 7, pays 40 to 1", 23, 0, F(40)),
        bet("panda8", "Panda 8: player wins with a three-card 8, pays 25 to 1", 34, 0, F(25)),
    )
    return PuntoResult(shoe=shoe, counts=counts, denominator=d, bets=bets, commission=F(1, 20), method=METHOD)


def _sets(freedom: str, information: int) -> tuple[tuple[InfoSet, ...], tuple[InfoSet, ...]]:
    tab = FREEDOMS[freedom]
    totals = tab.free_player_totals()
    if information < 3:
        ponte = tuple(InfoSet(Side.PONTE, t) for t in totals)
    else:
        ponte = tuple(InfoSet(Side.PONTE, cards=c) for t in totals for c in compositions_of(t))
    cells = tab.free_banker_cells()
    if information == 1:
        banker = tuple(InfoSet(Side.BANKER, t, seen=(s,)) for t, s in cells)
    else:
        by_cards = [InfoSet(Side.BANKER, cards=c, seen=(s,)) for t, s in cells for c in compositions_of(t)]
        banker = tuple(sorted(by_cards, key=lambda x: (x.cards, x.seen)))
    return ponte, banker


def _zeros(m: int, n: int) -> Coefficients:
    z = np.zeros(0, dtype=object)
    return Coefficients(
        0, np.zeros(m, dtype=object) if m else z, np.zeros(n, dtype=object) if n else z, np.zeros((m, n), dtype=object), 1
    )


def solution(shoe: Shoe, freedom: str, information: int, commission: Fraction = Fraction(0)) -> Solution:
    """A chemin de fer solution with invented strategies on the model's real information sets."""
    ponte_sets, banker_sets = _sets(freedom, information)
    m, n = len(ponte_sets), len(banker_sets)
    inert_b = tuple(b.cards == (8, 8) for b in banker_sets)  # a hand an odd shoe could not deal
    game = Game(
        shoe, Model(information, freedom, commission), ponte_sets, banker_sets, _zeros(m, n), _zeros(m, n), (False,) * m, inert_b
    )
    if freedom == "casino":
        q = tuple(F(1) for _ in ponte_sets)
    elif information < 3:
        q = (F(9, 11),)
    else:
        q = (F(1), F(1, 2), F(0), F(1), F(1))

    def draw(s: InfoSet) -> Fraction:
        t, seen = s.total, s.seen[0]
        if s.cards == (0, 6) and seen == 10 or (t, seen) == (3, 9):
            return F(1, 3)
        return F(1) if t <= 2 or (t < 6 and 2 <= seen <= 7) else F(0)

    r = tuple(F(0) if inert else draw(s) for s, inert in zip(banker_sets, inert_b))
    steps = tuple(
        DominanceStep(Side.BANKER, s, Action.DRAW if x == 1 else Action.STAND, F(1, 1000 + k))
        for k, (s, x) in enumerate(zip(banker_sets, r))
        if x in (0, 1) and k % 29
    )
    value = F(1, 80) + F(information, 10000) + (F(1, 2000) if freedom == "parlor" else 0)
    unique_banker = not (freedom == "parlor" and information == 2)
    optimal = None
    if not unique_banker:
        pick = [s for s in banker_sets if s.total == 6 and s.seen == (10,)][:3]
        optimal = (
            OptimalSet(Side.PONTE, dict(zip(ponte_sets, q)), (), ()),
            OptimalSet(
                Side.BANKER,
                {s: x for s, x in zip(banker_sets, r) if s not in pick},
                tuple(pick),
                (Constraint({s: F(1, len(pick)) for s in pick}, "=", F(1, 3)),),
            ),
        )
    if commission:
        net, gross = value - commission / 2, value
        return Solution(
            game, q, r, net, -gross, net, True, False, False, information == 1, (q[0],) if m == 1 else (), steps, METHOD
        )
    return Solution(game, q, r, value, -value, value, True, True, unique_banker, None, (), steps, METHOD, optimal)


def paper_results() -> PaperResults:
    """What ``baccarat tables --decks 1,inf`` would show, with invented numbers."""
    sols = tuple(solution(shoe, f, i) for shoe in SHOES for f, i in MODELS)
    return PaperResults(
        puntos=tuple(punto(s, k) for k, s in enumerate(SHOES)),
        solutions=sols,
        standard_punto=punto(SHOES[1], 1),
        standard_chemin=tuple(s for s in sols if s.game.shoe.is_infinite),
        commission=tuple(solution(shoe, f, i, F(1, 20)) for shoe in SHOES for f, i in MODELS),
    )


def full_report() -> FullReport:
    """The full report on an infinite deck, with invented numbers."""
    shoe = Shoe.infinite()
    return FullReport(
        punto=punto(shoe),
        chemin=tuple(solution(shoe, f, i) for f, i in MODELS),
        commission=tuple(solution(shoe, f, i, F(1, 20)) for f, i in MODELS),
    )
