"""Samples to test: our simulator's first coups, or a file of dealt coups read and checked coup by coup."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TextIO

import numpy as np

from solver.bets import STANDARD_COMMISSION
from solver.cards import card_token
from solver.deal import N_DETAIL, detail_key
from solver.errors import BaccaratError, InputError
from solver.files import read_lines
from solver.rules import STOOD
from solver.simulate import SimulationResult
from solver.simulate.config import Payout, default_payouts
from solver.simulate.kernel import NO_TURN
from solver.strategy import Strategy

# -- samples ---------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Sample:
    """Coups to hold against the exact law: independent first coups, by category.

    Attributes:
        source: where they came from.
        n: number of coups.
        winner: counts of banker, player (ponte), tie.
        detail: counts by detail key (length 800), or ``None``.
        cards: counts of the point values of every coup's first four cards, or ``None``.
        burn: counts by (turned burn card value 0–9, outcome), or ``None``.
        bets: bet name → (payout as the engine settled it, sum of results, sum of squared results).
        whole_shoes: the coups were dealt through whole shoes (a file), not one per fresh shoe.
    """

    source: str
    n: int
    winner: np.ndarray
    detail: np.ndarray | None = None
    cards: np.ndarray | None = None
    burn: np.ndarray | None = None
    bets: dict[str, tuple[float, float]] = field(default_factory=dict)
    whole_shoes: bool = False


def _bet_sums(winner: np.ndarray, payouts: Iterable[Payout]) -> dict[str, tuple[float, float]]:
    out = {}
    for p in payouts:
        a = np.array([float(x) for x in p.vector()])
        out[p.name] = (float(a @ winner), float((a * a) @ winner))
    return out


def sample_from_simulation(result: SimulationResult) -> Sample:
    """The first coup of every shoe of a simulation, with bets settled by the engine's payouts."""
    t = result.tallies
    winner = t.pos_counts[0].copy()
    burn = t.burn_winner[:NO_TURN].copy() if t.burn_winner[:NO_TURN].sum() else None
    return Sample(
        source=f"simulation ({result.config.strategy.name}; {result.config.burn.label()}; seed {result.seed})",
        n=int(winner.sum()),
        winner=winner,
        detail=t.first_detail.copy(),
        cards=t.first_cards.copy(),
        burn=burn,
        bets=_bet_sums(winner, result.config.payouts),
    )


_OUTCOME_LETTERS = {"B": 0, "P": 1, "T": 2}


def read_coups(stream: TextIO, source: str, strategy: Strategy, game: str,
               payouts: Iterable[Payout] | None = None) -> Sample:
    """Read a file of dealt coups, checking every coup is legal under the strategy's rules.

    One coup per line: the cards in deal order (Player, Banker, Player, Banker, then third cards in
    the order dealt) as ranks ``A``, ``2``–``9``, ``T`` or ``10``, ``J``, ``Q``, ``K`` separated by
    commas, optionally ``;`` and the outcome the engine reported (``B``, ``P`` or ``T``). ``#`` starts
    a comment. A ``-`` in the fifth place says the player stood and the fifth card is the banker's
    (``5,3,K,Q,-,7``); without it, a five-card coup whose player was free to draw is read as his draw.
    Where only one reading is legal under the rules, ``-`` may be left out.

    Raises:
        InputError: naming the first bad line (a bad card, a wrong number of cards for the rules, a
            reported outcome that does not follow from the cards), or an empty file.
    """
    ptab, btab = strategy.tables()
    winner = np.zeros(3, np.int64)
    detail = np.zeros(N_DETAIL, np.int64)
    cards_seen = np.zeros(10, np.int64)
    for number, raw in read_lines(stream, source):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            w, key, first4 = _check_coup(line, ptab, btab)
        except BaccaratError as e:
            raise InputError(f"{source}, line {number}: {e}") from None
        winner[w] += 1
        detail[key] += 1
        for v in first4:
            cards_seen[v] += 1
    n = int(winner.sum())
    if n == 0:
        raise InputError(f"{source}: no coups found")
    return Sample(source, n, winner, detail, cards_seen, None,
                  _bet_sums(winner, payouts if payouts is not None else default_payouts(game, STANDARD_COMMISSION)),
                  whole_shoes=True)


