"""Entry that survives the Wi-Fi (server side): a hand kept on the referee's phone while the connection was
gone is posted again with its token, perhaps several times (static/js/offline-entry.js); it is stored once
and each replay is answered as a success. A hand queued against a table changed meanwhile is refused, saying
why (scoring/services/entry.py). The service worker and the manifest make the referee pages installable."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from scoring.models import EntryToken, Hand
from scoring.services import entry
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
    with pytest.raises(entry.AlreadyStored) as replay:
        entry.record_hand(
            table, entry.HandEntry(winner=None), acting_user=referee, expected_number=1, token=token
        )
    assert replay.value.number == made.number == 1
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
