"""Exact laws of a coup for the cross-check: fixed tableaux, mixtures of tableaux, card-indexed strategies."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Protocol

import numpy as np

from solver.cards import Shoe
from solver.deal.outcome import OutcomeTable, outcomes
from solver.deal.tree import N_DETAIL, detail_key, detail_parts
from solver.errors import ModelError
from solver.punto import STANDARD_COMMISSION
from solver.rules.tableau import Action, Tableau, outcome_names
from solver.simulate.config import Payout, default_payouts
from solver.strategy import Side, Strategy

DEFAULT_ALPHA = Fraction(1, 1000)
POWER = 0.8
MIN_EXPECTED = 5.0
MAX_MIXED_CELLS = 12


# -- what the tests read of a law ----------------------------------------------------------------------


class Settles(Protocol):
    """How a bet is settled: its name and its net result per unit staked by outcome (a
    :class:`~solver.simulate.config.Payout`, or a banque settlement)."""

    @property
    def name(self) -> str: ...

    def vector(self) -> tuple[Fraction, ...]: ...


class Law(Protocol):
    """What the cross-check's tests read of the exact law of a first coup, for any game.

    The outcomes are in a fixed order (banker, player or ponte, tie; banque's nine joint outcomes),
    ``vector`` their probabilities; ``detail`` the law of the coup's detail key (``detail_size`` keys),
    when known; ``cards_per_coup`` the cards every coup deals whatever the decisions; the serial test
    reads consecutive coups' outcomes grouped into classes, whose law is ``serial_vector`` (the outcomes
    themselves for punto banco and chemin de fer; banque's three classes,
    :data:`solver.crosscheck.banque.SERIAL_CLASSES`); ``settlements`` are the bets settled correctly.
    """

    @property
    def game(self) -> str: ...

    @property
    def shoe(self) -> Shoe: ...

    @property
    def method(self) -> str: ...

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def detail(self) -> Mapping[int, Fraction] | None: ...

    @property
    def detail_size(self) -> int: ...

    @property
    def cards_per_coup(self) -> int: ...

    def vector(self) -> tuple[Fraction, ...]: ...

    def serial_vector(self) -> tuple[Fraction, ...]: ...

    def bet_mean(self, pay: Settles) -> Fraction: ...

    def bet_variance(self, pay: Settles) -> Fraction: ...

    def bet_test_name(self, name: str) -> str: ...

    def settlements(self) -> tuple[Settles, ...]: ...


# -- the exact law ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ExactLaw:
    """The exact law of the first coup from a shoe.

    Attributes:
        game: ``punto`` or ``chemin``.
        shoe: the shoe.
        winner: outcome name (banker, player or ponte, tie) → probability.
        detail: detail key (:func:`solver.deal.tree.detail_key`) → probability, when known.
        method: how it was obtained.
    """

    game: str
    shoe: Shoe
    winner: dict[str, Fraction]
    detail: dict[int, Fraction] | None
    method: str

    detail_size = N_DETAIL
    """Detail keys of :func:`solver.deal.tree.detail_key`."""
    cards_per_coup = 4
    """Every coup deals four cards (two to each side) whatever the decisions."""

    @property
    def names(self) -> tuple[str, str, str]:
        return tuple(self.winner)  # type: ignore[return-value]

    def vector(self) -> tuple[Fraction, Fraction, Fraction]:
        b, p, t = self.winner.values()
        return (b, p, t)

    def serial_vector(self) -> tuple[Fraction, Fraction, Fraction]:
        """The serial test reads the outcomes themselves."""
        return self.vector()

    def bet_mean(self, pay: Settles) -> Fraction:
        """Exact expected net result of a bet per unit staked."""
        return sum((a * q for a, q in zip(pay.vector(), self.vector())), Fraction(0))

    def bet_variance(self, pay: Settles) -> Fraction:
        """Exact variance of a bet's net result per coup."""
        m = self.bet_mean(pay)
        return sum((a * a * q for a, q in zip(pay.vector(), self.vector())), Fraction(0)) - m * m

    def bet_test_name(self, name: str) -> str:
        return f"bet {name}"

    def settlements(self) -> tuple[Payout, ...]:
        """The game's bets settled correctly, at the standard 5 % commission."""
        return default_payouts(self.game, STANDARD_COMMISSION)

    def reference(self, payouts: Iterable[Payout]) -> dict[str, Fraction]:
        """Exact first-coup values keyed like :meth:`SimulationResult.first_coup`."""
        out = {f"outcome:{k}": v for k, v in self.winner.items()}
        out.update({f"bet:{p.name}": self.bet_mean(p) for p in payouts})
        return out


