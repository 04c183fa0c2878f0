"""Every worked hand of Babcock's Red Book, 2nd ed. 1923, with the score the book states.

``002`` is ``/work/shared/seeds/002_3adabfdead2f09b5.txt`` (chapter 6 alone), ``000`` the whole book
``000_237ca3ff6aae24f4.txt``. The tile pictures are lost: each hand is rebuilt from the sets the text
names, and the comment says what the rest of the hand is assumed to be (always tiles that score
nothing, chosen so the winning tile does not fill the only possible place unless the book says so).
"""

from __future__ import annotations

from scoring.rules.classical.settlement import settle
from scoring.rules.classical.tests.helpers import chow, hand, kong, pung, score, total


def fig16(**fields):
    # Exposed three fours of dots; concealed three nines of bamboo; the footnote (000 line 1730) says the
    # pair of North Winds was completed by punging the North Wind. Assumed runs: 1-2-3 characters and
    # 5-6-7 dots, concealed.
    return hand("999s 123m 567p 4z", pung("4p"), win="4z", **fields)


def test_fig_16_scores_32_with_the_only_possible_place_002_lines_3_to_8():
    result = score(fig16(seat_wind="S"))
    assert result["items"] == [
        "For winning the hand 20",
        "For three fours of dots, exposed 2",
        "For three nines of bamboo, concealed 8",
        "For filling in the only possible place to win 2",
    ]
    assert (result["points"], result["doubles"], result["total"]) == (32, 0, 32)


def test_fig_16_held_by_north_adds_two_for_the_pair_of_own_wind_but_no_double_002_line_124():
    result = score(fig16(seat_wind="N"))
    assert (result["points"], result["doubles"], result["total"]) == (34, 0, 34)


def fig17(**fields):
    # Exposed three ones of dots and three West Winds; concealed three sevens of characters. The two of
    # characters is the single tile of the pair (so drawing it fills the only place); the fourth set is
    # assumed to be 4-5-6 bamboo, and for the plain 32 the hand was won on a 6 of bamboo discard (4-5
    # open at both ends).
    return pung("1p"), pung("3z")


def test_fig_17_scores_32_when_won_on_a_discard_002_lines_9_to_14():
    data = hand("777m 22m 45s", *fig17(), win="6s", seat_wind="S")
    assert (score(data)["points"], total(data)) == (32, 32)


def test_fig_17_drawing_the_two_of_characters_in_the_only_place_makes_36_002_line_15():
    data = hand("777m 2m 456s", *fig17(), win="2m", self_drawn=True, seat_wind="S")
    result = score(data)
    assert "For the winning tile drawn 2" in result["items"]
    assert "For filling in the only possible place to win 2" in result["items"]
    assert result["total"] == 36


def test_fig_17_held_by_west_doubles_to_64_or_72_when_the_two_is_drawn_002_line_16():
    # The score sheet (000 line 517) doubles three of the own Wind "concealed", but here the West Winds
    # are exposed and doubled, as are South's in Fig. 19 (line 37) and East's in Fig. 27 (000 line 831):
    # we follow the examples and double exposed sets of the own Wind too.
    assert total(hand("777m 22m 45s", *fig17(), win="6s", seat_wind="W")) == 64
    assert total(hand("777m 2m 456s", *fig17(), win="2m", self_drawn=True, seat_wind="W")) == 72


def fig18(seat):
    # Exposed four eights of dots; three Green Dragons completed by punging the third (so exposed);
    # concealed three East Winds and two White Dragons. Assumed fourth set: 2-3-4 bamboo, concealed.
    return hand("111z 55z 66z 234s", kong("8p"), win="6z", seat_wind=seat)


def test_fig_18_scores_42_doubled_for_the_green_dragons_to_84_002_lines_17_to_24():
    result = score(fig18("S"))
    assert (result["points"], result["doubles"], result["total"]) == (42, 1, 84)
    assert "For three Green Dragons, exposed 4" in result["items"]


