"""An exact solver for baccarat: punto banco, chemin de fer and baccara banque, with certificates.

Every probability, edge and game value is computed exactly, from integer counts of card sequences,
and returned as :class:`~fractions.Fraction` values; games are solved by linear programming and
certified in exact rationals. The front door (docs/api.md has a worked tour):

* shoes: :class:`Shoe`, :func:`parse_shoe`;
* the exact law of a coup and the bets: :func:`outcomes`, :func:`punto_banco`, :class:`Bet`, the
  side-bet :func:`catalogue`, :func:`bets_from_names`, :func:`read_bet_file`;
* counting: :func:`effects_of_removal`, :func:`count_study` with :class:`CountConfig` and :class:`LinearCount`;
* chemin de fer as a game: :func:`build_game`, :func:`solve`, :class:`Solution`; with the commission as a
  parameter, :func:`commission_sweep` and :class:`CommissionSweep`; strategies as exact values:
  :class:`Side`, :class:`InfoSet`, :class:`Strategy`, :func:`strategy_law`; the model's words as typed
  values: :class:`Freedom`, :class:`Information`, :class:`Baccarat`; the payoff matrices
  (:func:`normal_form`, :class:`NormalForm`, for nashpy) and the game for Gambit (:func:`write_gambit`,
  :func:`gambit_game`);
* baccara banque as a three-person game: :class:`BanqueModel`, :func:`build_banque`, :func:`solve_banque`,
  :func:`solve_concepts`, :class:`BanqueSolution`;
* house rule sheets: :class:`HouseRules`, :func:`house_rules`, :class:`Tableau`;
* sessions at the table with every rule of the money: :class:`TableConfig`, :class:`Policies`,
  :func:`play_session`, :func:`summarize`, :class:`TableSummary`;
* what every answer says of itself (method, inputs, exact, certified, unique): :class:`Result`, and
  :data:`Number`, the type of an exact number;
* certificates that ``baccarat-check`` verifies independently: :func:`certificate_text`,
  :func:`write_certificates`;
* the simulator and the cross-check: :class:`SimConfig`, :func:`exact_law`, :func:`read_coups`, and
  the subpackages' own verbs ``solver.simulate.simulate`` and ``solver.crosscheck.crosscheck``;
* every result as the JSON the command prints (:func:`to_dict`) and as a notebook's table (:func:`to_frame`,
  a pandas DataFrame where pandas is installed);
* the full report: :func:`full_report`; a game's par sheet: :func:`par_sheet` (with :class:`Simulation`
  for the dealt game), giving a :class:`ParSheet`.

Names are loaded on first use, so ``import solver`` stays cheap (the command line starts fast).

>>> import solver
>>> solver.punto_banco(solver.Shoe.decks(8)).bet("banker").edge
Fraction(114753351728, 10847218479825)
>>> solver.solve(solver.build_game(solver.Shoe.infinite(), 1, "parlor")).q
(Fraction(9, 11),)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from solver.version import __version__

_WHERE: dict[str, str] = {
    "Shoe": "solver.cards",
    "parse_shoe": "solver.cards",
    "outcomes": "solver.deal.outcome",
    "OutcomeTable": "solver.deal.outcome",
    "Bet": "solver.punto",
    "BetResult": "solver.punto",
    "PuntoResult": "solver.punto",
    "evaluate": "solver.punto",
    "punto_banco": "solver.punto",
    "main_bets": "solver.punto",
    "variant_bets": "solver.punto",
    "catalogue": "solver.punto",
    "bets_from_names": "solver.punto",
    "read_bet_file": "solver.punto",
    "effects_of_removal": "solver.count.eor",
    "count_study": "solver.count",
    "CountConfig": "solver.count",
    "LinearCount": "solver.count",
    "Side": "solver.strategy",
    "InfoSet": "solver.strategy",
    "Strategy": "solver.strategy",
    "KEMENY_SNELL": "solver.strategy",
    "PUNTO_STRATEGY": "solver.strategy",
    "Model": "solver.chemin.game",
    "Game": "solver.chemin.game",
    "build_game": "solver.chemin.game",
    "strategy_law": "solver.chemin.game",
    "strategy_detail": "solver.chemin.game",
    "NormalForm": "solver.chemin.guarantees",
    "normal_form": "solver.chemin.guarantees",
    "write_gambit": "solver.chemin.gambit",
    "gambit_game": "solver.chemin.gambit",
    "Solution": "solver.chemin.solve",
    "solve": "solver.chemin.solve",
    "certificate_dict": "solver.chemin.certificate",
    "certificate_text": "solver.chemin.certificate",
    "write_certificates": "solver.chemin.certificate",
    "SimConfig": "solver.simulate",
    "SimulationResult": "solver.simulate",
    "ExactLaw": "solver.crosscheck",
    "CrossCheck": "solver.crosscheck",
    "exact_law": "solver.crosscheck",
    "read_coups": "solver.crosscheck",
    "ParSheet": "solver.analysis.parsheet",
    "Simulation": "solver.analysis.dealt_game",
    "par_sheet": "solver.analysis.parsheet",
    "FullReport": "solver.analysis.report",
    "full_report": "solver.analysis.report",
    "to_dict": "solver.report.views",
    "to_frame": "solver.report.views",
    "BaccaratError": "solver.errors",
    "ShoeError": "solver.errors",
    "ModelError": "solver.errors",
    "InputError": "solver.errors",
    "SolverError": "solver.errors",
    "Freedom": "solver.strategy.words",
    "Information": "solver.strategy.words",
    "Baccarat": "solver.strategy.words",
    "Result": "solver.exact.result",
    "Number": "solver.exact.result",
    "commission_sweep": "solver.chemin.commission.sweep",
    "CommissionSweep": "solver.chemin.commission.sweep",
    "BanqueModel": "solver.banque",
    "BanqueGame": "solver.banque",
    "BanqueSolution": "solver.banque",
    "build_banque": "solver.banque",
    "solve_banque": "solver.banque",
    "solve_concepts": "solver.banque",
    "HouseRules": "solver.rules.house",
    "house_rules": "solver.rules.house",
    "Tableau": "solver.rules.tableau",
    "TableConfig": "solver.sessions",
    "Policies": "solver.sessions",
    "summarize": "solver.sessions",
    "TableSummary": "solver.sessions",
    "play_session": "solver.sessions",
}

__all__ = [
    "__version__",
    "Baccarat",
    "BaccaratError",
    "BanqueGame",
    "BanqueModel",
    "BanqueSolution",
    "Bet",
    "BetResult",
    "CommissionSweep",
    "CountConfig",
    "CrossCheck",
    "ExactLaw",
    "Freedom",
    "FullReport",
    "Game",
    "HouseRules",
    "InfoSet",
    "Information",
    "InputError",
    "KEMENY_SNELL",
    "LinearCount",
    "Model",
    "ModelError",
    "NormalForm",
    "Number",
    "OutcomeTable",
    "PUNTO_STRATEGY",
    "ParSheet",
    "Policies",
    "PuntoResult",
    "Result",
    "Shoe",
    "ShoeError",
    "Side",
    "SimConfig",
    "Simulation",
    "SimulationResult",
    "Solution",
    "SolverError",
    "Strategy",
    "TableConfig",
    "TableSummary",
    "Tableau",
    "bets_from_names",
    "build_banque",
    "build_game",
    "catalogue",
    "certificate_dict",
    "certificate_text",
    "commission_sweep",
    "count_study",
    "effects_of_removal",
    "evaluate",
    "exact_law",
    "full_report",
    "gambit_game",
    "house_rules",
    "main_bets",
    "normal_form",
    "outcomes",
    "par_sheet",
    "parse_shoe",
    "play_session",
    "punto_banco",
    "read_bet_file",
    "read_coups",
    "solve",
    "solve_banque",
    "solve_concepts",
    "strategy_detail",
    "strategy_law",
    "summarize",
    "variant_bets",
    "write_certificates",
    "to_dict",
    "to_frame",
    "write_gambit",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from solver.analysis.dealt_game import Simulation
    from solver.analysis.parsheet import ParSheet, par_sheet
    from solver.analysis.report import FullReport, full_report
    from solver.banque import BanqueGame, BanqueModel, BanqueSolution, build_banque, solve_banque, solve_concepts
    from solver.cards import Shoe, parse_shoe
    from solver.chemin.certificate import certificate_dict, certificate_text, write_certificates
    from solver.chemin.commission.sweep import CommissionSweep, commission_sweep
    from solver.chemin.gambit import gambit_game, write_gambit
    from solver.chemin.game import Game, Model, build_game, strategy_detail, strategy_law
    from solver.chemin.guarantees import NormalForm, normal_form
    from solver.chemin.solve import Solution, solve
    from solver.count import CountConfig, LinearCount, count_study
    from solver.count.eor import effects_of_removal
    from solver.crosscheck import CrossCheck, ExactLaw, exact_law, read_coups
    from solver.deal.outcome import OutcomeTable, outcomes
    from solver.errors import BaccaratError, InputError, ModelError, ShoeError, SolverError
    from solver.exact.result import Number, Result
    from solver.punto import (
        Bet,
        BetResult,
        PuntoResult,
        bets_from_names,
        catalogue,
        evaluate,
        main_bets,
        punto_banco,
        read_bet_file,
        variant_bets,
    )
    from solver.report.views import to_dict, to_frame
    from solver.rules.house import HouseRules, house_rules
    from solver.rules.tableau import Tableau
    from solver.sessions import Policies, TableConfig, TableSummary, play_session, summarize
    from solver.simulate import SimConfig, SimulationResult
    from solver.strategy import KEMENY_SNELL, PUNTO_STRATEGY, InfoSet, Side, Strategy
    from solver.strategy.words import Baccarat, Freedom, Information
