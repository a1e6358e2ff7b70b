"""How the players play the money: one :class:`Policy` per seat, with documented defaults, or read from a file.

A policy is data, not code: every decision the rules leave to a player is one field, and the engine
(:mod:`solver.sessions.chemin`, :mod:`solver.sessions.banque`) reads it. Amounts are exact: whole numbers,
decimals read from their digits (``12.5`` is 25/2, never a binary float) or strings such as ``"15/2"``.

=================== ========================================================== ===========================
field               meaning                                                    default
=================== ========================================================== ===========================
``bankroll``        the money the seat sits down with                          100 minimum bancos
``stake``           the ordinary stake on each coup (0: no stake)              see below
``banco``           the banco he calls: ``none``; chemin de fer ``solo``,      ``none``
                    ``a_deux``, ``avec`` (avec la table), ``marche`` (et la
                    table marche); baccara banque ``solo`` (on his tableau) or
                    ``cheval`` (half on each tableau)
``banco_up_to``     call it only when the bank is at most this                 any bank he can cover
``suivi``           call banco again after losing a banco (priority)           true
``take_bank``       take the bank when it comes to him                         true
``bank``            the bank he puts up                                        the minimum banco
``garage``          when the stakes do not reach the bank, withdraw the        true
                    excess into the garage (the reduced sum is the bank); false:
                    it waits aside in the bank
``pass_after``      pass the bank (la main passe) after this many wins in a    3
                    row; 0 never
``take_suite_up_to`` take a bank offered in a suite when it is at most this    never
``bid``             his bid when a bank is auctioned                           no bid
``double_up_to``    banco double: double a new bank when it is at most this    never
``raise_bank``      raise the bank to cover every stake (chemin de fer)        false
``rebank``          put up the original sum again when busted (banque limitée, true
                    where the house allows it: ``TableConfig.rebank``)
=================== ========================================================== ===========================

Why these defaults: a ponte stakes a small multiple of the minimum stake and calls no banco (most of
a table's players): the least multiple with which the pontes together reach the minimum banco even
when two seats hold the bank (the rule sheet ends the game when they do not: "Erreichen die addierten
Einsätze aller Pointeure nicht das Minimumbanco, so endet die Partie"), 20 at a table of ten seats with
a minimum banco of 100 and a minimum stake of 10; a banker protects his winnings (garage) and passes
the hand after three wins, the commonest custom; no one buys a suite, bids or doubles unless told to.

A policy file is JSON: fields at the top level apply to every seat, ``"seats"`` overrides them seat
by seat, and ``"name"`` names the file's policies in the summary::

    {"name": "two banco players", "stake": 20,
     "seats": {"3": {"banco": "solo", "banco_up_to": 800}, "7": {"banco": "avec", "suivi": false}}}

An unknown field, a negative or too small amount, a banco call the game does not have (none at all
at banque ouverte: "Bei Banque ouverte gibt es natürlich keine Banco-Ansage"), or a seat the table
does not have is an :class:`~solver.errors.InputError` naming it.

>>> from solver.sessions.config import TableConfig
>>> ps = Policies.from_mapping({"stake": 30, "seats": {"3": {"banco": "solo"}}}, TableConfig("chemin"))
>>> ps[3].banco, ps[3].stake, ps[4].banco, ps[4].bankroll
(<CallKind.SOLO: 'solo'>, 30, None, 10000)
>>> Policy.default(TableConfig("chemin")).stake, Policy.default(TableConfig("chemin", seats=12)).stake
(20, 10)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from pathlib import Path

from solver.errors import InputError
from solver.exact.numbers import fraction_str
from solver.sessions.config import TableConfig
from solver.sessions.money import parse_amount, whole
from solver.sessions.words import BanqueKind, CallKind, Game
from solver.store.documents import read_document

NO_BANCO = "none"
"""How a policy file says a seat calls no banco (``Policy.banco`` is then ``None``)."""
CHEMIN_CALLS = (NO_BANCO, CallKind.SOLO.value, CallKind.A_DEUX.value, CallKind.AVEC.value, CallKind.MARCHE.value)
BANQUE_CALLS = (NO_BANCO, CallKind.SOLO.value, CallKind.CHEVAL.value)
"""The banco calls a policy may make at each game (banque ouverte: none)."""
DEFAULT_BANKROLL_BANCOS = 100
MAX_PASS_AFTER = 10**6

_AMOUNTS = ("bankroll", "stake", "banco_up_to", "bank", "take_suite_up_to", "bid", "double_up_to")
_FLAGS = ("suivi", "take_bank", "garage", "raise_bank", "rebank")


@dataclass(frozen=True)
class Policy:
    """One seat's way of playing the money (see the module's table for each field and its default).

    ``None`` in ``banco`` means no banco; in ``banco_up_to`` any bank he can cover; in
    ``take_suite_up_to``, ``bid`` and ``double_up_to`` never.
    """

    bankroll: Fraction
    stake: Fraction
    banco: CallKind | None = None
    banco_up_to: Fraction | None = None
    suivi: bool = True
    take_bank: bool = True
    bank: Fraction = Fraction(100)
    garage: bool = True
    pass_after: int = 3
    take_suite_up_to: Fraction | None = None
    bid: Fraction | None = None
    double_up_to: Fraction | None = None
    raise_bank: bool = False
    rebank: bool = True

    @classmethod
    def default(cls, table: TableConfig) -> Policy:
        """The documented defaults for ``table``."""
        return cls(
            bankroll=whole(DEFAULT_BANKROLL_BANCOS * table.minimum_banco),
            stake=default_stake(table),
            bank=whole(table.minimum_banco),
        )

    def updated(self, changes: Mapping[str, object], table: TableConfig, where: str) -> Policy:
        """This policy with ``changes`` (field → value as written in a file) applied and checked.

        Raises:
            InputError: an unknown field or a value the table does not allow, naming ``where``.
        """
        known = {f.name for f in fields(self)}
        values: dict[str, object] = {}
        for key, raw in changes.items():
            if key not in known:
                raise InputError(f"{where}: unknown policy field {key!r} (known: {', '.join(sorted(known))})")
            if key in _AMOUNTS:
                values[key] = (
                    None if raw is None and key not in ("bankroll", "stake", "bank") else parse_amount(raw, f"{where}: {key}")
                )
            elif key in _FLAGS:
                if not isinstance(raw, bool):
                    raise InputError(f"{where}: {key} is true or false, got {raw!r}")
                values[key] = raw
            elif key == "pass_after":
                if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= MAX_PASS_AFTER:
                    raise InputError(f"{where}: pass_after is a whole number of wins (0 never passes), got {raw!r}")
                values[key] = raw
            else:  # banco
                calls = CHEMIN_CALLS if table.game is Game.CHEMIN else BANQUE_CALLS
                if raw not in calls:
                    raise InputError(f"{where}: banco is one of {', '.join(calls)} at {table.game}, got {raw!r}")
                values[key] = None if raw == NO_BANCO else CallKind(str(raw))
        out = replace(self, **values)  # type: ignore[arg-type]
        out.check(table, where)
        return out

    def check(self, table: TableConfig, where: str) -> None:
        """Raise :class:`InputError` if this policy breaks the table's limits."""
        floor = table.stake_floor
        if self.banco is not None and table.game is Game.BANQUE and table.banque is BanqueKind.OUVERTE:
            raise InputError(f"{where}: there is no banco at banque ouverte (the banker covers every stake); banco is none")
        if 0 < self.stake < floor:
            raise InputError(
                f"{where}: a stake of {fraction_str(self.stake)} is below the minimum stake "
                f"{fraction_str(floor)} (0 for no stake)"
            )
        if self.bank < table.minimum_banco:
            raise InputError(
                f"{where}: a bank of {fraction_str(self.bank)} is below the minimum banco {fraction_str(table.minimum_banco)}"
            )
        if self.bid is not None and self.bid < table.minimum_banco:
            raise InputError(
                f"{where}: a bid of {fraction_str(self.bid)} is below the minimum banco {fraction_str(table.minimum_banco)}"
            )

    def as_dict(self) -> dict[str, object]:
        """The policy as a file would write it."""
        out: dict[str, object] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "banco":
                out[f.name] = NO_BANCO if v is None else v.value
            else:
                out[f.name] = fraction_str(v) if isinstance(v, Fraction) else v
        return out


