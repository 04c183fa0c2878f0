"""Notices while a player's own page is open (scoring/views_notices.py) through Django's client: each notice
appears when its cause happens (the next seating published, the clock started, "last hand" and "time", the
table waiting for the player's signature, their table's call taken), the poll is answered 304 while nothing
changed, a browser not signed in is refused, and the texts follow the page's language."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse

from scoring.services import entry as entry_service
from scoring.services.entry import HandEntry
from scoring.services.pins import issue_pins
from tests.test_chinese_pages import CHINESE
from tournaments import clock as session_clock
from tournaments import release
from tournaments.models import SessionClock
from tournaments.services import calls, reseating
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


def notices_url(event) -> str:
    return reverse("public:me_notices", args=[event.slug])


def sign_in(client, event, registration) -> None:
    pin = issue_pins(event, acting_user=None)[registration.pk]
    client.post(reverse("public:me_sign_in", args=[event.slug]), {"code": registration.code, "pin": pin})


def poll(client, event, version: str = "", **headers):
    extra = {"HTTP_IF_NONE_MATCH": version} if version else {}
    return client.get(notices_url(event), **extra, **headers)


def texts(response) -> dict[str, str]:
    assert response.status_code == 200
    return {item["id"]: item["text"] for item in response.json()["notices"]}


@pytest.fixture
def player(client, event, table):
    """East of table 1 in session 1, signed in on this client."""
    registration = table.seats.get(wind="E").registration
    sign_in(client, event, registration)
    return registration


def test_a_browser_not_signed_in_is_refused_and_nothing_is_stored(client, event):
    response = poll(client, event)
    assert response.status_code == 403
    assert "private" in response["Cache-Control"]


def test_the_poll_is_answered_304_while_nothing_changed_and_never_stored_publicly(
    client, event, organiser, player, django_assert_max_num_queries
):
    first = poll(client, event)
    assert first.status_code == 200 and first["ETag"] == first.json()["version"]
    assert "private" in first["Cache-Control"]
    # Nothing but the session, the event, the player and three small rows is read for a 304.
    with django_assert_max_num_queries(6):
        again = poll(client, event, first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]
    # A change elsewhere on the public pages (here session 1's results withdrawn) is no notice's cause.
    release.publish_session(event.rounds.get(number=1), "results", False, acting_user=organiser)
    assert poll(client, event, first["ETag"]).status_code == 304
    # The page is drawn with the version of its own poll (which follows its table) and the ids it shows.
    page = client.get(reverse("public:me", args=[event.slug])).content.decode()
    url, version = page_poll(page)
    assert url == notices_url(event) + "?table=1"
    assert poll_url(client, url, version).status_code == 304
    assert 'data-seen="seating-1-1-E"' in page
    assert 'aria-live="polite"' in page and "js/notices.js" in page


def page_poll(page: str) -> tuple[str, str]:
    """The poll's address and version as "My event" is drawn with them (#notices)."""
    region = re.search(r'<section class="notices" id="notices"[^>]*>', page)
    assert region is not None
    found = dict(re.findall(r'data-(url|version|table)="([^"]*)"', region.group(0)))
    return html.unescape(found["url"]), html.unescape(found["version"])


def poll_url(client, url: str, version: str = ""):
    return client.get(url, **({"HTTP_IF_NONE_MATCH": version} if version else {}))


def test_the_one_poll_follows_my_table_and_asks_for_its_fragment_only_when_it_changed(
    client, event, referee, table, player, django_assert_max_num_queries
):
    """Hands at the table in play change the table's digest (the page then asks for the fragment) but not
    the notices, which come back empty: the page has them. A 304 reads a few small rows."""
    entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    page = client.get(reverse("public:me", args=[event.slug])).content.decode()
    url, version = page_poll(page)
    table_part = re.search(r'data-table="([^"]*)"', page).group(1)
    assert table_part and 'hx-trigger="refresh-table"' in page
    with django_assert_max_num_queries(7):
        assert poll_url(client, url, version).status_code == 304
    fragment = reverse("public:me_table", args=[event.slug, 1])
    kept = client.get(fragment, HTTP_HX_REQUEST="true")["ETag"]

    entry_service.record_hand(table, HandEntry(winner="S", discarder="W", fan=9), acting_user=referee)
    answer = poll_url(client, url, version)
    assert answer.status_code == 200
    assert answer.json()["notices"] == [] and answer.json()["table"] not in ("", table_part)
    refreshed = client.get(fragment, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=kept)
    assert refreshed.status_code == 200 and refreshed.content.decode().count("<tr") > 1
    assert poll_url(client, url, answer.json()["version"]).status_code == 304
    # A page that lost its copy (no version: the fragment did not arrive) is told everything afresh.
    afresh = poll_url(client, url)
    assert afresh.json()["table"] == answer.json()["table"] and afresh.json()["notices"]


