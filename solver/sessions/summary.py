"""Many sessions: seeded, split over processes or a Dask cluster, and summarised with standard errors.

Session ``i`` of a run seeded ``s`` draws only from its own generator (see :mod:`solver.sessions.session`),
so the sessions can be played anywhere in any order: they are cut into chunks of
:data:`CHUNK_SESSIONS` (a size that depends on nothing but the run), mapped over local processes or a
Dask ``distributed`` scheduler, each chunk reduced to exact running statistics
(:class:`~solver.sessions.stats.SessionStats`) and merged as it arrives. The statistics are exact sums,
so the same seed gives the same summary, to the last digit, on one worker, on many, or on a cluster,
and a run's memory does not grow with its sessions.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from solver.errors import InputError
from solver.sessions.config import TableConfig
from solver.sessions.deal import BanquePlay, CheminPlay
from solver.sessions.laws import ExactReference, coup_law
from solver.sessions.log import LogWriter, empty_session_json, log_header
from solver.sessions.money import ZERO, whole
from solver.sessions.policy import Policies
from solver.sessions.session import coups, open_session, table_play
from solver.sessions.stats import SessionStats, SessionTally, kaplan_meier
from solver.sessions.words import End, Event, Game
from solver.simulate.executor import map_chunks
from solver.simulate.stats import Estimate

CHUNK_SESSIONS = 16
"""Sessions per chunk of work (fixed, so the work does not depend on the number of workers)."""
MAX_SESSIONS = 10**7


def tally_session(
    table: TableConfig, policies: Policies, play: CheminPlay | BanquePlay, seed: int, session: int, log: LogWriter | None = None
) -> SessionTally:
    """Play session ``session`` and reduce it (writing each coup to ``log`` as it is played)."""
    start = tuple(policies[s].bankroll for s in range(1, table.seats + 1))
    n_coups, shoes, censored = 0, 0, 0
    tax = net = at_stake = ZERO
    runs: list[int] = []
    events: Counter[Event] = Counter()
    opening = open_session(table, policies)
    final = opening.state.bankrolls
    end = opening.state.ended
    if end is not None:  # no coup: the session ended as it opened
        events.update(opening.events)
        if log is not None:
            log.line(empty_session_json(session, opening))
    for record in coups(table, policies, play, seed, session, opening):
        if log is not None:
            log.write(record)
        n_coups += 1
        shoes = record.shoe
        tax += record.tax
        net += record.banker_net
        at_stake += record.bank
        runs += record.runs_ended
        censored = record.censored
        events.update(record.events)
        final = record.after.bankrolls
        end = record.after.ended
    assert end is not None
    results = tuple(f - s for f, s in zip(final, start))
    return SessionTally(
        session, n_coups, shoes, tax, net, at_stake, results, tuple(runs), censored, tuple(sorted(events.items())), end
    )


def _chunk(task: tuple[TableConfig, Policies, CheminPlay | BanquePlay, int, int, int]) -> SessionStats:
    table, policies, play, seed, first, stop = task
    stats = SessionStats(table.seats)
    for i in range(first, stop):
        stats.add(tally_session(table, policies, play, seed, i))
    return stats


def run_sessions(
    table: TableConfig,
    policies: Policies,
    play: CheminPlay | BanquePlay,
    sessions: int,
    seed: int = 0,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> SessionStats:
    """Play sessions ``0 .. sessions − 1`` in seeded chunks; their statistics, merged as the chunks finish.

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
    stats = SessionStats(table.seats)
    for _, part in map_chunks(_chunk, tasks, min(workers, n_chunks), scheduler):
        stats.merge(part)
        if progress is not None:
            progress(stats.n)
    return stats


