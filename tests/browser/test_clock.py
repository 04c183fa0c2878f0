"""The session clock in real Chromium: it counts down by itself from the server's time, signals
"last hand" and then "time" without a reload, and a paused clock stands still."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def clocked_event():
    from tournaments import clock
    from tournaments.models import SessionClock
    from tournaments.release import publish_everything
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    organiser = get_user_model().objects.create_user("olga", password="pw-olga-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Clock Open", slug="clock-open", num_sessions=1, session_minutes=30),
        acting_user=organiser,
    )
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ana", "Bo", "Cy", "Di"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    round_ = tournament.rounds.get(number=1)
    reseating.generate_seating(round_, acting_user=organiser)
    event_services.update_settings(tournament, {"clock.last_hand_minutes": 1}, acting_user=organiser)
    clock.start_clock(round_, 30, acting_user=organiser)
    publish_everything(tournament, acting_user=organiser)  # the public pages show the clock
    # 29 minutes and 57 seconds gone: three seconds to time, in the "last hand" minute.
    SessionClock.objects.update(started_at=timezone.now() - timedelta(minutes=29, seconds=57))
    return tournament


def test_the_clock_counts_down_and_signals_last_hand_then_time(page, live_server, clocked_event):
    page.goto(f"{live_server.url}/e/{clocked_event.slug}/standings/")
    clock = page.locator(".clock[role=timer]")
    clock.wait_for()
    assert "clock-last-hand" in clock.get_attribute("class")
    assert page.inner_text(".clock .clock-signal") == "LAST HAND" or "Last hand" in page.inner_text(
        ".clock-signal"
    )
    first = page.inner_text(".clock .clock-face")
    assert first in {"0:03", "0:02", "0:01"}
    page.wait_for_function("document.querySelector('.clock').classList.contains('clock-time')", timeout=8000)
    assert page.inner_text(".clock .clock-face") == "0:00"
    assert "finish the hand in play" in page.inner_text(".clock .clock-signal").lower()


def test_a_paused_clock_stands_still(page, live_server, clocked_event):
    from tournaments import clock
    from tournaments.models import SessionClock

    SessionClock.objects.update(started_at=timezone.now() - timedelta(minutes=10))
    organiser = get_user_model().objects.get(username="olga")
    clock.pause_clock(clocked_event.rounds.get(number=1), acting_user=organiser)
    page.goto(f"{live_server.url}/e/{clocked_event.slug}/")
    page.locator(".clock[role=timer]").wait_for()
    shown = page.inner_text(".clock .clock-face")
    assert shown.startswith(("20:0", "19:5"))
    page.wait_for_timeout(2200)
    assert page.inner_text(".clock .clock-face") == shown
    assert "paused" in page.inner_text(".clock .clock-signal").lower()
