"""Banque certificates: a solved banque game written so that anyone can check it.

Format ``baccarat-banque-certificate``, version 2, documented in docs/certificate-format.md and
verified by ``proofs/check_banque.py`` (standard library only, no code shared with this package; run
through ``proofs/check.py``, which dispatches on the ``format`` field). A certificate holds the shoe,
the model, θ, the concept, the strategies (exact rationals, or elements of one number field given by
its minimal polynomial and an isolating interval) and the claims the checker verifies:

* ``nash``: ``{"equilibrium": true}``: every side plays a best reply, exactly; and, where the search
  proved it (Player 1 has one set and must mix), ``"no_equilibrium_with_player1_at": ["0", "1"]``: no
  equilibrium has Player 1 at those probabilities (the checker re-derives it, small game by small game);
* ``correlated``: ``{"optimal": true}``: f(z) = h(r) = value (without tax), or with a tax the team's and
  the banker's best replies (``{"equilibrium": true}``);
* ``independent``: ``{"exists": true}`` with an optimal product strategy (f = h = value), or
  ``{"exists": false}`` with the correlated optimum (the r* the proof uses) and the team's guarantee at
  the best product strategy found; the checker re-derives the refutation of every support pattern.

The standard set (:func:`standard_solutions`) is committed under proofs/certificates/banque/; the tests
regenerate it byte for byte. Regenerate with ``python -m solver.banque.certificate proofs/certificates/banque``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver.banque.correlated import TeamStrategy
from solver.banque.game import BanqueGame, BanqueModel
from solver.banque.solve import BanqueSolution
from solver.banque.sweep import solve_concepts
from solver.banque.vocabulary import Concept, Freedom, SecondPlayer
from solver.cards import Shoe
from solver.errors import InputError
from solver.exact.numberfield import Field, FieldElement
from solver.exact.numbers import fraction_str
from solver.store.files import files_for, write_texts
from solver.strategy import format_infoset

FORMAT = "baccarat-banque-certificate"
VERSION = 2
"""Version 2 adds the Nash claim ``no_equilibrium_with_player1_at`` (proofs/check_banque.py reads 1 and 2)."""


def number(x: Any) -> object:
    """An exact number for a certificate: ``"p/q"``, or ``{"field": [c0, c1, ...]}`` in the field's basis."""
    if isinstance(x, FieldElement):
        r = x.rational()
        if r is not None:
            return fraction_str(r)
        return {"field": [fraction_str(c) for c in x.coefficients]}
    return fraction_str(Fraction(x))


def _sets(game: BanqueGame, side: str) -> list[str]:
    sets = {"player1": game.player1_sets, "player2": game.player2_sets, "banker": game.banker_sets}[side]
    return [format_infoset(s) for s in sets]


def _strategy(game: BanqueGame, side: str, values: Iterable[Any]) -> dict[str, object]:
    return {k: number(v) for k, v in zip(_sets(game, side), values)}


def _team(game: BanqueGame, team: TeamStrategy) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for atom, prob, conditional in team.support():
        out.append(
            {
                "player1": {k: "D" if a else "S" for k, a in zip(_sets(game, "player1"), atom)},
                "probability": fraction_str(prob),
                "player2": _strategy(game, "player2", conditional),
            }
        )
    return out


def shoe_spec(shoe: Shoe) -> dict[str, object]:
    return {"dealing": "A", "weights": list(shoe.values)} if shoe.is_infinite else {"dealing": "B", "counts": list(shoe.values)}


