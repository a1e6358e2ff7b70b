"""Chemin de fer as an additive game, built exactly from the enumerator.

The ponte (player) draws on 0–4, stands on 6–7 and chooses at 5; the banker, seeing whether the
ponte drew and his third card, follows the tableau's fixed cells and chooses in the free ones. A
natural (8 or 9 on two cards) ends the coup; equal totals void it (payoff 0).

Information sets (Ethier's models): under information 1 each side sees only his own two-card total;
under 2 the banker sees his two-card composition; under 3 the ponte too. They are
:class:`~solver.strategy.InfoSet` values: the ponte's are his total 5 (information 1 and 2) or his
composition at 5, written ``0+5 1+4 2+3 6+9 7+8`` (information 3); the banker's are his total or
composition with what he saw, written ``3/9`` or ``0+6/S`` (``S``: the ponte stood).

With q_j the ponte's probability of drawing in set j and r_i the banker's in set i, every expected
payoff is bilinear and separable (docs/design.md, "The mathematics the code respects"):

    E(q, r) = c0 + Σ_j a_j q_j + Σ_i b_i r_i + Σ_ij G_ji q_j r_i.

:func:`build_game` computes these coefficients exactly, as integers over the shoe's common
denominator, separately for the banker's wins and the ponte's wins, so that any commission α gives
the banker's net payoff ``(1 − α) win − loss`` and the ponte's ``loss − win`` without re-enumerating.

>>> g = build_game(Shoe.infinite(), information=1, freedom="parlor")
>>> g.ponte_sets, len(g.banker_sets), g.banker_sets[0]
((InfoSet(ponte 5),), 88, InfoSet(banker 0/0))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache

import numpy as np

from solver.cards import Shoe
from solver.chemin.paths import DetailKey, structure
from solver.deal.tree import detail_key, detail_parts, multiset_weights
from solver.deal.weights import denominator
from solver.errors import ModelError
from solver.exact.numbers import exact, numerators
from solver.rules.tableau import CHEMIN_CASINO, CHEMIN_PARLOR, Tableau
from solver.strategy import COMPOSITIONS, InfoSet, Strategy
from solver.strategy.words import Freedom, Information

INFORMATION = tuple(Information)
FREEDOMS = {Freedom.CASINO: CHEMIN_CASINO, Freedom.PARLOR: CHEMIN_PARLOR}
"""The seed's two sheets by freedom (a house's sheet is its own :class:`~solver.rules.tableau.Tableau`)."""
MAX_COMMISSION = Fraction(1, 10)


@dataclass(frozen=True)
class Model:
    """A chemin de fer model: the information model, the banker's freedom (casino, parlor, or a house's own
    sheet, ``house``: its free cells, the ponte free only at 5), and the commission α in [0, 1/10].

    The words may be given as they are written (``Model(3, "parlor")``); they are held typed.

    >>> Model(3, "parlor")
    Model(information=Information.BOTH_CARDS, freedom=Freedom.PARLOR, commission=Fraction(0, 1), house=None)
    """

    information: Information
    freedom: Freedom
    commission: Fraction = Fraction(0)
    house: Tableau | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "information", Information.parse(self.information))
        if self.house is not None:
            free = [t for t in self.house.free_player_totals() if t != 5]
            if free:
                raise ModelError(
                    f"tableau {self.house.name}: player total {free[0]}: 'free' is supported only at 5 (the ponte's one decision)"
                )
            if self.freedom not in (Freedom.HOUSE, self.house.name):
                raise ModelError("a house tableau's freedom is 'house' (or the sheet's name)")
            object.__setattr__(self, "freedom", Freedom.HOUSE)
        else:
            freedom = Freedom.parse(self.freedom, "freedom")
            if freedom is Freedom.HOUSE:
                raise ModelError("freedom 'house' needs the house's tableau")
            object.__setattr__(self, "freedom", freedom)
        alpha = exact(self.commission, "commission")
        if not 0 <= alpha <= MAX_COMMISSION:
            raise ModelError(f"the commission must lie in [0, 1/10], got {alpha}")
        object.__setattr__(self, "commission", alpha)

    @property
    def tableau(self) -> Tableau:
        return self.house if self.house is not None else FREEDOMS[self.freedom]

    @property
    def sheet(self) -> str:
        """The rule sheet as reports and JSON write it: ``casino``, ``parlor``, or the house sheet's name."""
        return self.house.name if self.house is not None else self.freedom.value

    def name(self, shoe: Shoe) -> str:
        """Ethier's name, e.g. ``B3`` (dealing B = finite shoe, A = infinite)."""
        return ("A" if shoe.is_infinite else "B") + str(int(self.information))

    def label(self, shoe: Shoe) -> str:
        """``B3 parlor``: Ethier's name and the sheet."""
        return f"{self.name(shoe)} {self.sheet}"


