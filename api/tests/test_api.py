"""The public read API (docs/api.md): every answer against the OpenAPI schema, the standings against the
``standings`` command, the pages' visibility rules, conditional GET, read-only CORS and the rate limit."""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import jsonschema
import pytest
from django.core.management import call_command
from django.test import override_settings

from api.docs import api_schema
from scoring.services.confirmation import confirm_table
from scoring.services.entry import HandEntry, record_hand
from tournaments.release import publish_event, publish_session

REF = "#/components/schemas/"


def _json_schema(spec: Any) -> Any:
    """OpenAPI 3.0's schema dialect as JSON Schema: ``nullable`` becomes a null type, refs point at $defs."""
    if isinstance(spec, list):
        return [_json_schema(item) for item in spec]
    if not isinstance(spec, dict):
        return spec
    spec = {key: _json_schema(value) for key, value in spec.items()}
    if "$ref" in spec:
        spec["$ref"] = "#/$defs/" + spec["$ref"].removeprefix(REF)
    if spec.pop("nullable", False):
        if "type" in spec:
            spec["type"] = [spec["type"], "null"]
        if "enum" in spec and None not in spec["enum"]:
            spec["enum"] = [*spec["enum"], None]
        if "allOf" in spec or "$ref" in spec:
            spec = {"anyOf": [spec, {"type": "null"}]}
    return spec


def answer_schema(template: str, status: int) -> dict[str, Any]:
    """The schema of ``template``'s answer with ``status`` (the OpenAPI path, e.g. /api/v1/events/{slug}/)."""
    schema = api_schema()
    body = schema["paths"][template]["get"]["responses"][str(status)]["content"]["application/json"]["schema"]
    components = copy.deepcopy(schema["components"]["schemas"])
    return {**_json_schema(body), "$defs": _json_schema(components)}


def read(client, address: str, template: str, status: int = 200, **headers) -> Any:
    """GET ``address``, check the status and validate the body against the schema of that answer."""
    response = client.get(address, headers=headers)
    assert response.status_code == status, (address, response.status_code, response.content[:300])
    body = response.json()
    jsonschema.validate(body, answer_schema(template, status))
    return body


def hands(table, referee, count: int = 4) -> None:
    for _ in range(count):
        record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)


@pytest.fixture
def played(event, referee, organiser):
    """The test event with table 1 of session 1 played and confirmed, table 2 played and not confirmed."""
    tables = list(event.rounds.get(number=1).tables.order_by("number"))
    hands(tables[0], referee)
    confirm_table(tables[0], acting_user=organiser)
    hands(tables[1], referee, count=2)
    return event


def test_every_answer_matches_the_schema(client, played):
    index = read(client, "/api/v1/", "/api/v1/")
    assert index["events"] == "/api/v1/events/"
    events = read(client, "/api/v1/events/", "/api/v1/events/")
    assert [e["slug"] for e in events] == ["test-open"]
    base = "/api/v1/events/test-open/"
    detail = read(client, base, "/api/v1/events/{slug}/")
    assert detail["sessions"][0] == {"number": 1, "seating_published": True, "results_published": True}
    sessions = read(client, base + "sessions/", "/api/v1/events/{slug}/sessions/")
    assert [s["number"] for s in sessions] == [1, 2]
    players = read(client, base + "players/", "/api/v1/events/{slug}/players/")
    assert len(players) == 8
    assert {p["team"] for p in players} == {"T0", "T1", "T2", "T3"}
    assert all(
        set(p) == {"code", "name", "country", "team", "substitute"} for p in players
    )  # no PIN, no email
    seating = read(client, base + "sessions/1/seating/", "/api/v1/events/{slug}/sessions/{number}/seating/")
    assert [len(t["seats"]) for t in seating["tables"]] == [4, 4]
    assert [s["wind"] for s in seating["tables"][0]["seats"]] == ["E", "S", "W", "N"]
    results = read(client, base + "sessions/1/results/", "/api/v1/events/{slug}/sessions/{number}/results/")
    # Only the confirmed table: the unconfirmed one is on the live page, never in the API.
    assert [t["table"] for t in results["tables"]] == [1]
    east = results["tables"][0]["seats"][0]
    assert east["wind"] == "E" and east["score"] > 0 and east["table_points"] == 4.0
    standings = read(client, base + "standings/", "/api/v1/events/{slug}/standings/")
    assert len(standings) == 4  # the four players of the confirmed table
    assert standings[0]["player"] == east["player"]


