"""Baccara banque in the report and the paper's tables: each answer as an :class:`BanqueEntry`, solved
now or read from a committed certificate.

The report sets baccara banque beside chemin de fer on the model that reproduces the rule sheets'
0.87 % against 1.28 % (docs/howto-banque.md): information 1, a blind second player, the parlor game
(the banker free in every cell), balanced tables θ = 1/2 (:data:`RULE_SHEET_MODEL`,
:data:`REPORT_THETA`), on the casinos' six-deck shoe and on the infinite deck. Solving the three
concepts there costs some three seconds; the committed certificates of proofs/certificates/banque/
(installed with the package: :mod:`solver.store.certificates`) hold the same answers, exactly (value,
strategies), and the test suite checks them with the independent checker proofs/check.py and against a
fresh solve. :func:`banque_entries` therefore reads a certificate where one matches the shoe, model, θ
and concept exactly, and solves (and certifies) otherwise; ``source`` says which. An answer read from a
certificate is not called certified unless this run re-verifies it with the independent checker
(``source="checked"``, some seconds a certificate): never certified on trust.

>>> from solver.cards import Shoe
>>> [e.concept.value for e in banque_entries([Shoe.infinite()])]
['nash', 'correlated', 'independent']
>>> e = banque_entries([Shoe.infinite()], concepts=["correlated"])[0]
>>> e.value, e.certified, e.certificate
(Fraction(16655514960, 1919414386513), False, 'proofs/certificates/banque/A1-blind-parlor-inf-t1_2-correlated.json')
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver.banque import CONCEPTS, BanqueModel, BanqueSolution, solve_concepts
from solver.banque.certificate import shoe_spec
from solver.banque.vocabulary import Concept, Freedom, SecondPlayer
from solver.cards import Shoe
from solver.errors import InputError, ModelError
from solver.store.certificates import certificates_dir, located, recheck, shown
from solver.strategy import format_infoset

RULE_SHEET_MODEL = BanqueModel(1, SecondPlayer.BLIND, Freedom.PARLOR)
"""The model that reproduces the rule sheets' 0.87 % (docs/howto-banque.md): information 1, a blind
second player, every banker decision free, no tax."""

REPORT_THETA = Fraction(1, 2)
"""Balanced tables: each tableau holds half of the total stake."""

CERTIFICATES = certificates_dir() / "banque"
"""The committed banque certificates (:func:`solver.store.certificates.certificates_dir`; checked by
proofs/check.py in the test suite, and by ``baccarat-check`` wherever the package is installed)."""

STANDARD_MODELS: tuple[tuple[Shoe, BanqueModel], ...] = tuple(
    (shoe, BanqueModel(1, second, freedom))
    for shoe in (Shoe.infinite(), Shoe.decks(6))
    for second in SecondPlayer
    for freedom in Freedom
)
"""The models of the committed certificates (θ = 1/2): the infinite deck and six decks, information 1, a blind
or a seeing second player, parlor or casino freedom; the paper's by-model table shows them."""

THETA_SWEEP = "1/10..9/10/8"
"""The values of θ of the by-θ table and figure unless the command says otherwise (θ and 1 − θ mirror each
other: the players trade places)."""

THETA_ONE_LIMITS: dict[tuple[str, str, str], Fraction] = {
    ("inf", "blind", "parlor"): Fraction(679568, 53094899),
    ("inf", "blind", "casino"): Fraction(131515568, 10604499373),
    ("inf", "sees-first", "parlor"): Fraction(679568, 53094899),
    ("inf", "sees-first", "casino"): Fraction(131719600, 10604499373),
    ("6 decks", "blind", "parlor"): Fraction(5524346701037676088444282, 427383464517320427807088125),
    ("6 decks", "blind", "casino"): Fraction(5634273546540103, 450946874569416225),
    ("6 decks", "sees-first", "parlor"): Fraction(60767655568083605596656902, 4701218109690524705877969375),
    ("6 decks", "sees-first", "casino"): Fraction(1881334603507069, 150315624856472075),
    ("3 decks", "blind", "parlor"): Fraction(4121752778337930068247, 315576254752922026989125),
    ("3 decks", "blind", "casino"): Fraction(39418308184312, 3128920301632125),
    ("3 decks", "sees-first", "parlor"): Fraction(164880614094922867833, 12623050190116881079565),
    ("3 decks", "sees-first", "casino"): Fraction(20927708962, 1658145363875),
}
"""The exact limit of the banker's Nash payoff as θ → 1 (:func:`solver.banque.limit.theta_one_limit`), by
(shoe, second player, freedom), information 1, no tax: chemin de fer against tableau 1 where the banker
also sees tableau 2. tests/test_banque_limit.py recomputes every one."""


