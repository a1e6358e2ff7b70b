"""The full report on a shoe, the main job: computed here, rendered in :mod:`solver.report.full`.

:func:`full_report` computes a :class:`FullReport`: punto banco's exact outcome law and the edges of
the whole side-bet catalogue on one shoe, and chemin de fer's casino and parlor games under
information 1, 2 and 3 on another (by default each game's shoe as it is played: 8 decks and 6),
solved exactly and certified, both without commission (the zero-sum game) and with the casino's
commission on the banker's wins; and baccara banque beside chemin de fer on that shoe and the infinite
deck (:mod:`solver.banque.committed`). The paper's tables are computed by :mod:`solver.analysis.paper`.

>>> from solver.cards import Shoe
>>> rep = full_report(Shoe.infinite(), Shoe.infinite(), commission=0)
>>> [s.game.label for s in rep.chemin]
['A1 casino', 'A2 casino', 'A3 casino', 'A1 parlor', 'A2 parlor', 'A3 parlor']
>>> rep.certified, rep.commission
(True, ())
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from solver.banque.committed import BanqueEntry, banque_entries, banque_steps
from solver.cards import Shoe
from solver.chemin.game import build_game
from solver.chemin.solve import Solution, solve
from solver.errors import ModelError
from solver.exact.numbers import exact
from solver.punto import STANDARD_COMMISSION, PuntoResult, catalogue, punto_banco
from solver.rules.house import HouseRules
from solver.strategy.words import Freedom, Information

if TYPE_CHECKING:
    pass

REPORT_COMMISSION = STANDARD_COMMISSION
"""The casino's commission on the banker's wins in the report's second set of games (5 %)."""

MODELS: tuple[tuple[Freedom, Information], ...] = tuple((f, i) for f in (Freedom.CASINO, Freedom.PARLOR) for i in Information)
"""The chemin de fer models of the report, in order: (freedom, information)."""

PUNTO_SHOE = Shoe.decks(8)
"""Punto banco's shoe as it is played."""

CHEMIN_SHOE = Shoe.decks(6)
"""Chemin de fer's shoe as it is played."""


@dataclass(frozen=True)
class FullReport:
    """The whole exact analysis of a shoe.

    Attributes:
        punto: punto banco on the punto banco shoe, every bet of the side-bet catalogue that shoe can settle
            (with a house's fixed sheet, its default bets and Tie pay).
        chemin: chemin de fer without commission, one certified solution per model in :data:`MODELS` order.
        commission: the same models with the commission on the banker's wins (empty if not asked for).
        kemeny_snell: Kemeny and Snell's game (A1 parlor: an infinite deck, information 1, every banker
            decision free, no commission), the reference the headline quotes.
        method: how the numbers were obtained.
        banque: baccara banque on the chemin de fer shoe and the infinite deck, θ = 1/2, the rule sheets'
            model (:data:`solver.banque.committed.RULE_SHEET_MODEL`), every concept (empty if not asked for).
        banque_left_out: the shoes of the banque section that no committed certificate states, left out
            unless the report was asked to solve them (``banque="solve"``).
    """

    punto: PuntoResult
    chemin: tuple[Solution, ...]
    commission: tuple[Solution, ...] = ()
    kemeny_snell: Solution | None = None
    method: str = "exact enumeration of every coup; each chemin de fer game solved exactly and certified in rationals"
    banque: tuple[BanqueEntry, ...] = ()
    banque_left_out: tuple[Shoe, ...] = ()

    @property
    def chemin_shoe(self) -> Shoe:
        return self.chemin[0].game.shoe

    @property
    def certified(self) -> bool:
        """Every chemin de fer game's answer certified in exact rationals by this run (baccara banque's answers
        say each their own: ``certified``, or read from a committed certificate not re-checked)."""
        return all(s.certified for s in self.chemin + self.commission)

    def model(self, freedom: Freedom, information: Information, commission: bool = False) -> Solution | None:
        """The solved game of one model on the chemin de fer shoe (with the commission, if asked)."""
        for s in self.commission if commission else self.chemin:
            if (s.game.model.freedom, s.game.model.information) == (freedom, information):
                return s
        return None

    def chemin_beside(self, shoe: Shoe) -> Solution | None:
        """Chemin de fer's parlor game of information 1 on ``shoe`` (the chemin de fer shoe's, or Kemeny and
        Snell's on the infinite deck): the game baccara banque's rule-sheet model extends to two tableaux."""
        if shoe == self.chemin_shoe:
            return self.model(Freedom.PARLOR, Information.TOTALS)
        ks = self.kemeny_snell
        return ks if ks is not None and shoe == ks.game.shoe else None

    def banque_shoes(self) -> tuple[Shoe, ...]:
        """The shoes of the banque section, in order."""
        return tuple(dict.fromkeys(e.shoe for e in self.banque))


@dataclass(frozen=True)
class Headline:
    """The answers most readers come for, each from a named model (see :func:`headline`).

    Attributes:
        kemeny_snell: the banker's advantage with both sides optimal in Kemeny and Snell's game (A1 parlor).
        parlor, casino: the information-1 games on the chemin de fer shoe, every banker decision free
            (parlor) and the rule sheet's (casino); ``parlor`` is None when it is Kemeny and Snell's own game.
        taxed: the parlor game of information 1 on that shoe with the casino's commission (None without).
        punto: punto banco, whose Banker and Player edges the headline quotes.
        banque: baccara banque on the infinite deck under the rule sheets' model (the Nash equilibrium and the
            correlated cooperative solution), beside Kemeny and Snell's value; empty without the banque section.
    """

    kemeny_snell: Solution
    parlor: Solution | None
    casino: Solution
    taxed: Solution | None
    punto: PuntoResult
    banque: tuple[BanqueEntry, ...] = ()


