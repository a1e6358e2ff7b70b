"""The par sheet: what a casino files with its regulator for a baccarat game, computed.

For every wager (a :class:`~solver.punto.Bet` priced by :func:`~solver.punto.punto_banco`):

* each **pay line** with its *combinations*: the exact integer count of ordered card sequences that
  settle the wager on that line, out of the stated total (the enumerator's integer weights over its
  common denominator, :class:`~solver.punto.TierResult`; six-card sequences ``N (N − 1) … (N − 5)``
  for a coup bet, four-card sequences ``N (N − 1)(N − 2)(N − 3)`` for a bet on the first cards),
  its probability ``combinations / total`` and its return ``pays × probability``;
* the **total return** ``EV = Σ pays · p`` (the loss line pays −1), the **house edge** ``−EV`` per hand
  and per resolved wager (``−EV / (1 − P(push))``), the **hit frequency** ``P(the wager wins)``, and
  the **variance** ``σ² = Σ pays² · p − EV²`` of the result per unit staked, all exact;
* the **volatility index** at confidence ``c``: ``VI = z σ`` with ``z = Φ⁻¹((1 + c)/2)`` the two-sided
  normal quantile (1.6449, 1.9600, 2.5758 for 90, 95, 99 %);
* the **range of the house's hold** over ``n`` hands of one unit: by the central limit theorem the
  house's win per unit wagered over ``n`` independent hands is approximately normal with mean ``edge``
  and standard deviation ``σ / √n``, so it lies in ``edge ± z σ / √n = edge ± VI / √n`` with
  probability about ``c``. This is the normal approximation slot and table-game par sheets use (the
  volatility index of Kilby, Fox and Lucas, *Casino Operations Management*, 2nd ed., Wiley 2005, and
  Hannum and Cabot, *Practical Casino Math*, 2nd ed., 2005); it treats hands as independent, which
  holds for hands from freshly shuffled shoes and is an approximation for the hands of one shoe.

``z`` and ``σ`` are irrational: VI and the hold ranges are computed to 60 significant digits from the
exact variance (:func:`volatility_index`, :func:`hold_range`) and rounded half to even, and say so.
Nothing here goes through a binary float.

The dealt game (:func:`dealt_game`, estimates, labelled so): the simulator deals shoes as the table
does (burn, cut card); each wager settled on the winner alone is settled by the simulator coup by
coup, so its edge over every coup of the shoe is the ratio estimator's, against its exact edge on the
first coup (the cut-card effect); any other wager's edge over every coup comes from the counting
study, which takes its exact edge at every coup dealt (:mod:`solver.count`). The cross-check
(:mod:`solver.crosscheck`) holds the simulated shoes against the exact law: its verdict is the
simulation check of the exact figures.

>>> sheet = par_sheet(Shoe.decks(8))
>>> banker = sheet.wager("banker")
>>> [line.combinations for line in banker.lines]
[2292252566437888, 475627426473216, 2230518282592256]
>>> banker.total
4998398275503360
>>> banker.volatility_index(Fraction(95, 100), 4)
'1.8176'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solver.analysis.dealt_game import DealtGame, Simulation, dealt_game
from solver.cards import Shoe
from solver.errors import ModelError, SolverError
from solver.exact.numbers import decimal_str, exact, fraction_str
from solver.punto import STANDARD_COMMISSION, Bet, BetResult, banker_bet, player_bet, punto_banco, tie_bet
from solver.punto.events import Condition
from solver.rules.tableau import PUNTO_BANCO, Tableau

LEVELS: tuple[Fraction, ...] = (Fraction(90, 100), Fraction(95, 100), Fraction(99, 100))
"""The confidence levels of the volatility index and the hold ranges (regulators use 90, 95, 99 %)."""

HANDS: tuple[int, ...] = (1_000, 10_000, 100_000, 1_000_000)
"""The numbers of hands over which the range of the house's hold is given."""

PRECISION = 60
"""Significant digits of the irrational numbers (z, σ, VI, hold ranges) before they are rounded."""

GUARD = 40
"""A rounded irrational number must lie at least ``10^-GUARD`` from a rounding boundary (it always has)."""

DEFAULT_CUT = 14
DEFAULT_BURN = "turn"


# -- the irrational numbers: z, sigma, VI and the hold range, to PRECISION digits --------------------