@dataclass(frozen=True, eq=False)
class Coefficients:
    """Integer coefficients of one bilinear payoff, over a common denominator.

    ``value(q, r) = (c0 + a·q + b·r + qᵀ G r) / denominator``; ``G`` has shape (ponte sets, banker sets).
    Arrays hold Python integers (object dtype), so products with strategy numerators stay exact.
    """

    c0: int
    a: np.ndarray
    b: np.ndarray
    G: np.ndarray
    denominator: int

    def combine(self, other: Coefficients, x: Fraction, y: Fraction) -> Coefficients:
        """``x·self + y·other``, kept integer by scaling the denominator."""
        scale = x.denominator * y.denominator
        xs, ys = int(x * scale), int(y * scale)
        return Coefficients(
            c0=xs * self.c0 + ys * other.c0,
            a=xs * self.a + ys * other.a,
            b=xs * self.b + ys * other.b,
            G=xs * self.G + ys * other.G,
            denominator=self.denominator * scale,
        )

    def value(self, q: list[Fraction], r: list[Fraction]) -> Fraction:
        """Exact expected payoff at behaviour strategies q (ponte) and r (banker), in integers: with
        q = Q / dq and r = R / dr, (c0 dq dr + (a·Q) dr + (b·R) dq + Qᵀ G R) / (denominator dq dr)."""
        qn, dq = numerators(q)
        rn, dr = numerators(r)
        qa, ra = np.array(qn, dtype=object), np.array(rn, dtype=object)
        total = self.c0 * dq * dr
        if len(q):
            total += int(self.a @ qa) * dr
        if len(r):
            total += int(self.b @ ra) * dq
        if len(q) and len(r):
            total += int(qa @ (self.G @ ra))
        return Fraction(total, self.denominator * dq * dr)


@dataclass(frozen=True, eq=False)
class Game:
    """Chemin de fer on one shoe under one model, in additive form.

    Attributes:
        shoe, model: what was built.
        ponte_sets, banker_sets: the information sets of the free decisions, in index order (the
            order of the strategy vectors q and r).
        win, loss: coefficients of P(banker wins) and P(ponte wins).
        inert_ponte, inert_banker: for each set, whether its choice cannot change any payoff (all its
            coefficients vanish in both the win and the loss forms; every unreachable set is inert).
    """

    shoe: Shoe
    model: Model
    ponte_sets: tuple[InfoSet, ...]
    banker_sets: tuple[InfoSet, ...]
    win: Coefficients
    loss: Coefficients
    inert_ponte: tuple[bool, ...]
    inert_banker: tuple[bool, ...]

    @cached_property
    def gross(self) -> Coefficients:
        """The banker's expected gross result, win − loss (the ponte's payoff is minus this)."""
        return self.win.combine(self.loss, Fraction(1), Fraction(-1))

    @cached_property
    def net(self) -> Coefficients:
        """The banker's expected result net of commission, (1 − α) win − loss."""
        return self.win.combine(self.loss, 1 - self.model.commission, Fraction(-1))

    @property
    def zero_sum(self) -> bool:
        return self.model.commission == 0

    @property
    def label(self) -> str:
        """``B3 parlor``."""
        return self.model.label(self.shoe)

    def strategy(self, q: Iterable[Fraction], r: Iterable[Fraction], name: str = "") -> Strategy:
        """The behaviour strategy that plays ``q`` in the ponte's sets and ``r`` in the banker's."""
        choices = dict(zip(self.ponte_sets, q))
        choices.update(zip(self.banker_sets, r))
        return Strategy(self.model.tableau, choices, name or f"{self.label}, commission {self.model.commission}")

    def vectors(self, strategy: Strategy) -> tuple[list[Fraction], list[Fraction]]:
        """``(q, r)``: a strategy read in this game's sets."""
        return strategy.vector(self.ponte_sets), strategy.vector(self.banker_sets)


