"""Certificates: a solved chemin de fer game written so that anyone can check it.

The format (version 1) is documented in docs/certificate-format.md and verified by the independent
checker ``proofs/check.py``, which shares no code with this package. A certificate holds, in exact
rationals: the shoe, the model, the value and both payoffs, both strategies, the iterated-dominance
steps with their exact margins, and the claims (optimal or equilibrium; uniqueness where proved).

Beside each certificate, :mod:`solver.chemin.statement` writes the claim as a theorem a reader can
cite, in Markdown and in LaTeX.

Where a commission game's uniqueness rests on a case analysis (:mod:`solver.chemin.commission.cases`),
the certificate carries the tree of cases under ``cases``, one case per line.

The standard set (:func:`standard_solutions`) is committed under proofs/certificates/; the tests
regenerate it and fail if it differs. Regenerate with ``python -m solver.chemin.certificate proofs/certificates``
(:func:`write_standard`, which writes the statements beside the certificates).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

from solver.cards import Shoe
from solver.chemin.commission.cases import Pinned, Refuted, Split, preorder
from solver.chemin.game import build_game
from solver.chemin.solve import DominanceStep, Solution, solve
from solver.errors import InputError
from solver.exact.numbers import fraction_str
from solver.rules.tableau import STANDARD_COMMISSION
from solver.store.files import files_for, write_texts
from solver.strategy import format_infoset
from solver.strategy.words import Freedom

FORMAT = "baccarat-chemin-certificate"
VERSION = 1


def certificate_dict(s: Solution) -> dict[str, object]:
    """The certificate of a solution, as a JSON-ready dict (format version 1)."""
    out = _head(s)
    if s.cases is not None and s.cases.unique and s.cases.proof is not None:
        out["cases"] = [case_entry(c) for c in preorder(s.cases.proof)]
    return out


def _head(s: Solution) -> dict[str, object]:
    """The certificate without its case analysis."""
    g = s.game
    shoe = g.shoe
    shoe_spec: dict[str, object] = (
        {"dealing": "A", "weights": list(shoe.values)} if shoe.is_infinite else {"dealing": "B", "counts": list(shoe.values)}
    )
    claims: dict[str, bool]
    if g.zero_sum:
        claims = {"optimal": True, "unique_ponte": s.unique_ponte is True, "unique_banker": s.unique_banker is True}
    else:
        claims = {"equilibrium": True, "unique_equilibrium": bool(s.unique_equilibrium)}
    out: dict[str, object] = {
        "format": FORMAT,
        "version": VERSION,
        "shoe": shoe_spec,
        "model": {
            "information": int(g.model.information),
            "freedom": g.model.sheet,
            "commission": fraction_str(g.model.commission),
        },
        "value": fraction_str(s.value),
        "ponte_payoff": fraction_str(s.ponte_payoff),
        "banker_payoff": fraction_str(s.banker_payoff),
        "ponte": {format_infoset(k): fraction_str(v) for k, v in zip(g.ponte_sets, s.q)},
        "banker": {format_infoset(k): fraction_str(v) for k, v in zip(g.banker_sets, s.r)},
        "dominance": [dominance_dict(d) for d in s.dominance],
        "claims": claims,
    }
    return out


def case_entry(case: Split | Refuted | Pinned) -> list[object]:
    """One case of a case analysis as a certificate entry (docs/certificate-format.md).

    >>> from solver.strategy import Side
    >>> case_entry(Refuted(Side.PONTE, (("0+6/S", 3), ("8+8/S", -1))))
    ['refuted', 'ponte', {'0+6/S': '3', '8+8/S': '-1'}]
    """
    if isinstance(case, Split):
        return ["split", case.player.value, case.infoset]
    if isinstance(case, Refuted):
        return ["refuted", case.side.value, {k: str(w) for k, w in case.multipliers}]
    return ["pinned"]


def dominance_dict(d: DominanceStep) -> dict[str, str]:
    """One dominance step as JSON: ``player``, ``infoset``, ``action`` (``D``/``S``), exact ``margin``."""
    return {
        "player": d.player.value,
        "infoset": format_infoset(d.infoset),
        "action": d.action.value,
        "margin": fraction_str(d.margin),
    }


def certificate_name(s: Solution) -> str:
    """A file stem such as ``B3-parlor-d6-a0`` or ``A1-casino-inf-a1_20``."""
    g = s.game
    if g.shoe.is_infinite:
        deck = "inf"
    elif g.shoe.full_decks:
        deck = f"d{g.shoe.full_decks}"
    else:
        deck = "shoe-" + "-".join(map(str, g.shoe.values))
    alpha = fraction_str(g.model.commission).replace("/", "_")
    return f"{g.model.name(g.shoe)}-{g.model.sheet}-{deck}-a{alpha}"


def certificate_text(s: Solution) -> str:
    """The certificate serialised canonically (sorted keys are not used: the order is the documented one);
    a case analysis comes last, one case per line."""
    text = indented(_head(s))
    if s.cases is not None and s.cases.unique and s.cases.proof is not None:
        lines = ",\n".join("  " + case_line(c) for c in preorder(s.cases.proof))
        text = text[: -len("\n}")] + f',\n "cases": [\n{lines}\n ]\n}}'
    return text + "\n"


def indented(x: object, depth: int = 0) -> str:
    """``json.dumps(x, indent=1)`` for dicts (string keys), lists, strings, integers and booleans, written
    directly (json's encoder falls back to pure Python when it indents, and a certificate is large).

    >>> x = {"a": [1, True, {"b": "é"}], "c": {}, "d": []}
    >>> indented(x) == json.dumps(x, indent=1)
    True
    """
    if isinstance(x, str):
        return _quote(x)
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return int.__repr__(x)
    pad = "\n" + " " * (depth + 1)
    if isinstance(x, dict) and x:
        if all(type(v) is str for v in x.values()):  # the commonest (strategies, dominance steps): no recursion
            inner = ",".join(pad + _quote(k) + ": " + _quote(v) for k, v in x.items())
        else:
            inner = ",".join(pad + _quote(k) + ": " + indented(v, depth + 1) for k, v in x.items())
        return "{" + inner + "\n" + " " * depth + "}"
    if isinstance(x, list) and x:
        return "[" + ",".join(pad + indented(v, depth + 1) for v in x) + "\n" + " " * depth + "]"
    return json.dumps(x)


def case_line(case: Split | Refuted | Pinned) -> str:
    """``json.dumps(case_entry(case))``, written directly (a certificate has thousands of cases).

    >>> from solver.strategy import Side
    >>> c = Refuted(Side.PONTE, (("0+6/S", 3), ("8+8/S", -1)))
    >>> case_line(c) == json.dumps(case_entry(c)), case_line(Pinned()), case_line(Split(Side.BANKER, "3/9", ()))
    (True, '["pinned"]', '["split", "banker", "3/9"]')
    """
    if isinstance(case, Split):
        return f'["split", {_quote(case.player.value)}, {_quote(case.infoset)}]'
    if isinstance(case, Refuted):
        pairs = ", ".join(f'{_quote(k)}: "{w}"' for k, w in case.multipliers)
        return f'["refuted", {_quote(case.side.value)}, {{{pairs}}}]'
    return '["pinned"]'


_quote = json.encoder.encode_basestring_ascii


def write_certificates(solutions: Iterable[Solution], target: str, overwrite: bool = False) -> list[Path]:
    """Write certificates: one solution to the file ``target``; several into the directory ``target``.

    With several solutions ``target`` names a directory (created if needed; a name ending in
    ``.json`` is refused, since it would look like a file), and each certificate is written there as
    ``NAME.json`` (:func:`certificate_name`). Each file is written whole or not at all, and nothing is
    written over an existing file unless ``overwrite``.

    Raises:
        InputError: a file exists (and not ``overwrite``), the target does not suit the number of
            certificates, or a file cannot be written.
    """
    sols = list(solutions)
    for s in sols:
        if s.game.model.house is not None:
            raise InputError(
                f"certificates cover the casino and parlor sheets; proofs/check.py does not know the "
                f"{s.game.model.sheet!r} tableau"
            )
    paths = files_for(target, [certificate_name(s) for s in sols], "one per shoe")
    return write_texts({p: certificate_text(s) for p, s in zip(paths, sols)}, overwrite)


def standard_solutions() -> list[Solution]:
    """The standard set: A1, and B1, B2, B3 for d = 1…8; casino and parlor; commission 0 and 1/20."""
    shoes: list[tuple[Shoe, tuple[int, ...]]] = [(Shoe.infinite(), (1,))]
    shoes += [(Shoe.decks(d), (1, 2, 3)) for d in range(1, 9)]
    out = []
    for shoe, infos in shoes:
        for info in infos:
            for freedom in (Freedom.CASINO, Freedom.PARLOR):
                for alpha in (Fraction(0), STANDARD_COMMISSION):
                    out.append(solve(build_game(shoe, info, freedom, alpha)))
    return out


def write_standard(directory: str | Path) -> list[Path]:
    """(Re)write the standard certificates and their statements (Markdown and LaTeX, :mod:`solver.chemin.statement`)
    into ``directory``; the command ``python3 -m solver.chemin.certificate DIR``."""
    from solver.chemin.statement import statement_latex, statement_markdown

    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    written = []
    for s in standard_solutions():
        name = certificate_name(s)
        (d / f"{name}.json").write_text(certificate_text(s), encoding="utf-8")
        (d / f"{name}.md").write_text(statement_markdown(s, name), encoding="utf-8")
        (d / f"{name}.tex").write_text(statement_latex(s, name), encoding="utf-8")
        written.append(d / f"{name}.json")
    return written


def main(argv: list[str] | None = None) -> int:
    """``python3 -m solver.chemin.certificate DIR``: regenerate the standard certificates and statements."""
    from solver.store.files import regenerate

    return regenerate(argv, "solver.chemin.certificate", "proofs/certificates", "certificates and statements", write_standard)


if __name__ == "__main__":
    import sys

    sys.exit(main())
