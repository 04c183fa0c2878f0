"""Properties every hand and settlement keeps, checked on generated hands with hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.rules.classical.api import RULE_SETS, score_request
from scoring.rules.classical.settlement import settle
from scoring.rules.errors import HandInputError
from scoring.rules.tiles import tile_code

SEATS = ("E", "S", "W", "N")


@st.composite
def winning_hands(draw):
    sets = []
    counts = [0] * 34
    for _ in range(4):
        kind = draw(st.sampled_from(("chow", "pung", "kong")))
        if kind == "chow":
            suit = draw(st.integers(0, 2))
            start = suit * 9 + draw(st.integers(0, 6))
            tiles = [start, start + 1, start + 2]
        else:
            tile = draw(st.integers(0, 33))
            tiles = [tile] * (3 if kind == "pung" else 4)
        sets.append((kind, tiles))
        for tile in tiles:
            counts[tile] += 1
    pair = draw(st.integers(0, 33))
    counts[pair] += 2
    assume(max(counts) <= 4)
    exposed = draw(st.lists(st.booleans(), min_size=4, max_size=4))
    melds, concealed = [], [pair, pair]
    for (kind, tiles), shown in zip(sets, exposed, strict=True):
        if kind == "kong":
            melds.append({"type": "kong", "tiles": [tile_code(t) for t in tiles], "concealed": not shown})
        elif shown:
            melds.append({"type": kind, "tiles": [tile_code(t) for t in tiles]})
        else:
            concealed.extend(tiles)
    win = draw(st.sampled_from(concealed))
    concealed.remove(win)
    drawn = draw(st.booleans())
    has_kong = any(kind == "kong" for kind, _ in sets)
    return {
        "concealed": [tile_code(t) for t in draw(st.permutations(concealed))],
        "melds": melds,
        "win_tile": tile_code(win),
        "self_drawn": drawn,
        "kong_related": has_kong and drawn and draw(st.booleans()),
        "last_wall_tile": drawn and draw(st.booleans()),
        "seat_wind": draw(st.sampled_from(SEATS)),
        "prevalent_wind": draw(st.sampled_from(SEATS)),
    }


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(hand=winning_hands(), rules=st.sampled_from(RULE_SETS))
def test_every_complete_hand_scores_within_the_limit(hand, rules):
    result = score_request(hand, rules)
    assert 0 < result["total"] <= 300
    uncapped = result["points"] * 2 ** result["doubles"]
    if not any(item.startswith("Limit hand") for item in result["items"]):
        assert result["total"] == min(uncapped, 300)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(hand=winning_hands(), rules=st.sampled_from(RULE_SETS))
def test_a_winning_hand_scores_at_least_the_game_and_the_order_of_tiles_does_not_matter(hand, rules):
    result = score_request(hand, rules)
    assert result["points"] >= (20 if rules != "chinese-1920s" else 10)
    reversed_hand = hand | {"concealed": list(reversed(hand["concealed"]))}
    assert score_request(reversed_hand, rules) == result


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(
    tiles=st.lists(st.integers(0, 33), min_size=13, max_size=13),
    rules=st.sampled_from(RULE_SETS),
    seat=st.sampled_from(SEATS),
)
def test_any_thirteen_tiles_score_as_a_losing_hand_or_give_a_clear_error(tiles, rules, seat):
    data = {"concealed": [tile_code(t) for t in tiles], "winner": False, "seat_wind": seat}
    try:
        result = score_request(data, rules)
    except HandInputError as error:
        assert error.code == "fifth_copy"
        return
    assert 0 <= result["total"] <= 300


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    scores=st.lists(st.integers(0, 2000), min_size=4, max_size=4),
    winner=st.sampled_from((*SEATS, None)),
    east=st.sampled_from(SEATS),
    round_to=st.sampled_from((1, 10)),
)
def test_each_settlement_sums_to_zero_and_the_winner_never_pays(scores, winner, east, round_to):
    result = settle(
        dict(zip(SEATS, scores, strict=True)), winner, east, "babcock", options={"round_to": round_to}
    )
    assert sum(result.values()) == 0
    if winner is not None:
        assert result[winner] >= 0
        if round_to == 1:
            assert result[winner] >= 3 * scores[SEATS.index(winner)]