def _mp() -> Any:
    import mpmath  # type: ignore[import-untyped]  # arbitrary-precision special functions (a dependency of sympy)

    return mpmath


def _rounded(value: Any, digits: int) -> str:
    """A high-precision real (an mpmath number) rounded half to even to ``digits`` places, checked to
    lie clear of a rounding boundary."""
    mp = _mp()
    scaled = value * mp.mpf(10) ** digits
    low = mp.floor(scaled)
    rest = scaled - low
    if abs(rest - mp.mpf(1) / 2) < mp.mpf(10) ** -GUARD:
        raise SolverError(f"a rounded value lies within 1e-{GUARD} of a rounding boundary: ask for other --digits")
    n = int(low) + (1 if rest > mp.mpf(1) / 2 else 0)
    return decimal_str(Fraction(n, 10**digits), digits)


def _sigma(variance: Fraction) -> Any:
    mp = _mp()
    return mp.sqrt(mp.mpf(variance.numerator) / variance.denominator)


def _z(level: Fraction) -> Any:
    mp = _mp()
    level = exact(level, "confidence level")
    if not 0 < level < 1:
        raise ModelError(f"a confidence level lies strictly between 0 and 1, got {level}")
    return mp.sqrt(2) * mp.erfinv(mp.mpf(level.numerator) / level.denominator)


def z_value(level: Fraction, digits: int) -> str:
    """The two-sided normal quantile ``z = Φ⁻¹((1 + level)/2)``, rounded to ``digits`` places.

    >>> [z_value(c, 4) for c in LEVELS]
    ['1.6449', '1.9600', '2.5758']
    """
    with _mp().workdps(PRECISION):
        return _rounded(_z(level), digits)


def sd_value(variance: Fraction, digits: int) -> str:
    """``σ = sqrt(variance)`` rounded to ``digits`` places."""
    with _mp().workdps(PRECISION):
        return _rounded(_sigma(exact(variance, "variance")), digits)


def volatility_index(variance: Fraction, level: Fraction, digits: int) -> str:
    """``VI = z σ`` at confidence ``level`` from the exact ``variance``, rounded to ``digits`` places.

    >>> volatility_index(Fraction(1), Fraction(95, 100), 4)
    '1.9600'
    """
    with _mp().workdps(PRECISION):
        return _rounded(_z(level) * _sigma(exact(variance, "variance")), digits)


def hold_range(
    edge: Fraction, variance: Fraction, level: Fraction, hands: int, digits: int, percent: bool = True
) -> tuple[str, str]:
    """The range ``edge ± z σ / √hands`` of the house's hold per unit wagered over ``hands`` hands at
    confidence ``level`` (normal approximation), each end rounded to ``digits`` places (in % of the
    amount wagered when ``percent``).

    >>> hold_range(Fraction(1, 100), Fraction(1), Fraction(95, 100), 10_000, 3)
    ('-0.960', '2.960')
    """
    if hands < 1:
        raise ModelError(f"a number of hands is at least 1, got {hands}")
    mp = _mp()
    with mp.workdps(PRECISION):
        scale = 100 if percent else 1
        mid = mp.mpf(edge.numerator) / edge.denominator
        half = _z(level) * _sigma(exact(variance, "variance")) / mp.sqrt(hands)
        return _rounded((mid - half) * scale, digits), _rounded((mid + half) * scale, digits)


# -- the exact sheet ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PayLine:
    """One line of a wager's pay table: what it pays, and the card sequences that settle it there.

    Attributes:
        label: the line (the pay table's words; ``loss`` for the stake lost).
        pays: net result per unit staked (0 a push, −1 the loss).
        combinations: ordered card sequences that settle the wager on this line (an exact integer).
        total: all ordered card sequences (the wager's stated total).
    """

    label: str
    pays: Fraction
    combinations: int
    total: int

    @property
    def probability(self) -> Fraction:
        """``combinations / total``, exactly."""
        return Fraction(self.combinations, self.total)

    @property
    def ret(self) -> Fraction:
        """The line's return: ``pays × probability`` (its share of the total return)."""
        return self.pays * self.probability


