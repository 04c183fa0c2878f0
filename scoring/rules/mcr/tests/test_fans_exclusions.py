"""Hands that must not score a fan, and the "may not combine with" lists of rule 95.

Book: ``shared/seeds/003_2541481d343502a5.txt``. Rule 95 item c of each fan (lines 2417-2870) lists
the fans it may not combine with; rule 64a (line 2295, example at 4046) adds the fans a fan implies.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules.mcr.calculator import MCR_FANS
from scoring.rules.mcr.fan_table import BOOK_EXCLUSIONS, FAN_POINTS, IMPLIED_EXCLUSIONS, drop_excluded
from scoring.rules.mcr.tests.test_fans_support import fans

# (fan that must be absent, book line, (concealed, win, *melds), flags, why)
HAS_NOT: list[tuple[str, int, tuple[str, ...], dict[str, Any], str]] = [
    ("Big Four Winds", 2419, ("111z222z3z999m", "3z", "pung 444z"), {}, "a pair of the fourth wind"),
    ("Big Three Dragons", 2425, ("555z666z7z234m", "7z", "chow 567m"), {}, "a pair of the third dragon"),
    ("All Green", 2431, ("223344s666s55s66z", "6z"), {}, "5 bamboo is not green"),
    ("Nine Gates", 2437, ("2345678999p", "1p", "pung 111p"), {}, "the 1-pung was melded"),
    ("Four Kongs", 2443, ("234p7z", "7z", "kong 1111m", "kong 9999s", "ckong 5555p"), {}, "three kongs"),
    ("Seven Shifted Pairs", 2449, ("2233445566779s", "9s"), {}, "the pairs skip an 8"),
    ("All Terminals", 2461, ("111m999p1z", "1z", "pung 999s", "pung 777z"), {}, "honours present"),
    ("Little Four Winds", 2467, ("111z222z333z5m", "5m", "chow 789p"), {}, "the pair is not a wind"),
    ("All Honors", 2479, ("111z2z", "2z", "pung 333z", "pung 555z", "pung 999m"), {}, "a suited pung"),
    (
        "Four Concealed Pungs",
        2486,
        ("111m333p555s77m99p", "7m"),
        {},
        "the fourth pung was completed with a discard",
    ),
    ("Pure Terminal Chows", 2492, ("112233778899s5p", "5p"), {}, "the 5s are of another suit"),
    (
        "Four Shifted Chows",
        2510,
        ("789m5p", "5p", "chow 123m", "chow 234m", "chow 567m"),
        {},
        "uneven shifts",
    ),
    ("Three Kongs", 2516, ("234p7z", "7z", "kong 1111m", "pung 999s", "ckong 5555p"), {}, "two kongs"),
    ("All Terminals and Honors", 2522, ("123m999p1z", "1z", "pung 999s", "pung 777z"), {}, "a chow"),
    (
        "Seven Pairs",
        2528,
        ("234m456p678s222z8m", "8m"),
        {"self_drawn": True},
        "four sets and a pair, not seven pairs",
    ),
    ("All Even Pungs", 2540, ("222m444p6s", "6s", "pung 888s", "chow 678m"), {}, "a chow"),
    ("Full Flush", 2546, ("1234567899s", "9s", "pung 555z"), {}, "an honour pung"),
    (
        "Pure Triple Chow",
        2552,
        ("234p5z", "5z", "chow 234p", "chow 234s", "chow 789s"),
        {},
        "one of another suit",
    ),
    ("Pure Shifted Pungs", 2558, ("333444666s6m", "6m", "chow 789p"), {}, "a gap at 5"),
    ("Upper Tiles", 2564, ("777888m9p", "9p", "pung 999s", "chow 678s"), {}, "a 6"),
    ("Middle Tiles", 2570, ("456m456p4s", "4s", "pung 555s", "chow 345s"), {}, "a 3"),
    ("Lower Tiles", 2576, ("123m123p1s", "1s", "pung 222s", "pung 444m"), {}, "a 4"),
    ("Pure Straight", 2582, ("456789p5z", "5z", "chow 123m", "pung 888p"), {}, "two suits"),
    ("Three-Suited Terminal Chows", 2587, ("123789m123p5p", "5p", "chow 789p"), {}, "the 5s in a chow suit"),
    ("Pure Shifted Chows", 2593, ("234345567s9m", "9m", "pung 777z"), {}, "uneven shifts"),
    ("All Fives", 2598, ("345m555p5s", "5s", "chow 456p", "chow 678s"), {}, "678 has no 5"),
    ("Triple Pung", 2604, ("777m777p23s55z", "4s", "pung 888s"), {}, "an 8"),
    ("Three Concealed Pungs", 2609, ("222m444p66s22s", "6s", "chow 789m"), {}, "6s completed by discard"),
    (
        "Knitted Straight",
        2620,
        ("147m258p36s1234z5z", "7z"),
        {},
        "Lesser Honors with only 8 knitted tiles",
    ),
    ("Upper Four", 2626, ("678m666p9s", "9s", "chow 789p", "chow 567s"), {}, "a 5"),
    ("Lower Four", 2631, ("123m444p1s", "1s", "chow 234p", "chow 345s"), {}, "a 5"),
    ("Big Three Winds", 2636, ("111z222z5m", "5m", "chow 789p", "pung 555z"), {}, "two wind pungs"),
    ("Mixed Straight", 2641, ("123s456m789s7z", "7z", "chow 789m"), {}, "two suits only"),
    ("Reversible Tiles", 2646, ("234p456s888s9p", "9p", "pung 666z"), {}, "the green dragon"),
    ("Mixed Triple Chow", 2651, ("345m345p456s66p78s", "9s"), {}, "one chow differs"),
    ("Mixed Shifted Pungs", 2656, ("444m555p1z", "1z", "pung 777s", "chow 123m"), {}, "a gap"),
    ("Chicken Hand", 2661, ("23m55z", "1m", "chow 456p", "pung 777s", "chow 789m"), {}, "earns 1 point"),
    (
        "Melded Hand",
        2717,
        ("5z", "5z", "chow 123m", "chow 456p", "chow 789s", "pung 111z"),
        {"self_drawn": True},
        "self-drawn",
    ),
    ("Two Dragons", 2723, ("234m5p", "5p", "pung 555z", "pung 111z", "chow 789s"), {}, "one dragon pung"),
    ("Outside Hand", 2728, ("123m678p1z", "1z", "pung 999s", "chow 789s"), {}, "678 has no terminal"),
    ("Concealed Hand", 2765, ("234m456p678s222z8m", "8m"), {"self_drawn": True}, "self-drawn"),
    ("All Chows", 4079, ("123s456m789p7z", "7z", "chow 789m"), {}, "the pair is an honour"),
    ("Tile Hog", 2776, ("23m55z", "1m", "chow 345p", "kong 6666s", "chow 678m"), {}, "the four are a kong"),
    ("Double Pung", 2781, ("222m333p45s77z", "6s", "chow 789m"), {}, "different numbers"),
    ("Two Concealed Pungs", 2786, ("222m456s77z88p", "8p", "chow 789m"), {}, "8p completed by discard"),
    ("All Simples", 2796, ("234m456p45s88m", "6s", "chow 789p"), {}, "a 9"),
    ("Pure Double Chow", 2801, ("234m234p45s77z", "6s", "chow 789p"), {}, "two suits"),
    ("Short Straight", 2811, ("234m678m45s77z", "6s", "chow 789p"), {}, "not end to end"),
    (
        "Pung of Terminals or Honors",
        2821,
        ("23m55p", "1m", "chow 345p", "pung 666z", "chow 678s"),
        {},
        "dragon",
    ),
    ("One Voided Suit", 2832, ("23m55z", "1m", "chow 345p", "pung 666s", "chow 678m"), {}, "three suits"),
    ("No Honors", 2837, ("23m55z", "1m", "chow 345p", "pung 666p", "chow 678m"), {}, "an honour pair"),
    ("Edge Wait", 2842, ("23m55z", "1m", "chow 345p", "pung 666s", "chow 678m"), {}, "waiting on 1 or 4"),
    ("Single Wait", 2852, ("1234m", "1m", "chow 345p", "pung 666s", "chow 678m"), {}, "waiting on 1 or 4"),
    (
        "Closed Wait",
        2847,
        ("4446m", "5m", "chow 345p", "pung 666s", "chow 678m"),
        {},
        "waiting on 5 or 6",
    ),
]


CHICKEN = ("23m55z", "1m", "chow 345p", "pung 666s", "chow 678m")  # Chicken Hand, line 2659

HAS_NOT += [
    ("Thirteen Orphans", 2455, ("1199m1199p1199s1z", "1z"), {}, "seven pairs of terminals and East"),
    ("Quadruple Chow", 2498, ("3334445556789p", "9p"), {}, "three identical chows and another"),
    ("Four Pure Shifted Pungs", 2504, ("333444555777m7z", "7z"), {}, "a gap at 6"),
    (
        "Little Three Dragons",
        2473,
        ("234m5p", "5p", "pung 555z", "pung 666z", "chow 789s"),
        {},
        "suited pair",
    ),
    ("Greater Honors and Knitted Tiles", 2534, ("147m25p369s12356z", "7z"), {}, "six honours"),
    ("Lesser Honors and Knitted Tiles", 2614, ("147m25p36s123456z", "7z"), {}, "all seven honours"),
    ("Last Tile Draw", 2666, CHICKEN, {"last_wall_tile": True}, "the last tile was a discard"),
    ("Last Tile Claim", 2672, CHICKEN, {"last_wall_tile": True, "self_drawn": True}, "self-drawn"),
    (
        "Out with Replacement Tile",
        2677,
        ("23m55z", "1m", "chow 345p", "kong 6666s", "chow 678m"),
        {"self_drawn": True},
        "not on the replacement",
    ),
    ("Robbing the Kong", 2683, CHICKEN, {}, "not kong-related"),
    (
        "Two Concealed Kongs",
        2691,
        ("234m5z", "5z", "kong 2222p", "ckong 7777s", "chow 789m"),
        {},
        "one is melded",
    ),
    (
        "Two Melded Kongs",
        2739,
        ("23m55z", "1m", "ckong 3333p", "ckong 6666s", "chow 678m"),
        {},
        "both concealed",
    ),
    ("All Pungs", 2696, ("222m5z", "5z", "pung 444p", "pung 777s", "chow 678m"), {}, "a chow"),
    ("Half Flush", 2701, ("1234567899s", "9s", "pung 555s"), {}, "no honours: Full Flush"),
    ("Mixed Shifted Chows", 2706, ("234m456p678s222z8m", "8m"), {}, "shifted by two"),
    ("All Types", 2711, ("123m456p1z", "1z", "chow 789s", "pung 222z"), {}, "no dragon"),
    ("Fully Concealed Hand", 2733, CHICKEN, {"self_drawn": True}, "melded sets"),
    ("Last Tile", 2744, CHICKEN, {}, "not the last of its kind"),
    ("Dragon Pung", 2749, CHICKEN, {}, "a dragon pair, not a pung"),
    (
        "Prevalent Wind",
        2755,
        ("23m55p", "1m", "chow 345p", "pung 222z", "chow 678s"),
        {},
        "South in the East round",
    ),
    (
        "Seat Wind",
        2760,
        ("23m55p", "1m", "chow 345p", "pung 222z", "chow 678s"),
        {},
        "South for the East seat",
    ),
    ("Concealed Kong", 2791, ("234m45s77z", "6s", "kong 2222p", "chow 789m"), {}, "melded"),
    ("Mixed Double Chow", 2806, ("234m234m45s77z", "6s", "chow 789p"), {}, "the same suit"),
    (
        "Two Terminal Chows",
        2816,
        ("23m55z", "1m", "chow 456p", "pung 777s", "chow 789p"),
        {},
        "different suits",
    ),
    ("Melded Kong", 2827, ("23m55z", "1m", "ckong 3333p", "pung 666s", "chow 678m"), {}, "concealed"),
    ("Self-Drawn", 2857, CHICKEN, {}, "won by discard"),
    ("Flower Tiles", 2862, CHICKEN, {"flowers": 0}, "no flowers"),
]


@pytest.mark.parametrize(("fan", "line", "tiles", "flags", "why"), HAS_NOT, ids=[case[0] for case in HAS_NOT])
def test_it_does_not_score_a_fan_the_hand_does_not_have(
    fan: str, line: int, tiles: tuple[str, ...], flags: dict[str, Any], why: str
) -> None:
    """Rule 95 at the line cited: a near miss of the fan's definition does not score it."""
    assert fan not in fans(*tiles, **flags), why


