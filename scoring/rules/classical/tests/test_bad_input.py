"""Bad input gives one clear error per hand (a :class:`HandInputError` with a code), never a traceback."""

from __future__ import annotations

import pytest

from scoring.rules.classical.api import RULE_SETS, score_request
from scoring.rules.classical.tests.helpers import chow, hand, kong, pung
from scoring.rules.errors import HandInputError

GOOD = hand("123p 46m 99s", chow("789s"), chow("234m"), win="5m")


def error_for(data, rules="babcock"):
    with pytest.raises(HandInputError) as error:
        score_request(data, rules)
    return error.value


def test_a_good_hand_scores_under_every_rule_set_with_the_specs_fields():
    for rules in RULE_SETS:
        result = score_request(GOOD, rules)
        assert set(result) == {"points", "doubles", "total", "items"}
        assert result["total"] > 0


@pytest.mark.parametrize(
    ("data", "code", "words"),
    [
        ("not a hand", "bad_field", "JSON object"),
        ({"melds": []}, "missing_field", "concealed"),
        (GOOD | {"concealed": ["1p", "2p", "3p", "4m", "6m", "9s", "9x"]}, "bad_tile", "9x"),
        (hand("123p 46m 99s 1z", chow("789s"), chow("234m"), win="5m"), "wrong_tile_count", "14 tiles"),
        (hand("123p 47m 99s", chow("789s"), chow("234m"), win="5m"), "incomplete_hand", "complete hand"),
        (hand("9999s 46m 1p", chow("789s"), chow("234m"), win="5m"), "fifth_copy", "fifth 9s"),
        (GOOD | {"winner": "yes"}, "bad_field", "'winner'"),
        (GOOD | {"winner": False}, "bad_field", "losing hand has no winning tile"),
        (hand("123p 46m 9s", chow("789s"), chow("234m"), winner=False), "wrong_tile_count", "13 tiles"),
        (GOOD | {"options": {"limit": "lots"}}, "bad_option", "'limit'"),
        (GOOD | {"options": {"pineapple": True}}, "bad_option", "not a table option of babcock"),
        (GOOD | {"options": {"bonus_doubles": ["everything"]}}, "bad_option", "unknown everything"),
        (GOOD | {"options": [1]}, "bad_option", "options must be an object"),
        (GOOD | {"flower_tiles": ["f9"]}, "bad_tile", "'f9'"),
        (GOOD | {"flower_tiles": ["f1", "f1"]}, "fifth_copy", "only once"),
        (GOOD | {"flower_tiles": ["f1"], "flowers": 2}, "bad_field", "flowers says 2"),
        (GOOD | {"only_possible_place": "maybe"}, "bad_field", "only_possible_place"),
        (GOOD | {"loose_tile": True}, "bad_field", "self_drawn"),
        (GOOD | {"loose_tile": True, "self_drawn": True}, "bad_field", "no set of fours"),
        (GOOD | {"robbing_kong": True, "self_drawn": True}, "bad_field", "robbed kong"),
        (GOOD | {"last_tile": True}, "bad_field", "last tile of the wall"),
        (GOOD | {"special_hand": "heaven", "seat_wind": "S"}, "bad_field", "only East"),
        (GOOD | {"special_hand": "earth"}, "bad_field", "East can never"),
        (GOOD | {"special_hand": "moon"}, "bad_field", "special_hand must be one of"),
        (GOOD | {"seat_wind": "X"}, "bad_field", "seat_wind"),
    ],
)
def test_a_bad_hand_is_rejected_with_a_clear_message(data, code, words):
    error = error_for(data)
    assert error.code == code
    assert words in error.message


def test_a_loser_cannot_claim_bonuses():
    data = hand("123p 46m 99s", chow("789s"), chow("234m"), winner=False, only_possible_place=True)
    assert "winning hand only" in error_for(data).message


def test_unknown_rules_are_rejected():
    assert error_for(GOOD, "mcr").code == "unknown_rules"


def test_an_option_of_another_book_is_rejected():
    assert error_for(GOOD | {"options": {"reformed_count": True}}, "babcock").code == "bad_option"
    assert error_for(GOOD | {"options": {"chinese_game": True}}, "foster").code == "bad_option"


def test_the_seven_twins_without_a_limit_cannot_be_scored():
    data = hand("1199m 3355p 7788s 1z", win="1z", options={"limit_hands": ["seven_twins"], "limit": None})
    assert error_for(data).code == "no_limit"


def test_a_winner_without_a_winning_tile_is_asked_for_it():
    data = hand("123p 46m 99s 5m", chow("789s"), chow("234m"), winner=True)
    assert error_for(data).code == "missing_field"


def test_a_loose_tile_needs_a_kong_and_then_scores_ten():
    data = hand("23m 99s", kong("7p"), pung("1z"), chow("456s"), win="4m", self_drawn=True, kong_related=True)
    assert "For winning on the loose tile after a set of fours 10" in score_request(data, "babcock")["items"]
