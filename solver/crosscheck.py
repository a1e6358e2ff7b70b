"""Holding simulated coups against the exact law: ours, or a dealing engine's file of coups.

The exact law of one coup dealt from a freshly shuffled shoe comes from the enumerator only
(:func:`solver.deal.outcomes` for a fixed tableau; for a strategy on totals that mixes at a few
cells, the exact mixture of the pure tableaux' laws, multilinear in the cell probabilities; for a
chemin de fer solution, ``solver.game.strategy_law`` when it is available, or any law passed in).

The tests, each at false-alarm rate ``alpha / m`` (Bonferroni over the ``m`` tests run, so the whole
cross-check wrongly rejects a correct engine with probability at most ``alpha``, 0.001 by default):

* **outcome law**: Pearson's chi-square of banker / player / tie counts (2 degrees of freedom);
* **detail law**: chi-square over the coup's detail (final totals, who drew a third card, natural),
  the rows of :class:`~solver.deal.OutcomeTable`, cells with expected count under 5 pooled. It sees
  a wrong tableau cell long before the outcome law does;
* **card law**: the point values of the four cards every coup deals against ``n_v / N``; their
  counts are multivariate hypergeometric, so Pearson's statistic is divided by ``(N − 4)/(N − 1)``
  (9 degrees of freedom). It sees a shoe of the wrong composition;
* **burn law** (our simulator, when the burn turns a card): outcome by the turned card's value
  against ``P(turned = v) P(outcome | shoe less one card of value v)``. It sees a burn that leaks;
* **bets**: each bet's mean net result as the engine settled it, as a z-score against the exact
  expected value with the exact variance (two-sided). It sees a wrong settlement.

Power: for each test the report gives the smallest deviation it detects with probability 0.8 at
this sample size and rate: for a bet, the shift of its mean; for a chi-square, the smallest
divergence ``D = Σ (q − p)² / p`` (with the matching shift of P(banker) against P(player)).

The tests assume independent coups with the first-coup law. That is exact for our simulator's
first-coup mode. Coups dealt through whole shoes are slightly dependent, and their average law is
shifted by the cut-card effect (see docs/simulate.md: of the order of 10^-5 for punto banco, far below
what 10^8 coups can detect): state this when you hold a file of whole shoes.

>>> from solver.simulate import PUNTO_STRATEGY
>>> law = exact_law("punto", Shoe.decks(8), PUNTO_STRATEGY)
>>> law.winner["banker"]
Fraction(8954111587648, 19524993263685)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import TextIO

import numpy as np

from solver.cards import Shoe, card_token
from solver.deal import OutcomeTable, outcomes
from solver.errors import BaccaratError, InputError, ModelError
from solver.rules import STOOD, Action, Tableau
from solver.simulate import SimulationResult, Strategy
from solver.simulate.config import Payout, default_payouts
from solver.simulate.kernel import N_DETAIL, NO_TURN, detail_key

DEFAULT_ALPHA = Fraction(1, 1000)
POWER = 0.8
MIN_EXPECTED = 5.0
MAX_MIXED_CELLS = 12

# -- the exact law ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ExactLaw:
    """The exact law of the first coup from a shoe.

    Attributes:
        game: ``punto`` or ``chemin``.
        shoe: the shoe.
        winner: outcome name (banker, player or ponte, tie) → probability.
        detail: detail key (:func:`solver.simulate.kernel.detail_key`) → probability, when known.
        method: how it was obtained.
    """

    game: str
    shoe: Shoe
    winner: dict[str, Fraction]
    detail: dict[int, Fraction] | None
    method: str

    @property
    def names(self) -> tuple[str, str, str]:
        return tuple(self.winner)  # type: ignore[return-value]

    def vector(self) -> tuple[Fraction, Fraction, Fraction]:
        b, p, t = self.winner.values()
        return (b, p, t)

    def bet_mean(self, pay: Payout) -> Fraction:
        """Exact expected net result of a bet per unit staked."""
        return sum((a * q for a, q in zip(pay.vector(), self.vector())), Fraction(0))

    def bet_variance(self, pay: Payout) -> Fraction:
        """Exact variance of a bet's net result per coup."""
        m = self.bet_mean(pay)
        return sum((a * a * q for a, q in zip(pay.vector(), self.vector())), Fraction(0)) - m * m

    def reference(self, payouts: Iterable[Payout]) -> dict[str, Fraction]:
        """Exact first-coup values keyed like :meth:`SimulationResult.first_coup`."""
        out = {f"outcome:{k}": v for k, v in self.winner.items()}
        out.update({f"bet:{p.name}": self.bet_mean(p) for p in payouts})
        return out


