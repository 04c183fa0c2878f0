"""Properties of the MCR calculator over generated hands (hypothesis).

Book: ``shared/seeds/003_2541481d343502a5.txt``. Rule 64a (line 2295): an implied fan is never scored
with the fan that implies it; rule 95 item c: nor a fan with one it "may not combine with". Rule 24
(line 2179): the minimum is 8 points without flowers. The order in which tiles are written never
matters.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.errors import HandInputError
from scoring.rules.mcr.calculator import MCR_FANS, calculate, score_request
from scoring.rules.mcr.decompose import (
    KNITTED_STRAIGHTS,
    TERMINALS_AND_HONOURS,
    completing_tiles,
    is_complete,
)
from scoring.rules.mcr.fan_table import EXCLUSIONS, FAN_POINTS
from scoring.rules.tiles import TILE_CODES, WINDS, parse_hand

SETS = [("chow", t) for t in range(27) if t % 9 < 7] + [("pung", t) for t in range(34)]


@st.composite
def regular_hands(draw: st.DrawFn) -> dict[str, Any]:
    """A complete four-sets-and-a-pair hand with some sets declared (kongs too) and random flags."""
    counts = [0] * 34
    sets: list[tuple[str, list[int]]] = []
    while len(sets) < 4:
        kind, tile = draw(st.sampled_from(SETS))
        tiles = [tile, tile + 1, tile + 2] if kind == "chow" else [tile] * 3
        if all(counts[t] + tiles.count(t) <= 4 for t in tiles):
            for t in tiles:
                counts[t] += 1
            sets.append((kind, tiles))
    pair = draw(st.sampled_from([t for t in range(34) if counts[t] <= 2]))
    concealed = [pair, pair]
    melds: list[dict[str, Any]] = []
    for kind, tiles in sets:
        how = draw(st.sampled_from(["concealed", "concealed", "melded", "kong"]))
        if how == "kong" and kind == "pung" and counts[tiles[0]] == 3:
            counts[tiles[0]] += 1
            melds.append(
                {"type": "kong", "tiles": [TILE_CODES[tiles[0]]] * 4, "concealed": draw(st.booleans())}
            )
        elif how == "melded":
            melds.append({"type": kind, "tiles": [TILE_CODES[t] for t in tiles]})
        else:
            concealed.extend(tiles)
    win = draw(st.sampled_from(concealed))
    concealed.remove(win)
    return _with_flags(draw, concealed, win, melds)


@st.composite
def special_hands(draw: st.DrawFn) -> dict[str, Any]:
    """Seven pairs, thirteen orphans, or honours and knitted tiles."""
    shape = draw(st.sampled_from(["pairs", "orphans", "knitted"]))
    if shape == "pairs":
        tiles = [
            t for t in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True)) for _ in (0, 1)
        ]
    elif shape == "orphans":
        tiles = [*TERMINALS_AND_HONOURS, draw(st.sampled_from(TERMINALS_AND_HONOURS))]
    else:
        _runs, knitted = draw(st.sampled_from(KNITTED_STRAIGHTS))
        honours = draw(st.integers(5, 7))
        rng = random.Random(draw(st.integers(0, 10**6)))
        tiles = rng.sample(knitted, 14 - honours) + rng.sample(range(27, 34), honours)
    win = draw(st.sampled_from(tiles))
    tiles.remove(win)
    return _with_flags(draw, tiles, win, [])


def _with_flags(
    draw: st.DrawFn, concealed: list[int], win: int, melds: list[dict[str, Any]]
) -> dict[str, Any]:
    self_drawn = draw(st.booleans())
    has_kong = any(m["type"] == "kong" for m in melds)
    robbing_possible = (
        not self_drawn and concealed.count(win) == 0 and all(TILE_CODES[win] not in m["tiles"] for m in melds)
    )
    kong_related = draw(st.booleans()) and ((self_drawn and has_kong) or robbing_possible)
    return {
        "concealed": [TILE_CODES[t] for t in concealed],
        "melds": melds,
        "win_tile": TILE_CODES[win],
        "self_drawn": self_drawn,
        "last_of_kind": draw(st.booleans()),
        "kong_related": kong_related,
        "last_wall_tile": draw(st.booleans()),
        "seat_wind": draw(st.sampled_from(WINDS)),
        "prevalent_wind": draw(st.sampled_from(WINDS)),
        "flowers": draw(st.integers(0, 8)),
    }


hands = st.one_of(regular_hands(), special_hands())


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(hands, st.randoms(use_true_random=False))
def test_the_same_tiles_in_any_order_score_the_same(data: dict[str, Any], rng: random.Random) -> None:
    """Tiles are a set of tiles: the order they are written in (concealed, melds) changes nothing."""
    shuffled = dict(data)
    shuffled["concealed"] = rng.sample(data["concealed"], len(data["concealed"]))
    melds = [dict(m, tiles=rng.sample(m["tiles"], len(m["tiles"]))) for m in data["melds"]]
    shuffled["melds"] = rng.sample(melds, len(melds))
    assert score_request(shuffled) == score_request(data)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(hands)
def test_a_hand_never_scores_a_fan_with_one_the_book_says_it_implies_or_excludes(
    data: dict[str, Any],
) -> None:
    """Rule 64a (line 2295) and rule 95 item c: no scored fan is one a scored fan excludes."""
    scored = score_request(data)["fans"]
    for name in scored:
        assert not (EXCLUSIONS.get(name, frozenset()) & scored.keys()), (name, scored)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(hands)
def test_the_total_is_the_sum_of_book_fans_and_the_minimum_ignores_flowers(data: dict[str, Any]) -> None:
    """Rule 95 values (lines 2417-2860); rule 24 (line 2179): 8 points or more without flowers."""
    answer = score_request(data)
    names = {name for name, _points in MCR_FANS}
    assert set(answer["fans"]) <= names
    for name, points in answer["fans"].items():
        assert points > 0 and points % FAN_POINTS[name] == 0
    assert answer["total"] == sum(answer["fans"].values())
    flowers = answer["fans"].get("Flower Tiles", 0)
    assert flowers == data["flowers"]
    assert answer["meets_minimum"] == (answer["total"] - flowers >= 8)
    assert calculate(parse_hand(data)).as_json() == answer
    if "Chicken Hand" in answer["fans"]:  # line 2662: nothing else, not even 1 point
        assert set(answer["fans"]) - {"Flower Tiles"} == {"Chicken Hand"}


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(regular_hands())
def test_a_self_drawn_win_never_scores_less_than_the_same_hand_won_by_discard(data: dict[str, Any]) -> None:
    """Self-Drawn (line 2855) or Fully Concealed Hand (line 2731) replace Concealed Hand (line 2763);
    a pung completed by a discard is no longer concealed (line 2609): self-drawing never loses, except
    against Melded Hand (line 2717, four melds won by discard) and Chicken Hand (line 2662)."""
    plain = {**data, "kong_related": False, "last_wall_tile": False}
    by_discard = score_request({**plain, "self_drawn": False})
    drawn = score_request({**plain, "self_drawn": True})
    if not {"Melded Hand", "Chicken Hand"} & by_discard["fans"].keys():
        assert drawn["total"] >= by_discard["total"]


@st.composite
def thirteen_tiles(draw: st.DrawFn) -> tuple[list[int], int]:
    """Thirteen concealed tiles less three per declared set (0-2 sets), four copies at most."""
    melds = draw(st.integers(0, 2))
    counts = [0] * 34
    pool = [t for t in range(34) for _ in range(4)]
    near = draw(st.booleans())  # bias towards near-complete hands: tiles from one or two suits
    if near:
        suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
        pool = [t for t in pool if min(t // 9, 3) in suits]
    for tile in draw(st.permutations(pool))[: 13 - 3 * melds]:
        counts[tile] += 1
    return counts, melds


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(thirteen_tiles())
def test_the_fast_wait_finder_agrees_with_testing_every_tile(case: tuple[list[int], int]) -> None:
    """The waits behind Edge, Closed and Single Wait (lines 2840-2853): the suit-by-suit search finds
    exactly the tiles that make a complete hand of rule 23 (line 2172)."""
    counts, melds = case
    slow = []
    for tile in range(34):
        if counts[tile] < 4:
            counts[tile] += 1
            if is_complete(counts, melds):
                slow.append(tile)
            counts[tile] -= 1
    assert completing_tiles(list(counts), melds, counts) == slow


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.floats(allow_nan=False)
    | st.sampled_from(TILE_CODES)
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=15)
        | st.dictionaries(st.sampled_from(["type", "tiles", "concealed"]), inner, max_size=3)
    ),
    max_leaves=30,
)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    hands,
    st.dictionaries(
        st.sampled_from(
            ["concealed", "melds", "win_tile", "self_drawn", "flowers", "seat_wind", "kong_related"]
        ),
        json_values,
        max_size=3,
    ),
)
def test_any_json_input_scores_or_gives_a_hand_input_error(
    data: dict[str, Any], changes: dict[str, Any]
) -> None:
    """shared/specs/scoring-json.md: bad input is an error naming what is wrong, never a crash."""
    try:
        answer = score_request({**data, **changes})
    except HandInputError as error:
        assert error.message and error.code
    else:
        assert set(answer) == {"total", "fans", "meets_minimum"}
