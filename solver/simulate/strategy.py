"""Strategies as draw-probability tables indexed by the actual cards, and the table's customs.

A strategy for the dealing kernel is two arrays of probabilities to draw a third card:

* ``player[p1, p2]`` (10 × 10): the player (ponte) holding two cards of values ``p1, p2``; used
  only when neither side has a natural;
* ``banker[b1, b2, seen]`` (10 × 10 × 11): the banker holding ``b1, b2`` having seen the player's
  third card ``seen`` (0–9) or that he stood (``seen = 10``).

Indexing by the cards covers every information model (a strategy on totals only is a table constant
on each total) and every fixed tableau (cells 0 or 1). A mixed strategy is a table with entries
strictly between 0 and 1; the kernel draws a uniform at such a cell, from the run's seeded generator.

>>> p, b = tables_from_tableau(PUNTO_BANCO)
>>> [int(x) for x in (p[2, 3], p[3, 3], b[1, 2, 8], b[1, 2, 9])]
[1, 0, 0, 1]
>>> s = tableau_strategy(CHEMIN_CASINO, {5: Fraction(9, 11)}, {(3, 9): Action.DRAW, (5, 4): Action.STAND})
>>> s.mixed_cells()
(('P5', Fraction(9, 11)),)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from solver.errors import ModelError
from solver.rules import CHEMIN_CASINO, PUNTO_BANCO, SEEN_LABELS, STOOD, Action, Tableau

Prob = Fraction | int | str | Action

_SEEN_BY_LABEL = {label: s for s, label in enumerate(SEEN_LABELS)}


def _exact_prob(x: Prob, where: str) -> Fraction:
    if isinstance(x, Action):
        if x is Action.FREE:
            raise ModelError(f"{where}: a strategy must say draw, stand or a probability, not FREE")
        return Fraction(1 if x is Action.DRAW else 0)
    if isinstance(x, float):
        raise TypeError(f"{where}: floats are not exact; pass a Fraction, an int or a string such as '9/11'")
    if isinstance(x, str):
        t = x.strip().upper()
        if t in ("D", "DRAW"):
            return Fraction(1)
        if t in ("S", "STAND"):
            return Fraction(0)
        try:
            value = Fraction(t)
        except (ValueError, ZeroDivisionError):
            raise ModelError(f"{where}: expected D, S or a probability such as 9/11, got {x!r}") from None
    else:
        value = Fraction(x)
    if not 0 <= value <= 1:
        raise ModelError(f"{where}: a probability must lie in [0, 1], got {value}")
    return value


def _cell_value(a: Action, given: Fraction | None, where: str) -> Fraction:
    if given is not None:
        return given
    if a is Action.FREE:
        raise ModelError(f"{where} is free in this tableau: say how to play it (draw, stand or a probability)")
    return Fraction(1 if a is Action.DRAW else 0)


@dataclass(frozen=True, eq=False)
class Strategy:
    """Draw probabilities indexed by cards, for the kernel, with their exact provenance.

    Attributes:
        name: a short description.
        player: ``(10, 10)`` floats, the player's (ponte's) probability to draw on ``p1, p2``.
        banker: ``(10, 10, 11)`` floats, the banker's probability to draw on ``b1, b2, seen``.
        tableau: when the strategy depends only on totals, the tableau it plays, with the cells it
            mixes marked FREE; ``None`` for a strategy on card compositions.
        player_mix, banker_mix: the exact probabilities at the tableau's FREE cells.
        exact_player, exact_banker: the tables as Fractions (object arrays) when known exactly.
    """

    name: str
    player: np.ndarray
    banker: np.ndarray
    tableau: Tableau | None = None
    player_mix: tuple[tuple[int, Fraction], ...] = ()
    banker_mix: tuple[tuple[tuple[int, int], Fraction], ...] = ()
    exact_player: np.ndarray | None = None
    exact_banker: np.ndarray | None = None

    def __post_init__(self) -> None:
        p = np.ascontiguousarray(self.player, dtype=np.float64)
        b = np.ascontiguousarray(self.banker, dtype=np.float64)
        if p.shape != (10, 10) or b.shape != (10, 10, 11):
            raise ModelError(f"draw tables must be 10x10 and 10x10x11, got {p.shape} and {b.shape}")
        if not (np.all((p >= 0) & (p <= 1)) and np.all((b >= 0) & (b <= 1))):
            raise ModelError("draw probabilities must lie in [0, 1]")
        p.setflags(write=False)
        b.setflags(write=False)
        object.__setattr__(self, "player", p)
        object.__setattr__(self, "banker", b)

    def mixed_cells(self) -> tuple[tuple[str, Fraction], ...]:
        """The tableau cells played with a probability strictly between 0 and 1, as ``(label, p)``."""
        out = [(f"P{t}", q) for t, q in self.player_mix if 0 < q < 1]
        out += [(f"B{t}/{SEEN_LABELS[s]}", r) for (t, s), r in self.banker_mix if 0 < r < 1]
        return tuple(out)

    def is_mixed(self) -> bool:
        """Whether the kernel ever draws a uniform to decide (some probability strictly in (0, 1))."""
        return bool(np.any((self.player > 0) & (self.player < 1)) or np.any((self.banker > 0) & (self.banker < 1)))

    def pure_tableau(self) -> Tableau | None:
        """The fixed tableau this strategy plays, when it is a pure strategy on totals."""
        if self.tableau is None or self.mixed_cells():
            return None
        return self.tableau

    def __repr__(self) -> str:
        return f"Strategy({self.name!r})"


def tables_from_tableau(
    tab: Tableau,
    player: Mapping[int, Prob] | None = None,
    banker: Mapping[tuple[int, int], Prob] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's draw tables for a tableau: fixed cells 0 or 1, free cells from the given values.

    Args:
        tab: the tableau.
        player: probabilities for player totals (needed for every FREE player cell).
        banker: probabilities for banker cells ``(total, seen)`` (needed for every FREE banker cell).

    Returns:
        ``(player, banker)``: float arrays of shapes (10, 10) and (10, 10, 11).

    Raises:
        ModelError: a FREE cell without a value, or a value outside [0, 1].
    """
    s = tableau_strategy(tab, player or {}, banker or {})
    return s.player.copy(), s.banker.copy()