def _names(game: str) -> tuple[str, str, str]:
    return ("banker", "player", "tie") if game == "punto" else ("banker", "ponte", "tie")


def _table_detail(table: OutcomeTable) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for pt, bt, pc, bc, nat, w in zip(table.p_total, table.b_total, table.p_cards, table.b_cards, table.natural,
                                     table.weights):
        key = detail_key(int(pt), int(bt), int(pc) - 2, int(bc) - 2, int(nat))
        out[key] = out.get(key, Fraction(0)) + Fraction(int(w), table.denominator)
    return out


def _winner_of_detail(game: str, detail: Mapping[int, Fraction]) -> dict[str, Fraction]:
    b = p = t = Fraction(0)
    for key, q in detail.items():
        pt, bt = key // 80, key // 8 % 10
        if bt > pt:
            b += q
        elif pt > bt:
            p += q
        else:
            t += q
    return dict(zip(_names(game), (b, p, t)))


def tableau_law(game: str, shoe: Shoe, tab: Tableau) -> ExactLaw:
    """The exact law under a fixed tableau, from :func:`solver.deal.outcomes`."""
    detail = _table_detail(outcomes(shoe, tab))
    return ExactLaw(game, shoe, _winner_of_detail(game, detail), detail,
                    f"exact enumeration under the fixed tableau {tab.name!r} (solver.deal.outcomes)")


def mixed_tableau_law(game: str, shoe: Shoe, strategy: Strategy) -> ExactLaw:
    """The exact law of a strategy on totals that mixes at a few tableau cells.

    Each cell randomises independently and a coup meets at most one player cell and one banker cell,
    so the law is the mixture of the pure tableaux' laws with product weights
    ``∏ p_c^{d_c} (1 − p_c)^{1 − d_c}`` (Kuhn's equivalence of behaviour and mixed strategies):
    exact, and ``2^k`` enumerations for ``k`` mixed cells.
    """
    tab = strategy.tableau
    if tab is None:
        raise ModelError("this strategy is not a tableau on totals; pass its exact law instead")
    cells: list[tuple[str, object, Fraction]] = [("P", t, q) for t, q in strategy.player_mix]
    cells += [("B", c, r) for c, r in strategy.banker_mix]
    if len(cells) > MAX_MIXED_CELLS:
        raise ModelError(f"{len(cells)} mixed cells: too many for the exact mixture (at most {MAX_MIXED_CELLS})")
    total: dict[int, Fraction] = {}
    for choice in product((0, 1), repeat=len(cells)):
        weight = Fraction(1)
        player: dict[int, Action] = {}
        banker: dict[tuple[int, int], Action] = {}
        for (side, where, q), d in zip(cells, choice):
            weight *= q if d else 1 - q
            act = Action.DRAW if d else Action.STAND
            if side == "P":
                player[where] = act  # type: ignore[index]
            else:
                banker[where] = act  # type: ignore[index]
        if weight == 0:
            continue
        pure = tab.with_player(player).with_banker(banker)
        for key, q in _table_detail(outcomes(shoe, pure)).items():
            total[key] = total.get(key, Fraction(0)) + weight * q
    detail = {k: v for k, v in total.items() if v}
    how = "exact enumeration (solver.deal.outcomes)"
    if cells:
        how = f"exact mixture of {2 ** len(cells)} pure tableaux' enumerations over the mixed cells"
    return ExactLaw(game, shoe, _winner_of_detail(game, detail), detail, how)


def law_from_probabilities(game: str, shoe: Shoe, probs: Mapping[str, Fraction], method: str) -> ExactLaw:
    """An exact law given only as outcome probabilities (e.g. from ``solver.game.strategy_law``).

    ``probs`` maps banker, player (or ponte), tie to Fractions summing to 1; the detail and burn laws
    are then not tested.
    """
    names = _names(game)
    alias = {"banker": "banker", "player": names[1], "ponte": names[1], "tie": "tie"}
    winner = {name: Fraction(0) for name in names}
    for k, v in probs.items():
        if k not in alias:
            raise ModelError(f"unknown outcome {k!r} (banker, {names[1]}, tie)")
        if isinstance(v, float):
            raise TypeError("exact laws take Fractions, not floats")
        winner[alias[k]] = Fraction(v)
    if sum(winner.values()) != 1:
        raise ModelError(f"outcome probabilities must sum to 1 exactly, they sum to {sum(winner.values())}")
    return ExactLaw(game, shoe, winner, None, method)


