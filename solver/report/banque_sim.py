"""Renderers of baccara banque simulations and cross-checks: text, JSON-ready dicts, CSV rows.

Simulated numbers are estimates with their standard errors; exact numbers (the first-coup values
from the enumeration) are printed beside them, as fractions in JSON and CSV.
"""

from __future__ import annotations

import math

from solver.banque.deal import OUTCOMES
from solver.crosscheck import CrossCheck
from solver.crosscheck.banque import BanqueLaw, outcome_label
from solver.report import decimal_str, fraction_str
from solver.report.simulate import (
    crosscheck_csv_rows,
    effect_line,
    estimate_items,
    per_test_rate,
    rate_line,
    rule_breaks_json,
    simulation_head,
    test_lines,
    tests_json,
)
from solver.simulate.banque import BanqueSimResult
from solver.simulate.stats import Estimate

LABELS = {
    "banker": "banker's net per unit stake",
    "tableau1": "banker's result v tableau 1",
    "tableau2": "banker's result v tableau 2",
}


def _pm(e: Estimate, digits: int) -> str:
    value = f"{e.value:+.{digits}f}"
    return f"{value} ± {e.se:.{digits}f}" if e.has_error else f"{value} ± ?"


def outcome_name(o: tuple[int, int]) -> str:
    """A joint outcome as a JSON key: the banker's result against tableau 1 and 2, e.g. ``"+1/-1"``.

    >>> outcome_name((1, -1)), outcome_name((0, 0))
    ('+1/-1', '0/0')
    """
    return outcome_label(o)


def banque_simulate_text(r: BanqueSimResult, digits: int | None = None) -> str:
    """A human report of a banque simulation: estimates ± SE beside the exact first-coup values."""
    dg = 6 if digits is None else digits
    t = r.table
    rate = r.n_coups / r.elapsed if r.elapsed > 0 else math.inf
    per_shoe = _pm(r.coups_per_shoe(), 2).lstrip("+")
    lines = [
        f"Simulation of baccara banque, {t.shoe.label()} ({t.shoe.size} cards): ESTIMATES, each ± its standard error",
        f"  table: {t.burn.label()}; "
        + ("one coup per freshly shuffled shoe" if t.first_coup_only else f"cut card with {t.cut} cards behind it"),
        f"  strategy: {t.draws.name}; {len(t.draws.lam)} atom{'s' if len(t.draws.lam) > 1 else ''}",
        f"  theta {fraction_str(t.theta)} (tableau 1's share of the stake); tax {fraction_str(t.tax)} of the "
        "banker's net win of each coup",
        f"  dealt {r.n_shoes:,} shoes, {r.n_coups:,} coups ({per_shoe} a shoe); seed {r.seed}; "
        f"workers {r.workers}; {r.elapsed:.1f} s ({rate / 1e6:.1f} million coups/s)",
        "",
    ]
    first, whole, effect = r.first_coup(), r.whole_shoe(), r.cut_card_effect()
    exact = r.exact or {}
    width = max(len(v) for v in LABELS.values()) + 2
    lines.append(f"  {'':{width}} {'exact first coup':>18}  {'first coup of the shoe':>24}  {'every coup (whole shoe)':>24}")
    for key, label in LABELS.items():
        ex = decimal_str(exact[key], dg) if key in exact else "-"
        lines.append(f"  {label:{width}} {ex:>18}  {_pm(first[key], dg):>24}  {_pm(whole[key], dg):>24}")
    if not t.first_coup_only:
        lines.append("")
        ref = "the exact first-coup value" if r.exact is not None else "the simulated first coups (paired)"
        lines.append(
            f"  cut-card effect, whole shoe minus first coup (against {ref}), with {round(r.level * 100)}% confidence interval:"
        )
        lines += [effect_line(label, width, effect[key], r.level, dg) for key, label in LABELS.items()]
    return "\n".join(lines)


