"""Renderers of table sessions: the summary as text, as a JSON-ready dict and as CSV rows.

Simulated figures are estimates, each printed with its standard error over sessions (none for a
single session); exact totals are printed exactly; the fresh-shoe references (chemin de fer) are
exact fractions in JSON and rounded decimals, said to be exact, in text.
"""

from __future__ import annotations

import math
from fractions import Fraction

from solver.report import DEFAULT_TEXT_DIGITS, decimal_str, fraction_str
from solver.sessions import TableSummary
from solver.simulate import Estimate

GAME_NAMES = {"chemin": "chemin de fer", "banque": "baccara banque"}

ESTIMATE_LABELS = {
    "coups_per_session": "coups per session",
    "shoes_per_session": "shoes per session",
    "house_per_session": "house's take per session",
    "house_per_coup": "house's take per coup",
    "house_per_shoe": "house's take per shoe",
    "house_per_unit_at_stake": "house's take per unit at stake",
    "at_stake_per_coup": "sum at stake per coup",
    "banker_per_coup": "bank's result per coup held",
    "banker_per_unit_at_stake": "bank's result per unit at stake",
    "runs_per_session": "bank runs per session",
    "run_length": "bank run length (coups)",
}
"""What each estimate of :meth:`TableSummary.estimates` is, in words (the JSON keys are the names)."""

RUN_COLUMNS = 8

TABLE_CSV_HEADER = ("section", "item", "estimate", "se", "ci_low", "ci_high", "units", "exact")
"""``baccarat table --format csv``: one row per figure. ``total`` rows (coups, shoes, tax, banker_net,
at_stake, sessions, runs) and the counts (``run_count``: ended bank runs by length; ``event``; ``end``:
sessions by why they ended) hold their exact value in ``exact``; ``estimate`` and ``seat`` rows an
estimate with its standard error, 95 % interval and units (sessions), and, where there is one, the exact
fresh-shoe value in ``exact``; ``run_length`` rows the Kaplan-Meier P(a bank run lasts k coups) beside
its exact law."""


def estimate_dict(e: Estimate) -> dict[str, object]:
    """An estimate as JSON: value, standard error and 95 % interval (``null`` where undefined)."""

    def num(x: float) -> float | None:
        return None if math.isnan(x) else x

    lo, hi = e.ci()
    return {"estimate": num(e.value), "se": num(e.se), "ci_low": num(lo), "ci_high": num(hi), "units": e.units}


def _pm(e: Estimate, digits: int | None) -> str:
    if math.isnan(e.value):
        return "n/a"
    if math.isnan(e.se):
        return f"{e.value:.{DEFAULT_TEXT_DIGITS if digits is None else digits}f}"
    d = digits if digits is not None else max(0, min(8, 1 - math.floor(math.log10(e.se)))) if e.se > 0 else 2
    return f"{e.value:.{d}f} ± {e.se:.{d}f}"


MONEY_TOTALS = ("tax", "banker_net", "at_stake")
"""The totals that are sums of money: exact, so strings ``"p/q"`` as every exact number of the JSON;
the others count (coups, shoes, sessions, runs), so JSON integers."""


def table_dict(s: TableSummary, digits: int | None = None) -> dict[str, object]:
    """The summary as a JSON-ready dict (see docs/table-log.md for the fields)."""
    t = s.table
    totals = s.totals()
    out: dict[str, object] = {
        "method": s.method,
        "table": t.describe(),
        "strategy": s.strategy,
        "policies": s.policies.name,
        "seed": s.seed,
        "sessions": totals["sessions"],
        "totals": {k: fraction_str(v) if k in MONEY_TOTALS else int(v) for k, v in totals.items()},
        "estimates": {k: estimate_dict(v) for k, v in s.estimates().items()},
        "seats": {str(i + 1): estimate_dict(e) for i, e in enumerate(s.seat_results())},
        "run_lengths": {str(k): v for k, v in s.run_lengths().items()},
        "run_length_law": {str(k + 1): p for k, p in enumerate(s.run_length_law(RUN_COLUMNS))} if s.run_lengths() else None,
        "censored_runs": s.censored_runs(),
        "events": {k.value: v for k, v in s.events().items()},
        "ends": {k.value: v for k, v in s.ends().items()},
        "exact": None,
    }
    ref = s.exact
    if ref is not None:
        law = ref.run_law(RUN_COLUMNS)
        mean = ref.run_mean()
        out["exact"] = {
            "what": "one coup dealt from a fresh shoe under the strategy (enumerator)",
            "p_banker": fraction_str(ref.law["banker"]),
            "p_ponte": fraction_str(ref.law["ponte"]),
            "p_tie": fraction_str(ref.law["tie"]),
            "house_per_unit_at_stake": fraction_str(ref.house_per_unit),
            "bank_per_unit_at_stake": fraction_str(ref.bank_per_unit),
            "pass_after": ref.pass_after,
            "run_length_mean": None if mean is None else fraction_str(mean),
            "run_length_law": None if law is None else {str(k + 1): fraction_str(p) for k, p in enumerate(law)},
        }
    return out


def _exact(x: Fraction, digits: int | None) -> str:
    return decimal_str(x, 6 if digits is None else digits)


def _exact_values(s: TableSummary) -> dict[str, Fraction | None]:
    ref = s.exact
    return {
        "house_per_unit_at_stake": ref.house_per_unit if ref else None,
        "banker_per_unit_at_stake": ref.bank_per_unit if ref else None,
        "run_length": ref.run_mean() if ref else None,
    }


