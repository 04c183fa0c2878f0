"""The venue's clock (tournaments/venue_time.py): every time shown for an event is in its time zone while
the server runs in UTC, across a daylight-saving change (Europe/Amsterdam leaves summer time on
2026-10-25 at 01:00 UTC: 03:00 CEST becomes 02:00 CET), in pages, prints and exports."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from scoring.interchange.export import export_event
from scoring.models import Penalty
from scoring.services import penalties, rulings
from scoring.tests.jobs import fetch
from scoring.tests.test_player_page import me, seated, sign_in
from tests.visible_text import shown_texts
from tournaments import clock
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, EntryWindow, SessionClock, Tournament
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db

BEFORE_THE_CHANGE = datetime(2026, 10, 25, 0, 0, tzinfo=UTC)  # 02:00 CEST (+02:00)
"""The clock starts here, in summer time; the session ends at 01:30 UTC, 02:30 CET (+01:00)."""


def at(monkeypatch, moment: datetime) -> None:
    """The server's clock reads ``moment`` (UTC) from now on."""
    monkeypatch.setattr(timezone, "now", lambda: moment)


def in_zone(event, organiser, name: str) -> Tournament:
    return event_services.set_time_zone(event, name, acting_user=organiser)


def clock_text(client, event) -> str:
    html = client.get(reverse("public:clock", args=[event.slug]) + "?session=1").content.decode()
    return " ".join(shown_texts(html))


def started_before_the_change(event, organiser, monkeypatch) -> None:
    in_zone(event, organiser, "Europe/Amsterdam")
    at(monkeypatch, BEFORE_THE_CHANGE)
    clock.start_clock(event.rounds.get(number=1), 90, acting_user=organiser)
    assert SessionClock.objects.get(round__tournament=event).started_at == BEFORE_THE_CHANGE


def test_the_clock_shows_venue_time_before_the_daylight_saving_change(client, event, organiser, monkeypatch):
    started_before_the_change(event, organiser, monkeypatch)
    at(monkeypatch, BEFORE_THE_CHANGE + timedelta(minutes=20))  # 02:20 CEST
    text = clock_text(client, event)
    # Started 02:00 summer time; ends 01:30 UTC, which is 02:30 winter time (not 03:30 at +02:00).
    assert "started 02:00, ends 02:30" in text
    assert "1:10:00" in text


def test_the_clock_shows_venue_time_after_the_daylight_saving_change(client, event, organiser, monkeypatch):
    started_before_the_change(event, organiser, monkeypatch)
    at(monkeypatch, BEFORE_THE_CHANGE + timedelta(minutes=70))  # 01:10 UTC, 02:10 CET, after the change
    text = clock_text(client, event)
    assert "started 02:00, ends 02:30" in text
    assert "20:00" in text  # the countdown is seconds left: no zone in it
    at(monkeypatch, BEFORE_THE_CHANGE + timedelta(minutes=95))
    assert "started 02:00, time was up at 02:30" in clock_text(client, event)


def test_a_30_minute_appeal_deadline_crossing_the_change_is_right_in_venue_time(
    client, event, organiser, referee, monkeypatch
):
    """A ruling at 02:45 summer time (00:45 UTC): 30 minutes later is 01:15 UTC, 02:15 winter time."""
    in_zone(event, organiser, "Europe/Amsterdam")
    ruled = datetime(2026, 10, 25, 0, 45, tzinfo=UTC)
    at(monkeypatch, ruled)
    table = event.rounds.get(number=1).tables.get(number=1)
    players = seated(table)
    rulings.add_ruling(table, players["E"], "warning", acting_user=referee)
    penalties.add_penalty(
        table, players["E"], 10, paid_to="none", rule="MCR 83", reason="slow", acting_user=referee
    )
    sign_in(client, event, players["E"])
    at(monkeypatch, ruled + timedelta(minutes=20))  # 01:05 UTC, after the change
    texts = " ".join(shown_texts(client.get(me(event)).content.decode()))
    assert "Appeal until 02:15 (10 min left)" in texts
    # The referee's appeal page for the penalty gives the same deadline and when it was ruled.
    client.force_login(referee)
    penalty = Penalty.objects.get(table=table, points=10)
    page = client.get(reverse("referee:appeal", args=[event.slug, 1, 1, penalty.pk])).content.decode()
    page_text = " ".join(shown_texts(page))
    assert "Ruled by rick at 02:45" in page_text and "filed in writing by 02:15" in page_text