def default_stake(table: TableConfig) -> Fraction:
    """The default ordinary stake: the least multiple of the minimum stake with which the pontes reach
    the minimum banco together even when two seats hold the bank (banco double).

    >>> default_stake(TableConfig("chemin")), default_stake(TableConfig("chemin", minimum_stake=30))
    (20, 30)
    """
    floor, pontes = table.stake_floor, table.seats - 2
    k = max(1, -(-table.minimum_banco // (pontes * floor)))
    return whole(k * floor)


@dataclass(frozen=True)
class Policies:
    """Every seat's policy (``policies[seat]``, seats numbered from 1) and a name for them."""

    seats: tuple[Policy, ...]
    name: str = "defaults"

    def __getitem__(self, seat: int) -> Policy:
        return self.seats[seat - 1]

    def __len__(self) -> int:
        return len(self.seats)

    @classmethod
    def defaults(cls, table: TableConfig) -> Policies:
        """Every seat playing the documented defaults."""
        return cls((Policy.default(table),) * table.seats)

    @classmethod
    def from_mapping(cls, data: object, table: TableConfig, source: str = "policy") -> Policies:
        """Policies from a parsed policy file (see the module's docstring for the format).

        Raises:
            InputError: not an object, an unknown field, a bad value, or a seat outside 1..seats.
        """
        if not isinstance(data, dict):
            raise InputError(f'{source}: a policy file is a JSON object of policy fields and "seats"')
        top = dict(data)
        name = top.pop("name", None)
        if name is not None and not isinstance(name, str):
            raise InputError(f"{source}: name is a string, got {name!r}")
        per_seat = top.pop("seats", {})
        if not isinstance(per_seat, dict):
            raise InputError(f"{source}: seats is an object from seat number to policy fields")
        base = Policy.default(table).updated(top, table, source)
        out = [base] * table.seats
        for key, changes in per_seat.items():
            try:
                seat = int(key)
            except (TypeError, ValueError):
                seat = 0
            if str(key).strip() != str(seat) or not 1 <= seat <= table.seats:
                raise InputError(f"{source}: seat {key!r} is not a seat of this table (1 to {table.seats})")
            if not isinstance(changes, dict):
                raise InputError(f"{source}: seat {seat}: expected an object of policy fields")
            out[seat - 1] = base.updated(changes, table, f"{source}, seat {seat}")
        return cls(tuple(out), name or source)


def load_policies(path: str, table: TableConfig) -> Policies:
    """Read a policy file (JSON; decimals are read exactly from their digits, never through a float).

    Raises:
        InputError: unreadable, not JSON, or not a valid policy (see :meth:`Policies.from_mapping`).
    """
    data = read_document(path, "json")  # a decimal kept as written ("12.5", exactly 25/2 when read as an amount)
    return Policies.from_mapping(data, table, Path(path).name)
