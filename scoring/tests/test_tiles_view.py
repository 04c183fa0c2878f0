"""The tile picker's fan breakdown endpoint: breakdowns, clear errors for bad hands, never a server error."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.rules.mcr.ruleset import MCRRuleSet
from scoring.views_tiles import breakdown

pytestmark = pytest.mark.django_db

PURE_STRAIGHT: dict[str, Any] = {
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "4p", "5p", "6p", "9s"],
    "melds": [],
    "win_tile": "9s",
    "self_drawn": False,
    "seat_wind": "S",
    "prevalent_wind": "E",
    "flowers": 0,
}


def hand(**changes: Any) -> dict[str, Any]:
    return {**PURE_STRAIGHT, **changes}


@pytest.fixture
def url(event):
    return reverse("referee:fan_breakdown", args=[event.slug])


@pytest.fixture
def ref_client(client, referee):
    client.force_login(referee)
    return client


def post(client, url: str, data: Any) -> Any:
    raw = data if isinstance(data, str) else json.dumps(data)
    return client.post(url, {"tiles": raw})


def test_it_gives_the_breakdown_of_a_pure_straight(ref_client, url):
    response = post(ref_client, url, PURE_STRAIGHT)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Pure Straight" in text
    assert "123m 456m 789m" in text  # the sets the fan uses
    assert "Concealed Hand" in text
    assert 'data-basic="22"' in text
    assert 'data-meets-minimum="true"' in text
    assert "Meets the 8-point minimum" in text


def test_flowers_count_in_the_fan_field_and_the_payments(ref_client, url):
    # Rule 66 and line 3225: the basic score is the fans plus one point per flower (the example at line
    # 4012 pays 18 for 8 fan points and two flowers); rule 24's minimum is counted without them.
    response = post(ref_client, url, hand(flowers=3))
    text = response.content.decode()
    assert 'data-basic="25"' in text
    assert 'data-total="25"' in text
    assert "Flower Tiles" in text
    assert "22 + 3 for flowers" in text
    assert "the discarder pays <strong>33</strong>" in text


def test_it_scores_declared_sets_and_the_flags(ref_client, url):
    data = hand(
        concealed=["1m", "2m", "3m", "4m", "5m", "6m", "9s"],
        melds=[
            {"type": "chow", "tiles": ["7m", "8m", "9m"]},
            {"type": "kong", "tiles": ["7z", "7z", "7z", "7z"], "concealed": True},
        ],
        self_drawn=True,
    )
    response = post(ref_client, url, data)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Pure Straight" in text
    assert "Concealed Kong" in text
    assert "Dragon Pung" in text
    assert "Self-Drawn" in text


def test_it_says_when_a_hand_is_below_the_minimum(ref_client, url):
    data = hand(
        concealed=["1m", "2m", "3m", "5p", "6p", "7p", "2s", "3s", "4s", "6s", "7s", "8s", "9p"],
        win_tile="9p",
    )
    response = post(ref_client, url, data)
    assert response.status_code == 200
    text = response.content.decode()
    assert 'data-meets-minimum="false"' in text
    assert "below the 8-point minimum" in text


BAD_HANDS = [
    pytest.param(
        hand(concealed=["1m", "1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1m"]),
        "fifth 1m",
        id="fifth-copy",
    ),
    pytest.param(hand(concealed=["1m", "2m", "3m", "4m"]), "wrong tile count", id="tile-count"),
    pytest.param(hand(win_tile="0m"), "unknown tile code '0m'", id="unknown-win-tile"),
    pytest.param(hand(concealed=[*PURE_STRAIGHT["concealed"][:-1], "9x"]), "unknown tile code", id="unknown"),
    pytest.param(
        hand(
            concealed=["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9s"],
            melds=[{"type": "chow", "tiles": ["1z", "2z", "3z"]}],
        ),
        "a chow cannot be made of honours",
        id="chow-of-honours",
    ),
    pytest.param(
        hand(
            concealed=["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9s"],
            melds=[{"type": "chow", "tiles": ["4p", "5p", "7p"]}],
        ),
        "a chow needs three consecutive tiles of one suit",
        id="chow-not-consecutive",
    ),
    pytest.param(
        hand(
            concealed=["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9s"],
            melds=[{"type": "kong", "tiles": ["4p", "4p", "4p"]}],
        ),
        "a kong has 4 tiles, not 3",
        id="kong-of-three",
    ),
    pytest.param(
        hand(concealed=[*PURE_STRAIGHT["concealed"][:-1], "1s", "1s"]),
        "the winning tile 9s is not in the hand",
        id="win-tile-not-in-hand",
    ),
    pytest.param(
        hand(concealed=["1m", "2m", "4m", "4m", "5m", "6m", "7m", "8m", "9m", "4p", "5p", "6p", "9s"]),
        "do not make a complete hand",
        id="incomplete",
    ),
    pytest.param({"win_tile": "9s"}, "missing field 'concealed'", id="no-concealed"),
    pytest.param(
        {"concealed": PURE_STRAIGHT["concealed"]},
        "missing field 'win_tile' (choose the winning tile)",
        id="no-win-tile",
    ),
    pytest.param(
        {"concealed": ["1m"] * 5},
        "fifth 1m",
        id="fifth-copy-before-the-winning-tile-is-chosen",
    ),
    pytest.param(hand(self_drawn="yes"), "'self_drawn' must be true or false", id="flag-not-bool"),
    pytest.param(hand(seat_wind="X"), "'seat_wind' must be one of E, S, W, N", id="bad-wind"),
    pytest.param(hand(flowers="two"), "flowers must be a whole number from 0 to 8", id="flowers-text"),
    pytest.param(hand(flowers=9), "flowers must be a whole number from 0 to 8", id="flowers-too-many"),
    pytest.param(hand(concealed="123m"), "concealed must be a list of tile codes", id="concealed-text"),
    pytest.param(hand(melds=[{"type": "triple", "tiles": []}]), "type must be chow, pung or kong", id="meld"),
    pytest.param(hand(colour="red"), "unknown field 'colour'", id="unknown-field"),
    pytest.param([1, 2, 3], "a hand must be a JSON object", id="not-an-object"),
    pytest.param("{not json", "not JSON", id="not-json"),
    pytest.param("", "No tiles yet", id="empty"),
    pytest.param("[" * 3000 + "]" * 3000, "too long", id="too-long"),
]


@pytest.mark.parametrize(("data", "message"), BAD_HANDS)
def test_it_says_what_is_wrong_with_a_bad_hand(ref_client, url, data, message):
    response = post(ref_client, url, data)
    assert response.status_code == 422
    text = response.content.decode()
    assert 'data-state="error"' in text
    assert message in text.replace("&#x27;", "'")


def test_it_refuses_a_deeply_nested_document_without_crashing():
    assert "not JSON" in breakdown("[" * 1500 + "]" * 1500, MCRRuleSet())["error"]


def test_it_is_for_referees_of_the_event(client, stranger, url):
    assert post(client, url, PURE_STRAIGHT).status_code == 302  # to the login page
    client.force_login(stranger)
    assert post(client, url, PURE_STRAIGHT).status_code == 403


def test_it_only_answers_posts(ref_client, url):
    assert ref_client.get(url).status_code == 405


def test_it_never_writes_anything(ref_client, url, table):
    post(ref_client, url, PURE_STRAIGHT)
    assert not table.hands.exists()


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-10, 100)
    | st.sampled_from(["1m", "9s", "7z", "0z", "E", "chow", "x"]),
    lambda children: (
        st.lists(children, max_size=15) | st.dictionaries(st.text(max_size=8), children, max_size=6)
    ),
    max_leaves=40,
)
FIELDS = st.sampled_from([*sorted(PURE_STRAIGHT), "type", "tiles", "concealed"])


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=JSON)
def test_random_json_never_breaks_it(ref_client, url, document):
    response = post(ref_client, url, document)
    assert response.status_code in (200, 422)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.dictionaries(FIELDS, JSON, min_size=1, max_size=3))
def test_a_valid_hand_with_random_fields_never_breaks_it(ref_client, url, changes):
    response = post(ref_client, url, hand(**changes))
    assert response.status_code in (200, 422)


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=200))
def test_random_text_gives_an_error_or_a_breakdown(text):
    context = breakdown(text, MCRRuleSet())
    assert "error" in context or "result" in context


def test_the_public_results_show_the_tiles_of_a_hand(client, event, table, referee):
    from scoring.services import entry

    entry.record_hand(
        table,
        entry.HandEntry(winner="E", discarder="S", fan=22, tiles=PURE_STRAIGHT),
        acting_user=referee,
    )
    response = client.get(reverse("public:results", args=[event.slug, 1]))
    text = response.content.decode()
    assert response.status_code == 200
    assert 'alt="Three of Characters"' in text
    assert 'alt="Nine of Bamboo"' in text
    assert "/static/tiles/9s.svg" in text
    assert "won on" in text


def test_the_table_page_offers_the_picker_with_the_next_hands_winds(ref_client, event):
    response = ref_client.get(reverse("referee:table", args=[event.slug, 1, 1]))
    text = response.content.decode()
    assert 'id="tile-picker"' in text
    assert reverse("referee:fan_breakdown", args=[event.slug]) in text
    assert 'data-prevalent="E"' in text
    assert 'data-wind-s="S"' in text
    assert "js/tile-picker.js" in text


def test_the_table_page_of_another_rule_set_has_no_picker(client, organiser):
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Card Open", slug="card-open", rules="nmjl", num_sessions=1),
        acting_user=organiser,
    )
    for name in ["Ana", "Bo", "Cy", "Di"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    client.force_login(organiser)
    response = client.get(reverse("referee:table", args=["card-open", 1, 1]))
    assert response.status_code == 200
    assert 'id="tile-picker"' not in response.content.decode()


def test_the_picker_renders_without_the_table_context(event):
    from django.template.loader import render_to_string

    html = render_to_string("scoring/referee/_tile_picker.html", {"tournament": event})
    assert 'id="tile-picker"' in html
    assert 'data-prevalent=""' in html
