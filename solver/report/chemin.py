"""Renderers of chemin de fer :class:`~solver.chemin.solve.Solution`: text, JSON-ready dict, CSV rows."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from fractions import Fraction

from solver.cards import Shoe
from solver.chemin.certificate import dominance_dict
from solver.chemin.optimal import Constraint, OptimalSet
from solver.chemin.solve import Solution
from solver.report import DEFAULT_TEXT_DIGITS, TEXT_WIDTH, decimal_str, fraction_str, percent_str, shoe_words
from solver.rules.tableau import SEEN_LABELS, Action
from solver.strategy import InfoSet, Side, compositions_of, format_infoset


def model_dict(s: Solution) -> dict[str, object]:
    m = s.game.model
    return {
        "name": m.name(s.game.shoe),
        "dealing": "A" if s.game.shoe.is_infinite else "B",
        "information": int(m.information),
        "freedom": m.sheet,
        "commission": fraction_str(m.commission),
    }


def chemin_dict(s: Solution, digits: int | None = None) -> dict[str, object]:
    """JSON-ready dict with exact ``p/q`` strings (``*_decimal`` companions with ``digits``)."""
    g = s.game
    out: dict[str, object] = {
        "game": "chemin de fer",
        "shoe": g.shoe.spec(),
        "model": model_dict(s),
        "value": fraction_str(s.value),
        "ponte_payoff": fraction_str(s.ponte_payoff),
        "banker_payoff": fraction_str(s.banker_payoff),
        "ponte": {format_infoset(k): fraction_str(v) for k, v in s.ponte().items()},
        "banker": {format_infoset(k): fraction_str(v) for k, v in s.banker().items()},
        "certified": s.certified,
        "method": s.method,
        "dominance": [dominance_dict(d) for d in s.dominance],
        "free_after_dominance": [format_infoset(k) for k in free_after_dominance(s)],
        "inert": [format_infoset(k) for k, inert in zip(g.ponte_sets + g.banker_sets, g.inert_ponte + g.inert_banker) if inert],
    }
    if g.zero_sum:
        out["unique"] = {"ponte": s.unique_ponte is True, "banker": s.unique_banker is True}  # proved unique
        if s.optimal_set is not None:
            out["optimal_set"] = {
                o.player.value: {
                    "fixed": {format_infoset(k): fraction_str(v) for k, v in o.fixed.items()},
                    "free": [format_infoset(k) for k in o.free],
                    "constraints": [
                        {
                            "weights": {format_infoset(k): fraction_str(w) for k, w in c.weights.items()},
                            "relation": c.relation,
                            "rhs": fraction_str(c.rhs),
                        }
                        for c in o.constraints
                    ],
                }
                for o in s.optimal_set
            }
    else:
        out["unique_equilibrium"] = s.unique_equilibrium
        if s.equilibria:
            out["equilibria_ponte"] = [fraction_str(x) for x in s.equilibria]
        if s.cases is not None and s.cases.unique:
            out["cases"] = s.cases.leaves
        if s.cases is not None and s.cases.other is not None:
            oq, orr = s.cases.other
            out["second_equilibrium"] = {
                "ponte": {format_infoset(k): fraction_str(v) for k, v in zip(g.ponte_sets, oq)},
                "banker": {format_infoset(k): fraction_str(v) for k, v in zip(g.banker_sets, orr)},
            }
    if digits is not None:
        out["value_decimal"] = decimal_str(s.value, digits)
        out["ponte_decimal"] = {format_infoset(k): decimal_str(v, digits) for k, v in s.ponte().items()}
    return out


def uniqueness_words(s: Solution, proved: str = "proved") -> str:
    """What is known of uniqueness, in words: zero-sum ``"<ponte>, <banker>"``; with commission
    ``proved`` / ``no`` / ``not decided``."""
    if s.game.zero_sum:
        return f"{proved if s.unique_ponte else 'not proved'}, {proved if s.unique_banker else 'not proved'}"
    if s.unique_equilibrium is None:
        return "not decided"
    return proved if s.unique_equilibrium else "no"


def not_proved_unique(s: Solution, side: int) -> bool:
    """Zero-sum: that side's (0 ponte, 1 banker) optimal strategy is not proved unique; with commission: the
    equilibrium is not (it is unique, not unique, or not decided)."""
    if s.game.zero_sum:
        return not (s.unique_ponte, s.unique_banker)[side]
    return s.unique_equilibrium is not True


def not_unique_phrase(s: Solution, who: str) -> str:
    """Words for a marked entry without a described optimal set."""
    if s.game.zero_sum:
        return f"another optimal {who} strategy may exist (uniqueness not proved)"
    return "another equilibrium exists" if s.unique_equilibrium is False else "the equilibrium is not proved unique"


def free_after_dominance(s: Solution) -> list[InfoSet]:
    """Banker sets that iterated dominance leaves open."""
    settled = {d.infoset for d in s.dominance if d.player is Side.BANKER}
    return [k for k in s.game.banker_sets if k not in settled]


CSV_HEADER = ("shoe", "model", "item", "exact", "decimal")


def chemin_csv_rows(s: Solution, digits: int | None = None) -> list[tuple[str, ...]]:
    """Long-format rows: the value, each side's payoff, and every strategy entry."""
    items: list[tuple[str, Fraction]] = [("value", s.value), ("ponte_payoff", s.ponte_payoff), ("banker_payoff", s.banker_payoff)]
    items += [(f"ponte:{format_infoset(k)}", v) for k, v in s.ponte().items()]
    items += [(f"banker:{format_infoset(k)}", v) for k, v in s.banker().items()]
    label, model = s.game.shoe.label(), s.game.label
    return [(label, model, k, fraction_str(v), decimal_str(v, digits) if digits is not None else "") for k, v in items]