def banque_simulate_dict(r: BanqueSimResult, digits: int | None = None) -> dict[str, object]:
    """JSON-ready dict of a banque simulation (estimates as floats with their SEs; exact values as fractions)."""
    del digits
    first, whole, effect = r.first_coup(), r.whole_shoe(), r.cut_card_effect()
    exact = r.exact or {}
    return {
        **simulation_head(r, r.table.describe(), [outcome_name(o) for o in OUTCOMES], r.tallies.pos_counts),
        "items": estimate_items(LABELS, exact, first, whole, effect, r.level, r.table.first_coup_only),
    }


def banque_simulate_csv_rows(r: BanqueSimResult, digits: int | None = None) -> list[tuple[str, ...]]:
    """Long-format rows (the header of :data:`solver.report.simulate.SIM_CSV_HEADER`)."""
    del digits
    exact = r.exact or {}
    rows: list[tuple[str, ...]] = []
    sections = [("first_coup", r.first_coup()), ("whole_shoe", r.whole_shoe())]
    if not r.table.first_coup_only:
        sections.append(("cut_card_effect", r.cut_card_effect()))
    for section, values in sections:
        for key, e in values.items():
            lo, hi = e.ci(r.level)
            se = (repr(e.se), repr(lo), repr(hi)) if e.has_error else ("", "", "")
            ex = fraction_str(exact[key]) if section == "first_coup" and key in exact else ""
            rows.append((section, key, repr(e.value), *se, str(e.units), ex))
    return rows


def banque_crosscheck_text(cc: CrossCheck) -> str:
    """The verdict, every test, and what the sample size could detect."""
    law, s = cc.law, cc.sample
    assert isinstance(law, BanqueLaw)
    value = law.reference()["banker"]
    if s.rule_breaks is not None:
        held = f"{s.total_coups:,} coups read, {s.rule_breaks.count:,} of them breaking the rules"
    elif s.stream is None:  # our simulator: the first coup of each shoe
        held = f"{s.n:,} first coups held to the exact law"
    elif s.shoes:
        held = f"{s.total_coups:,} coups in {s.shoes:,} shoes, the first coup of each held to the exact law"
    else:
        held = f"{s.n:,} coups held to the exact law"
    lines = [
        f"Cross-check of {s.source}",
        f"  against the exact law of baccara banque, {law.shoe.label()}: {law.method}",
        f"  {held}; banker's exact value per unit stake {fraction_str(value)} ({decimal_str(value, 6)})",
        rate_line(cc),
        "",
        *test_lines(cc, 16),
    ]
    return "\n".join(lines)


def banque_crosscheck_dict(cc: CrossCheck) -> dict[str, object]:
    """JSON-ready dict of a banque cross-check (the fields of the other games' cross-check, joint outcomes
    keyed by :func:`outcome_name`)."""
    law, s = cc.law, cc.sample
    assert isinstance(law, BanqueLaw)
    return {
        "kind": "crosscheck",
        "verdict": "pass" if cc.passed else "reject",
        "source": s.source,
        "coups": s.total_coups,
        "shoes": s.shoes,
        "held_coups": s.n,
        "game": "banque",
        "shoe": law.shoe.spec(),
        "theta": fraction_str(law.theta),
        "tax": fraction_str(law.tax),
        "exact_law": {outcome_name(o): fraction_str(p) for o, p in law.outcome.items()},
        "exact_value": fraction_str(law.reference()["banker"]),
        "exact_method": law.method,
        "false_alarm_rate": fraction_str(cc.alpha),
        "per_test_rate": per_test_rate(cc),
        "power_for_detectable": 0.8,
        "observed": {outcome_name(o): int(c) for o, c in zip(OUTCOMES, s.winner)},
        "tests": tests_json(cc),
        "rule_breaks": rule_breaks_json(cc),
        "notes": list(cc.notes),
    }


banque_crosscheck_csv_rows = crosscheck_csv_rows
"""One row per test, then a verdict row (the header of :data:`solver.report.simulate.CC_CSV_HEADER`)."""
