"""The full report on a shoe: punto banco, and chemin de fer under every model, in one result.

:func:`full_report` computes a :class:`FullReport`: punto banco's exact outcome law and bet edges on
one shoe, and chemin de fer's casino and parlor games under information 1, 2 and 3 on another
(by default each game's shoe as it is played: 8 decks and 6), solved exactly and certified, both
without commission (the zero-sum game) and with the casino's commission on the banker's wins.
:func:`full_text`, :func:`full_dict` and :func:`full_latex` render it; they are pure functions of
the result.

>>> from solver.cards import Shoe
>>> rep = full_report(Shoe.infinite(), Shoe.infinite(), commission=0)
>>> [model_name(s) for s in rep.chemin]
['A1 casino', 'A2 casino', 'A3 casino', 'A1 parlor', 'A2 parlor', 'A3 parlor']
>>> rep.certified, rep.commission
(True, ())
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from solver.bets import PuntoResult, exact, punto_banco
from solver.cards import Shoe
from solver.equilibrium import Solution, solve
from solver.game import build_game
from solver.report import decimal_str, fraction_str, percent_str
from solver.report import latex as tex
from solver.report.chemin import chemin_dict, chemin_text, uniqueness_words
from solver.report.punto import punto_dict, punto_text

DEFAULT_TEXT_DIGITS = 4

REPORT_COMMISSION = Fraction(1, 20)
"""The casino's commission on the banker's wins in the report's second set of games (5 %)."""

MODELS: tuple[tuple[str, int], ...] = tuple((f, i) for f in ("casino", "parlor") for i in (1, 2, 3))
"""The chemin de fer models of the report, in order: (freedom, information)."""


@dataclass(frozen=True)
class FullReport:
    """The whole exact analysis of a shoe.

    Attributes:
        punto: punto banco on the punto banco shoe.
        chemin: chemin de fer without commission, one certified solution per model in :data:`MODELS` order.
        commission: the same models with the commission on the banker's wins (empty if not asked for).
        method: how the numbers were obtained.
    """

    punto: PuntoResult
    chemin: tuple[Solution, ...]
    commission: tuple[Solution, ...] = ()
    method: str = "exact enumeration of every coup; each chemin de fer game solved exactly and certified in rationals"

    @property
    def chemin_shoe(self) -> Shoe:
        return self.chemin[0].game.shoe

    @property
    def certified(self) -> bool:
        """Every game's answer certified in exact rationals."""
        return all(s.certified for s in self.chemin + self.commission)


def report_steps(commission: Fraction | int | str = REPORT_COMMISSION) -> int:
    """How many units of work :func:`full_report` reports to its ``progress`` callback."""
    return 1 + len(MODELS) * (2 if exact(commission, "commission") else 1)


def full_report(
    punto_shoe: Shoe,
    chemin_shoe: Shoe,
    commission: Fraction | int | str = REPORT_COMMISSION,
    progress: Callable[[int], None] | None = None,
) -> FullReport:
    """Compute the full report.

    Args:
        punto_shoe: the shoe for punto banco (8 decks as played).
        chemin_shoe: the shoe for chemin de fer (6 decks as played).
        commission: α for the second set of chemin de fer games; 0 leaves them out.
        progress: called with the number of steps done (out of :func:`report_steps`).

    Raises:
        SolverError: a game could not be solved and certified exactly.
    """
    alpha = exact(commission, "commission")
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done)

    punto = punto_banco(punto_shoe)
    step()
    chemin = []
    for freedom, information in MODELS:
        chemin.append(solve(build_game(chemin_shoe, information, freedom)))
        step()
    with_commission = []
    if alpha:
        for freedom, information in MODELS:
            with_commission.append(solve(build_game(chemin_shoe, information, freedom, alpha)))
            step()
    return FullReport(punto=punto, chemin=tuple(chemin), commission=tuple(with_commission))


def model_name(s: Solution) -> str:
    """``B1 casino``."""
    return f"{s.game.model.name(s.game.shoe)} {s.game.model.freedom}"


# -- text -------------------------------------------------------------------------------------------


def _ponte_words(s: Solution, d: int) -> str:
    parts = []
    for k, v in s.ponte().items():
        word = "D" if v == 1 else "S" if v == 0 else decimal_str(v, max(d, 2))  # never round a mix to 0 or 1
        parts.append(word if len(s.q) == 1 else f"{k}: {word}")
    return ", ".join(parts)


def _shoe_words(shoe: Shoe) -> str:
    return "an infinite deck (dealt with replacement)" if shoe.is_infinite else shoe.label()


def _shoes_line(rep: FullReport) -> str:
    p, c = rep.punto.shoe, rep.chemin_shoe
    if p == c:
        return f"punto banco and chemin de fer on {_shoe_words(p)}"
    return f"punto banco on {_shoe_words(p)}; chemin de fer on {_shoe_words(c)}"