def can_be_dealt(shoe: Shoe, key: InfoSet) -> bool:
    """Whether the shoe can deal the hand an information set names: the cards held (any two making the
    total, when only the total is known) together with the third card seen, if any.

    >>> odd = Shoe.from_values((4, 1, 1, 1, 1, 1, 1, 1, 1, 1))
    >>> can_be_dealt(odd, InfoSet(Side.BANKER, cards=(5, 5), seen=(0,))), can_be_dealt(odd, InfoSet(Side.PONTE, 5))
    (False, True)
    """
    seen = [x for x in key.seen if 0 <= x <= 9]
    hands = [key.cards] if key.cards is not None else list(compositions_of(key.total))
    return any(shoe.can_deal([*hand, *seen]) for hand in hands)


def _cell(action: Action, p: Fraction | None, dominated: bool) -> str:
    if p is None:
        return action.value
    mark = "*" if dominated else ""
    if p == 1:
        return "D" + mark
    if p == 0:
        return "S" + mark
    return "m"


def banker_grid(s: Solution) -> list[tuple[str, list[str]]]:
    """The banker's optimal tableau as rows (label, 11 cells): D, S, D*/S* (settled by dominance), m (mixed).

    Rows are banker totals; under information 2 and 3 a total with free cells is split into its
    compositions, leaving out those the shoe cannot deal.
    """
    g = s.game
    tab = g.model.tableau
    strat = s.banker()
    dominated = {d.infoset for d in s.dominance if d.player is Side.BANKER}
    rows: list[tuple[str, list[str]]] = []
    for total in range(8):
        has_free = any(tab.banker[total][c] is Action.FREE for c in range(11))
        if g.model.information == 1 or not has_free:
            owners: list[tuple[int, int] | None] = [None]
        else:
            owners = [c for c in compositions_of(total) if g.shoe.can_deal(c)]
        for own in owners:
            cells = []
            for c in range(11):
                key = InfoSet(Side.BANKER, total, cards=own, seen=(c,))
                act = tab.banker[total][c]
                p = strat.get(key) if act is Action.FREE else None
                cells.append(_cell(act, p, key in dominated))
            label = str(total) if own is None else f"{own[0]}+{own[1]} ({total})"
            rows.append((label, cells))
    return rows


