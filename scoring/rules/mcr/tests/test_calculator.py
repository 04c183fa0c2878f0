"""The MCR calculator end to end: the book's worked examples, the JSON contract, and bad input.

Book: ``shared/seeds/003_2541481d343502a5.txt`` (section B's scoring examples, lines 3860-4090; the
notes of rule 95). Contract: ``shared/specs/scoring-json.md`` (MCR result).
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules.errors import HandInputError
from scoring.rules.mcr.calculator import MCR_FANS, FanScore, calculate, score_request
from scoring.rules.mcr.tests.test_fans_support import fans, hand, result
from scoring.rules.tiles import parse_hand

# ---------------------------------------------------------------------------------------------
# Worked examples of section B


def test_it_scores_the_tallying_example_mixed_shifted_chows_all_chows_and_two_flowers() -> None:
    """Line 3870-3874: "Mixed Shifted Chows, six points ... All Chows, two points ... Two flowers, two
    points" make ten; the hand itself makes the 8-point minimum."""
    answer = score_request(hand("234p45s99s", "3s", "chow 123m", "chow 678p", flowers=2))
    assert answer == {
        "total": 10,
        "fans": {"Mixed Shifted Chows": 6, "All Chows": 2, "Flower Tiles": 2},
        "meets_minimum": True,
    }


def test_it_reads_111_222_333_as_pungs_or_chows_but_not_both() -> None:
    """Prohibition against separation (line 4052): 111222333 is three pungs or three chows; the
    pungs are worth more here (Pure Shifted Pungs and Three Concealed Pungs)."""
    assert fans("111222333m789p5s", "5s") == {
        "Pure Shifted Pungs": 24,
        "Three Concealed Pungs": 16,
        "Concealed Hand": 2,
        "Pung of Terminals or Honors": 1,
        "No Honors": 1,
        "Single Wait": 1,
    }


def test_it_does_not_use_one_chow_for_two_identical_short_straights() -> None:
    """Prohibition against identical patterns (line 4054): 123 456 456 in one suit is one Short
    Straight (and a Pure Double Chow), not two Short Straights."""
    assert fans("123s789m5p", "5p", "chow 456s", "chow 456s") == {
        "Pure Double Chow": 1,
        "Short Straight": 1,
        "All Chows": 2,
        "Single Wait": 1,
    }


def test_it_scores_the_mixed_shifted_chows_example_once_with_one_short_straight() -> None:
    """Line 4056-4062: 234B 345C 456D 567B is All Chows, All Simples, Mixed Shifted Chows, and the
    567B may make a Short Straight with 234B but not a second Mixed Shifted Chows."""
    assert fans("234s345m45p88m", "6p", "chow 567s") == {
        "Mixed Shifted Chows": 6,
        "All Chows": 2,
        "All Simples": 2,
        "Short Straight": 1,
    }


def test_it_scores_mixed_shifted_pungs_once_with_a_fourth_pung() -> None:
    """Line 4063-4065: the fourth pung cannot make a second Mixed Shifted Pungs with two used pungs;
    the hand is All Pungs and, with a simple pair, All Simples."""
    assert fans("222s6m", "6m", "pung 333m", "pung 444p", "pung 555s") == {
        "Mixed Shifted Pungs": 8,
        "All Pungs": 6,
        "All Simples": 2,
        "Single Wait": 1,
    }


def test_it_claims_pure_straight_rather_than_short_straight() -> None:
    """Freedom of choice (line 4067): 123 456 789 in one suit is Pure Straight, not Short Straight."""
    scored = fans("456789m5z", "5z", "chow 123m", "pung 888p")
    assert scored["Pure Straight"] == 16
    assert "Short Straight" not in scored
    assert "Two Terminal Chows" not in scored


def test_it_claims_fully_concealed_hand_rather_than_concealed_hand_and_self_drawn() -> None:
    """Line 4069: Fully Concealed Hand (4) rather than Concealed Hand and Self-Drawn (3)."""
    scored = fans("234m456p678s222z8m", "8m", self_drawn=True)
    assert scored == {"Fully Concealed Hand": 4, "Pung of Terminals or Honors": 1, "Single Wait": 1}


def test_it_scores_the_mixed_straight_example_with_one_extra_chow_pattern() -> None:
    """Line 4073-4079: 123B 456C 789D is Mixed Straight; 789C makes either Short Straight or Mixed
    Double Chow, not both; with an honour pair there is no All Chows."""
    assert fans("123s456m789p77z", "7z", "chow 789m", self_drawn=True) == {
        "Mixed Straight": 8,
        "Short Straight": 1,
        "Self-Drawn": 1,
        "Single Wait": 1,
    }


def test_it_scores_the_four_chows_example_at_seven_points_below_the_minimum() -> None:
    """Line 4081-4089: 234C 567C 234D 567D: All Chows, All Simples and any three of the four
    two-chow patterns make only 7 points, not enough to go out."""
    answer = score_request(hand("23p567p44m", "4p", "chow 234s", "chow 567s"))
    assert answer["total"] == 7
    assert answer["meets_minimum"] is False
    assert answer["fans"]["All Chows"] == 2 and answer["fans"]["All Simples"] == 2
    assert sum(answer["fans"].get(name, 0) for name in ("Mixed Double Chow", "Short Straight")) == 3


