"""The desk lists players by their folded name; the release controls offer "Publish"
only for seated sessions; archiving is not styled as the page's primary action."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments import desk
from tournaments.services import events as event_services
from tournaments.services import registrations
from tournaments.tests.test_release import draft  # noqa: F401  # the fixture

pytestmark = pytest.mark.django_db

NAMES = ["Zoë Adams", "Łukasz Nowak", "Élodie Martin", "李小龙", "Anna Berg", "émile Roux", "Kim Park"]


def _names_listed(page: str) -> list[str]:
    return re.findall(r'<td [^>]*class="name"><strong>([^<]+)</strong>', page)


def test_the_desk_sorts_accented_and_chinese_names_with_their_letter(client, organiser):
    cup = event_services.create_tournament(
        event_services.EventDetails(name="Names Cup"), acting_user=organiser
    )
    for name in NAMES:
        registrations.register_player(cup, registrations.PlayerRow(name=name), acting_user=organiser)
    expected = ["Anna Berg", "Élodie Martin", "émile Roux", "Kim Park", "李小龙", "Łukasz Nowak", "Zoë Adams"]
    assert [r.player.name for r in desk.in_desk_order(cup.registrations.select_related("player"))] == expected
    client.force_login(organiser)
    page = client.get(reverse("manage:players", args=[cup.slug])).content.decode()
    assert _names_listed(page) == expected
    found = client.get(reverse("manage:players", args=[cup.slug]), {"q": "e"}).content.decode()
    assert _names_listed(found) == [name for name in expected if name in _names_listed(found)]


def test_publish_is_offered_only_for_seated_sessions(client, draft, organiser):  # noqa: F811
    client.force_login(organiser)
    page = client.get(reverse("manage:event", args=[draft.slug])).content.decode()
    assert 'aria-label="Publish session 1 seating"' in page  # session 1 is seated
    assert 'aria-label="Publish session 1 results"' in page
    assert "Publish session 2 seating" not in page and "Publish session 2 results" not in page
    assert "seat it first" in page


def test_archiving_is_a_secondary_action(client, draft, organiser):  # noqa: F811
    client.force_login(organiser)
    page = client.get(reverse("manage:event", args=[draft.slug])).content.decode()
    assert re.search(r'<button type="submit" class="secondary">Archive the event</button>', page)
