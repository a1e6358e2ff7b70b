"""The state of a table between two coups, the stakes of a coup, and the record of a coup.

:class:`TableState` is an immutable value: the engine's one function that applies a coup
(:func:`solver.sessions.session.apply_coup`) takes a state and returns the next one, with the
:class:`CoupRecord` that the log writes. Money lies in four places only — each seat's bankroll, the
bank, the garage (what the banker has set aside from his bank during his run) and the house's take —
so ``sum(bankrolls) + bank + garage + house`` (:meth:`TableState.money`) never changes; the tests
check it after every coup.

Ownership of the bank: the banker's, or, after a banco double, the banker's and the co-banker's in
equal shares (each put up half and shares wins and losses equally), garage included. When a bank
ends it is paid out to its owners (:func:`pay_out_bank`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple

from solver.sessions.config import TableConfig
from solver.sessions.deal import Outcome
from solver.sessions.money import ZERO, amount_json, part, whole
from solver.sessions.policy import Policies
from solver.sessions.words import CallKind, End, Event

EVENTS: tuple[Event, ...] = tuple(Event)
"""Everything the log's ``event`` field can hold, in the order a coup can raise them."""

Bids = tuple[tuple[int, Fraction], ...]
"""The bids of an auction, ``(seat, bid)`` in seat order (the ones that could hold the bank)."""


@dataclass(frozen=True)
class Call:
    """A banco call: the seat that called and how (see :class:`~solver.sessions.words.CallKind`)."""

    seat: int
    kind: CallKind


@dataclass(frozen=True)
class Stakes:
    """What is at stake in a coup, once calls are resolved and stakes covered.

    Attributes:
        covered: ``(seat, tableau, amount)`` in the order covered; ``tableau`` is 0 at chemin de fer,
            1 or 2 at baccara banque.
        calls: the banco calls made, in the order of the prime.
        won: the call that won (``None``: no banco; ordinary stakes); ``partner``: banco à deux's
            second player, or at baccara banque the second of two bancos sharing the bank.
        hands: the seat that plays the hand (chemin de fer: one; baccara banque: one per tableau,
            ``None`` where no one staked).
        carried: the stakes of a tied coup, played again.
        offered: ``(seat, tableau, amount)``: every ordinary stake offered, covered or not, in the order
            of covering (what is not in ``covered`` was refused).
    """

    covered: tuple[tuple[int, int, Fraction], ...]
    calls: tuple[Call, ...] = ()
    won: Call | None = None
    partner: int | None = None
    hands: tuple[int | None, ...] = ()
    carried: bool = False
    offered: tuple[tuple[int, int, Fraction], ...] = ()

    @cached_property
    def total(self) -> Fraction:
        """The sum at stake for the bank."""
        return sum((a for _, _, a in self.covered), ZERO)

    def on(self, tableau: int) -> Fraction:
        """The sum staked on one tableau (0 at chemin de fer)."""
        return sum((a for _, t, a in self.covered if t == tableau), ZERO)

    def calls_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "made": [{"seat": c.seat, "call": c.kind.value} for c in self.calls],
            "won": None if self.won is None else {"seat": self.won.seat, "call": self.won.kind.value},
        }
        if self.partner is not None:
            out["partner"] = self.partner
        if self.carried:
            out["carried"] = True
        return out


