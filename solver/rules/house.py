"""House rules as data: a casino's drawing tableau and the other terms of its rule sheet.

Rule sheets differ from house to house. A :class:`HouseRules` holds one sheet: the tableau (the
player's action on each two-card total 0–7, and the banker's on each total 0–7 against the player's
third card 0–9 or his standing; each draw, stand or free, see :class:`~solver.rules.tableau.Tableau`) and,
beside it, the terms that are not drawing rules: the commission the house takes from the banker's
wins, and what the Tie bet pays. A term left out of a sheet is not part of it, and each command
then uses its usual default.

Sheets are read from TOML or JSON (:func:`read_house_rules`); every cell must be given, and an error
names the cell it is about. ``name`` and ``description`` are optional, and so are ``commission`` and
``tie_pays``. Rows may be written as words (``draw``, ``stand``, ``free``) in a table, or as a
string of letters D, S, F (the banker's row: third card 0 to 9, then stood)::

    name = "my-house"
    commission = "1/20"        # the banker's commission (optional)
    tie_pays = 8               # the Tie bet pays 8 to 1 (optional)

    [player]                   # the player's (ponte's) action on his two-card total
    0 = "draw"
    1 = "draw"
    2 = "draw"
    3 = "draw"
    4 = "draw"
    5 = "free"
    6 = "stand"
    7 = "stand"

    [banker]                   # total = "third card 0 1 2 3 4 5 6 7 8 9, stood"
    0 = "DDDDDDDDDDD"
    1 = "DDDDDDDDDDD"
    2 = "DDDDDDDDDDD"
    3 = "DDDDDDDDSFD"
    4 = "SSDDDDDDSSD"
    5 = "SSSSFDDDSSD"
    6 = "SSSSSSDDSSS"
    7 = "SSSSSSSSSSS"

    [banker.5]                 # or, for any total, one cell at a time:
    # 0 = "stand", ..., 9 = "stand", stood = "draw"

Named sheets (:data:`HOUSES`): ``casino`` and ``parlor`` (chemin de fer's usual sheet and the parlor
game), ``punto`` (punto banco's fixed tableau), and ``simplified``, the seed casino's simplified
chemin de fer sheet: the banker with 5 draws against a 5, 6 or 7 or a standing ponte and stands
against everything else (no choice against a 4), keeps the free choice at 3 against a 9; ties pay
even money on the Tie bet; the house takes no commission from the banker.

>>> SIMPLIFIED.tableau.free_banker_cells(), SIMPLIFIED.commission, SIMPLIFIED.tie_pays
(((3, 9),), Fraction(0, 1), Fraction(1, 1))
>>> house_rules("casino").tableau is CHEMIN_CASINO
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from solver.errors import InputError
from solver.exact.numbers import exact, fraction_str
from solver.rules.tableau import CHEMIN_CASINO, CHEMIN_PARLOR, PUNTO_BANCO, SEEN_LABELS, Action, Tableau

MAX_HOUSE_FILE = 1 << 20
"""The largest house-rules file read, in bytes."""

MAX_PAYS = 10**6
"""The most a pay table read from a file may pay, to 1: a sheet's Tie bet (houses pay 8 or 9), a tier
of a bet file (:mod:`solver.punto.bet_files`; side bets pay up to a few hundred). A bound keeps the
simulator's float statistics of a bet finite (a huge Tie overflowed them)."""

_WORDS = {"draw": Action.DRAW, "d": Action.DRAW, "stand": Action.STAND, "s": Action.STAND, "free": Action.FREE, "f": Action.FREE}
_SEEN_NAMES = {**{str(c): c for c in range(10)}, "stood": 10, "s": 10}


