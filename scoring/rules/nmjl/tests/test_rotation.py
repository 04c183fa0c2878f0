"""Seat rotation and extra players: rules 78e, 115-120 and 129 of shared/seeds/003_2541481d343502a5.txt."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.errors import HandInputError
from scoring.rules.nmjl.rotation import deal_for_hand, pivot_rotation, schedule, winds_for_hand


def deals(games) -> Counter:
    return Counter(game.east for game in games)


def test_the_deal_passes_to_the_right_after_every_game_rule_78e():
    games = schedule(["A", "B", "C", "D"], 4)
    assert [game.east for game in games] == ["A", "B", "C", "D"]
    assert games[0].winds == {"E": "A", "S": "B", "W": "C", "N": "D"}
    assert games[1].winds == {"E": "B", "S": "C", "W": "D", "N": "A"}


def test_the_pivot_changes_seats_with_the_player_at_her_right_every_second_time_the_dice_come_rule_116():
    # Rule 116 (line 978): the dice start with her (game 1) and *come to* her at games 5, 9, 13 ...;
    # the second time (game 9) she moves to the seat at her right, the fourth time (game 14) again.
    games = schedule(["A", "B", "C", "D"], 14)
    assert games[7].seats == ("A", "B", "C", "D")
    assert games[8].seats == ("B", "A", "C", "D")
    assert games[13].seats == ("B", "C", "A", "D")


def test_officially_the_dice_stay_with_the_seat_rule_117():
    # Rule 117 (line 979): the player now in the pivot's old seat deals game 9.
    games = schedule(["A", "B", "C", "D"], 10)
    assert [game.east for game in games] == ["A", "B", "C", "D", "A", "B", "C", "D", "B", "A"]


def test_with_the_dice_following_the_pivot_she_deals_first_after_moving_rule_117():
    # Rule 117 (lines 980-981): "the pivot ... always be the first to deal after a seat rotation".
    games = schedule(["A", "B", "C", "D"], 10, dice_follow_pivot=True)
    assert [game.east for game in games] == ["A", "B", "C", "D", "A", "B", "C", "D", "A", "C"]


def test_rule_116_lines_978_to_981_hand_by_hand():
    # The pivot (starting East) keeps her seat for hands 0-7 and sits South from hand 8; the seat winds
    # are a permutation with the dealer East.
    deals = pivot_rotation(17)
    assert all(deal.seats["E"] == "E" for deal in deals[:8])
    assert deals[8].seats == {"E": "S", "S": "E", "W": "W", "N": "N"}
    assert deals[8].dealer == "S" and deals[9].dealer == "E"
    followed = pivot_rotation(17, dice_follow_pivot=True)
    assert [followed[k].dealer for k in (0, 8, 16)] == ["E", "E", "E"]
    assert followed[16].seats["E"] == "W"
    for deal in deals + followed:
        assert sorted(deal.winds.values()) == ["E", "N", "S", "W"]
        assert deal.winds[deal.dealer] == "E"
    assert deal_for_hand(8).seats == deals[8].seats
    assert winds_for_hand(9, dice_follow_pivot=True) == followed[9].winds


@pytest.mark.parametrize("bad", [-1, 10_001, True, "3"])
def test_a_hand_number_out_of_range_is_refused(bad):
    with pytest.raises(HandInputError):
        deal_for_hand(bad)


@pytest.mark.parametrize("rounds", [6, 12, 24])
def test_dice_following_the_pivot_give_everyone_the_same_number_of_deals_and_the_official_rule_does_not_rule_117(
    rounds,
):
    assert set(deals(schedule(["A", "B", "C", "D"], 4 * rounds, dice_follow_pivot=True)).values()) == {rounds}
    official = deals(schedule(["A", "B", "C", "D"], 4 * rounds))
    assert official["A"] < rounds


def test_a_fifth_player_takes_the_seat_of_each_games_dealer_rules_118_to_120():
    games = schedule(["A", "B", "C", "D", "E"], 3)
    assert [(game.seats, game.east, game.sitting_out) for game in games] == [
        (("A", "B", "C", "D"), "A", ("E",)),
        (("E", "B", "C", "D"), "B", ("A",)),
        (("E", "A", "C", "D"), "C", ("B",)),
    ]


def test_two_extra_players_rotate_back_in_the_order_they_rotated_out_rule_129():
    games = schedule(["A", "B", "C", "D", "E", "F"], 4)
    assert [game.sitting_out for game in games] == [("E", "F"), ("F", "A"), ("A", "B"), ("B", "C")]


@given(st.integers(5, 6), st.integers(1, 60))
def test_with_extra_players_nobody_waits_longer_than_the_queue_rules_120_and_129(count, games):
    players = [f"p{i}" for i in range(count)]
    played = schedule(players, games)
    for player in players:
        run = longest = 0
        for game in played:
            run = run + 1 if player in game.sitting_out else 0
            longest = max(longest, run)
        assert longest <= count - 4
    for game in played:
        assert len(set(game.seats) | set(game.sitting_out)) == count


@pytest.mark.parametrize(
    "players", [["A", "B", "C"], ["A", "B", "C", "D", "E", "F", "G"], ["A", "A", "B", "C"]]
)
def test_a_table_needs_four_to_six_different_players_rules_118_129(players):
    with pytest.raises(HandInputError):
        schedule(players, 4)
