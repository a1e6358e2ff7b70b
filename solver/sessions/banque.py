"""Baccara banque's money, coup by coup: the bank for the session, two tableaux, bancos, the cagnotte.

The rules played (the seed's rule sheet; seats numbered as in :mod:`solver.sessions.config`):

* **The bank** is held for the session by the highest bidder of an auction (policy ``bid``; the
  lowest seat number breaks a tie); with no bid, by the first seat from seat 1 that takes it and can
  put up the minimum banco, with his policy's bank. The other seats form two tableaux: tableau 1 on
  the banker's right (the first half of the seats from his right), tableau 2 on his left.
* **Banque limitée**: the bank is a fixed sum; stakes are covered up to it, nearest the banker first,
  right and left in turn (tableau 1's nearest, tableau 2's nearest, then the next on each side). It is
  **busted** when what is left cannot cover the minimum stake: the remains go back to the banker, who
  puts up the original sum again (policy ``rebank``) or loses the bank to a new auction; with no bid
  the session ends. **Banque ouverte**: the banker covers any stake, topping the bank up from his
  bankroll before the coup; he is busted when bank and bankroll together fall below the minimum banco.
* **Bancos**: ``solo`` takes the whole bank on the caller's tableau, ``cheval`` the whole bank half on
  each tableau; other stakes are refused. The player who lost a banco may call it again first (suivi),
  at most three bancos in a row. Bancos from both tableaux at once (the nearest caller on each side):
  two ``solo`` calls share the bank equally, each on his own tableau; if either is ``cheval``, the
  prime decides, alternating right, left, right, … (tableau 1 first).
* **The hand** on each tableau is played by its largest stake (nearest the banker on a tie); a
  tableau without stakes is dealt all the same.
* **Settling**: each tableau is paid separately; a tie on a tableau moves nothing (its players stake
  afresh, by their policies, on the next coup). The **cagnotte** is the tax (2 % at limitée, 1.25 % at
  ouverte) of the banker's net winnings of the coup, wins and losses on the two tableaux netted; or,
  by the house rule ``capital_tax``, a share of the bank's capital paid by the banker once, when the
  bank opens (the log reports it as the tax of the coup it follows, or of the first coup).
* **The end**: as at chemin de fer (last shoe, pontes short of the minimum banco, no stakes, no bank).
"""

from __future__ import annotations

from fractions import Fraction

from solver.sessions.config import TableConfig, seats_right_of
from solver.sessions.deal import Outcome
from solver.sessions.money import ZERO, part, whole
from solver.sessions.policy import Policies
from solver.sessions.state import Call, Settlement, Stakes, TableState, can_play, close_session, finish, pay_out_bank

MAX_BANCOS_IN_A_ROW = 3


def tableaux(table: TableConfig, banker: int) -> tuple[list[int], list[int]]:
    """Each tableau's players, nearest the banker first: tableau 1 on his right, tableau 2 on his left.

    >>> tableaux(TableConfig("banque"), 1)
    ([2, 3, 4, 5, 6], [10, 9, 8, 7])
    """
    others = seats_right_of(banker, table.seats)
    k = (len(others) + 1) // 2
    return list(others[:k]), list(others[k:][::-1])


def start(table: TableConfig, policies: Policies) -> tuple[TableState, tuple[str, ...]]:
    """The table before the first coup: every seat with its bankroll, the bank auctioned."""
    state = TableState(tuple(policies[s].bankroll for s in range(1, table.seats + 1)))
    return auction(table, policies, state, None)


def _fee(table: TableConfig, amount: Fraction) -> Fraction:
    return ZERO if table.capital_tax is None else table.capital_tax * amount


