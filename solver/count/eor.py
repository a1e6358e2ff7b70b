"""Effects of removal and linear counts, exactly.

The *effect of removal* of a kind of card ``c`` (a rank, or a point value) on a bet is the exact change
in the bet's expected value when one card of that kind, chosen at random among the shoe's cards of
that kind, is taken out (Thorp and Walden 1966; Griffin, *The Theory of Blackjack*, ch. 5):

    EOR_c = Σ_{t in c} (m_t / n_c) EV(shoe − t) − EV(shoe),

``t`` over the finest kinds the bet reads (point values for the coup's outcome, ranks for pairs, ranks
and suits for suited bets), ``m_t`` their counts, ``n_c = Σ m_t``. Removing a uniformly random card of
the shoe is burning the top card, which does not change the law of the next coup, so the effects
weighted by the composition sum to zero *exactly*: ``Σ_c n_c EOR_c = 0`` (checked in the tests, with
each effect equal to the difference of two exact solves).

A linear count with tags proportional to the effects is the best linear estimate of the edge for
small depletions. Tags here are the effects scaled so that the largest in magnitude becomes ``±level``
and rounded half away from zero (:func:`round_tags`): the stated rule. Two measures of how well the
count tracks the bet: the *betting correlation* (the correlation of tags and effects over the cards,
weighted by the composition; exact inside the square root) and the correlation of the count's true
count with the bet's exact edge over random depleted shoes (an estimate, with its sample).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np

from solver.cards import RANK_VALUE, RANKS, SUITS, Shoe
from solver.errors import InputError, ModelError
from solver.punto import Bet, compile_bets, evaluate_first_cards, first_cards_law
from solver.punto.pricing import settles
from solver.rules.tableau import PUNTO_BANCO

BY = ("rank", "value")
DEFAULT_LEVEL = 2
VALUE_LABELS = ("T", "A", "2", "3", "4", "5", "6", "7", "8", "9")
"""Point values 0–9 as counters write them (T for the ten-valued cards)."""


@dataclass(frozen=True)
class Removal:
    """One kind of card: how many the shoe holds, the bet's EV with one removed, and the effect."""

    card: str
    cards: int
    ev: Fraction
    effect: Fraction


@dataclass(frozen=True)
class BetRemoval:
    """A bet's effects of removal and the linear count built from them.

    Attributes:
        name, description: of the bet.
        ev: the bet's expected value on the full shoe.
        removals: one :class:`Removal` per kind of card present.
        tags: the rounded count (:func:`round_tags`), one per removal.
        imbalance: ``Σ n_c tag_c`` over the shoe (0 for a balanced count).
        betting_correlation_squared: the squared correlation of tags and effects (exact); its sign is
            that of :attr:`betting_correlation_sign`.
        count_correlation: the correlation of the true count and the exact edge over random depleted
            shoes (an estimate), or ``None`` when not sampled.
    """

    name: str
    description: str
    ev: Fraction
    removals: tuple[Removal, ...]
    tags: tuple[int, ...]
    imbalance: int
    betting_correlation_squared: Fraction
    betting_correlation_sign: int
    count_correlation: float | None = None
    exact_count_correlation: float | None = None


@dataclass(frozen=True)
class EorResult:
    """Effects of removal of every bet asked, on one shoe, with the counts and how they were made."""

    shoe: Shoe
    by: str
    level: int
    bets: tuple[BetRemoval, ...]
    samples: int = 0
    seed: int | None = None
    depth: tuple[int, int] = (0, 0)
    method: str = field(
        default="exact solves of the shoe and of the shoe less one card of each kind (solver.punto); "
        "tags: effects scaled to the largest = ±level, rounded half away from zero"
    )

    def bet(self, name: str) -> BetRemoval:
        for b in self.bets:
            if b.name == name:
                return b
        raise KeyError(name)


def round_tags(effects: Sequence[Fraction], level: int = DEFAULT_LEVEL) -> tuple[int, ...]:
    """Tags proportional to the effects: scaled so the largest magnitude is ``level``, rounded half away from 0.

    >>> round_tags([Fraction(-3), Fraction(1), Fraction(0), Fraction(1, 2)], 2)
    (-2, 1, 0, 0)
    """
    if level < 1:
        raise InputError(f"--level must be at least 1, got {level}")
    top = max((abs(e) for e in effects), default=Fraction(0))
    if top == 0:
        return tuple(0 for _ in effects)
    out = []
    for e in effects:
        x = Fraction(level) * e / top
        r = math.floor(abs(x) + Fraction(1, 2))
        out.append(r if x >= 0 else -r)
    return tuple(out)