def test_an_event_in_shanghai_shows_plus_8_while_the_server_is_utc(client, event, organiser, monkeypatch):
    assert timezone.get_current_timezone_name() == "UTC"
    in_zone(event, organiser, "Asia/Shanghai")
    moment = datetime(2026, 6, 1, 4, 5, tzinfo=UTC)
    at(monkeypatch, moment)
    event_services.update_settings(event, {"clock.last_hand_minutes": 7}, acting_user=organiser)
    client.force_login(organiser)
    html = client.get(reverse("manage:event", args=[event.slug])).content.decode()
    assert "<time>12:05</time>" in html  # the audit log, 04:05 UTC at +08:00
    # The zone is the request's only: the next request (or a thread's next) starts in the site's zone.
    assert timezone.get_current_timezone_name() == "UTC"
    # Registration's closing time: the organiser types venue time, it is stored as UTC and shown as typed.
    client.post(
        reverse("manage:entry_window", args=[event.slug]), {"capacity": 8, "closes_at": "2026-06-30T18:00"}
    )
    assert EntryWindow.objects.get(tournament=event).closes_at == datetime(2026, 6, 30, 10, 0, tzinfo=UTC)
    assert timezone.get_current_timezone_name() == "UTC"
    client.logout()
    register = " ".join(
        shown_texts(client.get(reverse("public:register", args=[event.slug])).content.decode())
    )
    assert "registration closes 30 June 2026 18:00" in register
    assert "until 2026-06-30T18:00:00+08:00" in AuditEntry.objects.filter(action="entry_window").get().summary


def test_the_pdfs_made_at_line_is_in_venue_time(client, event, organiser):
    in_zone(event, organiser, "Asia/Shanghai")
    client.force_login(organiser)
    before = timezone.localtime(timezone.now(), ZoneInfo("Asia/Shanghai"))
    response = fetch(client, reverse("manage:event_print", args=[event.slug, "standings"]))
    after = timezone.localtime(timezone.now(), ZoneInfo("Asia/Shanghai"))
    text = " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(response.content)).pages
    )
    made = {f"made {moment:%Y-%m-%d %H:%M} CST" for moment in (before, after)}
    assert any(line in text for line in made), text[-300:]


def test_a_bad_zone_name_is_refused_with_a_message(client, event, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:save_time_zone", args=[event.slug]), {"time_zone": "Mars/Olympus"})
    assert response.status_code == 422
    assert "Mars/Olympus is not a known time zone" in response.content.decode()
    with pytest.raises(ServiceError, match="is not a known time zone"):
        event_services.set_time_zone(event, "Europe/Atlantis", acting_user=organiser)
    with pytest.raises(ServiceError, match="is not a known time zone"):
        event_services.create_tournament(
            event_services.EventDetails(name="Nowhere Open", time_zone="UTC+8"), acting_user=organiser
        )
    event.refresh_from_db()
    assert event.time_zone == "UTC"


def test_the_zone_is_chosen_on_the_create_form_and_the_settings_page_and_logged(client, organiser):
    client.force_login(organiser)
    form = {"name": "Delft Open", "rules": "mcr", "num_sessions": 2, "hands_per_session": 16}
    page = client.get(reverse("manage:create_event")).content.decode()
    assert 'value="Europe/Amsterdam"' in page and 'value="UTC" selected' in page
    response = client.post(reverse("manage:create_event"), {**form, "time_zone": "Europe/Amsterdam"})
    assert response.status_code == 302
    event = Tournament.objects.get(name="Delft Open")
    assert event.time_zone == "Europe/Amsterdam"
    version = event.public_version
    response = client.post(
        reverse("manage:save_time_zone", args=[event.slug]), {"time_zone": "Asia/Shanghai"}
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.time_zone == "Asia/Shanghai" and event.public_version > version
    entry = AuditEntry.objects.filter(tournament=event, action="time_zone").get()
    assert entry.data == {"before": "Europe/Amsterdam", "after": "Asia/Shanghai"}
    settings_page = client.get(reverse("manage:settings", args=[event.slug])).content.decode()
    assert '<option value="Asia/Shanghai" selected>' in settings_page


def test_the_event_json_keeps_its_times_whatever_the_zone(event, organiser):
    """The event JSON's times stay UTC (the spec, event-json.md): the venue's zone changes no byte of it but
    the zone itself, among the settings the organiser set (scoring/tests/test_interchange_time_zone.py)."""
    before = export_event(event)
    in_zone(event, organiser, "Asia/Shanghai")
    after = export_event(Tournament.objects.get(pk=event.pk))
    assert after["tournament"]["settings"].pop("time_zone") == "Asia/Shanghai"
    before["tournament"]["settings"].pop("time_zone", None)
    assert after == before
