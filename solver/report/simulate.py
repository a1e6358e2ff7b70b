"""Renderers of simulations and cross-checks: text, JSON-ready dicts, CSV rows.

Every simulated number is printed as an estimate with its standard error (and a confidence
interval where there is room); exact numbers are printed as fractions beside them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from solver.crosscheck import RULES, CrossCheck, ExactLaw
from solver.report import decimal_str, fraction_str, where_run
from solver.simulate import Estimate, SimulationResult

if TYPE_CHECKING:
    from solver.simulate.banque import BanqueSimResult

GAME_NAMES = {"punto": "punto banco", "chemin": "chemin de fer"}


def _pm(e: Estimate, digits: int) -> str:
    value = f"{e.value:+.{digits}f}" if e.value < 0 else f"{e.value:.{digits}f}"
    return f"{value} ± {e.se:.{digits}f}" if e.has_error else f"{value} ± ?"


def _label(key: str, game: str) -> str:
    kind, name = key.split(":", 1)
    if kind == "outcome":
        return f"P({name})"
    if game == "chemin":
        return f"{name}'s net per unit"
    return f"{name} bet, net per unit"


def _table_lines(r: SimulationResult) -> list[str]:
    lines = []
    d = r.config.describe()
    lines.append(
        f"  table: {d['burn']}; "
        + (
            "one coup per freshly shuffled shoe"
            if r.config.first_coup_only
            else f"cut card with {r.config.cut} cards behind it"
            + ("; one more coup after the cut card" if r.config.extra_coup else "")
        )
    )
    lines.append(f"  strategy: {r.config.strategy.name}")
    if r.config.game == "chemin":
        lines.append(f"  commission on the banker's wins: {fraction_str(r.config.commission)}")
    return lines


def simulate_text(r: SimulationResult, digits: int | None = None) -> str:
    """A human report of a simulation: estimates ± SE, whole shoe versus first coup, cut-card effect."""
    dg = 6 if digits is None else digits
    c = r.config
    rate = r.n_coups / r.elapsed if r.elapsed > 0 else math.inf
    per_shoe = r.coups_per_shoe()
    lines = [f"Simulation of {GAME_NAMES[c.game]}, {c.shoe.label()} ({c.shoe.size} cards): ESTIMATES, each ± its standard error"]
    lines += _table_lines(r)
    lines.append(
        f"  dealt {r.n_shoes:,} shoes, {r.n_coups:,} coups ({_pm(per_shoe, 2)} a shoe); "
        f"seed {r.seed}; workers {r.workers}; {r.elapsed:.1f} s ({rate / 1e6:.1f} million coups/s)"
    )
    if r.n_shoes < 2:
        lines.append("  with fewer than two shoes no standard error can be estimated: '± ?' and no intervals below")
    lines.append("")
    first, whole, effect = r.first_coup(), r.whole_shoe(), r.cut_card_effect()
    exact = r.exact or {}
    width = max(len(_label(k, c.game)) for k in first) + 2
    head = f"  {'':{width}} {'exact first coup':>18}  {'first coup of the shoe':>24}  {'every coup (whole shoe)':>24}"
    lines.append(head)
    for key in first:
        ex = decimal_str(exact[key], dg) if key in exact else "-"
        lines.append(f"  {_label(key, c.game):{width}} {ex:>18}  {_pm(first[key], dg):>24}  {_pm(whole[key], dg):>24}")
    if not c.first_coup_only:
        lines.append("")
        pct = round(r.level * 100)
        lines.append(
            f"  cut-card effect, whole shoe minus first coup (against the {r.effect_reference()}), "
            f"with {pct}% confidence interval:"
        )
        lines += [effect_line(_label(key, c.game), width, e, r.level, dg) for key, e in effect.items()]
    return "\n".join(lines)


def effect_line(label: str, width: int, e: Estimate, level: float, dg: int) -> str:
    """One cut-card effect: estimate ± standard error and its interval (``± ?`` without an error)."""
    if not e.has_error:
        return f"  {label:{width}} {e.value:+.{dg + 1}f} ± ?"
    lo, hi = e.ci(level)
    return f"  {label:{width}} {e.value:+.{dg + 1}f} ± {e.se:.{dg + 1}f}   [{lo:+.{dg + 1}f}, {hi:+.{dg + 1}f}]"


def estimate_items(
    keys: Iterable[str],
    exact: Mapping[str, Fraction],
    first: Mapping[str, Estimate],
    whole: Mapping[str, Estimate],
    effect: Mapping[str, Estimate],
    level: float,
    first_only: bool,
) -> list[dict[str, object]]:
    """The JSON ``items`` of a simulation: per functional, the exact first-coup value where known, and
    the first-coup, whole-shoe and cut-card-effect estimates (no effect when only first coups were dealt)."""
    return [
        {
            "item": key,
            "exact_first_coup": fraction_str(exact[key]) if key in exact else None,
            "first_coup": first[key].as_dict(level),
            "whole_shoe": whole[key].as_dict(level),
            "cut_card_effect": None if first_only else effect[key].as_dict(level),
        }
        for key in keys
    ]


def simulation_head(
    r: SimulationResult | BanqueSimResult, table: dict[str, object], outcomes: Sequence[str], pos_counts: np.ndarray
) -> dict[str, object]:
    """The head of a simulation's JSON, the same for every game: what was dealt, how, and the outcome
    counts of the first coups and of every coup (``pos_counts``: one row per position in the shoe)."""
    return {
        "kind": "simulation",
        "exact": False,
        "method": r.method,
        "table": table,
        "seed": r.seed,
        **where_run(r.workers),
        "shoes": r.n_shoes,
        "coups": r.n_coups,
        "seconds": r.elapsed,
        "confidence_level": r.level,
        "coups_per_shoe": r.coups_per_shoe().as_dict(r.level),
        "counts": {
            "first_coup": {name: int(c) for name, c in zip(outcomes, pos_counts[0])},
            "whole_shoe": {name: int(c) for name, c in zip(outcomes, pos_counts.sum(axis=0))},
        },
    }


def simulate_dict(r: SimulationResult, digits: int | None = None) -> dict[str, object]:
    """JSON-ready dict of a simulation (estimates as floats with their SEs; exact values as fractions)."""
    del digits
    first, whole, effect = r.first_coup(), r.whole_shoe(), r.cut_card_effect()
    exact = r.exact or {}
    out: dict[str, object] = {
        **simulation_head(r, r.config.describe(), r.outcomes, r.tallies.pos_counts),
        "items": estimate_items(first, exact, first, whole, effect, r.level, r.config.first_coup_only),
        "cut_card_effect_reference": r.effect_reference(),
        "by_position": [
            {"position": k, "coups": n, **{name: e.as_dict(r.level) for name, e in est.items()}} for k, n, est in r.by_position()
        ],
    }
    return out


SIM_CSV_HEADER = ("section", "item", "estimate", "se", "ci_low", "ci_high", "units", "exact")


def simulate_csv_rows(r: SimulationResult, digits: int | None = None) -> list[tuple[str, ...]]:
    """Long-format rows: first coup, whole shoe, cut-card effect and by-position estimates."""
    del digits
    exact = r.exact or {}
    rows: list[tuple[str, ...]] = []

    def row(section: str, item: str, e: Estimate, ex: Fraction | None = None) -> None:
        lo, hi = e.ci(r.level)
        se = (repr(e.se), repr(lo), repr(hi)) if e.has_error else ("", "", "")
        rows.append((section, item, repr(e.value), *se, str(e.units), fraction_str(ex) if ex is not None else ""))

    for section, values in (("first_coup", r.first_coup()), ("whole_shoe", r.whole_shoe())):
        for key, e in values.items():
            row(section, key, e, exact.get(key) if section == "first_coup" else None)
    if not r.config.first_coup_only:
        for key, e in r.cut_card_effect().items():
            row("cut_card_effect", key, e)
    for k, _n, est in r.by_position():
        for name, e in est.items():
            row(f"position_{k}", f"outcome:{name}", e)
    return rows


# -- cross-check ------------------------------------------------------------------------------------


def _fmt_stat(x: float) -> str:
    return "inf" if math.isinf(x) else f"{x:.2f}"


def _fmt_p(p: float) -> str:
    return f"{p:.3g}" if p > 0 else "< 1e-300"


def crosscheck_text(cc: CrossCheck) -> str:
    """The verdict, every test, and what the sample size could detect."""
    law = cc.law
    assert isinstance(law, ExactLaw)
    lines = [
        f"Cross-check of {cc.sample.source}",
        f"  against the exact law of {GAME_NAMES.get(law.game, law.game)}, {law.shoe.label()}: {law.method}",
        f"  {_coups_line(cc)}"
        + ("" if cc.sample.rule_breaks else "; exact P: " + ", ".join(f"{k} {fraction_str(v)}" for k, v in law.winner.items())),
        rate_line(cc),
        "",
        *test_lines(cc, 14),
    ]
    return "\n".join(lines)


def rate_line(cc: CrossCheck) -> str:
    """The false-alarm rate and its Bonferroni split over the tests."""
    m = cc.statistical
    if not m:
        return "  a coup that breaks the rules rejects the engine (a correct engine deals none): no statistical test is run"
    return (
        f"  false-alarm rate {fraction_str(cc.alpha)} for the whole cross-check "
        f"(each of the {m} tests at {fraction_str(cc.alpha / m)}, Bonferroni)"
    )


def test_lines(cc: CrossCheck, width: int) -> list[str]:
    """The table of tests (names in a column of ``width``), the notes and the verdict line."""
    lines = [
        f"  {'test':{width}} {'statistic':>10} {'df':>4} {'p-value':>10}  {'result':7} smallest deviation detected (power 0.8)"
    ]
    for t in cc.tests:
        df = str(t.df) if t.kind == "chi2" else "z" if t.kind == "z" else "-"
        det = "-" if not math.isfinite(t.detectable) or t.detectable == 0 else f"{t.detectable:.3g}  {t.detectable_what}"
        lines.append(
            f"  {t.name:{width}} {_fmt_stat(t.statistic):>10} {df:>4} {'0' if t.name == RULES else _fmt_p(t.p_value):>10}  "
            f"{'REJECT' if t.rejected else 'ok':7} {det}"
        )
        if t.note:
            lines.append(f"  {'':{width}}   {t.note}")
    lines.append("")
    lines += [f"  note: {note}" for note in cc.notes]
    lines.append(f"verdict: {cc.verdict}")
    return lines


def _coups_line(cc: CrossCheck) -> str:
    s = cc.sample
    if s.rule_breaks is not None:
        return f"{s.total_coups:,} coups read, {s.rule_breaks.count:,} of them breaking the rules"
    if not s.shoes:
        return f"{s.n:,} coups"
    return f"{s.total_coups:,} coups in {s.shoes:,} shoes"


def per_test_rate(cc: CrossCheck) -> str | None:
    """Each statistical test's false-alarm rate, as written in JSON (None where none was run)."""
    return fraction_str(cc.alpha / cc.statistical) if cc.statistical else None


