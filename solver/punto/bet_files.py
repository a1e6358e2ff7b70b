"""User-defined bets: pay tables read from a TOML or JSON file.

A file holds one or more bets, each a name, an optional description and a list of tiers; a tier
pays ``pays`` to 1 (a whole number, a decimal or a fraction such as ``"3/2"``; ``0`` is a push) when
every event in its ``when`` table holds (see :mod:`solver.punto.events` for the events and their
values). Tiers are tried in order; a coup matching none loses the stake. TOML::

    [[bet]]
    name = "tie_on_7"
    description = "Tie on a total of 7, pays 45 to 1"

    [[bet.tier]]
    pays = 45
    when = { winner = "tie", banker_total = 7 }

JSON: ``{"bet": [{"name": "tie_on_7", "tier": [{"pays": 45, "when": {"winner": "tie", "banker_total": 7}}]}]}``.

Decimals are read as written (never through a binary float). Every error names the file and the key
(``bets.toml: bet[1].tier[2].pays: ...``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from solver.errors import BaccaratError, InputError
from solver.exact.numbers import exact, fraction_str
from solver.punto.bet import Bet, Tier
from solver.punto.events import condition_from_mapping
from solver.rules.house import MAX_PAYS

BET_KEYS = ("name", "description", "tier")
TIER_KEYS = ("pays", "when", "label")


def parse_bets(data: object, source: str, reserved: tuple[str, ...] = ()) -> tuple[Bet, ...]:
    """Bets from the parsed contents of a bet file (a table with a list ``bet``).

    Args:
        data: what the TOML or JSON parser returned (decimals as strings).
        source: the file's name, for messages.
        reserved: names already taken (the catalogue's).

    Raises:
        InputError: naming the file and the key at fault.
    """
    if not isinstance(data, Mapping):
        raise InputError(f"{source}: expected a table with a list of bets under 'bet'")
    extra = [k for k in data if k != "bet"]
    if extra:
        raise InputError(f"{source}: {extra[0]}: unknown key (a bet file holds a list 'bet')")
    raw = data.get("bet")
    if not isinstance(raw, list) or not raw:
        raise InputError(f"{source}: bet: expected a list of one or more bets")
    out: list[Bet] = []
    for i, item in enumerate(raw, start=1):
        where = f"{source}: bet[{i}]"
        if not isinstance(item, Mapping):
            raise InputError(f"{where}: expected a table")
        for k in item:
            if k not in BET_KEYS:
                raise InputError(f"{where}.{k}: unknown key (a bet has {', '.join(BET_KEYS)})")
        name = item.get("name")
        if not isinstance(name, str) or not name.strip() or "," in name:
            raise InputError(f"{where}.name: expected a name without commas, got {name!r}")
        name = name.strip()
        if name in reserved or name in {b.name for b in out}:
            raise InputError(f"{where}.name: {name!r} is already taken; choose another name")
        tiers = item.get("tier")
        if not isinstance(tiers, list) or not tiers:
            raise InputError(f"{where}.tier: expected a list of one or more tiers")
        parsed = []
        for j, tier in enumerate(tiers, start=1):
            parsed.append(_tier(tier, f"{where}.tier[{j}]"))
        description = item.get("description", "")
        if not isinstance(description, str):
            raise InputError(f"{where}.description: expected text")
        if not description:
            description = "; ".join(f"{t.label}: {fraction_str(t.pays)} to 1" for t in parsed) + "; otherwise loses"
        try:
            out.append(Bet(name, description, tuple(parsed)))
        except BaccaratError as e:
            raise InputError(f"{where}.tier: {e}") from None
    return tuple(out)


def _tier(tier: object, where: str) -> Tier:
    if not isinstance(tier, Mapping):
        raise InputError(f"{where}: expected a table with pays and when")
    for k in tier:
        if k not in TIER_KEYS:
            raise InputError(f"{where}.{k}: unknown key (a tier has {', '.join(TIER_KEYS)})")
    if "pays" not in tier:
        raise InputError(f"{where}.pays: missing")
    raw = tier["pays"]
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        raise InputError(f'{where}.pays: expected a number such as 45, 1.5 or "3/2", got {raw!r}')
    try:
        pays = exact(raw, f"{where}.pays")
    except BaccaratError as e:
        raise InputError(str(e)) from None
    if pays < 0:
        raise InputError(f"{where}.pays: a payout must be at least 0 (a loss is what no tier matches), got {fraction_str(pays)}")
    if pays > MAX_PAYS:
        given = fraction_str(pays)
        raise InputError(
            f"{where}.pays: a payout is at most {MAX_PAYS:,} to 1, got {given if len(given) <= 40 else given[:37] + '...'}"
        )
    when = condition_from_mapping(tier.get("when", {}), f"{where}.when")
    label = tier.get("label", "")
    if not isinstance(label, str):
        raise InputError(f"{where}.label: expected text")
    return Tier(pays, when, label)


def read_bet_file(path: str | Path, reserved: tuple[str, ...] = ()) -> tuple[Bet, ...]:
    """Read bets from a ``.toml`` or ``.json`` file (by its extension; TOML otherwise).

    Raises:
        InputError: the file cannot be read or parsed, or a bet in it is malformed (naming the key).
    """
    from solver.store.documents import read_document

    p = Path(path)
    # a regular file of bounded size, UTF-8; nesting and whole numbers bounded; decimals kept as text
    data = read_document(p, "json" if p.suffix.lower() == ".json" else "toml")
    return parse_bets(data, str(p), reserved)
