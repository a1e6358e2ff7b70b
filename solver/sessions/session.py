"""A session at the table: the one function that applies a coup, and the session loop.

:func:`apply_coup` is the engine's one step: from a :class:`~solver.sessions.state.TableState` and a
*dealer* (a function from the stakes of a coup to the cards dealt), it resolves the calls and covers
the stakes, deals, pays, and does what follows the coup (garage, suite, the bank passing, a bust, a
new shoe, the end), returning the next state and the coup's :class:`~solver.sessions.state.CoupRecord`.
It is pure: the only randomness is in the dealer, and :func:`card_dealer` draws it from the session's
own generator. So a session is a function of the table, the policies, the strategy and its seed:
session ``i`` of a run with seed ``s`` draws from ``SeedSequence(s, spawn_key=(i,))`` — the ``i``-th
child of ``SeedSequence(s).spawn(...)`` — whatever else runs beside it.

A session may end before its first coup (:func:`open_session`: no one can hold the bank, or the pontes'
stakes fall short of the minimum banco); it then plays no coup at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

from solver.errors import InputError
from solver.rules.tableau import SEEN_LABELS, Action, Tableau
from solver.sessions import banque, chemin
from solver.sessions.config import TableConfig
from solver.sessions.deal import (
    CARD_NAME,
    BanquePlay,
    CheminOnEachTableau,
    CheminPlay,
    Outcome,
    ShoeDealer,
    deal_banque,
    deal_chemin,
    shoe_cards,
)
from solver.sessions.policy import Policies
from solver.sessions.state import Bids, CoupRecord, Opening, Settlement, Stakes, TableState, close_session, next_coup_end
from solver.sessions.words import Event, Game


@dataclass(frozen=True)
class Dealt:
    """A coup as dealt: each tableau's outcome (one at chemin de fer), the cards' values, whether the cut
    card appeared, the cards by rank (as the log writes them), the burn of a shoe this coup began
    (``None``: it did not begin one) and the cards left in the shoe."""

    outcomes: tuple[Outcome, ...]
    cards: dict[str, list[int]]
    cut_seen: bool
    ranks: dict[str, list[str]] = field(default_factory=dict)
    burned: tuple[str, ...] | None = None
    left: int | None = None


Dealer = Callable[[Stakes], Dealt]


def session_rng(seed: int, session: int) -> np.random.Generator:
    """Session ``session``'s generator for a run seeded ``seed`` (independent of any other session)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(session,))))


def _names(codes: tuple[int, ...]) -> list[str]:
    return [CARD_NAME[c] for c in codes]


def card_dealer(table: TableConfig, play: CheminPlay | BanquePlay, rng: np.random.Generator) -> Dealer:
    """A dealer that deals real shoes: a new shuffled shoe first and after each coup that showed the cut card."""
    shoe = ShoeDealer(shoe_cards(table.shoe), table.burn, table.cut_cards, rng)
    shoe.new_shoe()
    fresh = [True]

    def deal(stakes: Stakes) -> Dealt:
        if shoe.cut_seen:
            shoe.new_shoe()
            fresh[0] = True
        burned = tuple(_names(shoe.burned)) if fresh[0] else None
        fresh[0] = False
        if table.game is Game.CHEMIN:
            assert isinstance(play, CheminPlay)
            h = deal_chemin(shoe, play, rng)
            cards = {"ponte": list(h.ponte), "banker": list(h.banker)}
            ranks = {"ponte": _names(h.ponte_codes), "banker": _names(h.banker_codes)}
            return Dealt((h.outcome,), cards, shoe.cut_seen, ranks, burned, shoe.left)
        assert not isinstance(play, CheminPlay)
        hb = deal_banque(shoe, play, (stakes.on(1), stakes.on(2)), rng)
        cards = {"1": list(hb.tableaux[0]), "2": list(hb.tableaux[1]), "banker": list(hb.banker)}
        ranks = {k: _names(c) for k, c in zip(("1", "2", "banker"), hb.codes)}
        return Dealt(hb.outcomes, cards, shoe.cut_seen, ranks, burned, shoe.left)

    return deal


