"""Bets as data, and punto banco answered exactly.

A :class:`Bet` is a name and a pay table: tiers ``(pays, condition, label)`` over the events of a
coup (:mod:`.events`), tried in order; the first that holds pays ``pays`` to 1 (0 is a push) and a
coup matching none loses the stake. Its exact law, breakdown and risk come from the enumerator
(:mod:`.core`) or, for bets on the first cards' ranks and suits, from the shoe's composition
(:mod:`.pairs`). The main bets are in :mod:`.main`, the catalogue in :mod:`.side_bets`, user pay
tables in :mod:`.files`, and :func:`punto_banco` in :mod:`.punto`. None of them touches the
enumerator.

>>> result = punto_banco(Shoe.decks(8))
>>> result.banker, result.tie
(Fraction(8954111587648, 19524993263685), Fraction(619306544887, 6508331087895))
>>> result.bet("banker").edge
Fraction(114753351728, 10847218479825)
"""

from __future__ import annotations

from fractions import Fraction

from solver.cards import Shoe
from solver.exact.numbers import exact
from solver.punto.bet import (
    Bet,
    BetResult,
    Predicate,
    Tier,
    TierResult,
    evaluate,
    result_from_weights,
    sqrt_str,
    tier_index,
)
from solver.punto.bet_files import read_bet_file
from solver.punto.compiled import CompiledBets, compile_bets, reference_results
from solver.punto.events import ALWAYS, COUP_EVENTS, EVENTS, FIRST_CARD_EVENTS, Condition, condition_from_mapping, describe_events
from solver.punto.main_bets import (
    banker_bet,
    dragon7_bet,
    ez_banker_bet,
    main_bets,
    panda8_bet,
    player_bet,
    super6_banker_bet,
    tie_bet,
    variant_bets,
)
from solver.punto.pairs import FirstCardsLaw, evaluate_first_cards, first_cards_law, pair_bets, pair_probability, side_pair_bet
from solver.punto.pricing import PuntoResult, punto_banco, settles
from solver.punto.side_bets import (
    FAMILIES,
    bet_from_name,
    bets_from_names,
    big_bet,
    big_tiger_bet,
    cards_bet,
    catalogue,
    catalogue_names,
    dragon_bonus_bet,
    either_pair_bet,
    lucky6_bet,
    natural_bet,
    perfect_pairs_bet,
    small_bet,
    tie_max_bet,
    tie_on_total_bet,
)
from solver.rules.tableau import STANDARD_COMMISSION

__all__ = [
    "ALWAYS",
    "COUP_EVENTS",
    "EVENTS",
    "FAMILIES",
    "FIRST_CARD_EVENTS",
    "STANDARD_COMMISSION",
    "Bet",
    "BetResult",
    "CompiledBets",
    "Condition",
    "FirstCardsLaw",
    "Fraction",
    "Predicate",
    "PuntoResult",
    "Shoe",
    "Tier",
    "TierResult",
    "banker_bet",
    "bet_from_name",
    "bets_from_names",
    "big_bet",
    "big_tiger_bet",
    "cards_bet",
    "catalogue",
    "catalogue_names",
    "compile_bets",
    "condition_from_mapping",
    "describe_events",
    "dragon7_bet",
    "dragon_bonus_bet",
    "either_pair_bet",
    "evaluate",
    "evaluate_first_cards",
    "exact",
    "ez_banker_bet",
    "first_cards_law",
    "lucky6_bet",
    "main_bets",
    "natural_bet",
    "pair_bets",
    "pair_probability",
    "panda8_bet",
    "perfect_pairs_bet",
    "player_bet",
    "punto_banco",
    "read_bet_file",
    "reference_results",
    "result_from_weights",
    "settles",
    "side_pair_bet",
    "small_bet",
    "sqrt_str",
    "super6_banker_bet",
    "tie_bet",
    "tier_index",
    "tie_max_bet",
    "tie_on_total_bet",
    "variant_bets",
]