@dataclass(frozen=True)
class HouseRules:
    """One house's rule sheet.

    Attributes:
        name: what the sheet is called (also the game's freedom name in reports).
        tableau: the drawing rules.
        commission: the house's share of the banker's wins, or None (not part of the sheet).
        tie_pays: what the Tie bet pays to 1, or None (not part of the sheet).
        description: a sentence for reports.
    """

    name: str
    tableau: Tableau
    commission: Fraction | None = None
    tie_pays: Fraction | None = None
    description: str = ""

    def text(self) -> str:
        """The sheet as rule sheets print it: the player's row, the banker's table (totals down, the
        player's third card across, S: he stood), then the other terms.

        >>> print(SIMPLIFIED.text().splitlines()[8])
          5   S S S S S D D D S S D
        """
        t = self.tableau
        lines = [
            f"house rules: {self.name}" + (f" ({self.description})" if self.description else ""),
            "player: " + " ".join(f"{k}:{a.value}" for k, a in enumerate(t.player)),
            "banker  " + " ".join(SEEN_LABELS),
        ]
        lines += [f"  {k}   " + " ".join(a.value for a in row) for k, row in enumerate(t.banker)]
        if self.commission is not None:
            lines.append(f"commission on banker wins: {fraction_str(self.commission)}")
        if self.tie_pays is not None:
            lines.append(f"tie bet pays: {fraction_str(self.tie_pays)} to 1")
        return "\n".join(lines)

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: the same structure :func:`parse_house_rules` reads (rows as letters)."""
        out: dict[str, object] = {"name": self.name}
        if self.description:
            out["description"] = self.description
        if self.commission is not None:
            out["commission"] = fraction_str(self.commission)
        if self.tie_pays is not None:
            out["tie_pays"] = fraction_str(self.tie_pays)
        out["player"] = {str(t): a.name.lower() for t, a in enumerate(self.tableau.player)}
        out["banker"] = {str(t): "".join(a.value for a in row) for t, row in enumerate(self.tableau.banker)}
        return out


def _row(spec: str) -> tuple[Action, ...]:
    return tuple(Action(ch) for ch in spec)


SIMPLIFIED = HouseRules(
    "simplified",
    Tableau(
        "simplified",
        player=_row("DDDDDFSS"),
        banker=(
            _row("DDDDDDDDDDD"),  # 0
            _row("DDDDDDDDDDD"),  # 1
            _row("DDDDDDDDDDD"),  # 2
            _row("DDDDDDDDSFD"),  # 3: free against a 9
            _row("SSDDDDDDSSD"),  # 4
            _row("SSSSSDDDSSD"),  # 5: draws against 5, 6, 7 or a standing ponte; stands against a 4
            _row("SSSSSSDDSSS"),  # 6
            _row("SSSSSSSSSSS"),  # 7
        ),
    ),
    commission=Fraction(0),
    tie_pays=Fraction(1),
    description="banker 5 stands against a 4, banker free only at 3 against a 9; ties pay even money; no commission",
)
"""The seed casino's simplified chemin de fer sheet."""

HOUSES: dict[str, HouseRules] = {
    "casino": HouseRules("casino", CHEMIN_CASINO, description="chemin de fer's usual rule sheet"),
    "parlor": HouseRules("parlor", CHEMIN_PARLOR, description="the parlor game: every banker decision free"),
    "punto": HouseRules("punto", PUNTO_BANCO, description="punto banco's fixed tableau"),
    "simplified": SIMPLIFIED,
}
"""The named sheets ``--tableau NAME`` accepts."""


def house_rules(spec: str) -> HouseRules:
    """A named sheet (:data:`HOUSES`) or one read from a ``.toml`` / ``.json`` file.

    Raises:
        InputError: neither a known name nor a readable, valid file.
    """
    if spec in HOUSES:
        return HOUSES[spec]
    path = Path(spec)
    if path.suffix.lower() not in (".toml", ".json"):
        raise InputError(f"--tableau: {spec!r} is neither a named sheet ({', '.join(HOUSES)}) nor a .toml or .json file")
    return read_house_rules(path)


def read_house_rules(path: str | Path) -> HouseRules:
    """Read and validate a house-rules file (TOML or JSON, by its suffix).

    Raises:
        InputError: unreadable, too large, not TOML/JSON, or not a valid sheet (the message names the cell).
    """
    from solver.store.files import read_text

    p = Path(path)
    text = read_text(p, limit=MAX_HOUSE_FILE)  # a regular file, UTF-8, a byte-order mark dropped; anything else one line
    return parse_house_rules(text, "toml" if p.suffix.lower() == ".toml" else "json", str(p), default_name=p.stem)


