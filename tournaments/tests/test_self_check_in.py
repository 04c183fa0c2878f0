"""Players check themselves in within the organiser's window (tournaments/desk.py: set_self_check_in,
self_check_in), from their own page (tournaments/views_check_in.py); the desk opens and closes the window,
turns a tablet into the kiosk (tournaments/kiosk.py) and sees check-ins live (views_desk.players_list)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from tournaments import desk, player_session
from tournaments.archive import set_archived
from tournaments.audit import AuditAction
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Registration, Tournament
from tournaments.services import player_seats


def _open(event, minutes=30):
    Tournament.objects.filter(pk=event.pk).update(
        self_check_in_until=timezone.now() + timedelta(minutes=minutes)
    )
    event.refresh_from_db()


def sign_in(client, registration: Registration) -> None:
    """The player's own session in the test client's browser (as the sign-in page does)."""
    request = RequestFactory().get("/")
    request.session = client.session
    player_session.sign_in(request, registration)
    request.session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = request.session.session_key


# --- the window -------------------------------------------------------------------------------------------


def test_the_organiser_opens_and_closes_the_window_logged(event, organiser):
    assert not event.self_check_in_open
    before = timezone.now()
    opened = desk.set_self_check_in(event, 45, acting_user=organiser)
    assert opened.self_check_in_open
    assert timedelta(minutes=44) < opened.self_check_in_until - before <= timedelta(minutes=45, seconds=5)
    closed = desk.set_self_check_in(event, None, acting_user=organiser)
    assert closed.self_check_in_until is None and not closed.self_check_in_open
    entries = AuditEntry.objects.filter(tournament=event, action=AuditAction.SELF_CHECK_IN_WINDOW)
    assert [e.actor for e in entries] == [organiser, organiser]
    assert {e.summary.split(" until")[0] for e in entries} == {"Self check-in open", "Self check-in closed"}
    desk.set_self_check_in(event, None, acting_user=organiser)  # closing a closed window logs nothing
    assert entries.count() == 2


@pytest.mark.parametrize("minutes", [0, -5, desk.SELF_CHECK_IN_MAX_MINUTES + 1])
def test_a_window_of_no_time_or_too_long_is_refused(event, organiser, minutes):
    with pytest.raises(ServiceError) as refused:
        desk.set_self_check_in(event, minutes, acting_user=organiser)
    assert refused.value.code == "bad_minutes"


def test_an_archived_event_opens_no_window(event, organiser):
    set_archived(event, True, acting_user=organiser)
    with pytest.raises(ServiceError) as refused:
        desk.set_self_check_in(event, 30, acting_user=organiser)
    assert refused.value.code == "archived"


def test_the_window_ends_at_its_time_exactly(event):
    now = timezone.now()
    event.self_check_in_until = now + timedelta(seconds=1)
    assert event.self_check_in_open
    event.self_check_in_until = now - timedelta(microseconds=1)
    assert not event.self_check_in_open


# --- the service ------------------------------------------------------------------------------------------


def test_a_player_checks_in_within_the_window_logged_as_their_own_action(event):
    _open(event)
    ana = event.registrations.get(player__name="Ana")
    desk.self_check_in(ana, by_player="phone")
    ana.refresh_from_db()
    assert ana.checked_in
    entry = AuditEntry.objects.get(tournament=event, action=AuditAction.CHECK_IN)
    assert entry.actor is None
    assert entry.data == {"code": ana.code, "by_player": "phone"}
    assert entry.summary == "Ana checked in by themselves (phone)"
    desk.self_check_in(ana, by_player="kiosk")  # twice: nothing more
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.CHECK_IN).count() == 1


def test_outside_the_window_the_player_goes_to_the_desk(event, organiser):
    ana = event.registrations.get(player__name="Ana")
    with pytest.raises(ServiceError) as never_opened:
        desk.self_check_in(ana, by_player="phone")
    assert never_opened.value.code == "closed"
    assert "desk" in never_opened.value.message
    Tournament.objects.filter(pk=event.pk).update(self_check_in_until=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ServiceError) as ended:
        desk.self_check_in(ana, by_player="kiosk")
    assert ended.value.code == "closed"
    ana.refresh_from_db()
    assert not ana.checked_in
    # the desk still checks late arrivals in, logged as the organiser's
    desk.check_in_by_code(event, ana.code, acting_user=organiser)
    assert AuditEntry.objects.get(tournament=event, action=AuditAction.CHECK_IN).actor == organiser


def test_a_withdrawn_player_is_refused(event, organiser):
    _open(event)
    ana = event.registrations.get(player__name="Ana")
    desk.set_withdrawn(ana, True, acting_user=organiser)
    with pytest.raises(ServiceError) as refused:
        desk.self_check_in(ana, by_player="phone")
    assert refused.value.code == "withdrawn"
    ana.refresh_from_db()
    assert not ana.checked_in


def test_the_coming_seat_is_in_the_first_published_session_without_results(event):
    ana = event.registrations.get(player__name="Ana")
    seat = player_seats.seat_now(ana).coming
    assert seat is not None and seat.round.number == 1 and seat.registration_id == ana.pk
    event.rounds.filter(number=1).update(seating_published_at=None)
    assert player_seats.seat_now(ana).coming is None  # a draft seating is not told


# --- the player's page ------------------------------------------------------------------------------------


def test_the_player_checks_in_from_their_own_page(client, event):
    _open(event)
    ana = event.registrations.get(player__name="Ana")
    sign_in(client, ana)
    url = reverse("public:me_check_in", args=[event.slug])
    response = client.post(url, {"next": "/e/test-open/"})
    assert response.status_code == 302 and response["Location"] == "/e/test-open/"
    ana.refresh_from_db()
    assert ana.checked_in
    assert AuditEntry.objects.get(action=AuditAction.CHECK_IN).data["by_player"] == "phone"


def test_the_check_in_box_answers_htmx_with_the_seat(client, event):
    _open(event)
    ana = event.registrations.get(player__name="Ana")
    seat = player_seats.seat_now(ana).coming
    sign_in(client, ana)
    response = client.post(reverse("public:me_check_in", args=[event.slug]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    text = response.content.decode()
    assert "You are checked in" in text
    assert f"table {seat.table.number}, " in text
    assert response["Cache-Control"].startswith("max-age=0") or "no-cache" in response["Cache-Control"]


def test_the_check_in_box_refuses_outside_the_window(client, event):
    ana = event.registrations.get(player__name="Ana")
    sign_in(client, ana)
    response = client.post(reverse("public:me_check_in", args=[event.slug]), HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert "check in at the desk" in response.content.decode()
    response = client.post(
        reverse("public:me_check_in", args=[event.slug]), {"next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("public:event", args=[event.slug])  # never off the site
    ana.refresh_from_db()
    assert not ana.checked_in


def test_nobody_signed_in_checks_nobody_in(client, event):
    _open(event)
    response = client.post(reverse("public:me_check_in", args=[event.slug]))
    assert response.status_code == 403
    assert not event.registrations.filter(checked_in=True).exists()


def test_the_check_in_box_include_shows_the_window(event, rf):
    from django.template.loader import render_to_string

    ana = event.registrations.get(player__name="Ana")
    request = rf.get("/e/test-open/me/")
    closed = render_to_string(
        "tournaments/_check_in.html", {"tournament": event, "registration": ana}, request
    )
    assert "please check in at the desk" in closed and "<form" not in closed
    _open(event)
    opened = render_to_string(
        "tournaments/_check_in.html", {"tournament": event, "registration": ana}, request
    )
    assert 'action="/e/test-open/me/check-in/"' in opened and 'value="/e/test-open/me/"' in opened
    assert render_to_string("tournaments/_check_in.html", {"tournament": event}, request).strip() == ""


# --- the desk ---------------------------------------------------------------------------------------------


def test_the_desk_opens_and_closes_the_window(client, event, organiser):
    client.force_login(organiser)
    url = reverse("manage:self_check_in", args=[event.slug])
    response = client.post(url, {"minutes": "90"}, follow=True)
    event.refresh_from_db()
    assert event.self_check_in_open
    assert "Players can check themselves in until" in response.content.decode()
    assert "Close now" in response.content.decode()
    client.post(url, {"close": "1"})
    event.refresh_from_db()
    assert not event.self_check_in_open
    response = client.post(url, {"minutes": "0"}, follow=True)
    assert "Open self check-in for 1 to 720 minutes." in response.content.decode()


def test_only_an_organiser_opens_the_window_or_the_kiosk(client, event, referee):
    client.force_login(referee)
    assert (
        client.post(reverse("manage:self_check_in", args=[event.slug]), {"minutes": "30"}).status_code == 403
    )
    assert client.post(reverse("manage:kiosk_on", args=[event.slug])).status_code == 403
    event.refresh_from_db()
    assert event.self_check_in_until is None


def test_the_kiosk_ends_the_organisers_login_on_that_device(client, event, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:kiosk_on", args=[event.slug]))
    assert response["Location"] == reverse("public:kiosk", args=[event.slug])
    entry = AuditEntry.objects.get(tournament=event, action=AuditAction.KIOSK_ON)
    assert entry.actor == organiser
    players = client.get(reverse("manage:players", args=[event.slug]))
    assert players.status_code == 302 and "/accounts/login/" in players["Location"]  # no staff page
    assert client.session.get(f"kiosk-of-event-{event.pk}") is True


def test_the_desk_list_is_polled_and_shows_self_check_ins(client, event, organiser):
    client.force_login(organiser)
    page = client.get(reverse("manage:players", args=[event.slug]))
    list_url = reverse("manage:players_list", args=[event.slug])
    assert f'hx-get="{list_url}" hx-trigger="every 5s"' in page.content.decode()
    _open(event)
    desk.self_check_in(event.registrations.get(player__name="Ana"), by_player="kiosk")
    fragment = client.get(list_url).content.decode()
    assert "1 of 8 checked in." in fragment
    assert "<html" not in fragment
    searched = client.get(list_url, {"q": "ana"}).content.decode()
    assert "Players matching “ana”: 1" in searched


def test_the_event_log_names_the_player_as_who_acted(client, event, organiser):
    _open(event)
    desk.self_check_in(event.registrations.get(player__name="Ana"), by_player="phone")
    client.force_login(organiser)
    text = client.get(reverse("manage:event", args=[event.slug])).content.decode()
    assert "Player: Ana checked in by themselves (phone)" in text