def test_the_players_are_those_the_pages_show(client, played, organiser):
    """No withdrawn player, no reserve who never played (as "find a player"); a reserve seated is listed."""
    from tournaments.desk import set_withdrawn
    from tournaments.models import Registration
    from tournaments.services.registrations import PlayerRow, register_player

    register_player(played, PlayerRow(name="Ivy", country="PT"), acting_user=organiser)
    Registration.objects.filter(tournament=played, player__name="Ivy").update(is_substitute=True)
    seated = Registration.objects.get(tournament=played, player__name="Bo")
    Registration.objects.filter(pk=seated.pk).update(is_substitute=True)  # a reserve seated to fill a table
    set_withdrawn(Registration.objects.get(tournament=played, player__name="Cy"), True, acting_user=organiser)
    players = read(client, "/api/v1/events/test-open/players/", "/api/v1/events/{slug}/players/")
    names = [p["name"] for p in players]
    assert names == ["Ana", "Bo", "Di", "Ed", "Flo", "Gus", "Hu"]
    assert players[1]["substitute"] is True


def test_the_standings_are_the_standings_commands_rows(client, demo_event):
    out = io.StringIO()
    call_command("standings", demo_event.slug, "--format", "json", stdout=out)
    command = json.loads(out.getvalue())
    assert command  # the demo event has confirmed results
    api = read(client, f"/api/v1/events/{demo_event.slug}/standings/", "/api/v1/events/{slug}/standings/")
    assert api == command
    # ...also when answered from the public read path's store.
    assert client.get(f"/api/v1/events/{demo_event.slug}/standings/").json() == command


def test_the_demo_event_answers_match_the_schema(client, demo_event):
    base = f"/api/v1/events/{demo_event.slug}/"
    for number in (1, 2, 3):
        results = read(
            client, f"{base}sessions/{number}/results/", "/api/v1/events/{slug}/sessions/{number}/results/"
        )
        assert len(results["tables"]) == (4 if number < 3 else 0)  # session 3 is not played yet
        read(client, f"{base}sessions/{number}/seating/", "/api/v1/events/{slug}/sessions/{number}/seating/")
    read(client, base + "players/", "/api/v1/events/{slug}/players/")


ADDRESSES = [
    ("", "/api/v1/events/{slug}/"),
    ("sessions/", "/api/v1/events/{slug}/sessions/"),
    ("players/", "/api/v1/events/{slug}/players/"),
    ("standings/", "/api/v1/events/{slug}/standings/"),
    ("sessions/1/seating/", "/api/v1/events/{slug}/sessions/{number}/seating/"),
    ("sessions/1/results/", "/api/v1/events/{slug}/sessions/{number}/results/"),
]


def test_a_draft_event_is_invisible_like_its_pages(client, played, organiser):
    for tail, template in ADDRESSES:
        read(client, f"/api/v1/events/test-open/{tail}", template)  # stored by the read path
    publish_event(played, False, acting_user=organiser)
    for tail, template in ADDRESSES:
        draft = read(client, f"/api/v1/events/test-open/{tail}", template, 404)
        missing = read(client, f"/api/v1/events/no-such-event/{tail}", template, 404)
        assert draft == missing  # a draft is not told apart from an event that does not exist
    assert client.get("/e/test-open/").status_code == 404  # as the page
    assert read(client, "/api/v1/events/", "/api/v1/events/") == []


def test_an_unpublished_session_is_invisible(client, played, organiser):
    round_ = played.rounds.get(number=1)
    base = "/api/v1/events/test-open/sessions/1/"
    read(client, base + "results/", "/api/v1/events/{slug}/sessions/{number}/results/")
    publish_session(round_, "results", False, acting_user=organiser)
    read(client, base + "results/", "/api/v1/events/{slug}/sessions/{number}/results/", 404)
    assert client.get("/e/test-open/results/1/").status_code == 404  # as the page
    read(client, base + "seating/", "/api/v1/events/{slug}/sessions/{number}/seating/")
    publish_session(round_, "seating", False, acting_user=organiser)
    read(client, base + "seating/", "/api/v1/events/{slug}/sessions/{number}/seating/", 404)
    # Session 2 is published but not played: no table to show; a session that does not exist is 404.
    read(
        client,
        "/api/v1/events/test-open/sessions/2/results/",
        "/api/v1/events/{slug}/sessions/{number}/results/",
        200,
    )
    read(
        client,
        "/api/v1/events/test-open/sessions/9/seating/",
        "/api/v1/events/{slug}/sessions/{number}/seating/",
        404,
    )
    detail = read(client, "/api/v1/events/test-open/", "/api/v1/events/{slug}/")
    assert detail["sessions"][0] == {"number": 1, "seating_published": False, "results_published": False}


