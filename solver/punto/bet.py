"""Bets as data, their exact result law, and their risk.

A :class:`Bet` is a name, a description and a pay table: tiers ``(pays, when, label)`` tried in
order; a coup takes the net payout of the first tier whose condition holds (``pays`` to 1; ``0`` is a
push) and loses the stake (−1) if none does. Conditions are :class:`~solver.punto.events.Condition`
values over the coup's outcome or its first cards, or any vectorised predicate over
:class:`~solver.deal.tree.Outcomes` (Python users).

Exact law (:class:`BetResult`): the probability of every tier and of a loss, as fractions, and from
them the expected value ``EV = Σ pays · p − P(loss)``, the house edge ``−EV`` per unit staked (pushes
counted as stakes, the convention of the published tables), the variance ``Σ x² p − EV²`` of the
result per unit, the edge excluding pushes ``−EV / (1 − P(push))`` (per bet resolved: for Banker and
Player the edge *excluding ties*), and the element of risk (expected loss over the total amount
wagered, Shackleford's definition: baccarat's bets cannot be raised, so it equals the house edge).

Two exact routes give the law of a coup bet, and the tests hold them equal:

* :func:`evaluate` reads a weighted :class:`~solver.deal.outcome.OutcomeTable` row by row (the reference);
* :func:`solver.punto.compiled.compile_bets` groups the deal tree's paths once per tableau by the *joint tier* of a set of
  bets (which tier of each bet the path pays), so a shoe costs one integer sum over the few thousand
  (joint tier, multiset) pairs that occur (:meth:`CompiledBets.tier_weights`).

>>> from solver.punto.events import Condition
>>> from solver.cards import Shoe
>>> from solver.deal.outcome import outcomes
>>> b = Bet("tie_on_7", "Tie on 7, pays 45 to 1", (Tier(Fraction(45), Condition.of(winner="tie", banker_total=7)),))
>>> r = evaluate(b, outcomes(Shoe.decks(8)))
>>> r.tiers[0].label, r.tiers[-1].label
('winner=tie, banker_total=7', 'loss')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from solver.errors import ModelError
from solver.exact.numbers import exact
from solver.punto.events import Condition

if TYPE_CHECKING:  # numpy and the outcome tables are imported where used: pricing a shoe needs neither
    import numpy as np

    from solver.deal.outcome import Outcomes, OutcomeTable

Predicate = Callable[["Outcomes"], "np.ndarray"]


@dataclass(frozen=True)
class Tier:
    """One line of a pay table: pays ``pays`` to 1 when ``when`` holds (0 is a push).

    ``label`` names the line in a breakdown; by default the condition's own text.
    """

    pays: Fraction
    when: Condition | Predicate
    label: str = ""

    def __post_init__(self) -> None:
        pays = exact(self.pays, "pays")
        if pays < 0:
            raise ModelError(f"a tier must pay at least 0 (a loss is what no tier matches), got {pays}")
        object.__setattr__(self, "pays", pays)
        if not self.label:
            text = (
                repr(self.when)[len("Condition(") : -1]
                if isinstance(self.when, Condition)
                else getattr(self.when, "__name__", "condition")
            )
            object.__setattr__(self, "label", text or "always")

    @property
    def first_cards(self) -> bool:
        """Whether this tier reads the first cards' ranks and suits (else the coup's outcome)."""
        return isinstance(self.when, Condition) and self.when.first_cards


@dataclass(frozen=True)
class Bet:
    """A bet as data: a name, a description, and a pay table of :class:`Tier` lines.

    A pay table reads either the coup's outcome or the first cards (pairs, suits), not both.
    """

    name: str
    description: str
    tiers: tuple[Tier, ...]

    def __post_init__(self) -> None:
        if not self.name:
            raise ModelError("a bet needs a name")
        tiers = tuple(t if isinstance(t, Tier) else Tier(*t) for t in self.tiers)
        object.__setattr__(self, "tiers", tiers)
        kinds = {t.first_cards for t in tiers}
        if len(kinds) > 1:
            raise ModelError(f"bet {self.name}: a pay table reads the coup's outcome or the first cards, not both")
        object.__setattr__(self, "_first_cards", kinds == {True})
        object.__setattr__(self, "_scale", math.lcm(*(t.pays.denominator for t in tiers)) if tiers else 1)

    def __hash__(self) -> int:  # computed once: bets key the caches of compiled bet sets
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.name, self.description, self.tiers))
            object.__setattr__(self, "_hash", h)
        return h

    @property
    def first_cards(self) -> bool:
        """Whether this bet is settled by the first cards' ranks and suits alone."""
        return bool(self.__dict__["_first_cards"])

    @property
    def scale(self) -> int:
        """The least common denominator of the payouts: ``scale × pays`` is a whole number on every line."""
        return int(self.__dict__["_scale"])

    @property
    def needs_suits(self) -> bool:
        """Whether the pay table reads suits (so the shoe's suits must be known)."""
        return any(
            isinstance(t.when, Condition) and any("suited" in n or "perfect" in n for n, _ in t.when.terms) for t in self.tiers
        )

    def by_winner(self) -> tuple[Fraction, Fraction, Fraction] | None:
        """The net result per unit when the banker wins, the player (ponte) wins, and on a tie — for a bet
        settled on the winner alone (Banker, Player, Tie); ``None`` for any other bet.

        >>> from solver.punto import banker_bet, dragon7_bet
        >>> banker_bet().by_winner(), dragon7_bet().by_winner()
        ((Fraction(19, 20), Fraction(-1, 1), Fraction(0, 1)), None)
        """
        out: list[Fraction | None] = [None, None, None]
        for tier in self.tiers:
            if not isinstance(tier.when, Condition) or any(name != "winner" for name, _ in tier.when.terms):
                return None
            allowed = next((values for name, values in tier.when.terms if name == "winner"), frozenset({0, 1, 2}))
            for w in sorted(allowed):
                if out[w] is None:
                    out[w] = tier.pays
        b, p, t = (Fraction(-1) if x is None else x for x in out)
        return (b, p, t)

    def __repr__(self) -> str:
        return f"Bet({self.name!r})"


