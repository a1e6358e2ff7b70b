"""The log of a run of sessions: a header that says everything played, then one JSON line per coup.

The first line (``"type": "header"``) holds every parameter of the table, every seat's policy, the
strategy (its drawing rules and the exact probability in each cell it decides), the seed and the
number of sessions: with the rules, enough to replay and audit every coup. Then each coup is one line
(``"type": "coup"``, :meth:`~solver.sessions.state.CoupRecord.as_json`); a session that ends before
its first coup is one line of its own (``"type": "session"``), so every session says why it ended.

The log is written append-only, one whole line per coup: each line is encoded first and handed to
the operating system in one ``os.write`` on a file opened for appending, before the next coup is
played. A session interrupted at any point therefore leaves a log whose last line is complete (the
tests interrupt one to check).
"""

from __future__ import annotations

import json
import os

from solver.errors import InputError
from solver.exact.numbers import fraction_str
from solver.sessions.config import TableConfig
from solver.sessions.deal import BanquePlay, CheminOnEachTableau, CheminPlay
from solver.sessions.money import amount_json
from solver.sessions.policy import Policies
from solver.sessions.state import CoupRecord, Opening, bids_json
from solver.strategy import Side, format_infoset

LOG_FORMAT = "baccarat table log"
LOG_VERSION = 2
"""Version 2 added the header, ``type``, ``offered``, ``ranks``, ``burned``, ``cut_card``, ``cards_left``,
``bids`` and ``ended``; every field of version 1 is still written, with its meaning."""


def strategy_header(play: CheminPlay | BanquePlay) -> dict[str, object]:
    """The drawing rule as the header writes it: chemin de fer's cells by name (``P5``, ``B3/9``,
    ``B0+3/S``) with their exact probabilities of drawing, over its tableau's fixed cells."""
    chemin = play if isinstance(play, CheminPlay) else play.chemin if isinstance(play, CheminOnEachTableau) else None
    if chemin is None:
        return {"kind": "banque", "name": play.name, "cells": None, "freedom": getattr(play, "freedom", None)}
    cells = {
        ("P" if s.side is Side.PONTE else "B") + format_infoset(s): fraction_str(p) for s, p in chemin.strategy.choices.items()
    }
    return {
        "kind": "chemin" if chemin is play else "chemin on each tableau",
        "name": play.name,
        "tableau": chemin.strategy.tableau.name,
        "cells": cells,
        "banker": None if chemin is play else "the decision for the tableau with the larger stake (tableau 1 on equal stakes)",
    }


def log_header(
    table: TableConfig, policies: Policies, play: CheminPlay | BanquePlay, seed: int, sessions: int
) -> dict[str, object]:
    """The log's first line: the table, every seat's policy, the strategy, the seed and the sessions."""
    from solver.version import __version__

    return {
        "type": "header",
        "log": LOG_FORMAT,
        "version": LOG_VERSION,
        "solver": __version__,
        "table": table.header(),
        "policies": {
            "name": policies.name,
            "seats": {str(s): policies[s].as_dict() for s in range(1, table.seats + 1)},
        },
        "strategy": strategy_header(play),
        "seed": seed,
        "sessions": sessions,
    }


def empty_session_json(session: int, opening: Opening) -> dict[str, object]:
    """The line of a session that ended before its first coup."""
    state = opening.state
    assert state.ended is not None
    return {
        "type": "session",
        "session": session,
        "coup": 0,
        "event": [e.value for e in opening.events],
        "bids": bids_json(opening.bids),
        "bankrolls": {str(s): amount_json(m) for s, m in enumerate(state.bankrolls, 1)},
        "bank_after": amount_json(state.bank),
        "garage": amount_json(state.garage),
        "house": amount_json(state.house),
        "ended": state.ended.value,
    }


class LogWriter:
    """The JSON-lines log: append-only, one whole line per coup, each handed to the OS in one write.

    ``header`` (:func:`log_header`) is written first when given."""

    def __init__(self, path: str, header: dict[str, object] | None = None) -> None:
        try:
            self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
        except OSError as e:
            raise InputError(f"cannot write the log {path}: {e.strerror}") from None
        self.path = path
        if header is not None:
            self.line(header)

    def line(self, data: dict[str, object]) -> None:
        """Write one line (a JSON object)."""
        raw = (json.dumps(data, separators=(",", ":")) + "\n").encode("utf-8")
        while raw:
            raw = raw[os.write(self.fd, raw) :]

    def write(self, record: CoupRecord) -> None:
        self.line(record.as_json())

    def close(self) -> None:
        os.close(self.fd)

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
