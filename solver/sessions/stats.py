"""Sessions reduced to exact totals, and running statistics over them in memory that does not grow.

Each session is reduced to a :class:`SessionTally` of exact totals (coups, shoes, the house's take,
the bank's result, the sum at stake, each seat's result, the bank runs). :class:`SessionStats` keeps,
over any number of sessions, only exact running sums: of each total and of each product of two
totals, of each seat's result and its square, the counts of the bank runs by length, of the events and
of the ends. So the memory of a run does not grow with its sessions, two partial statistics merge by
adding (in any order, on any worker: the sums are exact), and every standard error is computed from
exact second moments (no cancellation).

Sessions are the independent units: a mean per session has the usual standard error,
``sd / sqrt(n)``; a per-coup figure is a ratio ``R = Σ X_s / Σ C_s`` of per-session sums, whose standard
error is the delta-method one, ``SE² = Σ (X_s − R C_s)² / (n (n − 1) mean(C)²)`` (Cochran, *Sampling
Techniques*, 3rd ed., §6.4), with ``Σ (X − R C)² = ΣX² − 2R ΣXC + R² ΣC²``. One session has no
standard error.

The mean length of a bank run is Kaplan and Meier's product-limit estimate (a session's end cuts its
last run short); its standard error is the delete-a-group jackknife over :data:`JACKKNIFE_GROUPS`
groups of sessions (session ``i`` in group ``i mod`` :data:`JACKKNIFE_GROUPS`): with at most that many
sessions, every session is its own group, the ordinary jackknife.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from solver.sessions.words import End, Event
from solver.simulate.stats import Estimate

JACKKNIFE_GROUPS = 200
"""Groups of sessions for the jackknife of the mean run length (bounds its memory)."""

COLUMNS = ("coups", "shoes", "tax", "banker_net", "at_stake", "runs")
"""The per-session totals whose sums and products :class:`SessionStats` keeps (``runs``: bank runs ended)."""


@dataclass(frozen=True)
class SessionTally:
    """One session reduced to exact totals.

    Attributes:
        session: its number; coups, shoes: coups played, shoes dealt (a shoe begun counts; 0 when the
            session played no coup).
        tax: the house's take; banker_net: the bank's result over all coups, after tax; at_stake: the
            sums at stake for the bank, added over the coups.
        results: each seat's result (money at the end minus at the start), seat 1 first.
        runs: the lengths in coups of the bank runs that ended (a loss, a suite, a bust); censored:
            the length of the run the session's end cut short (0 if none).
        events: how many times each event happened; end: why the session ended.
    """

    session: int
    coups: int
    shoes: int
    tax: Fraction
    banker_net: Fraction
    at_stake: Fraction
    results: tuple[Fraction, ...]
    runs: tuple[int, ...]
    censored: int
    events: tuple[tuple[Event, int], ...]
    end: End

    def column(self, name: str) -> Fraction | int:
        """One of :data:`COLUMNS` (``runs``: how many bank runs ended)."""
        value: Fraction | int = len(self.runs) if name == "runs" else getattr(self, name)
        return value


def kaplan_meier(ended: Counter[int], cut: Counter[int], upto: int) -> list[float]:
    """Survival ``S(k) = P(L > k)``, ``k = 0 .. upto``, of bank-run lengths, by Kaplan and Meier (1958).

    A session's end cuts its last run short: that run is known only to have lasted *more* than the
    coups it had held (right-censored). Leaving it out would favour short runs (long runs are more
    often cut); the product-limit estimator ``S(k) = Π_{j ≤ k} (1 − d_j / n_j)`` counts it among the
    ``n_j`` runs at risk up to its length, with ``d_j`` the runs that ended at exactly ``j`` coups.

    >>> kaplan_meier(Counter({1: 1, 2: 1}), Counter({1: 1}), 2)
    [1.0, 0.6666666666666667, 0.0]
    """
    out, s = [1.0], 1.0
    at_risk = sum(ended.values()) + sum(cut.values())
    for k in range(1, upto + 1):
        if at_risk > 0:
            s *= 1 - ended.get(k, 0) / at_risk
        out.append(s)
        at_risk -= ended.get(k, 0) + cut.get(k, 0)
    return out


def km_mean(ended: Counter[int], cut: Counter[int]) -> float:
    """The Kaplan–Meier mean run length (``nan`` without any run, ended or cut short)."""
    if not +ended and not +cut:
        return math.nan
    top = max(list(ended) + list(cut))
    return sum(kaplan_meier(ended, cut, top))


def _zeros(n: int) -> list[Fraction]:
    return [Fraction(0)] * n


@dataclass
class SessionStats:
    """Exact running sums over sessions (see the module): merge with :meth:`merge`, add with :meth:`add`.

    Attributes:
        seats: seats at the table; n: sessions added.
        s1, s2: ``Σ x_i`` and ``Σ x_i x_j`` over sessions of the totals of :data:`COLUMNS`.
        seat1, seat2: ``Σ`` and ``Σ²`` of each seat's result.
        ended, cut: bank runs that ended, and runs cut short by a session's end, by length.
        group_ended, group_cut, group_n: the same by jackknife group, and each group's sessions.
        events, ends: how often each event happened; why the sessions ended.
    """

    seats: int
    n: int = 0
    s1: list[Fraction] = field(default_factory=lambda: _zeros(len(COLUMNS)))
    s2: list[list[Fraction]] = field(default_factory=lambda: [_zeros(len(COLUMNS)) for _ in COLUMNS])
    seat1: list[Fraction] = field(default_factory=list)
    seat2: list[Fraction] = field(default_factory=list)
    ended: Counter[int] = field(default_factory=Counter)
    cut: Counter[int] = field(default_factory=Counter)
    group_ended: dict[int, Counter[int]] = field(default_factory=dict)
    group_cut: dict[int, Counter[int]] = field(default_factory=dict)
    group_n: Counter[int] = field(default_factory=Counter)
    events: Counter[Event] = field(default_factory=Counter)
    ends: Counter[End] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        if not self.seat1:
            self.seat1, self.seat2 = _zeros(self.seats), _zeros(self.seats)

    def add(self, t: SessionTally) -> None:
        """Add one session."""
        x = [t.column(name) for name in COLUMNS]
        for i, xi in enumerate(x):
            self.s1[i] += xi
            row = self.s2[i]
            for j in range(i, len(x)):
                row[j] += xi * x[j]
        for s, r in enumerate(t.results):
            self.seat1[s] += r
            self.seat2[s] += r * r
        g = t.session % JACKKNIFE_GROUPS
        runs = Counter(t.runs)
        self.ended.update(runs)
        self.group_ended.setdefault(g, Counter()).update(runs)
        if t.censored:
            self.cut[t.censored] += 1
            self.group_cut.setdefault(g, Counter())[t.censored] += 1
        self.group_n[g] += 1
        self.events.update(dict(t.events))
        self.ends[t.end] += 1
        self.n += 1

    def merge(self, other: SessionStats) -> None:
        """Add another run's statistics (of other sessions) to these."""
        self.n += other.n
        for i in range(len(COLUMNS)):
            self.s1[i] += other.s1[i]
            for j in range(i, len(COLUMNS)):
                self.s2[i][j] += other.s2[i][j]
        for s in range(self.seats):
            self.seat1[s] += other.seat1[s]
            self.seat2[s] += other.seat2[s]
        self.ended.update(other.ended)
        self.cut.update(other.cut)
        for mine, theirs in ((self.group_ended, other.group_ended), (self.group_cut, other.group_cut)):
            for g, c in theirs.items():
                mine.setdefault(g, Counter()).update(c)
        self.group_n.update(other.group_n)
        self.events.update(other.events)
        self.ends.update(other.ends)

    def total(self, name: str) -> Fraction:
        return self.s1[COLUMNS.index(name)]

    def mean(self, name: str) -> Estimate:
        """The mean per session of a total, with its standard error."""
        i = COLUMNS.index(name)
        return mean_from_sums(self.n, self.s1[i], self.s2[i][i])

    def ratio(self, x: str, c: str) -> Estimate:
        """``Σ x / Σ c`` over sessions, with the delta-method standard error (see the module)."""
        i, j = COLUMNS.index(x), COLUMNS.index(c)
        cross = self.s2[min(i, j)][max(i, j)]
        return ratio_from_sums(self.n, self.s1[i], self.s1[j], self.s2[i][i], cross, self.s2[j][j])

    def seat(self, s: int) -> Estimate:
        """Seat ``s``'s (from 1) result per session."""
        return mean_from_sums(self.n, self.seat1[s - 1], self.seat2[s - 1])

    def run_length_mean(self) -> Estimate:
        """The mean length of a bank run: Kaplan–Meier, with the grouped jackknife's standard error."""
        value = km_mean(self.ended, self.cut)
        groups = sorted(self.group_n)
        if math.isnan(value) or len(groups) < 2:
            return Estimate(value, math.nan, self.n)
        loo = [
            km_mean(self.ended - self.group_ended.get(g, Counter()), self.cut - self.group_cut.get(g, Counter())) for g in groups
        ]
        k = len(loo)
        m = sum(loo) / k
        return Estimate(value, math.sqrt((k - 1) / k * sum((x - m) ** 2 for x in loo)), self.n)


def mean_from_sums(n: int, s: Fraction, q: Fraction) -> Estimate:
    """The mean of ``n`` values from their exact sum ``s`` and sum of squares ``q``, with its standard
    error (``nan`` for fewer than two)."""
    if n == 0:
        return Estimate(math.nan, math.nan, 0)
    m = Fraction(s) / n
    if n < 2:
        return Estimate(float(m), math.nan, n)
    var = (q - s * m) / (n - 1)
    return Estimate(float(m), math.sqrt(float(var) / n), n)


def ratio_from_sums(n: int, sx: Fraction, sc: Fraction, qxx: Fraction, qxc: Fraction, qcc: Fraction) -> Estimate:
    """``sx / sc`` with the delta-method standard error from the exact second moments."""
    if not sc:
        return Estimate(math.nan, math.nan, n)
    r = Fraction(sx) / Fraction(sc)
    if n < 2:
        return Estimate(float(r), math.nan, n)
    sq = qxx - 2 * r * qxc + r * r * qcc
    cbar = Fraction(sc) / n
    return Estimate(float(r), math.sqrt(float(sq / (cbar * cbar)) / (n * (n - 1))), n)