def table_play(table: TableConfig, strategy: object) -> CheminPlay | BanquePlay:
    """How the coups are drawn: chemin de fer's strategy; at baccara banque, a :class:`BanquePlay` as given,
    or chemin de fer's strategy on each tableau (:class:`CheminOnEachTableau`).

    Raises:
        InputError: the strategy overrides a cell the table's tableau fixes (at chemin de fer only the
            rule sheet's free cells are free), or a solved banque strategy was solved for other rules.
    """
    if table.game is Game.BANQUE and hasattr(strategy, "player_draw") and hasattr(strategy, "banker_draw"):
        freedom = getattr(strategy, "freedom", table.tableau.name)
        if freedom != table.tableau.name:
            raise InputError(
                f"this strategy was solved for {freedom} freedom; the table draws by the {table.tableau.name} tableau"
            )
        return strategy  # type: ignore[return-value]
    play = CheminPlay.of(strategy)
    broken = play.breaks(table.tableau)
    if broken:
        free = ", ".join(free_cells(table.tableau))
        raise InputError(
            f"the strategy overrides cells the {table.tableau.name} tableau fixes ({', '.join(broken)}); "
            f"at this table only its free cells are free ({free})"
        )
    return play if table.game is Game.CHEMIN else CheminOnEachTableau(play)


def free_cells(tableau: Tableau) -> list[str]:
    """The free cells of a tableau as ``--draw`` names them (``P5``, ``B3/9``), or ``every banker cell``."""
    banker = tableau.free_banker_cells()
    player = [f"P{t}" for t in range(8) if tableau.player_action(t) is Action.FREE]
    if len(banker) > 8:
        return [*player, "every banker cell"]
    return [*player, *(f"B{t}/{SEEN_LABELS[s]}" for t, s in banker)]


def _rules(table: TableConfig) -> ModuleType:
    """The module of the table's rules of the money (:mod:`.chemin` or :mod:`.banque`): both have
    ``start``, ``prepare``, ``settle`` and ``stakes_offered``."""
    return chemin if table.game is Game.CHEMIN else banque


def open_session(table: TableConfig, policies: Policies) -> Opening:
    """The table before its first coup: the first bank opened, with the events and bids of opening it; or
    the session ended already (no one can hold the bank, or the pontes' stakes fall short of the
    minimum banco), with no coup to play."""
    if len(policies) != table.seats:
        raise ValueError(f"{len(policies)} policies for {table.seats} seats")
    rules = _rules(table)
    opening: Opening = rules.start(table, policies)
    state = opening.state
    if state.ended is None:
        reason = next_coup_end(table, state, lambda st: rules.stakes_offered(table, policies, st))
        if reason is not None:
            state, _ = close_session(state, reason)
            return Opening(state, (*opening.events, Event.SESSION_ENDS), opening.bids)
    return opening


def start(table: TableConfig, policies: Policies) -> tuple[TableState, tuple[Event, ...]]:
    """The table before its first coup, and the events of opening it (see :func:`open_session`)."""
    opening = open_session(table, policies)
    return opening.state, opening.events


def apply_coup(
    table: TableConfig,
    policies: Policies,
    state: TableState,
    deal: Dealer,
    session: int = 0,
    before: tuple[Event, ...] = (),
    bids_before: Bids = (),
) -> tuple[TableState, CoupRecord]:
    """Play one coup: calls and stakes, the cards (``deal``), the payments, and what follows.

    Args:
        table, policies: the rules and the players.
        state: the table before the coup (a bank open, the session not ended).
        deal: the cards for these stakes (:func:`card_dealer`, or a fixed outcome in tests).
        session: the session's number, for the record; ``before``, ``bids_before``: the events and bids
            that came before this coup (the opening of the first bank), reported with it.

    Returns:
        The state after the coup and the coup's record.
    """
    if state.ended is not None or state.banker is None:
        raise ValueError("the session has ended: no coup to play")
    rules = _rules(table)
    ready, stakes, pre = rules.prepare(table, policies, state)
    dealt = deal(stakes)
    banker, co = ready.banker, ready.co_banker
    assert banker is not None
    outcome = dealt.outcomes[0] if table.game is Game.CHEMIN else dealt.outcomes
    s: Settlement = rules.settle(table, policies, ready, stakes, outcome, dealt.cut_seen)
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
        dealt.ranks,
        dealt.burned,
        dealt.cut_seen,
        dealt.left,
        bids_before + s.bids,
    )
    return after, record


def coups(
    table: TableConfig, policies: Policies, play: CheminPlay | BanquePlay, seed: int, session: int, opening: Opening
) -> Iterator[CoupRecord]:
    """Every coup of one session from its ``opening`` (:func:`open_session`), in order."""
    state, before, bids = opening
    if state.ended is not None:
        return
    deal = card_dealer(table, play, session_rng(seed, session))
    while state.ended is None:
        state, record = apply_coup(table, policies, state, deal, session, before, bids)
        before, bids = (), ()
        yield record


def play_session(
    table: TableConfig, policies: Policies, play: CheminPlay | BanquePlay, seed: int, session: int = 0
) -> Iterator[CoupRecord]:
    """Every coup of one session, in order (a generator: stop reading and the session stops)."""
    yield from coups(table, policies, play, seed, session, open_session(table, policies))
