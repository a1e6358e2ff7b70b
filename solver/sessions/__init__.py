"""The table: chemin de fer and baccara banque sessions, with every rule of the money.

Half of a rule sheet is about money, not cards: who holds the bank, who may bet and how much, what
becomes of the bank's winnings, what the house takes. This package plays those rules exactly, coup
after coup, over shuffled shoes and exact strategies, and never loses a fraction of a chip:

* :mod:`.words` — the table's words as typed values (games, calls, events, why a session ended);
* :mod:`.config` — the table (game, seats, limits, tax, shoe); :mod:`.policy` — how each seat plays
  the money, with documented defaults, or from a file; :mod:`.money` — exact amounts;
* :mod:`.state` — the state between coups, the stakes of a coup, the record of a coup;
* :mod:`.chemin` and :mod:`.banque` — each game's rules of the money, as pure functions;
* :mod:`.deal` — shoes and coups dealt under exact draw tables (and the interface through which the
  baccara banque solver will play);
* :mod:`.session` — :func:`apply_coup`, the one function that applies a coup; sessions;
  :mod:`.log` — the log, a header that says everything played, then a line per coup;
* :mod:`.stats` — sessions reduced to exact totals and running statistics; :mod:`.summary` — many
  seeded sessions over processes or Dask, estimates with standard errors; :mod:`.laws` — the exact
  laws they are held against.

Money is conserved: ``sum(bankrolls) + bank + garage + house`` is the same after every coup.

>>> from solver.simulate import KEMENY_SNELL
>>> table = TableConfig("chemin")
>>> s = summarize(table, Policies.defaults(table), KEMENY_SNELL, sessions=4, seed=1)
>>> s.totals()["sessions"], s.stats.n, s.ends() == {"shoes finished": 4}
(4, 4, True)
"""

from solver.sessions.config import TableConfig, seats_right_of
from solver.sessions.deal import BanquePlay, CheminOnEachTableau, CheminPlay, Outcome
from solver.sessions.laws import ExactReference, coup_law, run_length_law, run_length_mean
from solver.sessions.log import LogWriter, log_header
from solver.sessions.policy import Policies, Policy, load_policies
from solver.sessions.session import Dealt, apply_coup, card_dealer, open_session, play_session, start, table_play
from solver.sessions.state import EVENTS, Call, CoupRecord, Opening, Stakes, TableState
from solver.sessions.stats import SessionStats, SessionTally
from solver.sessions.summary import TableSummary, run_sessions, summarize, tally_session
from solver.sessions.words import BanqueKind, CallKind, End, Event, Game

__all__ = [
    "EVENTS",
    "BanqueKind",
    "BanquePlay",
    "Call",
    "CallKind",
    "CheminOnEachTableau",
    "CheminPlay",
    "CoupRecord",
    "Dealt",
    "End",
    "Event",
    "ExactReference",
    "Game",
    "LogWriter",
    "Opening",
    "Outcome",
    "Policies",
    "Policy",
    "SessionStats",
    "SessionTally",
    "Stakes",
    "TableConfig",
    "TableState",
    "TableSummary",
    "apply_coup",
    "card_dealer",
    "coup_law",
    "load_policies",
    "log_header",
    "open_session",
    "play_session",
    "run_length_law",
    "run_length_mean",
    "run_sessions",
    "seats_right_of",
    "start",
    "summarize",
    "table_play",
    "tally_session",
]