def auction(table: TableConfig, policies: Policies, state: TableState, exclude: int | None) -> tuple[TableState, tuple[str, ...]]:
    """The bank to the highest bid (``exclude`` does not bid); with no bid, to the first seat from 1 that
    takes it; with no one, the session ends."""
    n = table.seats
    bids = []
    for seat in range(1, n + 1):
        bid, money = policies[seat].bid, state.bankrolls[seat - 1]
        if seat != exclude and bid is not None and money >= bid + _fee(table, bid):
            bids.append((bid, -seat))
    if bids:
        bid, neg = max(bids)
        return open_bank(table, state, -neg, bid, ("auction",))
    for seat in range(1, n + 1):
        pol, money = policies[seat], state.bankrolls[seat - 1]
        amount = min(max(pol.bank, table.minimum_banco), money)
        if seat != exclude and pol.take_bank and amount >= table.minimum_banco and money >= amount + _fee(table, amount):
            return open_bank(table, state, seat, amount, ())
    closed, _ = close_session(state, "no one can hold the bank")
    return closed, ("session ends",)


def open_bank(
    table: TableConfig, state: TableState, seat: int, amount: Fraction, events: tuple[str, ...]
) -> tuple[TableState, tuple[str, ...]]:
    """``seat`` holds the bank with ``amount``, and pays the capital tax if the house rule applies (it is
    reported with the coup it comes after, or with the first coup)."""
    fee = _fee(table, amount)
    state = state.credit([(seat, -amount - fee)]).evolve(
        banker=seat,
        turn=seat,
        bank=amount,
        capital=amount,
        house=whole(state.house + fee),
        wins=0,
        held=0,
        suivi=None,
        streak=0,
        capital_due=whole(state.capital_due + fee),
    )
    if not state.pontes_reach(table.minimum_banco):
        closed, _ = close_session(state, "the pontes cannot reach the minimum banco")
        return closed, events + ("session ends",)
    return state, events


def alternate(right: list[int], left: list[int]) -> list[int]:
    """Nearest the banker first, right and left in turn.

    >>> alternate([2, 3, 4], [7, 6])
    [2, 7, 3, 6, 4]
    """
    out = []
    for i in range(max(len(right), len(left))):
        out += right[i : i + 1] + left[i : i + 1]
    return out


def _offered(table: TableConfig, policies: Policies, state: TableState, seat: int) -> Fraction:
    want = min(policies[seat].stake, state.bankrolls[seat - 1])
    return want if want >= table.stake_floor else ZERO


def resolve_calls(calls: list[Call], right: list[int], left: list[int], prime: int) -> tuple[Call | None, int | None, int]:
    """The winning banco, a second banco sharing the bank, and the prime for next time.

    >>> r, l = [2, 3, 4], [7, 6, 5]
    >>> resolve_calls([Call(3, "solo"), Call(6, "solo")], r, l, 1)
    (Call(seat=3, kind='solo'), 6, 1)
    >>> resolve_calls([Call(3, "solo"), Call(6, "cheval")], r, l, 2)
    (Call(seat=6, kind='cheval'), None, 1)
    """
    suivi = [c for c in calls if c.kind == "suivi"]
    if suivi:
        return suivi[0], None, prime
    side = [next((c for s in seats for c in calls if c.seat == s), None) for seats in (right, left)]
    c1, c2 = side
    if c1 is not None and c2 is not None:
        if c1.kind == "solo" and c2.kind == "solo":
            return c1, c2.seat, prime
        return (c1 if prime == 1 else c2), None, 3 - prime
    return (c1 or c2), None, prime


