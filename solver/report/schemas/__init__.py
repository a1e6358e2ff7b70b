"""JSON Schemas (draft 2020-12) of every command's JSON output, written from the renderers' contract.

Each schema describes what ``baccarat COMMAND --format json`` writes, and each line of ``--format jsonl``
(one result with ``tool`` and ``command``: the schema's ``$defs/line``). The schemas hold the reference's
rule for numbers (docs/reference.md, "JSON fields"; :mod:`.parts`): an exact number is a string, a count
or an identifier a JSON integer, a quantity of statistics a JSON number, a rounded decimal a string.
Documented keys are required where they are always written; keys may be added (objects are open), never
renamed.

The published copies are ``docs/schemas/COMMAND.schema.json``, written by
``python3 -m solver.report.schemas docs/schemas`` (never edited by hand; a test holds them equal to
these), and every command's real output is validated against its schema in tests/test_schemas.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from solver.report.schemas import bets, games, runs
from solver.report.schemas.parts import Schema, factor


def schemas() -> dict[str, Schema]:
    """Every command's schema, by command name."""
    builders: dict[str, Callable[[], Schema]] = {**games.SCHEMAS, **bets.SCHEMAS, **runs.SCHEMAS}
    return {name: factor(builders[name]()) for name in sorted(builders)}


def schema_text(s: Schema) -> str:
    """A schema as its published file holds it."""
    return json.dumps(s, indent=2) + "\n"


def write_schemas(directory: str) -> list[Path]:
    """Write ``COMMAND.schema.json`` for every command into ``directory`` (replacing what is there)."""
    from solver.store.files import write_texts

    return write_texts({Path(directory) / f"{name}.schema.json": schema_text(s) for name, s in schemas().items()}, overwrite=True)


def main(argv: list[str] | None = None) -> int:
    """``python3 -m solver.report.schemas [DIR]``: (re)write the published schemas (default docs/schemas)."""
    from solver.store.files import regenerate

    return regenerate(argv, "solver.report.schemas", "docs/schemas", "JSON Schemas of the commands' output", write_schemas)