def test_the_next_sessions_seating_published_is_a_notice(client, event, organiser, player):
    session_2 = event.rounds.get(number=2)
    release.publish_session(session_2, "seating", False, acting_user=organiser)
    version = poll(client, event)["ETag"]
    reseating.generate_seating(session_2, acting_user=organiser)
    seated = poll(client, event, version)  # seated, not yet published: no notice
    assert seated.status_code == 304 or not any(key.startswith("seating-2") for key in texts(seated))
    release.publish_session(session_2, "seating", True, acting_user=organiser)
    seat = session_2.seats.get(registration=player)
    found = texts(poll(client, event, version))
    notice = found[f"seating-2-{seat.table.number}-{seat.wind}"]
    assert notice.startswith("Session 2: the seating is out. You play at table")
    assert notice.endswith({"E": "East", "S": "South", "W": "West", "N": "North"}[seat.wind] + ".")


def test_the_clock_started_last_hand_and_time_are_notices(client, event, organiser, player):
    version = poll(client, event)["ETag"]
    session_1 = event.rounds.get(number=1)
    session_clock.start_clock(session_1, 60, acting_user=organiser)
    response = poll(client, event, version)
    assert texts(response) == {
        "seating-1-1-E": texts(response)["seating-1-1-E"],
        "start-1": "Session 1 has started.",
    }
    version = response["ETag"]
    assert poll(client, event, version).status_code == 304
    # Time passes: 57 minutes played of 60 (the "last hand" signal comes 5 minutes before the end).
    clock = SessionClock.objects.get(round=session_1)
    SessionClock.objects.filter(pk=clock.pk).update(started_at=clock.started_at - timedelta(minutes=57))
    response = poll(client, event, version)
    assert texts(response)["last-hand-1"] == "Session 1: Last hand"
    SessionClock.objects.filter(pk=clock.pk).update(started_at=clock.started_at - timedelta(minutes=61))
    found = texts(poll(client, event, response["ETag"]))
    assert found["time-1"] == "Session 1: Time: finish the hand in play"
    assert "last-hand-1" not in found


def test_my_table_waiting_for_my_signature_is_a_notice(client, event, organiser, referee, table, player):
    event_services.update_settings(event, {"confirmation.by": "players"}, acting_user=organiser)
    version = poll(client, event)["ETag"]
    entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    response = poll(client, event, version)
    assert not any(key.startswith("sign-") for key in texts(response))  # in play: nothing to sign yet
    for _ in range(3):
        entry_service.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    found = texts(poll(client, event, response["ETag"]))
    table.refresh_from_db()
    assert found[f"sign-{table.pk}-{table.results_version}"] == (
        "Table 1 is complete: sign the result on this page."
    )
    client.post(reverse("public:me_sign", args=[event.slug, 1]))
    assert not any(key.startswith("sign-") for key in texts(poll(client, event)))


def test_my_tables_call_taken_is_a_notice(client, event, referee, table, player):
    referee.first_name = "Kim"
    referee.save()
    call = calls.call_referee(table, registration=player)
    response = poll(client, event)
    assert not any(key.startswith("call-") for key in texts(response))
    assert poll(client, event, response["ETag"]).status_code == 304
    calls.take_call(call, acting_user=referee)
    found = texts(poll(client, event, response["ETag"]))
    assert found[f"call-{call.pk}-taken"] == "Kim is coming to table 1."


def test_notices_are_in_the_pages_language(client, event, organiser, referee, table, player):
    session_clock.start_clock(event.rounds.get(number=1), 60, acting_user=organiser)
    english = poll(client, event)
    chinese = poll(client, event, english["ETag"], **CHINESE)
    assert chinese.status_code == 200  # the language is part of the version
    found = texts(chinese)
    assert found["start-1"] == "第1轮已开始。"
    assert "东" in found["seating-1-1-E"]


