"""The schemas of the commands that deal: ``simulate``, ``crosscheck``, ``count``, ``table``."""

from __future__ import annotations

from collections.abc import Callable

from solver.report.schemas.parts import (
    BOOL,
    COUNT,
    ESTIMATE,
    EXACT,
    FLOAT,
    INTEGER,
    SHOE,
    TEXT,
    Schema,
    array,
    document,
    mapping,
    maybe,
    obj,
)

WHERE = {
    "seed": COUNT,
    "workers": maybe(COUNT),
    "scheduler": maybe(TEXT),
}
"""How a run was dealt: its seed and the local processes, or the Dask scheduler (then ``workers`` is null)."""

# -- simulate ---------------------------------------------------------------------------------------

SIM_TABLE = obj(
    {"game": {"enum": ["punto", "chemin", "banque"]}, "shoe": SHOE, "strategy": TEXT, "burn": TEXT, "first_coup_only": BOOL},
    {"cut": maybe(COUNT), "extra_coup": BOOL, "commission": EXACT, "theta": EXACT, "tax": EXACT},
)
SIMULATION = obj(
    {
        "kind": {"const": "simulation"},
        "exact": {"const": False},
        "method": TEXT,
        "table": SIM_TABLE,
        **WHERE,
        "shoes": COUNT,
        "coups": COUNT,
        "seconds": FLOAT,
        "confidence_level": FLOAT,
        "coups_per_shoe": ESTIMATE,
        "counts": obj({"first_coup": mapping(COUNT), "whole_shoe": mapping(COUNT)}),
        "items": array(
            obj(
                {
                    "item": TEXT,
                    "exact_first_coup": maybe(EXACT),
                    "first_coup": ESTIMATE,
                    "whole_shoe": ESTIMATE,
                    "cut_card_effect": maybe(ESTIMATE),
                }
            )
        ),
    },
    {
        "cut_card_effect_reference": TEXT,
        "by_position": array(obj({"position": COUNT, "coups": COUNT})),
    },
)


def simulate() -> Schema:
    return document("simulate", "baccarat simulate: estimates from real shoes (every game)", SIMULATION)


# -- crosscheck -------------------------------------------------------------------------------------

CROSSCHECK = obj(
    {
        "kind": {"const": "crosscheck"},
        "verdict": {"enum": ["pass", "reject"]},
        "source": TEXT,
        "coups": COUNT,
        "shoes": COUNT,
        "held_coups": COUNT,
        "game": {"enum": ["punto", "chemin", "banque"]},
        "shoe": SHOE,
        "exact_law": mapping(EXACT),
        "exact_method": TEXT,
        "false_alarm_rate": EXACT,
        "per_test_rate": maybe(EXACT),
        "power_for_detectable": FLOAT,
        "observed": mapping(COUNT),
        "tests": array(
            obj(
                {
                    "name": TEXT,
                    "kind": TEXT,
                    "statistic": maybe(FLOAT),
                    "df": maybe(COUNT),
                    "p_value": maybe(FLOAT),
                    "rejected": BOOL,
                    "detectable": maybe(FLOAT),
                    "detectable_what": TEXT,
                    "note": TEXT,
                }
            )
        ),
        "rule_breaks": maybe(obj({"count": COUNT, "first": array(obj({"line": COUNT, "what": TEXT}))})),
        "notes": array(TEXT),
    },
    {"theta": EXACT, "tax": EXACT, "exact_value": EXACT},
)


def crosscheck() -> Schema:
    return document("crosscheck", "baccarat crosscheck: an engine's coups held against the exact law", CROSSCHECK)


# -- count ------------------------------------------------------------------------------------------

PLAY = obj(
    {
        "bets_per_shoe": ESTIMATE,
        "frequency": ESTIMATE,
        "win_per_shoe": ESTIMATE,
        "win_per_100_coups": ESTIMATE,
        "average_edge": ESTIMATE,
        "result_per_shoe": ESTIMATE,
    },
)
LINEAR_COUNT = obj({"tags": array(INTEGER), "threshold": EXACT, "source": TEXT})
COUNT_STUDY = obj(
    {
        "study": obj({"bets": array(TEXT), "knowledge": TEXT, "shoe": SHOE, "counts": array(maybe(LINEAR_COUNT))}),
        **WHERE,
        "shoes": COUNT,
        "coups": COUNT,
        "coups_per_shoe": ESTIMATE,
        "evaluations": COUNT,
        "elapsed": FLOAT,
        "exact_edges": {"const": True},
        "estimates": {"const": True},
        "method": TEXT,
        "bets": array(
            obj(
                {
                    "name": TEXT,
                    "description": TEXT,
                    "mean_edge": ESTIMATE,
                    "mean_result": ESTIMATE,
                    "difference": ESTIMATE,
                    "positive": ESTIMATE,
                    "perfect_play": PLAY,
                    "quantiles": array(obj({"q": FLOAT, "edge": FLOAT})),
                    "lowest": FLOAT,
                    "highest": FLOAT,
                    "by_depth": array(
                        obj(
                            {
                                "unseen_from": COUNT,
                                "unseen_to": COUNT,
                                "coups": COUNT,
                                "mean_edge": maybe(FLOAT),
                                "positive": maybe(FLOAT),
                            }
                        )
                    ),
                },
                {"count": {**PLAY, "properties": {**PLAY["properties"], **LINEAR_COUNT["properties"]}}},
            )
        ),
    }
)


def count() -> Schema:
    return document("count", "baccarat count: a counting study over real shoes, exact edges at every coup", COUNT_STUDY)


# -- table ------------------------------------------------------------------------------------------

TABLE = obj(
    {
        "method": TEXT,
        "table": obj({"game": {"enum": ["chemin", "banque"]}, "seats": COUNT, "shoe": SHOE, "cut": COUNT, "tableau": TEXT}),
        "strategy": TEXT,
        "policies": TEXT,
        "seed": INTEGER,
        "sessions": COUNT,
        "totals": obj(
            {
                "coups": COUNT,
                "shoes": COUNT,
                "tax": EXACT,
                "banker_net": EXACT,
                "at_stake": EXACT,
                "sessions": COUNT,
                "runs": COUNT,
            },
            description="exact totals over every session: counts as integers, money as exact strings",
        ),
        "estimates": mapping(ESTIMATE),
        "seats": mapping(ESTIMATE),
        "run_lengths": mapping(COUNT),
        "run_length_law": maybe(mapping(FLOAT)),
        "censored_runs": COUNT,
        "events": mapping(COUNT),
        "ends": mapping(COUNT),
        "exact": maybe(
            obj(
                {
                    "what": TEXT,
                    "p_banker": EXACT,
                    "p_ponte": EXACT,
                    "p_tie": EXACT,
                    "house_per_unit_at_stake": EXACT,
                    "bank_per_unit_at_stake": EXACT,
                    "pass_after": maybe(COUNT),
                    "run_length_mean": maybe(EXACT),
                    "run_length_law": maybe(mapping(EXACT)),
                }
            )
        ),
    }
)


def table() -> Schema:
    return document("table", "baccarat table: sessions at the table, summarised", TABLE)


SCHEMAS: dict[str, Callable[[], Schema]] = {"simulate": simulate, "crosscheck": crosscheck, "count": count, "table": table}
