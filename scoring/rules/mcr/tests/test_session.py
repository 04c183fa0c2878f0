"""MCR session scoring, checked against Sloper's book (seeds/003_2541481d343502a5.txt)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.errors import HandInputError
from scoring.rules.mcr.session import (
    SEAT_BY_ROUND,
    SEATS,
    HandOutcome,
    SessionInput,
    late_penalty,
    score_session,
    settle_hand,
    table_points,
    winds_for_hand,
)
from scoring.rules.ruleset import PenaltyItem, penalty_effect


def test_the_discarder_pays_basic_plus_eight_and_the_others_eight():
    # Rule 67a/b (line ~2316): won by discard.
    assert settle_hand(HandOutcome(winner="E", discarder="W", fan=12)) == {
        "E": 36,
        "S": -8,
        "W": -20,
        "N": -8,
    }


def test_on_self_draw_everyone_pays_basic_plus_eight():
    # Rule 67c: won by self-pick.
    assert settle_hand(HandOutcome(winner="S", discarder=None, fan=8)) == {
        "E": -16,
        "S": 48,
        "W": -16,
        "N": -16,
    }


def test_a_drawn_hand_scores_nothing():
    # Rule 59 (line ~2270): nobody wins, each player scores 0.
    assert settle_hand(HandOutcome(winner=None)) == dict.fromkeys(SEATS, 0)


def test_it_refuses_a_hand_below_eight_fan():
    # Rule 24 (line ~2206): the hand must be worth at least 8 points, flowers excluded.
    with pytest.raises(HandInputError) as error:
        settle_hand(HandOutcome(winner="E", discarder="S", fan=7))
    assert error.value.code == "below_minimum"


def test_it_refuses_a_winner_who_is_also_the_discarder():
    with pytest.raises(HandInputError) as error:
        settle_hand(HandOutcome(winner="N", discarder="N", fan=8))
    assert error.value.code == "winner_is_discarder"


outcomes = st.one_of(
    st.just(HandOutcome(winner=None)),
    st.builds(
        HandOutcome,
        winner=st.sampled_from(SEATS),
        discarder=st.one_of(st.none(), st.sampled_from(SEATS)),
        fan=st.integers(min_value=8, max_value=400),
    ).filter(lambda o: o.winner != o.discarder),
)


@given(outcomes)
def test_every_hand_is_zero_sum(outcome):
    assert sum(settle_hand(outcome).values()) == 0


def test_tied_high_scorers_share_four_and_two():
    # Rule 71f (line ~2331): tied high scorers both earn 3 (3-3-1-0).
    points = table_points({"E": 50, "S": 50, "W": -20, "N": -80})
    assert points == {"E": 3, "S": 3, "W": 1, "N": 0}


def test_a_tie_in_the_middle_splits_two_and_one():
    points = table_points({"E": 50, "S": 0, "W": 0, "N": -50})
    assert points == {"E": 4, "S": Fraction(3, 2), "W": Fraction(3, 2), "N": 0}


def test_plain_places_earn_four_two_one_zero():
    # Rule 71a-d (line ~2325).
    assert table_points({"E": -5, "S": 30, "W": 10, "N": -35}) == {"E": 1, "S": 4, "W": 2, "N": 0}


@given(st.lists(st.integers(min_value=-300, max_value=300), min_size=4, max_size=4))
def test_a_sessions_table_points_total_seven(values):
    scores = dict(zip(SEATS, values, strict=True))
    points = table_points(scores)
    assert sum(points.values()) == 7
    # A higher score never earns fewer table points.
    for a in SEATS:
        for b in SEATS:
            if scores[a] > scores[b]:
                assert points[a] > points[b]


def test_late_arrival_costs_ten_then_twenty_then_the_session():
    # Rule 88 (line ~2451): <=10 min 10 points; <=15 min 20 points; more: forfeit.
    assert late_penalty(7) == 10
    assert late_penalty(10) == 10
    assert late_penalty(11) == 20
    assert late_penalty(15) == 20
    assert late_penalty(16) is None


def test_a_forfeiting_player_earns_no_table_points():
    # Rule 88c: forfeits the game, earning 0 table points, even with the best score.
    result = score_session(
        SessionInput(totals={"E": 40, "S": 10, "W": -20, "N": -30}, late_minutes={"E": 20})
    )
    assert result.table_points["E"] == 0
    assert result.table_points == {"E": 0, "S": 4, "W": 2, "N": 1}


def test_a_false_hu_with_a_ready_hand_pays_ten_to_each_other_player():
    # Rule 84a (line ~2395).
    assert penalty_effect(PenaltyItem(seat="W", points=10, paid_to="each_other")) == {
        "E": 10,
        "S": 10,
        "W": -30,
        "N": 10,
    }


def test_a_deducted_penalty_is_taken_from_the_offender_only():
    # Rule 79a (line ~2370): empty calling, second occurrence: 5 points.
    assert penalty_effect(PenaltyItem(seat="S", points=5, paid_to="none")) == {
        "E": 0,
        "S": -5,
        "W": 0,
        "N": 0,
    }


def test_a_session_adds_hands_penalties_and_lateness():
    session = SessionInput(
        hands=(
            HandOutcome(winner="E", discarder="W", fan=12),
            HandOutcome(winner="S", discarder=None, fan=8),
            HandOutcome(winner=None),
        ),
        penalties=(PenaltyItem(seat="N", points=10, paid_to="each_other"),),
        late_minutes={"S": 7},
    )
    result = score_session(session)
    # E: +36 -16 +10 = 30; S: -8 +48 +10 -10 (late) = 40; W: -20 -16 +10 = -26; N: -8 -16 -30 = -54
    assert result.scores == {"E": 30, "S": 40, "W": -26, "N": -54}
    assert result.table_points == {"S": 4, "E": 2, "W": 1, "N": 0}


def test_totals_that_do_not_sum_to_zero_are_refused():
    with pytest.raises(HandInputError) as error:
        score_session(SessionInput(totals={"E": 10, "S": 0, "W": 0, "N": 0}))
    assert error.value.code == "totals_not_zero_sum"


def test_in_the_first_hand_everyone_holds_their_starting_wind():
    prevalent, winds = winds_for_hand(0)
    assert prevalent == "E"
    assert winds == {"E": "E", "S": "S", "W": "W", "N": "N"}


def test_the_deal_passes_to_the_south_seat_after_the_first_hand():
    # Rule 74b (line ~2338): the dice move to the next counterclockwise player, who becomes East.
    _, winds = winds_for_hand(1)
    assert winds == {"E": "N", "S": "E", "W": "S", "N": "W"}


def test_players_change_seats_as_rule_75_says_at_each_new_round():
    # Rule 75a: at the South round East and South exchange seats; North and West exchange seats.
    prevalent, winds = winds_for_hand(4)
    assert prevalent == "S"
    assert winds == {"E": "S", "S": "E", "W": "N", "N": "W"}
    # Rule 75b: at the West round original East sits North, North sits East, West sits South.
    prevalent, winds = winds_for_hand(8)
    assert prevalent == "W"
    assert winds == {"E": "N", "S": "W", "W": "E", "N": "S"}
    # Rule 75d: original North moves N, W, S, E (ends in the East seat for the North round).
    prevalent, winds = winds_for_hand(12)
    assert prevalent == "N"
    assert winds["N"] == "E"
    assert winds["W"] == "S"


def seats_in_round(quan):
    return {start: seats[quan] for start, seats in SEAT_BY_ROUND.items()}


def test_rule_75d_gives_each_original_seat_its_four_seats_line_2347():
    rounds = [seats_in_round(q) for q in range(4)]
    assert [r["E"] for r in rounds] == ["E", "S", "N", "W"]
    assert [r["S"] for r in rounds] == ["S", "E", "W", "N"]
    assert [r["W"] for r in rounds] == ["W", "N", "E", "S"]
    assert [r["N"] for r in rounds] == ["N", "W", "S", "E"]


@pytest.mark.parametrize(
    ("quan", "moves"),
    [
        (1, {"E": "S", "S": "E", "N": "W", "W": "N"}),  # rule 75a (line 2341): East-South, North-West swap
        (2, {"E": "W", "S": "N", "N": "E", "W": "S"}),  # rule 75b (line 2342): across, North to East
        (3, {"E": "S", "S": "E", "N": "W", "W": "N"}),  # rule 75c (line 2344): swap again
    ],
)
def test_rule_75_moves_the_players_of_each_seat_at_the_start_of_a_round(quan, moves):
    before, after = seats_in_round(quan - 1), seats_in_round(quan)
    by_seat = {seat: start for start, seat in before.items()}
    assert {seat: after[by_seat[seat]] for seat in SEATS} == moves


def test_the_first_dealer_of_each_round_sits_in_the_east_seat_rule_74b():
    for quan in range(4):
        _, winds = winds_for_hand(4 * quan)
        dealer = next(start for start, wind in winds.items() if wind == "E")
        assert seats_in_round(quan)[dealer] == "E"


@given(st.integers(min_value=0, max_value=63))
def test_every_hand_has_four_different_seat_winds(index):
    _, winds = winds_for_hand(index)
    assert sorted(winds.values()) == sorted(SEATS)


def test_each_player_deals_four_times_in_a_full_game():
    # Rule 74c: in each round four hands are played, with each player acting as dealer once.
    dealers = [next(s for s, w in winds_for_hand(i)[1].items() if w == "E") for i in range(16)]
    assert {seat: dealers.count(seat) for seat in SEATS} == dict.fromkeys(SEATS, 4)
    for quan in range(4):
        assert sorted(dealers[quan * 4 : quan * 4 + 4]) == sorted(SEATS)


def test_a_session_refuses_a_win_by_a_player_barred_from_hu_in_that_hand_rule_84a():
    # Rule 84a (line 2373): a false hu bars hu "for the duration of the current hand" only.
    hands = (HandOutcome(winner="E", discarder="S", fan=8), HandOutcome(winner="E", discarder="S", fan=8))
    with pytest.raises(HandInputError) as error:
        score_session(SessionInput(hands=hands, rulings=((1, "E", "false_hu_ready"),)))
    assert error.value.code == "winner_barred"
    result = score_session(SessionInput(hands=hands, rulings=((2, "E", "false_hu_ready"),)))
    assert result.scores["E"] == 2 * 32


def test_a_session_with_the_hand_limit_enforced_refuses_a_seventeenth_hand_rule_74():
    # Rule 74e/f (lines 2334-2335).
    hands = (HandOutcome(winner=None),) * 17
    assert score_session(SessionInput(hands=hands)).scores == dict.fromkeys(SEATS, 0)
    with pytest.raises(HandInputError) as error:
        score_session(SessionInput(hands=hands, enforce_hand_limit=True))
    assert error.value.code == "too_many_hands"
    with pytest.raises(HandInputError):
        score_session(SessionInput(hands=hands[:9], enforce_hand_limit=True, hands_per_session=8))


def test_a_penalty_paid_to_one_opponent_counts_in_the_session_rule_85e():
    result = score_session(SessionInput(penalties=(PenaltyItem(seat="W", points=10, paid_to="N"),)))
    assert result.scores == {"E": 0, "S": 0, "W": -10, "N": 10}
