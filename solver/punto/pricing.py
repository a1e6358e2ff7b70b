"""Punto banco on a shoe: the exact outcome law and the exact law of every bet asked for.

Coup bets are compiled once per set of bets (:func:`solver.punto.compiled.compile_bets`) and evaluated on
the shoe by one exact integer sum; bets on the first cards' ranks and suits come from the first
cards' law (:mod:`solver.punto.pairs`). A bet the shoe cannot settle (a pair bet on a shoe known by
point value only, a suit bet on a shoe whose suits are unknown) is left out of the default set and
listed in :attr:`PuntoResult.omitted`; asked for by name, it is an error.

>>> result = punto_banco(Shoe.decks(8))
>>> result.banker, result.tie
(Fraction(8954111587648, 19524993263685), Fraction(619306544887, 6508331087895))
>>> result.bet("banker").edge
Fraction(114753351728, 10847218479825)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from solver.cards import Shoe
from solver.errors import ModelError
from solver.exact.numbers import decimal_str, exact, fraction_str
from solver.punto.bet import Bet, BetResult
from solver.punto.compiled import compile_bets
from solver.punto.main_bets import main_bets, variant_bets
from solver.punto.pairs import evaluate_first_cards, first_cards_law, side_pair_bet
from solver.rules.tableau import PUNTO_BANCO, STANDARD_COMMISSION, Tableau

METHOD = "exact enumeration of every six-card sequence (solver.deal.tree)"
"""How :func:`punto_banco` obtains its numbers (under punto banco's tableau; :func:`method_of`)."""


@dataclass(frozen=True)
class PuntoResult:
    """Punto banco on one shoe, exactly.

    Attributes:
        shoe: the shoe.
        counts: six-card sequences won by banker, player, and tied (integers).
        denominator: all six-card sequences, N(N−1)…(N−5) (13^6 weighted, for an infinite deck).
        bets: the exact result law of each bet evaluated.
        commission: the Banker bet's commission.
        method: how the numbers were obtained.
        omitted: ``(bet name, reason)`` for each bet of the default set this shoe cannot settle.
    """

    shoe: Shoe
    counts: dict[str, int]
    denominator: int
    bets: tuple[BetResult, ...]
    commission: Fraction
    method: str = METHOD
    omitted: tuple[tuple[str, str], ...] = ()

    @property
    def banker(self) -> Fraction:
        """P(banker wins)."""
        return Fraction(self.counts["banker"], self.denominator)

    @property
    def player(self) -> Fraction:
        """P(player wins)."""
        return Fraction(self.counts["player"], self.denominator)

    @property
    def tie(self) -> Fraction:
        """P(tie)."""
        return Fraction(self.counts["tie"], self.denominator)

    def bet(self, name: str) -> BetResult:
        """The result of the bet called ``name``."""
        for b in self.bets:
            if b.name == name:
                return b
        raise KeyError(name)

    @property
    def parameters(self) -> dict[str, str]:
        """The inputs, as the JSON writes them (:class:`~solver.exact.result.Result`)."""
        return {"shoe": self.shoe.label(), "commission": fraction_str(self.commission)}

    @property
    def exact(self) -> bool:
        """Always True: every number is an exact count over the exact denominator."""
        return True

    @property
    def certified(self) -> bool:
        """Always True: an enumeration of every card sequence is its own proof (nothing is proposed)."""
        return True

    @property
    def unique(self) -> bool:
        """Always True: a shoe has one law."""
        return True

    def __repr__(self) -> str:
        edges = ", ".join(f"{b.name} {decimal_str(b.edge * 100, 4)} %" for b in self.bets[:3])
        more = f", and {len(self.bets) - 3} more bets" if len(self.bets) > 3 else ""
        return f"PuntoResult({self.shoe.label()}: house edge {edges}{more}; exact)"


def method_of(tableau: Tableau) -> str:
    """The method a result under ``tableau`` states: :data:`METHOD`, naming a tableau other than punto banco's.

    >>> method_of(PUNTO_BANCO) == METHOD
    True
    """
    return METHOD if tableau == PUNTO_BANCO else f"{METHOD}, under the {tableau.name} tableau"


UNKNOWN_HINT = {
    "ranks": "a ten-valued card removed as 0 has no rank, so name it (T, J, Q or K: --remove K, not 0); "
    "a shoe of 10 counts by point value has no ranks either (give --decks, or --shoe with 13 counts by rank)",
    "suits": "a card removed without its suit leaves the suits unknown, so name its suit too (--remove KS, not K), "
    "or give the shoe by rank and suit (--shoe with 52 counts)",
}
"""What to do when a shoe cannot settle a bet on the first cards: how its ranks or suits became unknown."""


def settles(bet: Bet, shoe: Shoe) -> str | None:
    """Why ``shoe`` cannot settle ``bet`` (its ranks or suits are unknown), or ``None`` if it can."""
    if not bet.first_cards:
        return None
    if shoe.ranks is None:
        return "the shoe's ranks are unknown"
    if bet.needs_suits and shoe.suits is None:
        return "the shoe's suits are unknown"
    return None


def punto_banco(
    shoe: Shoe,
    commission: Fraction | int | str = STANDARD_COMMISSION,
    bets: Sequence[Bet] | None = None,
    skip_unsettled: bool = False,
    tableau: Tableau = PUNTO_BANCO,
    tie_pays: tuple[int, ...] = (8, 9),
    route: str = "auto",
) -> PuntoResult:
    """Punto banco on one shoe: the exact outcome law and the exact law of every bet.

    Args:
        shoe: the shoe to deal from.
        commission: the Banker bet's commission (default 1/20), for the default set.
        bets: bets to evaluate; default :func:`~solver.punto.main_bets.main_bets`,
            :func:`~solver.punto.main_bets.variant_bets`, and the Player and Banker Pair bets.
        skip_unsettled: leave out (and list in ``omitted``) the bets this shoe cannot settle instead of
            raising; always done for the default set.
        tableau: the drawing rules, every cell fixed (default punto banco's; a house's, solver.rules.house).
        tie_pays: what the Tie bet of the default set pays to 1, one Tie bet each.
        route: how the coup bets are summed (:meth:`~solver.punto.compiled.CompiledBets.key_weights`:
            ``plain``, ``numpy`` or ``auto``); the same numbers.

    Returns:
        A :class:`PuntoResult`.

    Raises:
        ModelError: a bet asked for needs ranks or suits the shoe does not have, or the tableau leaves a
            decision free.

    >>> r = punto_banco(Shoe.decks(6))
    >>> r.counts["banker"], r.counts["player"], r.counts["tie"]
    (403095751234560, 392220492728832, 83552962932288)
    """
    alpha = exact(commission, "commission")
    if bets is None:
        chosen: tuple[Bet, ...] = main_bets(alpha, tie_pays) + variant_bets() + (side_pair_bet("player"), side_pair_bet("banker"))
        skip_unsettled = True
    else:
        chosen = tuple(bets)
    omitted = []
    kept = []
    for b in chosen:
        why = settles(b, shoe)
        if why is None:
            kept.append(b)
        elif skip_unsettled:
            omitted.append((b.name, why))
        else:
            needs = "suits" if "suits" in why else "ranks"
            raise ModelError(f"bet {b.name} reads the first cards' {needs}, but {why}: {UNKNOWN_HINT[needs]}")
    coup = tuple(b for b in kept if not b.first_cards)
    compiled = compile_bets(coup, tableau)
    coup_results, winners, d = compiled.results(shoe, route)
    by_name = {r.name: r for r in coup_results}
    law = first_cards_law(shoe, suits=any(b.needs_suits for b in kept)) if any(b.first_cards for b in kept) else None
    results = []
    for b in kept:
        results.append(by_name[b.name] if not b.first_cards else evaluate_first_cards(b, shoe, law))
    counts = dict(zip(("banker", "player", "tie"), winners))
    return PuntoResult(
        shoe=shoe,
        counts=counts,
        denominator=d,
        bets=tuple(results),
        commission=alpha,
        method=method_of(tableau),
        omitted=tuple(omitted),
    )
