"""Many sessions: seeded, split over processes or a Dask cluster, and summarised with standard errors.

Session ``i`` of a run seeded ``s`` draws only from its own generator (see :mod:`solver.sessions.session`),
so the sessions can be played anywhere in any order: they are cut into chunks of
:data:`CHUNK_SESSIONS` (a size that depends on nothing but the run), mapped over local processes or a
Dask ``distributed`` scheduler, and put back in session order. The same seed gives the same summary,
to the last digit, on one worker, on many, or on a cluster.

Each session is reduced to a :class:`SessionTally` of exact totals (coups, shoes, the house's take,
the bank's result, the sum at stake, each seat's result, the bank runs). Sessions are the independent
units: a mean per session has the usual standard error, ``sd / sqrt(n)``; a per-coup figure is a
ratio ``R = Σ X_s / Σ C_s`` of per-session sums, whose standard error is the delta-method one,
``SE² = Σ z_s² / (n (n − 1))`` with ``z_s = (X_s − R C_s) / mean(C)`` (Cochran, *Sampling
Techniques*, 3rd ed., §6.4), as in :mod:`solver.simulate.stats`. One session has no standard error.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from solver.errors import InputError
from solver.sessions.config import TableConfig
from solver.sessions.deal import BanquePlay, CheminPlay
from solver.sessions.laws import ExactReference, coup_law
from solver.sessions.money import ZERO
from solver.sessions.policy import Policies
from solver.sessions.session import LogWriter, play_session, table_play
from solver.simulate.executor import map_chunks
from solver.simulate.stats import Estimate

CHUNK_SESSIONS = 16
"""Sessions per chunk of work (fixed, so the work does not depend on the number of workers)."""
MAX_SESSIONS = 10**7


@dataclass(frozen=True)
class SessionTally:
    """One session reduced to exact totals.

    Attributes:
        session: its number; coups, shoes: coups played, shoes dealt (a shoe begun counts).
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
    events: tuple[tuple[str, int], ...]
    end: str


def tally_session(
    table: TableConfig, policies: Policies, play: CheminPlay | BanquePlay, seed: int, session: int, log: LogWriter | None = None
) -> SessionTally:
    """Play session ``session`` and reduce it (writing each coup to ``log`` as it is played)."""
    start = tuple(policies[s].bankroll for s in range(1, table.seats + 1))
    coups, shoes, censored = 0, 1, 0
    tax = net = at_stake = ZERO
    runs: list[int] = []
    events: Counter[str] = Counter()
    final = start
    end = "no coup was played"
    for record in play_session(table, policies, play, seed, session):
        if log is not None:
            log.write(record)
        coups += 1
        shoes = record.shoe
        tax += record.tax
        net += record.banker_net
        at_stake += record.bank
        runs += record.runs_ended
        censored = record.censored
        events.update(record.events)
        final = record.after.bankrolls
        end = record.after.ended or end
    results = tuple(f - s for f, s in zip(final, start))
    return SessionTally(
        session, coups, shoes, tax, net, at_stake, results, tuple(runs), censored, tuple(sorted(events.items())), end
    )


def _chunk(task: tuple[TableConfig, Policies, CheminPlay | BanquePlay, int, int, int]) -> list[SessionTally]:
    table, policies, play, seed, first, stop = task
    return [tally_session(table, policies, play, seed, i) for i in range(first, stop)]


