"""The table: which game, how many seats, the limits, the house's tax, and the shoe as it is dealt.

Seats are numbered 1 to ``seats`` in the direction the bank travels: seat ``k + 1`` sits on seat
``k``'s right (seat 1 on the croupier's right, where chemin de fer's first bank starts), and after
the last seat comes seat 1 again. "Seat order from the banker's right" is therefore ``b + 1, b + 2,
…`` around the table.

The limits: the minimum banco (the smallest bank, e.g. 100) and the minimum stake (by default a
tenth of it). The tax: chemin de fer's 5 % of the banker's win (``tax``); baccara banque's cagnotte
on the banker's net winnings of a coup, 2 % at banque limitée and 1.25 % at banque ouverte, or, as a
house rule, a share of the bank's capital taken once when the bank opens (``capital_tax``, typically
2.5 %–5 %).

The shoe is dealt as the simulator deals it (:mod:`solver.simulate.config`): shuffled, burned as
asked, and played to the cut card, the coup in progress when it appears being finished; chemin de
fer's cut card stands before the seventh card from the end, baccara banque's before the tenth.

>>> t = TableConfig("chemin")
>>> t.seats, t.minimum_banco, t.minimum_stake, t.tax, t.cut
(10, 100, 10, Fraction(1, 20), 7)
>>> TableConfig("banque", banque="ouverte").tax
Fraction(1, 80)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from solver.cards import Shoe
from solver.errors import InputError
from solver.exact.numbers import fraction_str
from solver.rules.tableau import CHEMIN_CASINO, CHEMIN_PARLOR, Tableau
from solver.sessions.money import amount_json, parse_amount, part, whole
from solver.sessions.words import BanqueKind, Game, parse_word
from solver.simulate.config import DEFAULT_CUT, MIN_CUT, Burn

MIN_SEATS, MAX_SEATS = 8, 12
BANQUE_CUT = 10
"""Cards behind baccara banque's cut card (the seed's rule sheet: before the tenth card from the end)."""
MIN_CUT_BANQUE = 9  # a banque coup deals up to nine cards (three hands of three)
DEFAULT_TAX = {Game.CHEMIN: Fraction(1, 20), BanqueKind.LIMITEE: Fraction(1, 50), BanqueKind.OUVERTE: Fraction(1, 80)}
"""Chemin de fer: 5 % of the banker's win. Baccara banque's cagnotte: 2 % of the banker's net
winnings at banque limitée, 1.25 % at banque ouverte."""
DEFAULT_DECKS = 6
MAX_SHOES = 10**6
DRAWING = {t.name: t for t in (CHEMIN_CASINO, CHEMIN_PARLOR)}
"""The drawing rules a table may play: the rule sheet's casino tableau (the default: only its cells P5,
B3/9 and B5/4 are free), or the parlor game's, which frees every banker cell (a departure from the sheet
the house may choose)."""


@dataclass(frozen=True)
class TableConfig:
    """One table's rules of the money and of the dealing.

    Attributes:
        game: ``chemin`` (chemin de fer) or ``banque`` (baccara banque).
        seats: players at the table, 8 to 12.
        minimum_banco: the smallest bank a banker may put up.
        minimum_stake: the smallest stake (default a tenth of the minimum banco); at most the
            minimum banco.
        tax: the house's share: of the banker's win (chemin de fer), of the banker's net winnings of
            a coup (baccara banque); default :data:`DEFAULT_TAX`.
        capital_tax: baccara banque's house rule: this share of the bank's capital, once, when the
            bank opens, *instead of* the tax on winnings (``None``: not used).
        banque: ``limitee`` (a fixed bank, busted when lost) or ``ouverte`` (the banker covers any
            stake); baccara banque only.
        rebank: baccara banque limitée's house rule: a busted banker may put up the bank's original sum
            again (his policy ``rebank`` decides) instead of the new auction the rule sheet calls for
            ("in einigen Casinos ... gestattet"); default ``False``, the sheet's rule.
        shoes: shoes per session (the bank and the bankrolls carry from one shoe to the next).
        shoe: the composition of a fresh shoe (default 6 decks).
        burn: the burn at the start of each shoe (default none).
        cut: cards behind the cut card (default 7 for chemin de fer, 10 for baccara banque).
        tableau: the drawing rules the strategies must keep (:data:`DRAWING`, by name or as the
            :class:`~solver.rules.tableau.Tableau`): ``casino``, the rule sheet's (default), or ``parlor``.
    """

    game: Game
    seats: int = 10
    minimum_banco: Fraction = Fraction(100)
    minimum_stake: Fraction | None = None
    tax: Fraction | None = None
    capital_tax: Fraction | None = None
    banque: BanqueKind = BanqueKind.LIMITEE
    rebank: bool = False
    shoes: int = 1
    shoe: Shoe = field(default_factory=lambda: Shoe.decks(DEFAULT_DECKS))
    burn: Burn = Burn()
    cut: int | None = None
    tableau: Tableau = field(default=CHEMIN_CASINO, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", parse_word(Game, self.game, "the game"))
        if isinstance(self.seats, bool) or not isinstance(self.seats, int) or not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise InputError(f"a table seats {MIN_SEATS} to {MAX_SEATS} players, got {self.seats!r}")
        banco = _money(self.minimum_banco, "the minimum banco")
        if banco <= 0:
            raise InputError("the minimum banco must be positive")
        stake = part(banco, 10) if self.minimum_stake is None else _money(self.minimum_stake, "the minimum stake")
        if stake <= 0:
            raise InputError("the minimum stake must be positive")
        if stake > banco:
            raise InputError(
                f"the minimum stake ({fraction_str(stake)}) must not exceed the minimum banco ({fraction_str(banco)})"
            )
        object.__setattr__(self, "banque", parse_word(BanqueKind, self.banque, "baccara banque (banque)"))
        if not isinstance(self.rebank, bool):
            raise InputError(f"rebank is true or false, got {self.rebank!r}")
        if self.rebank and (self.game is not Game.BANQUE or self.banque is not BanqueKind.LIMITEE):
            raise InputError("putting up a busted bank again (rebank) is a house rule of baccara banque limitee")
        kind = Game.CHEMIN if self.game is Game.CHEMIN else self.banque
        tax = DEFAULT_TAX[kind] if self.tax is None else _money(self.tax, "the tax")
        if not 0 <= tax < 1:
            raise InputError(f"the tax is a share of the winnings in [0, 1), got {fraction_str(tax)}")
        capital = None if self.capital_tax is None else _money(self.capital_tax, "the capital tax")
        if capital is not None:
            if self.game is not Game.BANQUE:
                raise InputError("the tax on the bank's capital is a house rule of baccara banque")
            if not 0 <= capital < 1:
                raise InputError(f"the capital tax is a share of the bank in [0, 1), got {fraction_str(capital)}")
        if isinstance(self.shoes, bool) or not isinstance(self.shoes, int) or not 1 <= self.shoes <= MAX_SHOES:
            raise InputError(f"a session deals 1 to {MAX_SHOES} shoes, got {self.shoes!r}")
        if self.shoe.is_infinite:
            raise InputError("the table deals physical shoes: give a finite shoe (an infinite deck has no cut card)")
        if self.burn.mode not in ("none", "fixed", "turn"):
            raise InputError(f"the table burns none, a number of cards, or turns one; not {self.burn.mode!r}")
        cut = (DEFAULT_CUT["chemin"] if self.game is Game.CHEMIN else BANQUE_CUT) if self.cut is None else self.cut
        least = MIN_CUT if self.game is Game.CHEMIN else MIN_CUT_BANQUE
        if cut < least:
            raise InputError(
                f"the cut card must leave at least {least} cards behind it (the coup in progress must be finished), got {cut}"
            )
        if cut + self.burn.most + 1 > self.shoe.size:
            raise InputError(f"a shoe of {self.shoe.size} cards cannot hold a burn of up to {self.burn.most} and a cut at {cut}")
        name = self.tableau.name if isinstance(self.tableau, Tableau) else self.tableau
        if name not in DRAWING or (isinstance(self.tableau, Tableau) and self.tableau != DRAWING[name]):
            raise InputError(f"the table draws by the casino or the parlor tableau, not {name!r}")
        object.__setattr__(self, "tableau", DRAWING[name])
        object.__setattr__(self, "minimum_banco", whole(banco))
        object.__setattr__(self, "minimum_stake", whole(stake))
        object.__setattr__(self, "tax", tax)
        object.__setattr__(self, "capital_tax", capital)
        object.__setattr__(self, "cut", cut)

    @property
    def stake_floor(self) -> Fraction:
        """The minimum stake (never ``None`` once the table is built)."""
        assert self.minimum_stake is not None
        return self.minimum_stake

    @property
    def tax_rate(self) -> Fraction:
        """The tax on winnings (0 under the capital-tax house rule)."""
        assert self.tax is not None
        return Fraction(0) if self.capital_tax is not None else self.tax

    @property
    def cut_cards(self) -> int:
        """Cards behind the cut card."""
        assert self.cut is not None
        return self.cut

    def tax_label(self) -> str:
        """The house's take, in words."""
        if self.capital_tax is not None:
            return f"{fraction_str(self.capital_tax)} of the bank's capital, once, when the bank opens"
        assert self.tax is not None
        if self.game is Game.CHEMIN:
            return f"{fraction_str(self.tax)} of the banker's win"
        return f"{fraction_str(self.tax)} of the banker's net winnings of each coup (cagnotte)"

    def describe(self) -> dict[str, object]:
        """A JSON-ready description of the table."""
        return {
            "game": self.game.value,
            "seats": self.seats,
            "minimum_banco": fraction_str(self.minimum_banco),
            "minimum_stake": fraction_str(self.stake_floor),
            "tax": self.tax_label(),
            "banque": self.banque.value if self.game is Game.BANQUE else None,
            "rebank": self.rebank if self.game is Game.BANQUE else None,
            "shoes_per_session": self.shoes,
            "shoe": self.shoe.spec(),
            "burn": self.burn.label(),
            "cut": self.cut,
            "tableau": self.tableau.name,
        }

    def header(self) -> dict[str, object]:
        """Every parameter of the table, machine-readable, as the log's header writes it: amounts and
        rates exact (JSON integers or ``"p/q"``), the shoe by rank (or by value), the burn and the cut.

        ``tax`` is the rate on winnings actually taken (0 under the capital-tax house rule);
        ``tax_on`` says on what: ``win`` (chemin de fer's banker's win), ``net`` (baccara banque's net
        winnings of a coup, tableaux netted) or ``capital`` (``capital_tax`` of each bank, once).
        """
        shoe = self.shoe.spec()
        return {
            "game": self.game.value,
            "seats": self.seats,
            "minimum_banco": amount_json(self.minimum_banco),
            "minimum_stake": amount_json(self.stake_floor),
            "tax": amount_json(self.tax_rate),
            "tax_on": "capital" if self.capital_tax is not None else "win" if self.game is Game.CHEMIN else "net",
            "capital_tax": None if self.capital_tax is None else amount_json(self.capital_tax),
            "banque": self.banque.value if self.game is Game.BANQUE else None,
            "rebank": self.rebank,
            "shoes": self.shoes,
            "shoe": {k: shoe[k] for k in ("ranks", "values") if k in shoe},
            "burn": {"mode": self.burn.mode, "count": self.burn.count},
            "cut": self.cut_cards,
            "tableau": self.tableau.name,
        }


def _money(x: object, what: str) -> Fraction:
    return parse_amount(x, what)


@lru_cache(maxsize=256)
def seats_right_of(seat: int, seats: int) -> tuple[int, ...]:
    """The other seats in order from ``seat``'s right: ``seat + 1, seat + 2, …`` around the table.

    >>> seats_right_of(9, 10)
    (10, 1, 2, 3, 4, 5, 6, 7, 8)
    """
    return tuple((seat + k - 1) % seats + 1 for k in range(1, seats))