def test_an_answer_is_never_staler_than_the_page(client, played, referee, organiser):
    """A stored answer is keyed on the public version: a confirmation shows at the next read."""
    address = "/api/v1/events/test-open/standings/"
    assert len(client.get(address).json()) == 4
    assert len(client.get(address).json()) == 4  # from the store
    table = played.rounds.get(number=1).tables.get(number=2)
    hands(table, referee, count=2)
    confirm_table(table, acting_user=organiser)
    assert len(client.get(address).json()) == 8
    results = client.get("/api/v1/events/test-open/sessions/1/results/").json()
    assert [t["table"] for t in results["tables"]] == [1, 2]


@pytest.mark.parametrize(
    "address",
    [
        "/api/v1/events/test-open/",
        "/api/v1/events/test-open/players/",
        "/api/v1/events/test-open/standings/",
        "/api/v1/events/test-open/sessions/1/seating/",
        "/api/v1/events/test-open/sessions/1/results/",
    ],
)
def test_a_stored_answer_costs_one_query_as_a_page(client, played, address, django_assert_num_queries):
    """The public read path answers a repeated read from its store: one query (the event's versions)."""
    first = client.get(address)
    with django_assert_num_queries(1):
        again = client.get(address)
    assert again.status_code == 200
    assert again.content == first.content
    assert again["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("address", ["/api/v1/events/test-open/standings/", "/api/v1/events/"])
def test_a_matching_etag_answers_304(client, played, address):
    first = client.get(address)
    etag = first["ETag"]
    assert etag
    again = client.get(address, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again["Access-Control-Allow-Origin"] == "*"
    assert client.get(address, headers={"If-None-Match": '"other"'}).status_code == 200


def test_cors_is_read_only(client, played):
    for address in ("/api/v1/events/test-open/standings/", "/api/v1/events/", "/api/v1/schema/"):
        response = client.get(address, headers={"Origin": "https://results.example"})
        assert response.status_code == 200
        assert response["Access-Control-Allow-Origin"] == "*"
        assert "Access-Control-Allow-Credentials" not in response
        assert client.head(address)["Access-Control-Allow-Origin"] == "*"
        posted = client.post(address, {"x": "1"}, headers={"Origin": "https://results.example"})
        assert posted.status_code == 405
        assert "Access-Control-Allow-Origin" not in posted
    # The pages are not offered to other sites.
    assert "Access-Control-Allow-Origin" not in client.get("/e/test-open/standings/")


@override_settings(API_RATE="3/min")
def test_anonymous_clients_are_rate_limited(client, played):
    address = "/api/v1/events/test-open/standings/"
    for _ in range(3):
        assert client.get(address).status_code == 200  # rendered once, then from the store: all counted
    refused = read(client, address, "/api/v1/events/{slug}/standings/", 429)
    assert refused["retry_after"] >= 1
    assert "Too many requests" in refused["detail"]
    limited = client.get(address)
    assert int(limited["Retry-After"]) >= 1
    assert limited["Access-Control-Allow-Origin"] == "*"  # a page script can read why
    # Another client is not limited by the first; the pages are not limited by the API's rate.
    assert client.get(address, REMOTE_ADDR="10.0.0.9").status_code == 200
    assert client.get("/e/test-open/standings/").status_code == 200


def test_the_schema_and_its_page(client, played):
    schema = client.get("/api/v1/schema/")
    assert schema.status_code == 200
    assert schema.json()["openapi"].startswith("3.")
    assert set(schema.json()["paths"]) == set(api_schema()["paths"])
    page = client.get("/api/v1/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "/api/v1/events/{slug}/standings/" in html
    assert 'id="schema-Standing"' in html
    assert "<script>" not in html and "cdn" not in html.lower()  # our own origin only (CSP)


def test_a_confirmed_tables_results_list_its_hands_as_the_results_page(client, played):
    results = client.get("/api/v1/events/test-open/sessions/1/results/").json()
    table = results["tables"][0]
    hands = table["hands"]
    assert [h["number"] for h in hands] == list(range(1, len(hands) + 1)) and hands
    # Each hand the rule set's words and points: a discard win at 8 (MCR rule 67: the discarder pays
    # 8 + 8, the other two 8 each), so every hand sums to nought and the totals run on.
    first = hands[0]
    assert first["points"] == {"E": 32, "S": -16, "W": -8, "N": -8}
    assert all(sum(h["points"].values()) == 0 for h in hands)
    assert hands[-1]["totals"] == {
        seat["wind"]: seat["score"] for seat in table["seats"]
    }  # no penalty here: the seats' scores are the hands' totals
    assert first["description"] and first["fans"] == []  # entered without tiles: no fans to list
