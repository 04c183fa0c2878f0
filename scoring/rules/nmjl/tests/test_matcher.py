"""The hand matcher: rule 23 (hand on the card), rules 26-38 (reading the card), rules 80-83 and ~line 1470
(jokers), rule 73 (jokerless), rule 97b (exposures), of shared/seeds/003_2541481d343502a5.txt."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.rules.errors import HandInputError
from scoring.rules.nmjl.card import load_card, load_sample_cards
from scoring.rules.nmjl.matcher import check_hand, close_hands, match_hand
from scoring.rules.nmjl.tests.conftest import card_data
from scoring.rules.nmjl.tiles import nmjl_code


def tiles(text: str) -> list[str]:
    """``"2p*3 J F*2"`` -> ["2p", "2p", "2p", "J", "F", "F"]."""
    out: list[str] = []
    for word in text.split():
        code, _, times = word.partition("*")
        out.extend([code] * int(times or 1))
    return out


def hand_ids(card, text, exposures=()):
    return [match.hand_id for match in match_hand(card, tiles(text), exposures)]


def test_a_one_suit_hand_made_naturally_is_found_and_jokerless_rule_73(card):
    (match,) = match_hand(card, tiles("2s*3 4s*3 6s*4 8s*4"))
    assert (match.hand_id, match.value, match.jokerless) == ("2468-1", 25, True)
    assert match.arrangement == (("2s",) * 3, ("4s",) * 3, ("6s",) * 4, ("8s",) * 4)


def test_jokers_fill_a_kong_and_make_the_hand_not_jokerless_rules_80_83(card):
    (match,) = match_hand(card, tiles("2s*3 4s*3 6s*2 J*2 8s J*3"))
    assert match.hand_id == "2468-1" and match.jokerless is False


def test_colours_never_dictate_a_particular_suit_line_1179(card):
    for suit in "mps":
        assert hand_ids(card, f"2{suit}*3 4{suit}*3 6{suit}*4 8{suit}*4") == ["2468-1"]


def test_a_one_colour_hand_must_be_all_one_suit_rules_28b_and_29(card):
    assert "2468-1" not in hand_ids(card, "2m*3 4m*3 6s*4 8s*4")


def test_two_colours_need_two_different_suits_rule_28c(card):
    assert hand_ids(card, "1m*3 2m*4 3p*3 4p*4") == ["run-2"]
    assert hand_ids(card, "1m*3 2m*4 3m*3 4m*4") == []


def test_three_colours_need_all_three_suits_rule_28d(card):
    assert hand_ids(card, "F*2 1m*4 2p*4 3s*4") == ["run-3"]
    assert hand_ids(card, "F*2 1m*4 2p*4 3m*4") == []


def test_a_set_may_be_all_jokers_rule_83(card):
    assert hand_ids(card, "F*3 5m*3 5p*4 5m J*3") == ["like-1"]


def test_any_like_numbers_may_be_any_number_but_the_same_in_each_suit_rule_35(card):
    for number in range(1, 10):
        assert hand_ids(card, f"F*3 {number}s*3 {number}m*4 {number}p*4") == ["like-1"]
    assert hand_ids(card, "F*3 5s*3 6m*4 5p*4") == []


def test_a_consecutive_run_may_start_at_any_number_line_1257(card):
    assert hand_ids(card, "4p*2 5p*3 6p*4 7p*3 8p*2") == ["run-1"]
    assert hand_ids(card, "5p*2 6p*3 7p*4 8p*3 9p*2") == ["run-1"]
    assert hand_ids(card, "4p*2 5p*3 6p*4 7p*3 9p*2") == []


def test_a_matching_dragon_is_the_dragon_of_the_suit_used_rule_36d(card):
    assert hand_ids(card, "F*2 2m*4 4m*2 6s*4 6z*2") == ["2468-2"]
    assert hand_ids(card, "F*2 2m*4 4m*2 6s*4 7z*2") == []


def test_an_opposite_dragon_belongs_to_a_suit_not_used_rule_36e(card):
    assert hand_ids(card, "F*4 2m 4m 6m 8m 6z*4 J*2") == ["2468-3"]
    assert hand_ids(card, "F*4 2m 4m 6m 8m 5z*4 J*2") == ["2468-3"]
    assert hand_ids(card, "F*4 2m 4m 6m 8m 7z*4 J*2") == []


def test_opposite_dragons_in_a_three_colour_hand_take_the_other_two_suits_rule_36e_line_1304(card):
    assert hand_ids(card, "3p*2 6p*2 9p*2 7z*4 6z J*3") == ["369-3"]
    assert hand_ids(card, "3p*2 6p*2 9p*2 7z*4 5z J*3") == []


def test_the_year_needs_2_and_7_of_one_suit_and_white_dragons_as_zeroes_rule_37(card):
    assert hand_ids(card, "F*3 2p 5z 2p 7p 2p*2 J*2 7p*2 J") == ["2027-1"]
    assert hand_ids(card, "F*3 2m 5z 2p 7p 2p*2 J*2 7p*2 J") == []
    assert hand_ids(card, "F*3 2p 6z 2p 7p 2p*2 J*2 7p*2 J") == []


def test_zeroes_are_suitless_white_dragons_even_with_bams_rule_37(card):
    assert hand_ids(card, "F*3 2s 5z 2s 7s 2s*2 J*2 7s*3") == ["2027-1"]


def test_a_joker_never_stands_for_a_tile_of_the_year_line_1211(card):
    assert hand_ids(card, "F*3 2p J 2p 7p 2p*2 J*2 7p*2 J") == []
    (miss,) = [m for m in close_hands(card, tiles("F*3 2p J 2p 7p 2p*2 J*2 7p*2 J")) if m.hand_id == "2027-1"]
    assert miss.missing == 1
    assert any("5z" in reason and "rule 81" in reason for reason in miss.reasons)


def test_a_joker_is_never_used_in_a_pair_rule_81(card):
    assert hand_ids(card, "F*2 2m*4 4m*2 6s*4 6z*2") == ["2468-2"]
    assert hand_ids(card, "F*2 2m*4 4m J 6s*4 6z*2") == []
    (miss,) = [m for m in close_hands(card, tiles("F*2 2m*4 4m J 6s*4 6z*2")) if m.hand_id == "2468-2"]
    assert any("4m" in reason and "never used in a pair" in reason for reason in miss.reasons)


def test_a_joker_is_never_a_single_rule_81(card):
    assert hand_ids(card, "F*2 3p*4 6p*3 9p*4 7z") == ["369-2"]
    assert hand_ids(card, "F*2 3p*4 6p*3 9p*4 J") == []


def test_news_is_four_singles_and_takes_no_joker_line_1211():
    data = card_data(pattern="NEWS 2027 GGG RRR", colours="- g - -")
    card = load_card(data)
    assert [m.hand_id for m in match_hand(card, tiles("4z 1z 3z 2z 2m 5z 2m 7m 6z J*2 7z*3"))] == ["t-1"]
    assert match_hand(card, tiles("4z 1z 3z J 2m 5z 2m 7m 6z J*2 7z*3")) == []


def test_flowers_form_sets_and_jokers_may_stand_for_flowers_line_1470(card):
    assert hand_ids(card, "F*2 J*2 4z*4 J 5m*4 J") == ["quint-2"]
    assert hand_ids(card, "F*4 4z*4 J 5m*4 J") == ["quint-2"]


def test_quints_and_sextets_need_jokers_rule_27(card):
    assert hand_ids(card, "3s*4 J 4s*4 5s*4 J") == ["quint-1"]
    assert hand_ids(card, "F*4 2m 4m 6m 8m 6z*4 J*2") == ["2468-3"]


def test_a_singles_and_pairs_hand_is_recognised_and_jokerless(card):
    (match,) = match_hand(card, tiles("4z*2 1z*2 3z*2 2z*2 7s*2 8s*2 9s*2"))
    assert (match.hand_id, match.singles_and_pairs, match.jokerless, match.concealed) == (
        "sp-1",
        True,
        True,
        True,
    )


def test_every_hand_the_tiles_complete_is_listed_rule_23():
    data = card_data()
    data["families"][0]["hands"].append(
        {"id": "t-2", "pattern": "222 444 6666 8888", "colours": "g g g g", "xc": "C", "value": 30}
    )
    card = load_card(data)
    assert [(m.hand_id, m.value) for m in match_hand(card, tiles("2m*3 4m*3 6m*4 8m*4"))] == [
        ("t-1", 25),
        ("t-2", 30),
    ]
    assert [m.hand_id for m in match_hand(card, tiles("2m*3 4m*3 6m*4 8m*4"), [["8m"] * 4])] == ["t-1"]


def test_tiles_on_no_hand_of_the_card_match_nothing_rule_23(card):
    assert hand_ids(card, "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p") == []


def test_an_exposure_must_be_one_of_the_hands_sets_rule_97(card):
    assert hand_ids(card, "2s*3 4s*3 6s*2 J*2 8s*4", [["6s", "6s", "J", "J"]]) == ["2468-1"]
    text = "2s*3 4s*3 6s*2 J*2 8s*4"
    assert hand_ids(card, text, [["6s", "6s", "J"]]) == []
    (miss,) = [m for m in close_hands(card, tiles(text), [["6s", "6s", "J"]]) if m.hand_id == "2468-1"]
    assert miss.missing == 0 and "not a set of this hand" in miss.reasons[0]


def test_a_concealed_hand_cannot_have_exposures_rule_26(card):
    text = "F*3 3m 4m 5m 6p*4 7s*4"
    assert hand_ids(card, text) == ["run-4"]
    assert hand_ids(card, text, [["6p"] * 4]) == []
    with pytest.raises(HandInputError) as info:
        check_hand(card, "run-4", tiles(text), [["6p"] * 4])
    assert "rule 26" in info.value.message and info.value.code == "hand_not_made"


def test_an_exposure_cannot_take_the_natural_tiles_a_pair_needs_rule_81(card):
    text = "F*3 2p 5z 2p 7p 2p*2 J*2 7p*2 J"
    assert hand_ids(card, text, [["7p", "7p", "J"]]) == ["2027-1"]
    text = "F*3 2p*4 5z 7p*3 J*3"
    assert hand_ids(card, text) == ["2027-1"]
    assert hand_ids(card, text, [["2p", "2p", "J", "J"]]) == ["2027-1"]
    assert hand_ids(card, text, [["2p", "2p", "2p", "J"]]) == []
    (miss,) = [m for m in close_hands(card, tiles(text), [["2p", "2p", "2p", "J"]]) if m.hand_id == "2027-1"]
    assert "rule 81" in miss.reasons[0]


def test_check_hand_returns_the_match_or_says_why_not(card):
    assert check_hand(card, "2468-1", tiles("2s*3 4s*3 6s*4 8s*4")).value == 25
    with pytest.raises(HandInputError) as info:
        check_hand(card, "2468-1", tiles("2s*3 4s*3 6s*4 8s*3 9s"))
    assert "9s not used" in info.value.message
    with pytest.raises(HandInputError) as info:
        check_hand(card, "nope", tiles("2s*3 4s*3 6s*4 8s*4"))
    assert info.value.code == "unknown_hand"


@pytest.mark.parametrize(
    ("text", "exposures", "code", "words"),
    [
        ("2s*3 4s*3 6s*4 8s*3", (), "tile_count", "rule 101a"),
        ("2s*5 4s*2 6s*4 8s*3", (), "fifth_copy", "only 4 of 2s"),
        ("J*9 F*5", (), "fifth_copy", "only 8 of J"),
        ("2s*3 4s*3 6s*4 8s*3 9x", (), "bad_tile", "unknown tile code '9x'"),
        ("2s*3 4s*3 6s*4 8s*4", [["2s", "4s", "J"]], "bad_exposure", "rule 97b"),
        ("2s*3 4s*3 6s*4 8s*4", [["2s", "2s"]], "bad_exposure", "rule 97b"),
        ("2s*3 4s*3 6s*2 J*2 8s*4", [["J", "J", "J"]], "bad_exposure", "only jokers"),
        ("2s*3 4s*3 6s*4 8s*4", [["9s", "9s", "9s"]], "bad_exposure", "exposed ones included"),
    ],
)
def test_bad_tiles_and_exposures_are_clear_errors_rules_1_to_6_97b_101a(card, text, exposures, code, words):
    with pytest.raises(HandInputError) as info:
        match_hand(card, tiles(text), exposures)
    assert info.value.code == code
    assert words in info.value.message


def test_close_hands_reports_a_hand_one_tile_short(card):
    misses = close_hands(card, tiles("2s*3 4s*3 6s*4 8s*3 9s"))
    assert misses[0].hand_id == "2468-1" and misses[0].missing == 1
    assert any("8s" in reason for reason in misses[0].reasons)


SAMPLE = load_sample_cards()["sample-2027"]


@st.composite
def made_hands(draw):
    """A hand of the sample card built from one of its readings, jokers put only into sets (rules 81-83)."""
    card = SAMPLE
    hand = draw(st.sampled_from(card.hands))
    variant = draw(st.sampled_from(hand.variants))
    tiles: list[str] = []
    jokers = 0
    for group, resolved in zip(hand.groups, variant.groups, strict=True):
        for tile in resolved:
            use_joker = group.is_set and jokers < 8 and draw(st.booleans())
            jokers += use_joker
            tiles.append("J" if use_joker else nmjl_code(tile))
    counts = Counter(tiles)
    assume(all(n <= 4 for code, n in counts.items() if code not in ("F", "J")))
    return card, hand, draw(st.permutations(tiles)), jokers


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(made_hands())
def test_every_hand_built_by_the_cards_rules_is_recognised_in_any_order_rules_23_to_37_and_80_to_83(made):
    card, hand, tiles, jokers = made
    matches = {match.hand_id: match for match in match_hand(card, tiles)}
    assert hand.id in matches
    assert matches[hand.id].jokerless is (jokers == 0)
    assert matches[hand.id].value == hand.value


@pytest.mark.slow
@settings(max_examples=150, deadline=None, derandomize=True)
@given(made_hands(), st.data())
def test_a_joker_put_in_a_single_or_pair_breaks_the_hand_rule_81(made, data):
    card, hand, tiles, _jokers = made
    singles = [
        nmjl_code(tile)
        for group, resolved in zip(hand.groups, hand.variants[0].groups, strict=True)
        if not group.is_set
        for tile in resolved
    ]
    assume(singles and tiles.count("J") < 8)
    complete = {match.hand_id for match in match_hand(card, tiles)}
    assume(hand.id in complete)
    natural_in_single = [code for code in tiles if code != "J" and code in _single_codes(card, hand, tiles)]
    assume(natural_in_single)
    spoiled = list(tiles)
    spoiled[spoiled.index(data.draw(st.sampled_from(natural_in_single)))] = "J"
    assert hand.id not in {match.hand_id for match in match_hand(card, spoiled)}


def _single_codes(card, hand, tiles) -> set[str]:
    """Tiles that every reading of ``hand`` needs naturally in a single or pair, and in no set."""
    codes = None
    for variant in hand.variants:
        needed = {nmjl_code(t) for t in range(35) if variant.natural[t] and not variant.set_capacity[t]}
        codes = needed if codes is None else codes & needed
    return codes or set()


BOOK_QUINT_HAND = {
    "id": "book-quint",
    "pattern": "NNNNN DDDD 11111",
    "colours": "- r *",
    "numbers": "any_like",
    "winds": "any",
    "xc": "X",
    "value": 40,
    "note": "Quint Any Wind & Any No. In Any Suit, Kong Any Dragon",
}


def test_the_books_quint_example_takes_any_wind_any_dragon_and_any_number_in_any_suit_line_1185():
    card = load_card(card_data(**BOOK_QUINT_HAND))
    for text in (
        "4z*4 J 7z*4 1s*4 J",
        "1z*3 J*2 6z*3 J 9s*4 J",
        "2z*4 J 7z*4 5m*4 J",
        "3z*4 J 5z*2 J*2 3p*4 J",
    ):
        assert [match.hand_id for match in match_hand(card, tiles(text))] == ["book-quint"], text


def test_a_quint_is_of_one_tile_so_mixed_winds_do_not_make_it_line_1187():
    card = load_card(card_data(**BOOK_QUINT_HAND))
    assert match_hand(card, tiles("4z*3 1z J 7z*4 1s*4 J")) == []


def test_different_wind_letters_stand_for_different_winds_when_any_wind_is_allowed():
    data = card_data(pattern="NN SS 1111 2222 33", colours="- - g g g", winds="any", numbers="consecutive")
    data["families"][0]["hands"][0]["singles_and_pairs"] = False
    card = load_card(data)
    assert [m.hand_id for m in match_hand(card, tiles("3z*2 4z*2 5p*4 6p*2 J*2 7p*2"))] == ["t-1"]
    assert match_hand(card, tiles("1z*4 5p*4 6p*2 J*2 7p*2")) == []


def test_winds_any_needs_winds_in_the_pattern():
    with pytest.raises(HandInputError) as info:
        load_card(card_data(winds="any"))
    assert info.value.message.startswith("families[0].hands[0].winds:")


def test_the_books_369_example_needs_a_pair_of_the_dragon_of_the_third_suit_line_1304():
    data = card_data(pattern="3333 66 DD 66 9999", colours="g g r b b")
    card = load_card(data)
    assert [m.hand_id for m in match_hand(card, tiles("3m*4 6m*2 5z*2 6s*2 9s*3 J"))] == ["t-1"]
    assert match_hand(card, tiles("3m*4 6m*2 7z*2 6s*2 9s*3 J")) == []
    assert match_hand(card, tiles("3m*4 6m*2 5z J 6s*2 9s*4")) == []