def test_it_scores_one_melded_and_one_concealed_kong_at_six_points() -> None:
    """Two Melded Kongs, line 2739: one melded and one concealed kong earn 6 (4 plus Concealed Kong)."""
    assert fans("234m5z", "5z", "kong 2222p", "ckong 7777s", "chow 789m") == {
        "Two Melded Kongs": 4,
        "Concealed Kong": 2,
        "Single Wait": 1,
    }


BASE_FOUR_KONGS = {"Four Kongs": 88, "Dragon Pung": 2, "Pung of Terminals or Honors": 2}


@pytest.mark.parametrize(
    ("melds", "concealment"),
    [
        (("kong 1111m", "kong 2222s", "kong 7777z", "ckong 9999p"), {"Concealed Kong": 2, "Self-Drawn": 1}),
        (
            ("kong 1111m", "ckong 2222s", "kong 7777z", "ckong 9999p"),
            {"Two Concealed Kongs": 8, "Self-Drawn": 1},
        ),
        (
            ("kong 1111m", "ckong 2222s", "ckong 7777z", "ckong 9999p"),
            {"Three Concealed Pungs": 16, "Self-Drawn": 1},
        ),
        (
            ("ckong 1111m", "ckong 2222s", "ckong 7777z", "ckong 9999p"),
            {"Four Concealed Pungs": 64, "Fully Concealed Hand": 4},
        ),
    ],
)
def test_it_adds_one_concealment_fan_to_four_kongs(
    melds: tuple[str, ...], concealment: dict[str, int]
) -> None:
    """Four Kongs, line 3300: "2 points for One Concealed Kong, 8 points for Two Concealed Kongs, 16
    points for Three Concealed Pungs, 64 points for Four Concealed Pungs"."""
    assert fans("5p", "5p", *melds, self_drawn=True) == BASE_FOUR_KONGS | concealment


def test_it_scores_three_concealed_kongs_as_three_kongs_and_three_concealed_pungs() -> None:
    """Three Kongs, line 3412: if all three kongs are concealed, Three Concealed Pungs is added."""
    assert fans("234p7z", "7z", "ckong 1111m", "ckong 9999s", "ckong 5555p") == {
        "Three Kongs": 32,
        "Three Concealed Pungs": 16,
        "Concealed Hand": 2,
        "Pung of Terminals or Honors": 2,
        "Single Wait": 1,
    }


def test_it_treats_robbing_the_kong_as_a_win_by_discard() -> None:
    """Robbing the Kong, line 2685: "Treated as win by discard": Concealed Hand, not Self-Drawn."""
    scored = fans("123m456p78s555p11z", "9s", kong_related=True)
    assert scored["Robbing the Kong"] == 8
    assert scored["Concealed Hand"] == 2
    assert "Self-Drawn" not in scored and "Fully Concealed Hand" not in scored


def test_it_does_not_count_flowers_toward_the_minimum() -> None:
    """Rule 24 (line 2179) and Flower Tiles (line 2864): 4 points and 5 flowers do not go out."""
    answer = score_request(
        hand("23m55z", "1m", "chow 345p", "pung 666s", "chow 678m", last_of_kind=True, flowers=5)
    )
    assert answer == {"total": 9, "fans": {"Last Tile": 4, "Flower Tiles": 5}, "meets_minimum": False}


def test_it_awards_chicken_hand_only_when_no_reading_earns_a_point() -> None:
    """Chicken Hand, line 2662: "Anything that earns even 1 point ruins the hand's status"."""
    assert fans("23m55z", "1m", "chow 345p", "pung 666s", "chow 678m") == {"Chicken Hand": 8}
    assert fans("23m55z", "1m", "chow 345p", "pung 666s", "chow 678m", self_drawn=True) == {"Self-Drawn": 1}


def test_it_gives_a_wait_fan_only_for_a_hand_waiting_on_one_tile() -> None:
    """Edge Wait (line 2843) with 12 waiting for 3; not with 1234 (waiting for 1 or 4 in a pair)."""
    assert "Edge Wait" in fans("12m55z", "3m", "chow 345p", "pung 666s", "chow 678m")
    assert "Single Wait" not in fans("1234m", "1m", "chow 345p", "pung 666s", "chow 678m")


def test_it_counts_a_pung_completed_by_a_discard_as_melded() -> None:
    """Three Concealed Pungs (line 2609) are made "the hard way": a discard completing one spoils it."""
    assert "Three Concealed Pungs" not in fans("222m444p66s22s", "6s", "chow 789m")
    assert "Three Concealed Pungs" in fans("222m444p66s22s", "6s", "chow 789m", self_drawn=True)


# ---------------------------------------------------------------------------------------------
# The JSON contract and the explained result


