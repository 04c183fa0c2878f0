"""Seat rotation: MCR rules 74-75 and NMJL rules 116-117 (rule book 003_2541481d343502a5.txt)."""

from __future__ import annotations

from collections import Counter

import pytest

from tournaments.seating import SeatingError, mcr_hand, mcr_winds_for_hand, nmjl_hand, nmjl_winds_for_hand
from tournaments.seating.rotation import mcr_seats_for_round


def test_mcr_rule_75d_gives_each_original_seat_its_four_seats_line_2347():
    rounds = [mcr_seats_for_round(q) for q in range(4)]
    assert [r["E"] for r in rounds] == ["E", "S", "N", "W"]
    assert [r["S"] for r in rounds] == ["S", "E", "W", "N"]
    assert [r["W"] for r in rounds] == ["W", "N", "E", "S"]
    assert [r["N"] for r in rounds] == ["N", "W", "S", "E"]


def test_mcr_rule_75a_swaps_east_with_south_and_north_with_west_for_the_south_round_line_2341():
    east, south = mcr_seats_for_round(0), mcr_seats_for_round(1)
    by_seat = {seat: start for start, seat in east.items()}
    assert south[by_seat["E"]] == "S" and south[by_seat["S"]] == "E"
    assert south[by_seat["N"]] == "W" and south[by_seat["W"]] == "N"


def test_mcr_rule_75b_moves_east_and_south_across_and_north_to_east_for_the_west_round_line_2342():
    south, west = mcr_seats_for_round(1), mcr_seats_for_round(2)
    by_seat = {seat: start for start, seat in south.items()}
    assert west[by_seat["E"]] == "W" and west[by_seat["S"]] == "N"
    assert west[by_seat["N"]] == "E" and west[by_seat["W"]] == "S"


def test_mcr_rule_75c_swaps_again_for_the_north_round_line_2344():
    west, north = mcr_seats_for_round(2), mcr_seats_for_round(3)
    by_seat = {seat: start for start, seat in west.items()}
    assert north[by_seat["E"]] == "S" and north[by_seat["S"]] == "E"
    assert north[by_seat["N"]] == "W" and north[by_seat["W"]] == "N"


def test_mcr_first_hand_has_every_player_on_their_starting_wind_rule_74b():
    assert mcr_winds_for_hand(0) == {"E": "E", "S": "S", "W": "W", "N": "N"}


def test_mcr_deal_passes_to_the_right_every_hand_rule_74b():
    assert [mcr_hand(k).seats[mcr_hand(k).dealer] for k in range(4)] == ["E", "S", "W", "N"]
    assert mcr_winds_for_hand(1) == {"E": "N", "S": "E", "W": "S", "N": "W"}


def test_mcr_first_dealer_of_each_round_sits_in_the_east_seat_rule_74b():
    for quan in range(4):
        hand = mcr_hand(4 * quan)
        assert hand.seats[hand.dealer] == "E"


def test_mcr_every_player_deals_four_times_and_holds_each_wind_four_times_in_a_game_rule_74c():
    dealers = Counter(mcr_hand(k).dealer for k in range(16))
    assert dealers == {"E": 4, "S": 4, "W": 4, "N": 4}
    for start in "ESWN":
        assert Counter(mcr_winds_for_hand(k)[start] for k in range(16)) == {"E": 4, "S": 4, "W": 4, "N": 4}


def test_mcr_winds_are_a_permutation_in_every_hand():
    for k in range(16):
        assert sorted(mcr_winds_for_hand(k).values()) == ["E", "N", "S", "W"]


def test_mcr_rejects_a_hand_outside_the_session_with_a_code():
    with pytest.raises(SeatingError) as error:
        mcr_winds_for_hand(12, hands_per_session=12)
    assert error.value.code == "invalid_hand_index"
    with pytest.raises(SeatingError) as error:
        mcr_winds_for_hand(0, hands_per_session=17)
    assert error.value.code == "invalid_hands"


def test_nmjl_pivot_stays_put_until_the_dice_come_to_her_the_second_time_rule_116_line_978():
    assert all(nmjl_hand(k).seats["E"] == "E" for k in range(8))
    assert nmjl_hand(8).seats["E"] == "S"


def test_nmjl_pivot_exchanges_seats_with_the_player_at_her_right_rule_116():
    before, after = nmjl_hand(7).seats, nmjl_hand(8).seats
    assert after["E"] == "S" and after["S"] == "E"
    assert after["W"] == before["W"] and after["N"] == before["N"]


def test_nmjl_official_rule_keeps_the_dice_with_the_seat_rule_117_line_979():
    hand = nmjl_hand(8)
    assert hand.seats[hand.dealer] == "E" and hand.dealer == "S"
    assert nmjl_hand(9).dealer == "E"


def test_nmjl_dice_following_the_pivot_lets_her_deal_first_after_each_rotation_rule_117():
    for k in (8, 16):
        assert nmjl_hand(k, dice_follow_pivot=True).dealer == "E"
    assert nmjl_hand(8, dice_follow_pivot=True).seats["E"] == "S"
    assert nmjl_hand(16, dice_follow_pivot=True).seats["E"] == "W"


def test_nmjl_dice_following_the_pivot_gives_everyone_equal_deals_rule_117():
    deals = Counter(nmjl_hand(k, dice_follow_pivot=True).dealer for k in range(32))
    assert deals == {"E": 8, "S": 8, "W": 8, "N": 8}


def test_nmjl_dealer_has_the_east_wind_and_winds_are_a_permutation():
    for k in range(24):
        for follow in (False, True):
            hand = nmjl_hand(k, dice_follow_pivot=follow)
            assert hand.winds[hand.dealer] == "E"
            assert sorted(nmjl_winds_for_hand(k, dice_follow_pivot=follow).values()) == ["E", "N", "S", "W"]
