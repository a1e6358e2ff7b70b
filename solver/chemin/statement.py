"""A certificate's claim as a citable statement, in Markdown and in LaTeX, from one text.

The sentences are built once (:func:`_paragraphs`) with the output format's way of writing an exact
number, an information-set key and a heading; each renderer only supplies those.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from solver.chemin.solve import Solution
from solver.exact.numbers import decimal_str, fraction_str
from solver.strategy import format_infoset

Fmt = Callable[[str], str]


def _paragraphs(s: Solution, name: str, num: Callable[[Fraction], str], key: Fmt, head: Fmt) -> list[str]:
    g = s.game
    m = g.model
    shoe = g.shoe.label()
    model = f"model {m.name(g.shoe)}, {m.sheet} freedom"
    if g.zero_sum:
        theorem = (
            f"In chemin de fer dealt from {shoe} ({model}, no commission), the value of the game to the banker is "
            f"exactly {num(s.value)} (about {decimal_str(s.value * 100, 6)} %, rounded) per unit staked. "
            "The strategies below are optimal"
            + (", the ponte's is the unique optimal strategy" if s.unique_ponte else "")
            + (", and the banker's is the unique optimal strategy" if s.unique_banker else "")
            + "."
        )
    else:
        theorem = (
            f"In chemin de fer dealt from {shoe} ({model}, commission {num(m.commission)} of the banker's wins), the "
            f"strategies below form a Nash equilibrium, with the banker's expected net gain {num(s.banker_payoff)} "
            f"and the ponte's expected payoff {num(s.ponte_payoff)} per unit staked"
            + (", and it is the unique equilibrium" if s.unique_equilibrium else "")
            + "."
        )
    draws_at_5 = ", ".join(f"{key(format_infoset(k))}: {num(v)}" for k, v in s.ponte().items())
    ponte = f"{head('Ponte')} (probability of drawing at 5): {draws_at_5}."
    # 0 < v < 1 and v == 1, read from numerators and denominators (hundreds of sets, thousands of statements)
    mixed = [(k, v) for k, v in zip(g.banker_sets, s.r) if 0 < v.numerator < v.denominator]
    draws = sum(1 for v in s.r if v.numerator == v.denominator)
    mixes = ": " + ", ".join(f"{key(format_infoset(k))} with probability {num(v)}" for k, v in mixed) if mixed else ""
    banker = (
        f"{head('Banker')} ({len(g.banker_sets)} free information sets): draws in {draws}, mixes in {len(mixed)}"
        f"{mixes}, stands in the rest (the full list is in the JSON certificate)."
    )
    dominance = (
        f"{head('Dominance.')} {len(s.dominance)} decisions are settled by iterated strict dominance, each with "
        "an exact positive margin."
    )
    verified = (
        "that the ponte's guarantee f(q) and the banker's guarantee h(r) both equal the value (LP duality: the "
        "pair is a saddle point)"
        if g.zero_sum
        else "that every decision of each side is a best reply to the other's strategy"
    )
    by_cases = s.cases is not None and s.cases.unique
    argument = (
        "the uniqueness claim by re-checking every case of the case analysis (docs/certificate-format.md)"
        if by_cases
        else "each uniqueness claim by the rank argument of docs/certificate-format.md"
    )
    check = (
        f"{head('How to check.')} {key(f'python3 proofs/check.py proofs/certificates/{name}.json')} re-derives every "
        "payoff coefficient from the shoe by its own enumeration (it imports nothing from the solver), then verifies "
        f"in exact rationals {verified}, every dominance margin, and {argument}."
    )
    if not by_cases:
        return [theorem, ponte, banker, dominance, check]
    assert s.cases is not None
    open_sets = len(g.ponte_sets) + len(g.banker_sets) - len(s.dominance)
    uniqueness = (
        f"{head('Uniqueness.')} In an equilibrium each of the {open_sets} decisions that dominance leaves open "
        "draws, stands, or is indifferent (its slope is zero). The certificate splits on these states until "
        f"every case is settled: {s.cases.leaves} cases, each either impossible (one side's best-reply "
        "conditions have no solution, shown by exact Farkas multipliers) or pinned by its equations to the "
        "strategies above."
    )
    return [theorem, ponte, banker, dominance, uniqueness, check]


def statement_markdown(s: Solution, name: str) -> str:
    """The statement as a Markdown page."""
    parts = _paragraphs(s, name, fraction_str, lambda k: f"`{k}`", lambda h: f"**{h}**")
    return "\n\n".join([f"# Certificate {name}", "**Theorem.** " + parts[0], *parts[1:]]) + "\n"


def _tex_number(x: Fraction) -> str:
    text = fraction_str(x).replace("/", r"/\allowbreak ")
    return f"${text}$"


def _tex_key(k: str) -> str:
    return r"\texttt{" + k.replace("_", r"\_").replace("/", r"/\allowbreak ") + "}"


def statement_latex(s: Solution, name: str) -> str:
    """The statement as a LaTeX fragment: a ``theorem`` environment (amsthm) and its paragraphs."""
    parts = _paragraphs(s, name, _tex_number, _tex_key, lambda h: r"\textbf{" + h + "}")
    parts = [p.replace("%", r"\%") for p in parts]
    # sloppypar: long exact numbers and the checker's command line must not overflow the measure.
    return "\n".join(
        [
            "% Generated by: python3 -m solver.chemin.certificate proofs/certificates (do not edit by hand)",
            r"\begin{theorem}[Certificate " + name.replace("_", r"\_") + "]",
            r"\begin{sloppypar}" + parts[0] + r"\end{sloppypar}",
            r"\end{theorem}",
            "",
            "\n\n".join(r"\begin{sloppypar}" + p + r"\end{sloppypar}" for p in parts[1:]),
            "",
        ]
    )
