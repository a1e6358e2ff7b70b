"""The paper's tables: what ``baccarat latex`` (``baccarat tables``) prints, computed here and rendered in
:mod:`solver.report.paper`.

:func:`paper_results` computes punto banco and every chemin de fer model on a list of shoes, each game on
its usual shoe (:data:`~solver.analysis.report.PUNTO_SHOE`, :data:`~solver.analysis.report.CHEMIN_SHOE`),
the side-bet catalogue with its effects of removal, and baccara banque by model and by θ.

>>> from solver.cards import Shoe
>>> res = paper_results([Shoe.infinite()])
>>> [s.game.label for s in res.solutions][:3], res.standard_punto.shoe.label()
(['A1 casino', 'A2 casino', 'A3 casino'], '8 decks')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from solver.analysis.report import CHEMIN_SHOE, MODELS, PUNTO_SHOE, REPORT_COMMISSION
from solver.banque.committed import STANDARD_MODELS, BanqueEntry, banque_entries, banque_steps
from solver.cards import Shoe
from solver.chemin.game import build_game
from solver.chemin.solve import Solution, solve
from solver.punto import PuntoResult, catalogue, punto_banco

if TYPE_CHECKING:
    from solver.count.eor import EorResult


@dataclass(frozen=True)
class PaperResults:
    """What the paper's tables show.

    Attributes:
        puntos: punto banco on each shoe of the list (the by-shoe tables).
        solutions: chemin de fer without commission, every model of :data:`MODELS` on each shoe of the list.
        standard_punto: punto banco on its usual shoe (the exact appendix).
        standard_chemin: chemin de fer's models on its usual shoe (the tableaux and the exact appendix).
        commission: chemin de fer with the casino's commission (:data:`REPORT_COMMISSION`), every model
            on each shoe of the list (empty when not asked for).
        banque_models: baccara banque at θ = 1/2, every concept, under each model of
            :data:`solver.banque.committed.STANDARD_MODELS` (empty when not asked for).
        banque_thetas: baccara banque under the rule sheets' model on the infinite deck, every concept, at each
            θ asked for (empty when none).
        catalogue: every bet of the side-bet catalogue (:func:`solver.punto.catalogue`) on punto banco's
            shoe, with its breakdown and risk (None when not asked for).
        removal: the catalogue's exact effects of removal of one card of each point value on that shoe
            (:func:`solver.count.eor.effects_of_removal`; None when not asked for).
    """

    puntos: tuple[PuntoResult, ...]
    solutions: tuple[Solution, ...]
    standard_punto: PuntoResult
    standard_chemin: tuple[Solution, ...]
    commission: tuple[Solution, ...] = ()
    banque_models: tuple[BanqueEntry, ...] = ()
    banque_thetas: tuple[BanqueEntry, ...] = ()
    catalogue: PuntoResult | None = None
    removal: EorResult | None = None


def paper_steps(shoes: Sequence[Shoe], commission: bool = False, banque: bool = False, thetas: Sequence[Fraction] = ()) -> int:
    """How many units of work :func:`paper_results` reports to its ``progress`` callback."""
    punto = len(shoes) + (PUNTO_SHOE not in shoes)
    chemin = len(shoes) + (CHEMIN_SHOE not in shoes)
    more = (len(STANDARD_MODELS) * 3 if banque else 0) + banque_steps([Shoe.infinite()], thetas)
    return punto + chemin * len(MODELS) + (len(shoes) * len(MODELS) if commission else 0) + more


def paper_results(
    shoes: Sequence[Shoe],
    progress: Callable[[int], None] | None = None,
    commission: bool = False,
    banque: bool = False,
    thetas: Sequence[Fraction] = (),
    side_bets: bool = False,
) -> PaperResults:
    """Punto banco and every chemin de fer model on each shoe, and each game on its usual shoe; with
    ``commission``, every model on each shoe with the casino's commission too; with ``banque``, baccara
    banque under every standard model at θ = 1/2 (from the committed certificates, solved where none
    matches); with ``thetas``, baccara banque under the rule sheets' model on the infinite deck at each θ
    (θ = 1/2 read from its certificates, the others solved); with ``side_bets``, the side-bet catalogue and
    its effects of removal on punto banco's shoe."""
    shoes = list(shoes)
    chemin_shoes = shoes + ([CHEMIN_SHOE] if CHEMIN_SHOE not in shoes else [])
    punto_shoes = shoes + ([PUNTO_SHOE] if PUNTO_SHOE not in shoes else [])
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done)

    puntos = {}
    for shoe in punto_shoes:
        puntos[shoe] = punto_banco(shoe)
        step()
    solutions = []
    for shoe in chemin_shoes:
        for freedom, information in MODELS:
            solutions.append(solve(build_game(shoe, information, freedom)))
            step()
    with_commission = []
    for shoe in shoes if commission else []:
        for freedom, information in MODELS:
            with_commission.append(solve(build_game(shoe, information, freedom, REPORT_COMMISSION)))
            step()
    by_model: list[BanqueEntry] = []
    for shoe, model in STANDARD_MODELS if banque else ():
        by_model += banque_entries([shoe], model)
        for _ in range(banque_steps([shoe])):
            step()
    start = done

    def banque_step(n: int) -> None:
        if progress is not None:
            progress(start + n)

    by_theta = banque_entries([Shoe.infinite()], thetas=thetas, progress=banque_step) if thetas else ()
    from solver.count.eor import effects_of_removal  # here: the report does not need it

    return PaperResults(
        puntos=tuple(puntos[s] for s in shoes),
        solutions=tuple(x for x in solutions if x.game.shoe in shoes),
        standard_punto=puntos[PUNTO_SHOE],
        standard_chemin=tuple(x for x in solutions if x.game.shoe == CHEMIN_SHOE),
        commission=tuple(with_commission),
        banque_models=tuple(by_model),
        banque_thetas=tuple(by_theta),
        catalogue=punto_banco(PUNTO_SHOE, bets=catalogue(), skip_unsettled=True) if side_bets else None,
        removal=effects_of_removal(PUNTO_SHOE, catalogue(), by="value") if side_bets else None,
    )