def prepare(table: TableConfig, policies: Policies, state: TableState) -> tuple[TableState, Stakes, tuple[str, ...]]:
    """Calls, stakes covered, the bank topped up (ouverte): everything before the cards."""
    banker = state.banker
    assert banker is not None
    right, left = tableaux(table, banker)
    side = {s: 1 for s in right} | {s: 2 for s in left}
    events: tuple[str, ...] = ()
    if table.banque == "ouverte" and state.bank < table.minimum_banco:  # the bank stands at the minimum banco at least
        extra = min(table.minimum_banco - state.bank, state.bankrolls[banker - 1])
        if extra > 0:
            state = state.credit([(banker, -extra)]).evolve(bank=state.bank + extra)
            events = ("top up",)
    bank = state.bank
    order = alternate(right, left)
    calls = []
    for seat in order:
        pol, money = policies[seat], state.bankrolls[seat - 1]
        if seat == state.suivi and state.streak < MAX_BANCOS_IN_A_ROW and pol.suivi and 0 < bank <= money:
            calls.append(Call(seat, "suivi"))
        elif pol.banco != "none" and 0 < bank <= money and (pol.banco_up_to is None or bank <= pol.banco_up_to):
            calls.append(Call(seat, pol.banco))
    won, partner, prime = resolve_calls(calls, right, left, state.prime)
    state = state.evolve(prime=prime)
    covered: list[tuple[int, int, Fraction]] = []
    if won is None:
        if table.banque == "ouverte":
            wanted = sum((_offered(table, policies, state, s) for s in order), ZERO)
            extra = min(max(wanted - bank, ZERO), state.bankrolls[banker - 1])
            if extra > 0:
                state = state.credit([(banker, -extra)]).evolve(bank=bank + extra)
                bank, events = state.bank, ("top up",)
        room = bank
        for seat in order:
            take = min(_offered(table, policies, state, seat), room)
            if take > 0:
                covered.append((seat, side[seat], take))
                room -= take
    elif partner is not None:
        covered = [(won.seat, side[won.seat], part(bank, 2)), (partner, side[partner], part(bank, 2))]
    else:
        kind = policies[won.seat].banco if won.kind == "suivi" else won.kind
        covered = (
            [(won.seat, 1, part(bank, 2)), (won.seat, 2, part(bank, 2))]
            if kind == "cheval"
            else [(won.seat, side[won.seat], bank)]
        )
    near = {s: i for i, s in enumerate(order)}
    hands: list[int | None] = []
    for t in (1, 2):
        mine = [(a, -near[s], s) for s, tt, a in covered if tt == t]
        hands.append(max(mine)[2] if mine else None)
    return state, Stakes(tuple(covered), tuple(calls), won, partner, tuple(hands)), events


def settle(
    table: TableConfig, policies: Policies, state: TableState, stakes: Stakes, outcomes: tuple[Outcome, ...], cut_seen: bool
) -> Settlement:
    """Pay each tableau, take the cagnotte, then what follows: a bust, a new shoe, the end."""
    banker = state.banker
    assert banker is not None
    pays = [
        (s, a if outcomes[t - 1] is Outcome.PONTE else -a if outcomes[t - 1] is Outcome.BANKER else ZERO)
        for s, t, a in stakes.covered
    ]
    net_win = -sum((x for _, x in pays), ZERO)
    tax = whole(table.tax_rate * max(net_win, ZERO))
    state = state.credit(pays)
    state = state.evolve(
        bank=whole(state.bank + net_win - tax),
        house=whole(state.house + tax),
        held=state.held + 1,
        wins=state.wins + (net_win > 0),
    )
    won = stakes.won
    if won is not None and stakes.partner is None:
        result = sum((x for s, x in pays if s == won.seat), ZERO)
        if result < 0:  # he lost his banco: he may follow (suivi)
            state = state.evolve(suivi=won.seat, streak=(state.streak if state.suivi == won.seat else 0) + 1)
        elif result > 0 or state.suivi != won.seat:  # won it, or tied a first banco: no one follows
            state = state.evolve(suivi=None, streak=0)
    else:
        state = state.evolve(suivi=None, streak=0)
    events: tuple[str, ...] = ()
    ended: tuple[int, ...] = ()
    broke = (
        state.bank < table.stake_floor
        if table.banque == "limitee"
        else state.bank + state.bankrolls[banker - 1] < table.minimum_banco
    )
    if broke:
        ended, events = (state.held,), ("busted",)
        capital = state.capital
        state = pay_out_bank(state)
        if (
            table.banque == "limitee"
            and policies[banker].rebank
            and state.bankrolls[banker - 1] >= capital + _fee(table, capital)
        ):
            state, more = open_bank(table, state, banker, capital, ("rebank",))
        else:
            state, more = auction(table, policies, state, banker)
        events += more
    fee = state.capital_due  # capital tax paid since the last report
    state = state.evolve(capital_due=ZERO)
    return finish(
        table, state, tax + fee, events, net_win - tax - fee, ended, cut_seen, lambda st: can_play(table, policies, st, prepare)
    )