def theta_one_limit_of(shoe: Shoe, model: BanqueModel) -> Fraction | None:
    """The committed θ → 1 limit of this shoe and model (:data:`THETA_ONE_LIMITS`), or None if none is."""
    if model.information != 1 or model.tax:
        return None
    return THETA_ONE_LIMITS.get((shoe.label(), model.second_player.value, model.freedom.value))


SOURCES = ("certificates", "checked", "solve")
"""Where :func:`banque_entries` takes its answers: committed certificates where they match (else solved),
the same re-verified by the independent checker, or always solved now."""

NOT_RECHECKED = "not re-checked by this run"
"""How an answer read from a committed certificate is labelled until the independent checker re-verifies it."""

SOLVED = "solved and certified now (solver.banque)"


@dataclass(frozen=True)
class BanqueEntry:
    """One solution concept of baccara banque at one θ on one shoe: the numbers the report prints.

    Attributes:
        shoe, model, theta, concept: what was solved (concept: nash, correlated or independent).
        exists: the concept has a solution here (False: proved not to).
        value: the banker's expected payoff per unit of total stake (Fraction, or an algebraic number);
            where the concept has no solution, the team's best guarantee found (see ``exists``).
        player1, player2: each player's probability of drawing at 5, by information set (``"5"``, or a
            situation); for the correlated concept the marginals.
        banker: the banker's cells where he mixes, with his probability of drawing.
        certified: every claim checked exactly by this run: solved and certified now, or read from a committed
            certificate that the independent checker re-verified (``source="checked"``); an answer read from a
            committed certificate without re-checking it is *not* certified (never on trust).
        unique: the strategies are proved unique (None: not decided, or not recorded in a certificate).
        source: where the numbers come from (:data:`SOLVED`, or ``certificate PATH``, and whether re-checked).
        certificate: the committed certificate the numbers were read from (its path as reports show it), or None.
    """

    shoe: Shoe
    model: BanqueModel
    theta: Fraction
    concept: Concept
    exists: bool | None
    value: Any
    player1: dict[str, Any]
    player2: dict[str, Any]
    banker: dict[str, Any]
    certified: bool
    unique: bool | None
    source: str
    certificate: str | None = None

    @property
    def label(self) -> str:
        """``A1 blind parlor``: Ethier's dealing and information, the second player, the freedom."""
        return f"{self.model.name(self.shoe)} {self.model.second_player} {self.model.freedom}"


def entry_of(s: BanqueSolution) -> BanqueEntry:
    """The entry of a solution just solved."""
    g = s.game
    banker = {} if s.banker is None else {format_infoset(c): v for c, v in zip(g.banker_sets, s.banker) if 0 < v < 1}
    return BanqueEntry(
        shoe=s.shoe,
        model=s.model,
        theta=s.theta,
        concept=s.concept,
        exists=s.exists,
        value=s.value,
        player1={format_infoset(k): v for k, v in zip(g.player1_sets, s.player1)},
        player2={format_infoset(k): v for k, v in zip(g.player2_sets, s.player2)},
        banker=banker,
        certified=s.certified,
        unique=s.unique,
        source=SOLVED,
    )


def _rational(text: object) -> Fraction | None:
    return Fraction(text) if isinstance(text, str) else None


def _strategy(obj: object) -> dict[str, Fraction] | None:
    if not isinstance(obj, dict):
        return None
    out = {k: _rational(v) for k, v in obj.items()}
    return None if any(v is None for v in out.values()) else out  # type: ignore[return-value]


def entry_from_certificate(cert: dict[str, Any], shoe: Shoe, path: str) -> BanqueEntry | None:
    """The entry the committed certificate at ``path`` states, not re-checked (``certified`` False), or None if
    it holds an irrational number, which this reader does not take (the caller then solves).

    Raises:
        InputError: the certificate is malformed (a damaged installation: reinstall, or solve instead).
    """
    try:
        model = BanqueModel(
            cert["model"]["information"], cert["model"]["second_player"], cert["model"]["freedom"], Fraction(cert["model"]["tax"])
        )
        value = _rational(cert["value"])
        if cert.get("field") is not None or value is None:
            return None
        concept = Concept.parse(cert["concept"])
        banker = _strategy(cert.get("banker", {}))
        if concept is Concept.CORRELATED:
            p1: dict[str, Fraction] = {}
            p2: dict[str, Fraction] = {}
            for atom in cert["team"]:
                p = Fraction(atom["probability"])
                for k, a in atom["player1"].items():
                    p1[k] = p1.get(k, Fraction(0)) + (p if a == "D" else 0)
                for k, v in atom["player2"].items():
                    p2[k] = p2.get(k, Fraction(0)) + p * Fraction(v)
            exists: bool | None = True
        else:
            q1, q2 = _strategy(cert["player1"]), _strategy(cert["player2"])
            if q1 is None or q2 is None:
                return None
            p1, p2 = q1, q2
            exists = cert["claims"].get("exists", True)
        if banker is None:
            return None
        return BanqueEntry(
            shoe=shoe,
            model=model,
            theta=Fraction(cert["theta"]),
            concept=concept,
            exists=exists,
            value=value,
            player1=p1,
            player2=p2,
            banker={k: v for k, v in banker.items() if 0 < v < 1},
            certified=False,
            unique=None,
            source=f"certificate {path}, {NOT_RECHECKED}",
            certificate=path,
        )
    except (KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError) as e:
        raise InputError(
            f"the committed certificate {path} cannot be read ({type(e).__name__}: {e}); reinstall the package, "
            "or solve instead (baccarat report --banque solve)"
        ) from None


