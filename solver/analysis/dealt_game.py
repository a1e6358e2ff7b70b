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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

from solver.cards import Shoe
from solver.exact.numbers import fraction_str
from solver.punto import Bet
from solver.rules.tableau import PUNTO_BANCO, Tableau


@dataclass(frozen=True)
class Simulation:
    """What to deal for the dealt game: ``coups`` in whole shoes (the simulator and the cross-check),
    ``study`` coups for the counting study of wagers the simulator does not settle, the seed, and the
    executor (``workers``, None: every core)."""

    coups: int = 10**7
    study: int = 10**6
    seed: int = 0
    workers: int | None = None
    alpha: Fraction = Fraction(1, 1000)

    def describe(self) -> dict[str, object]:
        return {"coups": self.coups, "study": self.study, "seed": self.seed, "alpha": fraction_str(self.alpha)}


@dataclass(frozen=True)
class DealtWager:
    """A wager on the dealt game (ESTIMATES from dealt shoes, with standard errors).

    Attributes:
        name: the wager.
        first_coup_edge: its exact house edge on the first coup of a shoe.
        whole_shoe_edge, whole_shoe_se: its house edge over every coup of the shoe, estimated.
        effect, effect_se: whole shoe minus first coup (the cut-card effect), estimated.
        source: how the whole-shoe edge was estimated.
        check_z: for a wager the counting study priced, its exact edges at every coup against the
            results dealt, in standard errors (``None`` for a wager the cross-check settles).
    """

    name: str
    first_coup_edge: Fraction
    whole_shoe_edge: float
    whole_shoe_se: float
    effect: float
    effect_se: float
    source: str
    check_z: float | None = None


@dataclass(frozen=True)
class CheckLine:
    """One test of the simulation check: its name, statistic, p-value, rate, and whether it rejected."""

    name: str
    statistic: float
    p_value: float
    alpha: float
    rejected: bool
    detectable: str


@dataclass(frozen=True)
class DealtGame:
    """The dealt game: shoes dealt to the cut card, and the simulation check (ESTIMATES).

    Attributes:
        coups, shoes, seed: what the simulator dealt.
        wagers: each wager's whole-shoe edge against its first-coup edge.
        study_coups, study_shoes: what the counting study dealt (0 when no wager needed it).
        not_dealt: ``(wager, reason)`` for each wager left out of the dealt game.
        alpha: the check's false-alarm rate; ``tests``: its tests; ``verdict``: PASS or REJECT (...).
        method: how the numbers were obtained.
    """

    coups: int
    shoes: int
    seed: int
    wagers: tuple[DealtWager, ...]
    study_coups: int
    study_shoes: int
    alpha: Fraction
    tests: tuple[CheckLine, ...]
    verdict: str
    method: str
    not_dealt: tuple[tuple[str, str], ...] = ()

    @property
    def passed(self) -> bool:
        return self.verdict == "PASS"


def _detectable(value: float, what: str) -> str:
    return f"{value:.3g} ({what})" if math.isfinite(value) else "-"


def dealt_game(
    shoe: Shoe,
    tableau: Tableau,
    tableau_name: str,
    commission: Fraction,
    cut: int,
    burn: str,
    bets: Sequence[Bet],
    exact_edge: Mapping[str, Fraction],
    simulation: Simulation,
    progress: Callable[[str, int, int], None] | None = None,
) -> DealtGame:
    """Deal ``simulation.coups`` coups in whole shoes (and ``simulation.study`` for the counting
    study, when a wager needs it) and hold them against the exact sheet: ``exact_edge`` maps each
    bet's name to its exact first-coup edge; the table is ``tableau`` (named ``tableau_name``) with
    ``commission``, cut ``cut`` cards from the end, and burn ``burn``.

    Raises:
        ModelError: the simulator cannot deal this table (an infinite deck; a cut card too deep).
        InputError: too few coups for the cross-check.
    """
    from solver.crosscheck import burn_laws, crosscheck, exact_law, sample_from_simulation
    from solver.simulate import Payout, SimConfig, parse_burn, simulate
    from solver.simulate.run import shoes_for_coups
    from solver.strategy import PUNTO_STRATEGY, Strategy

    strategy = PUNTO_STRATEGY if tableau == PUNTO_BANCO else Strategy(tableau, {}, f"{tableau_name} tableau").check()
    settled = [b for b in bets if b.by_winner() is not None]
    studied = [b for b in bets if b.by_winner() is None]
    payouts = tuple(Payout.from_bet(b) for b in settled)
    config = SimConfig(
        "punto",
        shoe,
        strategy,
        burn=parse_burn(burn),
        cut=cut,
        commission=commission,
        payouts=payouts,
        shoe_tallies=True,
    )
    n_shoes = shoes_for_coups(config, simulation.coups)
    tick = (lambda done: progress("shoes", done, n_shoes)) if progress is not None else None
    result = simulate(config, shoes=n_shoes, seed=simulation.seed, workers=simulation.workers, progress=tick)
    law = exact_law("punto", shoe, strategy)
    burns = burn_laws(law, strategy) if config.burn.mode.startswith("turn") and law.detail is not None else None
    studies = []
    study_coups = study_shoes = 0
    not_dealt: tuple[tuple[str, str], ...] = ()
    if studied and tableau != PUNTO_BANCO:
        reason = "the counting study deals punto banco's own tableau only"
        not_dealt = tuple((b.name, reason) for b in studied)
    elif studied:
        from solver.count import CountConfig, count_study

        count_config = CountConfig(SimConfig("punto", shoe, strategy, burn=config.burn, cut=cut), tuple(studied))
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
        f"{config.burn.label()}; cut card {cut} cards from the end; cross-check (solver.crosscheck) of the same shoes"
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
