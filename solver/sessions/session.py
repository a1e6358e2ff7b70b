"""A session at the table: the one function that applies a coup, the session loop, and the log.

:func:`apply_coup` is the engine's one step: from a :class:`~solver.sessions.state.TableState` and a
*dealer* (a function from the stakes of a coup to the cards dealt), it resolves the calls and covers
the stakes, deals, pays, and does what follows the coup (garage, suite, the bank passing, a bust, a
new shoe, the end), returning the next state and the coup's :class:`~solver.sessions.state.CoupRecord`.
It is pure: the only randomness is in the dealer, and :func:`card_dealer` draws it from the session's
own generator. So a session is a function of the table, the policies, the strategy and its seed:
session ``i`` of a run with seed ``s`` draws from ``SeedSequence(s, spawn_key=(i,))`` — the ``i``-th
child of ``SeedSequence(s).spawn(...)`` — whatever else runs beside it.

The log (:class:`LogWriter`) is written append-only, one whole line per coup: each line is encoded
first and handed to the operating system in one ``os.write`` on a file opened for appending, before
the next coup is played. A session interrupted at any point therefore leaves a log whose last line
is a complete coup (the tests interrupt one to check).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from solver.errors import InputError
from solver.sessions import banque, chemin
from solver.sessions.config import TableConfig
from solver.sessions.deal import (
    BanquePlay,
    CheminOnEachTableau,
    CheminPlay,
    Outcome,
    ShoeDealer,
    deal_banque,
    deal_chemin,
    shoe_values,
)
from solver.sessions.policy import Policies
from solver.sessions.state import CoupRecord, Stakes, TableState


@dataclass(frozen=True)
class Dealt:
    """A coup as dealt: each tableau's outcome (one at chemin de fer), the cards, and whether the cut
    card appeared."""

    outcomes: tuple[Outcome, ...]
    cards: dict[str, list[int]]
    cut_seen: bool


Dealer = Callable[[Stakes], Dealt]


def session_rng(seed: int, session: int) -> np.random.Generator:
    """Session ``session``'s generator for a run seeded ``seed`` (independent of any other session)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(session,))))


def card_dealer(table: TableConfig, play: CheminPlay | BanquePlay, rng: np.random.Generator) -> Dealer:
    """A dealer that deals real shoes: a new shuffled shoe first and after each coup that showed the cut card."""
    shoe = ShoeDealer(shoe_values(table.shoe.values), table.burn, table.cut_cards, rng)
    shoe.new_shoe()

    def deal(stakes: Stakes) -> Dealt:
        if shoe.cut_seen:
            shoe.new_shoe()
        if table.game == "chemin":
            assert isinstance(play, CheminPlay)
            h = deal_chemin(shoe, play, rng)
            return Dealt((h.outcome,), {"ponte": list(h.ponte), "banker": list(h.banker)}, shoe.cut_seen)
        assert not isinstance(play, CheminPlay)
        hb = deal_banque(shoe, play, (stakes.on(1), stakes.on(2)), rng)
        return Dealt(
            hb.outcomes, {"1": list(hb.tableaux[0]), "2": list(hb.tableaux[1]), "banker": list(hb.banker)}, shoe.cut_seen
        )

    return deal


def table_play(table: TableConfig, strategy: object) -> CheminPlay | BanquePlay:
    """How the coups are drawn: chemin de fer's strategy; at baccara banque, a :class:`BanquePlay` as given,
    or chemin de fer's strategy on each tableau (:class:`CheminOnEachTableau`)."""
    if table.game == "banque" and hasattr(strategy, "player_draw") and hasattr(strategy, "banker_draw"):
        return strategy  # type: ignore[return-value]
    play = CheminPlay.of(strategy)
    return play if table.game == "chemin" else CheminOnEachTableau(play)


def start(table: TableConfig, policies: Policies) -> tuple[TableState, tuple[str, ...]]:
    """The table before its first coup (the first bank opened), and the events of opening it."""
    _check(table, policies)
    return (chemin.start if table.game == "chemin" else banque.start)(table, policies)


def apply_coup(
    table: TableConfig, policies: Policies, state: TableState, deal: Dealer, session: int = 0, before: tuple[str, ...] = ()
) -> tuple[TableState, CoupRecord]:
    """Play one coup: calls and stakes, the cards (``deal``), the payments, and what follows.

    Args:
        table, policies: the rules and the players.
        state: the table before the coup (a bank open, the session not ended).
        deal: the cards for these stakes (:func:`card_dealer`, or a fixed outcome in tests).
        session: the session's number, for the record; ``before``: events that came before this coup
            (the opening of the first bank), reported with it.

    Returns:
        The state after the coup and the coup's record.
    """
    if state.ended is not None or state.banker is None:
        raise ValueError("the session has ended: no coup to play")
    ready, stakes, pre = (chemin.prepare if table.game == "chemin" else banque.prepare)(table, policies, state)
    dealt = deal(stakes)
    banker, co = ready.banker, ready.co_banker
    assert banker is not None
    if table.game == "chemin":
        s = chemin.settle(table, policies, ready, stakes, dealt.outcomes[0], dealt.cut_seen)
    else:
        s = banque.settle(table, policies, ready, stakes, dealt.outcomes, dealt.cut_seen)
    after = s.state.evolve(coup=state.coup + 1)
    record = CoupRecord(
        session,
        after.coup,
        state.shoe,
        banker,
        co,
        stakes.total,
        stakes,
        dealt.outcomes,
        dealt.cards,
        s.tax,
        after,
        before + pre + s.events,
        s.banker_net,
        s.runs_ended,
        s.censored,
    )
    return after, record


def play_session(
    table: TableConfig, policies: Policies, play: CheminPlay | BanquePlay, seed: int, session: int = 0
) -> Iterator[CoupRecord]:
    """Every coup of one session, in order (a generator: stop reading and the session stops)."""
    deal = card_dealer(table, play, session_rng(seed, session))
    state, before = start(table, policies)
    while state.ended is None:
        state, record = apply_coup(table, policies, state, deal, session, before)
        before = ()
        yield record


def _check(table: TableConfig, policies: Policies) -> None:
    if len(policies) != table.seats:
        raise ValueError(f"{len(policies)} policies for {table.seats} seats")


class LogWriter:
    """The JSON-lines log: append-only, one whole line per coup, each handed to the OS in one write."""

    def __init__(self, path: str) -> None:
        try:
            self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
        except OSError as e:
            raise InputError(f"cannot write the log {path}: {e.strerror}") from None
        self.path = path

    def write(self, record: CoupRecord) -> None:
        data = (json.dumps(record.as_json(), separators=(",", ":")) + "\n").encode("utf-8")
        while data:
            data = data[os.write(self.fd, data) :]

    def close(self) -> None:
        os.close(self.fd)

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
