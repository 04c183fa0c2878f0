"""Fixtures of the scoring tests: an event under blind double entry and the referee who makes the
second entry."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournaments.services import events as event_services


@pytest.fixture
def second(db):
    """A referee who entered nothing: the one who may make the blind second entry."""
    return get_user_model().objects.create_user("sue", password="pw-sue-123")


@pytest.fixture
def blind_event(event, organiser, second):
    event_services.update_settings(event, {"confirmation.blind_entry": True}, acting_user=organiser)
    event_services.grant_role(event, second, "referee", acting_user=organiser)
    return event
