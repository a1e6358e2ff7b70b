"""The schemas of the commands on bets: ``eor`` (effects of removal) and ``parsheet`` (the wagers' sheet)."""

from __future__ import annotations

from collections.abc import Callable

from solver.report.schemas.parts import (
    BOOL,
    COUNT,
    DECIMAL,
    EXACT,
    FLOAT,
    INTEGER,
    SHOE,
    TEXT,
    Schema,
    array,
    document,
    enum,
    listing,
    mapping,
    maybe,
    obj,
)

# -- effects of removal -----------------------------------------------------------------------------

EOR = obj(
    {
        "shoe": SHOE,
        "exact": {"const": True},
        "by": enum("rank", "value"),
        "level": COUNT,
        "method": TEXT,
        "samples": COUNT,
        "seed": maybe(COUNT),
        "depth": maybe(array(COUNT, minItems=2, maxItems=2)),
        "bets": array(
            obj(
                {
                    "name": TEXT,
                    "description": TEXT,
                    "ev": EXACT,
                    "effects": array(
                        obj(
                            {"card": TEXT, "cards": COUNT, "ev": EXACT, "effect": EXACT, "tag": INTEGER},
                            {"effect_decimal": DECIMAL},
                        )
                    ),
                    "imbalance": INTEGER,
                    "betting_correlation_squared": EXACT,
                    "betting_correlation_decimal": DECIMAL,
                    "count_correlation": maybe(FLOAT),
                    "count_correlation_unrounded": maybe(FLOAT),
                }
            )
        ),
    }
)


def eor() -> Schema:
    return document("eor", "baccarat eor: effects of removal and the linear counts they give", EOR)


# -- the par sheet ----------------------------------------------------------------------------------

LEVELED = mapping(DECIMAL)
WAGER = obj(
    {
        "name": TEXT,
        "description": TEXT,
        "total": EXACT,
        "sequences": TEXT,
        "lines": array(
            obj(
                {
                    "label": TEXT,
                    "pays": EXACT,
                    "combinations": EXACT,
                    "probability": EXACT,
                    "probability_decimal": DECIMAL,
                    "return": EXACT,
                    "return_decimal": DECIMAL,
                }
            )
        ),
        "total_return": EXACT,
        "return_to_player": EXACT,
        "edge": EXACT,
        "edge_percent": DECIMAL,
        "edge_resolved": maybe(EXACT),
        "edge_resolved_percent": maybe(DECIMAL),
        "hit_frequency": EXACT,
        "hit_frequency_percent": DECIMAL,
        "push": EXACT,
        "variance": EXACT,
        "sd_rounded": DECIMAL,
        "volatility_index_rounded": LEVELED,
        "hold_range_percent_rounded": mapping(mapping(array(DECIMAL, minItems=2, maxItems=2))),
    }
)
DEALT = obj(
    {
        "estimates": {"const": True},
        "method": TEXT,
        "coups": COUNT,
        "shoes": COUNT,
        "seed": COUNT,
        "study_coups": COUNT,
        "study_shoes": COUNT,
        "wagers": array(
            obj(
                {
                    "name": TEXT,
                    "source": TEXT,
                    "first_coup_edge": EXACT,
                    "whole_shoe_edge": FLOAT,
                    "whole_shoe_se": maybe(FLOAT),
                    "cut_card_effect": FLOAT,
                    "cut_card_effect_se": maybe(FLOAT),
                }
            )
        ),
        "not_dealt": array(obj({"name": TEXT, "reason": TEXT})),
        "check": obj(
            {
                "alpha": EXACT,
                "verdict": TEXT,
                "passed": BOOL,
                "tests": array(
                    obj({"name": TEXT, "statistic": maybe(FLOAT), "p_value": maybe(FLOAT), "alpha": FLOAT, "rejected": BOOL})
                ),
            }
        ),
    }
)
SHEET = obj(
    {
        "document": TEXT,
        "game": TEXT,
        "shoe": SHOE,
        "rules": obj(
            {"tableau": TEXT, "player": mapping(TEXT), "banker": mapping(TEXT), "commission": EXACT, "cut": COUNT, "burn": TEXT}
        ),
        "version": TEXT,
        "input_digest": TEXT,
        "exact": {"const": True},
        "method": TEXT,
        "levels": array(EXACT),
        "z_rounded": LEVELED,
        "hands": array(COUNT),
        "hold_formula": TEXT,
        "wagers": array(WAGER),
        "dealt": maybe(DEALT),
    },
    {"notes": array(TEXT)},
    "one game's par sheet",
)


def parsheet() -> Schema:
    return listing("parsheet", "baccarat parsheet: one sheet per shoe and commission (also parsheet.json)", SHEET, key="sheets")


SCHEMAS: dict[str, Callable[[], Schema]] = {"eor": eor, "parsheet": parsheet}