def game_model(information: Information | int, freedom: Freedom | str | Tableau, commission: Fraction | int | str = 0) -> Model:
    """The model :func:`build_game` solves on every shoe (a house's tableau that is a named sheet is that sheet).

    Raises:
        ModelError: unknown information or freedom, or α outside [0, 1/10].
    """
    info, alpha = Information.parse(information), exact(commission, "commission")
    if isinstance(freedom, Tableau):
        seed = next((f for f, tab in FREEDOMS.items() if tab == freedom), None)
        return Model(info, seed, alpha) if seed is not None else Model(info, Freedom.HOUSE, alpha, freedom)
    return Model(info, Freedom.parse(freedom, "freedom"), alpha)


def build_game(
    shoe: Shoe, information: Information | int, freedom: Freedom | str | Tableau, commission: Fraction | int | str = 0
) -> Game:
    """Build chemin de fer on ``shoe`` under a model, exactly.

    Args:
        shoe: the shoe (finite: dealing B; infinite: dealing A).
        information: an :class:`~solver.strategy.words.Information` (or 1, 2, 3; see the module docstring).
        freedom: :attr:`~solver.strategy.words.Freedom.CASINO` (the rule sheet's tableau; or ``"casino"``),
            :attr:`~solver.strategy.words.Freedom.PARLOR` (every banker decision free), or a house's own
            :class:`~solver.rules.tableau.Tableau` (its free cells are the decisions).
        commission: α, the house's share of the banker's wins, in [0, 1/10].

    Raises:
        ModelError: unknown information or freedom, or α outside [0, 1/10].
    """
    model = game_model(information, freedom, commission)
    st = structure(model.tableau, model.information)
    win, loss, inert_ponte, inert_banker = _coefficients(shoe, model.tableau, model.information)
    return Game(
        shoe=shoe,
        model=model,
        ponte_sets=st.ponte_sets,
        banker_sets=st.banker_sets,
        win=win,
        loss=loss,
        inert_ponte=inert_ponte,
        inert_banker=inert_banker,
    )


@lru_cache(maxsize=8)
def _coefficients(
    shoe: Shoe, tab: Tableau, information: int
) -> tuple[Coefficients, Coefficients, tuple[bool, ...], tuple[bool, ...]]:
    """The win and loss coefficients and the inert sets, which do not depend on the commission (cached:
    the same shoe and model are often built at several commissions)."""
    st = structure(tab, information)
    sums = st.weights(shoe)
    m, n = len(st.ponte_sets), len(st.banker_sets)
    j, pdrew, i, bdrew, outcome = st.key_parts
    coeffs = {}
    zeros: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # the ponte's and the banker's sets with no coefficient
    for which, o in (("win", 1), ("loss", 2)):
        sel = (outcome == o) & (sums != 0)
        w, jj, ii, pd, bd = sums[sel], j[sel], i[sel], pdrew[sel], bdrew[sel]
        # ponte factor (alpha_p + beta_p q): draw q = (0, 1); stand 1 - q = (1, -1); fixed (1, 0); banker's alike.
        # Every partial sum is at most the shoe's denominator in size, so int64 weights stay exact.
        pf, bf = jj >= 0, ii >= 0
        ap, bp = np.where(pf & (pd == 1), 0, 1), np.where(pf, 2 * pd - 1, 0)
        ab, bbk = np.where(bf & (bd == 1), 0, 1), np.where(bf, 2 * bd - 1, 0)
        c0 = int((w * (ap * ab)).sum())
        a = np.zeros(m, dtype=w.dtype)
        b = np.zeros(n, dtype=w.dtype)
        G = np.zeros((m, n), dtype=w.dtype)
        np.add.at(a, jj[pf], (w * (bp * ab))[pf])
        np.add.at(b, ii[bf], (w * (ap * bbk))[bf])
        both = pf & bf
        np.add.at(G, (jj[both], ii[both]), (w * (bp * bbk))[both])
        zeros[which] = (a == 0) & ~(G != 0).any(axis=1), (b == 0) & ~(G != 0).any(axis=0)
        a, b, G = (v.astype(object) for v in (a, b, G))  # Python integers, from int64 or as they are
        coeffs[which] = Coefficients(
            c0=c0,
            a=a,
            b=b,
            G=G,
            denominator=denominator(shoe),
        )
    return (
        coeffs["win"],
        coeffs["loss"],
        tuple((zeros["win"][0] & zeros["loss"][0]).tolist()),
        tuple((zeros["win"][1] & zeros["loss"][1]).tolist()),
    )


