"""What a simulation deals: game, shoe, strategy, burn, cut card, and how bets are settled.

>>> c = SimConfig.punto(Shoe.decks(8))
>>> c.burn, c.cut, c.extra_coup
(Burn(mode='turn', count=0), 14, False)
>>> parse_burn("3"), parse_burn("none")
(Burn(mode='fixed', count=3), Burn(mode='none', count=0))
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
from solver.strategy import KEMENY_SNELL, PUNTO_STRATEGY, Strategy

GAMES = ("punto", "chemin")
DEFAULT_CUT = {"punto": 14, "chemin": 7}
"""Cards behind the cut card: 14 on common punto banco shoes (16 on others), and the seed's chemin de
fer places it before the seventh card from the end (baccara banque: before the tenth)."""

DEFAULT_BURN = {"punto": "turn", "chemin": "none"}
MAX_CARDS = 52 * 1000
"""The largest shoe the simulator deals (1,000 decks): far beyond any table, and small enough that a
number typed by mistake is refused rather than exhausting the memory."""

MIN_CUT = 6  # the coup in progress when the cut card appears may need up to six more cards
MIN_CUT_EXTRA = 12  # ... and one more coup up to six after that

BURN_CODES = {
    "none": kernel.BURN_NONE,
    "fixed": kernel.BURN_FIXED,
    "turn": kernel.BURN_TURN,
    "turn-redeal": kernel.BURN_TURN_REDEAL,
}


@dataclass(frozen=True)
class Burn:
    """The burn at the start of each shoe.

    ``none``; ``fixed`` (``count`` cards); ``turn`` (the punto banco custom: turn the first card and
    burn as many more as it counts, a ten-valued card 10); ``turn-redeal`` is a deliberately *faulty*
    engine kept for testing the cross-check: after the burn the turned card goes back on top of the
    shoe and is dealt as the first card of the first coup (a burn that leaks information).
    """

    mode: str = "none"
    count: int = 0

    def __post_init__(self) -> None:
        if self.mode not in BURN_CODES:
            raise ModelError(f"unknown burn {self.mode!r} (none, a number of cards, or turn)")
        if self.count < 0 or (self.mode != "fixed" and self.count):
            raise ModelError("a burn count goes with a fixed burn only, and must not be negative")

    @property
    def most(self) -> int:
        """The most cards this burn can take."""
        return {"none": 0, "fixed": self.count, "turn": 11, "turn-redeal": 10}[self.mode]

    def label(self) -> str:
        return {
            "none": "no burn",
            "fixed": f"burn {self.count}",
            "turn": "turn the first card and burn that many (a ten burns 10)",
            "turn-redeal": "FAULTY: turned card burned then dealt again",
        }[self.mode]


def parse_burn(text: str) -> Burn:
    """Read ``--burn``: ``none``, a whole number of cards, ``turn`` (or ``turn-redeal``, a faulty engine)."""
    t = text.strip().lower()
    if t in BURN_CODES and t != "fixed":
        return Burn(t)
    try:
        n = int(t) if len(t) <= 9 else -1
    except ValueError:
        raise ModelError(f"--burn takes none, a number of cards, or turn; got {text[:40]!r}") from None
    if n < 0:
        raise ModelError(f"--burn takes none, turn, or a number of cards from 0 up; got {text[:40]!r}")
    return Burn("fixed", n) if n > 0 else Burn("none")


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
        mean_burn = {"none": 0.0, "fixed": float(self.burn.count), "turn": 1 + 85 / 13, "turn-redeal": 85 / 13}
        return max(1.0, (self.shoe.size - self.cut - mean_burn[self.burn.mode]) / 4.94 + 0.5 + self.extra_coup)

    def kernel_cards(self) -> tuple[np.ndarray, np.ndarray]:
        """``(codes, value_of)``: one code per physical card (its rank, or its value), and code → value."""
        if self.shoe.ranks is not None:
            counts, value_of = self.shoe.ranks, np.array(RANK_VALUE, dtype=np.int64)
        else:
            counts, value_of = self.shoe.values, np.arange(10, dtype=np.int64)
        codes = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
        return codes, value_of

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
