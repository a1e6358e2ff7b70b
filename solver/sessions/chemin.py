"""Chemin de fer's money, coup by coup: the bank, banco calls, stakes, garage, suite, banco double, tax.

The rules played (the seed's rule sheet; seats numbered as in :mod:`solver.sessions.config`):

* **The bank.** It starts with seat 1 (on the croupier's right), who puts up his policy's bank, at
  least the minimum banco ("the least sum a banker must put up"). When the banker loses, the bank
  passes to the right: to the next seat after the banker — during a suite, after the *original*
  banker — that will take it and can put up the minimum banco.
* **Banco double.** When a bank opens, the first seat on the banker's right whose policy doubles a
  bank of that size puts up as much again; the two share wins, losses and the garage equally; the
  co-banker has no say in the bank's decisions.
* **The prime** goes to the seat nearest the banker's right; during a suite it counts from the right of
  the *original* banker's seat, for the calls, for the stakes and for the hand alike ("Während einer
  Suite ist für das Prime-Recht der Platz zur Rechten des ursprünglichen Bankiers maßgeblich … auch
  maßgeblich für die Gültigkeit der Einsätze"); the original banker, now a ponte, comes last.
* **Calls.** ``suivi``: the seat that called banco and lost the last coup may call again, before
  anyone else. Otherwise ``solo`` (banco: the whole bank, every other stake refused) beats
  ``a_deux`` (banco à deux: the caller and the next à deux caller take half each) beats ``avec``
  (banco avec la table: half the bank; the others may stake up to the other half) beats ``marche``
  (banco et la table marche: avec la table, and the caller takes the difference the others leave of
  the other half). Among calls of one kind the prime decides. A lone à deux call stands as avec.
* **Stakes.** Without a banco, stakes are covered in the order of the prime until the bank is reached
  (the last one in part); the rest are refused unless the banker raises the bank (policy
  ``raise_bank``, not with a co-banker). If the stakes fall short of the bank, the banker withdraws the
  excess into the garage and the reduced sum is the bank ("au garage": policy ``garage``, on any coup
  of his run; a banker whose policy keeps it in the bank leaves it aside for the coup).
* **The hand** is played by the ponte with the largest stake (the prime breaks a tie).
* **Settling.** A tie voids the coup and the stakes stay: the next coup is played for the same
  stakes. The banker wins: the tax (5 % by default) of his win goes to the house and the bank becomes
  the old bank plus the net win; after ``pass_after`` wins in a row he passes the hand (a **suite**):
  he takes bank and garage, the bank is offered at its amount (at least the minimum banco) in the
  order of the prime, then auctioned (highest bid, the prime breaking ties), and with no bid it goes to
  the next player in turn, who puts up at least the minimum banco. The banker loses: the covered
  stakes are paid, the remains of the bank and the garage go back to him, and the bank passes.
* **The end.** The session ends after its last shoe, or when no one can hold the bank, or when the
  stakes the pontes offer for the next coup add up to less than the minimum banco ("Erreichen die
  addierten Einsätze aller Pointeure nicht das Minimumbanco, so endet die Partie"); a ponte calling
  banco offers what his call would take. Bank and garage then go back to their owners.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from solver.sessions.config import TableConfig, seats_right_of
from solver.sessions.deal import Outcome
from solver.sessions.money import ZERO, part, whole
from solver.sessions.policy import Policies
from solver.sessions.state import (
    Bids,
    Call,
    Opening,
    Settlement,
    Stakes,
    TableState,
    close_session,
    finish,
    offered_stake,
    pay_out_bank,
)
from solver.sessions.words import CallKind, End, Event

CALL_RANK = {CallKind.SUIVI: -1, CallKind.SOLO: 0, CallKind.A_DEUX: 1, CallKind.AVEC: 2, CallKind.MARCHE: 3}
"""Priority of the calls: suivi before anyone, then solo > à deux > avec > et la table marche."""
HALF_BANK = (CallKind.A_DEUX, CallKind.AVEC)
"""Calls that take half the bank (the caller must hold half; a banco et la table marche may take all)."""


def start(table: TableConfig, policies: Policies) -> Opening:
    """The table before the first coup: every seat with its bankroll, the first bank opened from seat 1."""
    state = TableState(tuple(policies[s].bankroll for s in range(1, table.seats + 1)))
    return rotate(table, policies, state, 1)


def rotate(table: TableConfig, policies: Policies, state: TableState, first: int) -> Opening:
    """Give the bank to the first seat from ``first`` on (``first`` included) that takes it and can put up
    the minimum banco; he puts up his policy's bank (at least the minimum banco, at most his bankroll)."""
    n = table.seats
    for k in range(n):
        seat = (first - 1 + k) % n + 1
        pol, money = policies[seat], state.bankrolls[seat - 1]
        if pol.take_bank and money >= table.minimum_banco:
            amount = min(max(pol.bank, table.minimum_banco), money)
            return open_bank(table, policies, state.evolve(turn=seat), seat, amount, suite=False)
    closed, _ = close_session(state, End.NO_BANKER)
    return Opening(closed, (Event.SESSION_ENDS,))