def test_fig_18_held_by_east_doubles_again_to_168_and_east_receives_336_from_each_002_line_25():
    assert total(fig18("E")) == 168
    assert settle({"E": 168, "S": 0, "W": 0, "N": 0}, "E", "E", "babcock") == {
        "E": 1008,
        "S": -336,
        "W": -336,
        "N": -336,
    }


def fig19(seat, **options):
    # Exposed three sixes of characters and four South Winds; four Red Dragons concealed (declared); the
    # two of characters drawn as a loose tile completes the concealed three twos. Assumed pair: nines of
    # characters (the hand is one suit with honours).
    return hand(
        "22m 99m",
        pung("6m"),
        kong("2z"),
        kong("7z", concealed=True),
        win="2m",
        self_drawn=True,
        kong_related=True,
        seat_wind=seat,
        options=options,
    )


def test_fig_19_scores_94_doubled_twice_to_376_002_lines_26_to_36():
    # The book states 376 without the limit, which it brings in only for South's 752 (line 37); but 376
    # is over the usual 300 too, so with the limit this hand is paid 300 whoever holds it.
    assert score(fig19("N"))["total"] == 300
    result = score(fig19("N", limit=None))
    assert result["items"][:7] == [
        "For winning the hand 20",
        "For three sixes of characters, exposed 2",
        "For four South Winds, exposed 16",
        "For four Red Dragons, concealed 32",
        "For three twos of characters, concealed 4",
        "For winning on the loose tile after a set of fours 10",
        "For no runs, concealed or exposed 10",
    ]
    assert (result["points"], result["doubles"], result["total"]) == (94, 2, 376)


def test_fig_19_held_by_south_is_752_paid_as_the_300_limit_002_line_37():
    assert score(fig19("S", limit=None))["total"] == 752
    assert score(fig19("S"))["total"] == 300
    payments = settle({"E": 0, "S": 300, "W": 0, "N": 0}, "S", "E", "babcock")
    assert payments == {"E": -600, "S": 1200, "W": -300, "N": -300}


def test_fig_20_scores_only_the_three_sixes_and_doubles_three_times_to_192_002_lines_38_to_43():
    # All dots; four sixes and four fours, none declared. Assumed: exposed 4-5-6, concealed 6-6-6, 4-4,
    # 2-3-4 and 7-8-9, won on a 2 of dots discard (3-4 open at both ends). The three fours are split
    # between the pair and a run, so they do not score (002 line 43).
    result = score(hand("666p 44p 34p 789p", chow("456p"), win="2p"))
    assert (result["points"], result["doubles"], result["total"]) == (24, 3, 192)


def fig21(win, concealed, melds, drawn=False, **options):
    # Runs 5-6-7 characters and 7-8-9 bamboo, exposed (claimed); 2-3-4 dots concealed; the bamboo
    # 2-2-2-3-4 as a pair of twos and 2-3-4 (the pair is our reading: Babcock's Chinese chapter, 000
    # line 1063, needs a two of bamboo in hand to pair the winning two, and the 5 also completes).
    return hand(concealed, *melds, win=win, self_drawn=drawn, options=options)


MELDS_21 = {"567m": chow("567m"), "789s": chow("789s")}


def test_fig_21_won_on_the_five_of_characters_scores_30_for_no_score_other_than_game_002_lines_44_to_48():
    result = score(fig21("5m", "67m 234p 22234s", [MELDS_21["789s"]]))
    assert result["items"] == ["For winning the hand 20", "For no score other than game 10"]
    assert result["total"] == 30


def test_fig_21_the_seven_of_bamboo_fills_a_run_open_at_one_end_for_22_002_line_50():
    assert total(fig21("7s", "89s 234p 22234s", [MELDS_21["567m"]])) == 22


def test_fig_21_the_six_of_characters_fills_a_run_in_the_middle_for_22_002_line_51():
    assert total(fig21("6m", "57m 234p 22234s", [MELDS_21["789s"]])) == 22


def test_fig_21_the_two_of_dots_drawn_scores_22_002_line_52():
    melds = list(MELDS_21.values())
    assert total(fig21("2p", "34p 22234s", melds, drawn=True)) == 22


