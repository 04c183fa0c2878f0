"""The examples of the 1920s Chinese-published English rule book, with the scores it states.

``004`` is ``/work/shared/seeds/004_4971b519033fd75f.txt``. Its figures give each hand twice: "if on
table" (the scoring sets exposed) and "if in hand" (concealed). The pictures are lost; each hand is
rebuilt from the sets named, the rest being runs and a pair that score nothing, won on a discard that
fills a run open at both ends (so neither the 2 for drawing nor the 2 for the only place applies).
"""

from __future__ import annotations

import pytest

from scoring.rules.classical.tests.helpers import chow, hand, kong, pung, score, total

RULES = "chinese-1920s"


def chinese(data):
    return total(data, RULES)


def test_the_first_example_scores_18_on_table_and_24_in_hand_004_lines_206_to_215():
    # Printed "FIG. 14" but it comes before Figs. 12-16, so it is Fig. 11 (a misprint). Three ones of
    # circles, three twos of bamboo, a pair of Red Dragons; assumed runs 7-8-9 bamboo and 3-4-5
    # characters, the 5 discarded.
    assert chinese(hand("34m 77z", pung("1p"), pung("2s"), chow("789s"), win="5m")) == 18
    assert chinese(hand("111p 222s 34m 77z", chow("789s"), win="5m")) == 24


def test_the_first_example_adds_2_for_a_drawn_tile_and_2_for_the_only_place_004_line_217():
    assert chinese(hand("34m 77z", pung("1p"), pung("2s"), chow("789s"), win="5m", self_drawn=True)) == 20
    assert chinese(hand("35m 77z", pung("1p"), pung("2s"), chow("789s"), win="4m")) == 20


def test_fig_12_a_hand_with_no_points_scores_10_and_10_004_lines_219_to_225():
    result = score(hand("789s 23s 99p", chow("123m"), chow("456p"), win="4s"), RULES)
    assert result["items"] == ["For winning the hand 10", "For no score other than game 10"]
    assert result["total"] == 20


@pytest.mark.parametrize(("seat", "on_table", "in_hand"), [("E", 28, 36), ("W", 32, 40)])
def test_fig_13_one_suit_with_honours_doubles_once_and_west_adds_his_pair_004_lines_227_to_241(
    seat, on_table, in_hand
):
    # Three ones of circles with runs of circles (assumed 2-3-4, 5-6-7, 7-8-9) and a pair of West Winds.
    runs = (chow("234p"), chow("567p"))
    assert chinese(hand("78p 33z", pung("1p"), *runs, win="9p", seat_wind=seat)) == on_table
    assert chinese(hand("111p 78p 33z", *runs, win="9p", seat_wind=seat)) == in_hand


def test_fig_14_green_dragons_and_one_group_double_twice_to_64_or_80_004_lines_243_to_253():
    # Three Green Dragons, a pair of White Dragons, characters (assumed runs 1-2-3, 4-5-6, 7-8-9).
    runs = (chow("123m"), chow("456m"))
    assert chinese(hand("78m 55z", pung("6z"), *runs, win="9m")) == 64
    assert chinese(hand("666z 78m 55z", *runs, win="9m")) == 80


def test_fig_15_a_hand_purely_of_one_group_doubles_three_times_to_128_or_176_004_lines_255_to_271():
    # Three threes and three nines of bamboo, assumed runs 1-2-3 and 5-6-7 and a pair of eights.
    assert chinese(hand("56s 88s", pung("3s"), pung("9s"), chow("123s"), win="7s")) == 128
    assert chinese(hand("333s 999s 56s 88s", chow("123s"), win="7s")) == 176


def test_fig_16_reads_three_white_dragons_and_a_total_of_18_on_table_004_lines_273_to_284():
    # Misprints: "For 4 White Dragons 4 / 8" (line 278) scores three, as the doubling line 282 says
    # "3 White Dragons"; the on-table total "16" (line 281) is 4 + 4 + 10 = 18, which the doubled
    # figures 36, 72, 144 (lines 282-284) agree with. Assumed: runs of characters, a pair of North Winds.
    runs = (chow("123m"),)
    on_table = score(hand("78m 44z", pung("5z"), pung("6z"), *runs, win="9m", seat_wind="S"), RULES)
    assert (on_table["points"], on_table["doubles"], on_table["total"]) == (18, 3, 144)
    in_hand = score(hand("555z 666z 78m 44z", *runs, win="9m", seat_wind="S"), RULES)
    assert (in_hand["points"], in_hand["total"]) == (26, 208)


def test_fig_16_held_by_north_adds_2_for_his_pair_before_doubling_to_160_or_224_004_line_286():
    runs = (chow("123m"),)
    assert chinese(hand("78m 44z", pung("5z"), pung("6z"), *runs, win="9m", seat_wind="N")) == 160
    assert chinese(hand("555z 666z 78m 44z", *runs, win="9m", seat_wind="N")) == 224


def fig17(in_hand, seat="S", **options):
    # Four White Dragons, three Red, three Green, three East Winds; assumed pair: nines of characters.
    if in_hand:
        # All concealed: the book's count ignores how the hand was completed, so we say the last tile
        # (the second nine) earned no bonus.
        return hand(
            "777z 666z 111z 9m",
            kong("5z", concealed=True),
            win="9m",
            only_possible_place=False,
            seat_wind=seat,
            options=options,
        )
    # On table: the East Winds punged for the win (a two-pair wait with the nines).
    return hand("11z 99m", kong("5z"), pung("7z"), pung("6z"), win="1z", seat_wind=seat, options=options)


def test_fig_17_all_the_dragons_is_full_score_300_004_line_290():
    assert chinese(fig17(in_hand=False)) == 300
    assert chinese(fig17(in_hand=True)) == 300


