"""The check-in kiosk (scoring/views_kiosk.py): only in a browser an organiser made the kiosk, only while
self check-in is open; a name found with accents and case ignored, the player's own PIN checked and
throttled (scoring/services/pins.py: check_own_pin), the seat told, a withdrawn player sent to the desk."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.models import PinAttempt
from scoring.services import pins
from tournaments import desk
from tournaments.audit import AuditAction
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Tournament
from tournaments.services import events as event_services
from tournaments.services import player_seats, registrations


@pytest.fixture
def maria(event, organiser):
    return registrations.register_player(
        event, registrations.PlayerRow(name="María García", country="ES"), acting_user=organiser
    )


@pytest.fixture
def kiosk_client(client, event, organiser):
    """A browser the organiser made the kiosk, with self check-in open."""
    Tournament.objects.filter(pk=event.pk).update(self_check_in_until=timezone.now() + timedelta(hours=1))
    client.force_login(organiser)
    client.post(reverse("manage:kiosk_on", args=[event.slug]))
    return client


def pin_of(registration):
    return pins.pins_for(registration.tournament)[registration.pk]


def test_the_kiosk_answers_only_where_an_organiser_turned_it_on(client, event, organiser):
    Tournament.objects.filter(pk=event.pk).update(self_check_in_until=timezone.now() + timedelta(hours=1))
    url = reverse("public:kiosk", args=[event.slug])
    response = client.get(url, {"q": "ana"})
    assert response.status_code == 403
    assert "not the check-in kiosk" in response.content.decode()
    client.force_login(organiser)  # staff logged in: not a kiosk either
    assert client.get(url).status_code == 403


def test_the_kiosk_finds_a_name_without_its_accents(kiosk_client, event, maria):
    response = kiosk_client.get(reverse("public:kiosk", args=[event.slug]), {"q": "garcia"})
    text = response.content.decode()
    assert response.status_code == 200
    assert "María García" in text
    assert reverse("public:kiosk_player", args=[event.slug, maria.code]) in text
    assert 'class="event-nav"' not in text  # nothing to wander off to


def test_the_kiosk_lists_no_withdrawn_player(kiosk_client, event, maria, organiser):
    desk.set_withdrawn(maria, True, acting_user=organiser)
    text = kiosk_client.get(reverse("public:kiosk", args=[event.slug]), {"q": "GARCÍA"}).content.decode()
    assert "María García" not in text and "please see the desk" in text


def test_the_right_pin_checks_in_and_tells_the_seat(kiosk_client, event):
    ana = event.registrations.get(player__name="Ana")
    seat = player_seats.seat_now(ana).coming
    url = reverse("public:kiosk_player", args=[event.slug, ana.code])
    assert "Your PIN" in kiosk_client.get(url).content.decode()
    response = kiosk_client.post(url, {"pin": pin_of(ana)})
    text = response.content.decode()
    assert response.status_code == 200
    wind = {"E": "East", "S": "South", "W": "West", "N": "North"}[seat.wind]
    assert f"Checked in: table {seat.table.number}, {wind}" in text
    assert f'data-go-after="6" data-go-to="{reverse("public:kiosk", args=[event.slug])}"' in text
    ana.refresh_from_db()
    assert ana.checked_in
    entry = AuditEntry.objects.get(tournament=event, action=AuditAction.CHECK_IN)
    assert entry.actor is None and entry.data == {"code": ana.code, "by_player": "kiosk"}


def test_an_unseated_player_is_checked_in_without_a_seat(kiosk_client, event, maria):
    response = kiosk_client.post(
        reverse("public:kiosk_player", args=[event.slug, maria.code]), {"pin": pin_of(maria)}
    )
    assert "Checked in</p>" in response.content.decode()


def test_a_wrong_pin_is_refused_and_counted(kiosk_client, event):
    ana = event.registrations.get(player__name="Ana")
    bo = event.registrations.get(player__name="Bo")
    url = reverse("public:kiosk_player", args=[event.slug, ana.code])
    response = kiosk_client.post(url, {"pin": pin_of(bo)})  # another player's PIN
    assert response.status_code == 422
    assert "That is not your PIN" in response.content.decode()
    ana.refresh_from_db()
    assert not ana.checked_in
    attempt = PinAttempt.objects.get()
    assert attempt.registration == ana and attempt.table is None and attempt.tournament_id == event.pk


def test_wrong_pins_at_one_player_are_throttled_and_the_lockout_logged(kiosk_client, event):
    ana = event.registrations.get(player__name="Ana")
    url = reverse("public:kiosk_player", args=[event.slug, ana.code])
    for _ in range(pins.PIN_TRIES):
        assert (
            kiosk_client.post(url, {"pin": "000000" if pin_of(ana) != "000000" else "111111"}).status_code
            == 422
        )
    response = kiosk_client.post(url, {"pin": pin_of(ana)})  # even the right one, until the window passes
    assert response.status_code == 422
    assert "Too many wrong PINs" in response.content.decode()
    ana.refresh_from_db()
    assert not ana.checked_in
    lockout = AuditEntry.objects.get(tournament=event, action=AuditAction.PIN_LOCKOUT)
    assert lockout.summary.startswith("Kiosk, Ana")
    assert lockout.data["reached"] == ["player"] and lockout.data["code"] == ana.code
    # another player at the same kiosk is not slowed
    bo = event.registrations.get(player__name="Bo")
    assert (
        kiosk_client.post(
            reverse("public:kiosk_player", args=[event.slug, bo.code]), {"pin": pin_of(bo)}
        ).status_code
        == 200
    )
    PinAttempt.objects.update(created_at=timezone.now() - pins.PIN_WINDOW - timedelta(seconds=1))
    assert kiosk_client.post(url, {"pin": pin_of(ana)}).status_code == 200


def test_kiosk_tries_count_towards_the_events_limit(event, monkeypatch):
    """A guesser at the kiosk spends the same event allowance as one at the tables (pin_limits)."""
    monkeypatch.setattr(pins, "PIN_TRIES_EVENT", 2)
    ana, bo = event.registrations.get(player__name="Ana"), event.registrations.get(player__name="Bo")
    for player in (ana, bo):
        with pytest.raises(ServiceError):
            pins.check_own_pin(player, "x", acting_user=None, address="10.0.0.9")
    with pytest.raises(ServiceError) as throttled:
        pins.check_own_pin(ana, pin_of(ana), acting_user=None)
    assert throttled.value.code == "pin_throttled"


def test_a_withdrawn_player_is_sent_to_the_desk(kiosk_client, event, organiser):
    ana = event.registrations.get(player__name="Ana")
    desk.set_withdrawn(ana, True, acting_user=organiser)
    response = kiosk_client.post(
        reverse("public:kiosk_player", args=[event.slug, ana.code]), {"pin": pin_of(ana)}
    )
    assert response.status_code == 403
    assert "Ana has withdrawn: please see the desk." in response.content.decode()
    ana.refresh_from_db()
    assert not ana.checked_in


def test_after_the_window_the_kiosk_sends_players_to_the_desk(kiosk_client, event):
    ana = event.registrations.get(player__name="Ana")
    Tournament.objects.filter(pk=event.pk).update(self_check_in_until=timezone.now() - timedelta(seconds=1))
    for response in (
        kiosk_client.get(reverse("public:kiosk", args=[event.slug]), {"q": "ana"}),
        kiosk_client.post(reverse("public:kiosk_player", args=[event.slug, ana.code]), {"pin": pin_of(ana)}),
    ):
        assert "Self check-in is closed: please check in at the desk." in response.content.decode()
    ana.refresh_from_db()
    assert not ana.checked_in


def test_the_kiosk_speaks_chinese(kiosk_client, event):
    ana = event.registrations.get(player__name="Ana")
    response = kiosk_client.post(
        reverse("public:kiosk_player", args=[event.slug, ana.code]),
        {"pin": pin_of(ana)},
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert "已签到" in response.content.decode()


# --- names by the public-name policy ------------------------------------------------------------------


def test_the_kiosk_searches_and_shows_only_what_the_public_may_see(kiosk_client, event, maria, organiser):
    """The kiosk stands in the hall: under "given name and family initial", "García" finds nobody and the
    list, the PIN page and the answer show "María G."; under "player id", only the id finds and shows."""
    event_services.update_settings(event, {"public.names": "initial"}, acting_user=organiser)
    search = reverse("public:kiosk", args=[event.slug])
    hidden = kiosk_client.get(search, {"q": "garcia"}).content.decode()
    assert "García" not in hidden and "Nobody matches" in hidden
    assert "given name or the player id" in hidden
    text = kiosk_client.get(search, {"q": "maria"}).content.decode()
    assert "María G." in text and "García" not in text
    url = reverse("public:kiosk_player", args=[event.slug, maria.code])
    assert "García" not in kiosk_client.get(url).content.decode()
    done = kiosk_client.post(url, {"pin": pin_of(maria)}).content.decode()
    assert "María G." in done and "García" not in done

    event_services.update_settings(event, {"public.names": "code"}, acting_user=organiser)
    assert "María" not in kiosk_client.get(search, {"q": "maria"}).content.decode()
    by_code = kiosk_client.get(search, {"q": maria.code}).content.decode()
    assert url in by_code and "María" not in by_code and "the id on your seat slip" in by_code


def test_a_players_own_narrower_choice_hides_them_at_the_kiosk(kiosk_client, event, maria, organiser):
    desk.edit(
        maria,
        registrations.PlayerRow(name="María García", country="ES", public_name="code"),
        acting_user=organiser,
    )
    text = kiosk_client.get(reverse("public:kiosk", args=[event.slug]), {"q": "maria"}).content.decode()
    assert "María" not in text and "Nobody matches" in text


# --- leaving kiosk mode -------------------------------------------------------------------------------


def test_an_organisers_login_leaves_kiosk_mode_logged_and_back_at_the_desk(kiosk_client, event, organiser):
    search = reverse("public:kiosk", args=[event.slug])
    leave = reverse("public:kiosk_leave", args=[event.slug])
    assert f'href="{leave}"' in kiosk_client.get(search).content.decode()
    assert 'name="password"' in kiosk_client.get(leave).content.decode()
    response = kiosk_client.post(leave, {"username": "olga", "password": "pw-olga-123"})
    assert response.status_code == 302 and response["Location"] == reverse(
        "manage:players", args=[event.slug]
    )
    entry = AuditEntry.objects.get(tournament=event, action=AuditAction.KIOSK_OFF)
    assert entry.actor == organiser and "olga" in entry.summary
    assert kiosk_client.get(response["Location"]).status_code == 200  # the organiser is logged in
    kiosk_client.logout()
    assert kiosk_client.get(search).status_code == 403  # no kiosk left on this browser


def test_nobody_else_leaves_kiosk_mode(kiosk_client, event, referee, stranger):
    """A referee of the event, another account or a wrong password: refused, the kiosk stays."""
    leave = reverse("public:kiosk_leave", args=[event.slug])
    for username, password in (("rick", "pw-rick-123"), ("sam", "pw-sam-123"), ("olga", "wrong")):
        response = kiosk_client.post(leave, {"username": username, "password": password})
        assert response.status_code == 422
    refused = kiosk_client.post(leave, {"username": "rick", "password": "pw-rick-123"}).content.decode()
    assert "Only an organiser of this event can leave kiosk mode." in refused
    assert "_auth_user_id" not in kiosk_client.session
    assert not AuditEntry.objects.filter(action=AuditAction.KIOSK_OFF).exists()
    assert kiosk_client.get(reverse("public:kiosk", args=[event.slug])).status_code == 200


def test_leaving_kiosk_mode_is_throttled_like_every_login(kiosk_client, event, organiser, settings):
    settings.AXES_ENABLED = True
    leave = reverse("public:kiosk_leave", args=[event.slug])
    for _ in range(5):
        kiosk_client.post(leave, {"username": "olga", "password": "wrong"}, REMOTE_ADDR="192.0.2.20")
    locked = kiosk_client.post(
        leave, {"username": "olga", "password": "pw-olga-123"}, REMOTE_ADDR="192.0.2.20"
    )
    assert locked.status_code == 429
    assert not AuditEntry.objects.filter(action=AuditAction.KIOSK_OFF).exists()


def test_leaving_is_only_for_a_kiosk(client, event):
    response = client.get(reverse("public:kiosk_leave", args=[event.slug]))
    assert response.status_code == 403 and "not the check-in kiosk" in response.content.decode()
