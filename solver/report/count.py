"""Renderers of effects of removal (:class:`~solver.count.eor.EorResult`) and counting studies
(:class:`~solver.count.CountResult`): text, JSON-ready dicts, CSV rows.

Effects of removal are exact (``p/q``, decimals rounded from them); a correlation is a decimal, its
square exact where it is rational. Counting studies are estimates, each printed with its standard
error.
"""

from __future__ import annotations

from fractions import Fraction

from solver.count import CountResult, Play
from solver.count.eor import EorResult
from solver.punto import sqrt_str
from solver.report import DEFAULT_TEXT_DIGITS, decimal_str, fraction_str, percent_str, where_run
from solver.simulate import Estimate

# -- effects of removal --------------------------------------------------------------------------------


def _corr(sign: int, squared: Fraction, digits: int) -> str:
    """A correlation from its exact square and its sign, rounded to ``digits`` places."""
    return ("-" if sign < 0 else "") + sqrt_str(squared, digits)


def eor_dict(r: EorResult, digits: int | None = None) -> dict[str, object]:
    """JSON-ready: per bet the exact EV, each kind's effect (exact, and as a decimal with ``digits``),
    the tags, and the count's correlations."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    bets = []
    for b in r.bets:
        entry: dict[str, object] = {
            "name": b.name,
            "description": b.description,
            "ev": fraction_str(b.ev),
            "effects": [
                {
                    "card": x.card,
                    "cards": x.cards,
                    "ev": fraction_str(x.ev),
                    "effect": fraction_str(x.effect),
                    **({"effect_decimal": decimal_str(x.effect, digits)} if digits is not None else {}),
                    "tag": t,
                }
                for x, t in zip(b.removals, b.tags)
            ],
            "imbalance": b.imbalance,
            "betting_correlation_squared": fraction_str(b.betting_correlation_squared),
            "betting_correlation_decimal": _corr(b.betting_correlation_sign, b.betting_correlation_squared, max(d, 3)),
            "count_correlation": b.count_correlation,
            "count_correlation_unrounded": b.exact_count_correlation,
        }
        bets.append(entry)
    return {
        "shoe": r.shoe.spec(),
        "exact": True,
        "by": r.by,
        "level": r.level,
        "method": r.method,
        "samples": r.samples,
        "seed": r.seed,
        "depth": list(r.depth) if r.samples else None,
        "bets": bets,
    }


EOR_CSV_HEADER = ("shoe", "bet", "card", "cards", "effect", "decimal", "tag")


def eor_csv_rows(r: EorResult, digits: int | None = None) -> list[tuple[str, ...]]:
    """One row per bet and kind of card: the exact effect, its decimal (with ``digits``), the tag."""
    label = r.shoe.label()
    return [
        (
            label,
            b.name,
            x.card,
            str(x.cards),
            fraction_str(x.effect),
            decimal_str(x.effect, digits) if digits is not None else "",
            str(t),
        )
        for b in r.bets
        for x, t in zip(b.removals, b.tags)
    ]


def eor_text(r: EorResult, digits: int | None = None) -> str:
    """Per bet: the effect of removing one card of each kind, exactly and in % of a unit, and the count."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    kind = "rank" if r.by == "rank" else "point value (T: the ten-valued cards)"
    lines = [
        f"Effects of removal, {r.shoe.label()} ({r.shoe.size} cards): the exact change in each bet's expected value "
        f"when one card of each {kind} is removed",
        f"  tags: effects scaled so the largest is ±{r.level}, rounded half away from zero",
    ]
    for b in r.bets:
        lines += [
            "",
            f"  {b.name}: {b.description}",
            f"  expected value {fraction_str(b.ev)} ({percent_str(b.ev, d)} %)",
            f"    {'card':<4} {'cards':>5}  {'effect (exact)':<40} {'% of a unit':>{d + 8}} {'tag':>4}",
        ]
        for x, t in zip(b.removals, b.tags):
            effect = f"{fraction_str(x.effect):<40} {percent_str(x.effect, d):>{d + 8}}"
            lines.append(f"    {x.card:<4} {x.cards:>5}  {effect} {t:>+4d}")
        balance = "balanced" if b.imbalance == 0 else f"unbalanced (the shoe sums to {b.imbalance:+d})"
        lines.append(f"    count: {', '.join(f'{x.card} {t:+d}' for x, t in zip(b.removals, b.tags))}; {balance}")
        lines.append(
            f"    betting correlation (tags against effects, weighted by the shoe): "
            f"{_corr(b.betting_correlation_sign, b.betting_correlation_squared, 3)}"
        )
        if b.count_correlation is not None:
            lines.append(
                f"    correlation of the true count with the exact edge over {r.samples} random shoes "
                f"({r.depth[0]} to {r.depth[1]} cards removed, seed {r.seed}; an estimate): "
                f"{b.count_correlation:.3f} (unrounded tags {b.exact_count_correlation:.3f})"
            )
    lines += ["", f"  Exact: {r.method}. Percentages rounded to {d} decimals."]
    return "\n".join(lines)


# -- counting studies ------------------------------------------------------------------------------------


def _est(e: Estimate, scale: float = 1.0) -> dict[str, float | int]:
    return {"estimate": e.value * scale, "se": e.se * scale, "units": e.units}


def _play_dict(p: Play) -> dict[str, object]:
    return {
        "bets_per_shoe": _est(p.bets_per_shoe),
        "frequency": _est(p.frequency),
        "win_per_shoe": _est(p.win_per_shoe),
        "win_per_100_coups": _est(p.win_per_100),
        "average_edge": _est(p.average_edge),
        "result_per_shoe": _est(p.result_per_shoe),
    }


