"""The par sheet's dealt game: shoes dealt to the cut card, and the simulation check (ESTIMATES).

The simulator (:mod:`solver.simulate`) deals whole shoes as the table does (the burn, the cut card,
the coup in progress finished). A wager settled on the winner alone (Banker, Player, Tie; a
commission-free Banker; any bet file's bet on the winner) is settled by the simulator coup by coup,
so its house edge over every coup of the shoe is the ratio estimator over shoes
(:meth:`~solver.simulate.SimulationResult.whole_shoe`, Cochran's linearised standard error), and the
cut-card effect is that minus the exact first-coup edge. Any other wager is priced over the shoe by
the counting study (:mod:`solver.count`): at every coup dealt, its exact edge on the cards not yet
seen, averaged over the coups (the same expectation as the results' mean, with a smaller error).

The simulation check of the exact figures is the cross-check (:mod:`solver.crosscheck`) of the same
shoes: the first coup of every shoe held to the exact law (outcome, detail, card, burn and pair laws,
every settled wager's mean result against its exact edge and variance), and the shoes' cards to the
laws of whole shoes; and, for each wager the counting study priced, its exact edges against the
results dealt on the same coups, as a z-score. The false-alarm rate ``alpha`` is the whole check's:
the cross-check's share is split evenly over its tests, and each counting-study line takes the same
share as one cross-check test (Bonferroni).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from statistics import NormalDist

from solver.analysis.parsheet import CheckLine, DealtGame, DealtWager, GameRules, Simulation, Wager
from solver.punto import Bet
from solver.rules.tableau import PUNTO_BANCO


def _detectable(value: float, what: str) -> str:
    return f"{value:.3g} ({what})" if math.isfinite(value) else "-"


def dealt_game(
    rules: GameRules,
    bets: Sequence[Bet],
    wagers: Sequence[Wager],
    simulation: Simulation,
    progress: Callable[[str, int, int], None] | None = None,
) -> DealtGame:
    """Deal ``simulation.coups`` coups in whole shoes (and ``simulation.study`` for the counting
    study, when a wager needs it) and hold them against the exact sheet.

    Raises:
        ModelError: the simulator cannot deal this table (an infinite deck; a cut card too deep).
        InputError: too few coups for the cross-check.
    """
    from solver.crosscheck import burn_laws, crosscheck, exact_law, sample_from_simulation
    from solver.simulate import Payout, SimConfig, parse_burn, shoes_for_coups, simulate
    from solver.strategy import PUNTO_STRATEGY, Strategy

    strategy = (
        PUNTO_STRATEGY if rules.tableau == PUNTO_BANCO else Strategy(rules.tableau, {}, f"{rules.tableau_name} tableau").check()
    )
    exact_edge = {w.name: w.edge for w in wagers}
    settled = [b for b in bets if b.by_winner() is not None]
    studied = [b for b in bets if b.by_winner() is None]
    payouts = tuple(Payout.from_bet(b) for b in settled)
    config = SimConfig(
        "punto",
        rules.shoe,
        strategy,
        burn=parse_burn(rules.burn),
        cut=rules.cut,
        commission=rules.commission,
        payouts=payouts,
        shoe_tallies=True,
    )
    n_shoes = shoes_for_coups(config, simulation.coups)
    tick = (lambda done: progress("shoes", done, n_shoes)) if progress is not None else None
    result = simulate(config, shoes=n_shoes, seed=simulation.seed, workers=simulation.workers, progress=tick)
    law = exact_law("punto", rules.shoe, strategy)
    burns = burn_laws(law, strategy) if config.burn.mode.startswith("turn") and law.detail is not None else None
    studies = []
    study_coups = study_shoes = 0
    not_dealt: tuple[tuple[str, str], ...] = ()
    if studied and rules.tableau != PUNTO_BANCO:
        reason = "the counting study deals punto banco's own tableau only"
        not_dealt = tuple((b.name, reason) for b in studied)
    elif studied:
        from solver.count import CountConfig, count_study

        count_config = CountConfig(SimConfig("punto", rules.shoe, strategy, burn=config.burn, cut=rules.cut), tuple(studied))
        study = count_study(count_config, coups=simulation.study, seed=simulation.seed, workers=simulation.workers)
        studies = list(study.bets)
        study_coups, study_shoes = study.n_coups, study.n_shoes
    # the check's rate: the cross-check's tests and the counting study's lines share alpha evenly
    cc = crosscheck(sample_from_simulation(result), law, config.payouts, burns, simulation.alpha)
    each = float(simulation.alpha) / (len(cc.tests) + len(studies))
    lines = [
        CheckLine(t.name, t.statistic, t.p_value, each, t.p_value < each, _detectable(t.detectable, t.detectable_what))
        for t in cc.tests
    ]
    power = NormalDist().inv_cdf(1 - each / 2) + NormalDist().inv_cdf(0.8)  # the shift detected w.p. 0.8
    whole = result.whole_shoe()
    out = []
    for b in settled:
        est = whole["bet:" + b.name]
        edge = exact_edge[b.name]
        out.append(DealtWager(b.name, edge, -est.value, est.se, -est.value - float(edge), est.se, "simulator"))
    for s in studies:
        edge = exact_edge[s.name]
        z = s.agreement()
        p = 2 * (1 - NormalDist().cdf(abs(z))) if math.isfinite(z) else 0.0
        lines.append(
            CheckLine(f"counting study {s.name}", z, p, each, p < each, _detectable(power * s.difference.se, "shift of the mean"))
        )
        e = s.mean_edge
        out.append(DealtWager(s.name, edge, -e.value, e.se, -e.value - float(edge), e.se, "counting study", z))
    rejected = [line.name for line in lines if line.rejected]
    verdict = "PASS" if not rejected else "REJECT (" + ", ".join(rejected) + ")"
    order = {b.name: k for k, b in enumerate(bets)}
    method = (
        f"simulation (solver.simulate): {result.n_coups:,} coups in {result.n_shoes:,} whole shoes, seed {simulation.seed}; "
        f"{config.burn.label()}; cut card {rules.cut} cards from the end; cross-check (solver.crosscheck) of the same shoes"
    )
    if studies:
        method += f"; counting study (solver.count): {study_coups:,} coups in {study_shoes:,} shoes"
    return DealtGame(
        coups=result.n_coups,
        shoes=result.n_shoes,
        seed=simulation.seed,
        wagers=tuple(sorted(out, key=lambda w: order[w.name])),
        study_coups=study_coups,
        study_shoes=study_shoes,
        alpha=simulation.alpha,
        tests=tuple(lines),
        verdict=verdict,
        method=method,
        not_dealt=not_dealt,
    )
