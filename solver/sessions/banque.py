"""Baccara banque's money, coup by coup: the bank for the session, two tableaux, bancos, the cagnotte.

The rules played (the seed's rule sheet; seats numbered as in :mod:`solver.sessions.config`):

* **The bank** is held for the session by the highest bidder of an auction (policy ``bid``; the
  lowest seat number breaks a tie); with no bid, by the first seat from seat 1 that takes it and can
  put up the minimum banco, with his policy's bank. The other seats form two tableaux: tableau 1 on
  the banker's right (the first half of the seats from his right), tableau 2 on his left.
* **The prime** runs nearest the banker first, right and left in turn: the nearest on tableau 1, the
  nearest on tableau 2, the second on tableau 1, … It orders the covering of stakes and decides
  between bancos.
* **Banque limitée**: the bank is a fixed sum; stakes are covered up to it in the order of the prime.
  It is **busted** when what is left cannot cover the minimum stake: the remains go back to the banker
  and the bank is auctioned again ("es erfolgt eine neue Versteigerung"); with no bid the session
  ends. Where the house allows it (``TableConfig.rebank``, "in einigen Casinos"), the busted banker
  may instead put up the original sum again (policy ``rebank``).
* **Banque ouverte**: the banker covers every stake, topping the bank up from his bankroll before the
  coup (to the minimum banco at least); a banker who cannot top up to the stakes offered gives up the
  bank ("nachschießen oder die Bank abgeben"), and one whose bank and bankroll together fall below the
  minimum banco is busted; the bank is then auctioned, and with no bid the session ends. There are no
  bancos ("Bei Banque ouverte gibt es natürlich keine Banco-Ansage").
* **Bancos** (banque limitée): ``solo`` takes the whole bank on the caller's tableau, ``cheval`` the
  whole bank half on each tableau; other stakes are refused. A player who did not win his banco may
  call it again first (suivi) — a third banco in a row, "aber kein weiteres Mal": after three bancos
  in a row he calls none on the next coup. Among competing bancos the prime decides; the first ``solo``
  on each tableau, when the prime's winner is one of them, share the bank equally (no suivi follows a
  shared banco).
* **The hand** on each tableau is played by its largest stake (the prime breaks a tie); a tableau
  without stakes is dealt all the same.
* **Settling**: each tableau is paid separately; a tie on a tableau moves nothing (its players stake
  afresh, by their policies, on the next coup). The **cagnotte** is the tax (2 % at limitée, 1.25 % at
  ouverte) of the banker's net winnings of the coup, wins and losses on the two tableaux netted; or,
  by the house rule ``capital_tax``, a share of each bank's capital, paid by the banker with the bank's
  first coup (a bank that never plays pays nothing) and reported as that coup's tax.
* **The end**: as at chemin de fer (last shoe, no one to hold the bank, the pontes' stakes short of
  the minimum banco).
"""

from __future__ import annotations

from fractions import Fraction

