"""Foster's *Proposed Laws to Govern Mah Jong* (1923), part 1, and the questions he put to the clubs.

``001`` is ``/work/shared/seeds/001_4486337f385f17e6.txt``. Part 1 has no table of counts (part 2, "the
Laws of Scoring", is only announced, line 259); the count here is the one question 14 (line 123) shows
in use, "20 and 4 is 24; and 4 is 28, and 4 is 32, and 3 doubles", with the dominating Wind of law 66,
and each of his questions 5-11 and 14 a table option.
"""

from __future__ import annotations

from scoring.rules.classical.settlement import settle
from scoring.rules.classical.tests.helpers import chow, hand, pung, score

RULES = "foster"


def foster(data):
    return score(data, RULES)


def question_14_hand(**options):
    # Three sets worth 4 each and three doubles: exposed Red Dragons, the player's own South Winds and
    # nines of bamboo; 2-3-4 bamboo on a discarded 4 (open at both ends) and a pair of fives: one suit
    # with honours. Played in the East round, so South does not dominate.
    return hand(
        "23s 55s",
        pung("7z"),
        pung("2z"),
        pung("9s"),
        win="4s",
        seat_wind="S",
        prevalent_wind="E",
        options=options,
    )


def test_question_14_counts_20_and_4_and_4_and_4_is_32_and_three_doubles_001_line_123():
    result = foster(question_14_hand())
    assert (result["points"], result["doubles"], result["total"]) == (32, 3, 256)


def test_question_14_reformed_count_is_5_6_7_8_doubled_three_times_16_32_64_001_line_123():
    result = foster(question_14_hand(reformed_count=True))
    assert result["items"][:4] == [
        "For winning the hand 5",
        "For three Red Dragons, exposed 1",
        "For three South Winds, exposed 1",
        "For three nines of bamboo, exposed 1",
    ]
    assert (result["points"], result["doubles"], result["total"]) == (8, 3, 64)


def test_the_reformed_count_makes_simples_worth_the_terminals_and_drops_the_2s_001_line_123():
    data = hand("22m 45p", pung("3m"), pung("1m"), chow("789s"), win="3p", self_drawn=True)
    standard = foster(data)
    assert standard["points"] == 20 + 2 + 4 + 2  # game, simples, terminals, drawn
    reformed = foster(data | {"options": {"reformed_count": True}})
    assert reformed["points"] == 5 + 1 + 1


def test_the_reformed_count_scores_a_pair_of_own_wind_only_when_it_dominates_001_line_123():
    data = hand("123p 456p 1z", chow("789s"), chow("234m"), win="1z", seat_wind="E", prevalent_wind="E")
    options = {"options": {"reformed_count": True}}
    pair_item = "For a pair of the player's own Wind, which dominates 1"
    assert pair_item in foster(data | options)["items"]
    assert pair_item not in foster(data | options | {"prevalent_wind": "S"})["items"]
    assert foster(hand("123p 456p 5z", chow("789s"), chow("234m"), win="5z") | options)["points"] == 5


def test_the_dominating_wind_is_more_valuable_its_three_double_the_score_001_line_247():
    data = hand("111z 45m 99p", chow("123p"), chow("678s"), win="6m", seat_wind="S", prevalent_wind="E")
    assert foster(data)["items"][-1] == "Doubled for three of the Wind of the Round"
    assert foster(data | {"prevalent_wind": "W"})["doubles"] == 0


def test_a_pair_of_the_dominating_wind_scores_and_of_own_dominating_wind_scores_twice_001_line_247():
    data = hand("123p 45m 11z", chow("789s"), chow("234m"), win="6m", seat_wind="S", prevalent_wind="E")
    assert foster(data)["points"] == 22
    assert foster(data | {"seat_wind": "E"})["points"] == 24


def test_filling_the_only_place_and_drawing_the_winning_piece_score_001_line_229():
    data = hand("123p 46m 99s", chow("789s"), chow("234m"), win="5m", self_drawn=True)
    assert foster(data)["points"] == 24


def test_a_kong_may_be_robbed_to_go_mah_jong_001_line_213():
    data = hand("123p 46m 99s", chow("789s"), chow("234m"), win="5m", kong_related=True)
    assert "For stealing the fourth to win 10" in foster(data)["items"]


def test_question_6_a_double_for_allcount_and_no_count_hands_instead_of_10_001_line_107():
    no_count = hand("123p 45m 99s", chow("789s"), chow("234m"), win="6m")
    assert foster(no_count)["total"] == 30
    assert foster(no_count | {"options": {"bonus_doubles": ["no_score", "no_runs"]}})["total"] == 40
    allcount = hand("222p 888m 99s 55s", pung("3s"), win="9s")
    assert foster(allcount)["points"] == 20 + 4 + 4 + 2 + 4 + 10
    doubled = foster(allcount | {"options": {"bonus_doubles": ["no_score", "no_runs"]}})
    assert (doubled["points"], doubled["doubles"]) == (34, 1)


def test_question_7_ten_points_for_all_sequences_001_line_109():
    sequences = hand("123p 45m 55z", chow("789s"), chow("234m"), win="6m")
    assert foster(sequences)["points"] == 22  # the pair of Dragons scores, so no bonus by default
    assert foster(sequences | {"options": {"all_sequences_bonus": True}})["points"] == 32


def test_question_5_cleared_hands_may_count_for_the_mah_jong_player_only_001_line_105():
    losing = hand("444p 6666p 237p", chow("123p"), winner=False)
    assert foster(losing)["total"] == 64
    assert foster(losing | {"options": {"one_suit_for_losers": False}})["total"] == 8


def seasons_hand(flowers, **options):
    return hand(
        "258m 369p 147s 5z",
        pung("2m"),
        winner=False,
        seat_wind="W",
        flower_tiles=flowers,
        options=options,
    )


def test_question_8_a_double_for_one_own_season_or_only_for_a_pair_001_line_111():
    assert foster(seasons_hand(["f3"]))["doubles"] == 1
    assert foster(seasons_hand(["f3"], own_flower="pair_only"))["doubles"] == 0
    assert foster(seasons_hand(["f3", "s3"], own_flower="pair_only"))["doubles"] == 1


def test_question_9_a_bouquet_doubles_three_times_or_once_or_twice_001_line_113():
    bouquet = ["f1", "f2", "f3", "f4"]
    assert foster(seasons_hand(bouquet))["doubles"] == 3
    assert foster(seasons_hand(bouquet, bouquet_doubles=1))["doubles"] == 1


def test_question_10_the_limit_may_be_500_001_line_115():
    assert foster(seasons_hand(["f1", "f2", "f3", "f4"], bouquet_doubles=3))["total"] == 144
    big = question_14_hand(limit=500) | {"prevalent_wind": "S"}
    assert foster(big)["total"] == 500
    assert foster(question_14_hand() | {"prevalent_wind": "S"})["total"] == 300


def test_east_wins_or_loses_double_and_losers_pay_the_differences_001_lines_229_and_239():
    # South wins 30: East pays 60, West and North 30; East pays West 2 x 10, North pays West 10.
    assert settle({"E": 0, "S": 30, "W": 10, "N": 0}, "S", "E", RULES) == {
        "E": -80,
        "S": 120,
        "W": 0,
        "N": -40,
    }


def test_question_11_a_limit_on_stakes_caps_what_east_pays_001_line_117():
    payments = settle({"E": 0, "S": 300, "W": 0, "N": 0}, "S", "E", RULES, options={"stakes_limit": 300})
    assert payments == {"E": -300, "S": 900, "W": -300, "N": -300}