def test_fig_21_the_three_of_dots_drawn_in_the_middle_scores_24_002_line_53():
    melds = list(MELDS_21.values())
    assert total(fig21("3p", "24p 22234s", melds, drawn=True)) == 24


def test_fig_21_the_two_of_bamboo_drawn_is_not_the_only_place_as_the_five_also_wins_002_line_54():
    melds = list(MELDS_21.values())
    assert total(fig21("2s", "234p 2234s", melds, drawn=True)) == 22


def test_fig_21_no_score_option_drawn_only_is_doubled_to_44_000_lines_961_to_965():
    melds = list(MELDS_21.values())
    data = fig21("2p", "34p 22234s", melds, drawn=True, drawn_only_double=True)
    assert score(data)["total"] == 44


def test_the_no_score_bonus_may_be_taken_as_a_double_000_line_947():
    data = fig21("5m", "67m 234p 22234s", [MELDS_21["789s"]], bonus_doubles=["no_score"])
    assert (score(data)["points"], score(data)["total"]) == (20, 40)


def fig22(**fields):
    # Exposed four nines of dots, four ones of characters declared concealed; 3-4-5-6-7 characters wait
    # on the 2, 5 or 8. Assumed pair: fives of bamboo.
    return hand("34567m 55s", kong("9p"), kong("1m", concealed=True), **fields)


def test_fig_22_completed_on_a_discard_scores_68_002_lines_56_to_60():
    assert total(fig22(win="5m")) == 68


def test_fig_22_completed_by_drawing_scores_70_002_line_61():
    assert total(fig22(win="8m", self_drawn=True)) == 70


def test_fig_22_not_completed_scores_48_002_lines_62_to_65():
    assert total(fig22(winner=False)) == 48


def fig23(seat):
    # Exposed three nines of bamboo; concealed three White Dragons, three South Winds and (assumed)
    # 2, 4, 6, 8 of bamboo, not ready.
    return hand("555z 222z 2468s", pung("9s"), winner=False, seat_wind=seat)


def test_fig_23_a_losing_hand_scores_20_doubled_twice_to_80_002_lines_66_to_72():
    result = score(fig23("N"))
    assert (result["points"], result["doubles"], result["total"]) == (20, 2, 80)


def test_fig_23_held_by_south_doubles_again_to_160_002_line_73():
    assert total(fig23("S")) == 160


def test_fig_24_the_losing_hand_regroups_and_counts_the_three_fours_for_64_002_lines_74_to_80():
    # Assumed: exposed 1-2-3 dots; concealed 4-4-4, 6-6-6-6 (undeclared: scores as three), 2, 3, 7 of
    # dots; ready on the 5 or 8 of dots.
    result = score(hand("444p 6666p 237p", chow("123p"), winner=False))
    assert (result["points"], result["doubles"], result["total"]) == (8, 3, 64)


def fig25(win=None, **fields):
    # Exposed three fives of dots; concealed 1-2-3-4-4-4-5-6-7-8 of bamboo (our reading of "a long
    # sequence"), which waits on the 3, 5, 6, 8 or 9 of bamboo.
    return hand("1234445678s", pung("5p"), win=win, **fields)


def test_fig_25_won_with_the_three_six_or_nine_scores_22_002_lines_82_to_85():
    assert [total(fig25(tile)) for tile in ("3s", "6s", "9s")] == [22, 22, 22]


def test_fig_25_won_with_the_five_or_eight_keeps_the_concealed_fours_for_26_002_lines_86_to_90():
    assert [total(fig25(tile)) for tile in ("5s", "8s")] == [26, 26]


def test_fig_25_drawing_the_winning_tile_adds_two_002_line_91():
    assert [total(fig25(tile, self_drawn=True)) for tile in ("3s", "5s")] == [24, 28]


def test_fig_25_not_completed_scores_6_002_lines_92_to_95():
    assert total(fig25(winner=False)) == 6


def fig26(**options):
    # East's original fourteen: concealed three each of Green, Red and White Dragons and East Winds, and
    # (assumed) a pair of South Winds.
    return hand("666z 777z 555z 111z 2z", win="2z", self_drawn=True, special_hand="heaven", options=options)