def test_it_answers_with_exactly_the_spec_keys_and_book_fan_names() -> None:
    """shared/specs/scoring-json.md: {"total", "fans", "meets_minimum"}; fan names as rule 95 spells them."""
    answer = score_request(hand("123456789m123p5p", "5p", flowers=1))
    assert set(answer) == {"total", "fans", "meets_minimum"}
    assert set(answer["fans"]) <= {name for name, _points in MCR_FANS}
    assert answer["total"] == sum(answer["fans"].values()) == 24
    assert answer["fans"]["Pure Straight"] == 16
    assert answer["meets_minimum"] is True


def test_it_explains_each_fan_with_its_points_count_and_sets() -> None:
    """The web page's breakdown: each fan names the sets it used."""
    scored = result("456789m5z", "5z", "chow 123m", "pung 888p")
    assert scored.total == 18
    by_name = {fan.name: fan for fan in scored.fans}
    assert by_name["Pure Straight"] == FanScore("Pure Straight", 16, 1, "123m (melded) 456m 789m")
    assert by_name["Single Wait"].sets.startswith("55z")
    assert scored.reading.shape == "four sets and a pair"
    assert "888p (melded)" in scored.reading.describe()


def test_it_sums_a_fan_counted_twice() -> None:
    """Spec: "A fan counted twice shows its summed points" (two terminal pungs)."""
    scored = result("23m55z", "1m", "pung 111p", "pung 999s", "chow 678m")
    by_name = {fan.name: fan for fan in scored.fans}
    assert by_name["Pung of Terminals or Honors"].points == 2
    assert by_name["Pung of Terminals or Honors"].count == 2
    assert (
        score_request(hand("23m55z", "1m", "pung 111p", "pung 999s", "chow 678m"))["fans"][
            "Pung of Terminals or Honors"
        ]
        == 2
    )


def test_it_accepts_the_concealed_tiles_given_with_the_winning_tile_among_them() -> None:
    """A hand entered with the winning tile also among the concealed tiles scores the same."""
    assert score_request(hand("123456789m123p55p", "5p")) == score_request(hand("123456789m123p5p", "5p"))


def test_calculate_takes_a_parsed_hand() -> None:
    scored = calculate(parse_hand(hand("1112345678999p", "9p")))
    assert scored.fans[0].name == "Nine Gates"
    assert scored.meets_minimum


# ---------------------------------------------------------------------------------------------
# Bad input: an error that says what is wrong


def _error(data: Any) -> HandInputError:
    with pytest.raises(HandInputError) as caught:
        score_request(data)
    return caught.value


@pytest.mark.parametrize(
    ("data", "code", "words"),
    [
        (hand("1111m23456789p1s", "1m"), "fifth_copy", "fifth 1m"),
        (hand("123456789m123p", "5p"), "tile_count", "13 concealed tiles"),
        (hand("123456789m123p5p", "5p", "chow 789s"), "tile_count", "10 concealed tiles"),
        ({**hand("123456789m12p5p", "5p"), "concealed": ["1m", "2m", "0m"]}, "bad_tile", "'0m'"),
        ({**hand("123456789m123p5p", "5p"), "win_tile": "8z"}, "bad_tile", "'8z'"),
        (
            {**hand("123456m123p5p", "5p"), "melds": [{"type": "chow", "tiles": ["1z", "2z", "3z"]}]},
            "bad_meld",
            "honours",
        ),
        (
            {**hand("123456m123p5p", "5p"), "melds": [{"type": "chow", "tiles": ["1s", "2s", "4s"]}]},
            "bad_meld",
            "consecutive",
        ),
        (
            {**hand("123456m123p5p", "5p"), "melds": [{"type": "kong", "tiles": ["1s", "1s", "1s"]}]},
            "bad_meld",
            "4 tiles",
        ),
        (hand("123456789m123p5p5s", "7s"), "win_tile_not_in_hand", "winning tile 7s is not in the hand"),
        (hand("123456789m124p5p", "5p"), "incomplete_hand", "complete hand"),
        ({"melds": [], "win_tile": "5p"}, "missing_field", "'concealed'"),
        ({"concealed": ["1m"], "melds": []}, "missing_field", "'win_tile'"),
        ({**hand("123456789m123p5p", "5p"), "self_drawn": "yes"}, "bad_field", "self_drawn"),
        ({**hand("123456789m123p5p", "5p"), "flowers": "2"}, "bad_field", "flowers"),
        ({**hand("123456789m123p5p", "5p"), "seat_wind": "X"}, "bad_field", "seat_wind"),
        ({**hand("123456789m123p5p", "5p"), "melds": {}}, "bad_field", "melds"),
        ({**hand("123456789m123p5p", "5p"), "self_draw": True}, "unknown_field", "'self_draw'"),
        ("1m 2m", "bad_field", "JSON object"),
        (hand("123m456p78s55z", "9s", "chow 123s", self_drawn=True, kong_related=True), "no_kong", "no kong"),
        (hand("123m456p78s99s555z", "9s", kong_related=True), "impossible_robbing", "other three 9s"),
    ],
)
def test_it_rejects_bad_input_with_a_message_that_says_what_is_wrong(
    data: Any, code: str, words: str
) -> None:
    error = _error(data)
    assert error.code == code
    assert words in error.message