def headline(rep: FullReport) -> Headline | None:
    """Pick the headline answers out of a report (None if it lacks the information-1 games).

    >>> from solver.cards import Shoe
    >>> h = headline(full_report(Shoe.infinite(), Shoe.infinite(), commission=0))
    >>> h is not None and h.kemeny_snell.value, h.parlor, h.casino.game.label, h.taxed
    (Fraction(679568, 53094899), None, 'A1 casino', None)
    """
    ks = rep.kemeny_snell or rep.model(Freedom.PARLOR, Information.TOTALS)
    parlor, casino = rep.model(Freedom.PARLOR, Information.TOTALS), rep.model(Freedom.CASINO, Information.TOTALS)
    if ks is None or parlor is None or casino is None:
        return None
    banque = tuple(
        e
        for e in rep.banque
        if e.shoe == ks.game.shoe and e.exists and e.concept in ("nash", "correlated") and isinstance(e.value, Fraction)
    )
    return Headline(
        ks,
        None if parlor.game == ks.game else parlor,
        casino,
        rep.model(Freedom.PARLOR, Information.TOTALS, commission=True),
        rep.punto,
        banque,
    )


BANQUE_SOURCES = ("certificates", "checked", "solve", "off")
"""How the report obtains its baccara banque section (:func:`full_report`'s ``banque``)."""


def report_banque_shoes(chemin_shoe: Shoe) -> tuple[Shoe, ...]:
    """The shoes of the report's banque section: the chemin de fer shoe and the infinite deck."""
    return tuple(dict.fromkeys((chemin_shoe, Shoe.infinite())))


def report_steps(
    commission: Fraction | int | str = REPORT_COMMISSION, chemin_shoe: Shoe | None = None, banque: str = "certificates"
) -> int:
    """How many units of work :func:`full_report` reports to its ``progress`` callback (at most: the banque
    answers no certificate states are left out unless solved)."""
    more = banque_steps(report_banque_shoes(chemin_shoe or CHEMIN_SHOE)) if banque != "off" else 0
    return 2 + len(MODELS) * (2 if exact(commission, "commission") else 1) + more


def full_report(
    punto_shoe: Shoe,
    chemin_shoe: Shoe,
    commission: Fraction | int | str = REPORT_COMMISSION,
    progress: Callable[[int], None] | None = None,
    house: HouseRules | None = None,
    banque: str = "certificates",
) -> FullReport:
    """Compute the full report.

    Args:
        punto_shoe: the shoe for punto banco (8 decks as played).
        chemin_shoe: the shoe for chemin de fer (6 decks as played).
        commission: α for the second set of chemin de fer games; 0 leaves them out.
        progress: called with the number of steps done (out of :func:`report_steps`).
        house: a house's rule sheet (solver.rules.house): its tableau replaces the casino sheet in the chemin
            de fer games, and, when it fixes every cell, punto banco's (with its Tie pay).
        banque: the baccara banque section (:data:`BANQUE_SOURCES`): ``certificates`` reads each answer
            from the committed certificate that states it (:func:`solver.banque.committed.banque_entries`; labelled
            not re-checked), ``checked`` the same, each certificate re-verified by the independent checker, and
            leaves out a shoe none states (listed in ``banque_left_out``), ``solve`` solves and certifies
            every one now (some seconds on the usual shoes, longer on odd ones), ``off`` leaves the section out.

    Raises:
        SolverError: a game could not be solved and certified exactly.
    """
    alpha = exact(commission, "commission")
    if banque not in BANQUE_SOURCES:
        raise ModelError(f"unknown banque source {banque!r} (choose from {', '.join(BANQUE_SOURCES)})")
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done)

    fixed = house is not None and not house.tableau.free_player_totals() and not house.tableau.free_banker_cells()
    if house is not None and fixed:
        ties = (8, 9) if house.tie_pays is None else (int(house.tie_pays),)
        punto = punto_banco(punto_shoe, alpha or REPORT_COMMISSION, tableau=house.tableau, tie_pays=ties)
    else:
        punto = punto_banco(punto_shoe, bets=catalogue(), skip_unsettled=True)  # the side-bet catalogue too
    step()
    models = [(house.tableau if house is not None and f is Freedom.CASINO else f, i) for f, i in MODELS]
    chemin = []
    for freedom, information in models:
        chemin.append(solve(build_game(chemin_shoe, information, freedom)))
        step()
    with_commission = []
    if alpha:
        for freedom, information in models:
            with_commission.append(solve(build_game(chemin_shoe, information, freedom, alpha)))
            step()
    ks = (
        chemin[MODELS.index((Freedom.PARLOR, Information.TOTALS))]
        if chemin_shoe.is_infinite
        else solve(build_game(Shoe.infinite(), Information.TOTALS, Freedom.PARLOR))
    )
    step()
    entries: tuple[BanqueEntry, ...] = ()
    if banque != "off":
        start = done

        def banque_step(n: int) -> None:
            if progress is not None:
                progress(start + n)

        entries = banque_entries(
            report_banque_shoes(chemin_shoe), source=banque, progress=banque_step, solve_missing=banque == "solve"
        )
    left_out = tuple(s for s in report_banque_shoes(chemin_shoe) if banque != "off" and s not in {e.shoe for e in entries})
    return FullReport(
        punto=punto,
        chemin=tuple(chemin),
        commission=tuple(with_commission),
        kemeny_snell=ks,
        banque=entries,
        banque_left_out=left_out,
    )