def test_fig_26_without_a_limit_scores_63488_002_lines_98_to_120():
    result = score(fig26(limit=None))
    assert (result["points"], result["doubles"], result["total"]) == (62, 10, 63488)


def test_fig_26_east_receives_126976_from_each_player_380928_in_all_002_lines_121_to_122():
    payments = settle({"E": 63488, "S": 0, "W": 0, "N": 0}, "E", "E", "babcock")
    assert payments["S"] == payments["W"] == payments["N"] == -126976
    assert payments["E"] == 380928


def test_fig_26_with_the_usual_limit_the_hand_from_heaven_scores_300_000_line_528():
    assert score(fig26())["total"] == 300


def fig27(seat, **options):
    # Exposed three South and three North Winds; three East Winds completed by punging; a pair of West
    # Winds; assumed 2-3-4 dots.
    return hand("11z 33z 234p", pung("2z"), pung("4z"), win="1z", seat_wind=seat, options=options)


def test_fig_27_counts_128_by_the_standard_sheet_000_lines_824_to_832():
    assert [total(fig27(seat)) for seat in "ESN"] == [128, 128, 128]


def test_fig_27_scores_the_limit_as_a_four_wind_hand_when_agreed_000_line_834():
    assert total(fig27("E", limit_hands=["four_winds"])) == 300


def test_fig_27_held_by_west_is_no_four_wind_hand_000_line_824():
    # West has only a pair of his own Wind: 2 points, no double for it, one suit with honours.
    assert total(fig27("W", limit_hands=["four_winds"])) == 68


def test_fig_28_counts_64_and_the_limit_when_ones_nines_and_honours_are_agreed_000_lines_846_to_857():
    # Completed by punging the one of characters (a two-pair wait with the White Dragons); held by South.
    data = hand("999p 11m 55z", pung("1z"), kong("9s"), win="1m", seat_wind="S")
    assert total(data) == 64
    assert total(data | {"options": {"limit_hands": ["terminals_honours"]}}) == 300


def test_fig_29_the_nine_gates_counts_224_or_the_limit_when_agreed_000_lines_863_to_871():
    data = hand("1112345678999m", win="3m")
    assert (score(data)["points"], total(data)) == (28, 224)
    assert total(data | {"options": {"limit_hands": ["nine_gates"]}}) == 300


def test_fig_30_four_sets_of_fours_count_72_or_the_limit_when_agreed_000_lines_879_to_890():
    data = hand("9p", kong("2s"), kong("3p"), kong("1m"), kong("8m"), win="9p")
    assert total(data) == 72
    assert total(data | {"options": {"limit_hands": ["four_kongs"]}}) == 300


def test_fig_31_three_concealed_sets_count_38_doubled_to_76_when_agreed_000_lines_897_to_906():
    # Assumed pair: sevens of bamboo; the 4 of characters fills 3-_-5.
    data = hand("555s 111p 888m 35m 77s", win="4m")
    assert total(data) == 38
    assert total(data | {"options": {"three_concealed_pungs_double": True}}) == 76


def test_fig_32_four_concealed_sets_count_52_or_the_limit_when_agreed_000_lines_914_to_924():
    # Assumed pair: fives of dots; the third nine of characters drawn.
    data = hand("666m 444p 222s 99m 55p", win="9m", self_drawn=True)
    assert total(data) == 52
    assert total(data | {"options": {"limit_hands": ["four_concealed_pungs"]}}) == 300
    agreed = {"limit_hands": ["four_concealed_pungs"], "four_concealed_drawn_only": True}
    assert total(data | {"self_drawn": False, "options": agreed}) != 300  # line 926: must be drawn


def test_fig_33_the_thirteen_orphans_scores_the_limit_when_agreed_000_lines_932_to_936():
    data = hand("19m19p19s1234567z", win="7z", options={"limit_hands": ["thirteen_orphans"]})
    assert total(data) == 300