@dataclass(frozen=True)
class TierResult:
    """One line of a bet's breakdown: what it pays and its exact probability, ``weight / denominator``."""

    label: str
    pays: Fraction  # net result per unit staked: −1 for the loss line
    weight: int
    denominator: int

    @property
    def probability(self) -> Fraction:
        """The line's exact probability."""
        return Fraction(self.weight, self.denominator)

    @property
    def contribution(self) -> Fraction:
        """This line's share of the expected value, ``pays × probability`` (the "return" column)."""
        return self.pays * self.probability


@dataclass(frozen=True)
class BetResult:
    """The exact law of one bet's result per unit staked.

    Attributes:
        name, description: of the bet.
        win, lose, push: exact probabilities.
        ev: expected net result per unit staked; ``edge`` is ``-ev`` (the house edge).
        tiers: the breakdown: each paying line of the pay table, then the loss (pays −1).
    """

    name: str
    description: str
    win: Fraction
    lose: Fraction
    push: Fraction
    ev: Fraction
    tiers: tuple[TierResult, ...] = field(default=(), compare=False)

    @property
    def edge(self) -> Fraction:
        """House edge per unit staked (pushes count as stakes)."""
        return -self.ev

    @property
    def second_moment(self) -> Fraction:
        """E[X²] of the net result X per unit staked."""
        if self.tiers:
            return sum((t.pays * t.pays * t.probability for t in self.tiers), Fraction(0))
        raise ModelError(f"bet {self.name}: no breakdown to take moments from")

    @property
    def variance(self) -> Fraction:
        """Variance of the net result per unit staked, exactly (the standard deviation's square)."""
        return self.second_moment - self.ev * self.ev

    def sd_str(self, digits: int) -> str:
        """The standard deviation per unit staked, ``sqrt(variance)``, rounded to ``digits`` places.

        Computed from the exact variance with integer square roots, so every printed digit is right.
        """
        return sqrt_str(self.variance, digits)

    @property
    def edge_excluding_pushes(self) -> Fraction | None:
        """House edge per bet resolved, ``−EV / (1 − P(push))``; ``None`` when the bet never pushes (the
        edge is the same) or always pushes (on a shoe that deals nothing else: no bet is ever resolved).

        For Banker and Player this is the edge *excluding ties*.
        """
        return None if self.push == 0 or self.push == 1 else -self.ev / (1 - self.push)

    @property
    def element_of_risk(self) -> Fraction:
        """Expected loss over the total amount wagered; no baccarat bet can be raised, so the edge."""
        return self.edge


def sqrt_str(x: Fraction, digits: int) -> str:
    """``sqrt(x)`` for an exact ``x >= 0``, rounded half up to ``digits`` places, exactly.

    >>> sqrt_str(Fraction(2), 6), sqrt_str(Fraction(1, 4), 3)
    ('1.414214', '0.500')
    """
    if x < 0:
        raise ValueError("square root of a negative number")
    scaled = Fraction(x) * 4 * 10 ** (2 * digits)  # floor(2 sqrt(y)) then halve: round half up
    twice = math.isqrt(scaled.numerator * scaled.denominator) // scaled.denominator
    n = (twice + 1) // 2
    s = str(n).rjust(digits + 1, "0")
    return f"{s[:-digits]}.{s[-digits:]}" if digits > 0 else s


def result_from_weights(bet: Bet, tier_weights: Sequence[int], lose: int, denominator_: int) -> BetResult:
    """A :class:`BetResult` from exact integer weights of each tier and of the loss over a denominator."""
    d = denominator_
    win = push = 0
    scale = bet.scale
    ev = -scale * lose
    for t, w in zip(bet.tiers, tier_weights):
        if t.pays > 0:
            win += w
        else:
            push += w
        ev += (t.pays.numerator * (scale // t.pays.denominator)) * w
    lines = tuple(TierResult(t.label, t.pays, w, d) for t, w in zip(bet.tiers, tier_weights))
    lines += (TierResult("loss", Fraction(-1), lose, d),)
    return BetResult(
        name=bet.name,
        description=bet.description,
        win=Fraction(win, d),
        lose=Fraction(lose, d),
        push=Fraction(push, d),
        ev=Fraction(ev, scale * d),
        tiers=lines,
    )


def tier_index(bet: Bet, table: Outcomes) -> np.ndarray:
    """For every row, the index of the first tier that holds, or ``len(bet.tiers)`` (a loss)."""
    if bet.first_cards:
        raise ModelError(f"bet {bet.name} is settled by the first cards, not by the coup's outcome")
    import numpy as np

    out = np.full(table.size, len(bet.tiers), dtype=np.int64)
    open_rows = np.ones(table.size, dtype=bool)
    for i, tier in enumerate(bet.tiers):
        rows = open_rows & np.asarray(tier.when(table), dtype=bool)
        out[rows] = i
        open_rows &= ~rows
    return out


def evaluate(bet: Bet, table: OutcomeTable) -> BetResult:
    """The exact result law of a coup bet on one coup described by ``table`` (the reference route)."""
    idx = tier_index(bet, table)
    weights = [table.weight(idx == i) for i in range(len(bet.tiers) + 1)]
    return result_from_weights(bet, weights[:-1], weights[-1], table.denominator)