def count_dict(r: CountResult, digits: int | None = None) -> dict[str, object]:
    """JSON-ready: the study, then per bet every estimate as ``{estimate, se, units}`` (units: shoes)."""
    bets = []
    for b in r.bets:
        bets.append(
            {
                "name": b.name,
                "description": b.description,
                "mean_edge": _est(b.mean_edge),
                "mean_result": _est(b.mean_result),
                "difference": _est(b.difference),
                "positive": _est(b.positive),
                "perfect_play": _play_dict(b.perfect),
                "count": (
                    {**_play_dict(b.count), **(b.linear_count.describe() if b.linear_count else {})}
                    if b.count is not None
                    else None
                ),
                "quantiles": [{"q": q, "edge": e} for q, e in b.quantiles],
                "lowest": b.lowest,
                "highest": b.highest,
                "by_depth": [
                    {"unseen_from": a, "unseen_to": z, "coups": c, "mean_edge": m, "positive": p} for a, z, c, m, p in b.by_depth
                ],
            }
        )
    return {
        "study": r.config.describe(),
        "seed": r.seed,
        "shoes": r.n_shoes,
        "coups": r.n_coups,
        "coups_per_shoe": _est(r.coups_per_shoe),
        "evaluations": r.evaluations,
        "elapsed": r.elapsed,
        **where_run(r.workers),
        "exact_edges": True,
        "estimates": True,
        "method": r.method,
        "bets": bets,
    }


COUNT_CSV_HEADER = ("bet", "play", "item", "estimate", "se", "shoes")


def count_csv_rows(r: CountResult, digits: int | None = None) -> list[tuple[str, ...]]:
    """One row per bet and estimate: ``bet, play (all, perfect, count), item, estimate, se, shoes``."""
    rows: list[tuple[str, ...]] = []

    def add(bet: str, play: str, item: str, e: Estimate) -> None:
        rows.append((bet, play, item, repr(e.value), repr(e.se), str(e.units)))

    for b in r.bets:
        add(b.name, "all", "mean_edge", b.mean_edge)
        add(b.name, "all", "mean_result", b.mean_result)
        add(b.name, "all", "positive", b.positive)
        for play, p in (("perfect", b.perfect), ("count", b.count)):
            if p is None:
                continue
            for item, e in (
                ("bets_per_shoe", p.bets_per_shoe),
                ("frequency", p.frequency),
                ("win_per_shoe", p.win_per_shoe),
                ("win_per_100_coups", p.win_per_100),
                ("average_edge", p.average_edge),
                ("result_per_shoe", p.result_per_shoe),
            ):
                add(b.name, play, item, e)
    return rows


def _pm(e: Estimate, digits: int, scale: float = 1.0) -> str:
    return f"{e.value * scale:.{digits}f} ± {e.se * scale:.{digits}f}"


def count_text(r: CountResult, digits: int | None = None) -> str:
    """A human report of a counting study: every number an estimate ± its standard error."""
    d = 3 if digits is None else digits
    c = r.config
    t = c.table
    know = (
        "every card dealt and the turned burn card (edges on the cards not seen)"
        if c.knowledge == "unseen"
        else "every card out of the shoe, the burned ones too (edges on the cards left in the shoe)"
    )
    lines = [
        f"Counting study, punto banco, {t.shoe.label()} ({t.shoe.size} cards): ESTIMATES ± standard error over shoes; "
        "each coup's edge is exact",
        f"  table: {t.burn.label()}; cut card with {t.cut} cards behind it"
        + ("; one more coup after the cut card" if t.extra_coup else ""),
        f"  the player knows {know}",
        f"  dealt {r.n_shoes:,} shoes, {r.n_coups:,} coups ({_pm(r.coups_per_shoe, 2)} a shoe), "
        f"{r.evaluations:,} exact evaluations; seed {r.seed}",
    ]
    for b in r.bets:
        lines += [
            "",
            f"  {b.name}: {b.description}",
            f"    mean exact edge over every coup    {_pm(b.mean_edge, d + 2, 100)} %   "
            f"(simulated results of the same bets: {_pm(b.mean_result, d + 1, 100)} %; "
            f"difference {b.agreement():+.1f} SE)",
            f"    edge positive on                   {_pm(b.positive, d, 100)} % of coups",
            "    edge over all coups: "
            + ", ".join(f"{int(q * 100)}% {e * 100:+.1f}%" for q, e in b.quantiles)
            + f"; lowest {b.lowest * 100:+.2f}%, highest {b.highest * 100:+.2f}%",
            f"    {'':28} {'bets/shoe':>16} {'bet on % coups':>16} {'units/shoe':>18} {'units/100 coups':>18} "
            f"{'average edge %':>16}",
        ]
        plays = [("perfect play (edge > 0)", b.perfect)]
        if b.count is not None and b.linear_count is not None:
            plays.append((f"count, true count >= {fraction_str(b.linear_count.threshold)}", b.count))
        for name, p in plays:
            lines.append(
                f"    {name:<28} {_pm(p.bets_per_shoe, 2):>16} {_pm(p.frequency, d, 100):>16} "
                f"{_pm(p.win_per_shoe, d):>18} {_pm(p.win_per_100, d):>18} {_pm(p.average_edge, d, 100):>16}"
            )
        if b.linear_count is not None:
            lines.append(f"    count tags ({b.linear_count.source}): {b.linear_count.label()}")
    lines += ["", f"  Method: {r.method}."]
    return "\n".join(lines)