def open_bank(table: TableConfig, policies: Policies, state: TableState, seat: int, amount: Fraction, suite: bool) -> Opening:
    """``seat`` puts up a bank of ``amount``; the first seat on his right whose policy doubles it does."""
    state = state.credit([(seat, -amount)]).evolve(
        banker=seat, co_banker=None, bank=amount, garage=ZERO, suite=suite, wins=0, held=0, suivi=None, carried=None
    )
    for other in seats_right_of(seat, table.seats):
        pol, money = policies[other], state.bankrolls[other - 1]
        if pol.double_up_to is not None and amount <= pol.double_up_to and money >= amount:
            state = state.credit([(other, -amount)]).evolve(co_banker=other, bank=2 * amount)
            return Opening(state, (Event.BANCO_DOUBLE,))
    return Opening(state)


def pass_hand(table: TableConfig, policies: Policies, state: TableState) -> Opening:
    """The banker passes the hand after a win (a suite): he takes bank and garage; the bank is offered at
    its amount (at least the minimum banco) in the order of the prime, then auctioned, and with no bid
    goes to the next player in turn."""
    amount, passer = max(state.bank, table.minimum_banco), state.banker
    assert passer is not None
    state = pay_out_bank(state)
    origin = state.turn  # the original banker: the prime counts from his right, he comes last
    order = [s for s in (*seats_right_of(origin, table.seats), origin) if s != passer]
    for seat in order:
        up_to = policies[seat].take_suite_up_to
        if up_to is not None and amount <= up_to and state.bankrolls[seat - 1] >= amount:
            opened = open_bank(table, policies, state, seat, amount, suite=True)
            return Opening(opened.state, (Event.SUITE_TAKEN, *opened.events))
    bids: list[tuple[int, Fraction]] = []
    for seat in order:
        bid = policies[seat].bid
        if bid is not None and state.bankrolls[seat - 1] >= bid:
            bids.append((seat, bid))
    if bids:
        rank = {s: i for i, s in enumerate(order)}
        seat, bid = max(bids, key=lambda b: (b[1], -rank[b[0]]))  # the highest bid; on equal bids, the prime
        opened = open_bank(table, policies, state, seat, bid, suite=True)
        return Opening(opened.state, (Event.AUCTION, *opened.events), tuple(sorted(bids)))
    opened = rotate(table, policies, state, state.turn % table.seats + 1)
    return Opening(opened.state, (Event.BANK_PASSES, *opened.events))


def prime_order(table: TableConfig, state: TableState) -> list[int]:
    """The pontes in the order of the prime: from the banker's right, or during a suite from the right
    of the original banker's seat (the original banker, now a ponte, comes last)."""
    owners = state.owners()
    start_seat = state.turn if state.suite else state.banker
    assert start_seat is not None
    return [s for s in (*seats_right_of(start_seat, table.seats), start_seat) if s not in owners]


def call_amount(kind: CallKind, bank: Fraction) -> Fraction:
    """What a banco call may take of ``bank``: half for à deux and avec, the whole for the others."""
    return part(bank, 2) if kind in HALF_BANK else bank


def gather_calls(table: TableConfig, policies: Policies, state: TableState, order: list[int]) -> list[Call]:
    """The banco calls the pontes make against the bank, in the order of the prime."""
    bank, out = state.bank, []
    for seat in order:
        pol = policies[seat]
        if pol.banco is None and seat != state.suivi:
            continue  # most pontes: no call to weigh
        money = state.bankrolls[seat - 1]
        if seat == state.suivi and pol.suivi and money >= bank:
            out.append(Call(seat, CallKind.SUIVI))
        elif pol.banco is not None and (pol.banco_up_to is None or bank <= pol.banco_up_to):
            if money >= call_amount(pol.banco, bank):
                out.append(Call(seat, pol.banco))
    return out


def resolve_calls(calls: list[Call], order: list[int]) -> tuple[Call | None, int | None]:
    """The call that wins and banco à deux's partner: by the kind of call first (suivi, solo, à deux,
    avec, marche), then by the prime (earliest in ``order``).

    >>> S, D, A = CallKind.SOLO, CallKind.A_DEUX, CallKind.AVEC
    >>> resolve_calls([Call(3, A), Call(5, S), Call(4, S)], [2, 3, 4, 5])[0].seat
    4
    >>> won, partner = resolve_calls([Call(3, D), Call(6, A), Call(5, D)], [2, 3, 4, 5, 6])
    >>> won.seat, won.kind.value, partner
    (3, 'a_deux', 5)
    """
    if not calls:
        return None, None
    rank = {s: i for i, s in enumerate(order)}
    won = min(calls, key=lambda c: (CALL_RANK[c.kind], rank[c.seat]))
    partner = None
    if won.kind is CallKind.A_DEUX:
        others = sorted((c for c in calls if c.kind is CallKind.A_DEUX and c.seat != won.seat), key=lambda c: rank[c.seat])
        partner = others[0].seat if others else None
    return won, partner


