"""The parts every schema is made of: the rule for numbers (docs/reference.md, "JSON fields"), the shoe,
the two keys every document begins with, and the two forms of a document (one result, or a list)."""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE = "urn:baccarat-solver:schema:"

EXACT: Schema = {
    "type": "string",
    "pattern": "^-?[0-9]+(/[0-9]+)?$",
    "description": "an exact integer or reduced fraction p/q (read it with fractions.Fraction)",
}
DECIMAL: Schema = {
    "type": "string",
    "pattern": "^-?[0-9]+(\\.[0-9]+)?$",
    "description": "a decimal rounded from an exact number, its digits as printed",
}
COUNT: Schema = {"type": "integer", "minimum": 0, "description": "a count or an identifier"}
INTEGER: Schema = {"type": "integer", "description": "a whole number of a count's scale (a tag, a sum of tags)"}
FLOAT: Schema = {"type": "number", "description": "a quantity of statistics, in floating point"}
TEXT: Schema = {"type": "string"}
BOOL: Schema = {"type": "boolean"}
NULL: Schema = {"type": "null"}

ALGEBRAIC: Schema = {
    "type": "object",
    "description": "an irrational number, exactly: the real root of its minimal polynomial (integer "
    "coefficients, lowest degree first) in the interval, and a decimal",
    "required": ["minimal_polynomial", "interval", "decimal"],
    "properties": {
        "minimal_polynomial": {"type": "array", "items": EXACT},
        "interval": {"type": "array", "items": EXACT, "minItems": 2, "maxItems": 2},
        "decimal": DECIMAL,
    },
}
NUMBER: Schema = {"anyOf": [EXACT, ALGEBRAIC]}
"""An exact number, rational (:data:`EXACT`) or algebraic (:data:`ALGEBRAIC`)."""


def maybe(s: Schema) -> Schema:
    """``s`` or null."""
    return {"anyOf": [s, NULL]}


def array(items: Schema, **more: Any) -> Schema:
    return {"type": "array", "items": items, **more}


def mapping(values: Schema) -> Schema:
    """An object whose keys are names (information sets, bets, seats, ...), each value ``values``."""
    return {"type": "object", "additionalProperties": values}


def obj(required: dict[str, Schema], optional: dict[str, Schema] | None = None, description: str | None = None) -> Schema:
    """An object with these keys (``optional`` ones written only in some cases); others may be added."""
    out: Schema = {"type": "object", "required": list(required), "properties": {**required, **(optional or {})}}
    if description:
        out["description"] = description
    return out


def enum(*words: str) -> Schema:
    return {"type": "string", "enum": list(words)}


SHOE = obj(
    {"dealing": enum("A", "B")},
    {
        "values": array(COUNT, minItems=10, maxItems=10),
        "decks": {"anyOf": [COUNT, {"const": "inf"}]},
        "ranks": array(COUNT, minItems=13, maxItems=13),
        "suits": maybe(array(COUNT, minItems=52, maxItems=52)),
    },
    "the shoe: dealing A (an infinite deck) or B (the shoe), its counts by value, rank and suit",
)
PROVENANCE = {"tool": obj({"name": {"const": "baccarat"}, "version": TEXT}), "command": TEXT}
"""The two keys every document begins with."""


def with_provenance(s: Schema) -> Schema:
    """``s`` with the two keys every document begins with, required."""
    return {**s, "required": [*PROVENANCE, *s.get("required", [])], "properties": {**PROVENANCE, **s["properties"]}}


ESTIMATE = obj(
    {"estimate": maybe(FLOAT), "se": maybe(FLOAT), "units": COUNT},
    {"ci_low": maybe(FLOAT), "ci_high": maybe(FLOAT)},
    description="an estimate with its standard error (and, but for count's, its interval at the run's confidence "
    "level); null where undefined (one unit); over `units` independent units (shoes, sessions)",
)

NAMED: dict[str, Schema] = {
    "exact": EXACT,
    "decimal": DECIMAL,
    "count": COUNT,
    "integer": INTEGER,
    "float": FLOAT,
    "algebraic": ALGEBRAIC,
    "shoe": SHOE,
    "estimate": ESTIMATE,
}
"""The parts a published schema names in its ``$defs`` (``#/$defs/exact``, ...) rather than repeating them."""


def factor(schema: Schema) -> Schema:
    """``schema`` with every occurrence of a part of :data:`NAMED` replaced by a reference to it, and the
    parts used added to its ``$defs`` (a part's own insides referenced too: a shoe's counts)."""
    used: dict[str, Schema] = {}

    def walk(x: Any, own: str | None = None) -> Any:
        if isinstance(x, dict):
            for name, part in NAMED.items():
                if name != own and x == part:
                    used.setdefault(name, part)
                    return {"$ref": f"#/$defs/{name}"}
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v) for v in x]
        return x

    out: Schema = walk(schema)
    done: dict[str, Schema] = {}
    while len(done) < len(used):
        for name in [n for n in used if n not in done]:
            done[name] = walk(NAMED[name], own=name)
    out["$defs"] = {**out.get("$defs", {}), **dict(sorted(done.items()))}
    return out


def document(command: str, description: str, body: Schema, defs: dict[str, Schema] | None = None) -> Schema:
    """The schema of a command of one result: its document is ``body`` with the provenance (``$defs/document``);
    a line of ``--format jsonl`` is the same document (``$defs/line``)."""
    return {
        "$schema": DRAFT,
        "$id": f"{BASE}{command}",
        "title": f"baccarat {command} --format json",
        "description": description,
        "$ref": "#/$defs/document",
        "$defs": {"document": with_provenance(body), "line": {"$ref": "#/$defs/document"}, **(defs or {})},
    }


def listing(
    command: str, description: str, result: Schema, key: str = "results", defs: dict[str, Schema] | None = None
) -> Schema:
    """The schema of a command of several results: ``--format json`` writes one document whose ``key``
    lists them (whatever their number); a line of ``--format jsonl`` is one result with the provenance
    (``$defs/line``)."""
    line = {"allOf": [{"$ref": "#/$defs/result"}, with_provenance({"type": "object", "properties": {}})]}
    return {
        "$schema": DRAFT,
        "$id": f"{BASE}{command}",
        "title": f"baccarat {command} --format json",
        "description": description,
        "type": "object",
        "required": [*PROVENANCE, key],
        "properties": {**PROVENANCE, key: array({"$ref": "#/$defs/result"})},
        "$defs": {"result": result, "line": line, **(defs or {})},
    }
