"""What a simulation deals: game, shoe, strategy, burn, cut card, and how bets are settled.

>>> c = SimConfig.punto(Shoe.decks(8))
>>> c.burn, c.cut, c.extra_coup
(Burn(mode=<BurnMode.TURN: 'turn'>, count=0), 14, False)
>>> parse_burn("3"), parse_burn("none").label()
(Burn(mode=<BurnMode.FIXED: 'fixed'>, count=3), 'no burn')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from solver.cards import RANK_VALUE, Shoe
from solver.errors import ModelError
from solver.exact.numbers import exact
from solver.punto import STANDARD_COMMISSION, Bet, banker_bet, player_bet, tie_bet
from solver.simulate import kernel
from solver.simulate.kernel import BurnMode
from solver.strategy import KEMENY_SNELL, PUNTO_STRATEGY, Strategy

GAMES = ("punto", "chemin")
DEFAULT_CUT = {"punto": 14, "chemin": 7}
"""Cards behind the cut card: 14 on common punto banco shoes (16 on others), and the seed's chemin de
fer places it before the seventh card from the end (baccara banque: before the tenth)."""

DEFAULT_BURN = {"punto": "turn", "chemin": "none"}
"""The customs' burns, as ``--burn`` writes them."""
MAX_CARDS = 52 * 1000
"""The largest shoe the simulator deals (1,000 decks): far beyond any table, and small enough that a
number typed by mistake is refused rather than exhausting the memory."""

MIN_CUT = 6  # the coup in progress when the cut card appears may need up to six more cards
MIN_CUT_EXTRA = 12  # ... and one more coup up to six after that


@dataclass(frozen=True)
class Burn:
    """The burn at the start of each shoe: a :class:`~solver.simulate.kernel.BurnMode` (``none``,
    ``fixed`` with ``count`` cards, or ``turn``: the punto banco custom, turn the first card and burn as
    many more as it counts, a ten-valued card 10). A mode's word (``"turn"``) is accepted for the mode.
    """

    mode: BurnMode = BurnMode.NONE
    count: int = 0

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "mode", BurnMode(self.mode))
        except ValueError:
            raise ModelError(f"unknown burn {self.mode!r} (none, a number of cards, or turn)") from None
        if self.count < 0 or (self.mode is not BurnMode.FIXED and self.count):
            raise ModelError("a burn count goes with a fixed burn only, and must not be negative")

    @property
    def most(self) -> int:
        """The most cards this burn can take."""
        return {BurnMode.NONE: 0, BurnMode.FIXED: self.count, BurnMode.TURN: 11}[self.mode]

    @property
    def mean(self) -> float:
        """The cards this burn takes on average from a standard shoe (a turned card burns 1 + 85/13)."""
        return {BurnMode.NONE: 0.0, BurnMode.FIXED: float(self.count), BurnMode.TURN: 1 + 85 / 13}[self.mode]

    def label(self) -> str:
        return {
            BurnMode.NONE: "no burn",
            BurnMode.FIXED: f"burn {self.count}",
            BurnMode.TURN: "turn the first card and burn that many (a ten burns 10)",
        }[self.mode]


def parse_burn(text: str) -> Burn:
    """Read ``--burn``: ``none``, a whole number of cards, or ``turn``."""
    t = text.strip().lower()
    if t in (BurnMode.NONE, BurnMode.TURN):
        return Burn(BurnMode(t))
    try:
        n = int(t) if len(t) <= 9 else -1
    except ValueError:
        raise ModelError(f"--burn takes none, a number of cards, or turn; got {text[:40]!r}") from None
    if n < 0:
        raise ModelError(f"--burn takes none, turn, or a number of cards from 0 up; got {text[:40]!r}")
    return Burn(BurnMode.FIXED, n) if n > 0 else Burn(BurnMode.NONE)


@dataclass(frozen=True)
class Payout:
    """How a dealing engine settles a bet: net result per unit staked when the banker wins, the player
    (ponte) wins, and on a tie. A view of a bet settled on the winner alone (:meth:`from_bet`); a
    payout that differs from the bet's models an engine that settles wrongly."""

    name: str
    banker: Fraction
    player: Fraction
    tie: Fraction

    @classmethod
    def from_bet(cls, bet: Bet, name: str | None = None) -> Payout:
        """The settlement of a bet on the winner alone (Banker, Player, Tie).

        Raises:
            ModelError: the bet reads more of the coup than its winner.
        """
        vector = bet.by_winner()
        if vector is None:
            raise ModelError(f"bet {bet.name} is not settled on the winner alone")
        return cls(name or bet.name, *vector)

    def vector(self) -> tuple[Fraction, Fraction, Fraction]:
        return (self.banker, self.player, self.tie)


def default_payouts(game: str, commission: Fraction) -> tuple[Payout, ...]:
    """Punto banco: Banker at 1 − commission, Player 1 to 1, Tie 8 to 1 (:mod:`solver.punto`). Chemin de
    fer: the banker's net result per unit (1 − commission on a win, −1 on a loss, 0 on a void coup) and
    the ponte's (his stake against the bank: the Player bet)."""
    if game == "punto":
        return tuple(Payout.from_bet(b) for b in (banker_bet(commission), player_bet(), tie_bet(8)))
    return (Payout.from_bet(banker_bet(commission)), Payout.from_bet(player_bet(), "ponte"))


