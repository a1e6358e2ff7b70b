"""The side-bet catalogue: every bet ``baccarat punto`` prices, by name, with its source.

Each entry is a :class:`~solver.punto.bet.Bet` over the coup's outcome or its first cards; published
edges are pinned in tests/test_bets_published.py. Families with a parameter are named
``FAMILY:VALUE`` (:func:`bet_from_name`): ``tie:K`` (Tie at K to 1), ``tie_on_T:K`` (a tie on the
total T at K to 1), ``banker:ALPHA`` (Banker at commission ALPHA), ``dragon7:K``, ``panda8:K``.

>>> [b.name for b in catalogue()][:6]
['banker', 'player', 'tie_8to1', 'tie_9to1', 'ez_banker', 'dragon7']
>>> bet_from_name("tie_on_7:45").description
'Tie on a total of 7, pays 45 to 1'
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache

from solver.errors import InputError
from solver.exact.numbers import exact, fraction_str
from solver.punto.bet import Bet, Tier
from solver.punto.events import Condition
from solver.punto.main_bets import (
    BANKER_WINS,
    PLAYER_WINS,
    TIE,
    banker_bet,
    dragon7_bet,
    ez_banker_bet,
    panda8_bet,
    percent_text,
    player_bet,
    super6_banker_bet,
    tie_bet,
)
from solver.punto.pairs import side_pair_bet
from solver.rules.tableau import STANDARD_COMMISSION


def lucky6_bet(two_card: int = 12, three_card: int = 23, name: str = "lucky6") -> Bet:
    """Lucky 6: the banker wins with a 6; pays ``two_card`` to 1 on two cards, ``three_card`` on three."""
    return Bet(
        name,
        f"Lucky 6: banker wins with a 6, pays {two_card} to 1 on two cards, {three_card} to 1 on three",
        (
            Tier(Fraction(two_card), Condition.of(winner="banker", banker_total=6, banker_cards=2), "two-card winning banker 6"),
            Tier(
                Fraction(three_card), Condition.of(winner="banker", banker_total=6, banker_cards=3), "three-card winning banker 6"
            ),
        ),
    )


def big_tiger_bet(pays: int = 50) -> Bet:
    """Big Tiger: the banker wins with a three-card 6; pays ``pays`` to 1."""
    return Bet(
        "big_tiger",
        f"Big Tiger: banker wins with a three-card 6, pays {pays} to 1",
        (Tier(Fraction(pays), Condition.of(winner="banker", banker_total=6, banker_cards=3), "three-card winning banker 6"),),
    )


DRAGON_BONUS_MARGINS = ((9, 30), (8, 10), (7, 6), (6, 4), (5, 2), (4, 1))
"""Dragon Bonus: a non-natural win by this margin pays this many to 1."""


def dragon_bonus_bet(side: str) -> Bet:
    """Dragon Bonus on ``side``: a natural win pays 1 to 1 and a natural tie pushes; a non-natural win
    by 9, 8, 7, 6, 5, 4 pays 30, 10, 6, 4, 2, 1 to 1; everything else loses."""
    tiers = [
        Tier(Fraction(pays), Condition.of(winner=side, natural=False, margin=m), f"win by {m}")
        for m, pays in DRAGON_BONUS_MARGINS
    ]
    tiers.append(Tier(Fraction(1), Condition.of(winner=side, natural=True), "natural win"))
    tiers.append(Tier(Fraction(0), Condition.of(winner="tie", natural=True), "natural tie"))
    return Bet(
        f"dragon_bonus_{side}",
        f"Dragon Bonus on the {side}: natural win 1 to 1, natural tie push, non-natural win by 9/8/7/6/5/4 pays 30/10/6/4/2/1",
        tuple(tiers),
    )


def either_pair_bet(pays: int = 5) -> Bet:
    """Either Pair: the player's or the banker's first two cards are a pair (same rank); pays ``pays`` to 1."""
    return Bet(
        "either_pair",
        f"Either Pair: the player's or the banker's first two cards are a pair, pays {pays} to 1",
        (
            Tier(Fraction(pays), Condition.of(player_pair=True), "player pair"),
            Tier(Fraction(pays), Condition.of(banker_pair=True), "banker pair only"),
        ),
    )


def perfect_pairs_bet(one: int = 25, both: int | None = None) -> Bet:
    """Perfect Pairs: a hand's first two cards are of the same rank and suit; pays ``one`` to 1, and
    ``both`` to 1 when both hands have one (version 2; version 1 pays ``one`` either way)."""
    tiers = []
    if both is not None:
        tiers.append(Tier(Fraction(both), Condition.of(player_perfect_pair=True, banker_perfect_pair=True), "two perfect pairs"))
    tiers += [
        Tier(Fraction(one), Condition.of(player_perfect_pair=True), "player perfect pair"),
        Tier(Fraction(one), Condition.of(banker_perfect_pair=True), "banker perfect pair only"),
    ]
    if both is None:
        return Bet(
            "perfect_pairs",
            f"Perfect Pairs (version 1): either hand's first two cards of one rank and suit, pays {one} to 1",
            tuple(tiers),
        )
    return Bet("perfect_pairs_v2", f"Perfect Pairs (version 2): one perfect pair pays {one} to 1, both {both} to 1", tuple(tiers))


def odds_text(pays: Fraction) -> str:
    """A payout as tables print it: ``3 to 2``, ``1 to 2``, ``0.54 to 1``, ``40 to 1``.

    >>> odds_text(Fraction(3, 2)), odds_text(Fraction(27, 50)), odds_text(Fraction(40))
    ('3 to 2', '0.54 to 1', '40 to 1')
    """
    if pays.denominator <= 4:
        return f"{pays.numerator} to {pays.denominator}" if pays.denominator > 1 else f"{pays.numerator} to 1"
    return f"{percent_text(pays / 100)} to 1"


def cards_bet(n: int, pays: Fraction) -> Bet:
    """4-5-6: exactly ``n`` cards are dealt in the coup; pays ``pays`` to 1."""
    return Bet(
        f"cards_{n}", f"4-5-6: {n} cards dealt, pays {odds_text(pays)}", (Tier(pays, Condition.of(cards=n), f"{n} cards"),)
    )


def big_bet(pays: Fraction = Fraction(54, 100)) -> Bet:
    """Big: five or six cards are dealt; pays ``pays`` to 1."""
    return Bet(
        "big", f"Big: 5 or 6 cards dealt, pays {odds_text(pays)}", (Tier(pays, Condition.of(cards=(5, 6)), "5 or 6 cards"),)
    )


def small_bet(pays: Fraction = Fraction(3, 2)) -> Bet:
    """Small: four cards are dealt (no third card); pays ``pays`` to 1."""
    return Bet("small", f"Small: 4 cards dealt, pays {odds_text(pays)}", (Tier(pays, Condition.of(cards=4), "4 cards"),))


def natural_bet(total: int, side: str, pays: int = 9) -> Bet:
    """Natural ``total`` (8 or 9) on ``side``: that hand's first two cards total ``total``; pays ``pays`` to 1."""
    return Bet(
        f"natural{total}_{side}",
        f"Natural {total} on the {side}: its first two cards total {total}, pays {pays} to 1",
        (Tier(Fraction(pays), Condition.of(**{f"{side}_two_card_total": total}), f"natural {total}"),),
    )