def rule_breaks_json(cc: CrossCheck) -> dict[str, object] | None:
    """The JSON ``rule_breaks`` of a cross-check: the coups that break the rules, or None."""
    b = cc.sample.rule_breaks
    if b is None:
        return None
    return {"count": b.count, "first": [{"line": line, "what": what} for line, what in b.first]}


def tests_json(cc: CrossCheck) -> list[dict[str, object]]:
    """The JSON ``tests`` of a cross-check, one object per test."""
    return [
        {
            "name": t.name,
            "kind": t.kind,
            "statistic": None if math.isinf(t.statistic) else t.statistic,
            "df": t.df,
            "p_value": t.p_value,
            "rejected": t.rejected,
            "detectable": t.detectable if math.isfinite(t.detectable) else None,
            "detectable_what": t.detectable_what,
            "note": t.note,
        }
        for t in cc.tests
    ]


def crosscheck_dict(cc: CrossCheck) -> dict[str, object]:
    """JSON-ready dict of a cross-check."""
    law = cc.law
    assert isinstance(law, ExactLaw)
    return {
        "kind": "crosscheck",
        "verdict": "pass" if cc.passed else "reject",
        "source": cc.sample.source,
        "coups": cc.sample.total_coups,
        "shoes": cc.sample.shoes,
        "held_coups": cc.sample.n,
        "game": law.game,
        "shoe": law.shoe.spec(),
        "exact_law": {k: fraction_str(v) for k, v in law.winner.items()},
        "exact_method": law.method,
        "false_alarm_rate": fraction_str(cc.alpha),
        "per_test_rate": per_test_rate(cc),
        "power_for_detectable": 0.8,
        "observed": {k: int(c) for k, c in zip(law.names, cc.sample.winner)},
        "tests": tests_json(cc),
        "rule_breaks": rule_breaks_json(cc),
        "notes": list(cc.notes),
    }


CC_CSV_HEADER = ("test", "kind", "statistic", "df", "p_value", "rejected", "detectable", "detectable_what")


def crosscheck_csv_rows(cc: CrossCheck) -> list[tuple[str, ...]]:
    """One row per test, then a verdict row (every game)."""
    rows: list[tuple[str, ...]] = [
        (
            t.name,
            t.kind,
            repr(t.statistic),
            str(t.df),
            repr(t.p_value),
            str(t.rejected).lower(),
            repr(t.detectable),
            t.detectable_what,
        )
        for t in cc.tests
    ]
    rows.append(("verdict", "", "", "", "", str(not cc.passed).lower(), "", "pass" if cc.passed else "reject"))
    return rows