def test_fig_17_unlimited_counts_48_or_76_doubled_four_times_004_lines_292_to_305():
    on_table = score(fig17(in_hand=False, limit=None), RULES)
    assert (on_table["points"], on_table["doubles"], on_table["total"]) == (48, 4, 768)
    in_hand = score(fig17(in_hand=True, limit=None), RULES)
    assert (in_hand["points"], in_hand["doubles"], in_hand["total"]) == (76, 4, 1216)


def test_fig_17_won_by_east_doubles_again_to_1536_or_2432_004_line_306():
    assert chinese(fig17(in_hand=False, seat="E", limit=None)) == 1536
    assert chinese(fig17(in_hand=True, seat="E", limit=None)) == 2432


def test_a_score_of_36_with_four_dragons_own_wind_and_one_suit_doubles_three_times_to_288_004_line_177():
    # Assumed: four Red Dragons exposed (16), three South Winds concealed held by South (8), three twos
    # of characters exposed (2), 6-7-8 characters (the 6 discarded) and a pair of nines: 10 + 16 + 8 + 2.
    data = hand("222z 78m 99m", kong("7z"), pung("2m"), win="6m", seat_wind="S")
    result = score(data, RULES)
    assert (result["points"], result["doubles"], result["total"]) == (36, 3, 288)


def test_one_suit_doubles_apply_to_winning_hands_only_004_line_170():
    losing = hand("555z 222z 2468s", pung("9s"), winner=False, seat_wind="S")
    result = score(losing, RULES)
    assert (result["points"], result["doubles"]) == (20, 2)  # White Dragons and own wind, no one suit


def test_own_wind_and_dragon_doubles_apply_to_all_hands_004_line_165():
    losing = hand("555z 111z 2468s", pung("9s"), winner=False, seat_wind="E")
    assert score(losing, RULES)["doubles"] == 2


def flowers_hand(seat, flowers):
    # A losing hand worth 2 points (an exposed pung of twos) and nothing else.
    return hand("258m 369p 147s 5z", pung("2m"), winner=False, seat_wind=seat, flower_tiles=flowers)


def test_east_with_spring_or_plum_doubles_once_and_with_both_twice_004_line_183():
    assert chinese(flowers_hand("E", ["s1"])) == (2 + 4) * 2
    assert chinese(flowers_hand("E", ["s1", "f1"])) == (2 + 8) * 4


def test_a_flower_not_the_players_own_scores_4_points_only_004_line_183():
    assert chinese(flowers_hand("E", ["s2"])) == 6
    assert chinese(flowers_hand("S", ["s2", "f2"])) == (2 + 8) * 4


def test_a_complete_set_of_four_doubles_twice_and_eight_four_times_004_line_183():
    # Our reading: the player's own flower inside a complete set gives no double of its own (as
    # Babcock line 1305 says for Seasons); the book does not say.
    assert chinese(flowers_hand("W", ["s1", "s2", "s3", "s4"])) == (2 + 16) * 4
    eight = ["s1", "s2", "s3", "s4", "f1", "f2", "f3", "f4"]
    assert score(flowers_hand("W", eight) | {"options": {"limit": None}}, RULES)["total"] == (2 + 32) * 16


def test_extra_scores_may_be_10_points_or_a_double_as_agreed_004_line_189():
    # No straight in hand or on table: Fig. 17 on table without the limit.
    data = fig17(in_hand=False, limit=None)
    assert score(data, RULES)["points"] == 48
    doubled = fig17(in_hand=False, limit=None, bonus_doubles=["no_runs"])
    result = score(doubled, RULES)
    assert (result["points"], result["doubles"], result["total"]) == (38, 5, 1216)


def test_the_basal_score_may_be_agreed_at_20_or_30_004_line_159():
    data = hand("34m 77z", pung("1p"), pung("2s"), chow("789s"), win="5m", options={"game_points": 30})
    assert chinese(data) == 38


def test_winning_on_the_chiefs_first_draw_is_full_points_and_on_his_first_discard_half_004_lines_174_to_175():
    heaven = hand("789s 23s 99p 123m 456p", win="4s", self_drawn=True, special_hand="heaven")
    assert chinese(heaven) == 300
    earth = hand("789s 23s 99p", chow("123m"), chow("456p"), win="4s", seat_wind="S", special_hand="earth")
    assert chinese(earth) == 150
    assert chinese(earth | {"options": {"earth_full_limit": True}}) == 300


def test_all_the_winds_in_sets_is_full_score_004_line_120():
    data = hand("11z 222z 333z 99m", pung("4z"), win="1z", seat_wind="S")
    assert chinese(data) == 300


def test_the_only_place_is_the_shape_of_the_filled_set_a_pair_a_middle_or_one_side_004_line_201():
    base = (pung("1p"), pung("2s"), chow("789s"))
    assert chinese(hand("345m 7z", *base, win="7z")) == 20  # forming a pair
    assert chinese(hand("12m 77z", *base, win="3m")) == 20  # one side
    assert chinese(hand("23m 77z", *base, win="4m")) == 18  # open at both ends


def test_the_doubling_table_misprints_44_doubled_six_times_as_2876_for_2816_004_line_317():
    # Every other entry of the table (lines 310-325) is the score times 2, 4, ... 64. A hand of 44
    # points (10 + concealed White and Green Dragons and own South Winds 24 + both own flowers 8 +
    # drawn 2) with six doubles (two Dragons, own Wind, one suit with honours, both own flowers).
    data = hand(
        "555z 66z 222z 123m 99m",
        win="6z",
        self_drawn=True,
        seat_wind="S",
        flower_tiles=["f2", "s2"],
        options={"limit": None},
    )
    result = score(data, RULES)
    assert (result["points"], result["doubles"], result["total"]) == (44, 6, 2816)