class NoticesPoll:
    """A phone polling its notices: after each step, the notices read afresh, and the poll holding the
    previous version (304 exactly when the version held)."""

    def __init__(self, client, event) -> None:
        self.client, self.event = client, event
        self.version: str | None = None
        self.notices: dict[str, str] = {}
        self.steps: list[tuple[str, bool]] = []  # (step, version changed)

    def after(self, step: str) -> None:
        fresh = poll(self.client, self.event)
        version, found = fresh["ETag"], texts(fresh)
        if self.version is not None:
            held = poll(self.client, self.event, self.version)
            if version == self.version:
                assert found == self.notices, f"{step}: the version held but the notices changed"
                assert held.status_code == 304, step
            else:
                assert held.status_code == 200 and texts(held) == found, step
            self.steps.append((step, version != self.version))
        self.version, self.notices = version, found


def test_the_notices_are_the_same_whenever_their_version_is_through_a_whole_session(
    client, event, organiser, referee, table, player
):
    """A cache is correct first: whatever happens at the table, in the hall and on the clock, an unchanged
    version means unchanged notices. And a hand entered at a table in play changes nothing the notices
    show, so the four phones at each table of a hall in play keep their copy (measured: a notices answer
    drawn afresh costs ~15 ms, a 304 ~2 ms)."""
    event_services.update_settings(event, {"confirmation.by": "players"}, acting_user=organiser)
    other = event.rounds.get(number=1).tables.get(number=2)
    players = {seat.wind: seat.registration for seat in table.seats.all()}
    hand = HandEntry(winner="E", discarder="S", fan=8)
    phone = NoticesPoll(client, event)

    phone.after("start")
    entry_service.record_hand(other, hand, acting_user=referee)
    phone.after("a hand at another table")
    entry_service.record_hand(table, hand, acting_user=referee)
    phone.after("hand 1: my table has begun")
    entry_service.record_hand(table, HandEntry(winner="S", discarder=None, fan=10), acting_user=referee)
    phone.after("hand 2")
    first = table.hands.current().get(number=1)
    entry_service.correct_hand(first, HandEntry(winner="W", discarder="N", fan=9), acting_user=referee)
    phone.after("hand 1 corrected in play")
    entry_service.set_table_finished(table, True, acting_user=referee)
    phone.after("marked complete: sign")
    entry_service.set_table_finished(table, False, acting_user=referee)
    phone.after("reopened")
    for _ in range(2):
        entry_service.record_hand(table, hand, acting_user=referee)
    phone.after("the last hand: complete, sign")
    assert any(key.startswith("sign-") for key in phone.notices)
    last = table.hands.current().order_by("-number").first()
    entry_service.correct_hand(last, HandEntry(winner="N", discarder="E", fan=8), acting_user=referee)
    phone.after("the last hand corrected: sign again")
    from scoring.services import pins

    pins.sign_as_player(table, player)
    phone.after("I sign")
    assert not any(key.startswith("sign-") for key in phone.notices)
    for wind in "SWN":
        pins.sign_as_player(table, players[wind])
    phone.after("the others sign: confirmed")
    session_1 = event.rounds.get(number=1)
    session_clock.start_clock(session_1, 60, acting_user=organiser)
    phone.after("the clock started")
    clock = SessionClock.objects.get(round=session_1)
    SessionClock.objects.filter(pk=clock.pk).update(started_at=clock.started_at - timedelta(minutes=57))
    phone.after("last hand")
    call = calls.call_referee(table, registration=player)
    phone.after("I call a referee")
    calls.take_call(call, acting_user=referee)
    phone.after("the call taken")
    calls.close_call(call, acting_user=referee)
    phone.after("the call closed")
    session_2 = event.rounds.get(number=2)
    reseating.generate_seating(session_2, acting_user=organiser)
    release.publish_session(session_2, "seating", True, acting_user=organiser)
    phone.after("the next session's seating published")

    unchanged = [step for step, changed in phone.steps if not changed]
    assert unchanged == ["a hand at another table", "hand 2", "hand 1 corrected in play"], phone.steps