def tie_max_bet(high: bool) -> Bet:
    """Tie Max: a tie whose highest card is 6–9 (High, 10 to 1) or 0–5 (Low, 55 to 1)."""
    if high:
        return Bet(
            "tie_max_high",
            "High Tie Max: a tie with a highest card of 6 to 9, pays 10 to 1",
            (Tier(Fraction(10), Condition.of(winner="tie", high_card=(6, 7, 8, 9)), "high tie"),),
        )
    return Bet(
        "tie_max_low",
        "Low Tie Max: a tie with a highest card of 0 to 5, pays 55 to 1",
        (Tier(Fraction(55), Condition.of(winner="tie", high_card=(0, 1, 2, 3, 4, 5)), "low tie"),),
    )


def tie_on_total_bet(total: int, pays: Fraction | int) -> Bet:
    """A tie on the total ``total``: both hands end on ``total``; pays ``pays`` to 1."""
    p = Fraction(pays)
    return Bet(
        f"tie_on_{total}:{fraction_str(p)}",
        f"Tie on a total of {total}, pays {fraction_str(p)} to 1",
        (Tier(p, Condition.of(winner="tie", banker_total=total), f"tie on {total}"),),
    )


@lru_cache(maxsize=16)
def catalogue(commission: Fraction | int | str = STANDARD_COMMISSION) -> tuple[Bet, ...]:
    """Every catalogued bet, in the order they are printed (the Banker bet at ``commission``)."""
    return (
        banker_bet(commission),
        player_bet(),
        tie_bet(8),
        tie_bet(9),
        ez_banker_bet(),
        dragon7_bet(),
        panda8_bet(),
        side_pair_bet("player"),
        side_pair_bet("banker"),
        banker_bet(Fraction(4, 100), "banker_4pct"),
        banker_bet(Fraction(25, 1000), "banker_2.5pct"),
        Bet("tie_1to1", "Tie, pays 1 to 1 (the seed casino's simplified sheet)", (Tier(Fraction(1), TIE, "tie"),)),
        super6_banker_bet(),
        lucky6_bet(),
        lucky6_bet(12, 20, "lucky6_macau"),
        big_tiger_bet(),
        dragon_bonus_bet("player"),
        dragon_bonus_bet("banker"),
        either_pair_bet(),
        perfect_pairs_bet(),
        perfect_pairs_bet(25, 250),
        cards_bet(4, Fraction(3, 2)),
        cards_bet(5, Fraction(2)),
        cards_bet(6, Fraction(2)),
        big_bet(),
        small_bet(),
        natural_bet(8, "player"),
        natural_bet(8, "banker"),
        natural_bet(9, "player"),
        natural_bet(9, "banker"),
        tie_max_bet(False),
        tie_max_bet(True),
    )


