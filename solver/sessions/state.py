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

from solver.sessions.config import TableConfig
from solver.sessions.deal import Outcome
from solver.sessions.money import ZERO, amount_json, part, whole
from solver.sessions.policy import Policies

EVENTS = (
    "banco double",
    "garage",
    "bank raised",
    "top up",
    "suite",
    "suite taken",
    "auction",
    "bank passes",
    "busted",
    "rebank",
    "session ends",
)
"""Everything the log's ``event`` field can hold, in the order a coup can raise them."""


@dataclass(frozen=True)
class Call:
    """A banco call: the seat that called and how (``solo``, ``a_deux``, ``avec``, ``marche``,
    ``cheval``, or ``suivi`` — a banco again by the seat that lost the last one)."""

    seat: int
    kind: str


@dataclass(frozen=True)
class Stakes:
    """What is at stake in a coup, once calls are resolved and stakes covered.

    Attributes:
        covered: ``(seat, tableau, amount)`` in the order covered; ``tableau`` is 0 at chemin de fer,
            1 or 2 at baccara banque.
        calls: the banco calls made, in seat order from the banker's right.
        won: the call that won (``None``: no banco; ordinary stakes); ``partner``: banco à deux's
            second player, or at baccara banque the second of two bancos sharing the bank.
        hands: the seat that plays the hand (chemin de fer: one; baccara banque: one per tableau,
            ``None`` where no one staked).
        carried: the stakes of a tied coup, played again.
    """

    covered: tuple[tuple[int, int, Fraction], ...]
    calls: tuple[Call, ...] = ()
    won: Call | None = None
    partner: int | None = None
    hands: tuple[int | None, ...] = ()
    carried: bool = False

    @cached_property
    def total(self) -> Fraction:
        """The sum at stake for the bank."""
        return sum((a for _, _, a in self.covered), ZERO)

    def on(self, tableau: int) -> Fraction:
        """The sum staked on one tableau (0 at chemin de fer)."""
        return sum((a for _, t, a in self.covered if t == tableau), ZERO)

    def calls_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "made": [{"seat": c.seat, "call": c.kind} for c in self.calls],
            "won": None if self.won is None else {"seat": self.won.seat, "call": self.won.kind},
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
        prime: baccara banque's tableau with the prime when calls from both sides compete (1, 2, 1, …).
        carried: the stakes of a tied coup, played again (chemin de fer).
        capital: baccara banque: the sum the bank opened with; capital_due: capital tax paid since
            the last coup's record (reported with the next record).
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
    prime: int = 1
    carried: Stakes | None = None
    capital: Fraction = ZERO
    capital_due: Fraction = ZERO
    coup: int = 0
    shoe: int = 1
    ended: str | None = None

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

    def pontes_reach(self, amount: Fraction) -> bool:
        """Whether everyone but the bank's owners holds ``amount`` together (adding only until they do)."""
        owners = self.owners()
        total = ZERO
        for s, m in enumerate(self.bankrolls, 1):
            if s not in owners:
                total += m
                if total >= amount:
                    return True
        return False

    def credit(self, changes: Iterable[tuple[int, Fraction]]) -> TableState:
        """Add ``amount`` to ``seat``'s bankroll for each pair (negative amounts debit)."""
        b = list(self.bankrolls)
        for seat, amount in changes:
            b[seat - 1] = whole(b[seat - 1] + amount)
        return self.evolve(bankrolls=tuple(b))


_STATE_FIELDS = frozenset(f.name for f in fields(TableState))


def pay_out_bank(state: TableState) -> TableState:
    """End the bank: bank and garage go to their owners in equal shares; no one holds the bank."""
    owners = state.owners()
    paid = state.bank + state.garage
    if owners:
        share = part(paid, len(owners))
        state = state.credit((s, share) for s in owners)
    else:
        assert paid == 0
    return state.evolve(
        banker=None, co_banker=None, bank=ZERO, garage=ZERO, suite=False, wins=0, held=0, suivi=None, streak=0, carried=None
    )


