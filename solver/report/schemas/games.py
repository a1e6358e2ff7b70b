"""The schemas of the games' commands: ``punto``, ``chemin``, ``banque`` and the ``report`` of them all."""

from __future__ import annotations

from collections.abc import Callable

from solver.report.schemas.parts import (
    BOOL,
    COUNT,
    DECIMAL,
    EXACT,
    NULL,
    NUMBER,
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
    with_provenance,
)

INFORMATION: Schema = {"type": "integer", "enum": [1, 2, 3], "description": "the information model"}

# -- punto banco ------------------------------------------------------------------------------------

TIER = obj(
    {"label": TEXT, "pays": EXACT, "probability": EXACT, "return": EXACT},
    {"probability_decimal": DECIMAL, "return_decimal": DECIMAL},
)
BET = obj(
    {"name": TEXT, "description": TEXT, "win": EXACT, "lose": EXACT, "push": EXACT, "ev": EXACT, "edge": EXACT},
    {
        "edge_decimal": DECIMAL,
        "tiers": array(TIER),
        "variance": EXACT,
        "variance_decimal": DECIMAL,
        "sd_decimal": DECIMAL,
        "edge_excluding_pushes": maybe(EXACT),
        "edge_excluding_pushes_decimal": maybe(DECIMAL),
        "element_of_risk": EXACT,
    },
)
OUTCOMES = obj({"banker": EXACT, "player": EXACT, "tie": EXACT})
PUNTO = obj(
    {
        "game": {"const": "punto banco"},
        "shoe": SHOE,
        "exact": {"const": True},
        "method": TEXT,
        "denominator": EXACT,
        "counts": OUTCOMES,
        "probabilities": OUTCOMES,
        "commission": EXACT,
        "bets": array(BET),
    },
    {
        "omitted": array(obj({"name": TEXT, "reason": TEXT})),
        "notes": array(TEXT),
        "probabilities_decimal": obj({"banker": DECIMAL, "player": DECIMAL, "tie": DECIMAL}),
        "line": COUNT,
        "input": TEXT,
    },
    "punto banco on one shoe: the outcome law and every bet's exact law (with --shoes, the line's number and text)",
)
CATALOGUE = obj(
    {
        "catalogue": array(obj({"name": TEXT, "description": TEXT})),
        "families": array(obj({"name": TEXT, "description": TEXT})),
    },
    description="punto --bets list: the catalogue's bets and the families that take a value",
)


def punto() -> Schema:
    s = listing("punto", "baccarat punto: one result per shoe; with --bets list, the catalogue instead", PUNTO)
    listed = {"type": "object", "required": s.pop("required"), "properties": s.pop("properties")}
    del s["type"]
    catalogue = with_provenance(CATALOGUE)
    line = {"anyOf": [s["$defs"]["line"], {"$ref": "#/$defs/catalogue"}]}
    defs = {**s["$defs"], "line": line, "catalogue": catalogue}
    return {**s, "anyOf": [listed, {"$ref": "#/$defs/catalogue"}], "$defs": defs}


# -- chemin de fer ----------------------------------------------------------------------------------