def ponte_words(s: Solution, digits: int) -> str:
    """The ponte's strategy at 5 in a few words: ``draws``, ``stands``, ``draws with probability 9/11 (≈ 0.8182)``,
    or under information 3 one entry per two-card hand the shoe can deal: ``0+5: draw, 1+4: 35003/74880 ...``."""

    def say(v: Fraction, verb: bool) -> str:
        if v in (0, 1):
            return ("draws" if v == 1 else "stands") if verb else ("draw" if v == 1 else "stand")
        return f"{'draws with probability ' if verb else ''}{fraction_str(v)} (≈ {decimal_str(v, digits)})"

    items = [(k, v) for k, v in s.ponte().items() if can_be_dealt(s.game.shoe, k)]
    if len(s.q) == 1:
        return say(items[0][1], True) if items else "never holds 5"
    return ", ".join(f"{format_infoset(k)}: {say(v, False)}" for k, v in items)


def percent_words(x: Fraction) -> str:
    """A share of the stake in plain words, rounded to two decimals: ``1.29 %``."""
    return f"{percent_str(abs(x), 2)} %"


def describe_optimal_set(o: OptimalSet) -> tuple[dict[InfoSet, tuple[Fraction, Fraction]], list[Constraint]]:
    """The optimal set's free sets with the interval each may range over (from the constraints on it
    alone), and the constraints that tie several free sets together."""
    bounds = {k: (Fraction(0), Fraction(1)) for k in o.free}
    joint = []
    for c in o.constraints:
        if len(c.weights) == 1:
            ((k, w),) = c.weights.items()
            lo, hi = bounds[k]
            x = c.rhs / w
            rel = c.relation if w > 0 else {"=": "=", ">=": "<=", "<=": ">="}[c.relation]
            bounds[k] = (max(lo, x) if rel in (">=", "=") else lo, min(hi, x) if rel in ("<=", "=") else hi)
        else:
            joint.append(c)
    return bounds, joint


def constraint_words(c: Constraint) -> str:
    """``1/2·x(0+5) + 1/8·x(1+4) = 9/11``."""
    return (
        " + ".join(f"{fraction_str(w)}·x({format_infoset(k)})" for k, w in c.weights.items())
        + f" {c.relation} {fraction_str(c.rhs)}"
    )


def interval_words(k: InfoSet, lo: Fraction, hi: Fraction) -> str:
    """``x(0+5) in [23/28, 1]`` (or ``= p`` when the interval is a point)."""
    return (
        f"x({format_infoset(k)}) = {fraction_str(lo)}"
        if lo == hi
        else f"x({format_infoset(k)}) in [{fraction_str(lo)}, {fraction_str(hi)}]"
    )


def optimal_set_words(o: OptimalSet) -> str:
    """Every optimal strategy of one side in one sentence, for a caption: where play may vary, and how."""
    bounds, joint = describe_optimal_set(o)
    parts = [interval_words(k, lo, hi) for k, (lo, hi) in bounds.items() if (lo, hi) != (Fraction(0), Fraction(1))]
    parts += [constraint_words(c) for c in joint]
    free = ", ".join(map(format_infoset, o.free))
    where = (
        f"at {free}, any draw probabilities x in [0, 1]"
        if not o.fixed
        else f"as shown except at {free}, where the draw probabilities x may be any in [0, 1]"
    )
    return where + (f" with {'; '.join(parts)}" if parts else "")


def optimal_set_lines(o: OptimalSet) -> list[str]:
    """Every optimal strategy of one side, in words: the sets where play may vary, each with its range
    of draw probabilities, and the linear conditions that tie several together (tightest only)."""
    bounds, joint = describe_optimal_set(o)
    who = o.player.value

    def wrap(text: str, indent: str) -> list[str]:
        return textwrap.wrap(text, TEXT_WIDTH, initial_indent=indent, subsequent_indent=indent + "    ", break_on_hyphens=False)

    def rng(k: InfoSet) -> str:
        lo, hi = bounds[k]
        return (
            f"draw with probability {fraction_str(lo)}"
            if lo == hi
            else f"any draw probability in [{fraction_str(lo)}, {fraction_str(hi)}]"
        )

    if not joint:
        return wrap(
            f"every optimal {who} strategy: as shown, except " + "; ".join(f"at {format_infoset(k)}: {rng(k)}" for k in o.free),
            "  ",
        )
    lines = wrap(
        f"every optimal {who} strategy: as shown, except at {', '.join(map(format_infoset, o.free))}, where"
        " the draw probabilities x may be any in [0, 1] that satisfy",
        "  ",
    )
    lines += [
        x
        for k, (lo, hi) in bounds.items()
        if (lo, hi) != (Fraction(0), Fraction(1))
        for x in wrap(interval_words(k, lo, hi), "    ")
    ]
    for c in joint:
        lines += wrap(constraint_words(c), "    ")
    return lines