@dataclass(frozen=True)
class TableState:
    """The table between two coups.

    Attributes:
        bankrolls: each seat's money outside the bank and the garage (index ``seat − 1``).
        house: the house's take so far.
        banker, co_banker: who holds the bank (``None``: no one; the session has ended).
        turn: the seat whose turn the bank is: the banker, or during a suite the original banker.
        suite: the banker holds the bank as a suite (bought at its amount, or at auction).
        bank: the bank; garage: set aside from it for the banker during his run.
        wins: the banker's wins in this run; held: coups played in this run.
        suivi: the seat that may call banco suivi (lost the last banco against this bank); streak: how
            many bancos in a row it has called (baccara banque allows three).
        carried: the stakes of a tied coup, played again (chemin de fer).
        capital: baccara banque: the sum the bank opened with; capital_fee: the capital tax this bank
            owes the house (house rule ``capital_tax``), paid with its first coup.
        coup: coups played; shoe: the shoe being dealt.
        ended: why the session ended, or ``None``.
    """

    bankrolls: tuple[Fraction, ...]
    house: Fraction = ZERO
    banker: int | None = None
    co_banker: int | None = None
    turn: int = 1
    suite: bool = False
    bank: Fraction = ZERO
    garage: Fraction = ZERO
    wins: int = 0
    held: int = 0
    suivi: int | None = None
    streak: int = 0
    carried: Stakes | None = None
    capital: Fraction = ZERO
    capital_fee: Fraction = ZERO
    coup: int = 0
    shoe: int = 1
    ended: End | None = None

    def evolve(self, **changes: object) -> TableState:
        """A copy with ``changes`` (like :func:`dataclasses.replace`, without re-running ``__init__``:
        the engine makes several per coup)."""
        unknown = changes.keys() - _STATE_FIELDS
        if unknown:
            raise TypeError(f"TableState has no field {sorted(unknown)[0]!r}")
        new = object.__new__(TableState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def money(self) -> Fraction:
        """Everything on the table: bankrolls, bank, garage and the house's take (conserved)."""
        return sum(self.bankrolls, ZERO) + self.bank + self.garage + self.house

    def owners(self) -> tuple[int, ...]:
        """Who owns the bank: the banker, and the co-banker after a banco double."""
        if self.banker is None:
            return ()
        return (self.banker,) if self.co_banker is None else (self.banker, self.co_banker)

    def credit(self, changes: Iterable[tuple[int, Fraction]]) -> TableState:
        """Add ``amount`` to ``seat``'s bankroll for each pair (negative amounts debit)."""
        b = list(self.bankrolls)
        for seat, amount in changes:
            b[seat - 1] = whole(b[seat - 1] + amount)
        return self.evolve(bankrolls=tuple(b))


_STATE_FIELDS = frozenset(f.name for f in fields(TableState))


class Opening(NamedTuple):
    """A bank opened (or the session ended trying): the state, the events and any auction's bids."""

    state: TableState
    events: tuple[Event, ...] = ()
    bids: Bids = ()


def offered_stake(table: TableConfig, policies: Policies, state: TableState, seat: int) -> Fraction:
    """The ordinary stake ``seat`` offers: his policy's, at most his bankroll, none below the minimum stake."""
    want = min(policies[seat].stake, state.bankrolls[seat - 1])
    return want if want >= table.stake_floor else ZERO


def pay_out_bank(state: TableState) -> TableState:
    """End the bank: bank and garage go to their owners in equal shares; no one holds the bank.

    A capital tax not yet paid is not owed: the bank never played."""
    owners = state.owners()
    paid = state.bank + state.garage
    if owners:
        share = part(paid, len(owners))
        state = state.credit((s, share) for s in owners)
    else:
        assert paid == 0
    return state.evolve(
        banker=None,
        co_banker=None,
        bank=ZERO,
        garage=ZERO,
        suite=False,
        wins=0,
        held=0,
        suivi=None,
        streak=0,
        carried=None,
        capital_fee=ZERO,
    )


@dataclass(frozen=True)
class CoupRecord:
    """One coup as the log writes it (see docs/table-log.md for each field).

    ``banker_net`` (the bank's result on the coup, after tax), ``runs_ended`` (the lengths of the bank
    runs that ended with this coup) and ``censored`` (the length of a run the session's end cut short)
    feed the summary; they are not written. ``ranks`` are the cards dealt by rank (``"0"``: a ten-valued
    card of a shoe known by value only), ``burned`` the burn of a shoe begun with this coup, ``cut_seen``
    whether the cut card appeared, ``left`` the cards left in the shoe; ``bids`` any auction's bids after
    the coup (or before the session's first coup).
    """

    session: int
    coup: int
    shoe: int
    banker: int
    co_banker: int | None
    bank: Fraction
    stakes: Stakes
    outcome: tuple[Outcome, ...]
    cards: dict[str, list[int]]
    tax: Fraction
    after: TableState
    events: tuple[Event, ...]
    banker_net: Fraction = ZERO
    runs_ended: tuple[int, ...] = field(default=())
    censored: int = 0
    ranks: dict[str, list[str]] = field(default_factory=dict)
    burned: tuple[str, ...] | None = None
    cut_seen: bool = False
    left: int | None = None
    bids: Bids = ()

    def as_json(self) -> dict[str, object]:
        """The log line's fields; amounts are JSON integers or ``"p/q"`` strings."""
        a = self.after
        banque = len(self.outcome) != 1
        if not banque:
            outcome: object = self.outcome[0].value
        else:
            outcome = {str(t + 1): o.value for t, o in enumerate(self.outcome)}
        hands = self.stakes.hands
        return {
            "type": "coup",
            "session": self.session,
            "coup": self.coup,
            "shoe": self.shoe,
            "banker": self.banker,
            "co_banker": self.co_banker,
            "bank": amount_json(self.bank),
            "stakes": by_tableau(self.stakes.covered, banque),
            "calls": self.stakes.calls_json(),
            "ponte": hands[0] if len(hands) == 1 else {str(t + 1): h for t, h in enumerate(hands)},
            "cards": self.cards,
            "outcome": outcome,
            "tax": amount_json(self.tax),
            "bankrolls": {str(s): amount_json(m) for s, m in enumerate(a.bankrolls, 1)},
            "bank_after": amount_json(a.bank),
            "garage": amount_json(a.garage),
            "house": amount_json(a.house),
            "event": [e.value for e in self.events],
            "offered": by_tableau(self.stakes.offered, banque),
            "ranks": self.ranks,
            "burned": None if self.burned is None else list(self.burned),
            "cut_card": self.cut_seen,
            "cards_left": self.left,
            "bids": bids_json(self.bids),
            "ended": None if a.ended is None else a.ended.value,
        }


def by_tableau(entries: Iterable[tuple[int, int, Fraction]], banque: bool) -> dict[str, object]:
    """``seat → amount`` (chemin de fer), or ``tableau → seat → amount`` (baccara banque), as JSON."""
    entries = list(entries)
    if not banque:
        return {str(s): amount_json(x) for s, _, x in entries}
    return {str(t): {str(s): amount_json(x) for s, tt, x in entries if tt == t} for t in (1, 2)}


def bids_json(bids: Bids) -> list[dict[str, object]]:
    return [{"seat": s, "bid": amount_json(b)} for s, b in bids]


@dataclass(frozen=True)
class Settlement:
    """What settling a coup did: the next state, the house's take, the events, the bank's result on
    the coup (after tax), the bank runs it ended (their lengths in coups), if the session ended with a
    bank still running that run's length so far (``censored``), and any auction's bids."""

    state: TableState
    tax: Fraction
    events: tuple[Event, ...]
    banker_net: Fraction
    runs_ended: tuple[int, ...] = ()
    censored: int = 0
    bids: Bids = ()


def close_session(state: TableState, reason: End) -> tuple[TableState, int]:
    """End the session: the bank and the garage go back to their owners.

    Returns the closed state and the length of the bank run it cut short (0 if none was running).
    """
    censored = state.held if state.banker is not None else 0
    return pay_out_bank(state).evolve(ended=reason), censored


def next_coup_end(table: TableConfig, state: TableState, offered: Callable[[TableState], Fraction]) -> End | None:
    """Why no coup can follow ``state`` (``None``: one can): no one holds the bank, or the stakes the
    pontes offer for it (``offered``) fall short of the minimum banco. A tie's stakes stand: the coup
    is played again for them."""
    if state.ended is not None:
        return state.ended
    if state.banker is None:
        return End.NO_BANKER
    if state.carried is None and offered(state) < table.minimum_banco:
        return End.STAKES_SHORT
    return None


def finish(
    table: TableConfig,
    state: TableState,
    tax: Fraction,
    events: tuple[Event, ...],
    net: Fraction,
    ended: tuple[int, ...],
    cut_seen: bool,
    offered: Callable[[TableState], Fraction],
    bids: Bids = (),
) -> Settlement:
    """The shoe and the session after a coup: a new shoe, or the end — after the last shoe, when no one
    holds the bank, or when the pontes' stakes for the next coup fall short of the minimum banco."""
    censored = 0
    if state.ended is None:
        reason = End.SHOES_FINISHED if cut_seen and state.shoe >= table.shoes else next_coup_end(table, state, offered)
        if reason is not None:
            state, censored = close_session(state, reason)
            events += (Event.SESSION_ENDS,)
        elif cut_seen:
            state = state.evolve(shoe=state.shoe + 1)
    return Settlement(state, tax, events, net, ended, censored, bids)