@dataclass(frozen=True)
class TableSummary:
    """The sessions of a run, and what they estimate.

    Attributes:
        table, policies, strategy (its name), seed: what was played.
        stats: the exact running statistics of every session (:class:`~solver.sessions.stats.SessionStats`).
        exact: the fresh-shoe reference (chemin de fer), or ``None``.
        elapsed, workers: wall-clock seconds and where the work ran (not part of the result).
    """

    table: TableConfig
    policies: Policies
    strategy: str
    seed: int
    stats: SessionStats
    exact: ExactReference | None = None
    elapsed: float = 0.0
    workers: str = "1"
    method: str = field(default="simulation: sessions played coup by coup (solver.sessions)")

    def totals(self) -> dict[str, Fraction | int]:
        """Exact totals over every session."""
        st = self.stats
        counts = {name: int(st.total(name)) for name in ("coups", "shoes")}
        return (
            counts
            | {name: whole(st.total(name)) for name in ("tax", "banker_net", "at_stake")}
            | {
                "sessions": st.n,
                "runs": int(st.total("runs")),
            }
        )

    def estimates(self) -> dict[str, Estimate]:
        """Per session, per coup, per shoe and per unit at stake; see the reference for each name."""
        st = self.stats
        return {
            "coups_per_session": st.mean("coups"),
            "shoes_per_session": st.mean("shoes"),
            "house_per_session": st.mean("tax"),
            "house_per_coup": st.ratio("tax", "coups"),
            "house_per_shoe": st.ratio("tax", "shoes"),
            "house_per_unit_at_stake": st.ratio("tax", "at_stake"),
            "at_stake_per_coup": st.ratio("at_stake", "coups"),
            "banker_per_coup": st.ratio("banker_net", "coups"),
            "banker_per_unit_at_stake": st.ratio("banker_net", "at_stake"),
            "runs_per_session": st.mean("runs"),
            "run_length": st.run_length_mean(),
        }

    def seat_results(self) -> list[Estimate]:
        """Each seat's result per session, seat 1 first."""
        return [self.stats.seat(s) for s in range(1, self.table.seats + 1)]

    def run_length_law(self, upto: int) -> list[float]:
        """The Kaplan–Meier estimate of ``P(L = k)``, ``k = 1 .. upto``, from the ended runs and the runs
        the sessions' ends cut short (see :func:`~solver.sessions.stats.kaplan_meier`)."""
        surv = kaplan_meier(self.stats.ended, self.stats.cut, upto)
        return [surv[k - 1] - surv[k] for k in range(1, upto + 1)]

    def run_length_mean(self) -> Estimate:
        """The mean length of a bank run: Kaplan–Meier, with the jackknife standard error over sessions."""
        return self.stats.run_length_mean()

    def run_lengths(self) -> dict[int, int]:
        """How many ended bank runs lasted each number of coups."""
        return dict(sorted((+self.stats.ended).items()))

    def censored_runs(self) -> int:
        return sum(self.stats.cut.values())

    def events(self) -> dict[Event, int]:
        """How often each event happened, by name."""
        return dict(sorted((+self.stats.events).items()))

    def ends(self) -> dict[End, int]:
        """Why the sessions ended, and how many each."""
        return dict(sorted(self.stats.ends.items()))


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
    command: str | None = None,
) -> TableSummary:
    """Play ``sessions`` sessions of ``table`` and summarise them.

    Everything that can be refused is refused before the first coup is dealt and before the log is
    opened: the strategy against the table's tableau, the exact reference, the run's size.

    Args:
        strategy: chemin de fer's strategy (a :class:`solver.strategy.Strategy` or a :class:`CheminPlay`),
            or a :class:`BanquePlay` for baccara banque.
        log: a path: the header, then every coup as it is played (append-only JSON lines); the sessions
            are then played in this process, in order. ``command``: the command line, for the header.
        Other arguments as :func:`run_sessions`.
    """
    play = table_play(table, strategy)
    if not 1 <= sessions <= MAX_SESSIONS:
        raise InputError(f"play 1 to {MAX_SESSIONS} sessions, got {sessions}")
    if log is not None and (workers != 1 or scheduler is not None):
        raise InputError("--log writes each coup as it is played, in this process: leave out --workers and --scheduler")
    exact = None
    if table.game is Game.CHEMIN:
        assert isinstance(play, CheminPlay)
        rules = {policies[s].pass_after for s in range(1, table.seats + 1)}
        exact = ExactReference(coup_law(table.shoe, play), table.tax_rate, rules.pop() if len(rules) == 1 else None)
    began = time.perf_counter()
    if log is not None:
        stats = SessionStats(table.seats)
        header = log_header(table, policies, play, seed, sessions) | {"command": command}
        with LogWriter(log, header) as writer:
            for i in range(sessions):
                stats.add(tally_session(table, policies, play, seed, i, writer))
                if progress is not None:
                    progress(i + 1)
    else:
        stats = run_sessions(table, policies, play, sessions, seed, workers, scheduler, progress)
    where = scheduler if scheduler is not None else str(workers)
    return TableSummary(table, policies, play.name, seed, stats, exact, time.perf_counter() - began, where)
