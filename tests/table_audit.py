"""An independent auditor of ``baccarat table --log`` files: it replays every session from the log's
header and the rules of docs/table-log.md alone, and says where a line breaks a rule.

It imports nothing of the solver: the rules of the money (chemin de fer, banque limitée and ouverte),
the drawing rules (the rule sheet's casino tableau, or the parlor game's), the shoe (its composition,
the burn, the cut card) and the log's format are written here again, from the documentation, as plain
mutable Python. For every coup it works out what the rules demand — who banks, which calls are made
and which wins, every stake offered and what is covered, the garage, the hand, whether each third
card was allowed, the outcome, the payments, the tax, the bank after, the suite, the auction, the
bust, the end — and compares each with the line. Mixed draws cannot be replayed (the log does not hold
the random numbers): a draw is accepted where the strategy in the header gives it a positive
probability, and a fixed cell must be played as the tableau fixes it.

Use: ``audit(lines)`` with the log's parsed lines; it returns an :class:`Audit` (what it checked) or
raises :class:`AuditError` naming the session, the coup and the rule.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

RANK_TOKENS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
TOKEN_VALUE = {t: (i + 1) % 10 if i < 9 else 0 for i, t in enumerate(RANK_TOKENS)} | {"0": 0}
CALL_ORDER = {"suivi": -1, "solo": 0, "a_deux": 1, "avec": 2, "marche": 3}
STOOD = "S"
# The rule sheet's casino tableau: the ponte draws on 0-4, is free at 5, stands on 6-7; the banker's
# row for each total, against the ponte's third card 0-9 and then S (the ponte stood).
CASINO_BANKER = (
    "DDDDDDDDDDD",
    "DDDDDDDDDDD",
    "DDDDDDDDDDD",
    "DDDDDDDDSFD",
    "SSDDDDDDSSD",
    "SSSSFDDDSSD",
    "SSSSSSDDSSS",
    "SSSSSSSSSSS",
)
PONTE_ROW = "DDDDDFSS"


class AuditError(AssertionError):
    """A line of the log breaks a rule."""


@dataclass
class Audit:
    """What the auditor checked: sessions, coups, events and calls seen, cards dealt."""

    sessions: int = 0
    coups: int = 0
    events: Counter[str] = field(default_factory=Counter)
    calls: Counter[str] = field(default_factory=Counter)
    ends: Counter[str] = field(default_factory=Counter)
    cards: int = 0
    totals: dict[str, Fraction] = field(default_factory=lambda: {"tax": Fraction(0), "at_stake": Fraction(0)})


def amount(x: object, what: str) -> Fraction:
    """An exact amount as the log writes it: a JSON integer or a "p/q" string, never a float."""
    if isinstance(x, bool) or not isinstance(x, (int, str)) or (isinstance(x, str) and ("." in x or "e" in x.lower())):
        raise AuditError(f"{what}: {x!r} is not an exact amount")
    return Fraction(x)


def show(x: object) -> str:
    """A value for a message, amounts written as the log writes them."""
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in x.items()) + "}"
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(show(v) for v in x) + "]"
    return repr(x)


class Rules:
    """The header's table, policies and strategy, and the rules that follow from them."""

    def __init__(self, header: dict) -> None:  # type: ignore[type-arg]
        if header.get("type") != "header" or header.get("log") != "baccarat table log":
            raise AuditError("the first line is not the log's header")
        t = header["table"]
        self.game, self.seats = t["game"], t["seats"]
        self.mb, self.floor = amount(t["minimum_banco"], "minimum banco"), amount(t["minimum_stake"], "minimum stake")
        self.tax = amount(t["tax"], "tax")
        self.capital_tax = None if t["capital_tax"] is None else amount(t["capital_tax"], "capital tax")
        self.kind, self.rebank, self.shoes = t["banque"], t["rebank"], t["shoes"]
        shoe = t["shoe"]
        if "ranks" in shoe:
            self.composition = dict(zip(RANK_TOKENS, shoe["ranks"]))
        else:
            v = shoe["values"]
            self.composition = {"0": v[0], **{RANK_TOKENS[i]: v[i + 1] for i in range(9)}}
        self.size = sum(self.composition.values())
        self.burn, self.cut = t["burn"], t["cut"]
        self.tableau = t["tableau"]
        self.pol = {int(s): dict(p) for s, p in header["policies"]["seats"].items()}
        for p in self.pol.values():
            for k in ("bankroll", "stake", "bank"):
                p[k] = amount(p[k], k)
            for k in ("banco_up_to", "take_suite_up_to", "bid", "double_up_to"):
                p[k] = None if p[k] is None else amount(p[k], k)
        if set(self.pol) != set(range(1, self.seats + 1)):
            raise AuditError("the header does not give every seat's policy")
        st = header["strategy"]
        self.strategy = st
        self.cells = None if st.get("cells") is None else {k: Fraction(v) for k, v in st["cells"].items()}
        self.own_tableau = st.get("tableau", self.tableau)
        self.sessions = header["sessions"]

    def right_of(self, seat: int) -> list[int]:
        return [(seat + k - 1) % self.seats + 1 for k in range(1, self.seats)]

    # -- drawing --------------------------------------------------------------------------------

    @staticmethod
    def fixed(tableau: str, ponte: bool, total: int, seen: str | None) -> str:
        """``D``, ``S`` or ``F`` (free) for a cell of ``tableau`` (casino, parlor, or free: nothing fixed)."""
        if tableau == "free":
            return "F"
        if ponte:
            return PONTE_ROW[total]
        if tableau == "parlor":
            return "F"
        return CASINO_BANKER[total][10 if seen == STOOD else int(seen)]  # type: ignore[arg-type]

    def chance(self, ponte: bool, cards: tuple[int, int], seen: str | None) -> Fraction | None:
        """The strategy's probability of drawing (``None``: the header gives no cells to read)."""
        total = sum(cards) % 10
        if self.cells is None:
            return None
        a, b = sorted(cards)
        side, tail = ("P", "") if ponte else ("B", f"/{seen}")
        for key in (f"{side}{a}+{b}{tail}", f"{side}{total}{tail}"):
            if key in self.cells:
                return self.cells[key]
        action = self.fixed(self.own_tableau, ponte, total, seen)
        if action == "F":
            raise AuditError(f"the strategy leaves {side}{total}{tail} free and gives no probability for it")
        return Fraction(1 if action == "D" else 0)

    def check_draw(self, ponte: bool, cards: tuple[int, int], seen: str | None, drew: bool, where: str) -> None:
        """A decision: as the table's tableau fixes it, and possible under the strategy."""
        total = sum(cards) % 10
        action = self.fixed(self.tableau, ponte, total, seen)
        cell = ("P" if ponte else "B") + str(total) + ("" if ponte else f"/{seen}")
        if action != "F" and drew != (action == "D"):
            raise AuditError(f"{where}: {'drew' if drew else 'stood'} on {cell}, which the {self.tableau} tableau fixes")
        p = self.chance(ponte, cards, seen)
        if p is not None and not (p > 0 if drew else p < 1):
            raise AuditError(f"{where}: {'drew' if drew else 'stood'} on {cell}, which the strategy never does (p = {p})")

    def banker_chance(self, cards: tuple[int, int], seen: list[str | None], stakes: tuple[Fraction, Fraction]) -> Fraction | None:
        """Baccara banque's banker under chemin de fer on each tableau: the decision against each live
        tableau; where they differ, the one for the larger stake (tableau 1 on equal stakes)."""
        live = [t for t in (0, 1) if seen[t] is not None]
        r = [self.chance(False, cards, seen[t]) if seen[t] is not None else None for t in (0, 1)]
        if len(live) == 1:
            return r[live[0]]
        if r[0] == r[1]:
            return r[0]
        return r[0] if stakes[0] >= stakes[1] else r[1]