def test_fig_34_the_seven_twins_scores_half_the_limit_when_agreed_000_line_938():
    data = hand("1199m 3355p 7788s 1z", win="1z", options={"limit_hands": ["seven_twins"]})
    assert total(data) == 150


def fig39(seat):
    # Completed by a discarded 3 of characters (which must fill a run, or it would score); assumed runs
    # 1-2-3 and 7-8-9 exposed, 3-4-5 and 5-6-7 concealed; a pair of West Winds; the No. 2 Season of one
    # colour and the No. 4 of the other.
    return hand(
        "45m 567m 33z",
        chow("123m"),
        chow("789m"),
        win="3m",
        seat_wind=seat,
        flower_tiles=["f2", "s4"],
    )


def test_fig_39_held_by_south_scores_152_000_lines_1323_to_1331():
    result = score(fig39("S"))
    assert result["items"][:3] == [
        "For winning the hand 20",
        "For 2 Seasons, 4 each 8",
        "For no score other than game 10",
    ]
    assert (result["points"], result["doubles"], result["total"]) == (38, 2, 152)


def test_fig_39_held_by_north_scores_152_000_lines_1335_to_1343():
    assert total(fig39("N")) == 152


def test_fig_39_held_by_east_scores_76_000_lines_1345_to_1352():
    assert total(fig39("E")) == 76


def test_fig_39_held_by_west_scores_60_with_the_pair_of_own_wind_000_lines_1354_to_1361():
    result = score(fig39("W"))
    assert (result["points"], result["total"]) == (30, 60)


def test_fig_40_counts_68_doubled_five_times_to_2176_which_scores_the_limit_000_lines_1366_to_1380():
    # Held by West, the one of characters drawn; four Seasons of one colour and the other colour's No. 3.
    # Assumed pair: nines of bamboo.
    data = hand(
        "11m 99s",
        pung("5p"),
        pung("5z"),
        pung("2s"),
        win="1m",
        self_drawn=True,
        seat_wind="W",
        flower_tiles=["f1", "f2", "f3", "f4", "s3"],
    )
    assert total(data | {"options": {"limit": None}}) == 2176
    result = score(data)
    assert (result["points"], result["doubles"], result["total"]) == (68, 5, 300)


def test_fig_41_a_losing_hand_doubles_for_seasons_to_192_000_lines_1385_to_1394():
    # North, not ready: exposed three North Winds, concealed three East Winds and (assumed) seven odd
    # tiles; the No. 4 of each colour and (assumed) a No. 1.
    data = hand(
        "111z 258m 36p 9s 7z", pung("4z"), winner=False, seat_wind="N", flower_tiles=["f4", "s4", "f1"]
    )
    result = score(data)
    assert (result["points"], result["doubles"], result["total"]) == (24, 3, 192)


def test_the_shanghai_variation_doubles_only_for_both_own_seasons_000_line_1303():
    data = hand(
        "45m 567m 33z", chow("123m"), chow("789m"), win="3m", seat_wind="S", flower_tiles=["f2", "s4"]
    )
    assert total(data | {"options": {"own_flower": "pair_only"}}) == 76


def test_settlement_example_one_east_wins_288_000_lines_365_to_384():
    assert settle({"E": 48, "S": 16, "W": 4, "N": 0}, "E", "E", "babcock") == {
        "E": 288,
        "S": -68,
        "W": -104,
        "N": -116,
    }


def test_settlement_example_two_north_wins_and_west_gains_more_000_lines_386_to_406():
    assert settle({"N": 28, "W": 112, "E": 44, "S": 12}, "N", "E", "babcock") == {
        "N": 112,
        "W": 208,
        "E": -128,
        "S": -192,
    }


def test_paying_to_the_nearest_ten_counts_12_and_14_as_10_and_16_and_18_as_20_000_line_1204():
    options = {"round_to": 10}
    for difference, paid in ((12, 10), (14, 10), (16, 20), (18, 20)):
        result = settle({"E": 0, "S": 0, "W": difference, "N": 0}, "S", "N", "babcock", options=options)
        assert result["E"] == -paid