@dataclass(frozen=True)
class Wager:
    """One wager's par sheet, exactly.

    Attributes:
        name, description: of the bet.
        lines: the pay table's lines, then the loss.
        total: the ordered card sequences every line's combinations are counted out of.
        sequences: what ``total`` counts, in words.
    """

    name: str
    description: str
    lines: tuple[PayLine, ...]
    total: int
    sequences: str

    @property
    def ev(self) -> Fraction:
        """The total return: expected net result per unit staked, ``Σ pays × probability``."""
        return sum((line.ret for line in self.lines), Fraction(0))

    @property
    def edge(self) -> Fraction:
        """House edge per hand (per unit staked, pushes counted as hands)."""
        return -self.ev

    @property
    def push(self) -> Fraction:
        """Probability the stake is returned (a line paying 0)."""
        return sum((line.probability for line in self.lines if line.pays == 0), Fraction(0))

    @property
    def hit_frequency(self) -> Fraction:
        """Probability the wager wins (a line paying more than 0)."""
        return sum((line.probability for line in self.lines if line.pays > 0), Fraction(0))

    @property
    def edge_resolved(self) -> Fraction | None:
        """House edge per resolved wager, ``edge / (1 − P(push))``; ``None`` when it never pushes."""
        return None if self.push in (0, 1) else self.edge / (1 - self.push)

    @property
    def return_to_player(self) -> Fraction:
        """What the player gets back per unit staked, stake included: ``1 − edge``."""
        return 1 - self.edge

    @property
    def variance(self) -> Fraction:
        """Variance of the net result per unit staked: ``Σ pays² × probability − EV²``."""
        return sum((line.pays * line.pays * line.probability for line in self.lines), Fraction(0)) - self.ev**2

    def sd(self, digits: int) -> str:
        """The standard deviation per hand, rounded."""
        return sd_value(self.variance, digits)

    def volatility_index(self, level: Fraction, digits: int) -> str:
        """``VI = z σ`` at ``level``, rounded (:func:`volatility_index`)."""
        return volatility_index(self.variance, level, digits)

    def hold_range(self, level: Fraction, hands: int, digits: int) -> tuple[str, str]:
        """The house's hold over ``hands`` hands at ``level``, in %, rounded (:func:`hold_range`)."""
        return hold_range(self.edge, self.variance, level, hands, digits)


def wager_from_result(result: BetResult, shoe: Shoe) -> Wager:
    """A :class:`Wager` from a bet's exact result (its breakdown's integer weights, unchanged).

    Raises:
        ModelError: the result carries no breakdown, or its lines are over different totals.
    """
    if not result.tiers:
        raise ModelError(f"bet {result.name}: no breakdown to make a par sheet of")
    totals = {t.denominator for t in result.tiers}
    if len(totals) != 1:
        raise ModelError(f"bet {result.name}: the breakdown's lines are over different totals")
    total = totals.pop()
    lines = tuple(PayLine(t.label, t.pays, t.weight, total) for t in result.tiers)
    six = shoe.is_infinite or total != _falling(shoe.size, 4)
    kind = "six-card" if six else "four-card"
    what = f"ordered {kind} sequences" + (", weighted, dealt with replacement" if shoe.is_infinite else "")
    return Wager(result.name, result.description, lines, total, what)


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


@dataclass(frozen=True)
class GameRules:
    """The game a par sheet is for: the shoe, the drawing tableau, the commission, and how it is dealt.

    Attributes:
        shoe: the shoe (decks, or any composition).
        tableau: the drawing rules (every cell fixed); ``tableau_name`` names the sheet.
        commission: on the Banker bet's wins.
        cut: cards behind the cut card; ``burn``: the burn (``turn``, ``none`` or a number of cards).
    """

    shoe: Shoe
    tableau: Tableau = PUNTO_BANCO
    tableau_name: str = "punto banco"
    commission: Fraction = STANDARD_COMMISSION
    cut: int = DEFAULT_CUT
    burn: str = DEFAULT_BURN

    def label(self) -> str:
        """``8 decks, commission 1/20``."""
        return f"{self.shoe.label()}, commission {fraction_str(self.commission)}"