def certificate_dict(s: BanqueSolution) -> dict[str, object]:
    """The certificate of a solution, as a JSON-ready dict (format version :data:`VERSION`)."""
    g, m = s.game, s.model
    field: Field | None = s.field
    out: dict[str, object] = {
        "format": FORMAT,
        "version": VERSION,
        "shoe": shoe_spec(g.shoe),
        "model": {
            "information": m.information,
            "second_player": m.second_player.value,
            "freedom": m.freedom.value,
            "tax": fraction_str(m.tax),
        },
        "theta": fraction_str(s.theta),
        "concept": s.concept.value,
        "field": None if field is None else field.spec(),
        "value": number(s.value),
    }
    if s.concept is Concept.CORRELATED:
        assert s.team is not None and s.banker is not None
        out["team"] = _team(g, s.team)
        out["banker"] = _strategy(g, "banker", s.banker)
        out["claims"] = {"equilibrium": True} if m.tax else {"optimal": True}
        return out
    out["player1"] = _strategy(g, "player1", s.player1)
    out["player2"] = _strategy(g, "player2", s.player2)
    if s.concept is Concept.NASH:
        assert s.banker is not None
        out["banker"] = _strategy(g, "banker", s.banker)
        claims: dict[str, object] = {"equilibrium": True}
        if s.no_equilibrium_at:
            claims["no_equilibrium_with_player1_at"] = [fraction_str(x) for x in s.no_equilibrium_at]
        out["claims"] = claims
        return out
    if s.exists:
        assert s.banker is not None
        out["banker"] = _strategy(g, "banker", s.banker)
        out["claims"] = {"exists": True}
        return out
    corr = _correlated_of(s)
    assert corr.team is not None and corr.banker is not None
    out["correlated"] = {"value": number(corr.value), "team": _team(g, corr.team), "banker": _strategy(g, "banker", corr.banker)}
    out["claims"] = {"exists": False}
    return out


def _correlated_of(s: BanqueSolution) -> BanqueSolution:
    from solver.banque.solve import solve_banque

    return solve_banque(s.shoe, s.model, s.theta, Concept.CORRELATED, game=s.game)


def certificate_name(s: BanqueSolution) -> str:
    """A file stem such as ``A1-blind-parlor-inf-t1_2-nash``."""
    g, m = s.game, s.model
    deck = (
        "inf"
        if g.shoe.is_infinite
        else (f"d{g.shoe.full_decks}" if g.shoe.full_decks else "shoe-" + "-".join(map(str, g.shoe.values)))
    )
    tax = "" if not m.tax else "-tax" + fraction_str(m.tax).replace("/", "_")
    theta = fraction_str(s.theta).replace("/", "_")
    return f"{m.name(g.shoe)}-{m.second_player.value}-{m.freedom.value}-{deck}-t{theta}{tax}-{s.concept.value}"


def certificate_text(s: BanqueSolution) -> str:
    """The certificate serialised canonically (keys in the documented order)."""
    return json.dumps(certificate_dict(s), indent=1) + "\n"


def write_certificates(solutions: Iterable[BanqueSolution], target: str, overwrite: bool = False) -> list[Path]:
    """Write certificates: one solution to the file ``target``; several into the directory ``target``
    (an independent solution that could not be decided is not certified and is skipped).

    Raises:
        InputError: a file exists (and not ``overwrite``), or cannot be written.
    """
    sols = [s for s in solutions if s.certified]
    if not sols:
        raise InputError("no certificate to write: no solution here was certified")
    paths = files_for(target, [certificate_name(s) for s in sols], "one per shoe, concept and theta")
    return write_texts({p: certificate_text(s) for p, s in zip(paths, sols)}, overwrite)


STANDARD_SHOES = (Shoe.infinite(), Shoe.decks(6))


def standard_solutions() -> list[BanqueSolution]:
    """The standard set: θ = 1/2; the infinite deck and 6 decks; information 1; a blind or a seeing second
    player; parlor and casino; every concept."""
    out = []
    for shoe in STANDARD_SHOES:
        for second in SecondPlayer:
            for freedom in Freedom:
                out += solve_concepts(shoe, BanqueModel(1, second, freedom), [Fraction(1, 2)], list(Concept))
    return out


def write_standard(directory: str | Path) -> list[Path]:
    """(Re)write the standard certificates into ``directory``."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    written = []
    for s in standard_solutions():
        p = d / f"{certificate_name(s)}.json"
        p.write_text(certificate_text(s), encoding="utf-8")
        written.append(p)
    return written


if __name__ == "__main__":
    from solver.store.files import regenerate

    sys.exit(regenerate(None, "solver.banque.certificate", "proofs/certificates/banque", "banque certificates", write_standard))
