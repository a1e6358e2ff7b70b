"""Drawing rules (tableaux) as data.

A coup is dealt Player (ponte), Banker, Player, Banker. A two-card total of 8 or 9 on either side is
a *natural* and ends the coup. Otherwise the player acts on his two-card total, then the banker acts
on his own total and on what he saw: the player's third card (0–9) or that the player stood.

A :class:`Tableau` holds one :class:`Action` for each player total 0–7 and one for each banker cell
(banker total 0–7) × (player's third card 0–9, or :data:`STOOD`). ``FREE`` marks a real decision,
which the game modules turn into a strategy variable; the deal enumerator follows both branches.

>>> PUNTO_BANCO.banker_action(3, 8), PUNTO_BANCO.banker_action(6, STOOD)
(<Action.STAND: 'S'>, <Action.STAND: 'S'>)
>>> CHEMIN_CASINO.free_banker_cells()
((3, 9), (5, 4))
>>> len(CHEMIN_PARLOR.free_banker_cells())
88
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from solver.errors import ModelError

STOOD = 10

STANDARD_COMMISSION = Fraction(1, 20)
"""The house's 5 %: on punto banco's Banker bet, and on the chemin de fer banker's wins."""
"""Column index of the banker's tableau used when the player stood (did not draw)."""

OUTCOMES: dict[str, tuple[str, str, str]] = {"punto": ("banker", "player", "tie"), "chemin": ("banker", "ponte", "tie")}
"""The three results of a coup, as each game names them (punto banco's player is chemin de fer's ponte)."""


def outcome_names(game: str) -> tuple[str, str, str]:
    """``("banker", "player", "tie")`` for punto banco, ``("banker", "ponte", "tie")`` for chemin de fer."""
    try:
        return OUTCOMES[game]
    except KeyError:
        raise ModelError(f"unknown game {game!r} (punto or chemin)") from None


SEEN_LABELS: tuple[str, ...] = tuple(str(c) for c in range(10)) + ("S",)
"""How the eleven columns of a banker tableau are written: third card 0–9, or ``S`` (stood)."""


class Action(Enum):
    """A tableau cell: draw, stand, or a free choice left to the side that acts."""

    DRAW = "D"
    STAND = "S"
    FREE = "F"


def _row(spec: str) -> tuple[Action, ...]:
    return tuple(Action(ch) for ch in spec)


@dataclass(frozen=True)
class Tableau:
    """Drawing rules as a table.

    Attributes:
        name: short identifier (``punto``, ``casino``, ``parlor``).
        player: eight actions, for player two-card totals 0–7.
        banker: eight rows (banker totals 0–7) of eleven actions (third card 0–9, then stood).
    """

    name: str
    player: tuple[Action, ...]
    banker: tuple[tuple[Action, ...], ...]

    def __post_init__(self) -> None:
        if len(self.player) != 8 or len(self.banker) != 8 or any(len(r) != 11 for r in self.banker):
            raise ModelError("a tableau has 8 player cells and 8 x 11 banker cells")

    def player_action(self, total: int) -> Action:
        """The player's action on a two-card total 0–7."""
        return self.player[total]

    def banker_action(self, total: int, seen: int) -> Action:
        """The banker's action on a two-card total 0–7 having seen ``seen`` (0–9 or :data:`STOOD`)."""
        return self.banker[total][seen]

    def free_player_totals(self) -> tuple[int, ...]:
        """Player totals at which the player chooses."""
        return tuple(t for t in range(8) if self.player[t] is Action.FREE)

    def free_banker_cells(self) -> tuple[tuple[int, int], ...]:
        """Banker cells (total, seen) at which the banker chooses."""
        return tuple((t, s) for t in range(8) for s in range(11) if self.banker[t][s] is Action.FREE)

    def with_banker(self, cells: dict[tuple[int, int], Action]) -> Tableau:
        """A copy with some banker cells replaced."""
        rows = [list(r) for r in self.banker]
        for (t, s), a in cells.items():
            rows[t][s] = a
        return Tableau(self.name, self.player, tuple(tuple(r) for r in rows))

    def with_player(self, cells: dict[int, Action]) -> Tableau:
        """A copy with some player cells replaced."""
        row = list(self.player)
        for t, a in cells.items():
            row[t] = a
        return Tableau(self.name, tuple(row), self.banker)


#                       seen: 0123456789S
PUNTO_BANCO = Tableau(
    "punto",
    player=_row("DDDDDDSS"),
    banker=(
        _row("DDDDDDDDDDD"),  # 0
        _row("DDDDDDDDDDD"),  # 1
        _row("DDDDDDDDDDD"),  # 2
        _row("DDDDDDDDSDD"),  # 3: stands only against an 8
        _row("SSDDDDDDSSD"),  # 4: draws against 2-7
        _row("SSSSDDDDSSD"),  # 5: draws against 4-7
        _row("SSSSSSDDSSS"),  # 6: draws against 6-7
        _row("SSSSSSSSSSS"),  # 7
    ),
)
"""Punto banco's fixed tableau (the rules printed on every punto banco table)."""

CHEMIN_CASINO = Tableau(
    "casino",
    player=_row("DDDDDFSS"),
    banker=(
        _row("DDDDDDDDDDD"),  # 0
        _row("DDDDDDDDDDD"),  # 1
        _row("DDDDDDDDDDD"),  # 2
        _row("DDDDDDDDSFD"),  # 3: stands against 8, free against 9
        _row("SSDDDDDDSSD"),  # 4: draws against 2-7
        _row("SSSSFDDDSSD"),  # 5: free against 4, draws against 5-7
        _row("SSSSSSDDSSS"),  # 6: draws against 6-7
        _row("SSSSSSSSSSS"),  # 7
    ),
)
"""The chemin de fer tableau of the casinos' rule sheets: ponte free at 5, banker free at 3/9 and 5/4."""

CHEMIN_PARLOR = Tableau(
    "parlor",
    player=_row("DDDDDFSS"),
    banker=tuple(_row("F" * 11) for _ in range(8)),
)
"""Chemin de fer as a parlor game: ponte free at 5, every banker decision free."""

TABLEAUX: dict[str, Tableau] = {t.name: t for t in (PUNTO_BANCO, CHEMIN_CASINO, CHEMIN_PARLOR)}


def fixed_tableau(tab: Tableau) -> Tableau:
    """``tab``, checked to leave no decision free (outcome laws need a fixed tableau).

    Raises:
        ModelError: the tableau leaves decisions free (use the game modules for those).
    """
    if tab.free_player_totals() or tab.free_banker_cells():
        cell = (
            f"player total {tab.free_player_totals()[0]}"
            if tab.free_player_totals()
            else "banker total {} against {}".format(*tab.free_banker_cells()[0])
        )
        raise ModelError(f"tableau {tab.name!r} leaves {cell} free; this needs a tableau with every cell fixed")
    return tab
