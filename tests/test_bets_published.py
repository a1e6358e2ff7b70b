"""The side-bet catalogue against published values, each compared at the precision its source printed.

Sources:
- [WoO-SB] Wizard of Odds, "Baccarat Side Bets" (wizardofodds.com/games/baccarat/side-bets/, formerly
  baccarat appendix 5): Dragon Bonus return tables at 8 decks (combinations of every line; the loss
  line and the total are printed to 15 significant digits, the rest as zeros) and house edges at 4,
  6 and 8 decks; the 4-5-6 bet's probabilities and returns at 6 and 8 decks.
- [WoO-L6] Wizard of Odds, "Lucky 6" (side-bets/lucky-6/): 8 decks, combinations, returns and the
  edges 11.70 % (12/23) and 16.68 % (12/20).
- [WoO-PP1] Wizard of Odds, "Perfect Pairs (Version 1)": 25 to 1, 8 decks 246,848,784 winning of
  7,379,583,120 (pairs of unordered two-card hands), edge 13.03 %; 6 decks 74,114,820 of
  2,323,673,820, edge 17.07 %; 26 to 1: 9.68 % (8 decks), 13.88 % (6 decks).
- [WoO-PP2] Wizard of Odds, "Perfect Pairs (Version 2)": 25 to 1 one, 250 to 1 both, 8 decks:
  2,101,008 and 244,747,776 of 7,379,583,120, edge 6.62 %, return -0.066235.
- [WoO-TM] Wizard of Odds, "Tie Max (formerly Lucky Max)": 8 decks, Low Tie 55 to 1 74,570,116,880,640
  combinations, return -0.164547; High Tie 10 to 1 401,057,309,592,576, return -0.117391.
- [J-BT] E. Jacobson, "Card Counting the Big Tiger Baccarat Side Bet" (advancedadvantageplay.com,
  2024): 8 decks, house edge 15.2533 %, standard deviation 6.519, hit 1.662 %, variance 42.503.
- [J-S6] E. Jacobson, "Card Counting the Super Six Baccarat Side Bet" (888casino blog / American
  Casino Guide): commission-free Banker paying 1 to 2 on a winning 6, house edge 1.4581 %; EZ
  Baccarat's 1.0183 %.
- [TW66] E. O. Thorp and W. E. Walden, "The fundamental theorem of card counting with applications to
  trente-et-quarante and baccarat", Int. J. Game Theory 2 (1973; circulated 1966): the Natural 8 and
  Natural 9 bets on a hand at 9 to 1, 8 decks, house edges 5.47 % and 5.10 %.
- [WoO-EP] the Either Pair bet at 5 to 1, 8 decks, house edge 13.71 % (as quoted in the issue from
  the Wizard of Odds' side-bet tables).
- [VF-BS] vegasfreedom.com, "What is Big and Small in baccarat?": Small (4 cards) at 3 to 2 and Big (5
  or 6 cards) at 0.54 to 1, house edges 5.27 % and 4.35 %; these are the 6-deck values.
- [WoO-PPL] Wizard of Odds, "Pair Play" (wizardofodds.com/games/blackjack/side-bets/pair-play): a pair in
  the first two cards at 11 to 1, "mathematically the same as the two pair bets in baccarat"; six decks
  3,588 winning of 48,516 two-card hands, return -0.112540; house edge by decks 1-6 and 8: 29.41 %,
  18.45 %, 14.84 %, 13.04 %, 11.97 %, 11.25 %, 10.36 %.
- [WoO-12D] Wizard of Odds, "Baccarat Odds for 1 to 12 Decks" (wizardofodds.com/games/baccarat/
  one-to-twelve-decks/): the Player, Banker and Tie combinations for 1 to 12 decks (exact up to 6
  decks; 15 significant digits from 7 on, "Excel displays only 15 significant digits").
- [WoO-A6] Wizard of Odds, "Commission Free Baccarat" (wizardofodds.com/games/baccarat/appendix/6/),
  Nepal Baccarat (a winning banker 6 pays 1 to 2; also called Super 6): eight decks 269,232,304,455,680
  banker wins with six points, return -0.014581; six decks 355,773,521,203,200 and 47,322,230,031,360 of
  878,869,206,895,680, return -0.014548, "a house edge of 1.45%". A banker win with six points is exactly a
  winning Lucky 6 (either pay), so these counts are also the Lucky 6's winning combinations at 6 and 8 decks.
- [WoO-EG] Wizard of Odds, "Egalite Bets in Baccarat" (side-bets/egalite/, read in the copy at
  daikenfudousan.com/games/baccarat/side-bets/egalite/): a tie on each total, winning combinations out of
  4,998,398,275,503,360 (eight decks) and returns at the pays 150/215/225/200/120/110/45/45/80/80 for 0-9.
- [WoO-N89] Wizard of Odds, "Banker Natural 8 and 9" (side-bets/natural-8-and-9/): eight decks, 9 to 1,
  472,508,456,071,680 and 474,361,430,409,216 winning combinations; [J-N89] E. Jacobson, "Card Counting the
  Natural 9 and Natural 8 Baccarat Side Bets" (888casino blog): house edges 5.097 % and 5.468 % at 9 to 1,
  14.588 % and 14.921 % at 8 to 1.
Our exact fractions are pinned beside the rounded figures where they refine them.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from solver.cards import Shoe
from solver.punto import PuntoResult, bets_from_names, catalogue, first_cards_law, punto_banco
from solver.report import decimal_str, percent_str


@cache
def priced(decks: int) -> PuntoResult:
    return punto_banco(Shoe.decks(decks), bets=catalogue())


def edge(name: str, decks: int = 8, digits: int = 2) -> str:
    return percent_str(priced(decks).bet(name).edge, digits)


def line_weights(name: str, decks: int = 8) -> dict[str, int]:
    r = priced(decks)
    return {t.label: int(t.probability * r.denominator) for t in r.bet(name).tiers}


def test_dragon_bonus_lines_woo_sb() -> None:
    # [WoO-SB], 8 decks: the combinations of every paying line, exactly
    player = line_weights("dragon_bonus_player")
    assert [player[f"win by {m}"] for m in (9, 8, 7, 6, 5, 4)] == [
        18_409_431_764_992,
        34_097_645_543_424,
        89_590_261_473_280,
        141_238_897_317_888,
        166_169_165_987_840,
        186_780_352_174_080,
    ]
    assert player["natural win"] == 812_685_054_124_032 and player["natural tie"] == 89_325_908_267_520
    # the loss line is printed as a spreadsheet keeps it: 15 significant digits, the rest zeros
    assert str(player["loss"])[:15] == str(3_460_101_558_850_300)[:15]
    banker = line_weights("dragon_bonus_banker")
    assert [banker[f"win by {m}"] for m in (9, 8, 7, 6, 5, 4)] == [
        15_390_342_909_952,
        28_305_092_784_128,
        79_517_099_278_336,
        119_200_072_366_080,
        157_275_882_332_160,
        201_147_167_287_296,
    ]
    assert str(banker["loss"])[:15] == str(3_495_551_656_153_850)[:15]
    assert decimal_str(priced(8).bet("dragon_bonus_player").ev, 6) == "-0.026517"
    assert decimal_str(priced(8).bet("dragon_bonus_banker").ev, 6) == "-0.093731"


@pytest.mark.parametrize(("decks", "player", "banker"), [(4, "2.70", "9.42"), (6, "2.67", "9.39"), (8, "2.65", "9.37")])
def test_dragon_bonus_edges_by_decks_woo_sb(decks: int, player: str, banker: str) -> None:
    assert edge("dragon_bonus_player", decks) == player  # [WoO-SB]
    assert edge("dragon_bonus_banker", decks) == banker
    assert edge("dragon_bonus_player", 8, 4) == "2.6517" and edge("dragon_bonus_banker", 8, 4) == "9.3731"


@pytest.mark.parametrize(
    ("decks", "probabilities"), [(6, ("0.378925", "0.303540", "0.317535")), (8, ("0.378868", "0.303444", "0.317687"))]
)
def test_four_five_six_woo_sb(decks: int, probabilities: tuple[str, str, str]) -> None:
    # [WoO-SB]: probabilities to 6 places. Its return column is pays x the *rounded* probability
    # (8 decks, 5 cards: 3 x 0.303444 - 1 = -0.089668; exactly it is -0.0896672...), so we pin the
    # probabilities and check the returns against the exact values at the digits that agree.
    r = priced(decks)
    for n, p in zip((4, 5, 6), probabilities):
        assert decimal_str(r.bet(f"cards_{n}").win, 6) == p
    assert decimal_str(r.bet("cards_4").ev, 5) == ("-0.05269" if decks == 6 else "-0.05283")
    assert r.bet("small").ev == r.bet("cards_4").ev
    assert r.bet("cards_4").win + r.bet("cards_5").win + r.bet("cards_6").win == 1


def test_big_and_small_six_decks_vf_bs() -> None:
    assert (edge("small", 6), edge("big", 6)) == ("5.27", "4.35")  # [VF-BS], 6 decks
    assert priced(6).bet("big").ev == Fraction(154, 100) * (1 - priced(6).bet("small").win) - 1


def test_lucky6_woo_l6() -> None:
    # [WoO-L6], 8 decks
    lines = line_weights("lucky6")
    assert lines["two-card winning banker 6"] == 186_173_936_904_192
    assert lines["three-card winning banker 6"] == 83_058_367_551_488
    assert lines["loss"] == 4_729_165_971_047_680
    assert (edge("lucky6"), edge("lucky6_macau")) == ("11.70", "16.68")
    assert decimal_str(priced(8).bet("lucky6").ev, 6) == "-0.116985"
    assert decimal_str(priced(8).bet("lucky6_macau").ev, 6) == "-0.166836"


@pytest.mark.parametrize(("decks", "wins"), [(6, 47_322_230_031_360), (8, 269_232_304_455_680)])
def test_lucky6_wins_by_decks_woo_a6(decks: int, wins: int) -> None:
    # [WoO-A6] "Banker win with 6" (six and eight decks): the two Lucky 6 lines together. At six decks this is
    # the only published Lucky 6 figure found; the split into two- and three-card sixes is not printed there.
    for name in ("lucky6", "lucky6_macau"):
        lines = line_weights(name, decks)
        assert lines["two-card winning banker 6"] + lines["three-card winning banker 6"] == wins
    assert priced(decks).bet("lucky6").win == Fraction(wins, priced(decks).denominator)


def test_big_tiger_j_bt() -> None:
    b = priced(8).bet("big_tiger")  # [J-BT], 8 decks
    assert percent_str(b.edge, 4) == "15.2533"
    assert b.sd_str(3) == "6.519" and decimal_str(b.variance, 3) == "42.503"
    assert percent_str(b.win, 3) == "1.662"
    assert b.edge == 1 - 51 * Fraction(83_058_367_551_488, 4_998_398_275_503_360)  # the lines of [WoO-L6]


def test_super6_and_ez_j_s6() -> None:
    assert edge("banker_super6", 8, 4) == "1.4581"  # [J-S6]
    assert edge("ez_banker", 8, 4) == "1.0183"


@pytest.mark.parametrize(
    ("name", "published"),
    [("natural8_player", "5.47"), ("natural8_banker", "5.47"), ("natural9_player", "5.10"), ("natural9_banker", "5.10")],
)
def test_naturals_tw66(name: str, published: str) -> None:
    assert edge(name) == published  # [TW66], 8 decks
    # Exact: the two-card total is a law of two cards; 8 decks, N = 416, 32 cards of each value 1-9, 128 of 0.
    n = 416 * 415
    eight = 2 * 128 * 32 + 6 * 32 * 32 + 2 * 32 * 31  # 0+8, 8+0, 1+7 ... 7+1 (but 4+4), 4+4, 9+9
    nine = 2 * 128 * 32 + 8 * 32 * 32
    p = Fraction(eight if "8" in name else nine, n)
    assert priced(8).bet(name).ev == 10 * p - 1


def test_tie_max_woo_tm() -> None:
    assert line_weights("tie_max_low")["low tie"] == 74_570_116_880_640  # [WoO-TM], 8 decks
    assert line_weights("tie_max_high")["high tie"] == 401_057_309_592_576
    assert decimal_str(priced(8).bet("tie_max_low").ev, 6) == "-0.164547"
    assert decimal_str(priced(8).bet("tie_max_high").ev, 6) == "-0.117391"


@pytest.mark.parametrize(
    ("decks", "wins", "hands", "edge25", "edge26"),
    [(8, 246_848_784, 7_379_583_120, "13.03", "9.68"), (6, 74_114_820, 2_323_673_820, "17.07", "13.88")],
)
def test_perfect_pairs_version_1_woo_pp1(decks: int, wins: int, hands: int, edge25: str, edge26: str) -> None:
    # [WoO-PP1] counts unordered two-card hands: 4 times fewer than our ordered four-card sequences.
    b = priced(decks).bet("perfect_pairs")
    assert b.win == Fraction(wins, hands)
    assert edge("perfect_pairs", decks) == edge25
    assert percent_str(1 - 27 * b.win, 2) == edge26  # the 26 to 1 pay table


def test_perfect_pairs_version_2_woo_pp2() -> None:
    lines = {t.label: t.probability for t in priced(8).bet("perfect_pairs_v2").tiers}  # [WoO-PP2], 8 decks
    assert lines["two perfect pairs"] == Fraction(2_101_008, 7_379_583_120)
    assert lines["player perfect pair"] + lines["banker perfect pair only"] == Fraction(244_747_776, 7_379_583_120)
    assert edge("perfect_pairs_v2") == "6.62" and decimal_str(priced(8).bet("perfect_pairs_v2").ev, 6) == "-0.066235"


def test_either_pair_woo_ep() -> None:
    assert edge("either_pair") == "13.71"  # [WoO-EP], 8 decks
    # Exact: P(either) = 2 P(pair) - P(both); P(pair) = (4d - 1)/(52d - 1).
    law = first_cards_law(Shoe.decks(8), suits=False)
    both = law.probability(lambda p, b: p & b & 1)
    assert priced(8).bet("either_pair").win == 2 * Fraction(31, 415) - both


def test_other_commissions_and_the_seed_tie() -> None:
    r = priced(8)
    for name, alpha in (("banker_4pct", Fraction(1, 25)), ("banker_2.5pct", Fraction(1, 40))):
        assert r.bet(name).ev == (1 - alpha) * r.banker - r.player
    assert r.bet("tie_1to1").ev == 2 * r.tie - 1
    assert edge("banker_4pct", 8, 4) == "0.5993" and edge("banker_2.5pct", 8, 4) == "-0.0886"


@pytest.mark.parametrize(
    ("decks", "published"), [(1, "29.41"), (2, "18.45"), (3, "14.84"), (4, "13.04"), (5, "11.97"), (6, "11.25"), (8, "10.36")]
)
def test_pair_bets_by_decks_woo_ppl(decks: int, published: str) -> None:
    # [WoO-PPL]: the 11 to 1 pair on a hand's first two cards, house edge by decks
    assert edge("player_pair", decks) == edge("banker_pair", decks) == published
    assert priced(decks).bet("player_pair").win == Fraction(4 * decks - 1, 52 * decks - 1)


def test_pair_bets_six_decks_lines_woo_ppl() -> None:
    b = priced(6).bet("player_pair")  # [WoO-PPL], six decks: 3,588 of 48,516 two-card hands
    assert b.win == Fraction(3_588, 48_516) and decimal_str(b.ev, 6) == "-0.112540"


# [WoO-12D]: (player, banker, tie, total) combinations, printed in full up to 6 decks
MAIN_COMBINATIONS = {
    1: (6_548_674_432, 6_737_232_640, 1_372_227_328, 14_658_134_400),
    2: (487_816_735_232, 501_543_728_128, 103_154_274_240, 1_092_514_737_600),
    3: (5_837_305_562_496, 6_000_349_195_008, 1_238_768_922_816, 13_076_423_680_320),
    4: (33_608_344_225_792, 34_543_624_867_840, 7_145_601_996_928, 75_297_571_090_560),
    5: (130_087_780_016_000, 133_700_037_548_800, 27_690_387_926_400, 291_478_205_491_200),
    6: (392_220_492_728_832, 403_095_751_234_560, 83_552_962_932_288, 878_869_206_895_680),
}


@pytest.mark.parametrize("decks", sorted(MAIN_COMBINATIONS))
def test_main_law_and_its_variants_by_decks_woo_12d(decks: int) -> None:
    """The commission and tie variants are functions of the Player/Banker/Tie law alone.

    [WoO-12D] prints that law for every deck count; it prints no edge for these variants at other deck
    counts than 8, so what is pinned here is the law each of them is priced from, at 1 to 6 decks.
    """
    player, banker, tie, total = MAIN_COMBINATIONS[decks]
    r = priced(decks)
    assert r.denominator == total and (r.player, r.banker, r.tie) == tuple(Fraction(c, total) for c in (player, banker, tie))
    for name, alpha in (("banker_4pct", Fraction(4, 100)), ("banker_2.5pct", Fraction(25, 1000))):
        assert r.bet(name).ev == Fraction((1 - alpha) * banker - player, total)
    assert r.bet("tie_9to1").ev == Fraction(10 * tie - total, total)
    assert r.bet("tie_1to1").ev == Fraction(2 * tie - total, total)


def test_main_law_eight_decks_woo_12d() -> None:
    r = priced(8)  # [WoO-12D], 8 decks: printed to 15 significant digits
    for p, printed in ((r.player, 2_230_518_282_592_250), (r.banker, 2_292_252_566_437_880), (r.tie, 475_627_426_473_216)):
        assert str(int(p * r.denominator))[:15] == str(printed)[:15]


def test_super6_six_and_eight_decks_woo_a6() -> None:
    six = priced(6).bet("banker_super6")  # [WoO-A6], six decks
    lines = {t.label: t.probability for t in six.tiers}
    assert lines["banker wins with a 6"] == Fraction(47_322_230_031_360, 878_869_206_895_680)
    assert lines["banker wins otherwise"] == Fraction(355_773_521_203_200, 878_869_206_895_680)
    assert decimal_str(six.ev, 6) == "-0.014548" and edge("banker_super6", 6) == "1.45"
    eight = priced(8).bet("banker_super6")  # eight decks
    assert {t.label: t.probability for t in eight.tiers}["banker wins with a 6"] == Fraction(
        269_232_304_455_680, 4_998_398_275_503_360
    )
    assert decimal_str(eight.ev, 6) == "-0.014581"


# [WoO-EG], eight decks: total -> (pays, winning combinations, return)
EGALITE = {
    9: (80, 55_146_054_060_032, "-0.106348"),
    8: (80, 54_879_416_675_072, "-0.110669"),
    7: (45, 101_717_538_899_968, "-0.063899"),
    6: (45, 96_170_001_308_416, "-0.114952"),
    5: (110, 39_684_046_743_808, "-0.118732"),
    4: (120, 36_294_133_463_040, "-0.121401"),
    3: (200, 22_250_510_129_408, "-0.105243"),
    2: (225, 20_006_606_104_576, "-0.095412"),
    1: (215, 20_499_217_668_352, "-0.114150"),
    0: (150, 28_979_901_420_544, "-0.124527"),
}


def test_tie_on_a_total_woo_eg() -> None:
    names = ",".join(f"tie_on_{t}:{pays}" for t, (pays, _, _) in EGALITE.items())
    r = punto_banco(Shoe.decks(8), bets=bets_from_names(names))
    assert r.denominator == 4_998_398_275_503_360
    for t, (pays, wins, ret) in EGALITE.items():
        b = r.bet(f"tie_on_{t}:{pays}")
        assert b.win == Fraction(wins, r.denominator) and decimal_str(b.ev, 6) == ret
    assert sum(wins for _, wins, _ in EGALITE.values()) == 475_627_426_473_216  # the ties of [WoO-12D]


def test_naturals_woo_n89_and_j_n89() -> None:
    r = priced(8)  # [WoO-N89] combinations, [J-N89] edges to 3 decimals, 8 decks
    for name, wins, edge9, edge8 in (
        ("natural8_banker", 472_508_456_071_680, "5.468", "14.921"),
        ("natural9_banker", 474_361_430_409_216, "5.097", "14.588"),
    ):
        b = r.bet(name)
        assert b.win == Fraction(wins, r.denominator) == r.bet(name.replace("banker", "player")).win
        assert percent_str(b.edge, 3) == edge9 and percent_str(1 - 9 * b.win, 3) == edge8