def exact_law(game: str, shoe: Shoe, strategy: Strategy) -> ExactLaw:
    """The exact first-coup law of a game played with a strategy, from the enumerator.

    Raises:
        ModelError: draw tables that break chemin de fer's rules, or given in floats only.
    """
    if strategy.tableau is not None:
        return mixed_tableau_law(game, shoe, strategy)
    if strategy.exact_player is None or strategy.exact_banker is None:
        raise ModelError("the exact law of a strategy given in floats is unknown; give its tables as Fractions")
    from solver.game import strategy_detail

    by_detail = strategy_detail(shoe, strategy.exact_player, strategy.exact_banker)
    detail = {detail_key(*k): q for k, q in by_detail.items()}
    return ExactLaw(game, shoe, _winner_of_detail(game, detail), detail,
                    "exact law of the strategy's draw tables (solver.game.strategy_detail)")


def burn_laws(law: ExactLaw, strategy: Strategy) -> dict[int, dict[str, Fraction]]:
    """The exact outcome law given the turned burn card's value v: the law of the shoe less that card."""
    out = {}
    for v, n in enumerate(law.shoe.values):
        if n:
            less = Shoe.from_values(tuple(c - (i == v) for i, c in enumerate(law.shoe.values)))
            out[v] = exact_law(law.game, less, strategy).winner
    return out


# -- samples ---------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Sample:
    """Coups to hold against the exact law: independent first coups, by category.

    Attributes:
        source: where they came from.
        n: number of coups.
        winner: counts of banker, player (ponte), tie.
        detail: counts by detail key (length 800), or ``None``.
        cards: counts of the point values of every coup's first four cards, or ``None``.
        burn: counts by (turned burn card value 0–9, outcome), or ``None``.
        bets: bet name → (payout as the engine settled it, sum of results, sum of squared results).
        whole_shoes: the coups were dealt through whole shoes (a file), not one per fresh shoe.
    """

    source: str
    n: int
    winner: np.ndarray
    detail: np.ndarray | None = None
    cards: np.ndarray | None = None
    burn: np.ndarray | None = None
    bets: dict[str, tuple[float, float]] = field(default_factory=dict)
    whole_shoes: bool = False


def _bet_sums(winner: np.ndarray, payouts: Iterable[Payout]) -> dict[str, tuple[float, float]]:
    out = {}
    for p in payouts:
        a = np.array([float(x) for x in p.vector()])
        out[p.name] = (float(a @ winner), float((a * a) @ winner))
    return out


def sample_from_simulation(result: SimulationResult) -> Sample:
    """The first coup of every shoe of a simulation, with bets settled by the engine's payouts."""
    t = result.tallies
    winner = t.pos_counts[0].copy()
    burn = t.burn_winner[:NO_TURN].copy() if t.burn_winner[:NO_TURN].sum() else None
    return Sample(
        source=f"simulation ({result.config.strategy.name}; {result.config.burn.label()}; seed {result.seed})",
        n=int(winner.sum()),
        winner=winner,
        detail=t.first_detail.copy(),
        cards=t.first_cards.copy(),
        burn=burn,
        bets=_bet_sums(winner, result.config.payouts),
    )


_OUTCOME_LETTERS = {"B": 0, "P": 1, "T": 2}


