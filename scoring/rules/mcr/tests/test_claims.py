"""MCR as the book states it. Claims against tiles, flowers, Reversible Tiles, 16 hands, payments.

Book: Sloper, shared/seeds/003_2541481d343502a5.txt (rules 24, 65-67, 74; fan nos. 40, 75, 81).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.errors import HandInputError
from scoring.rules.mcr.claims import check_claim
from scoring.rules.mcr.session import (
    MAX_HANDS,
    SEATS,
    HandOutcome,
    check_hand_count,
    hands_allowed,
    payments,
    settle_hand,
    validate_hand,
)
from scoring.rules.mcr.tests.test_fans_support import fans, hand

# Line 4012: "Mixed Shifted Chows, six points" and "All Chows, two points" (8), "Two flowers, two points"
# (10), and the winner "points to the discarder and announces, 'eighteen.' ... the other players will pay 8."
BOOK_EXAMPLE = hand("67m55p", "8m", "chow 123m", "chow 234p", "chow 345s", flowers=2)


def test_the_book_example_is_eight_fan_points_and_two_flowers_worth_ten():
    # Line 4012 and rule 66 / Scoring Basics 2 (line 3225): flowers are part of the basic points.
    assert fans("67m55p", "8m", "chow 123m", "chow 234p", "chow 345s", flowers=2) == {
        "Mixed Shifted Chows": 6,
        "All Chows": 2,
        "Flower Tiles": 2,
    }
    check = check_claim(BOOK_EXAMPLE, 10)
    assert (check.total, check.without_flowers, check.flowers, check.meets_minimum) == (10, 8, 2, True)
    assert not check.under_claim


def test_the_discarder_pays_eighteen_in_the_book_example_and_the_others_eight():
    # Line 4012; rule 67a-b (line 2307-2308).
    assert payments(HandOutcome(winner="E", discarder="S", fan=10)) == {"E": 0, "S": 18, "W": 8, "N": 8}


def test_self_drawn_everyone_pays_basic_plus_eight():
    # Rule 67c (line 2309).
    assert payments(HandOutcome(winner="W", discarder=None, fan=10)) == {"E": 18, "S": 18, "W": 0, "N": 18}


def test_a_draw_pays_nothing():
    assert payments(HandOutcome(winner=None)) == dict.fromkeys(SEATS, 0)


def test_a_claim_above_the_tiles_with_flowers_is_refused_rule_65a():
    # Rule 65a (line 2301): not more than the others recognise and validate.
    with pytest.raises(HandInputError) as error:
        check_claim(BOOK_EXAMPLE, 11)
    assert error.value.code == "claim_above_tiles"
    assert "10" in error.value.message and "flowers" in error.value.message


def test_a_lower_claim_stands_rule_65b():
    # Rule 65b (line 2302): "If the winner claims fewer points than he could, other players remain silent."
    check = check_claim(BOOK_EXAMPLE, 9)
    assert check.claimed == 9 and check.under_claim
    assert check.as_json()["under_claim"] is True


def test_a_claim_below_eight_on_tiles_worth_eight_or_more_scores_eight_rule_65c():
    # Rule 65c (book 003 line 2304): "If the winner cannot add the score but other players recognize that
    # it is worth at least 8 points, the player scores only 8 points." The tiles decide, not the claim.
    for claimed in (0, 5, 7):
        check = check_claim(BOOK_EXAMPLE, claimed)
        assert (check.claimed, check.scored, check.total) == (claimed, 8, 10)
        assert check.as_json()["scored"] == 8
    assert check_claim(BOOK_EXAMPLE, 9).scored == 9  # rule 65b: a claim of 8 or more stands


def test_a_claim_below_eight_on_tiles_below_eight_is_still_refused_rule_24():
    # Rule 65c (line 2304) needs a hand "worth at least 8 points"; rule 24 (line 2171) refuses the rest.
    with pytest.raises(HandInputError) as error:
        check_claim(hand("23m55z", "1m", "chow 345p", "pung 666s", "chow 678m", last_of_kind=True), 4)
    assert error.value.code == "below_minimum"


def test_tiles_below_eight_without_flowers_are_refused_whatever_the_flowers_rule_24():
    # Rule 24 (line 2171) and fan no. 81c (line 2863): flowers do not count toward the minimum.
    edge_wait_and_flowers = hand("12m55z", "3m", "chow 345p", "pung 666s", "chow 678m", flowers=8)
    with pytest.raises(HandInputError) as error:
        check_claim(edge_wait_and_flowers, 9)
    assert error.value.code == "below_minimum"


def test_the_breakdown_names_every_fan_for_the_page():
    check = check_claim(BOOK_EXAMPLE, 10)
    assert [(fan.name, fan.points) for fan in check.fans] == [
        ("Mixed Shifted Chows", 6),
        ("All Chows", 2),
        ("Flower Tiles", 2),
    ]
    assert check.as_json()["fans"] == {"Mixed Shifted Chows": 6, "All Chows": 2, "Flower Tiles": 2}


@pytest.mark.parametrize("claimed", [True, "10", 10.0, -1, 10**6, None])
def test_a_claim_that_is_not_a_whole_number_in_range_is_refused(claimed):
    with pytest.raises(HandInputError) as error:
        check_claim(BOOK_EXAMPLE, claimed)
    assert error.value.code == "bad_fan"


def test_bad_tiles_are_refused_with_the_tiles_own_error():
    with pytest.raises(HandInputError) as error:
        check_claim(dict(BOOK_EXAMPLE, concealed=["6m"]), 10)
    assert error.value.code == "tile_count"


def test_a_fan_entered_without_tiles_is_checked_without_its_flowers_rule_24():
    # Rule 24 (line 2171): 10 entered with two flowers is 8 on the hand's own merits; 9 with two is 7.
    validate_hand(HandOutcome(winner="E", discarder="S", fan=10), flowers=2)
    with pytest.raises(HandInputError) as error:
        validate_hand(HandOutcome(winner="E", discarder="S", fan=9), flowers=2)
    assert error.value.code == "below_minimum"
    assert "flowers" in error.value.message


def test_without_a_flower_count_validation_is_as_before():
    validate_hand(HandOutcome(winner="E", discarder="S", fan=8))
    with pytest.raises(HandInputError):
        validate_hand(HandOutcome(winner="E", discarder="S", fan=7))


@pytest.mark.parametrize("flowers", [-1, 9, True, "2"])
def test_a_flower_count_outside_0_to_8_is_refused(flowers):
    with pytest.raises(HandInputError) as error:
        validate_hand(HandOutcome(winner="E", discarder="S", fan=12), flowers=flowers)
    assert error.value.code == "bad_flowers"


def test_reversible_tiles_in_two_suits_does_not_add_one_voided_suit_rule_64a():
    # Fan no. 40 (line 2646) admits no character tile, so the voided suit is always the characters:
    # One Voided Suit (no. 75, line 2830) is implied (rule 64a, line 2295).
    assert fans("22p44p55p88p99p22s4s", "4s") == {"Seven Pairs": 24, "Reversible Tiles": 8, "No Honors": 1}


def test_one_voided_suit_still_scores_in_a_two_suited_hand_that_is_not_reversible():
    # No. 75 (line 2830): 3p and 7s are not reversible tiles, so One Voided Suit stands.
    assert "One Voided Suit" in fans("22p33p55p88p99p22s7s", "7s")


def test_a_session_has_at_most_sixteen_hands_rule_74():
    # Rule 74 (line 2327): sixteen hands in four rounds; 74e (line 2334) the game ends after four rounds;
    # 74f (line 2335) a time limit ends it earlier, "whichever happens first".
    assert MAX_HANDS == 16
    assert hands_allowed(None) == 16
    assert hands_allowed(12) == 12
    for bad in (0, 17, True, "16"):
        with pytest.raises(HandInputError) as error:
            hands_allowed(bad)
        assert error.value.code == "bad_hands_per_session"


def test_a_seventeenth_hand_is_refused_under_a_time_limit_too_rule_74f():
    check_hand_count(16)
    check_hand_count(8, 8)
    for count, per_session in ((17, None), (9, 8)):
        with pytest.raises(HandInputError) as error:
            check_hand_count(count, per_session)
        assert error.value.code == "too_many_hands"


@given(
    winner=st.sampled_from(SEATS),
    discarder=st.none() | st.sampled_from(SEATS),
    fan=st.integers(8, 300),
)
def test_payments_are_settle_hand_seen_from_the_payers(winner, discarder, fan):
    if discarder == winner:
        discarder = None
    outcome = HandOutcome(winner=winner, discarder=discarder, fan=fan)
    paid = payments(outcome)
    net = settle_hand(outcome)
    assert paid[winner] == 0
    assert sum(paid.values()) == net[winner]
    assert all(paid[seat] == -net[seat] for seat in SEATS if seat != winner)


@given(claimed=st.integers(-5, 30))
def test_a_claim_stands_from_eight_to_the_tiles_total_and_scores_eight_below_rules_24_and_65(claimed):
    # Rules 24 (line 2171), 65a-c (lines 2301-2304) on the book example of line 4012 (total 10).
    try:
        check = check_claim(BOOK_EXAMPLE, claimed)
    except HandInputError as error:
        assert not 0 <= claimed <= 10
        assert error.code in {"bad_fan", "claim_above_tiles"}
    else:
        assert 0 <= claimed <= 10 and check.total == 10
        assert check.scored == max(claimed, 8)  # rule 65c: below 8 scores 8
