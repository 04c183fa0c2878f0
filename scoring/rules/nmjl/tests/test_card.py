"""The card file: rules 23-38 (~line 693 of shared/seeds/003_2541481d343502a5.txt) and ~line 1133."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from scoring.rules.errors import HandInputError
from scoring.rules.nmjl.card import (
    CARDS_DIR,
    card_for,
    card_year,
    load_card,
    load_card_file,
    load_sample_cards,
)
from scoring.rules.nmjl.tests.conftest import MINIMAL_CARD, card_data
from scoring.rules.tiles import GREEN, RED, WHITE


def error_of(data) -> HandInputError:
    with pytest.raises(HandInputError) as info:
        load_card(data)
    assert info.value.code == "bad_card"
    return info.value


def test_every_shipped_card_is_a_made_up_sample_and_says_so():
    cards = load_sample_cards()
    assert "sample-2027" in cards
    for path in CARDS_DIR.glob("*.json"):
        card = load_card_file(path)
        assert card.sample is True
        assert "made up" in card.name.lower() or "made-up" in card.notice.lower()
        assert "not the National Mah Jongg League card" in card.notice


def test_the_sample_card_has_families_x_and_c_hands_and_a_lowest_value_of_25_rules_25_26_74(card):
    assert len(card.families) >= 9
    assert {hand.xc for hand in card.hands} == {"X", "C"}
    assert card.lowest_value == 25
    assert card.values[-1] == 50


def test_a_card_can_be_given_as_json_text():
    assert load_card(json.dumps(MINIMAL_CARD)).hand("t-1").value == 25


def test_text_that_is_not_json_is_a_clear_error():
    assert "not valid JSON" in error_of("{nope").message


def test_a_card_without_the_format_marker_is_rejected():
    data = dict(MINIMAL_CARD, format="something")
    assert error_of(data).message.startswith("format:")


def test_a_missing_value_names_its_path():
    assert error_of(card_data(value=None)).message.startswith("families[0].hands[0].value: missing")


def test_an_unknown_symbol_in_a_pattern_names_the_group_and_the_path():
    message = error_of(card_data(pattern="222 444 66X6 8888")).message
    assert message.startswith("families[0].hands[0].pattern:")
    assert "'X'" in message and "group 3" in message


def test_a_pattern_of_13_tiles_is_rejected_rule_23():
    message = error_of(card_data(pattern="222 444 666 8888")).message
    assert "13 tiles" in message and "rule 23" in message


def test_a_group_of_seven_is_rejected_since_groups_are_1_to_6_tiles_rule_27():
    message = error_of(card_data(pattern="2222222 4444 888", colours="g g g")).message
    assert "more than 6" in message


def test_one_colour_letter_per_group_is_required_rule_28():
    message = error_of(card_data(colours="g g g")).message
    assert message.startswith("families[0].hands[0].colours:")
    assert "3 letters" in message and "4 groups" in message


def test_numbers_without_a_colour_are_rejected_rule_28():
    assert "needs a colour" in error_of(card_data(colours="g g - g")).message
    assert "colours: missing" in error_of(card_data(colours=None)).message


def test_an_unknown_colour_letter_is_rejected():
    assert "use g, r, b, * or -" in error_of(card_data(colours="g g y g")).message


def test_x_or_c_is_required_rule_26():
    assert "rule 26" in error_of(card_data(xc="E")).message


def test_a_value_must_be_a_positive_whole_number_rule_71():
    assert "whole number" in error_of(card_data(value=0)).message
    assert "whole number" in error_of(card_data(value="25")).message


def test_hand_ids_must_be_unique_on_a_card():
    data = card_data()
    data["families"][0]["hands"].append(dict(data["families"][0]["hands"][0]))
    message = error_of(data).message
    assert message.startswith("families[0].hands[1].id:") and "another hand" in message


def test_unknown_fields_are_reported_not_ignored():
    assert "unknown field" in error_of(card_data(colour="g g g g")).message


def test_a_singles_and_pairs_hand_cannot_hold_a_pung_line_1505():
    message = error_of(card_data(singles_and_pairs=True)).message
    assert "Singles And Pairs" in message


def test_a_hand_outside_singles_and_pairs_needs_a_set_line_1505():
    data = card_data(pattern="22 44 66 88 22 44 66", colours="g g g g r r r")
    assert "mark it singles_and_pairs" in error_of(data).message
    data["families"][0]["singles_and_pairs"] = True
    assert load_card(data).hand("t-1").singles_and_pairs is True


def test_any_like_numbers_need_the_same_number_throughout_rule_35():
    message = error_of(card_data(numbers="any_like")).message
    assert "different numbers" in message


def test_a_pair_needing_five_natural_tiles_can_never_be_made_rules_3_and_81():
    data = card_data(pattern="22 22 22 4444 6666", colours="g g g g g")
    message = error_of(data).message
    assert "can never be made" in message and "needs 6 natural" in message
    data = card_data(pattern="22 22 22 4444 6666", colours="g r b g g")
    assert load_card(data).hand("t-1").value == 25


def test_consecutive_numbers_shift_within_1_to_9_line_1257():
    hand = load_card(card_data(numbers="consecutive")).hand("t-1")
    assert sorted({variant.shift for variant in hand.variants}) == [-1, 0, 1]


def test_a_one_colour_hand_has_one_reading_per_suit_rule_28b():
    hand = load_card(card_data()).hand("t-1")
    assert len(hand.variants) == 3


def test_d_takes_the_dragon_of_its_colours_suit_rule_36():
    data = card_data(pattern="FF 2222 44 6666 DD", colours="- g g g g")
    hand = load_card(data).hand("t-1")
    dragons = {variant.groups[-1][0] for variant in hand.variants}
    assert dragons == {RED, WHITE, GREEN}
    for variant in hand.variants:
        suit = dict(variant.suits)["g"]
        assert variant.groups[-1][0] == {"m": RED, "p": WHITE, "s": GREEN}[suit]


def test_zeroes_are_white_dragons_without_a_suit_rule_37():
    data = card_data(pattern="FF 2027 2222 7777", colours="- g r r")
    hand = load_card(data).hand("t-1")
    assert all(variant.groups[1][1] == WHITE for variant in hand.variants)


def test_the_example_card_in_the_format_document_loads():
    doc = Path(__file__).resolve().parents[4] / "docs" / "nmjl-card-format.md"
    text = doc.read_text(encoding="utf-8")
    example = text.split("```json", 1)[1].split("```", 1)[0]
    card = load_card(example)
    assert [hand.id for hand in card.hands] == ["2468-1", "sp-1"]
    assert card.hand("sp-1").singles_and_pairs is True


def test_a_lone_colour_dragon_may_be_any_dragon_rule_36():
    card = load_sample_cards()["sample-2027"]
    dragons = {variant.groups[-1][0] for variant in card.hand("wind-3").variants}
    assert dragons == {RED, WHITE, GREEN}


def test_the_card_of_a_year_is_used_from_april_to_the_next_march_rule_24():
    assert card_year(datetime.date(2027, 3, 31)) == 2026
    assert card_year(datetime.date(2027, 4, 1)) == 2027
    assert card_year(datetime.date(2028, 3, 1)) == 2027


def test_card_for_picks_the_card_of_the_year_and_prefers_a_real_card_to_a_sample_rule_24():
    sample = load_card(MINIMAL_CARD)
    real = load_card(dict(MINIMAL_CARD, id="club-2027", sample=False))
    older = load_card(dict(MINIMAL_CARD, id="club-2026", year=2026, sample=False))
    assert card_for([sample, real, older], datetime.date(2027, 6, 1)) == real
    assert card_for([sample, older], datetime.date(2027, 6, 1)) == sample
    assert card_for([sample, real, older], datetime.date(2027, 2, 1)) == older
    assert card_for([sample], datetime.date(2030, 6, 1)) is None


def test_a_dragon_coloured_star_may_be_any_dragon_whatever_the_numbers_line_1189():
    data = card_data(pattern="FF 2222 44 6666 DD", colours="- g g g *")
    hand = load_card(data).hand("t-1")
    for suit_letter in ("m", "p", "s"):
        dragons = {v.groups[-1][0] for v in hand.variants if dict(v.suits)["g"] == suit_letter}
        assert dragons == {RED, WHITE, GREEN}