def _must(p: Fraction) -> int:
    """0 stand, 1 draw, 2 either."""
    return 1 if p >= 1 else 0 if p <= 0 else 2


def _check_coup(line: str, ptab: np.ndarray, btab: np.ndarray) -> tuple[int, int, list[int]]:
    body, sep, reported = line.partition(";")
    tokens = [t.strip() for t in body.split(",")]
    if any(not t for t in tokens):
        raise InputError(f"empty card in {body.strip()!r} (cards are separated by commas)")
    stood_mark = len(tokens) >= 5 and tokens[4] == "-"
    if stood_mark:
        del tokens[4]
    values = []
    for t in tokens:
        try:
            values.append(card_token(t)[1])
        except BaccaratError:
            raise InputError(f"bad card {t!r} (use A, 2-9, T or 10, J, Q, K)") from None
    n = len(values)
    if n < 4:
        raise InputError(f"{n} cards: a coup deals at least 4")
    p1, b1, p2, b2 = values[:4]
    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
    natural = pt >= 8 or bt >= 8
    p_drew = b_drew = 0
    if natural:
        if n != 4 or stood_mark:
            raise InputError(f"{n} cards after a natural ({'player' if pt >= 8 else 'banker'} {max(pt, bt)}): "
                             "a natural ends the coup with 4")
    else:
        p_rule = _must(ptab[p1, p2])
        rest = values[4:]
        if p_rule == 1 and stood_mark:
            raise InputError(f"the player must draw on {pt}, but the line says he stood")
        if p_rule == 0 or stood_mark:
            p_drew = 0
        elif p_rule == 1:
            p_drew = 1
        elif len(rest) != 1:
            p_drew = 1 if rest else 0
        else:  # five cards and the player's draw left to chance: whose is the fifth?
            drew_ok = _must(btab[b1, b2, rest[0]]) != 1
            stood_ok = _must(btab[b1, b2, STOOD]) != 0
            if not (drew_ok or stood_ok):
                raise InputError(f"5 cards, but neither reading is legal: had the player stood, the banker must stand on "
                                 f"{(b1 + b2) % 10}; had he drawn the {rest[0]}, the banker must draw again")
            p_drew = 1 if drew_ok else 0  # both legal: no '-' means the player drew (the file format's rule)
        if p_drew and not rest:
            raise InputError(f"4 cards, but the player must draw on {pt}")
        seen = STOOD
        if p_drew:
            seen = rest[0]
            pt = (pt + seen) % 10
            rest = rest[1:]
        b_rule = _must(btab[b1, b2, seen])
        seen_text = "the player stood" if seen == STOOD else f"the player's third card {seen}"
        if b_rule == 1 and not rest:
            raise InputError(f"{n} cards, but the banker must draw on {(b1 + b2) % 10} after {seen_text}")
        if b_rule == 0 and rest:
            raise InputError(f"{n} cards, but the banker must stand on {(b1 + b2) % 10} after {seen_text}")
        if len(rest) > 1:
            drew = "the banker drew" if b_rule == 1 else "the banker may draw"
            raise InputError(f"{n} cards, but the coup ends with {n - len(rest) + 1} ({seen_text}, {drew} on "
                             f"{(b1 + b2) % 10})")
        if rest:
            bt = (bt + rest[0]) % 10
            b_drew = 1
    w = 0 if bt > pt else 1 if pt > bt else 2
    if sep:
        r = reported.strip().upper()
        if r not in _OUTCOME_LETTERS:
            raise InputError(f"reported outcome {reported.strip()!r}: use B, P or T")
        if _OUTCOME_LETTERS[r] != w:
            truth = "BPT"[w]
            raise InputError(f"reported {r} but the cards give {truth} (player {pt}, banker {bt})")
    return w, detail_key(pt, bt, p_drew, b_drew, int(natural)), values[:4]