def test_in_the_chinese_game_the_round_wind_doubles_and_doubles_again_for_its_own_player_000_line_1031():
    data = hand("222z 45m 99p", chow("123p"), chow("678s"), win="6m", seat_wind="S", prevalent_wind="S")
    assert score(data)["doubles"] == 1
    chinese = data | {"options": {"chinese_game": True}}
    assert score(chinese)["doubles"] == 2
    assert score(chinese | {"seat_wind": "E"})["doubles"] == 1


def test_in_the_chinese_game_fig_21_scores_by_the_shape_of_the_filled_set_000_lines_1055_to_1063():
    melds = list(MELDS_21.values())
    chinese = {"chinese_game": True}
    assert total(fig21("5m", "67m 234p 22234s", [MELDS_21["789s"]], **chinese)) == 30
    assert total(fig21("7s", "89s 234p 22234s", [MELDS_21["567m"]], **chinese)) == 22
    assert total(fig21("6m", "57m 234p 22234s", [MELDS_21["789s"]], **chinese)) == 22
    assert total(fig21("2p", "34p 22234s", melds, drawn=True, **chinese)) == 22
    assert total(fig21("3p", "24p 22234s", melds, drawn=True, **chinese)) == 24
    # The two of bamboo drawn: 2 for drawing and 2 for the second to a pair, 24 (line 1063) ...
    assert total(fig21("2s", "234p 2234s", melds, drawn=True, **chinese)) == 24
    # ... but from the board the player should take it for the run and keep the bonus of 10: 30.
    assert total(fig21("2s", "234p 2234s", melds, **chinese)) == 30


def fig36(**fields):
    # Ready with 5-6-7-8-9 of characters; assumed exposed runs 2-3-4 dots and 6-7-8 bamboo, pair 9 dots.
    return hand("56789m 99p", chow("234p"), chow("678s"), win="7m", **fields)


def test_fig_36_in_the_chinese_game_the_player_chooses_the_run_that_scores_most_000_lines_1067_to_1075():
    chinese = {"options": {"chinese_game": True}}
    assert total(fig36(**chinese)) == 30
    assert total(fig36(self_drawn=True, **chinese)) == 24


def test_fig_36_by_the_standard_sheet_scores_30_or_22_as_there_is_more_than_one_way_out_000_line_1073():
    assert total(fig36()) == 30
    assert total(fig36(self_drawn=True)) == 22


def test_fig_37_the_second_to_a_pair_is_22_in_the_chinese_game_and_30_by_the_sheet_000_lines_1081_to_1083():
    # Ready with 1-2-3-4 of characters (the 1 or 4 completes it); assumed exposed runs 3-4-5 dots,
    # 6-7-8 and 2-3-4 bamboo.
    data = hand("1234m", chow("345p"), chow("678s"), chow("234s"), win="1m")
    assert total(data) == 30
    assert total(data | {"options": {"chinese_game": True}}) == 22


def test_in_the_chinese_game_one_suit_hands_double_only_when_completed_000_line_1089():
    losing = fig23("N") | {"options": {"chinese_game": True}}
    assert total(losing) == 40


def test_in_the_chinese_game_three_sets_of_dragons_score_the_limit_000_line_1101():
    data = hand("555z 666z 777z 45m 99p", win="6m")
    assert total(data | {"options": {"chinese_game": True}}) == 300


def test_winning_on_the_last_loose_tile_scores_both_bonuses_000_line_428():
    data = hand("23m 99s", kong("7p"), pung("1z"), chow("456s"), win="4m", self_drawn=True, kong_related=True)
    items = score(data | {"last_wall_tile": True})["items"]
    assert "For winning on the loose tile after a set of fours 10" in items
    assert "For winning on the last tile drawn 10" in items


def test_winning_on_the_discard_after_the_last_tile_earns_no_bonus_000_line_430():
    data = hand("23m 99s", pung("7p"), pung("1z"), chow("456s"), win="4m", last_wall_tile=True)
    assert not any("last tile" in item for item in score(data)["items"])
    assert any("last tile" in item for item in score(data | {"self_drawn": True})["items"])