def _finest_vectors(shoe: Shoe, strategy: Strategy) -> tuple[Game, list[Fraction], list[Fraction]]:
    """Check a strategy against chemin de fer's rules and read it in the finest model (information 3,
    parlor) on ``shoe``."""
    P, _ = strategy.tables()
    for a, b in COMPOSITIONS:
        total = (a + b) % 10
        if total < 8 and total != 5 and P[a, b] != (1 if total <= 4 else 0):
            raise ModelError(f"in chemin de fer the ponte must {'draw' if total <= 4 else 'stand'} on {total}")
    g = build_game(shoe, 3, "parlor")
    q, r = g.vectors(strategy)
    return g, q, r


def strategy_law(shoe: Shoe, strategy: Strategy) -> dict[str, Fraction]:
    """Exact law of one chemin de fer coup under any exact behaviour strategy.

    Chemin de fer's rules fix the ponte on 0–4 (draw) and 6–7 (stand), so a strategy may mix only at
    5 and in the banker's cells. The law is read off the finest model (information 3, parlor) built by
    :func:`build_game`, whose sets are the strategy's card-indexed draw tables.

    Returns:
        ``{"banker": P(banker wins), "ponte": P(ponte wins), "tie": P(tie)}``.

    Raises:
        ModelError: the strategy breaks those rules.
    """
    g, q, r = _finest_vectors(shoe, strategy)
    win, loss = g.win.value(q, r), g.loss.value(q, r)
    return {"banker": win, "ponte": loss, "tie": 1 - win - loss}


def strategy_detail(shoe: Shoe, strategy: Strategy) -> dict[tuple[int, int, int, int, int], Fraction]:
    """Exact law of a coup's detail under any exact behaviour strategy (see :func:`strategy_law`).

    Keys are ``(ponte total, banker total, ponte drew, banker drew, natural)``; the probabilities sum to 1.
    Each path of the finest model's deal tree is weighted by the probability of the free choices it
    makes (q or 1 − q for the ponte at 5, r or 1 − r for the banker), exactly.
    """
    _, q, r = _finest_vectors(shoe, strategy)
    st = structure(CHEMIN_PARLOR, 3)
    tree = st.tree
    n = len(st.banker_sets)
    detail = detail_key(
        tree.p_total.astype(np.int64),
        tree.b_total.astype(np.int64),
        (tree.p_third >= 0).astype(np.int64),
        (tree.b_third >= 0).astype(np.int64),
        tree.natural.astype(np.int64),
    )
    codec = DetailKey(n)
    key = codec.encode(st.ponte_index, st.banker_index, detail)
    grouping = tree.grouping("chemin-detail", lambda _t: key)
    sums = grouping.evaluate(multiset_weights(tree, shoe))
    qn, qd = numerators(q)
    rn, rd = numerators(r)
    acc: dict[int, int] = {}
    for k, w in zip(grouping.keys.tolist(), sums.tolist()):
        if not w:
            continue
        j, i, d = codec.decode(k)
        _, _, p_drew, b_drew, _ = detail_parts(d)
        pf = qd if j < 0 else (qn[j] if p_drew else qd - qn[j])
        rf = rd if i < 0 else (rn[i] if b_drew else rd - rn[i])
        acc[d] = acc.get(d, 0) + int(w) * pf * rf
    scale = denominator(shoe) * qd * rd
    return {detail_parts(d): Fraction(v, scale) for d, v in acc.items() if v}
