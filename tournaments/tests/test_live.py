"""The organiser's live view: table states and progress polled by htmx, late and slow tables marked,
each table one click away, 304 when nothing changed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.models import Hand
from scoring.services import confirmation, entry, queries, standings
from scoring.services.entry import HandEntry
from tournaments import clock
from tournaments.models import SessionClock

pytestmark = pytest.mark.django_db


def test_the_session_fragment_shows_each_tables_progress_and_links_to_it(event, organiser, referee, client):
    table = event.rounds.get(number=1).tables.get(number=1)
    for _ in range(3):
        entry.record_hand(table, HandEntry(winner=None), acting_user=referee)
    client.force_login(organiser)
    page = client.get(reverse("manage:session_live", args=[event.slug, 1]), HTTP_HX_REQUEST="true")
    html = page.content.decode()
    assert page.status_code == 200
    assert "3/4" in html
    assert "0/4" in html
    assert reverse("referee:table", args=[event.slug, 1, 1]) in html
    assert "0 of 2 tables complete, 1 in play, 1 not started" in html


def test_an_unchanged_fragment_is_answered_304_and_a_change_is_sent(event, organiser, referee, client):
    client.force_login(organiser)
    url = reverse("manage:session_live", args=[event.slug, 1])
    first = client.get(url, HTTP_HX_REQUEST="true")
    etag = first["ETag"]
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=f"W/{etag}")
    assert again.status_code == 304
    assert again.content == b""
    entry.record_hand(
        event.rounds.get(number=1).tables.get(number=2), HandEntry(winner=None), acting_user=referee
    )
    changed = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert "1/4" in changed.content.decode()


def test_a_table_with_no_hand_for_the_events_minutes_is_marked_late(event, organiser, referee, client):
    round_ = event.rounds.get(number=1)
    clock.start_clock(round_, 120, acting_user=organiser)
    SessionClock.objects.update(started_at=timezone.now() - timedelta(minutes=40))
    entry.record_hand(round_.tables.get(number=1), HandEntry(winner=None), acting_user=referee)
    Hand.objects.update(created_at=timezone.now() - timedelta(minutes=20))
    entry.record_hand(round_.tables.get(number=2), HandEntry(winner=None), acting_user=referee)
    client.force_login(organiser)
    html = client.get(reverse("manage:session_live", args=[event.slug, 1])).content.decode()
    # Table 1: last hand 20 minutes ago (the event's default is 15); table 2 entered just now.
    assert html.count("No hand entered for") == 1
    assert 'data-table="1"' in html.split("No hand entered for")[0].rsplit("card table-card", 1)[1]
    assert "1 late or slow" in html


def test_a_table_behind_the_clocks_pace_is_marked(event, organiser, referee, client):
    round_ = event.rounds.get(number=1)
    clock.start_clock(round_, 40, acting_user=organiser)
    # 30 of 40 minutes gone: the pace of a 4-hand session is 3 hands; table 1 has none.
    SessionClock.objects.update(started_at=timezone.now() - timedelta(minutes=30))
    for _ in range(3):
        entry.record_hand(round_.tables.get(number=2), HandEntry(winner=None), acting_user=referee)
    client.force_login(organiser)
    html = client.get(reverse("manage:session_live", args=[event.slug, 1])).content.decode()
    assert "Behind the clock: 0 hands, the pace is 3" in html
    assert html.count("Behind the clock") == 1


def test_the_event_dashboard_polls_the_session_in_play(event, organiser, referee, client):
    round_ = event.rounds.get(number=1)
    clock.start_clock(round_, 120, acting_user=organiser)
    entry.record_hand(round_.tables.get(number=1), HandEntry(winner=None), acting_user=referee)
    client.force_login(organiser)
    page = client.get(reverse("manage:event", args=[event.slug])).content.decode()
    assert f'hx-get="{reverse("manage:live", args=[event.slug])}"' in page
    fragment = client.get(reverse("manage:live", args=[event.slug])).content.decode()
    assert "Session 1 now" in fragment
    assert "1/4" in fragment
    assert reverse("referee:table", args=[event.slug, 1, 2]) in fragment
    # The clock polls on its own (it changes every second); the tables' fragment stays the same.
    assert f'hx-get="{reverse("public:clock", args=[event.slug])}"' in page
    assert 'role="timer"' not in fragment
    again = client.get(
        reverse("manage:live", args=[event.slug]),
        HTTP_IF_NONE_MATCH=f"W/{client.get(reverse('manage:live', args=[event.slug]))['ETag']}",
    )
    assert again.status_code == 304


def test_live_fragments_are_for_organisers_only(event, referee, stranger, client):
    for user in (referee, stranger):
        client.force_login(user)
        assert client.get(reverse("manage:live", args=[event.slug])).status_code == 403
        assert client.get(reverse("manage:session_live", args=[event.slug, 1])).status_code == 403


def test_progress_counted_in_the_database_agrees_with_each_tables_state(
    demo_event, event, referee, organiser
):
    """The live pages count states with a few queries; they must read every table as ``table_state``."""
    from tournaments.models import Table

    first, second = event.rounds.get(number=1).tables.order_by("number")
    entry.record_hand(first, HandEntry(winner=None), acting_user=referee)
    entry.record_hand(first, HandEntry(winner=None), acting_user=referee)
    entry.void_last_hand(first, acting_user=referee)
    entry.record_hand(second, HandEntry(winner=None), acting_user=referee)
    entry.set_table_finished(second, True, acting_user=referee)
    tables = list(Table.objects.all())
    progress = standings.ScoringResults().table_progress(tables)
    states = set()
    for tournament in (demo_event, event):
        for loaded in queries.tables_with_results(tournament):
            line = progress[loaded.pk]
            assert (line.state, line.hands) == (
                confirmation.table_state(loaded),
                len(queries.played_hands(loaded)),
            )
            states.add(line.state)
    assert states == {"complete", "in play", "not started"}


def test_after_time_a_table_still_playing_says_time_instead_of_late_or_behind(event, organiser, client):
    round_ = event.rounds.get(number=1)
    clock.start_clock(round_, 30, acting_user=organiser)
    SessionClock.objects.update(started_at=timezone.now() - timedelta(minutes=31))
    client.force_login(organiser)
    html = client.get(reverse("manage:session_live", args=[event.slug, 1])).content.decode()
    assert html.count('class="state time-up"') == 2
    assert "Behind the clock" not in html
    assert "No hand entered" not in html
