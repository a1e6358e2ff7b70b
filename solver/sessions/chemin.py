"""Chemin de fer's money, coup by coup: the bank, banco calls, stakes, garage, suite, banco double, tax.

The rules played (the seed's rule sheet; seats numbered as in :mod:`solver.sessions.config`):

* **The bank.** It starts with seat 1 (on the croupier's right), who puts up his policy's bank, at
  least the minimum banco. When the banker loses, the bank passes to the right: to the next seat
  after the banker — during a suite, after the *original* banker — that will take it and can put up
  the minimum banco.
* **Banco double.** When a bank opens, the first seat on the banker's right whose policy doubles a
  bank of that size puts up as much again; the two share wins, losses and the garage equally; the
  co-banker has no say in the bank's decisions.
* **Calls.** ``suivi``: the seat that called banco and lost the last coup may call again, before
  anyone else. Otherwise ``solo`` (banco: the whole bank, every other stake refused) beats
  ``a_deux`` (banco à deux: the caller and the next à deux caller take half each) beats ``avec``
  (banco avec la table: half the bank; the others may stake up to the other half) beats ``marche``
  (banco et la table marche: the others' stakes stand, and the caller takes what they leave of the
  bank). Among calls of one kind the **prime** goes to the seat nearest the banker's right — during a
  suite, counted from the original banker's seat. A lone à deux call stands as avec la table.
* **Stakes.** Without a banco, stakes are covered in seat order from the banker's right until the
  bank is reached (the last one in part); the rest are refused unless the banker raises the bank
  (policy ``raise_bank``, not with a co-banker). If the stakes fall short of the bank, the excess is
  set aside for the coup (au chocolat) and the coup is played for the reduced sum; a banker who has
  won at least once in his run withdraws it into the garage if his policy says so.
* **The hand** is played by the ponte with the largest stake (the prime breaks a tie).
* **Settling.** A tie voids the coup and the stakes stay: the next coup is played for the same
  stakes. The banker wins: the tax (5 % by default) of his win goes to the house and the bank becomes
  the old bank plus the net win; after ``pass_after`` wins in a row he passes the hand (a **suite**):
  he takes bank and garage, the bank is offered around the table from his right at its amount, then
  auctioned (highest bid, the prime breaking ties), and with no bid it goes to the next player in
  turn, who puts up at least the minimum banco. The banker loses: the covered stakes are paid, the
  remains of the bank and the garage go back to him, and the bank passes.
* **The end.** The session ends after its last shoe, or when no one can hold the bank, or when the
  pontes together hold less than the minimum banco, or when no one would stake; the bank and the
  garage then go back to their owners.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from solver.sessions.config import TableConfig, seats_right_of
from solver.sessions.deal import Outcome
from solver.sessions.money import ZERO, part, whole
from solver.sessions.policy import Policies
from solver.sessions.state import Call, Settlement, Stakes, TableState, can_play, close_session, finish, pay_out_bank

CALL_RANK = {"suivi": -1, "solo": 0, "a_deux": 1, "avec": 2, "marche": 3}
"""Priority of the calls: suivi before anyone, then solo > à deux > avec > et la table marche."""


def start(table: TableConfig, policies: Policies) -> tuple[TableState, tuple[str, ...]]:
    """The table before the first coup: every seat with its bankroll, the first bank opened from seat 1."""
    state = TableState(tuple(policies[s].bankroll for s in range(1, table.seats + 1)))
    return rotate(table, policies, state, 1)


def rotate(table: TableConfig, policies: Policies, state: TableState, first: int) -> tuple[TableState, tuple[str, ...]]:
    """Give the bank to the first seat from ``first`` on (``first`` included) that takes it and can put up
    the minimum banco; he puts up his policy's bank (at least the minimum banco, at most his bankroll)."""
    n = table.seats
    for k in range(n):
        seat = (first - 1 + k) % n + 1
        pol, money = policies[seat], state.bankrolls[seat - 1]
        if pol.take_bank and money >= table.minimum_banco:
            amount = min(max(pol.bank, table.minimum_banco), money)
            return open_bank(table, policies, state.evolve(turn=seat), seat, amount, suite=False)
    closed, _ = close_session(state, "no one can hold the bank")
    return closed, ("session ends",)


