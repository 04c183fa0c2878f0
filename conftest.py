"""Shared fixtures: users with roles, a seated MCR event, the demo event."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from hypothesis import settings as hypothesis_settings

FIXTURES = Path(__file__).resolve().parent / "fixtures"

# No per-example deadline in the suite: a property test checks behaviour, and one example slowed by a loaded
# CI machine (291 ms against hypothesis's default 200 ms, seen in a Debian 12 run) is not a failure. Speed
# targets live in bench/. Tests that set their own settings keep them.
hypothesis_settings.register_profile("suite", deadline=None)
hypothesis_settings.load_profile("suite")


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache (the standings caches would otherwise outlive the rows).
    The pure rule engines' tests may run without Django (-p no:django): nothing to clear then."""
    from django.conf import settings

    if not settings.configured:
        yield
        return
    from django.core.cache import cache
    from django.utils import translation

    cache.clear()
    yield
    cache.clear()
    # LocaleMiddleware leaves the last request's language active in the thread: back to English.
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def organiser(db):
    """An account an administrator allowed to create events (a site-level permission)."""
    from django.contrib.auth.models import Permission

    user = get_user_model().objects.create_user("olga", password="pw-olga-123")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.fixture
def referee(db):
    return get_user_model().objects.create_user("rick", password="pw-rick-123")


@pytest.fixture
def stranger(db):
    return get_user_model().objects.create_user("sam", password="pw-sam-123")


@pytest.fixture
def event(organiser, referee):
    """An MCR event with 8 registered players, 2 sessions of 4 hands, session 1 seated."""
    from tournaments.models import Role
    from tournaments.release import publish_everything
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Test Open", slug="test-open", num_sessions=2, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    # A small seating time limit, because a fixture that runs the search to its full limit makes the whole
    # suite slow: 8 players cannot avoid every repeat, and the
    # search would otherwise use its whole default limit each time a test seats a session.
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for index, name in enumerate(["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"], start=1):
        registrations.register_player(
            tournament, registrations.PlayerRow(name=name, team=f"T{index % 4}"), acting_user=organiser
        )
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    # Published as a whole, as an imported event is (the release controls have their own tests).
    return publish_everything(tournament, acting_user=organiser)


@pytest.fixture
def table(event):
    return event.rounds.get(number=1).tables.get(number=1)


@pytest.fixture
def nmjl_table(organiser, referee):
    """The one table of an NMJL event (4 players, 2 sessions of 4 games, session 1 seated, not published)."""
    from tournaments.models import Role
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    tournament = event_services.create_tournament(
        event_services.EventDetails(
            name="Boca Open", slug="boca-open", rules="nmjl", num_sessions=2, hands_per_session=4
        ),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    for name in ["Ann", "Bea", "Cat", "Dot"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    [table] = reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    return table


@pytest.fixture
def demo_event(db):
    from scoring.interchange import import_event

    with (FIXTURES / "demo-mcr.json").open(encoding="utf-8") as handle:
        return import_event(json.load(handle))


@pytest.fixture
def spec_example():
    with (FIXTURES / "spec-example.json").open(encoding="utf-8") as handle:
        return json.load(handle)