def parse_house_rules(text: str, fmt: str, source: str = "house rules", default_name: str = "house") -> HouseRules:
    """Parse and validate a sheet given as TOML or JSON text.

    >>> import json
    >>> h = parse_house_rules(json.dumps(HOUSES["casino"].as_dict() | {"name": "copy"}), "json")
    >>> h.tableau.banker == CHEMIN_CASINO.banker, h.name
    (True, 'copy')
    >>> parse_house_rules('[player]\\n0 = "draw"', "toml")
    Traceback (most recent call last):
    ...
    solver.errors.InputError: house rules: player total 1: missing (give draw, stand or free)
    """
    from solver.store.documents import parse_document

    data = parse_document(text, fmt, source, parse_float=float)  # a float is refused as not exact where a number is read
    if not isinstance(data, dict):
        raise InputError(f"{source}: expected a table of rules at the top level")
    known = {"name", "description", "commission", "tie_pays", "player", "banker"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InputError(f"{source}: unknown key {unknown[0]!r} (the keys are {', '.join(sorted(known))})")
    name = data.get("name", default_name)
    if not isinstance(name, str) or not name.strip() or len(name) > 40:
        raise InputError(f"{source}: name must be a short string")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise InputError(f"{source}: description must be a string")
    player = _player(data.get("player"), source)
    banker = tuple(_banker_row(data.get("banker"), t, source) for t in range(8))
    commission = _number(data, "commission", source)
    if commission is not None and not 0 <= commission < 1:
        raise InputError(f"{source}: commission must lie in [0, 1), got {fraction_str(commission)}")
    tie_pays = _number(data, "tie_pays", source)
    if tie_pays is not None and (tie_pays <= 0 or tie_pays.denominator != 1 or tie_pays > MAX_PAYS):
        raise InputError(
            f"{source}: tie_pays must be a whole number of units to 1, at most {MAX_PAYS:,}, got {fraction_str(tie_pays)}"
        )
    return HouseRules(name.strip(), Tableau(name.strip(), player, banker), commission, tie_pays, description)


def _number(data: dict[str, object], key: str, source: str) -> Fraction | None:
    if key not in data:
        return None
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(f'{source}: {key} must be an exact number such as 0, "1/20" or "0.05" (floats are not exact)')
    return exact(value, f"{source}: {key}")


def _action(value: object, where: str) -> Action:
    if isinstance(value, str) and value.strip().lower() in _WORDS:
        return _WORDS[value.strip().lower()]
    raise InputError(f"{where}: unknown action {value!r} (give draw, stand or free)")


def _player(spec: object, source: str) -> tuple[Action, ...]:
    if spec is None:
        raise InputError(f"{source}: the player's rules ([player], totals 0 to 7) are missing")
    if isinstance(spec, str):
        letters = spec.replace(" ", "")
        if len(letters) != 8:
            raise InputError(f"{source}: player: a row of letters needs 8 actions (totals 0 to 7), got {len(letters)}")
        return tuple(_action(ch, f"{source}: player total {t}") for t, ch in enumerate(letters))
    if not isinstance(spec, dict):
        raise InputError(f"{source}: player: expected a table of totals 0 to 7, or a row of 8 letters")
    extra = sorted(k for k in spec if k not in {str(t) for t in range(8)})
    if extra:
        raise InputError(f"{source}: player total {extra[0]!r}: a player acts on a two-card total 0 to 7")
    out = []
    for t in range(8):
        if str(t) not in spec:
            raise InputError(f"{source}: player total {t}: missing (give draw, stand or free)")
        out.append(_action(spec[str(t)], f"{source}: player total {t}"))
    return tuple(out)


def _banker_row(spec: object, total: int, source: str) -> tuple[Action, ...]:
    if spec is None:
        raise InputError(f"{source}: the banker's rules ([banker], totals 0 to 7) are missing")
    if not isinstance(spec, dict):
        raise InputError(f"{source}: banker: expected a table of totals 0 to 7")
    if total == 0:
        extra = sorted(k for k in spec if k not in {str(t) for t in range(8)})
        if extra:
            raise InputError(f"{source}: banker total {extra[0]!r}: the banker acts on a two-card total 0 to 7")
    if str(total) not in spec:
        raise InputError(f"{source}: banker total {total}: missing")
    row = spec[str(total)]
    where = f"{source}: banker total {total}"
    if isinstance(row, str):
        letters = row.replace(" ", "")
        if len(letters) != 11:
            raise InputError(f"{where}: a row of letters needs 11 actions (third card 0 to 9, then stood), got {len(letters)}")
        return tuple(_action(ch, f"{where}, {_seen_words(s)}") for s, ch in enumerate(letters))
    if not isinstance(row, dict):
        raise InputError(f"{where}: expected a row of 11 letters or a table of third cards 0 to 9 and 'stood'")
    cells: dict[int, Action] = {}
    for key, value in row.items():
        seen = _SEEN_NAMES.get(str(key).strip().lower())
        if seen is None:
            raise InputError(f"{where}: unknown column {key!r} (third card 0 to 9, or stood)")
        cells[seen] = _action(value, f"{where}, {_seen_words(seen)}")
    for s in range(11):
        if s not in cells:
            raise InputError(f"{where}, {_seen_words(s)}: missing (give draw, stand or free)")
    return tuple(cells[s] for s in range(11))


def _seen_words(seen: int) -> str:
    return "the player stood" if SEEN_LABELS[seen] == "S" else f"the player's third card {seen}"