def open_bank(
    table: TableConfig, policies: Policies, state: TableState, seat: int, amount: Fraction, suite: bool
) -> tuple[TableState, tuple[str, ...]]:
    """``seat`` puts up a bank of ``amount``; the first seat on his right whose policy doubles it does."""
    state = state.credit([(seat, -amount)]).evolve(
        banker=seat, co_banker=None, bank=amount, garage=ZERO, suite=suite, wins=0, held=0, suivi=None, carried=None
    )
    events: tuple[str, ...] = ()
    for other in seats_right_of(seat, table.seats):
        pol, money = policies[other], state.bankrolls[other - 1]
        if pol.double_up_to is not None and amount <= pol.double_up_to and money >= amount:
            state = state.credit([(other, -amount)]).evolve(co_banker=other, bank=2 * amount)
            events = ("banco double",)
            break
    if not state.pontes_reach(table.minimum_banco):
        closed, _ = close_session(state, "the pontes cannot reach the minimum banco")
        return closed, events + ("session ends",)
    return state, events


def pass_hand(table: TableConfig, policies: Policies, state: TableState) -> tuple[TableState, tuple[str, ...]]:
    """The banker passes the hand after a win (a suite): he takes bank and garage; the bank is offered at
    its amount from his right, then auctioned, and with no bid goes to the next player in turn."""
    amount, passer = state.bank, state.banker
    assert passer is not None
    state = pay_out_bank(state)
    order = seats_right_of(passer, table.seats)
    for seat in order:
        up_to = policies[seat].take_suite_up_to
        if up_to is not None and amount <= up_to and state.bankrolls[seat - 1] >= amount:
            opened, events = open_bank(table, policies, state, seat, amount, suite=True)
            return opened, ("suite taken",) + events
    bids: list[tuple[Fraction, int, int]] = []
    for i, seat in enumerate(order):
        bid = policies[seat].bid
        if bid is not None and state.bankrolls[seat - 1] >= bid:
            bids.append((bid, -i, seat))  # the highest bid; on equal bids, the nearest his right
    if bids:
        bid, _, seat = max(bids)
        opened, events = open_bank(table, policies, state, seat, bid, suite=True)
        return opened, ("auction",) + events
    opened, events = rotate(table, policies, state, state.turn % table.seats + 1)
    return opened, ("bank passes",) + events


def prime_order(table: TableConfig, state: TableState) -> list[int]:
    """The pontes in the order of the prime: from the banker's right, or during a suite from the right
    of the original banker's seat (the original banker, now a ponte, comes last)."""
    owners = state.owners()
    start_seat = state.turn if state.suite else state.banker
    assert start_seat is not None
    return [s for s in (*seats_right_of(start_seat, table.seats), start_seat) if s not in owners]


def gather_calls(table: TableConfig, policies: Policies, state: TableState) -> list[Call]:
    """The banco calls the pontes make against the bank, in seat order from the banker's right."""
    assert state.banker is not None
    bank, out = state.bank, []
    for seat in seats_right_of(state.banker, table.seats):
        if seat == state.co_banker:
            continue
        pol, money = policies[seat], state.bankrolls[seat - 1]
        if seat == state.suivi and pol.suivi and money >= bank:
            out.append(Call(seat, "suivi"))
        elif pol.banco != "none" and (pol.banco_up_to is None or bank <= pol.banco_up_to):
            need = part(bank, 2) if pol.banco in ("a_deux", "avec") else bank
            if money >= need:
                out.append(Call(seat, pol.banco))
    return out


def resolve_calls(calls: list[Call], order: list[int]) -> tuple[Call | None, int | None]:
    """The call that wins and banco à deux's partner: by the kind of call first (suivi, solo, à deux,
    avec, marche), then by the prime (earliest in ``order``).

    >>> resolve_calls([Call(3, "avec"), Call(5, "solo"), Call(4, "solo")], [2, 3, 4, 5])
    (Call(seat=4, kind='solo'), None)
    >>> resolve_calls([Call(3, "a_deux"), Call(6, "avec"), Call(5, "a_deux")], [2, 3, 4, 5, 6])
    (Call(seat=3, kind='a_deux'), 5)
    """
    if not calls:
        return None, None
    rank = {s: i for i, s in enumerate(order)}
    won = min(calls, key=lambda c: (CALL_RANK[c.kind], rank[c.seat]))
    partner = None
    if won.kind == "a_deux":
        others = sorted((c for c in calls if c.kind == "a_deux" and c.seat != won.seat), key=lambda c: rank[c.seat])
        partner = others[0].seat if others else None
    return won, partner