def _kinds(shoe: Shoe, by: str, suits: bool) -> tuple[list[str], list[list[tuple[tuple[int, ...], int]]], str]:
    kinds: list[list[tuple[tuple[int, ...], int]]]
    """Per kind of card: its label and its finest types ``(type, count)``; and the type level."""
    if by == "rank":
        if shoe.ranks is None:
            raise ModelError("effects by rank need the shoe's ranks; use --by value or give the ranks")
        if suits:
            assert shoe.suits is not None
            kinds = [[((r, s), shoe.suits[4 * r + s]) for s in range(4)] for r in range(13)]
            return list(RANKS), kinds, "suit"
        kinds = [[((r,), shoe.ranks[r])] for r in range(13)]
        return list(RANKS), kinds, "rank"
    if suits:
        assert shoe.suits is not None
        kinds = [[((r, s), shoe.suits[4 * r + s]) for r in range(13) if RANK_VALUE[r] == v for s in range(4)] for v in range(10)]
        return list(VALUE_LABELS), kinds, "suit"
    if shoe.ranks is not None:
        kinds = [[((r,), shoe.ranks[r]) for r in range(13) if RANK_VALUE[r] == v] for v in range(10)]
        return list(VALUE_LABELS), kinds, "rank"
    kinds = [[((v,), shoe.values[v])] for v in range(10)]
    return list(VALUE_LABELS), kinds, "value"


def _less(shoe: Shoe, kind: tuple[int, ...], level: str) -> Shoe:
    if level == "suit":
        r, s = kind
        return shoe.remove([RANKS[r] + SUITS[s]])
    if level == "rank":
        return shoe.remove([RANKS[kind[0]]])
    return shoe.remove([str(kind[0])])


def _value_of(kind: tuple[int, ...], level: str) -> int:
    return kind[0] if level == "value" else RANK_VALUE[kind[0]]


def effects_of_removal(
    shoe: Shoe,
    bets: Sequence[Bet],
    by: str = "rank",
    level: int = DEFAULT_LEVEL,
    samples: int = 0,
    seed: int = 0,
    depth: tuple[int, int] | None = None,
) -> EorResult:
    """The exact effects of removal of every bet on ``shoe``, the rounded counts, and their correlations.

    Args:
        shoe: a finite shoe.
        bets: the bets.
        by: ``rank`` or ``value`` (the kinds of card removed and tagged).
        level: the largest tag in magnitude (:func:`round_tags`).
        samples: random depleted shoes on which to correlate each count with the exact edge (0: none).
        seed: their seed.
        depth: ``(fewest, most)`` cards removed at random for each sample (default: 1 to all but 26).

    Raises:
        ModelError: an infinite shoe, or a bet the shoe cannot settle.
    """
    if shoe.is_infinite:
        raise ModelError("effects of removal need a finite shoe (an infinite deck does not change when cards are dealt)")
    if by not in BY:
        raise InputError(f"--by takes rank or value, got {by!r}")
    for b in bets:
        why = settles(b, shoe)
        if why is not None:
            raise ModelError(f"bet {b.name} cannot be settled on this shoe: {why}")
    suits = any(b.needs_suits for b in bets)
    labels, kinds, type_level = _kinds(shoe, by, suits)
    coup = tuple(b for b in bets if not b.first_cards)
    compiled = compile_bets(coup, PUNTO_BANCO, winner=False)
    evs_cache: dict[tuple[int, ...], dict[str, Fraction]] = {}

    def evs(s: Shoe, value: int | None) -> dict[str, Fraction]:
        out: dict[str, Fraction] = {}
        key = (value if value is not None else -1,)
        if coup and key not in evs_cache:
            results, _, _ = compiled.results(s)
            evs_cache[key] = {r.name: r.ev for r in results}
        if coup:
            out.update(evs_cache[key])
        law = first_cards_law(s, suits=suits) if any(b.first_cards for b in bets) else None
        for b in bets:
            if b.first_cards:
                out[b.name] = evaluate_first_cards(b, s, law).ev
        return out

    full = evs(shoe, None)
    per_bet: dict[str, list[Removal]] = {b.name: [] for b in bets}
    for label, kind in zip(labels, kinds):
        n_c = sum(m for _, m in kind)
        if n_c == 0:
            continue
        acc = {b.name: Fraction(0) for b in bets}
        for t, m in kind:
            if m == 0:
                continue
            less = _less(shoe, t, type_level)
            got = evs(less, _value_of(t, type_level))
            for b in bets:
                acc[b.name] += Fraction(m, n_c) * got[b.name]
        for b in bets:
            per_bet[b.name].append(Removal(label, n_c, acc[b.name], acc[b.name] - full[b.name]))
    out = []
    for bet in bets:
        removals = tuple(per_bet[bet.name])
        tags = round_tags([r.effect for r in removals], level)
        corr2, sign = _betting_correlation(removals, tags)
        out.append(
            BetRemoval(
                bet.name,
                bet.description,
                full[bet.name],
                removals,
                tags,
                sum(r.cards * t for r, t in zip(removals, tags)),
                corr2,
                sign,
            )
        )
    lo, hi = depth if depth is not None else (1, shoe.size - 26)
    if samples:
        if suits:
            raise ModelError("sampled correlations of suit bets need suited removals; leave --samples out for them")
        if not 0 <= lo <= hi <= shoe.size - 6:
            raise InputError(f"--depth must lie within 0 and {shoe.size - 6} cards removed, got {lo} to {hi}")
        out = _sample_correlations(shoe, bets, out, labels, by, samples, seed, (lo, hi))
    return EorResult(shoe, by, level, tuple(out), samples, seed if samples else None, (lo, hi) if samples else (0, 0))