def _table_detail(table: OutcomeTable) -> dict[int, Fraction]:
    # detail_key works elementwise on whole columns
    keys = np.asarray(detail_key(table.p_total, table.b_total, table.p_cards - 2, table.b_cards - 2, table.natural.astype(int)))
    sums: dict[int, int] = {}
    for key, w in zip(keys.tolist(), table.weights.tolist()):  # integer sums first, one Fraction per key
        sums[key] = sums.get(key, 0) + w
    return {key: Fraction(w, table.denominator) for key, w in sums.items()}


def _winner_of_detail(game: str, detail: Mapping[int, Fraction]) -> dict[str, Fraction]:
    b = p = t = Fraction(0)
    for key, q in detail.items():
        pt, bt, _, _, _ = detail_parts(key)
        if bt > pt:
            b += q
        elif pt > bt:
            p += q
        else:
            t += q
    return dict(zip(outcome_names(game), (b, p, t)))


def tableau_law(game: str, shoe: Shoe, tab: Tableau) -> ExactLaw:
    """The exact law under a fixed tableau, from :func:`solver.deal.outcome.outcomes`."""
    detail = _table_detail(outcomes(shoe, tab))
    return ExactLaw(
        game,
        shoe,
        _winner_of_detail(game, detail),
        detail,
        f"exact enumeration under the fixed tableau {tab.name!r} (solver.deal.outcome.outcomes)",
    )


def mixed_tableau_law(game: str, shoe: Shoe, strategy: Strategy) -> ExactLaw:
    """The exact law of a strategy on totals that mixes at a few tableau cells.

    Each cell randomises independently and a coup meets at most one ponte cell and one banker cell,
    so the law is the mixture of the pure tableaux' laws with product weights
    ``∏ p_c^{d_c} (1 − p_c)^{1 − d_c}`` (Kuhn's equivalence of behaviour and mixed strategies):
    exact, and ``2^k`` enumerations for ``k`` mixed cells.

    Raises:
        ModelError: the strategy depends on compositions, or mixes at too many cells.
    """
    tab = strategy.as_tableau()
    cells = strategy.mixed()
    if len(cells) > MAX_MIXED_CELLS:
        raise ModelError(f"{len(cells)} mixed cells: too many for the exact mixture (at most {MAX_MIXED_CELLS})")
    total: dict[int, Fraction] = {}
    for choice in product((0, 1), repeat=len(cells)):
        weight = Fraction(1)
        player: dict[int, Action] = {}
        banker: dict[tuple[int, int], Action] = {}
        for (infoset, q), d in zip(cells, choice):
            weight *= q if d else 1 - q
            act = Action.DRAW if d else Action.STAND
            if infoset.side is Side.PONTE:
                player[infoset.total] = act
            else:
                banker[(infoset.total, infoset.seen[0])] = act
        if weight == 0:
            continue
        pure = tab.with_player(player).with_banker(banker)
        for key, q in _table_detail(outcomes(shoe, pure)).items():
            total[key] = total.get(key, Fraction(0)) + weight * q
    detail = {k: v for k, v in total.items() if v}
    how = "exact enumeration (solver.deal.outcome.outcomes)"
    if cells:
        how = f"exact mixture of {2 ** len(cells)} pure tableaux' enumerations over the mixed cells"
    return ExactLaw(game, shoe, _winner_of_detail(game, detail), detail, how)


def law_from_probabilities(game: str, shoe: Shoe, probs: Mapping[str, Fraction], method: str) -> ExactLaw:
    """An exact law given only as outcome probabilities (e.g. from ``solver.chemin.game.strategy_law``).

    ``probs`` maps banker, player (or ponte), tie to Fractions summing to 1; the detail and burn laws
    are then not tested.
    """
    names = outcome_names(game)
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

    A strategy on totals that mixes at few cells is held as the exact mixture of tableaux
    (:func:`mixed_tableau_law`); any other (on compositions, or mixing at many cells) through
    :func:`solver.chemin.game.strategy_detail`.

    Raises:
        ModelError: a strategy that breaks chemin de fer's rules (the ponte free only at 5).
    """
    if strategy.on_totals() and len(strategy.mixed()) <= MAX_MIXED_CELLS:
        return mixed_tableau_law(game, shoe, strategy)
    from solver.chemin.game import strategy_detail

    by_detail = strategy_detail(shoe, strategy)
    detail = {detail_key(*k): q for k, q in by_detail.items()}
    return ExactLaw(
        game,
        shoe,
        _winner_of_detail(game, detail),
        detail,
        "exact law of the strategy's draw tables by cards (solver.chemin.game.strategy_detail)",
    )


def burn_laws(law: ExactLaw, strategy: Strategy) -> dict[int, dict[str, Fraction]]:
    """The exact outcome law given the turned burn card's value v: the law of the shoe less that card."""
    out = {}
    for v, n in enumerate(law.shoe.values):
        if n:
            less = Shoe.from_values(tuple(c - (i == v) for i, c in enumerate(law.shoe.values)))
            out[v] = exact_law(law.game, less, strategy).winner
    return out