@dataclass(frozen=True)
class CoupRecord:
    """One coup as the log writes it (see docs/table-log.md for each field).

    ``banker_net`` (the bank's result on the coup, after tax), ``runs_ended`` (the lengths of the bank
    runs that ended with this coup) and ``censored`` (the length of a run the session's end cut short)
    feed the summary; they are not written.
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
    events: tuple[str, ...]
    banker_net: Fraction = ZERO
    runs_ended: tuple[int, ...] = field(default=())
    censored: int = 0

    def as_json(self) -> dict[str, object]:
        """The log line's fields; amounts are JSON integers or ``"p/q"`` strings."""
        a = self.after
        if len(self.outcome) == 1:
            stakes: object = {str(s): amount_json(x) for s, _, x in self.stakes.covered}
            outcome: object = self.outcome[0].value
        else:
            stakes = {str(t): {str(s): amount_json(x) for s, tt, x in self.stakes.covered if tt == t} for t in (1, 2)}
            outcome = {str(t + 1): o.value for t, o in enumerate(self.outcome)}
        hands = self.stakes.hands
        return {
            "session": self.session,
            "coup": self.coup,
            "shoe": self.shoe,
            "banker": self.banker,
            "co_banker": self.co_banker,
            "bank": amount_json(self.bank),
            "stakes": stakes,
            "calls": self.stakes.calls_json(),
            "ponte": hands[0] if len(hands) == 1 else {str(t + 1): h for t, h in enumerate(hands)},
            "cards": self.cards,
            "outcome": outcome,
            "tax": amount_json(self.tax),
            "bankrolls": {str(s): amount_json(m) for s, m in enumerate(a.bankrolls, 1)},
            "bank_after": amount_json(a.bank),
            "garage": amount_json(a.garage),
            "house": amount_json(a.house),
            "event": list(self.events),
        }


@dataclass(frozen=True)
class Settlement:
    """What settling a coup did: the next state, the house's take, the events, the bank's result on
    the coup (after tax), the bank runs it ended (their lengths in coups) and, if the session ended
    with a bank still running, that run's length so far (``censored``)."""

    state: TableState
    tax: Fraction
    events: tuple[str, ...]
    banker_net: Fraction
    runs_ended: tuple[int, ...] = ()
    censored: int = 0


def close_session(state: TableState, reason: str) -> tuple[TableState, int]:
    """End the session: the bank and the garage go back to their owners.

    Returns the closed state and the length of the bank run it cut short (0 if none was running).
    """
    censored = state.held if state.banker is not None else 0
    return pay_out_bank(state).evolve(ended=reason), censored


def finish(
    table: TableConfig,
    state: TableState,
    tax: Fraction,
    events: tuple[str, ...],
    net: Fraction,
    ended: tuple[int, ...],
    cut_seen: bool,
    can_play: Callable[[TableState], bool],
) -> Settlement:
    """The shoe and the session after a coup: a new shoe, or the end — after the last shoe, when the
    pontes hold less than the minimum banco together, or when no one would stake (``can_play``)."""
    censored = 0
    if state.ended is None:
        reason = None
        if cut_seen and state.shoe >= table.shoes:
            reason = "shoes finished"
        elif not state.pontes_reach(table.minimum_banco):
            reason = "the pontes cannot reach the minimum banco"
        elif not can_play(state):
            reason = "no one stakes"
        if reason is not None:
            state, censored = close_session(state, reason)
            events += ("session ends",)
        elif cut_seen:
            state = state.evolve(shoe=state.shoe + 1)
    return Settlement(state, tax, events, net, ended, censored)


Prepare = Callable[[TableConfig, Policies, TableState], tuple[TableState, Stakes, tuple[str, ...]]]


def can_play(table: TableConfig, policies: Policies, state: TableState, prepare: Prepare) -> bool:
    """Whether the next coup has anything at stake: at once when some ponte stakes at least the minimum,
    else by preparing it."""
    owners = state.owners()
    floor = table.stake_floor
    if any(policies[s].stake >= floor and m >= floor for s, m in enumerate(state.bankrolls, 1) if s not in owners):
        return True
    return prepare(table, policies, state)[1].total > 0