def _betting_correlation(removals: Sequence[Removal], tags: Sequence[int]) -> tuple[Fraction, int]:
    """The composition-weighted correlation of tags and effects: its exact square, and its sign."""
    n = sum(r.cards for r in removals)
    if n == 0:
        return Fraction(0), 0
    me = sum((r.cards * r.effect for r in removals), Fraction(0)) / n
    mt = Fraction(sum(r.cards * t for r, t in zip(removals, tags)), n)
    cov = sum((r.cards * (r.effect - me) * (t - mt) for r, t in zip(removals, tags)), Fraction(0))
    ve = sum((r.cards * (r.effect - me) ** 2 for r in removals), Fraction(0))
    vt = sum((r.cards * (t - mt) ** 2 for r, t in zip(removals, tags)), Fraction(0))
    if ve == 0 or vt == 0:
        return Fraction(0), 0
    return cov * cov / (ve * vt), (cov > 0) - (cov < 0)


def _sample_correlations(
    shoe: Shoe,
    bets: Sequence[Bet],
    out: list[BetRemoval],
    labels: list[str],
    by: str,
    samples: int,
    seed: int,
    depth: tuple[int, int],
) -> list[BetRemoval]:
    """Correlate each bet's true count (rounded tags, and the unrounded effects) with its exact edge."""
    rng = np.random.default_rng(seed)
    if shoe.ranks is not None:
        cards = [RANKS[r] for r in range(13) for _ in range(shoe.ranks[r])]
        kind_of = {RANKS[r]: (RANKS[r] if by == "rank" else VALUE_LABELS[RANK_VALUE[r]]) for r in range(13)}
    else:
        cards = [str(v) for v in range(10) for _ in range(shoe.values[v])]
        kind_of = {str(v): VALUE_LABELS[v] for v in range(10)}
    coup = tuple(b for b in bets if not b.first_cards)
    compiled = compile_bets(coup, PUNTO_BANCO, winner=False)
    tcs: dict[str, list[float]] = {b.name: [] for b in out}
    exact_tcs: dict[str, list[float]] = {b.name: [] for b in out}
    edges: dict[str, list[float]] = {b.name: [] for b in out}
    tag_of = {b.name: dict(zip((r.card for r in b.removals), b.tags)) for b in out}
    effect_of = {b.name: {r.card: r.effect for r in b.removals} for b in out}
    for _ in range(samples):
        k = int(rng.integers(depth[0], depth[1] + 1))
        removed = [cards[i] for i in rng.choice(len(cards), size=k, replace=False)] if k else []
        depleted = shoe.remove(removed) if removed else shoe
        results = {r.name: r.ev for r in compiled.results(depleted)[0]} if coup else {}
        law = first_cards_law(depleted, suits=False) if any(b.first_cards for b in bets) else None
        decks = Fraction(depleted.size, 52)
        for b in bets:
            ev = results[b.name] if not b.first_cards else evaluate_first_cards(b, depleted, law).ev
            rc = sum(tag_of[b.name].get(kind_of[c], 0) for c in removed)
            exact_rc = sum((effect_of[b.name].get(kind_of[c], Fraction(0)) for c in removed), Fraction(0))
            tcs[b.name].append(float(rc / decks))
            exact_tcs[b.name].append(float(exact_rc / decks))
            edges[b.name].append(float(ev))
    return [
        replace(
            r,
            count_correlation=_pearson(tcs[r.name], edges[r.name]),
            exact_count_correlation=_pearson(exact_tcs[r.name], edges[r.name]),
        )
        for r in out
    ]


def _pearson(x: list[float], y: list[float]) -> float | None:
    if len(x) < 2:
        return None
    a, b = np.array(x), np.array(y)
    if a.std() == 0 or b.std() == 0:
        return None
    return float(np.corrcoef(a, b)[0, 1])