@dataclass(frozen=True)
class SimConfig:
    """One simulated table.

    Attributes:
        game: ``punto`` or ``chemin``.
        shoe: the starting composition (finite).
        strategy: the exact behaviour strategy dealt (punto banco's tableau, or a chemin de fer strategy);
            the kernel deals its card-indexed draw tables.
        burn: the burn at the start of each shoe.
        cut: cards left behind the cut card.
        extra_coup: deal one more coup after the one in which the cut card appears (a punto banco custom).
        first_coup_only: deal one coup per shoe (each coup from a freshly shuffled shoe), whose law is
            exactly the enumerator's: what the cross-check of our own simulator uses.
        commission: on banker wins.
        payouts: how the engine settles bets (default :func:`default_payouts`); a wrong table models
            a wrongly settling engine.
        shoe_tallies: also keep the tallies of the cross-check's tests of structure, counting every
            card dealt (:mod:`solver.simulate.kernel`; dealing takes about a fifth longer).
    """

    game: str
    shoe: Shoe
    strategy: Strategy
    burn: Burn = Burn()
    cut: int = 14
    extra_coup: bool = False
    first_coup_only: bool = False
    commission: Fraction = STANDARD_COMMISSION
    payouts: tuple[Payout, ...] = field(default=())
    shoe_tallies: bool = False

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ModelError(f"unknown game {self.game!r} (punto or chemin)")
        if not self.shoe.is_infinite and self.shoe.size > MAX_CARDS:
            raise ModelError(
                f"the simulator deals shoes of at most {MAX_CARDS:,} cards (1,000 decks); this one holds {self.shoe.size:,}"
            )
        if self.shoe.is_infinite:
            raise ModelError("the simulator deals physical shoes: give a finite shoe (an infinite deck has no cut card)")
        alpha = exact(self.commission, "commission")
        if not 0 <= alpha < 1:
            raise ModelError(f"the commission must lie in [0, 1), got {alpha}")
        object.__setattr__(self, "commission", alpha)
        if not self.payouts:
            object.__setattr__(self, "payouts", default_payouts(self.game, alpha))
        n = self.shoe.size
        least = MIN_CUT_EXTRA if self.extra_coup else MIN_CUT
        if not self.first_coup_only:
            if self.cut < least:
                raise ModelError(
                    f"the cut card must leave at least {least} cards behind it"
                    f"{' with the extra coup' if self.extra_coup else ''} (the coup in progress "
                    f"must be finished), got {self.cut}"
                )
            if self.cut + self.burn.most + 1 > n:
                raise ModelError(f"a shoe of {n} cards cannot hold a burn of up to {self.burn.most} and a cut at {self.cut}")
        elif self.burn.most + 6 > n:
            raise ModelError(f"a shoe of {n} cards cannot hold a burn of up to {self.burn.most} and a coup")

    @classmethod
    def punto(cls, shoe: Shoe, **kw: object) -> SimConfig:
        """Punto banco with the customs: turn-and-burn, cut 14 from the end."""
        kw.setdefault("burn", parse_burn(DEFAULT_BURN["punto"]))
        kw.setdefault("cut", DEFAULT_CUT["punto"])
        return cls("punto", shoe, PUNTO_STRATEGY, **kw)  # type: ignore[arg-type]

    @classmethod
    def chemin(cls, shoe: Shoe, strategy: Strategy = KEMENY_SNELL, **kw: object) -> SimConfig:
        """Chemin de fer: no burn, cut card before the seventh card from the end."""
        kw.setdefault("burn", parse_burn(DEFAULT_BURN["chemin"]))
        kw.setdefault("cut", DEFAULT_CUT["chemin"])
        return cls("chemin", shoe, strategy, **kw)  # type: ignore[arg-type]

    @property
    def max_coups(self) -> int:
        """The most coups one shoe can hold (each takes four cards or more)."""
        return 1 if self.first_coup_only else self.shoe.size // 4 + 1

    def expected_coups_per_shoe(self) -> float:
        """A rough size of a shoe in coups (about 4.94 cards a coup), used only to plan the work."""
        if self.first_coup_only:
            return 1.0
        return max(1.0, (self.shoe.size - self.cut - self.burn.mean) / 4.94 + 0.5 + self.extra_coup)

    def kernel_cards(self) -> tuple[np.ndarray, np.ndarray]:
        """``(codes, value_of)``: one code per physical card (its rank, or its value), and code → value."""
        if self.shoe.ranks is not None:
            counts, value_of = self.shoe.ranks, np.array(RANK_VALUE, dtype=np.int64)
        else:
            counts, value_of = self.shoe.values, np.arange(10, dtype=np.int64)
        codes = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
        return codes, value_of

    def kernel_table(self) -> kernel.Table:
        """What the dealing kernel deals (:class:`solver.simulate.kernel.Table`): the cards, fresh writable
        float draw tables (one compiled signature), the burn's code, the cut, the shoe tallies' lengths."""
        codes, value_of = self.kernel_cards()
        ptab, btab = self.strategy.float_tables()
        comp_len, next_len = kernel.shoe_test_lengths(self.shoe.size) if self.shoe_tallies else (0, 0)
        # One coup a shoe (the cross-check's mode) never reaches the cut card: a shoe smaller than the
        # game's customary cut still deals it (the cut is only kept inside the shoe).
        cut = min(self.cut, self.shoe.size) if self.first_coup_only else self.cut
        return kernel.Table(
            codes,
            value_of,
            self.max_coups,
            ptab,
            btab,
            self.burn.mode.code,
            self.burn.count,
            cut,
            self.extra_coup,
            comp_len,
            next_len,
        )

    def describe(self) -> dict[str, object]:
        """A JSON-ready description of the table."""
        return {
            "game": self.game,
            "shoe": self.shoe.spec(),
            "strategy": self.strategy.name,
            "burn": self.burn.label(),
            "cut": None if self.first_coup_only else self.cut,
            "extra_coup": self.extra_coup,
            "first_coup_only": self.first_coup_only,
            "commission": str(self.commission),
        }