CHEMIN_MODEL = obj(
    {"name": TEXT, "dealing": enum("A", "B"), "information": INFORMATION, "freedom": TEXT},
    {"commission": EXACT},
    "a chemin de fer model: Ethier's name, dealing, information, freedom (casino, parlor or a house's sheet), commission",
)
STRATEGY = mapping(EXACT)
"""Each information set's probability of drawing."""
SOLUTION = obj(
    {
        "game": {"const": "chemin de fer"},
        "shoe": SHOE,
        "model": CHEMIN_MODEL,
        "value": EXACT,
        "ponte_payoff": EXACT,
        "banker_payoff": EXACT,
        "ponte": STRATEGY,
        "banker": STRATEGY,
        "certified": BOOL,
        "method": TEXT,
        "dominance": array(obj({"player": TEXT, "infoset": TEXT, "action": enum("D", "S"), "margin": EXACT})),
        "free_after_dominance": array(TEXT),
        "inert": array(TEXT),
    },
    {
        "unique": obj({"ponte": BOOL, "banker": BOOL}),
        "optimal_set": mapping(
            obj(
                {
                    "fixed": STRATEGY,
                    "free": array(TEXT),
                    "constraints": array(obj({"weights": STRATEGY, "relation": TEXT, "rhs": EXACT})),
                }
            )
        ),
        "unique_equilibrium": maybe(BOOL),
        "equilibria_ponte": array(EXACT),
        "cases": COUNT,
        "second_equilibrium": obj({"ponte": STRATEGY, "banker": STRATEGY}),
        "value_decimal": DECIMAL,
        "ponte_decimal": mapping(DECIMAL),
    },
    "one chemin de fer game solved and certified",
)
ALPHA = obj(
    {"exact": TEXT, "decimal": DECIMAL, "polynomial": array(EXACT), "root": COUNT},
    description="an exact algebraic commission: its text, a decimal, the polynomial (integer coefficients, lowest "
    "degree first) and the rank of the root among its real roots",
)
RATIONAL_FUNCTION = obj({"text": TEXT, "numerator": array(EXACT), "denominator": array(EXACT)})
PIECE = obj(
    {
        "from": ALPHA,
        "to": ALPHA,
        "open_from": BOOL,
        "open_to": BOOL,
        "sample": EXACT,
        "unique_at_sample": maybe(BOOL),
        "unique_inside": maybe(BOOL),
        "ponte": mapping(RATIONAL_FUNCTION),
        "banker": STRATEGY,
        "mixed_ponte": array(TEXT),
        "mixed_banker": array(TEXT),
        "banker_payoff": RATIONAL_FUNCTION,
        "ponte_payoff": RATIONAL_FUNCTION,
    },
    {
        "unique_inside_proof": obj(
            {},
            {
                "samples": array(EXACT),
                "cases": COUNT,
                "covered": maybe(obj({"from": ALPHA, "to": ALPHA, "closed_from": BOOL, "closed_to": BOOL})),
                "second_equilibrium": {"type": "object"},
                "why": TEXT,
            },
        ),
        "closed_from": BOOL,
        "closed_to": BOOL,
    },
)
SWEEP = obj(
    {
        "game": {"const": "chemin de fer"},
        "shoe": SHOE,
        "model": CHEMIN_MODEL,
        "commission": obj({"from": EXACT, "to": EXACT}),
        "pieces": array(PIECE),
        "breakpoints": array(obj({"alpha": ALPHA, "equilibria": BOOL}, {"unique": maybe(BOOL)})),
        "overlaps": array({"type": "array"}),
        "solves": COUNT,
        "method": TEXT,
    },
    description="chemin --commission LO..HI: the equilibrium as exact pieces over the range",
)


SHOES_LINE: Schema = {
    "line": {**COUNT, "description": "with --shoes: the number of the line whose shoe this result is on"},
    "input": {**TEXT, "description": "with --shoes: that line's text (its comment cut off)"},
}
"""What each result of ``chemin --shoes`` and ``banque --shoes`` carries besides a deck list's result."""


def chemin() -> Schema:
    return listing(
        "chemin",
        "baccarat chemin: one result per shoe (with --shoes, per line), a solved game (one commission) or a sweep "
        "(a commission range)",
        {"anyOf": [{"$ref": "#/$defs/solution"}, {"$ref": "#/$defs/sweep"}], "type": "object", "properties": SHOES_LINE},
        defs={"solution": SOLUTION, "sweep": SWEEP},
    )


# -- baccara banque ---------------------------------------------------------------------------------