@pytest.mark.parametrize(
    ("fan", "other"),
    sorted((fan, other) for fan, others in BOOK_EXCLUSIONS.items() for other in others),
)
def test_each_fan_drops_every_fan_the_book_says_it_may_not_combine_with(fan: str, other: str) -> None:
    """Rule 95 item c (e.g. Big Four Winds, line 2420): with both present, the second is dropped.

    Pure Triple Chow and Pure Shifted Pungs exclude each other (lines 2552, 2558): one reading never
    has both, as 222 333 444 read as chows is three 234s."""
    left = drop_excluded({fan, other})
    assert other not in left
    assert left == ({fan} if fan not in BOOK_EXCLUSIONS.get(other, ()) else set())


@pytest.mark.parametrize(
    ("fan", "other"),
    sorted((fan, other) for fan, others in IMPLIED_EXCLUSIONS.items() for other in others),
)
def test_each_fan_drops_the_fans_it_implies(fan: str, other: str) -> None:
    """Rule 64a (line 2295): an implied fan is not also scored; implied fans are worth less."""
    assert drop_excluded({fan, other}) == {fan}
    assert FAN_POINTS[other] < FAN_POINTS[fan] or other == "Seven Pairs"


def test_every_one_of_the_81_fans_has_a_near_miss() -> None:
    """Rule 95 (line 2415): each fan has a hand above that must not score it."""
    assert {name for name, _points in MCR_FANS} == {case[0] for case in HAS_NOT}