def read_coups(stream: TextIO, source: str, strategy: Strategy, game: str,
               payouts: Iterable[Payout] | None = None) -> Sample:
    """Read a file of dealt coups, checking every coup is legal under the strategy's rules.

    One coup per line: the cards in deal order (Player, Banker, Player, Banker, then third cards in
    the order dealt) as ranks ``A``, ``2``–``9``, ``T`` or ``10``, ``J``, ``Q``, ``K`` separated by
    commas, optionally ``;`` and the outcome the engine reported (``B``, ``P`` or ``T``). ``#`` starts
    a comment. Where the strategy leaves the player's draw to chance and the coup has five cards, the
    file must say who drew: ``-`` in the fifth place means the player stood (``5,3,K,Q,-,7``).

    Raises:
        InputError: naming the first bad line (a bad card, a wrong number of cards for the rules, a
            reported outcome that does not follow from the cards), or an empty file.
    """
    ptab, btab = strategy.player, strategy.banker
    winner = np.zeros(3, np.int64)
    detail = np.zeros(N_DETAIL, np.int64)
    cards_seen = np.zeros(10, np.int64)
    for number, raw in enumerate(stream, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            w, key, first4 = _check_coup(line, ptab, btab)
        except BaccaratError as e:
            raise InputError(f"{source}, line {number}: {e}") from None
        winner[w] += 1
        detail[key] += 1
        for v in first4:
            cards_seen[v] += 1
    n = int(winner.sum())
    if n == 0:
        raise InputError(f"{source}: no coups found")
    return Sample(source, n, winner, detail, cards_seen, None,
                  _bet_sums(winner, payouts if payouts is not None else default_payouts(game, Fraction(1, 20))),
                  whole_shoes=True)


def _must(p: float) -> int:
    """0 stand, 1 draw, 2 either."""
    return 1 if p >= 1 else 0 if p <= 0 else 2


def _check_coup(line: str, ptab: np.ndarray, btab: np.ndarray) -> tuple[int, int, list[int]]:
    body, sep, reported = line.partition(";")
    tokens = [t.strip() for t in body.split(",")]
    if any(not t for t in tokens):
        raise InputError(f"empty card in {body.strip()!r} (cards are separated by commas)")
    stood_mark = len(tokens) >= 5 and tokens[4] == "-"
    if stood_mark:
        del tokens[4]
    values = []
    for t in tokens:
        try:
            values.append(card_token(t)[1])
        except BaccaratError:
            raise InputError(f"bad card {t!r} (use A, 2-9, T or 10, J, Q, K)") from None
    n = len(values)
    if n < 4:
        raise InputError(f"{n} cards: a coup deals at least 4")
    p1, b1, p2, b2 = values[:4]
    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
    natural = pt >= 8 or bt >= 8
    p_drew = b_drew = 0
    if natural:
        if n != 4 or stood_mark:
            raise InputError(f"{n} cards after a natural ({'player' if pt >= 8 else 'banker'} {max(pt, bt)}): "
                             "a natural ends the coup with 4")
    else:
        p_rule = _must(float(ptab[p1, p2]))
        rest = values[4:]
        if p_rule == 1 and stood_mark:
            raise InputError(f"the player must draw on {pt}, but the line says he stood")
        if p_rule == 0 or stood_mark:
            p_drew = 0
        elif p_rule == 1:
            p_drew = 1
        elif len(rest) != 1:
            p_drew = 1 if rest else 0
        else:  # five cards and the player's draw left to chance: whose is the fifth?
            drew_ok = _must(float(btab[b1, b2, rest[0]])) != 1
            stood_ok = _must(float(btab[b1, b2, STOOD])) != 0
            if drew_ok and stood_ok:
                raise InputError("5 cards: the player may draw or stand at this total, so say who took the fifth card "
                                 "(write '-' in fifth place when the player stood)")
            if not (drew_ok or stood_ok):
                raise InputError(f"5 cards, but neither reading is legal: had the player stood, the banker must stand on "
                                 f"{(b1 + b2) % 10}; had he drawn the {rest[0]}, the banker must draw again")
            p_drew = 1 if drew_ok else 0
        if p_drew and not rest:
            raise InputError(f"4 cards, but the player must draw on {pt}")
        seen = STOOD
        if p_drew:
            seen = rest[0]
            pt = (pt + seen) % 10
            rest = rest[1:]
        b_rule = _must(float(btab[b1, b2, seen]))
        seen_text = "the player stood" if seen == STOOD else f"the player's third card {seen}"
        if b_rule == 1 and not rest:
            raise InputError(f"{n} cards, but the banker must draw on {(b1 + b2) % 10} after {seen_text}")
        if b_rule == 0 and rest:
            raise InputError(f"{n} cards, but the banker must stand on {(b1 + b2) % 10} after {seen_text}")
        if len(rest) > 1:
            drew = "the banker drew" if b_rule == 1 else "the banker may draw"
            raise InputError(f"{n} cards, but the coup ends with {n - len(rest) + 1} ({seen_text}, {drew} on "
                             f"{(b1 + b2) % 10})")
        if rest:
            bt = (bt + rest[0]) % 10
            b_drew = 1
    w = 0 if bt > pt else 1 if pt > bt else 2
    if sep:
        r = reported.strip().upper()
        if r not in _OUTCOME_LETTERS:
            raise InputError(f"reported outcome {reported.strip()!r}: use B, P or T")
        if _OUTCOME_LETTERS[r] != w:
            truth = "BPT"[w]
            raise InputError(f"reported {r} but the cards give {truth} (player {pt}, banker {bt})")
    return w, detail_key(pt, bt, p_drew, b_drew, int(natural)), values[:4]


# -- the tests -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TestResult:
    """One test of the cross-check.

    Attributes:
        name: what is tested.
        kind: ``chi2`` or ``z``.
        statistic: the chi-square statistic, or the z-score.
        df: degrees of freedom (chi-square) or 0.
        p_value: probability of a statistic at least as extreme under the exact law.
        alpha: the false-alarm rate of this test.
        rejected: ``p_value < alpha``.
        detectable: smallest deviation detected with probability 0.8 at this size (see ``detectable_what``).
        detectable_what: what that deviation measures.
        note: observed versus expected, in words.
    """

    name: str
    kind: str
    statistic: float
    df: int
    p_value: float
    alpha: float
    rejected: bool
    detectable: float
    detectable_what: str
    note: str = ""


@dataclass(frozen=True, eq=False)
class CrossCheck:
    """The verdict of holding a sample against an exact law."""

    sample: Sample
    law: ExactLaw
    alpha: Fraction
    tests: tuple[TestResult, ...]
    notes: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return not any(t.rejected for t in self.tests)

    @property
    def verdict(self) -> str:
        if self.passed:
            return "PASS"
        return "REJECT (" + ", ".join(t.name for t in self.tests if t.rejected) + ")"


def _chi2_power_lambda(df: int, alpha: float) -> float:
    """The noncentrality at which a chi-square test at ``alpha`` rejects with probability POWER."""
    from scipy import stats

    crit = stats.chi2.isf(alpha, df)
    lo, hi = 0.0, 10.0
    while stats.ncx2.sf(crit, df, hi) < POWER:
        hi *= 2
    for _ in range(80):
        mid = (lo + hi) / 2
        if stats.ncx2.sf(crit, df, mid) < POWER:
            lo = mid
        else:
            hi = mid
    return hi


def _chi2_test(name: str, observed: np.ndarray, expected_p: np.ndarray, n: int, alpha: float,
               scale: float = 1.0, per: str = "coup") -> TestResult:
    """Pearson's chi-square, cells with expected count under 5 pooled; ``scale`` divides the statistic."""
    from scipy import stats

    obs = np.asarray(observed, dtype=np.float64)
    p = np.asarray(expected_p, dtype=np.float64)
    impossible = obs[p == 0].sum()
    if impossible > 0:
        return TestResult(name, "chi2", math.inf, 0, 0.0, alpha, True, 0.0, "",
                          f"{int(impossible)} coups fell where the exact law has probability 0")
    keep = p > 0
    obs, p = obs[keep], p[keep]
    exp = p * n
    small = exp < MIN_EXPECTED
    if small.any():
        pooled_o, pooled_e = obs[small].sum(), exp[small].sum()
        obs, exp, p = obs[~small], exp[~small], p[~small]
        if pooled_e >= MIN_EXPECTED or len(obs) == 0:
            obs, exp, p = np.append(obs, pooled_o), np.append(exp, pooled_e), np.append(p, pooled_e / n)
        else:  # fold the pooled cell into the smallest remaining one
            i = int(np.argmin(exp))
            obs[i] += pooled_o
            exp[i] += pooled_e
            p[i] += pooled_e / n
    df = len(obs) - 1
    if df < 1:
        return TestResult(name, "chi2", 0.0, 0, 1.0, alpha, False, math.inf, "too few coups for this test")
    x2 = float(((obs - exp) ** 2 / exp).sum()) / scale
    pv = float(stats.chi2.sf(x2, df))
    lam = _chi2_power_lambda(df, alpha)
    worst = int(np.argmax(np.abs(obs - exp) / np.sqrt(exp)))
    note = (f"{len(obs)} cells; largest deviation: {int(obs[worst])} observed, {exp[worst]:.1f} expected")
    return TestResult(name, "chi2", x2, df, pv, alpha, pv < alpha, lam * scale / n,
                      f"divergence sum (q-p)^2/p per {per}", note)


def _z_test(name: str, total: float, n: int, mean: Fraction, var: Fraction, alpha: float) -> TestResult:
    sd = math.sqrt(float(var))
    observed = total / n
    se = sd / math.sqrt(n)
    z = (observed - float(mean)) / se if se > 0 else (0.0 if observed == float(mean) else math.inf)
    nd = _normal()
    pv = 2 * nd.cdf(-abs(z)) if math.isfinite(z) else 0.0
    detect = (nd.inv_cdf(1 - alpha / 2) + nd.inv_cdf(POWER)) * se
    note = f"mean {observed:+.6f} per unit staked, exact {float(mean):+.6f} ({mean})"
    return TestResult(name, "z", z, 0, pv, alpha, pv < alpha, detect, "shift of the mean per unit staked", note)


def _normal():  # type: ignore[no-untyped-def]
    from statistics import NormalDist

    return NormalDist()


def crosscheck(
    sample: Sample,
    law: ExactLaw,
    payouts: Iterable[Payout] | None = None,
    burn: Mapping[int, Mapping[str, Fraction]] | None = None,
    alpha: Fraction = DEFAULT_ALPHA,
) -> CrossCheck:
    """Hold a sample of coups against the exact law.

    Args:
        sample: the coups (:func:`sample_from_simulation`, :func:`read_coups`).
        law: the exact first-coup law (:func:`exact_law` or :func:`law_from_probabilities`).
        payouts: the correct settlement of the bets (default: the game's, at 5 % commission).
        burn: exact outcome law given the turned burn card's value (:func:`burn_laws`), to test a
            sample that records its burns.
        alpha: the cross-check's false-alarm rate, split evenly over its tests.

    Returns:
        A :class:`CrossCheck`; ``passed`` is the verdict.
    """
    if sample.n < 1:
        raise InputError("no coups to check")
    least = math.ceil(MIN_EXPECTED / float(min(law.winner.values())))
    if sample.n < least:
        raise InputError(f"too few coups to check: {sample.n}; the outcome law needs at least {least} "
                         f"(an expected {MIN_EXPECTED:g} of the rarest outcome)")
    pays = tuple(payouts) if payouts is not None else default_payouts(law.game, Fraction(1, 20))
    pays = tuple(p for p in pays if p.name in sample.bets)
    run_detail = sample.detail is not None and law.detail is not None
    run_cards = sample.cards is not None and not law.shoe.is_infinite
    run_burn = sample.burn is not None and burn is not None
    m = 1 + run_detail + run_cards + run_burn + len(pays)
    a = float(alpha) / m
    n = sample.n
    tests = []
    pw = np.array([float(q) for q in law.vector()])
    t = _chi2_test("outcome law", sample.winner, pw, n, a)
    names = law.names
    # the shift of P(banker) against P(player) that the outcome test detects
    shift = math.sqrt(t.detectable / (1 / pw[0] + 1 / pw[1])) if math.isfinite(t.detectable) else math.inf
    obs = ", ".join(f"{k} {c / n:.5f} (exact {float(q):.5f})" for k, c, q in zip(names, sample.winner, law.vector()))
    tests.append(TestResult(t.name, t.kind, t.statistic, t.df, t.p_value, t.alpha, t.rejected, shift,
                            f"shift of P({names[0]}) against P({names[1]})", obs))
    if run_detail:
        assert sample.detail is not None and law.detail is not None
        pd = np.zeros(N_DETAIL)
        for k, q in law.detail.items():
            pd[k] = float(q)
        tests.append(_chi2_test("detail law", sample.detail, pd, n, a))
    if run_cards:
        assert sample.cards is not None
        size = law.shoe.size
        pc = np.array([c / size for c in law.shoe.values])
        tests.append(_chi2_test("card law", sample.cards, pc, 4 * n, a, scale=(size - 4) / (size - 1), per="card"))
    if run_burn:
        assert sample.burn is not None and burn is not None
        size = law.shoe.size
        pb = np.zeros((10, 3))
        for v, cond in burn.items():
            for i, name in enumerate(names):
                pb[v, i] = float(Fraction(law.shoe.values[v], size) * cond[name])
        nb = int(sample.burn.sum())
        tests.append(_chi2_test("burn law", sample.burn.ravel(), pb.ravel(), nb, a))
    for p in pays:
        total, _ = sample.bets[p.name]
        tests.append(_z_test(f"bet {p.name}", total, n, law.bet_mean(p), law.bet_variance(p), a))
    notes = []
    if sample.whole_shoes:
        notes.append("coups dealt through whole shoes are slightly dependent and their average law differs from "
                     "the first coup's by the cut-card effect; the tests treat them as independent first coups")
    return CrossCheck(sample, law, Fraction(alpha), tuple(tests), tuple(notes))