BANQUE_MODEL = obj(
    {"name": TEXT, "information": INFORMATION, "second_player": enum("blind", "sees-first"), "freedom": TEXT, "tax": EXACT},
    description="a baccara banque model: Ethier's name on this shoe, information, what Player 2 sees, freedom, tax",
)
DRAWS = {"anyOf": [NUMBER, mapping(NUMBER), NULL], "description": "a player's draw at 5: a number, or one per situation"}
BANQUE_HEAD = {
    "game": {"const": "baccara banque"},
    "shoe": SHOE,
    "model": BANQUE_MODEL,
    "theta": TEXT,
    "concept": enum("nash", "correlated", "independent"),
    "exists": maybe(BOOL),
}
BANQUE_ANSWER = {
    **BANQUE_HEAD,
    "theta": EXACT,
    "value": maybe(NUMBER),
    "player1_draw_at_5": DRAWS,
    "player2_draw_at_5": DRAWS,
    "banker": mapping(NUMBER),
    "certified": BOOL,
    "unique": maybe(BOOL),
}
"""What a solution of baccara banque states, solved now (``banque``) or read from a certificate (the report)."""
BANQUE = obj(
    {**BANQUE_ANSWER, "method": TEXT, "dominance": COUNT},
    {
        "guarantee": NUMBER,
        "guarantee_optimal": BOOL,
        "team": array(obj({"player1": mapping(enum("D", "S")), "probability": EXACT, "player2": mapping(NUMBER)})),
        "result1": NUMBER,
        "result2": NUMBER,
        "no_equilibrium_with_player1_at": array(EXACT),
        "value_decimal": DECIMAL,
    },
    "one solution concept of baccara banque at one theta, certified",
)
LIMIT = obj(
    {
        **BANQUE_HEAD,
        "limit": EXACT,
        "chemin_de_fer": obj({"model": CHEMIN_MODEL, "value": EXACT}),
        "above_chemin_de_fer": EXACT,
        "player1_draw_at_5": maybe(EXACT),
        "checked": array(obj({"theta": EXACT, "result1": NUMBER})),
        "method": TEXT,
    },
    {"limit_decimal": DECIMAL},
    "banque --limit: the limit of the Nash value as theta -> 1, beside chemin de fer's",
)


def banque() -> Schema:
    return listing(
        "banque",
        "baccarat banque: one result per shoe (with --shoes, per line), theta and concept (with --limit, one limit per shoe)",
        {"anyOf": [{"$ref": "#/$defs/solution"}, {"$ref": "#/$defs/limit"}], "type": "object", "properties": SHOES_LINE},
        defs={"solution": BANQUE, "limit": LIMIT},
    )


# -- the full report --------------------------------------------------------------------------------

PUNTO_MODEL = obj({"name": {"const": "punto banco"}, "dealing": enum("A", "B"), "commission": EXACT})
ENTRY = obj(
    {**BANQUE_ANSWER, "source": TEXT, "certificate": maybe(TEXT)},
    {"guarantee": NUMBER, "value_decimal": DECIMAL},
)
BANQUE_SECTION = obj(
    {
        "model": obj({"information": INFORMATION, "second_player": TEXT, "freedom": TEXT, "tax": EXACT}),
        "model_text": TEXT,
        "theta": EXACT,
        "shoes": array(
            obj(
                {"shoe": SHOE, "solutions": array(ENTRY)},
                {
                    "chemin_de_fer": obj({"model": CHEMIN_MODEL, "value": EXACT, "certified": BOOL}, {"value_decimal": DECIMAL}),
                    "theta_one_limit": obj({"value": EXACT, "above_chemin_de_fer": maybe(EXACT)}),
                },
            )
        ),
    },
    {"left_out": array(obj({"shoe": SHOE, "reason": TEXT}))},
)
REPORT = obj(
    {"punto_banco": PUNTO, "chemin_de_fer": array(SOLUTION)},
    {
        "headline": array(
            obj(
                {
                    "what": TEXT,
                    "model": {"anyOf": [CHEMIN_MODEL, BANQUE_MODEL, PUNTO_MODEL]},
                    "model_text": TEXT,
                    "values": mapping(EXACT),
                }
            )
        ),
        "baccara_banque": BANQUE_SECTION,
    },
)


def report() -> Schema:
    return document("report", "baccarat report: the full report", REPORT)


SCHEMAS: dict[str, Callable[[], Schema]] = {
    "punto": punto,
    "chemin": chemin,
    "banque": banque,
    "report": report,
}