from solver.sessions.config import TableConfig, seats_right_of
from solver.sessions.deal import Outcome
from solver.sessions.money import ZERO, part, whole
from solver.sessions.policy import Policies
from solver.sessions.state import (
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
from solver.sessions.words import BanqueKind, CallKind, End, Event

MAX_BANCOS_IN_A_ROW = 3


def tableaux(table: TableConfig, banker: int) -> tuple[list[int], list[int]]:
    """Each tableau's players, nearest the banker first: tableau 1 on his right, tableau 2 on his left.

    >>> tableaux(TableConfig("banque"), 1)
    ([2, 3, 4, 5, 6], [10, 9, 8, 7])
    """
    others = seats_right_of(banker, table.seats)
    k = (len(others) + 1) // 2
    return list(others[:k]), list(others[k:][::-1])


def alternate(right: list[int], left: list[int]) -> list[int]:
    """The order of the prime: nearest the banker first, right and left in turn.

    >>> alternate([2, 3, 4], [7, 6])
    [2, 7, 3, 6, 4]
    """
    out = []
    for i in range(max(len(right), len(left))):
        out += right[i : i + 1] + left[i : i + 1]
    return out


def prime_order(table: TableConfig, banker: int) -> tuple[list[int], dict[int, int]]:
    """The players in the order of the prime, and each one's tableau."""
    right, left = tableaux(table, banker)
    return alternate(right, left), {s: 1 for s in right} | {s: 2 for s in left}


def start(table: TableConfig, policies: Policies) -> Opening:
    """The table before the first coup: every seat with its bankroll, the bank auctioned."""
    state = TableState(tuple(policies[s].bankroll for s in range(1, table.seats + 1)))
    return auction(table, policies, state, None)


def _fee(table: TableConfig, amount: Fraction) -> Fraction:
    return ZERO if table.capital_tax is None else whole(table.capital_tax * amount)


def ouverte_need(table: TableConfig, policies: Policies, state: TableState, banker: int) -> Fraction:
    """What a bank must hold at banque ouverte before a coup with ``banker``: every stake offered, and
    the minimum banco at least."""
    offered = sum((offered_stake(table, policies, state, s) for s in seats_right_of(banker, table.seats)), ZERO)
    return max(offered, table.minimum_banco)


def can_hold(table: TableConfig, policies: Policies, state: TableState, seat: int, amount: Fraction) -> bool:
    """Whether ``seat`` can open a bank of ``amount``: put it up with its capital tax and, at banque
    ouverte, top it up to the stakes of its first coup."""
    money, fee = state.bankrolls[seat - 1], _fee(table, amount)
    if table.banque is BanqueKind.OUVERTE:
        return money >= max(amount, ouverte_need(table, policies, state, seat)) + fee
    return money >= amount + fee


def auction(table: TableConfig, policies: Policies, state: TableState, exclude: int | None, first_taker: bool = True) -> Opening:
    """The bank to the highest bid (``exclude`` does not bid); with no bid, to the first seat from 1 that
    takes it (``first_taker``: the session's first bank), or the session ends."""
    n = table.seats
    bids = tuple(
        (seat, bid)
        for seat in range(1, n + 1)
        if seat != exclude and (bid := policies[seat].bid) is not None and can_hold(table, policies, state, seat, bid)
    )
    if bids:
        seat, bid = max(bids, key=lambda b: (b[1], -b[0]))
        return Opening(open_bank(table, state, seat, bid), (Event.AUCTION,), bids)
    if first_taker:
        for seat in range(1, n + 1):
            pol, money = policies[seat], state.bankrolls[seat - 1]
            amount = min(max(pol.bank, table.minimum_banco), money)
            if pol.take_bank and amount >= table.minimum_banco and can_hold(table, policies, state, seat, amount):
                return Opening(open_bank(table, state, seat, amount))
    closed, _ = close_session(state, End.NO_BANKER if first_taker else End.NO_BID)
    return Opening(closed, (Event.SESSION_ENDS,))


def open_bank(table: TableConfig, state: TableState, seat: int, amount: Fraction) -> TableState:
    """``seat`` holds the bank with ``amount``; under the capital-tax house rule the bank owes its tax,
    paid with its first coup."""
    return state.credit([(seat, -amount)]).evolve(
        banker=seat,
        turn=seat,
        bank=amount,
        capital=amount,
        capital_fee=_fee(table, amount),
        wins=0,
        held=0,
        suivi=None,
        streak=0,
    )


def gather_calls(table: TableConfig, policies: Policies, state: TableState, order: list[int]) -> list[Call]:
    """The banco calls against the bank, in the order of the prime (none at banque ouverte)."""
    if table.banque is BanqueKind.OUVERTE:
        return []
    bank, calls = state.bank, []
    for seat in order:
        pol = policies[seat]
        if pol.banco is None and seat != state.suivi:
            continue  # most players: no call to weigh
        money = state.bankrolls[seat - 1]
        if not 0 < bank <= money:
            continue
        if seat == state.suivi:
            if state.streak >= MAX_BANCOS_IN_A_ROW:
                continue  # a third banco in a row, but no more
            if pol.suivi:
                calls.append(Call(seat, CallKind.SUIVI))
                continue
        if pol.banco is not None and (pol.banco_up_to is None or bank <= pol.banco_up_to):
            calls.append(Call(seat, pol.banco))
    return calls


def resolve_calls(calls: list[Call], side: dict[int, int]) -> tuple[Call | None, int | None]:
    """The winning banco (``calls`` in the order of the prime) and a second banco sharing the bank.

    A suivi first; else the prime. When the winner is a ``solo`` and the first call from the other
    tableau is a ``solo`` too, the two share the bank.

    >>> side = {2: 1, 7: 2, 3: 1, 6: 2}
    >>> won, partner = resolve_calls([Call(7, CallKind.SOLO), Call(3, CallKind.SOLO)], side)
    >>> won.seat, partner
    (7, 3)
    >>> won, partner = resolve_calls([Call(7, CallKind.CHEVAL), Call(3, CallKind.SOLO)], side)
    >>> won.seat, won.kind.value, partner
    (7, 'cheval', None)
    """
    if not calls:
        return None, None
    suivi = [c for c in calls if c.kind is CallKind.SUIVI]
    if suivi:
        return suivi[0], None
    won = calls[0]
    if won.kind is CallKind.SOLO:
        other = next((c for c in calls if side[c.seat] != side[won.seat]), None)
        if other is not None and other.kind is CallKind.SOLO:
            return won, other.seat
    return won, None


def stakes_offered(table: TableConfig, policies: Policies, state: TableState) -> Fraction:
    """The stakes the players offer for the coup, added (each his ordinary stake, or the bank if he
    calls banco and that is more)."""
    assert state.banker is not None
    order, _ = prime_order(table, state.banker)
    callers = {c.seat for c in gather_calls(table, policies, state, order)}
    total = ZERO
    for seat in order:
        stake = offered_stake(table, policies, state, seat)
        total += max(stake, state.bank) if seat in callers else stake
    return total


def prepare(table: TableConfig, policies: Policies, state: TableState) -> tuple[TableState, Stakes, tuple[Event, ...]]:
    """Calls, stakes covered, the bank topped up (ouverte): everything before the cards."""
    banker = state.banker
    assert banker is not None
    order, side = prime_order(table, banker)
    events: tuple[Event, ...] = ()
    offers = [(s, side[s], x) for s in order if (x := offered_stake(table, policies, state, s)) > 0]
    if table.banque is BanqueKind.OUVERTE:
        need = max(sum((x for _, _, x in offers), ZERO), table.minimum_banco)
        if state.bank < need:  # the settlement before made sure he can
            extra = need - state.bank
            assert extra <= state.bankrolls[banker - 1] - state.capital_fee
            state = state.credit([(banker, -extra)]).evolve(bank=whole(need))
            events = (Event.TOP_UP,)
    bank = state.bank
    calls = gather_calls(table, policies, state, order)
    won, partner = resolve_calls(calls, side)
    covered: list[tuple[int, int, Fraction]] = []
    if won is None:
        room = bank
        for seat, t, want in offers:
            take = min(want, room)
            if take <= 0:
                break
            covered.append((seat, t, take))
            room -= take
    elif partner is not None:
        covered = [(won.seat, side[won.seat], part(bank, 2)), (partner, side[partner], part(bank, 2))]
    else:
        kind = policies[won.seat].banco if won.kind is CallKind.SUIVI else won.kind
        covered = (
            [(won.seat, 1, part(bank, 2)), (won.seat, 2, part(bank, 2))]
            if kind is CallKind.CHEVAL
            else [(won.seat, side[won.seat], bank)]
        )
    near = {s: i for i, s in enumerate(order)}
    hands: list[int | None] = []
    for t in (1, 2):
        mine = [(a, -near[s], s) for s, tt, a in covered if tt == t]
        hands.append(max(mine)[2] if mine else None)
    return state, Stakes(tuple(covered), tuple(calls), won, partner, tuple(hands), offered=tuple(offers)), events


def follow(state: TableState, stakes: Stakes, result: Fraction) -> TableState:
    """Who may call banco suivi after this coup, and how many bancos in a row he has called: a banco
    not won (lost, or broken even on a banco that was itself a suivi) is followed; one won, a first
    banco that moved nothing, a shared banco or no banco, not."""
    won = stakes.won
    if won is None or stakes.partner is not None:
        return state.evolve(suivi=None, streak=0)
    following = state.suivi == won.seat
    if result < 0 or (result == 0 and following):
        return state.evolve(suivi=won.seat, streak=(state.streak if following else 0) + 1)
    return state.evolve(suivi=None, streak=0)


def settle(
    table: TableConfig, policies: Policies, state: TableState, stakes: Stakes, outcomes: tuple[Outcome, ...], cut_seen: bool
) -> Settlement:
    """Pay each tableau, take the cagnotte (or the capital tax), then what follows: a bust or a bank given
    up, a new shoe, the end."""
    banker = state.banker
    assert banker is not None
    pays = [
        (s, a if outcomes[t - 1] is Outcome.PONTE else -a if outcomes[t - 1] is Outcome.BANKER else ZERO)
        for s, t, a in stakes.covered
    ]
    net_win = -sum((x for _, x in pays), ZERO)
    tax = whole(table.tax_rate * max(net_win, ZERO))
    fee = state.capital_fee  # the capital tax, with the bank's first coup
    state = state.credit([*pays, (banker, -fee)])
    state = state.evolve(
        bank=whole(state.bank + net_win - tax),
        house=whole(state.house + tax + fee),
        capital_fee=ZERO,
        held=state.held + 1,
        wins=state.wins + (net_win > 0),
    )
    if stakes.won is not None:
        state = follow(state, stakes, sum((x for s, x in pays if s == stakes.won.seat), ZERO))
    else:
        state = state.evolve(suivi=None, streak=0)
    events: tuple[Event, ...] = ()
    ended: tuple[int, ...] = ()
    bids: tuple[tuple[int, Fraction], ...] = ()
    held = state.bank + state.bankrolls[banker - 1]
    broke: tuple[Event, ...]
    if table.banque is BanqueKind.LIMITEE:
        broke = (Event.BUSTED,) if state.bank < table.stake_floor else ()
    elif held < table.minimum_banco:
        broke = (Event.BUSTED,)
    else:
        broke = (Event.BANK_GIVEN_UP,) if held < ouverte_need(table, policies, state, banker) else ()
    if broke:
        ended, events = (state.held,), broke
        capital = state.capital
        state = pay_out_bank(state)
        if (
            broke == (Event.BUSTED,)
            and table.rebank
            and policies[banker].rebank
            and can_hold(table, policies, state, banker, capital)
        ):
            more: tuple[Event, ...] = (Event.REBANK,)
            state = open_bank(table, state, banker, capital)
        else:
            opened = auction(table, policies, state, banker, first_taker=False)
            state, more, bids = opened.state, opened.events, opened.bids
        events += more
    return finish(
        table,
        state,
        tax + fee,
        events,
        net_win - tax - fee,
        ended,
        cut_seen,
        lambda st: stakes_offered(table, policies, st),
        bids,
    )