@dataclass(frozen=True)
class ParSheet:
    """A game's par sheet: its rules, every wager exactly, and (optionally) the dealt game's estimates.

    Attributes:
        rules: the game.
        wagers: one :class:`Wager` per bet, in the order asked.
        dealt: the dealt game and the simulation check, or ``None`` when not asked for (or an infinite deck).
        command: the command that produced the sheet (the renderers add the solver's version).
        digest: SHA-256 of the inputs (:func:`input_digest`).
        method: how the exact numbers were obtained.
    """

    rules: GameRules
    wagers: tuple[Wager, ...]
    dealt: DealtGame | None
    command: str
    digest: str
    method: str = "exact enumeration of every card sequence (solver.punto, solver.deal.tree)"
    notes: tuple[str, ...] = field(default=())

    def wager(self, name: str) -> Wager:
        for w in self.wagers:
            if w.name == name:
                return w
        raise KeyError(name)


def default_wagers(commission: Fraction | int | str = STANDARD_COMMISSION, tie_pays: int = 8) -> tuple[Bet, ...]:
    """Punto banco's three wagers: Banker (at ``commission``), Player, and Tie at ``tie_pays`` to 1."""
    return (banker_bet(commission), player_bet(), tie_bet(tie_pays))


def _when_text(when: object) -> str:
    return repr(when) if isinstance(when, Condition) else f"predicate {getattr(when, '__qualname__', repr(when))}"


def input_digest(rules: GameRules, bets: Sequence[Bet], simulation: dict[str, object] | None = None) -> str:
    """SHA-256 of everything the sheet depends on, in a canonical JSON: the shoe's composition, the
    tableau's cells, the commission, the cut and burn, every bet's pay table, and the simulation's size
    and seed (``simulation``)."""
    t = rules.tableau
    doc = {
        "shoe": rules.shoe.spec(),
        "tableau": {"player": "".join(a.value for a in t.player), "banker": ["".join(a.value for a in r) for r in t.banker]},
        "commission": fraction_str(rules.commission),
        "cut": rules.cut,
        "burn": rules.burn,
        "bets": [
            {
                "name": b.name,
                "description": b.description,
                "tiers": [{"label": x.label, "pays": fraction_str(x.pays), "when": _when_text(x.when)} for x in b.tiers],
            }
            for b in bets
        ],
        "simulation": simulation,
    }
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def par_sheet(
    shoe: Shoe,
    bets: Sequence[Bet] | None = None,
    commission: Fraction | int | str = STANDARD_COMMISSION,
    tableau: Tableau = PUNTO_BANCO,
    tableau_name: str = "punto banco",
    cut: int = DEFAULT_CUT,
    burn: str = DEFAULT_BURN,
    simulation: Simulation | None = None,
    command: str = "",
    progress: Callable[[str, int, int], None] | None = None,
) -> ParSheet:
    """The par sheet of one game: every wager exactly, and with ``simulation`` the dealt game.

    Args:
        shoe: the shoe.
        bets: the wagers (default :func:`default_wagers` at ``commission``).
        commission: the Banker bet's commission (for the default wagers, and stated on the sheet).
        tableau, tableau_name: the drawing rules (every cell fixed) and the sheet's name.
        cut, burn: how the shoe is dealt (cards behind the cut card; ``turn``, ``none`` or a count).
        simulation: deal shoes for the dealt game and the simulation check (estimates); None: exact only.
        command: the command that produced the sheet, stated on its cover.
        progress: called with (what, done, total) while shoes are dealt.

    Raises:
        ModelError: a bet the shoe cannot settle, a tableau with free cells, a table the simulator
            cannot deal (a cut card too deep for the shoe).
    """
    alpha = exact(commission, "commission")
    chosen = tuple(bets) if bets is not None else default_wagers(alpha)
    if not chosen:
        raise ModelError("a par sheet needs at least one wager")
    rules = GameRules(shoe, tableau, tableau_name, alpha, cut, burn)
    result = punto_banco(shoe, alpha, chosen, tableau=tableau)
    wagers = tuple(wager_from_result(r, shoe) for r in result.bets)
    dealt = None
    notes: tuple[str, ...] = ()
    if simulation is not None and shoe.is_infinite:
        notes = ("An infinite deck has no cut card: the dealt game is not simulated.",)
    elif simulation is not None:
        edges = {w.name: w.edge for w in wagers}
        dealt = dealt_game(shoe, tableau, tableau_name, alpha, cut, burn, chosen, edges, simulation, progress)
    digest = input_digest(rules, chosen, simulation.describe() if simulation is not None else None)
    return ParSheet(rules, wagers, dealt, command, digest, result.method, notes)