@dataclass
class Table:
    """One session's table as the auditor replays it."""

    bankrolls: dict[int, Fraction]
    house: Fraction = Fraction(0)
    banker: int | None = None
    co: int | None = None
    turn: int = 1
    suite: bool = False
    bank: Fraction = Fraction(0)
    garage: Fraction = Fraction(0)
    wins: int = 0
    suivi: int | None = None
    streak: int = 0
    carried: dict | None = None  # type: ignore[type-arg]
    capital: Fraction = Fraction(0)
    fee: Fraction = Fraction(0)
    ended: str | None = None
    events: list[str] = field(default_factory=list)
    bids: list[tuple[int, Fraction]] = field(default_factory=list)

    def owners(self) -> list[int]:
        return [] if self.banker is None else [self.banker] + ([self.co] if self.co is not None else [])

    def pay_out(self) -> None:
        owners = self.owners()
        for s in owners:
            self.bankrolls[s] += (self.bank + self.garage) / len(owners)
        self.banker = self.co = None
        self.bank = self.garage = self.fee = Fraction(0)
        self.suite, self.wins, self.suivi, self.streak, self.carried = False, 0, None, 0, None

    def end(self, reason: str) -> None:
        self.pay_out()
        self.ended = reason
        self.events.append("session ends")


class Session:
    """Replays one session's lines."""

    def __init__(self, rules: Rules, number: int, audit: Audit) -> None:
        self.r, self.n, self.audit = rules, number, audit
        self.t = Table({s: p["bankroll"] for s, p in rules.pol.items()})
        self.shoe, self.used, self.consumed, self.cut_seen = 0, Counter[str](), 0, True
        self.coup = 0
        self.where = f"session {number}, before its first coup"

    def fail(self, message: str) -> AuditError:
        return AuditError(f"{self.where}: {message}")

    def same(self, what: str, logged: object, expected: object) -> None:
        if logged != expected:
            raise self.fail(f"{what} is {show(logged)}; the rules say {show(expected)}")

    # -- the bank ---------------------------------------------------------------------------------

    def offer(self, seat: int) -> Fraction:
        want = min(self.r.pol[seat]["stake"], self.t.bankrolls[seat])
        return want if want >= self.r.floor else Fraction(0)

    def open_chemin(self, seat: int, amount_: Fraction, suite: bool) -> None:
        t = self.t
        t.bankrolls[seat] -= amount_
        t.banker, t.co, t.bank, t.garage, t.suite, t.wins, t.suivi, t.carried = (
            seat,
            None,
            amount_,
            Fraction(0),
            suite,
            0,
            None,
            None,
        )
        for other in self.r.right_of(seat):
            up_to = self.r.pol[other]["double_up_to"]
            if up_to is not None and amount_ <= up_to and t.bankrolls[other] >= amount_:
                t.bankrolls[other] -= amount_
                t.co, t.bank = other, 2 * amount_
                t.events.append("banco double")
                return

    def rotate(self, first: int) -> None:
        t, r = self.t, self.r
        for k in range(r.seats):
            seat = (first - 1 + k) % r.seats + 1
            pol = r.pol[seat]
            if pol["take_bank"] and t.bankrolls[seat] >= r.mb:
                t.turn = seat
                self.open_chemin(seat, min(max(pol["bank"], r.mb), t.bankrolls[seat]), False)
                return
        t.end("no one can hold the bank")

    def pass_hand(self) -> None:
        t, r = self.t, self.r
        passer, price = t.banker, max(t.bank, r.mb)
        t.pay_out()
        order = [s for s in [*r.right_of(t.turn), t.turn] if s != passer]
        for seat in order:
            up_to = r.pol[seat]["take_suite_up_to"]
            if up_to is not None and price <= up_to and t.bankrolls[seat] >= price:
                t.events.append("suite taken")
                self.open_chemin(seat, price, True)
                return
        bids = [(s, r.pol[s]["bid"]) for s in order if r.pol[s]["bid"] is not None and t.bankrolls[s] >= r.pol[s]["bid"]]
        if bids:
            best = max(b for _, b in bids)
            seat = next(s for s, b in bids if b == best)  # the first in the order of the prime
            t.events.append("auction")
            t.bids += sorted(bids)
            self.open_chemin(seat, best, True)
            return
        t.events.append("bank passes")
        self.rotate(t.turn % r.seats + 1)

    def fee_on(self, x: Fraction) -> Fraction:
        return Fraction(0) if self.r.capital_tax is None else self.r.capital_tax * x

    def ouverte_need(self, banker: int) -> Fraction:
        return max(sum((self.offer(s) for s in self.r.right_of(banker)), Fraction(0)), self.r.mb)

    def can_hold(self, seat: int, x: Fraction) -> bool:
        money = self.t.bankrolls[seat]
        if self.r.kind == "ouverte":
            return money >= max(x, self.ouverte_need(seat)) + self.fee_on(x)
        return money >= x + self.fee_on(x)

    def open_banque(self, seat: int, x: Fraction) -> None:
        t = self.t
        t.bankrolls[seat] -= x
        t.banker, t.turn, t.bank, t.capital, t.fee, t.suivi, t.streak = seat, seat, x, x, self.fee_on(x), None, 0

    def auction(self, exclude: int | None, first_taker: bool) -> None:
        t, r = self.t, self.r
        bids = [
            (s, r.pol[s]["bid"])
            for s in range(1, r.seats + 1)
            if s != exclude and r.pol[s]["bid"] is not None and self.can_hold(s, r.pol[s]["bid"])
        ]
        if bids:
            best = max(b for _, b in bids)
            t.events.append("auction")
            t.bids += bids
            self.open_banque(min(s for s, b in bids if b == best), best)
            return
        if first_taker:
            for s in range(1, r.seats + 1):
                x = min(max(r.pol[s]["bank"], r.mb), t.bankrolls[s])
                if r.pol[s]["take_bank"] and x >= r.mb and self.can_hold(s, x):
                    self.open_banque(s, x)
                    return
        t.end("no one can hold the bank" if first_taker else "no one bids for the bank")

    # -- calls and stakes -----------------------------------------------------------------------

    def tableaux(self) -> tuple[list[int], dict[int, int]]:
        others = self.r.right_of(self.t.banker)  # type: ignore[arg-type]
        k = (len(others) + 1) // 2
        right, left = others[:k], others[k:][::-1]
        order = [s for i in range(max(len(right), len(left))) for s in (right[i : i + 1] + left[i : i + 1])]
        return order, {s: 1 for s in right} | {s: 2 for s in left}

    def order(self) -> list[int]:
        if self.r.game == "banque":
            return self.tableaux()[0]
        start = self.t.turn if self.t.suite else self.t.banker
        return [s for s in [*self.r.right_of(start), start] if s not in self.t.owners()]  # type: ignore[arg-type]

    def calls(self, order: list[int]) -> list[tuple[int, str]]:
        t, r, out = self.t, self.r, []
        for seat in order:
            pol, money = r.pol[seat], t.bankrolls[seat]
            if r.game == "chemin":
                if seat == t.suivi and pol["suivi"] and money >= t.bank:
                    out.append((seat, "suivi"))
                elif pol["banco"] != "none" and (pol["banco_up_to"] is None or t.bank <= pol["banco_up_to"]):
                    need = t.bank / 2 if pol["banco"] in ("a_deux", "avec") else t.bank
                    if money >= need:
                        out.append((seat, pol["banco"]))
                continue
            if r.kind == "ouverte" or not 0 < t.bank <= money:
                continue
            if seat == t.suivi:
                if t.streak >= 3:
                    continue
                if pol["suivi"]:
                    out.append((seat, "suivi"))
                    continue
            if pol["banco"] != "none" and (pol["banco_up_to"] is None or t.bank <= pol["banco_up_to"]):
                out.append((seat, pol["banco"]))
        return out

    def offered_total(self) -> Fraction:
        """The pontes' stakes for the next coup, added (a caller: his banco if more than his stake)."""
        order = self.order()
        callers = dict(self.calls(order))
        total = Fraction(0)
        for seat in order:
            stake, kind = self.offer(seat), callers.get(seat)
            if kind is None:
                total += stake
            else:
                total += max(stake, self.t.bank / 2 if kind in ("a_deux", "avec") else self.t.bank)
        return total

    def check_next(self, cut: bool) -> None:
        """After a coup (or the opening): the session's end, or a new shoe."""
        t = self.t
        if t.ended is None:
            if cut and self.shoe >= self.r.shoes:
                t.end("shoes finished")
            elif t.carried is None and self.offered_total() < self.r.mb:
                t.end("the pontes' stakes fall short of the minimum banco")

    # -- one coup --------------------------------------------------------------------------------

    def stakes_json(self, entries: list[tuple[int, int, Fraction]]) -> dict:  # type: ignore[type-arg]
        if self.r.game == "chemin":
            return {str(s): a for s, _, a in entries}
        return {str(tab): {str(s): a for s, tt, a in entries if tt == tab} for tab in (1, 2)}

    def read_stakes(self, x: dict) -> dict:  # type: ignore[type-arg]
        if self.r.game == "chemin":
            return {k: amount(v, "stake") for k, v in x.items()}
        return {tab: {k: amount(v, "stake") for k, v in x[tab].items()} for tab in ("1", "2")}

    def prepare(
        self,
    ) -> tuple[
        list[tuple[int, int, Fraction]],
        list[tuple[int, str]],
        tuple[int, str] | None,
        int | None,
        list[tuple[int, int, Fraction]],
        list[str],
    ]:
        t, r = self.t, self.r
        pre: list[str] = []
        order = self.order()
        side = self.tableaux()[1] if r.game == "banque" else {s: 0 for s in order}
        offers = [(s, side[s], self.offer(s)) for s in order if self.offer(s) > 0]
        if r.game == "banque" and r.kind == "ouverte":
            need = max(sum((x for _, _, x in offers), Fraction(0)), r.mb)
            if t.bank < need:
                if need - t.bank > t.bankrolls[t.banker] - t.fee:  # type: ignore[index]
                    raise self.fail("the ouverte banker cannot top the bank up to the stakes, yet holds it")
                t.bankrolls[t.banker] -= need - t.bank  # type: ignore[index]
                t.bank = need
                pre.append("top up")
        calls = self.calls(order)
        rank = {s: i for i, s in enumerate(order)}
        won, partner = None, None
        if calls and r.game == "chemin":
            won = min(calls, key=lambda c: (CALL_ORDER[c[1]], rank[c[0]]))
            if won[1] == "a_deux":
                partner = next((s for s, k in calls if k == "a_deux" and s != won[0]), None)
        elif calls:
            suivi = [c for c in calls if c[1] == "suivi"]
            won = suivi[0] if suivi else calls[0]
            if not suivi and won[1] == "solo":
                other = next((c for c in calls if side[c[0]] != side[won[0]]), None)
                partner = other[0] if other is not None and other[1] == "solo" else None
        bank = t.bank
        covered: list[tuple[int, int, Fraction]] = []

        def cover(items: list[tuple[int, int, Fraction]], room: Fraction) -> list[tuple[int, int, Fraction]]:
            out = []
            for s, tab, x in items:
                if room <= 0:
                    break
                out.append((s, tab, min(x, room)))
                room -= min(x, room)
            return out

        if won is None:
            pol = r.pol[t.banker]  # type: ignore[index]
            wanted = sum((x for _, _, x in offers), Fraction(0))
            if r.game == "chemin" and pol["raise_bank"] and t.co is None and t.bankrolls[t.banker] > 0 and wanted > bank:  # type: ignore[index]
                extra = min(wanted - bank, t.bankrolls[t.banker])  # type: ignore[index]
                t.bankrolls[t.banker] -= extra  # type: ignore[index]
                t.bank = bank = bank + extra
                pre.append("bank raised")
            covered = cover(offers, bank)
        elif r.game == "banque":
            if partner is not None:
                covered = [(won[0], side[won[0]], bank / 2), (partner, side[partner], bank / 2)]
            else:
                kind = r.pol[won[0]]["banco"] if won[1] == "suivi" else won[1]
                covered = [(won[0], 1, bank / 2), (won[0], 2, bank / 2)] if kind == "cheval" else [(won[0], side[won[0]], bank)]
        elif won[1] in ("suivi", "solo"):
            covered = [(won[0], 0, bank)]
        elif won[1] == "a_deux" and partner is not None:
            covered = [(s, 0, bank / 2) for s in order if s in (won[0], partner)]
        else:
            others = cover([o for o in offers if o[0] != won[0]], bank / 2)
            mine = bank - sum((x for _, _, x in others), Fraction(0)) if won[1] == "marche" else bank / 2
            covered = [(won[0], 0, mine), *others]
        total = sum((x for _, _, x in covered), Fraction(0))
        if r.game == "chemin" and 0 < total < bank and r.pol[t.banker]["garage"]:  # type: ignore[index]
            t.garage += bank - total
            t.bank = total
            pre.append("garage")
        return covered, calls, won, partner, offers, pre

    def coup_line(self, line: dict) -> None:  # type: ignore[type-arg]
        t = self.t
        self.coup += 1
        self.where = f"session {self.n}, coup {self.coup}"
        if t.ended is not None:
            raise self.fail("a coup after the session ended")
        self.same("coup", line["coup"], self.coup)
        self.same("banker", line["banker"], t.banker)
        self.same("co_banker", line["co_banker"], t.co)
        if t.carried is not None:  # a tie: the same stakes are played again
            c = t.carried
            covered, calls, won, partner, offers, pre = c["covered"], c["calls"], c["won"], c["partner"], c["offers"], []
        else:
            covered, calls, won, partner, offers, pre = self.prepare()
        t.events += pre
        made = [{"seat": s, "call": k} for s, k in calls]
        expected_calls: dict[str, object] = {"made": made, "won": None if won is None else {"seat": won[0], "call": won[1]}}
        if partner is not None:
            expected_calls["partner"] = partner
        if t.carried is not None:
            expected_calls["carried"] = True
        self.same("calls", line["calls"], expected_calls)
        self.same("offered", self.read_stakes(line["offered"]), self.stakes_json(offers))
        self.same("stakes", self.read_stakes(line["stakes"]), self.stakes_json(covered))
        total = sum((x for _, _, x in covered), Fraction(0))
        self.same("bank (the sum at stake)", amount(line["bank"], "bank"), total)
        if total <= 0:
            raise self.fail("a coup dealt with nothing at stake")
        for s, _, x in covered:
            if s in t.owners() or x > t.bankrolls[s]:
                raise self.fail(f"seat {s} stakes {x} and may not")
        self.check_hands(line, covered)
        outcomes = self.check_cards(line, covered)
        self.settle(line, covered, won, partner, outcomes, calls, offers)

    def check_hands(self, line: dict, covered: list[tuple[int, int, Fraction]]) -> None:  # type: ignore[type-arg]
        order = self.order() if self.t.carried is None or self.r.game == "banque" else self.t.carried["order"]
        rank = {s: i for i, s in enumerate(order)}

        def hand(tab: int) -> int | None:
            mine = [(x, -rank[s], s) for s, tt, x in covered if tt == tab]
            return max(mine)[2] if mine else None

        if self.r.game == "chemin":
            self.same("ponte (the hand)", line["ponte"], hand(0))
        else:
            self.same("ponte (the hands)", line["ponte"], {"1": hand(1), "2": hand(2)})

    # -- the cards ------------------------------------------------------------------------------

    def take(self, tokens: list[str]) -> list[int]:
        for tok in tokens:
            if tok not in self.r.composition:
                raise self.fail(f"a card {tok!r} this shoe does not hold")
            self.used[tok] += 1
            if self.used[tok] > self.r.composition[tok]:
                raise self.fail(f"more cards {tok!r} than the shoe holds")
        self.consumed += len(tokens)
        self.audit.cards += len(tokens)
        return [TOKEN_VALUE[x] for x in tokens]

    def check_shoe(self, line: dict) -> None:  # type: ignore[type-arg]
        r = self.r
        if self.cut_seen:  # a new shoe: its burn
            self.shoe += 1
            self.used, self.consumed = Counter(), 0
            burned = line["burned"]
            if burned is None:
                raise self.fail("a new shoe without its burn")
            values = self.take(burned)
            mode = r.burn["mode"]
            want = (
                0
                if mode == "none"
                else r.burn["count"]
                if mode == "fixed"
                else 1 + (10 if values and values[0] == 0 else values[0] if values else 0)
            )
            self.same("burned (how many)", len(burned), want)
        elif line["burned"] is not None:
            raise self.fail("a burn in the middle of a shoe")
        self.same("shoe", line["shoe"], self.shoe)

    def check_cards(self, line: dict, covered: list[tuple[int, int, Fraction]]) -> list[str]:  # type: ignore[type-arg]
        r = self.r
        self.check_shoe(line)
        ranks, cards = line["ranks"], line["cards"]
        hands = {k: self.take(v) for k, v in ranks.items()}
        self.same("cards (values)", cards, hands)
        if r.game == "chemin":
            outcome = [self.check_chemin(hands["ponte"], hands["banker"])]
            self.same("outcome", line["outcome"], outcome[0])
        else:
            stakes = tuple(sum((x for _, tt, x in covered if tt == tab), Fraction(0)) for tab in (1, 2))
            outcome = self.check_banque(hands["1"], hands["2"], hands["banker"], stakes)  # type: ignore[arg-type]
            self.same("outcome", line["outcome"], {"1": outcome[0], "2": outcome[1]})
        cut = self.consumed > r.size - r.cut
        self.same("cut_card", line["cut_card"], cut)
        self.same("cards_left", line["cards_left"], r.size - self.consumed)
        self.cut_seen = cut
        return outcome

    @staticmethod
    def compare(p: int, b: int) -> str:
        return "banker" if b > p else "ponte" if p > b else "tie"

    def check_chemin(self, p: list[int], b: list[int]) -> str:
        pt, bt = sum(p[:2]) % 10, sum(b[:2]) % 10
        if pt >= 8 or bt >= 8:
            if len(p) != 2 or len(b) != 2:
                raise self.fail("a third card after a natural")
        else:
            self.r.check_draw(True, (p[0], p[1]), None, len(p) == 3, self.where)
            seen = str(p[2]) if len(p) == 3 else STOOD
            self.r.check_draw(False, (b[0], b[1]), seen, len(b) == 3, self.where)
        return self.compare(sum(p) % 10, sum(b) % 10)

    def check_banque(self, p1: list[int], p2: list[int], b: list[int], stakes: tuple[Fraction, Fraction]) -> list[str]:
        bt = sum(b[:2]) % 10
        seen: list[str | None] = [None, None]
        for k, p in enumerate((p1, p2)):
            natural = sum(p[:2]) % 10 >= 8
            if bt >= 8 or natural:
                if len(p) != 2:
                    raise self.fail(f"tableau {k + 1} drew after a natural")
                continue
            self.r.check_draw(True, (p[0], p[1]), None, len(p) == 3, self.where)
            seen[k] = str(p[2]) if len(p) == 3 else STOOD
        drew = len(b) == 3
        if bt >= 8 or seen == [None, None]:
            if drew:
                raise self.fail("the banker drew with nothing left to play for")
        else:
            for k in (0, 1):
                if seen[k] is not None:
                    action = self.r.fixed(self.r.tableau, False, bt, seen[k])
                    other = seen[1 - k]
                    agree = other is None or self.r.fixed(self.r.tableau, False, bt, other) == action
                    if action != "F" and agree and drew != (action == "D"):
                        raise self.fail(f"the banker {'drew' if drew else 'stood'} on B{bt}/{seen[k]}, which the tableau fixes")
            if self.r.strategy["kind"] == "chemin on each tableau":
                p = self.r.banker_chance((b[0], b[1]), seen, stakes)
                if p is not None and not (p > 0 if drew else p < 1):
                    raise self.fail(f"the banker {'drew' if drew else 'stood'} where his rule never does (p = {p})")
        final = sum(b) % 10
        return [self.compare(sum(p) % 10, bt if seen[k] is None else final) for k, p in enumerate((p1, p2))]

    # -- settling -------------------------------------------------------------------------------

    def settle(self, line: dict, covered, won, partner, outcomes, calls, offers) -> None:  # type: ignore[no-untyped-def, type-arg]
        t, r = self.t, self.r
        tax = Fraction(0)
        total = sum((x for _, _, x in covered), Fraction(0))
        self.audit.totals["at_stake"] += total
        order_now = self.order()
        if r.game == "chemin":
            outcome = outcomes[0]
            if outcome == "tie":
                t.carried = {
                    "covered": covered,
                    "calls": calls,
                    "won": won,
                    "partner": partner,
                    "offers": offers,
                    "order": order_now,
                }
            elif outcome == "banker":
                tax = r.tax * total
                for s, _, x in covered:
                    t.bankrolls[s] -= x
                t.bank += total - tax
                t.house += tax
                t.wins += 1
                t.carried = None
                t.suivi = won[0] if won is not None and won[0] in {s for s, _, _ in covered} else None
                after = r.pol[t.banker]["pass_after"]  # type: ignore[index]
                if after and t.wins >= after:
                    t.events.append("suite")
                    self.pass_hand()
            else:
                for s, _, x in covered:
                    t.bankrolls[s] += x
                t.bank -= total
                t.pay_out()
                t.events.append("bank passes")
                self.rotate(t.turn % r.seats + 1)
        else:
            pays = {s: Fraction(0) for s, _, _ in covered}
            for s, tab, x in covered:
                o = outcomes[tab - 1]
                pays[s] += x if o == "ponte" else -x if o == "banker" else 0
            net = -sum(pays.values(), Fraction(0))
            tax = r.tax * max(net, Fraction(0))
            fee, t.fee = t.fee, Fraction(0)
            for s, x in pays.items():
                t.bankrolls[s] += x
            banker = t.banker
            t.bankrolls[banker] -= fee  # type: ignore[index]
            t.bank += net - tax
            t.house += tax + fee
            tax += fee
            if won is not None and partner is None:
                result, following = pays[won[0]], t.suivi == won[0]
                if result < 0 or (result == 0 and following):
                    t.suivi, t.streak = won[0], (t.streak if following else 0) + 1
                else:
                    t.suivi, t.streak = None, 0
            else:
                t.suivi, t.streak = None, 0
            held = t.bank + t.bankrolls[banker]  # type: ignore[index]
            broke = None
            if r.kind == "limitee":
                broke = "busted" if t.bank < r.floor else None
            elif held < r.mb:
                broke = "busted"
            elif held < self.ouverte_need(banker):  # type: ignore[arg-type]
                broke = "bank given up"
            if broke:
                t.events.append(broke)
                capital = t.capital
                t.pay_out()
                if broke == "busted" and r.rebank and r.pol[banker]["rebank"] and self.can_hold(banker, capital):  # type: ignore[index, arg-type]
                    t.events.append("rebank")
                    self.open_banque(banker, capital)  # type: ignore[arg-type]
                else:
                    self.auction(banker, False)
        self.check_next(self.cut_seen)
        self.audit.totals["tax"] += tax
        self.same("tax", amount(line["tax"], "tax"), tax)
        self.compare_state(line)
        self.same("event", line["event"], t.events)
        self.same("bids", [(b["seat"], amount(b["bid"], "bid")) for b in line["bids"]], t.bids)
        self.same("ended", line["ended"], t.ended)
        self.audit.events.update(t.events)
        self.audit.calls.update(k for _, k in calls)
        self.audit.coups += 1
        t.events, t.bids = [], []

    def compare_state(self, line: dict) -> None:  # type: ignore[type-arg]
        t = self.t
        bankrolls = {int(s): amount(x, "bankroll") for s, x in line["bankrolls"].items()}
        self.same("bankrolls", bankrolls, t.bankrolls)
        self.same("bank_after", amount(line["bank_after"], "bank_after"), t.bank)
        self.same("garage", amount(line["garage"], "garage"), t.garage)
        self.same("house", amount(line["house"], "house"), t.house)
        if any(x < 0 for x in t.bankrolls.values()):
            raise self.fail("a bankroll below zero")
        start = sum(p["bankroll"] for p in self.r.pol.values())
        if sum(bankrolls.values()) + t.bank + t.garage + t.house != start:
            raise self.fail("money is not conserved")

    def open(self) -> None:
        """The session's first bank (and perhaps its end before any coup)."""
        if self.r.game == "chemin":
            self.rotate(1)
        else:
            self.auction(None, True)
        if self.t.ended is None:
            self.check_next(False)

    def empty_line(self, line: dict) -> None:  # type: ignore[type-arg]
        """A session that ended before its first coup."""
        t = self.t
        if t.ended is None:
            raise self.fail("a session line, but the session can play a coup")
        self.same("ended", line["ended"], t.ended)
        self.same("event", line["event"], t.events)
        self.same("bids", [(b["seat"], amount(b["bid"], "bid")) for b in line["bids"]], t.bids)
        self.compare_state(line)


def audit(lines: list[dict]) -> Audit:  # type: ignore[type-arg]
    """Replay a whole log: the header, then every session's lines in order."""
    if not lines:
        raise AuditError("an empty log")
    rules = Rules(lines[0])
    result = Audit()
    by_session: dict[int, list[dict]] = {}  # type: ignore[type-arg]
    for line in lines[1:]:
        if line.get("type") not in ("coup", "session"):
            raise AuditError(f"a line of unknown type {line.get('type')!r}")
        by_session.setdefault(line["session"], []).append(line)
    if sorted(by_session) != list(range(rules.sessions)):
        raise AuditError(f"the log holds sessions {sorted(by_session)[:5]}..., the header {rules.sessions}")
    for n in range(rules.sessions):
        s = Session(rules, n, result)
        s.open()
        mine = by_session[n]
        if mine[0]["type"] == "session":
            if len(mine) != 1:
                raise AuditError(f"session {n}: lines after its session line")
            s.empty_line(mine[0])
        else:
            for line in mine:
                s.coup_line(line)
            if s.t.ended is None:
                raise AuditError(f"session {n}: the log stops before the session ends")
        result.sessions += 1
        result.ends[s.t.ended] += 1  # type: ignore[index]
    return result
