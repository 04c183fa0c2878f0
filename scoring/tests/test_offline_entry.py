"""Entry that survives the Wi-Fi (server side): a hand kept on the referee's phone while the connection was
gone is posted again with its token, perhaps several times (static/js/offline-entry.js); it is stored once
and each replay is answered as a success. A hand queued against a table changed meanwhile is refused, saying
why (scoring/services/entry.py). The service worker and the manifest make the referee pages installable."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from scoring.models import EntryToken, Hand, LateArrival
from scoring.services import entry
from scoring.services.entry_tokens import AlreadyStored
from tournaments.errors import ServiceError

HTMX = {"HTTP_HX_REQUEST": "true"}


def table_url(table):
    return reverse("referee:table", args=[table.round.tournament.slug, table.round.number, table.number])


def hand(number: int, token: str, **changes: str) -> dict[str, str]:
    data = {
        "how": "discard",
        "winner": "E",
        "discarder": "W",
        "fan": "12",
        "expected_number": str(number),
        "entry_token": token,
    }
    return {**data, **changes}


def stored(table) -> list[int]:
    return sorted(Hand.objects.in_force().filter(table=table).values_list("number", flat=True))


def test_the_table_page_gives_each_hand_a_token(client, table, referee):
    client.force_login(referee)
    page = client.get(table_url(table)).content.decode()
    assert 'name="entry_token"' in page
    again = client.get(table_url(table)).content.decode()
    token = page.split('name="entry_token" value="')[1].split('"')[0]
    assert uuid.UUID(token) and token not in again  # a fresh one each time the form is made


@pytest.mark.parametrize("headers", [HTMX, {}], ids=["htmx", "without-javascript"])
def test_a_replayed_post_with_the_same_token_is_stored_once_and_answers_success(
    client, table, referee, headers
):
    client.force_login(referee)
    url = table_url(table) + "hands/add/"
    first, second = str(uuid.uuid4()), str(uuid.uuid4())
    client.post(url, hand(1, first))
    client.post(url, hand(2, second), **headers)
    for _ in range(3):  # the phone's queue sent again: the answer was lost each time
        replay = client.post(url, hand(1, first), follow=True, **headers)
        assert replay.status_code == 200  # a success (a refusal is a 422)
        assert "Hand 1 was already saved; nothing was added again." in replay.content.decode()
    assert stored(table) == [1, 2]
    assert EntryToken.objects.filter(table=table).count() == 2


def test_a_stale_queued_hand_is_refused_saying_the_table_changed(client, table, referee):
    client.force_login(referee)
    url = table_url(table) + "hands/add/"
    for number in (1, 2):
        client.post(url, hand(number, str(uuid.uuid4())))
    # Another referee deleted hand 2 while this phone kept hand 3 offline.
    entry.void_last_hand(table, acting_user=referee, expected_last=2)
    response = client.post(url, hand(3, str(uuid.uuid4())), **HTMX)
    assert response.status_code == 422
    part = response.content.decode()
    assert "The table changed while this hand waited: hand 2 is next, not 3; nothing was added." in part
    assert stored(table) == [1]


def test_the_service_stores_a_token_once(table, referee):
    token = uuid.uuid4()
    made = entry.record_hand(
        table, entry.HandEntry(winner=None), acting_user=referee, expected_number=1, token=token
    )
    with pytest.raises(AlreadyStored) as replay:
        entry.record_hand(
            table, entry.HandEntry(winner=None), acting_user=referee, expected_number=1, token=token
        )
    assert replay.value.number == made.number == 1 and replay.value.kind == "hand"
    # The repeated post without a token is still refused, as before.
    with pytest.raises(ServiceError) as repeated:
        entry.record_hand(table, entry.HandEntry(winner=None), acting_user=referee, expected_number=1)
    assert repeated.value.code == "already_entered"
    assert stored(table) == [1]


def test_the_referee_pages_are_installable(client, table, referee):
    client.force_login(referee)
    page = client.get(table_url(table)).content.decode()
    assert 'rel="manifest"' in page and "offline-entry.js" in page
    worker = client.get(reverse("referee:service_worker"))
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Service-Worker-Allowed"] == "/referee/"
    assert "caches" in worker.content.decode()
    manifest = client.get(reverse("referee:manifest"))
    assert manifest["Content-Type"].startswith("application/manifest+json")
    assert manifest.json()["scope"] == "/referee/"


REPLAY = {"HTTP_X_ENTRY_REPLAY": "1"}


def test_a_replay_from_the_phones_queue_is_answered_204_and_a_refusal_422(client, table, referee):
    client.force_login(referee)
    url = table_url(table) + "hands/add/"
    token = str(uuid.uuid4())
    assert client.post(url, hand(1, token), **REPLAY).status_code == 204
    assert client.post(url, hand(1, token), **REPLAY).status_code == 204  # the answer was lost: again
    # The page the phone loads next says what was stored.
    page = client.get(table_url(table)).content.decode()
    assert "Hand 1 was already saved; nothing was added again." in page
    refused = client.post(url, hand(3, str(uuid.uuid4())), **REPLAY)
    assert refused.status_code == 422
    assert "The table changed while this hand waited" in refused.content.decode()
    assert stored(table) == [1]


def test_penalties_and_lateness_replayed_are_stored_once(client, table, referee):
    client.force_login(referee)
    url = table_url(table)
    east = str(table.seats.get(wind="E").registration.code)
    penalty = {
        "player": east,
        "kind": "other",
        "points": "10",
        "paid_to": "each_other",
        "rule": "MCR 85",
        "reason": "x",
        "expected_position": "0",
        "entry_token": str(uuid.uuid4()),
    }
    late = {"player": east, "minutes": "7", "entry_token": str(uuid.uuid4())}
    for _ in range(3):
        assert client.post(url + "penalties/add/", penalty, **REPLAY).status_code == 204
        assert client.post(url + "late/", late, **REPLAY).status_code == 204
    assert table.penalties.count() == 1
    assert LateArrival.objects.filter(table=table).count() == 1
    assert EntryToken.objects.filter(table=table, kind="penalty").count() == 1
    assert EntryToken.objects.filter(table=table, kind="late").count() == 1


def test_totals_replayed_are_stored_once(table, referee, organiser):
    from tournaments.services.events import set_totals_only

    set_totals_only(table, True, acting_user=organiser)
    totals, token = {"E": 30, "S": -10, "W": -10, "N": -10}, uuid.uuid4()
    entry.record_totals(table, totals, acting_user=referee, expected_version=0, token=token)
    with pytest.raises(AlreadyStored) as replay:
        entry.record_totals(table, totals, acting_user=referee, expected_version=0, token=token)
    assert replay.value.kind == "totals"
    assert table.totals_versions.count() == 1


def test_my_tables_registers_the_service_worker_too(client, table, referee):
    """A referee who opens My tables first gets the pages kept for no network (static/js/offline-entry.js
    registers the worker named by the manifest link)."""
    client.force_login(referee)
    page = client.get(reverse("referee:my_tables")).content.decode()
    assert 'rel="manifest"' in page and "offline-entry.js" in page
    assert f'data-worker="{reverse("referee:service_worker")}"' in page


def test_the_table_page_gives_the_phone_the_winds_and_points_ahead(client, table, referee):
    """Hands kept on the phone are shown as if sent with the rule set's own winds and points (MCR rule 67,
    seeds/003 line 2306; rules 74-75, lines 2331-2339), looked up, not scored, by the page."""
    import json

    client.force_login(referee)
    url = table_url(table) + "hands/add/"
    client.post(url, hand(1, str(uuid.uuid4())))
    page = client.get(table_url(table)).content.decode()
    data = json.loads(page.split('id="offline-ahead" type="application/json">')[1].split("</script>")[0])
    assert data["first"] == 2
    assert data["winds"][0] == "E:NESW"  # hand 2: the deal passed to South, East round
    assert data["winds"][3] == "S:SENW"  # hand 5: the South round (rule 75 moves the players)
    assert data["points"]["keys"] == ["how", "winner", "discarder"]
    base, per = data["points"]["shapes"]["discard:E:W"]
    assert {seat: base[seat] + 12 * per[seat] for seat in base} == {"E": 36, "S": -8, "W": -20, "N": -8}
    assert data["points"]["shapes"]["draw"][0] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert 'data-next="2"' in page


def test_finishing_and_deleting_a_hand_say_they_need_the_connection(client, table, referee):
    """Not kept on the phone (they change no result the queue could replay in order): offline the page
    says so on them (static/js/offline-entry.js, forms marked data-online-only)."""
    client.force_login(referee)
    client.post(table_url(table) + "hands/add/", hand(1, str(uuid.uuid4())))
    page = client.get(table_url(table)).content.decode()
    assert page.count('data-online-only="This needs the connection."') == 2  # finish, delete last hand


def test_confirming_and_signing_say_they_need_the_connection(client, table, referee):
    """A complete table's confirmation and PIN signing are never kept on the phone: offline the page says
    "Signing needs the connection" on them (static/js/offline-entry.js)."""
    client.force_login(referee)
    client.post(table_url(table) + "hands/add/", hand(1, str(uuid.uuid4())))
    entry.set_table_finished(table, True, acting_user=referee)
    page = client.get(table_url(table)).content.decode()
    assert 'id="confirm-form" data-online-only="Confirming needs the connection."' in page
    assert 'id="sign-form" data-online-only="Signing needs the connection."' in page
    assert "data-offline" not in page.split('id="sign-form"')[1].split("</form>")[0]


def test_an_nmjl_table_page_gives_the_phone_its_points_and_its_cards_values(client, nmjl_table, referee):
    """NMJL games kept on the phone are added up with the rule set's table (Tournament Scoring, seeds/003
    lines 1556-1570, scoring/rules/nmjl/points_table.py), a card hand's value from the event's card."""
    import json

    client.force_login(referee)
    page = client.get(table_url(nmjl_table)).content.decode()
    data = json.loads(page.split('id="offline-ahead" type="application/json">')[1].split("</script>")[0])
    table = data["points"]
    assert table["keys"] == ["won_by", "winner", "discarder"] and table["value"] == "value"
    base, per = table["shapes"]["self_pick:E"]
    assert (base, per) == ({"E": 10, "S": 0, "W": 0, "N": 0}, {"E": 1, "S": 0, "W": 0, "N": 0})
    assert table["shapes"]["wall"][0] == {"E": 10, "S": 10, "W": 10, "N": 10}
    jokerless, exposures, dead = table["terms"]
    assert jokerless["shapes"]["discard:S:on:"] == {"S": 20}
    assert "discard:S:on:on" not in jokerless["shapes"]  # no bonus for Singles And Pairs (rule 73)
    assert exposures["shapes"]["discard:W:3"] == {"W": -25}
    assert dead["shapes"] == {f"wall:{seat}": {seat: -10} for seat in "ESWN"}  # "Dead hand 0 points"
    assert table["fills"]["card_hand"]["2468-3"] == {"value": "35", "singles_and_pairs": ""}
    assert table["fills"]["card_hand"]["sp-1"] == {"value": "50", "singles_and_pairs": "on"}
    assert table["unknown"] == ["tiles"]


def test_the_table_page_gives_the_phone_the_penalty_table_with_its_players_seats(client, table, referee):
    """Penalties kept on the phone move its totals as the rule set's penalty_effect does (MCR rule 84:
    paid to each other player), the players the penalty form names looked up as their seats."""
    import json

    client.force_login(referee)
    page = client.get(table_url(table)).content.decode()
    data = json.loads(page.split('id="offline-ahead" type="application/json">')[1].split("</script>")[0])
    assert data["penalty_form"] == "penalty-form" and 'id="penalty-form"' in page
    penalties = data["penalties"]
    assert penalties["keys"] == ["paid_to", "seat", "receiver"] and penalties["value"] == "points"
    seats = {str(seat.registration.code): seat.wind for seat in table.seats.all()}
    assert penalties["fills"]["player"] == {code: {"seat": wind} for code, wind in seats.items()}
    assert penalties["fills"]["paid_to_player"] == {code: {"receiver": wind} for code, wind in seats.items()}
    assert penalties["fills"]["kind"]["other"] == {}  # the points and payee typed stand
    assert penalties["fills"]["kind"]["false_hu_ready"] == {"paid_to": "each_other", "points": "10"}
    assert "empty_call" not in penalties["fills"]["kind"]  # escalating (rule 79): shown "?"
    base, per = penalties["shapes"]["each_other:E"]
    assert per == {"E": -3, "S": 1, "W": 1, "N": 1} and set(base.values()) == {0}