def chemin_summary_text(solutions: Sequence[Solution], digits: int | None = None) -> str:
    """One line per model: value (exact and %), the ponte's strategy at 5, certified, unique."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    zero_sum = all(s.game.zero_sum for s in solutions)
    w = max(len(fraction_str(s.value)) for s in solutions)
    pw = max(len(_ponte_words(s, d)) for s in solutions)
    n = max(d + 5, 9)  # a rounded percentage, or the column's head
    if zero_sum:
        head = f"  {'model':<10} {'value (exact)':<{w}} {'%':>{n}}  {'ponte at 5':<{pw}}  certified  unique (ponte, banker)"
    else:
        head = (f"  {'model':<10} {'banker (exact)':<{w}} {'banker %':>{n}} {'ponte %':>{n}}  "
                f"{'ponte at 5':<{pw}}  certified  unique equilibrium")
    lines = [head]
    for s in solutions:
        row = f"  {model_name(s):<10} {fraction_str(s.value):<{w}} {percent_str(s.value, d):>{n}} "
        if not zero_sum:
            row += f"{percent_str(s.ponte_payoff, d):>{n}} "
        row += f" {_ponte_words(s, d):<{pw}}  {'yes' if s.certified else 'NO':<9}  {uniqueness_words(s)}"
        lines.append(row)
    return "\n".join(lines)


def full_text(rep: FullReport, digits: int | None = None) -> str:
    """The full report for people: punto banco, a chemin de fer summary, then every game in full."""
    d = DEFAULT_TEXT_DIGITS if digits is None else digits
    games = rep.chemin + rep.commission
    lines = [
        "Baccarat: the full exact report",
        f"  {_shoes_line(rep)}",
        f"  Fractions are exact; percentages and decimals are rounded to {d} places from them.",
        "",
        "1. Punto banco",
        "",
        punto_text(rep.punto, digits),
        "",
        "2. Chemin de fer without commission (zero-sum): the banker's value and the ponte's optimal play",
        "",
        chemin_summary_text(rep.chemin, digits),
        "  ponte at 5: D draw, S stand, a number is his probability of drawing (under information 3, by his two cards)",
        "  models: A/B = infinite deck / the shoe without replacement; 1, 2, 3 = information (1: each side sees his own",
        "  total; 2: the banker also sees his two cards; 3: both do); casino = the rule sheet's tableau, parlor = every",
        "  banker decision free",
    ]
    if rep.commission:
        alpha = rep.commission[0].game.model.commission
        lines += [
            "",
            f"3. Chemin de fer with the casino's {fraction_str(alpha * 100)} % commission (α = {fraction_str(alpha)}): "
            "equilibrium payoffs",
            "",
            chemin_summary_text(rep.commission, digits),
            f"  each game in full: baccarat chemin --commission {fraction_str(alpha)} --information I --freedom F "
            "(with the same shoe options)",
        ]
    else:
        lines += ["", "  The casino game with its 5 % commission: baccarat chemin --commission 0.05"]
    lines += ["", f"{4 if rep.commission else 3}. Chemin de fer without commission: each game in full"]
    for s in rep.chemin:
        lines += ["", chemin_text(s, digits)]
    n_ok = sum(s.certified for s in games)
    lines += ["", f"Certified: {n_ok} of {len(games)} chemin de fer games, in exact rationals."]
    return "\n".join(lines)


# -- JSON -------------------------------------------------------------------------------------------


def full_dict(rep: FullReport, digits: int | None = None) -> dict[str, object]:
    """JSON-ready: ``{"punto_banco": ..., "chemin_de_fer": [...]}``.

    ``punto_banco`` is :func:`~solver.report.punto.punto_dict`; ``chemin_de_fer`` lists
    :func:`~solver.report.chemin.chemin_dict` of every game, the zero-sum ones first, then those
    with commission (each says its ``model.commission``).
    """
    return {
        "punto_banco": punto_dict(rep.punto, digits),
        "chemin_de_fer": [chemin_dict(s, digits) for s in rep.chemin + rep.commission],
    }


# -- LaTeX ------------------------------------------------------------------------------------------


def full_latex(rep: FullReport, digits: int | None = None, command: str = "baccarat report --format latex") -> str:
    """A standalone LaTeX document of the full report (tables from :mod:`solver.report.latex`)."""
    d = tex.DEFAULT_DIGITS if digits is None else digits
    parts = [
        "\\subsection*{Punto banco}",
        tex.punto_exact_table(rep.punto, d, command),
        "\\subsection*{Chemin de fer}",
        tex.chemin_summary_table(rep.chemin, d, command),
    ]
    if rep.commission:
        parts.append(tex.chemin_summary_table(rep.commission, d, command))
    parts.append(tex.chemin_exact_table(rep.chemin, d, command))
    parts.append("\\clearpage")
    parts += [tex.banker_tableau_table(s, d, command) for s in rep.chemin]
    intro = (
        f"{tex.escape(_shoes_line(rep)).capitalize()}. Every number is computed exactly; fractions are exact and "
        f"decimals are rounded half to even to {d} places from them. "
        + ("Every chemin de fer answer is certified in exact rationals." if rep.certified
           else "\\textbf{Some chemin de fer answers are not certified.}")
    )
    return tex.document("Baccarat: the full exact report", parts, command, intro=intro)
