"""Every command's JSON is valid against its published JSON Schema (docs/schemas), on real output.

The schemas (:mod:`solver.report.schemas`) are written from the renderers' contract, not inferred from
output; here each command runs on a few inputs that reach its optional fields, its ``--format json``
document is validated against ``docs/schemas/COMMAND.schema.json`` and each ``--format jsonl`` line
against the schema's ``$defs/line``. The published files are the generated ones, and each schema can
reject: an exact number written as a JSON number, or a count as a string, fails.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from solver.cli.crosscheck import HELP_COUPS
from solver.report.schemas import schema_text, schemas

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema validates the schemas (the test extra installs it)")

ROOT = Path(__file__).resolve().parents[1]
PUBLISHED = ROOT / "docs" / "schemas"

RUNS: list[tuple[str, list[str], str]] = [
    ("punto", ["--decks", "8", "--digits", "4"], ""),
    ("punto", ["--decks", "1,inf", "--bets", "banker,player_pair,perfect_pairs"], ""),
    ("punto", ["--remove", "5,0"], ""),
    ("punto", ["--bets", "list"], ""),
    ("chemin", ["--decks", "inf", "--digits", "3"], ""),
    ("chemin", ["--decks", "inf,2", "--commission", "0.05"], ""),
    ("chemin", ["--decks", "inf", "--freedom", "parlor", "--commission", "0..1/10"], ""),
    ("banque", ["--decks", "inf", "--digits", "3"], ""),
    ("banque", ["--decks", "inf", "--second-player", "sees-first", "--concept", "nash"], ""),
    ("banque", ["--decks", "inf", "--limit"], ""),
    ("chemin", ["--shoes", "-", "--commission", "1/20"], "--decks inf\n# a comment\n--decks 1 --remove 5,5\n"),
    ("chemin", ["--shoes", "-", "--commission", "0..1/10"], "--decks inf\n"),
    ("banque", ["--shoes", "-", "--concept", "correlated"], "--decks inf\n--decks 1\n"),
    ("banque", ["--shoes", "-", "--limit"], "--decks inf\n"),
    ("report", ["--decks", "inf"], ""),
    ("eor", ["--bets", "dragon7,big_tiger", "--by", "value", "--samples", "30", "--digits", "3"], ""),
    ("eor", ["--bets", "panda8"], ""),
    ("parsheet", ["--no-simulate", "--commission", "1/20,1/25"], ""),
    ("parsheet", ["--simulate", "2e4", "--study", "2e3", "--bets", "banker,dragon7", "--workers", "1"], ""),
    ("simulate", ["--coups", "2e4", "--workers", "1"], ""),
    ("simulate", ["--game", "chemin", "--decks", "6", "--first-coup", "--coups", "2e4", "--workers", "1"], ""),
    ("simulate", ["--game", "banque", "--decks", "6", "--coups", "5e3", "--workers", "1"], ""),
    ("crosscheck", ["--simulate", "2e4", "--workers", "1"], ""),
    ("crosscheck", ["--coups", "-"], "\n".join(line for line in HELP_COUPS if "=" not in line) + "\n"),
    ("crosscheck", ["--coups", "-"], "2,K,3,3,7,4;P\n"),  # a coup that breaks the rules: rule_breaks
    ("crosscheck", ["--game", "banque", "--decks", "6", "--simulate", "5e3", "--workers", "1"], ""),
    ("count", ["--shoes", "20", "--tags", "eor", "--true-count", "2", "--workers", "1"], ""),
    ("table", ["--sessions", "3", "--workers", "1"], ""),
    ("table", ["--game", "banque", "--sessions", "2", "--workers", "1"], ""),
]


def validator(command: str, part: str | None = None) -> jsonschema.protocols.Validator:  # type: ignore[name-defined]
    """A validator of ``docs/schemas/COMMAND.schema.json`` (of its ``$defs/PART`` if given)."""
    schema = json.loads((PUBLISHED / f"{command}.schema.json").read_text(encoding="utf-8"))
    if part is not None:
        schema = {**schema, "$ref": f"#/$defs/{part}"}
        for key in ("type", "required", "properties", "anyOf"):
            schema.pop(key, None)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def errors(v: jsonschema.protocols.Validator, doc: object) -> list[str]:  # type: ignore[name-defined]
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in v.iter_errors(doc)]


def test_the_published_schemas_are_the_generated_ones() -> None:
    made = schemas()
    assert sorted(p.name for p in PUBLISHED.glob("*.schema.json")) == sorted(f"{n}.schema.json" for n in made)
    for name, s in made.items():
        assert (PUBLISHED / f"{name}.schema.json").read_text(encoding="utf-8") == schema_text(s), (
            f"docs/schemas/{name}.schema.json is stale: python3 -m solver.report.schemas docs/schemas"
        )
        jsonschema.Draft202012Validator.check_schema(s)


def test_every_command_with_json_has_a_schema() -> None:
    from solver.cli import COMMANDS

    text_only = {"latex", "figures"}  # they write files, and print the paths
    assert set(schemas()) == set(COMMANDS) - text_only
    assert {command for command, _, _ in RUNS} == set(schemas())


@pytest.mark.parametrize(("command", "argv", "stdin"), RUNS, ids=[" ".join([c, *a]) for c, a, _ in RUNS])
def test_real_output_is_valid_against_its_schema(command: str, argv: list[str], stdin: str) -> None:
    r = run_cli([command, *argv, "--format", "json"], stdin=stdin)
    assert r.code in (0, 1), r.err  # 1: the cross-check rejects (a coup that breaks the rules)
    doc = json.loads(r.out)  # one document, whatever the input
    assert errors(validator(command), doc) == []
    lines = run_cli([command, *argv, "--format", "jsonl"], stdin=stdin).out.splitlines()
    line = validator(command, "line")
    assert lines and all(errors(line, json.loads(text)) == [] for text in lines)
    if "results" in doc or "sheets" in doc:  # a line per result: the document's results, each with the provenance
        listed = doc.get("results", doc.get("sheets"))
        assert [{k: v for k, v in json.loads(t).items() if k not in ("tool", "command")} for t in lines] == listed


def test_the_batch_lines_are_valid_lines_of_punto() -> None:
    r = run_cli(["punto", "--shoes", "-", "--bets", "banker,player_pair"], stdin="--decks 8 --remove 5,0\n--decks 6\n")
    line = validator("punto", "line")
    assert all(errors(line, json.loads(text)) == [] for text in r.out.splitlines())


def test_a_line_of_chemin_or_banque_shoes_carries_its_number_as_a_count() -> None:
    r = run_cli(["chemin", "--shoes", "-", "--format", "jsonl"], stdin="--decks inf\n")
    (line,) = [json.loads(t) for t in r.out.splitlines()]
    v = validator("chemin", "line")
    assert (line["line"], line["input"]) == (1, "--decks inf") and errors(v, line) == []
    assert any(e.startswith("line: '1' is not of type 'integer'") for e in errors(v, {**line, "line": "1"}))


def test_a_schema_rejects_a_float_for_an_exact_number_and_a_string_for_a_count() -> None:
    doc = json.loads(run_cli(["punto", "--decks", "6", "--bets", "banker", "--format", "json"]).out)
    v = validator("punto")
    assert errors(v, doc) == []
    doc["results"][0]["bets"][0]["edge"] = 0.0124  # a float where the reference promises an exact string
    assert not v.is_valid(doc)
    assert any(
        e.startswith("bets/0/edge: 0.0124 is not of type 'string'")
        for e in errors(validator("punto", "result"), doc["results"][0])
    )
    sim = json.loads(run_cli(["simulate", "--coups", "1e4", "--workers", "1", "--format", "json"]).out)
    sim["workers"] = "1"  # a count as a string, as simulations once wrote it
    assert any(e.startswith("workers") for e in errors(validator("simulate"), sim))
    report = json.loads((PUBLISHED / "report.schema.json").read_text(encoding="utf-8"))
    headline = {"$ref": "#/$defs/document/properties/headline/items/properties/model", "$defs": report["$defs"]}
    model = {"name": "A1", "dealing": "A", "information": 1, "freedom": "parlor", "commission": "0"}
    assert jsonschema.Draft202012Validator(headline).is_valid(model)
    assert not jsonschema.Draft202012Validator(headline).is_valid("model A1 parlor: a sentence")  # once a sentence