def tableau_strategy(
    tab: Tableau,
    player: Mapping[int, Prob] | None = None,
    banker: Mapping[tuple[int, int], Prob] | None = None,
    name: str | None = None,
) -> Strategy:
    """A strategy on totals: a tableau with its FREE cells (or any cells) played as given.

    Cells given a probability strictly between 0 and 1 stay FREE in the strategy's tableau and are
    listed in its mixes; cells given 0 or 1 become STAND or DRAW.
    """
    player = dict(player or {})
    banker = dict(banker or {})
    for t in player:
        if not (isinstance(t, int) and 0 <= t <= 7):
            raise ModelError(f"player totals run from 0 to 7, got {t!r}")
    for cell in banker:
        if not (isinstance(cell, tuple) and len(cell) == 2 and 0 <= cell[0] <= 7 and 0 <= cell[1] <= STOOD):
            raise ModelError(f"banker cells are (total 0-7, seen 0-9 or 10 for stood), got {cell!r}")
    p_exact = {t: _cell_value(tab.player[t], _exact_prob(player[t], f"player {t}") if t in player else None,
                              f"player total {t}") for t in range(8)}
    b_exact = {
        (t, s): _cell_value(tab.banker[t][s], _exact_prob(banker[(t, s)], f"banker {t}/{SEEN_LABELS[s]}")
                            if (t, s) in banker else None, f"banker cell {t}/{SEEN_LABELS[s]}")
        for t in range(8) for s in range(11)
    }
    ex_p = np.full((10, 10), Fraction(0), dtype=object)
    ex_b = np.full((10, 10, 11), Fraction(0), dtype=object)
    for a in range(10):
        for b in range(10):
            if (a + b) % 10 < 8:
                ex_p[a, b] = p_exact[(a + b) % 10]
                for s in range(11):
                    ex_b[a, b, s] = b_exact[((a + b) % 10, s)]

    def act(q: Fraction) -> Action:
        return Action.DRAW if q == 1 else Action.STAND if q == 0 else Action.FREE

    resolved = Tableau(
        tab.name,
        tuple(act(p_exact[t]) for t in range(8)),
        tuple(tuple(act(b_exact[(t, s)]) for s in range(11)) for t in range(8)),
    )
    p_mix = tuple((t, q) for t, q in sorted(p_exact.items()) if 0 < q < 1)
    b_mix = tuple((c, r) for c, r in sorted(b_exact.items()) if 0 < r < 1)
    if name is None:
        extras = [f"P{t}={q}" for t, q in p_mix] + [f"B{t}/{SEEN_LABELS[s]}={r}" for (t, s), r in b_mix]
        extras += [f"P{t}={'D' if p_exact[t] else 'S'}" for t in player if not 0 < p_exact[t] < 1]
        extras += [f"B{c[0]}/{SEEN_LABELS[c[1]]}={'D' if b_exact[c] else 'S'}" for c in banker if not 0 < b_exact[c] < 1]
        name = tab.name + (" " + ",".join(extras) if extras else "")
    return Strategy(
        name=name,
        player=ex_p.astype(np.float64),
        banker=ex_b.astype(np.float64),
        tableau=resolved,
        player_mix=p_mix,
        banker_mix=b_mix,
        exact_player=ex_p,
        exact_banker=ex_b,
    )