def run_sessions(
    table: TableConfig,
    policies: Policies,
    play: CheminPlay | BanquePlay,
    sessions: int,
    seed: int = 0,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[SessionTally]:
    """Play sessions ``0 .. sessions − 1`` in seeded chunks; the tallies in session order.

    Args:
        workers: local processes (1: in this process); scheduler: a Dask scheduler's address
            (overrides ``workers``; needs the optional ``distributed`` package).
        progress: called with the number of sessions done so far.
    """
    if not 1 <= sessions <= MAX_SESSIONS:
        raise InputError(f"play 1 to {MAX_SESSIONS} sessions, got {sessions}")
    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    bounds = ((a, min(a + CHUNK_SESSIONS, sessions)) for a in range(0, sessions, CHUNK_SESSIONS))
    tasks = ((table, policies, play, seed, a, b) for a, b in bounds)
    n_chunks = -(-sessions // CHUNK_SESSIONS)
    parts: dict[int, list[SessionTally]] = {}
    done = 0
    for i, part in map_chunks(_chunk, tasks, min(workers, n_chunks), scheduler):
        parts[i] = part
        done += len(part)
        if progress is not None:
            progress(done)
    return [t for i in range(n_chunks) for t in parts[i]]  # in session order, whatever finished first


def mean_estimate(values: Sequence[Fraction | int]) -> Estimate:
    """The mean per session, with its standard error (``nan`` for one session)."""
    n = len(values)
    xs = [float(v) for v in values]
    m = sum(xs) / n
    se = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n) if n > 1 else math.nan
    return Estimate(m, se, n)


def ratio_estimate(xs: Sequence[Fraction | int], cs: Sequence[Fraction | int]) -> Estimate:
    """``Σ x / Σ c`` over sessions, with the delta-method standard error (see the module)."""
    n, total_c = len(xs), sum(cs)
    if not total_c:
        return Estimate(math.nan, math.nan, n)
    r = Fraction(sum(xs)) / Fraction(total_c)
    cbar = float(total_c) / n
    z = [float(x - r * c) / cbar for x, c in zip(xs, cs)]
    se = math.sqrt(sum(v * v for v in z) / (n * (n - 1))) if n > 1 else math.nan
    return Estimate(float(r), se, n)


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


@dataclass(frozen=True)
class TableSummary:
    """The sessions of a run, and what they estimate.

    Attributes:
        table, policies, strategy (its name), seed: what was played.
        tallies: one :class:`SessionTally` per session, in session order.
        exact: the fresh-shoe reference (chemin de fer), or ``None``.
        elapsed, workers: wall-clock seconds and where the work ran (not part of the result).
    """

    table: TableConfig
    policies: Policies
    strategy: str
    seed: int
    tallies: tuple[SessionTally, ...]
    exact: ExactReference | None = None
    elapsed: float = 0.0
    workers: str = "1"
    method: str = field(default="simulation: sessions played coup by coup (solver.sessions)")

    def column(self, name: str) -> list[Fraction | int]:
        return [getattr(t, name) for t in self.tallies]

    def totals(self) -> dict[str, Fraction | int]:
        """Exact totals over every session."""
        return {name: sum(self.column(name), ZERO) for name in ("coups", "shoes", "tax", "banker_net", "at_stake")} | {
            "sessions": len(self.tallies),
            "runs": sum(len(t.runs) for t in self.tallies),
        }

    def estimates(self) -> dict[str, Estimate]:
        """Per session, per coup, per shoe and per unit at stake; see the reference for each name."""
        coups, shoes, tax = self.column("coups"), self.column("shoes"), self.column("tax")
        net, stake = self.column("banker_net"), self.column("at_stake")
        runs = [len(t.runs) for t in self.tallies]
        return {
            "coups_per_session": mean_estimate(coups),
            "shoes_per_session": mean_estimate(shoes),
            "house_per_session": mean_estimate(tax),
            "house_per_coup": ratio_estimate(tax, coups),
            "house_per_shoe": ratio_estimate(tax, shoes),
            "house_per_unit_at_stake": ratio_estimate(tax, stake),
            "at_stake_per_coup": ratio_estimate(stake, coups),
            "banker_per_coup": ratio_estimate(net, coups),
            "banker_per_unit_at_stake": ratio_estimate(net, stake),
            "runs_per_session": mean_estimate(runs),
            "run_length": self.run_length_mean(),
        }

    def seat_results(self) -> list[Estimate]:
        """Each seat's result per session, seat 1 first."""
        return [mean_estimate([t.results[s] for t in self.tallies]) for s in range(self.table.seats)]

    def run_length_law(self, upto: int) -> list[float]:
        """The Kaplan–Meier estimate of ``P(L = k)``, ``k = 1 .. upto``, from the ended runs and the runs
        the sessions' ends cut short (see :func:`kaplan_meier`)."""
        ended, cut = self._run_counts()
        surv = kaplan_meier(sum(ended, Counter()), sum(cut, Counter()), upto)
        return [surv[k - 1] - surv[k] for k in range(1, upto + 1)]

    def run_length_mean(self) -> Estimate:
        """The mean length of a bank run: Kaplan–Meier, with the jackknife standard error over sessions."""
        ended, cut = self._run_counts()
        all_ended, all_cut = sum(ended, Counter()), sum(cut, Counter())
        top = max(list(all_ended) + list(all_cut) + [1])
        value = sum(kaplan_meier(all_ended, all_cut, top))
        n = len(self.tallies)
        if n < 2:
            return Estimate(value, math.nan, n)
        loo = [sum(kaplan_meier(all_ended - e, all_cut - c, top)) for e, c in zip(ended, cut)]
        m = sum(loo) / n
        return Estimate(value, math.sqrt((n - 1) / n * sum((x - m) ** 2 for x in loo)), n)

    def _run_counts(self) -> tuple[list[Counter[int]], list[Counter[int]]]:
        return ([Counter(t.runs) for t in self.tallies], [Counter([t.censored] if t.censored else []) for t in self.tallies])

    def run_lengths(self) -> dict[int, int]:
        """How many ended bank runs lasted each number of coups."""
        return dict(sorted(Counter(n for t in self.tallies for n in t.runs).items()))

    def censored_runs(self) -> int:
        return sum(1 for t in self.tallies if t.censored)

    def events(self) -> dict[str, int]:
        c: Counter[str] = Counter()
        for t in self.tallies:
            c.update(dict(t.events))
        return dict(sorted(c.items()))

    def ends(self) -> dict[str, int]:
        return dict(sorted(Counter(t.end for t in self.tallies).items()))


def summarize(
    table: TableConfig,
    policies: Policies,
    strategy: object,
    sessions: int = 1,
    seed: int = 0,
    workers: int = 1,
    scheduler: str | None = None,
    log: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> TableSummary:
    """Play ``sessions`` sessions of ``table`` and summarise them.

    Args:
        strategy: chemin de fer's strategy (a :class:`solver.strategy.Strategy` or a :class:`CheminPlay`),
            or a :class:`BanquePlay` for baccara banque.
        log: a path: every coup is written there as it is played (append-only JSON lines); the
            sessions are then played in this process, in order.
        Other arguments as :func:`run_sessions`.
    """
    play = table_play(table, strategy)
    began = time.perf_counter()
    if log is not None:
        if workers != 1 or scheduler is not None:
            raise InputError("--log writes each coup as it is played, in this process: leave out --workers and --scheduler")
        if not 1 <= sessions <= MAX_SESSIONS:
            raise InputError(f"play 1 to {MAX_SESSIONS} sessions, got {sessions}")
        with LogWriter(log) as writer:
            tallies = []
            for i in range(sessions):
                tallies.append(tally_session(table, policies, play, seed, i, writer))
                if progress is not None:
                    progress(i + 1)
    else:
        tallies = run_sessions(table, policies, play, sessions, seed, workers, scheduler, progress)
    exact = None
    if table.game == "chemin":
        assert isinstance(play, CheminPlay)
        rules = {policies[s].pass_after for s in range(1, table.seats + 1)}
        exact = ExactReference(coup_law(table.shoe, play), table.tax_rate, rules.pop() if len(rules) == 1 else None)
    where = scheduler if scheduler is not None else str(workers)
    return TableSummary(table, policies, play.name, seed, tuple(tallies), exact, time.perf_counter() - began, where)