def test_it_drops_a_fan_implied_through_an_implied_fan() -> None:
    """Rule 64a: Nine Gates implies Full Flush (line 2439), which implies No Honors (line 2546)."""
    assert drop_excluded({"Nine Gates", "Full Flush", "No Honors", "Tile Hog"}) == {"Nine Gates", "Tile Hog"}


def test_it_keeps_fans_the_book_says_may_be_combined() -> None:
    """All Green may combine with Half Flush (line 2433); Seven Pairs with All Types and Tile Hog
    (line 2530); Lesser Honors and Knitted Tiles with Knitted Straight (line 2616); Little Four Winds
    with Seat and Prevalent Wind (line 2469); Pung of Terminals or Honors with them (line 2823)."""
    for together in (
        {"All Green", "Half Flush"},
        {"All Green", "Full Flush"},
        {"Seven Pairs", "All Types", "Tile Hog"},
        {"Lesser Honors and Knitted Tiles", "Knitted Straight"},
        {"Little Four Winds", "Seat Wind", "Prevalent Wind"},
        {"Pung of Terminals or Honors", "Seat Wind", "Prevalent Wind"},
        {"All Terminals", "Double Pung"},
        {"Knitted Straight", "All Chows"},
        {"All Honors", "Dragon Pung", "Prevalent Wind", "Seat Wind"},
    ):
        assert drop_excluded(together) == together