def certificate_entries(directory: Path = CERTIFICATES) -> list[tuple[dict[str, Any], str]]:
    """Every readable banque certificate in ``directory`` (none if it is absent), with its path."""
    out = []
    for path in sorted(directory.glob("*.json")) if directory.is_dir() else []:
        try:
            cert = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(cert, dict) and cert.get("format") == "baccarat-banque-certificate":
            out.append((cert, shown(path)))
    return out


def _matches(cert: dict[str, Any], shoe: Shoe, model: BanqueModel, theta: Fraction, concept: Concept) -> bool:
    m = cert.get("model") or {}
    return bool(
        cert.get("shoe") == shoe_spec(shoe)
        and cert.get("concept") == concept
        and cert.get("theta") == str(theta)
        and m.get("information") == model.information
        and m.get("second_player") == model.second_player
        and m.get("freedom") == model.freedom
        and m.get("tax") == str(model.tax)
    )


def banque_entries(
    shoes: Sequence[Shoe],
    model: BanqueModel = RULE_SHEET_MODEL,
    thetas: Sequence[Fraction] = (REPORT_THETA,),
    concepts: Sequence[Concept | str] = CONCEPTS,
    source: str = "certificates",
    progress: Callable[[int], None] | None = None,
    directory: Path = CERTIFICATES,
    solve_missing: bool = True,
) -> tuple[BanqueEntry, ...]:
    """Every concept at every θ on each shoe (in that order: shoe, θ, concept), from a matching committed
    certificate when ``source`` is ``"certificates"`` and solved otherwise (one enumeration per shoe);
    without ``solve_missing``, a shoe and θ that lack a certificate for some concept are left out.

    ``progress`` is called with the number of answers done.
    """
    if source not in SOURCES:
        raise ModelError(f"unknown banque source {source!r} (choose from {', '.join(SOURCES)})")
    wanted = [Concept.parse(c) for c in concepts]
    certs = certificate_entries(directory) if source != "solve" else []
    out: list[BanqueEntry] = []
    for shoe in dict.fromkeys(shoes):
        found: dict[tuple[Fraction, str], BanqueEntry] = {}
        for t in thetas:
            for c in wanted:
                for cert, path in certs:
                    if _matches(cert, shoe, model, t, c):
                        e = entry_from_certificate(cert, shoe, path)
                        if e is not None:
                            found[(t, c)] = e
                            break
        missing = [t for t in thetas if any((t, c) not in found for c in wanted)]
        done = len(out)
        if missing and not solve_missing:
            thetas_here = [t for t in thetas if t not in missing]
            out += [found[(t, c)] for t in thetas_here for c in wanted]
            continue
        if missing:

            def tick(n: int, done: int = done) -> None:
                if progress is not None:
                    progress(done + n)

            for s in solve_concepts(shoe, model, missing, wanted, progress=tick):
                found.setdefault((s.theta, s.concept), entry_of(s))
        out += [found[(t, c)] for t in thetas for c in wanted]
        if progress is not None:
            progress(len(out))
    return tuple(rechecked(out)) if source == "checked" else tuple(out)


def rechecked(entries: Sequence[BanqueEntry]) -> list[BanqueEntry]:
    """The entries, those read from committed certificates re-verified by the independent checker
    (:func:`solver.store.certificates.recheck`): certified where it accepts them, labelled where it does not."""
    import dataclasses

    paths = {e.certificate: located(e.certificate) for e in entries if e.certificate}
    verdicts = recheck(list(dict.fromkeys(paths.values())))
    out = []
    for e in entries:
        if e.certificate is None:
            out.append(e)
            continue
        ok = verdicts[paths[e.certificate]]
        words = "re-checked by the independent checker" if ok else "REJECTED by the independent checker"
        out.append(dataclasses.replace(e, certified=ok, source=f"certificate {e.certificate}, {words}"))
    return out


def banque_steps(
    shoes: Sequence[Shoe], thetas: Sequence[Fraction] = (REPORT_THETA,), concepts: Sequence[Concept | str] = CONCEPTS
) -> int:
    """How many units of work :func:`banque_entries` reports (one per answer)."""
    return len(dict.fromkeys(shoes)) * len(thetas) * len(concepts)