def _ordinary(
    table: TableConfig, policies: Policies, state: TableState, seats: list[int], room: Fraction
) -> list[tuple[int, int, Fraction]]:
    """Ordinary stakes of ``seats``, covered in that order until ``room`` is filled."""
    out: list[tuple[int, int, Fraction]] = []
    for seat in seats:
        want = offered_stake(table, policies, state, seat)
        take = min(want, room)
        if take <= 0:
            continue
        out.append((seat, 0, take))
        room -= take
    return out


def offered_stake(table: TableConfig, policies: Policies, state: TableState, seat: int) -> Fraction:
    """The stake ``seat`` offers: his policy's, at most his bankroll, none if below the minimum stake."""
    want = min(policies[seat].stake, state.bankrolls[seat - 1])
    return want if want >= table.stake_floor else ZERO


def prepare(table: TableConfig, policies: Policies, state: TableState) -> tuple[TableState, Stakes, tuple[str, ...]]:
    """Calls, stakes covered, the bank raised or the garage taken: everything before the cards.

    Returns the state with the bank as it stands for the coup, the stakes, and the events.
    """
    if state.carried is not None:
        return state, replace(state.carried, carried=True), ()
    banker = state.banker
    assert banker is not None
    pol = policies[banker]
    cover = [s for s in seats_right_of(banker, table.seats) if s != state.co_banker]
    prime = prime_order(table, state)
    calls = gather_calls(table, policies, state)
    won, partner = resolve_calls(calls, prime)
    bank = state.bank
    events: tuple[str, ...] = ()
    covered: list[tuple[int, int, Fraction]]
    if won is None:
        if pol.raise_bank and state.co_banker is None and state.bankrolls[banker - 1] > 0:
            wanted = sum((offered_stake(table, policies, state, s) for s in cover), ZERO)
            if wanted > bank:
                extra = min(wanted - bank, state.bankrolls[banker - 1])
                state = state.credit([(banker, -extra)]).evolve(bank=bank + extra)
                bank, events = state.bank, ("bank raised",)
        covered = _ordinary(table, policies, state, cover, bank)
    elif won.kind in ("suivi", "solo"):
        covered = [(won.seat, 0, bank)]
    elif won.kind == "a_deux" and partner is not None:
        covered = [(s, 0, part(bank, 2)) for s in cover if s in (won.seat, partner)]
    elif won.kind in ("a_deux", "avec"):
        others = [s for s in cover if s != won.seat]
        covered = [(won.seat, 0, part(bank, 2))] + _ordinary(table, policies, state, others, part(bank, 2))
    else:  # marche: the table's stakes stand, the caller takes the rest of the bank
        covered = _ordinary(table, policies, state, [s for s in cover if s != won.seat], bank)
        rest = bank - sum((a for _, _, a in covered), ZERO)
        if rest > 0:
            covered.append((won.seat, 0, rest))
    total = sum((a for _, _, a in covered), ZERO)
    if 0 < total < bank and state.wins >= 1 and pol.garage:
        state = state.evolve(bank=total, garage=state.garage + bank - total)
        events += ("garage",)
    rank = {s: i for i, s in enumerate(prime)}
    hand = min(covered, key=lambda c: (-c[2], rank[c[0]]))[0] if covered else None
    return state, Stakes(tuple(covered), tuple(calls), won, partner, (hand,)), events


def settle(
    table: TableConfig, policies: Policies, state: TableState, stakes: Stakes, outcome: Outcome, cut_seen: bool
) -> Settlement:
    """Pay the coup, then what follows it: the suite, the bank passing, a new shoe, the end."""
    banker = state.banker
    assert banker is not None
    total = stakes.total
    tax, net = ZERO, ZERO
    ended: tuple[int, ...] = ()
    events: tuple[str, ...] = ()
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
            state, more = pass_hand(table, policies, state)
            events = ("suite",) + more
    else:
        net = -total
        state = state.credit((s, a) for s, _, a in stakes.covered).evolve(bank=state.bank - total)
        ended = (state.held,)
        state = pay_out_bank(state)
        state, more = rotate(table, policies, state, state.turn % table.seats + 1)
        events = ("bank passes",) + more
    return finish(table, state, tax, events, net, ended, cut_seen, lambda st: can_play(table, policies, st, prepare))