def test_it_scores_knitted_straight_without_edge_wait() -> None:
    """Knitted Straight may not combine with Edge Wait (line 2622): waiting only on 3s with 12s."""
    assert fans("147m258p369s12s55z", "3s") == {"Knitted Straight": 12, "Concealed Hand": 2}


def test_it_scores_a_wind_pung_of_seat_and_round_wind_with_pung_of_terminals_or_honors() -> None:
    """Pung of Terminals or Honors "may combine with Prevalent Wind or Seat Wind" (line 2823)."""
    assert fans("23m55p", "1m", "chow 345p", "pung 111z", "chow 678s") == {
        "Prevalent Wind": 2,
        "Seat Wind": 2,
        "Pung of Terminals or Honors": 1,
    }


def test_it_scores_seven_pairs_of_all_green_without_tile_hog() -> None:
    """All Green: "When combined with Seven Pairs, Tile Hog may not be added" (line 2433)."""
    assert fans("222233446688s6z", "6z") == {"All Green": 88, "Seven Pairs": 24, "Half Flush": 6}


def test_it_scores_seven_pairs_with_tile_hog_and_all_types() -> None:
    """Seven Pairs "may combine with All Types and Tile Hog" (line 2530)."""
    assert fans("1111m22p33s11z66z7z", "7z") == {"Seven Pairs": 24, "All Types": 6, "Tile Hog": 2}


def test_it_scores_thirteen_orphans_won_by_discard_without_concealed_hand_all_types_or_single_wait() -> None:
    """Thirteen Orphans, line 2457: "Points for All Types, Concealed Hand, or Single Wait may not be
    added" (the hand below waits only for the Red Dragon)."""
    assert fans("119m19p19s123456z", "7z") == {"Thirteen Orphans": 88}


def test_it_scores_four_concealed_pungs_won_by_discard_without_concealed_hand_or_all_pungs() -> None:
    """Four Concealed Pungs, line 2488: "May not combine with Concealed Hand or All Pungs"."""
    assert fans("222m444p666s888s5z", "5z") == {
        "Four Concealed Pungs": 64,
        "Single Wait": 1,
    }


def test_it_scores_big_four_winds_without_seat_wind_prevalent_wind_or_pungs_of_honors() -> None:
    """Big Four Winds, line 2421, in the seat and round whose winds it holds."""
    scored = fans("222333444z5m", "5m", "pung 111z", seat_wind="S", prevalent_wind="W")
    assert scored == {"Big Four Winds": 88, "Three Concealed Pungs": 16, "Half Flush": 6, "Single Wait": 1}
