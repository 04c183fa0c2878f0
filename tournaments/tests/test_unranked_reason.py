"""When nobody is ranked, the public standings say why (no confirmed table yet, results not
published yet, or standings frozen before any session with a confirmed table)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.standings_cache import why_nobody_is_ranked
from tournaments import release
from tournaments.services import reseating
from tournaments.tests.test_release import draft, play_and_confirm  # noqa: F401  # the fixture

pytestmark = pytest.mark.django_db


def _standings(client, tournament, query: str = "") -> str:
    return client.get(reverse("public:standings", args=[tournament.slug]) + query).content.decode()


@pytest.fixture
def published(draft, organiser):  # noqa: F811
    release.publish_event(draft, True, acting_user=organiser)
    return draft


def test_with_no_confirmed_table_they_say_a_table_must_be_confirmed(client, published):
    assert why_nobody_is_ranked(published) == "none_confirmed"
    assert "a player is ranked once a table they played at is confirmed" in _standings(client, published)


def test_with_confirmed_but_unpublished_results_they_say_the_results_are_not_published(
    client, published, referee, organiser
):
    for table in published.rounds.get(number=1).tables.all():
        play_and_confirm(table, referee, organiser)
    assert why_nobody_is_ranked(published) == "unpublished"
    page = _standings(client, published)
    assert "the results of the sessions played are not published yet" in page
    assert "once a table they played at is confirmed" not in page


def test_with_standings_frozen_before_any_confirmed_session_they_say_so(
    client, published, referee, organiser
):
    reseating.generate_seating(published.rounds.get(number=2), acting_user=organiser)
    play_and_confirm(published.rounds.get(number=2).tables.first(), referee, organiser)
    release.publish_session(published.rounds.get(number=2), "results", True, acting_user=organiser)
    release.freeze_standings(published, 1, acting_user=organiser)
    published.refresh_from_db()
    assert why_nobody_is_ranked(published) == "frozen"
    page = _standings(client, published)
    assert "the standings were frozen after session 1, before any session with a confirmed table" in page


def test_the_staff_preview_says_nothing_is_entered(client, published, organiser):
    client.force_login(organiser)
    assert "no result has been entered" in _standings(client, published, "?provisional=1")