def catalogue_names() -> tuple[str, ...]:
    """The names of the catalogued bets."""
    return tuple(b.name for b in catalogue())


FAMILIES = {
    "tie": "Tie at K to 1, e.g. tie:8",
    "tie_on_T": "a tie on the total T (0-9) at K to 1, e.g. tie_on_7:45",
    "banker": "Banker at commission ALPHA, e.g. banker:4%",
    "dragon7": "Dragon 7 at K to 1, e.g. dragon7:30",
    "panda8": "Panda 8 at K to 1, e.g. panda8:20",
}


def _to_one(text: str, what: str) -> Fraction:
    value = exact(text, what)
    if value < 0:
        raise InputError(f"{what}: a payout must be at least 0, got {fraction_str(value)}")
    return value


def bet_from_name(name: str, commission: Fraction | int | str = STANDARD_COMMISSION) -> Bet:
    """The bet called ``name``: a catalogue name, or ``FAMILY:VALUE`` (see :data:`FAMILIES`).

    Raises:
        InputError: an unknown name or a bad parameter (the message lists the names).
    """
    text = name.strip()
    for bet in catalogue(commission):
        if bet.name == text:
            return bet
    family, sep, param = text.partition(":")
    if sep:
        where = f"bet {text!r}"
        if family == "tie":
            pays = _to_one(param, where)
            return Bet(f"tie:{fraction_str(pays)}", f"Tie, pays {fraction_str(pays)} to 1", (Tier(pays, TIE, "tie"),))
        if family.startswith("tie_on_") and family[7:] in tuple(str(t) for t in range(10)):
            return tie_on_total_bet(int(family[7:]), _to_one(param, where))
        if family == "banker":
            bet = banker_bet(param, name=text)
            return bet
        if family in ("dragon7", "panda8"):
            pays = _to_one(param, where)
            won = "banker" if family == "dragon7" else "player"
            total, label = (7, "Dragon 7") if family == "dragon7" else (8, "Panda 8")
            return Bet(
                text,
                f"{label}: {won} wins with a three-card {total}, pays {fraction_str(pays)} to 1",
                (
                    Tier(
                        pays,
                        Condition.of(winner=won, **{f"{won}_total": total, f"{won}_cards": 3}),
                        f"{won} wins with a three-card {total}",
                    ),
                ),
            )
    raise InputError(
        f"unknown bet {text!r}; catalogued bets: {', '.join(catalogue_names())}; "
        f"families: {', '.join(f + ':VALUE' for f in FAMILIES)}"
    )


def bets_from_names(names: Iterable[str], commission: Fraction | int | str = STANDARD_COMMISSION) -> tuple[Bet, ...]:
    """The bets named in a list (or a comma-separated string), in order, without repeats."""
    if isinstance(names, str):
        names = [n for n in names.split(",") if n.strip()]
    out: list[Bet] = []
    for n in names:
        bet = bet_from_name(n, commission)
        if bet.name not in {b.name for b in out}:
            out.append(bet)
    if not out:
        raise InputError("name at least one bet")
    return tuple(out)


__all__ = [
    "BANKER_WINS",
    "DRAGON_BONUS_MARGINS",
    "FAMILIES",
    "PLAYER_WINS",
    "big_bet",
    "big_tiger_bet",
    "bet_from_name",
    "bets_from_names",
    "cards_bet",
    "catalogue",
    "catalogue_names",
    "dragon_bonus_bet",
    "either_pair_bet",
    "lucky6_bet",
    "natural_bet",
    "perfect_pairs_bet",
    "small_bet",
    "tie_max_bet",
    "tie_on_total_bet",
]