def card_strategy(player: np.ndarray, banker: np.ndarray, name: str = "draw tables") -> Strategy:
    """A strategy from draw tables indexed by cards (e.g. a chemin de fer solution's ``draw_tables()``).

    Object arrays of Fractions are kept as the exact strategy; float arrays are used as given.
    """
    p = np.asarray(player)
    b = np.asarray(banker)
    exact = p.dtype == object and b.dtype == object
    return Strategy(
        name=name,
        player=p.astype(np.float64),
        banker=b.astype(np.float64),
        exact_player=p if exact else None,
        exact_banker=b if exact else None,
    )


def parse_cell(text: str) -> tuple[str, int | tuple[int, int], Fraction]:
    """Read one ``--draw`` assignment: ``P5=9/11``, ``B3/9=D``, ``B6/S=0``.

    Returns ``("P", total, p)`` or ``("B", (total, seen), p)``.

    >>> parse_cell("P5=9/11"), parse_cell("b3/9=d"), parse_cell("B6/S=0")
    (('P', 5, Fraction(9, 11)), ('B', (3, 9), Fraction(1, 1)), ('B', (6, 10), Fraction(0, 1)))
    """
    cell, sep, value = text.partition("=")
    cell = cell.strip().upper()
    if not sep or not cell or cell[0] not in "PB":
        raise ModelError(f"a cell is written P<total>=<p> or B<total>/<seen>=<p> (e.g. P5=9/11, B3/9=D), got {text!r}")
    try:
        if cell[0] == "P":
            total = int(cell[1:])
            if not 0 <= total <= 7:
                raise ValueError
            return "P", total, _exact_prob(value, f"cell {cell}")
        t, _, s = cell[1:].partition("/")
        total = int(t)
        if not 0 <= total <= 7 or s not in _SEEN_BY_LABEL:
            raise ValueError
        return "B", (total, _SEEN_BY_LABEL[s]), _exact_prob(value, f"cell {cell}")
    except ValueError:
        raise ModelError(f"cannot read the cell {text!r}: totals run 0-7, the banker's column 0-9 or S (stood)") from None


def strategy_from_cells(tab: Tableau, cells: list[str], name: str | None = None) -> Strategy:
    """A :func:`tableau_strategy` from ``--draw`` assignments such as ``["P5=9/11", "B3/9=D"]``."""
    player: dict[int, Prob] = {}
    banker: dict[tuple[int, int], Prob] = {}
    for text in cells:
        side, where, p = parse_cell(text)
        if side == "P":
            player[where] = p  # type: ignore[index]
        else:
            banker[where] = p  # type: ignore[index]
    return tableau_strategy(tab, player, banker, name)


PUNTO_STRATEGY = tableau_strategy(PUNTO_BANCO, name="punto banco tableau")
"""Punto banco's fixed tableau as draw tables."""

KEMENY_SNELL = tableau_strategy(
    CHEMIN_CASINO, {5: Fraction(9, 11)}, {(3, 9): Action.DRAW, (5, 4): Action.STAND},
    name="casino tableau; ponte draws at 5 with probability 9/11 (Kemeny-Snell); banker draws at 3/9, stands at 5/4",
)
"""Chemin de fer on the casino tableau with the ponte's Kemeny–Snell mixture at 5.

A simple mixed strategy on totals (the solver's own certified strategies are dealt through
``solver.equilibrium.draw_tables`` and :func:`card_strategy`, ``--strategy solved``); its exact law is
the mixture of two enumerator laws, so the cross-check can hold it exactly.
"""
