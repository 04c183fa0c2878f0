"""What the projector says: "after session N" (provisional or final), the clock, the next seating."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.projector import Status, status
from scoring.services import entry
from scoring.services.entry import HandEntry
from scoring.standings_cache import SessionProgress
from tournaments import clock
from tournaments.release import publish_session
from tournaments.services import reseating

pytestmark = pytest.mark.django_db


def test_the_status_is_final_only_when_every_table_of_the_last_session_is_confirmed():
    progress = [SessionProgress(1, 8, 8, 8), SessionProgress(2, 8, 5, 3), SessionProgress(3, 0, 0, 0)]
    assert status(progress).text == "After session 2 (provisional: 3 of 8 tables confirmed)"
    assert status(progress[:1]).text == "After session 1 (final)"
    assert status([SessionProgress(1, 8, 0, 0)]) == Status(None, False, 0, 0)
    assert status([]).text == "Before the first session"


def test_the_projector_shows_the_next_seating_and_the_clock(event, organiser, referee, client):
    page = client.get(reverse("public:projector", args=[event.slug])).content.decode()
    # Session 1 is seated and nothing is played yet: its seating is what the hall needs.
    assert "Session 1: find your table" in page
    assert "Before the first session" in page
    assert 'data-slide="clock"' not in page
    clock.start_clock(event.rounds.get(number=1), 90, acting_user=organiser)
    entry.record_hand(
        event.rounds.get(number=1).tables.get(number=1), HandEntry(winner=None), acting_user=referee
    )
    fragment = client.get(
        reverse("public:projector", args=[event.slug]), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "<html" not in fragment
    assert 'data-slide="clock"' in fragment
    assert "Session 1: 4 hands or 90 minutes" in fragment
    assert "find your table" not in fragment  # session 1 has started; session 2 is not seated
    assert "After session 1 (provisional: 0 of 2 tables confirmed)" in fragment
    publish_session(event.rounds.get(number=2), "seating", False, acting_user=organiser)
    reseating.generate_seating(event.rounds.get(number=2), acting_user=organiser)
    # A draft seating stays off the screen until the organiser publishes it.
    assert (
        "find your table" not in client.get(reverse("public:projector", args=[event.slug])).content.decode()
    )
    publish_session(event.rounds.get(number=2), "seating", True, acting_user=organiser)
    assert (
        "Session 2: find your table"
        in client.get(reverse("public:projector", args=[event.slug])).content.decode()
    )


def test_after_session_n_counts_only_published_results(event, organiser, referee, client):
    table = event.rounds.get(number=1).tables.get(number=1)
    entry.record_hand(table, HandEntry(winner=None), acting_user=referee)
    assert (
        "After session 1 (provisional"
        in client.get(reverse("public:projector", args=[event.slug])).content.decode()
    )
    publish_session(event.rounds.get(number=1), "results", False, acting_user=organiser)
    assert (
        "Before the first session"
        in client.get(reverse("public:projector", args=[event.slug])).content.decode()
    )
    progress = [SessionProgress(1, 8, 8, 8), SessionProgress(2, 8, 8, 8)]
    assert status(progress, {1}).text == "After session 1 (final)"


def test_the_projectors_page_time_is_bounded(event, client):
    for asked, used in (("1", 3), ("30", 30), ("9999", 12), ("x", 12)):
        page = client.get(
            reverse("public:projector", args=[event.slug]) + f"?seconds={asked}"
        ).content.decode()
        assert f'data-seconds="{used}"' in page