def table_csv_rows(s: TableSummary) -> list[tuple[str, ...]]:
    """The summary as CSV rows under :data:`TABLE_CSV_HEADER`."""
    rows: list[tuple[str, ...]] = []

    def count(section: str, item: object, value: Fraction | int) -> None:
        rows.append((section, str(item), "", "", "", "", "", fraction_str(value)))

    def est(section: str, item: str, e: Estimate, exact: Fraction | None = None) -> None:
        lo, hi = e.ci()
        err = (repr(e.se), repr(lo), repr(hi)) if e.has_error else ("", "", "")
        value = "" if math.isnan(e.value) else repr(e.value)
        rows.append((section, item, value, *err, str(e.units), "" if exact is None else fraction_str(exact)))

    for k, v in s.totals().items():
        count("total", k, v)
    exact = _exact_values(s)
    for k, e in s.estimates().items():
        est("estimate", k, e, exact.get(k))
    for i, e in enumerate(s.seat_results(), 1):
        est("seat", str(i), e)
    if s.run_lengths() or s.censored_runs():
        law = s.exact.run_law(RUN_COLUMNS) if s.exact else None
        for j, p in enumerate(s.run_length_law(RUN_COLUMNS), 1):
            rows.append(
                ("run_length", str(j), repr(p), "", "", "", str(s.stats.n), "" if law is None else fraction_str(law[j - 1]))
            )
    for length, n in s.run_lengths().items():
        count("run_count", length, n)
    for event, n in s.events().items():
        count("event", event.value, n)
    for end, n in s.ends().items():
        count("end", end.value, n)
    return rows


def table_text(s: TableSummary, digits: int | None = None) -> str:
    """A human report of a run of sessions."""
    t = s.table
    totals = s.totals()
    n = totals["sessions"]
    est = s.estimates()
    ref = s.exact
    kind = f" ({t.banque})" if t.game == "banque" else ""
    lines = [
        f"{GAME_NAMES[t.game].capitalize()}{kind} at the table, {n:,} session{'s' if n != 1 else ''} of "
        f"{t.shoes} shoe{'s' if t.shoes != 1 else ''}, seed {s.seed}: ESTIMATES, each ± its standard error "
        "over sessions" + (" (one session: none)" if n == 1 else "")
    ]
    lines.append(
        f"  table: {t.seats} seats; minimum banco {fraction_str(t.minimum_banco)}, minimum stake "
        f"{fraction_str(t.stake_floor)}; house: {t.tax_label()}" + ("; a busted bank may be put up again" if t.rebank else "")
    )
    lines.append(f"  shoe: {t.shoe.label()}; {t.burn.label()}; cut card with {t.cut_cards} cards behind it")
    lines.append(f"  strategy: {s.strategy}")
    lines.append(f"  policies: {s.policies.name}")
    lines.append(
        f"  totals (exact): {totals['coups']:,} coups, {totals['shoes']:,} shoe{'s' if totals['shoes'] != 1 else ''}, "
        "house's take "
        f"{fraction_str(totals['tax'])}, bank's result {fraction_str(totals['banker_net'])}, at stake "
        f"{fraction_str(totals['at_stake'])}"
    )
    lines.append("")
    width = max(len(v) for v in ESTIMATE_LABELS.values()) + 2
    exact_col = _exact_values(s)
    for key, label in ESTIMATE_LABELS.items():
        row = f"  {label:<{width}} {_pm(est[key], digits):>24}"
        x = exact_col.get(key)
        if x is not None:
            row += f"   exact, fresh shoe: {_exact(x, digits)}"
        lines.append(row)
    lengths = s.run_lengths()
    ended = sum(lengths.values())
    if ended:
        lines.append("")
        lines.append(
            f"  bank runs by length in coups ({ended:,} ended, {s.censored_runs():,} cut short by the "
            "session's end; Kaplan-Meier):"
        )
        cols = list(range(1, RUN_COLUMNS + 1))
        lines.append("    coups     " + "".join(f"{k:>9}" for k in cols) + f"{'more':>9}")
        share = s.run_length_law(RUN_COLUMNS)
        lines.append("    estimate  " + "".join(f"{x:>9.4f}" for x in share) + f"{1 - sum(share):>9.4f}")
        law = ref.run_law(RUN_COLUMNS) if ref else None
        if law is not None:
            lines.append(
                "    exact     " + "".join(f"{decimal_str(p, 4):>9}" for p in law) + f"{decimal_str(1 - sum(law), 4):>9}"
            )
    if ref is not None:
        lines.append("")
        lines.append(
            f"  exact, one coup from a fresh shoe: P(banker) {_exact(ref.law['banker'], digits)}, "
            f"P(ponte) {_exact(ref.law['ponte'], digits)}, P(tie) {_exact(ref.law['tie'], digits)}"
        )
        if ref.pass_after is not None:
            lines.append(
                f"  (bankers pass the hand after {ref.pass_after} wins)" if ref.pass_after else "  (bankers never pass the hand)"
            )
    lines.append("")
    lines.append("  events: " + (", ".join(f"{k.value} {v:,}" for k, v in s.events().items()) or "none"))
    lines.append("  sessions ended: " + ", ".join(f"{k.value} {v:,}" for k, v in s.ends().items()))
    lines.append("")
    lines.append("  each seat's result per session:")
    for i, e in enumerate(s.seat_results()):
        lines.append(f"    seat {i + 1:>2}  {_pm(e, digits):>24}")
    return "\n".join(lines)
