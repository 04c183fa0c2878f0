"""``score_request``: "An NMJL hand outcome" of shared/specs/scoring-json.md."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.errors import HandInputError
from scoring.rules.nmjl.api import FIELDS, score_request
from scoring.rules.nmjl.card import load_card
from scoring.rules.nmjl.tests.conftest import card_data

SPEC_EXAMPLE = {
    "mode": "payments",
    "value": 25,
    "won_by": "discard",
    "winner": "E",
    "discarder": "S",
    "jokerless": False,
    "singles_and_pairs": False,
    "winner_exposures": 2,
    "dead": ["W"],
    "lowest_value": 25,
    "events": [
        {"kind": "death_challenge", "challenger": "N", "challenged": "W", "challenged_was_dead": True}
    ],
}


def request(**changes):
    data = copy.deepcopy(SPEC_EXAMPLE)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def error(data, **kwargs) -> HandInputError:
    with pytest.raises(HandInputError) as info:
        score_request(data, **kwargs)
    return info.value


def test_the_spec_example_scores_e_100_s_minus_50_w_minus_50_n_0():
    assert score_request(SPEC_EXAMPLE) == {"points": {"E": 100, "S": -50, "W": -50, "N": 0}}


def test_the_spec_example_in_tournament_mode_uses_the_book_table_line_1556():
    assert score_request(request(mode="tournament")) == {"points": {"E": 25, "S": -10, "W": 0, "N": 0}}


def test_a_scheme_overrides_the_table_in_tournament_mode():
    data = request(mode="tournament", winner_exposures=3, scheme={"preset": "exposures-10-20-30"})
    assert score_request(data)["points"]["S"] == -20


def test_the_value_may_come_from_a_card_and_hand_rule_71():
    data = request(value=None, card="sample-2027", hand="quint-2", lowest_value=None)
    assert score_request(data) == {"points": {"E": 180, "S": -90, "W": -70, "N": -20}}


def test_a_concealed_card_hand_has_no_exposures_rule_26():
    data = request(value=None, card="sample-2027", hand="run-4", winner_exposures=None, mode="tournament")
    assert score_request(data)["points"]["S"] == 0
    message = error(request(value=None, card="sample-2027", hand="run-4")).message
    assert "concealed" in message and "rule 26" in message


def test_a_singles_and_pairs_hand_from_the_card_gets_no_jokerless_double_rule_73():
    data = request(
        value=None,
        card="sample-2027",
        hand="sp-1",
        jokerless=True,
        winner_exposures=None,
        singles_and_pairs=None,
        events=[],
    )
    assert score_request(data)["points"]["E"] == 200
    assert "hand 'sp-1' says True" in error(request(value=None, card="sample-2027", hand="sp-1")).message


def test_a_given_value_must_be_the_hands_value():
    assert error(request(card="sample-2027", hand="quint-2")).code == "bad_value"


def test_a_value_not_on_the_card_is_rejected():
    message = error(request(value=33, card="sample-2027", lowest_value=None)).message
    assert "not on card 'sample-2027'" in message and "25, 30" in message


def test_a_hand_not_on_the_card_is_rejected_rule_23():
    assert error(request(card="sample-2027", hand="2099-1", value=None)).code == "unknown_hand"


def test_an_unknown_card_is_rejected_and_the_known_ones_are_listed():
    message = error(request(card="nmjl-1999", hand="x")).message
    assert "unknown card 'nmjl-1999'" in message and "sample-2027" in message


def test_cards_can_be_passed_in_by_the_caller():
    cards = {"test-card": load_card(card_data())}
    data = request(value=None, card="test-card", hand="t-1", lowest_value=None)
    assert score_request(data, cards=cards)["points"]["E"] == 100


def test_the_lowest_value_comes_from_the_card_and_must_match_it_rule_104():
    assert error(request(card="sample-2027", lowest_value=30)).code == "bad_value"
    assert score_request(request(card="sample-2027", lowest_value=None))["points"]["N"] == 0


def test_the_misnamed_discard_event_rule_95c():
    data = request(events=[{"kind": "misnamed_discard", "misnamer": "S"}], dead=None)
    assert score_request(data) == {"points": {"E": 100, "S": -100, "W": 0, "N": 0}}
    data = request(events=[{"kind": "misnamed_discard", "misnamer": "S"}], dead=None, discarder=None)
    assert score_request(data) == {"points": {"E": 100, "S": -100, "W": 0, "N": 0}}


def test_the_out_of_turn_discard_event_rule_100():
    data = request(events=[{"kind": "out_of_turn_discard", "discarder": "S"}], dead=None)
    assert score_request(data) == {"points": {"E": 100, "S": -100, "W": 0, "N": 0}}


def test_the_false_mahjong_event_with_two_thrown_in_rule_98d():
    event = {"kind": "false_mahjong", "declarer": "S", "declared_value": 30, "threw_in": ["W", "N"]}
    data = {"mode": "payments", "events": [event]}
    assert score_request(data) == {"points": {"E": 60, "S": -60, "W": 0, "N": 0}}


def test_the_false_mahjong_event_with_the_wall_destroyed_rule_98e():
    event = {"kind": "false_mahjong", "declarer": "S", "threw_in": [], "wall_destroyed_by": "N"}
    data = {"mode": "payments", "lowest_value": 25, "events": [event]}
    assert score_request(data) == {"points": {"E": 25, "S": 0, "W": 25, "N": -50}}


def test_a_declared_value_must_be_on_the_card():
    event = {"kind": "false_mahjong", "declarer": "S", "declared_value": 33, "threw_in": ["W", "N"]}
    assert error({"mode": "payments", "card": "sample-2027", "events": [event]}).code == "bad_value"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("nope", "JSON object"),
        (request(mode=None), "'mode'"),
        (request(colour="red"), "unknown field 'colour'"),
        (request(jokerless="no"), "true or false"),
        (request(dead="W"), "list of seats"),
        (request(hand="x"), "needs 'card'"),
        (request(events={"kind": "x"}), "list of objects"),
        (request(events=[{"kind": "x"}]), "kind is one of"),
        (request(events=[{"kind": "death_challenge", "challenger": "N"}]), "needs field"),
        (request(events=[{"kind": "misnamed_discard", "misnamer": "S", "x": 1}]), "unknown field 'x'"),
        (request(scheme={}), "belongs to mode 'tournament'"),
        (request(late=["E"]), "belongs to mode 'tournament'"),
        (request(lowest_value=None), "lowest_value"),
        (request(winner_exposures=7, mode="tournament"), "0 to 4"),
        (request(mode="tournament", scheme={"x": 1}), "unknown scheme field"),
    ],
)
def test_bad_outcomes_are_clear_errors(data, words):
    assert words in error(data).message


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 60)
    | st.sampled_from(["E", "S", "W", "N", "x", "sample-2027"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["kind", "a"]), inner, max_size=2)
    ),
    max_leaves=6,
)
event_values = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(
            ["misnamed_discard", "out_of_turn_discard", "false_mahjong", "death_challenge"]
        )
    },
    optional={
        key: json_values | st.sampled_from(["E", "S", "W", "N"])
        for key in (
            "misnamer",
            "discarder",
            "declarer",
            "declared_value",
            "threw_in",
            "wall_destroyed_by",
            "challenger",
            "challenged",
            "challenged_was_dead",
        )
    },
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(sorted(FIELDS)),
        json_values
        | st.lists(event_values, max_size=2)
        | st.sampled_from(["payments", "tournament", "wall"]),
        max_size=10,
    )
)
def test_any_input_gives_points_or_a_clear_error_never_a_crash(data):
    try:
        result = score_request(data)
    except HandInputError as exc:
        assert exc.message
    else:
        assert set(result["points"]) == {"E", "S", "W", "N"}


QUINT_TILES = ["F", "F", "J", "J", "4z", "4z", "4z", "4z", "J", "5m", "5m", "5m", "5m", "J"]


def test_the_winners_tiles_give_the_hand_value_and_jokers_rules_23_71_73():
    data = request(
        value=None, card="sample-2027", lowest_value=None, tiles=QUINT_TILES, winner_exposures=None
    )
    assert score_request(data) == {"points": {"E": 180, "S": -90, "W": -70, "N": -20}}
    natural = ["2s"] * 3 + ["4s"] * 3 + ["6s"] * 4 + ["8s"] * 4
    data = request(
        value=None,
        card="sample-2027",
        tiles=natural,
        exposures=[["8s"] * 4],
        winner_exposures=None,
        jokerless=None,
    )
    assert score_request(dict(data, mode="tournament")) == {"points": {"E": 45, "S": 0, "W": 0, "N": 0}}
    assert score_request(data)["points"]["S"] == -100


def test_the_winners_tiles_count_the_exposures_for_the_discard_penalty_line_1566():
    natural = ["2s"] * 3 + ["4s"] * 3 + ["6s"] * 4 + ["8s"] * 4
    exposures = [["2s"] * 3, ["4s"] * 3]
    data = request(
        mode="tournament", value=None, card="sample-2027", tiles=natural, exposures=exposures, jokerless=None
    )
    assert score_request(data)["points"]["S"] == -10
    assert "2 exposures are given" in error(dict(data, winner_exposures=1)).message


def test_a_joker_in_a_pair_is_a_clear_error_rule_81():
    tiles = ["F", "F", "2m", "2m", "2m", "2m", "4m", "J", "6s", "6s", "6s", "6s", "6z", "6z"]
    data = request(value=None, card="sample-2027", lowest_value=None, tiles=tiles, winner_exposures=None)
    found = error(data)
    assert found.code == "hand_not_made"
    assert "2468-2" in found.message and "never used in a pair" in found.message
    found = error(dict(data, hand="2468-2"))
    assert "never used in a pair" in found.message


def test_more_than_four_natural_tiles_of_a_kind_is_a_clear_error_rule_3():
    tiles = ["2s"] * 5 + ["4s"] * 2 + ["6s"] * 4 + ["8s"] * 3
    found = error(request(value=None, card="sample-2027", tiles=tiles, winner_exposures=None))
    assert found.code == "fifth_copy" and "only 4 of 2s" in found.message


def test_jokerless_must_agree_with_the_tiles_rule_73():
    data = request(value=None, card="sample-2027", tiles=QUINT_TILES, winner_exposures=None, jokerless=True)
    assert "the tiles say False" in error(data).message


def test_tiles_need_a_card_and_a_win():
    assert "need 'card'" in error(request(tiles=QUINT_TILES)).message
    data = {"mode": "payments", "won_by": "wall", "card": "sample-2027", "tiles": QUINT_TILES}
    assert "winning hand" in error(data).message