def chemin_text(s: Solution, digits: int | None = None) -> str:
    """A human report: value, the ponte's strategy, the banker's tableau, certification; each technical
    line followed by one plain sentence (indented further)."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    g = s.game
    m = g.model
    lines = [
        f"Chemin de fer, {shoe_words(g.shoe)}, model {m.name(g.shoe)} ({m.sheet}), commission {fraction_str(m.commission)}",
    ]
    if g.zero_sum:
        lines.append(f"  value (banker's advantage): {fraction_str(s.value)}  ≈ {percent_str(s.value, d)} %")
        lines.append(
            f"    With both sides playing their best, the banker {'wins' if s.value >= 0 else 'loses'} about "
            f"{percent_words(s.value)} of the stake per coup."
        )
    else:
        bp, pp = s.banker_payoff, s.ponte_payoff
        lines.append(f"  banker's payoff (net of commission): {fraction_str(bp)}  ≈ {percent_str(bp, d)} %")
        lines.append(f"  ponte's payoff: {fraction_str(pp)}  ≈ {percent_str(pp, d)} %")
        if bp < 0 and pp < 0:
            lines.append(
                f"    Both sides lose to the house once its tax is taken (the banker about {percent_words(bp)}, "
                f"the ponte {percent_words(pp)})."
            )
        else:
            lines.append("    Each side's expected gain per unit staked at this equilibrium, the banker's after the tax.")
    at5 = ponte_words(s, d)
    lines += textwrap.wrap(
        f"ponte at 5: {at5}" if len(s.q) == 1 else f"ponte at 5, by his two cards: {at5}",
        TEXT_WIDTH - 2,
        initial_indent="  ",
        subsequent_indent="      ",
    )
    if any(0 < v < 1 for v in s.q):
        lines.append("    A probability means he draws at random with that chance, so that the banker cannot exploit him.")
    else:
        lines.append("    The same choice every time is optimal: he needs no randomising.")
    lines.append("")
    lines.append("  banker's tableau (rows: banker's total or composition; columns: ponte's third card, S = stood)")
    lines.append("  " + " " * 12 + " ".join(f"{c:>3}" for c in SEEN_LABELS))
    for label, cells in banker_grid(s):
        lines.append(f"  {label:<12}" + " ".join(f"{c:>3}" for c in cells))
    lines.append("  D/S: draw/stand (rule or optimal); D*/S*: free cell settled by iterated strict dominance; m: mixed")
    mixed = [(k, v) for k, v in s.banker().items() if 0 < v < 1 and can_be_dealt(g.shoe, k)]
    for k, v in mixed:
        lines.append(f"    m at {format_infoset(k)}: draw with probability {fraction_str(v)} (≈ {decimal_str(v, d)})")
    lines.append("")
    n_free = len(g.banker_sets)
    open_cells = free_after_dominance(s)
    left = (", ".join(map(format_infoset, open_cells)) or "none") if len(open_cells) <= 12 else f"{len(open_cells)} sets"
    lines.append(f"  free banker sets: {n_free}; settled by dominance: {n_free - len(open_cells)}; left open: {left}")
    lines.append("    A settled decision has one best answer whatever the ponte does; the open ones need the game.")
    lines += textwrap.wrap(
        f"certified: {'yes' if s.certified else 'NO'} — {s.method}",
        TEXT_WIDTH - 2,
        initial_indent="  ",
        subsequent_indent="      ",
    )
    lines.append(
        "    Checked in exact fractions: what the ponte can guarantee equals what the banker can guarantee."
        if g.zero_sum
        else "    Checked in exact fractions: neither side gains by changing any decision alone."
        if s.certified
        else "    NOT checked: do not rely on these numbers."
    )
    if g.zero_sum:
        lines.append(
            f"  unique optimal strategies: ponte {'proved' if s.unique_ponte else 'not proved'}, "
            f"banker {'proved' if s.unique_banker else 'not proved'}"
        )
        if s.unique_ponte and s.unique_banker:
            lines.append("    No other strategy of either side is optimal.")
        else:
            lines.append("    Where not proved, other optimal strategies may exist; all of them are described below.")
        for o, unique in zip(s.optimal_set or (), (s.unique_ponte, s.unique_banker)):
            if unique or not o.free:
                continue
            lines += optimal_set_lines(o)
    elif s.unique_equilibrium is not None:
        eq = f" (ponte strategies at equilibria: {', '.join(map(fraction_str, s.equilibria))})" if s.equilibria else ""
        if s.cases is not None and s.cases.unique:
            eq = f" (by a case analysis: {s.cases.leaves} cases, each refuted exactly)"
        elif s.cases is not None and s.cases.other is not None:
            other = ", ".join(f"{format_infoset(k)}: {fraction_str(v)}" for k, v in zip(g.ponte_sets, s.cases.other[0]))
            eq = f" (another equilibrium has the ponte at 5: {other})"
        lines.append(f"  equilibrium unique: {'proved' if s.unique_equilibrium else 'no'}{eq}")
    return "\n".join(lines)


def chemin_table_text(solutions: list[Solution], digits: int | None = None, lines: Sequence[int] | None = None) -> str:
    """One row per shoe: the banker's value (with commission: each side's payoff) and the ponte's draw
    probability at 5, rounded for comparison; with ``lines`` (``--shoes``), each row after its line's number."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    first = solutions[0]
    zero_sum = all(x.game.zero_sum for x in solutions)
    sets = [format_infoset(k) for k in first.game.ponte_sets]
    n = max(d + 5, 9)
    payoffs = f"{'value %':>{n}}" if zero_sum else f"{'banker %':>{n}} {'ponte %':>{n}}"
    width = max([4, *(len(str(x)) for x in lines)]) if lines is not None else 0
    head = f"{'line':>{width}} " if lines is not None else ""
    head += f"{'shoe':<10} {'model':<12} {payoffs}  " + "  ".join(f"{'q(' + k + ')':>{d + 4}}" for k in sets)
    what = (
        "the banker's value (his expected gain per coup, in % of the stake)"
        if zero_sum
        else "each side's expected payoff per coup at equilibrium\n(in % of the stake; the banker's net of commission)"
    )
    out = [
        f"Chemin de fer ({first.game.model.sheet}, commission {fraction_str(first.game.model.commission)}): {what}",
        f"and q, the ponte's probability of drawing at 5, rounded to {d} decimals (exact in --format json)",
        head,
    ]
    marked = []
    for i, s in enumerate(solutions):
        pay = (
            f"{percent_str(s.value, d):>{n}}"
            if zero_sum
            else f"{percent_str(s.banker_payoff, d):>{n}} {percent_str(s.ponte_payoff, d):>{n}}"
        )
        row = f"{lines[i]:>{width}} " if lines is not None else ""
        row += f"{s.game.shoe.label():<10} {s.game.label:<12} {pay}  "
        row += "  ".join(f"{decimal_str(x, d):>{max(d + 4, len(k) + 3)}}" for k, x in zip(sets, s.q))
        if not_proved_unique(s, 0):
            row += " †"
            marked.append((i, s))
        out.append(row)
    for i, s in marked:
        where = f"{s.game.shoe.label()} ({s.game.label}" + (f", line {lines[i]})" if lines is not None else ")")
        words = (
            f"on {where} {not_unique_phrase(s, 'ponte')}"
            if s.optimal_set is None
            else f"on {where} the ponte's optimal strategy is not unique and the row shows one of them; every "
            f"optimal ponte strategy there is {optimal_set_words(s.optimal_set[0])}"
        )
        out += textwrap.wrap("†: " + words + ".", TEXT_WIDTH, subsequent_indent="   ")
    return "\n".join(out)