def stakes_offered(table: TableConfig, policies: Policies, state: TableState) -> Fraction:
    """The stakes the pontes offer for the coup, added: each his ordinary stake, or what his banco call
    would take if that is more (the sum the rule sheet holds against the minimum banco)."""
    order = prime_order(table, state)
    calls = {c.seat: c.kind for c in gather_calls(table, policies, state, order)}
    total = ZERO
    for seat in order:
        stake = offered_stake(table, policies, state, seat)
        kind = calls.get(seat)
        total += stake if kind is None else max(stake, call_amount(kind, state.bank))
    return total


def _cover(offers: list[tuple[int, int, Fraction]], room: Fraction) -> list[tuple[int, int, Fraction]]:
    """Offers covered in order until ``room`` is filled (the last in part)."""
    out: list[tuple[int, int, Fraction]] = []
    for seat, t, want in offers:
        take = min(want, room)
        if take <= 0:
            break
        out.append((seat, t, take))
        room -= take
    return out


def prepare(table: TableConfig, policies: Policies, state: TableState) -> tuple[TableState, Stakes, tuple[Event, ...]]:
    """Calls, stakes covered, the bank raised or the garage taken: everything before the cards.

    Returns the state with the bank as it stands for the coup, the stakes, and the events.
    """
    if state.carried is not None:
        return state, replace(state.carried, carried=True), ()
    banker = state.banker
    assert banker is not None
    pol = policies[banker]
    order = prime_order(table, state)
    offers = [(s, 0, x) for s in order if (x := offered_stake(table, policies, state, s)) > 0]
    calls = gather_calls(table, policies, state, order)
    won, partner = resolve_calls(calls, order)
    bank = state.bank
    events: tuple[Event, ...] = ()
    covered: list[tuple[int, int, Fraction]]
    if won is None:
        if pol.raise_bank and state.co_banker is None and state.bankrolls[banker - 1] > 0:
            wanted = sum((x for _, _, x in offers), ZERO)
            if wanted > bank:
                extra = min(wanted - bank, state.bankrolls[banker - 1])
                state = state.credit([(banker, -extra)]).evolve(bank=bank + extra)
                bank, events = state.bank, (Event.BANK_RAISED,)
        covered = _cover(offers, bank)
    elif won.kind in (CallKind.SUIVI, CallKind.SOLO):
        covered = [(won.seat, 0, bank)]
    elif won.kind is CallKind.A_DEUX and partner is not None:
        covered = [(s, 0, part(bank, 2)) for s in order if s in (won.seat, partner)]
    else:  # avec la table (or a lone à deux); et la table marche takes the difference too
        half = part(bank, 2)
        table_part = _cover([o for o in offers if o[0] != won.seat], half)
        mine = bank - sum((a for _, _, a in table_part), ZERO) if won.kind is CallKind.MARCHE else half
        covered = [(won.seat, 0, whole(mine))] + table_part
    total = sum((a for _, _, a in covered), ZERO)
    if 0 < total < bank and pol.garage:
        state = state.evolve(bank=total, garage=state.garage + bank - total)
        events += (Event.GARAGE,)
    rank = {s: i for i, s in enumerate(order)}
    hand = min(covered, key=lambda c: (-c[2], rank[c[0]]))[0] if covered else None
    return state, Stakes(tuple(covered), tuple(calls), won, partner, (hand,), offered=tuple(offers)), events


def settle(
    table: TableConfig, policies: Policies, state: TableState, stakes: Stakes, outcome: Outcome, cut_seen: bool
) -> Settlement:
    """Pay the coup, then what follows it: the suite, the bank passing, a new shoe, the end."""
    banker = state.banker
    assert banker is not None
    total = stakes.total
    tax, net = ZERO, ZERO
    ended: tuple[int, ...] = ()
    events: tuple[Event, ...] = ()
    bids: Bids = ()
    state = state.evolve(held=state.held + 1)
    if outcome is Outcome.TIE:
        state = state.evolve(carried=stakes)
    elif outcome is Outcome.BANKER:
        tax = whole(table.tax_rate * total)
        net = total - tax
        state = state.credit((s, -a) for s, _, a in stakes.covered)
        staked = {s for s, _, _ in stakes.covered}
        caller = stakes.won.seat if stakes.won is not None and stakes.won.seat in staked else None  # lost his banco
        state = state.evolve(
            bank=whole(state.bank + net), house=whole(state.house + tax), wins=state.wins + 1, suivi=caller, carried=None
        )
        after = policies[banker].pass_after
        if after and state.wins >= after:
            ended = (state.held,)
            opened = pass_hand(table, policies, state)
            state, events, bids = opened.state, (Event.SUITE, *opened.events), opened.bids
    else:
        net = -total
        state = state.credit((s, a) for s, _, a in stakes.covered).evolve(bank=state.bank - total)
        ended = (state.held,)
        state = pay_out_bank(state)
        opened = rotate(table, policies, state, state.turn % table.seats + 1)
        state, events = opened.state, (Event.BANK_PASSES, *opened.events)
    return finish(table, state, tax, events, net, ended, cut_seen, lambda st: stakes_offered(table, policies, st), bids)
