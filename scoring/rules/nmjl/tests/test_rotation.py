"""Seat rotation and extra players: rules 78e, 115-120 and 129 of shared/seeds/003_2541481d343502a5.txt."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.errors import HandInputError
from scoring.rules.nmjl.rotation import schedule


def deals(games) -> Counter:
    return Counter(game.east for game in games)


def test_the_deal_passes_to_the_right_after_every_game_rule_78e():
    games = schedule(["A", "B", "C", "D"], 4)
    assert [game.east for game in games] == ["A", "B", "C", "D"]
    assert games[0].winds == {"E": "A", "S": "B", "W": "C", "N": "D"}
    assert games[1].winds == {"E": "B", "S": "C", "W": "D", "N": "A"}


def test_the_pivot_changes_seats_with_the_player_at_her_right_every_second_time_the_dice_come_rule_116():
    games = schedule(["A", "B", "C", "D"], 10)
    assert games[3].seats == ("A", "B", "C", "D")
    assert games[4].seats == ("B", "A", "C", "D")
    assert games[9].seats == ("B", "C", "A", "D")


def test_officially_the_dice_stay_with_the_seat_rule_117():
    games = schedule(["A", "B", "C", "D"], 6)
    assert [game.east for game in games] == ["A", "B", "C", "D", "B", "A"]


def test_with_the_dice_following_the_pivot_she_deals_first_after_moving_rule_117():
    games = schedule(["A", "B", "C", "D"], 6, dice_follow_pivot=True)
    assert [game.east for game in games] == ["A", "B", "C", "D", "A", "C"]


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
