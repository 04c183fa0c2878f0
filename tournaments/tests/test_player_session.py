"""A player's own session (tournaments/player_session.py): one registration, one event, no account."""

from __future__ import annotations

from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory

from tournaments import desk, player_session
from tournaments.services import events, registrations


def request_with_session():
    request = RequestFactory().get("/")
    request.session = SessionStore()
    return request


def test_a_signed_in_player_is_theirs_in_that_event_only(event, organiser):
    other = events.create_tournament(
        events.EventDetails(name="Other Open", slug="other-open"), acting_user=organiser
    )
    registrations.register_player(other, registrations.PlayerRow(name="Zed"), acting_user=organiser)
    ana = event.registrations.get(player__name="Ana")
    request = request_with_session()
    before = request.session.session_key
    player_session.sign_in(request, ana)
    assert player_session.signed_in(request, event) == ana
    assert player_session.signed_in(request, other) is None
    assert request.session.session_key != before or before is None
    player_session.sign_out(request, event)
    assert player_session.signed_in(request, event) is None


def test_a_withdrawn_player_is_signed_in_no_more(event, organiser):
    ana = event.registrations.get(player__name="Ana")
    request = request_with_session()
    player_session.sign_in(request, ana)
    desk.set_withdrawn(ana, True, acting_user=organiser)
    assert player_session.signed_in(request, event) is None
