"""Degrade, never fail: with Redis away every page is computed from the database; with the
database away for a moment a save says plainly it was not stored; the health check names the part that is
down."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.cache import cache
from django.db import InterfaceError, OperationalError
from django.test import Client, override_settings
from django.urls import reverse

from config import cache as resilient
from tests.test_public_read import public_urls

pytestmark = pytest.mark.django_db

CACHE_AWAY = {
    "default": {
        "BACKEND": "config.cache.ResilientRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1: every connection is refused
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}


@pytest.fixture
def cache_away():
    resilient._away_until.clear()
    with override_settings(CACHES=CACHE_AWAY):
        yield
    resilient._away_until.clear()


def test_the_resilient_cache_answers_as_an_empty_cache_while_redis_is_away(cache_away):
    assert cache.get("k", "default") == "default"
    assert cache.get_many(["a", "b"]) == {}
    assert cache.add("lock", 1) is True  # nobody can hold a lock: the caller computes
    assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"]
    cache.set("k", 1)
    cache.delete("k")
    assert not cache.has_key("k")
    with pytest.raises(ValueError):
        cache.incr("k")
    assert cache.answers() is False


def test_with_redis_away_every_public_page_the_referees_table_and_a_save_answer(
    client, table, referee, cache_away
):
    slug = table.round.tournament.slug
    for url in public_urls(slug):
        assert client.get(url).status_code == 200, url
    client.force_login(referee)
    table_url = reverse("referee:table", args=[slug, 1, 1])
    assert client.get(table_url).status_code == 200
    form = {"how": "discard", "winner": "E", "discarder": "S", "fan": "88", "expected_number": "1"}
    saved = client.post(reverse("referee:add_hand", args=[slug, 1, 1]), form)
    assert saved.status_code == 302
    assert table.hands.filter(is_current=True).count() == 1
    assert client.get(table_url).status_code == 200
    client.logout()
    for url in public_urls(slug):
        assert client.get(url).status_code == 200, url
    assert b"88" in client.get(reverse("public:results", args=[slug, 1])).content


def _database_away():
    """Every query fails as it does while PostgreSQL restarts."""
    from django.db.backends.base.base import BaseDatabaseWrapper

    return mock.patch.object(
        BaseDatabaseWrapper,
        "cursor",
        side_effect=OperationalError("server closed the connection unexpectedly"),
    )


def test_with_the_database_away_a_save_says_it_was_not_stored_and_nothing_is(table, referee):
    client = Client(raise_request_exception=False)
    client.force_login(referee)
    url = reverse("referee:add_hand", args=[table.round.tournament.slug, 1, 1])
    form = {"how": "discard", "winner": "E", "discarder": "S", "fan": "8", "expected_number": "1"}
    with _database_away():
        response = client.post(url, form)
    assert response.status_code == 503
    assert "Not saved: the database did not answer." in response.content.decode()
    assert "press Back and save again" in response.content.decode()
    assert "no-cache" in response["Cache-Control"]
    assert table.hands.count() == 0
    assert client.post(url, form).status_code == 302  # the retry stores it, once
    assert table.hands.count() == 1


def test_with_the_database_away_a_view_that_raises_answers_503_to_a_post_and_a_get(table, referee):
    client = Client(raise_request_exception=False)
    client.force_login(referee)
    url = reverse("referee:table", args=[table.round.tournament.slug, 1, 1])
    failing = mock.patch(
        "scoring.views_referee_table.event_for", side_effect=InterfaceError("connection closed")
    )
    with failing:
        read = client.get(url)
    assert read.status_code == 503
    assert read["Retry-After"] == "2"
    assert "The site is busy: try again in a moment." in read.content.decode()
    with failing:
        saved = client.post(url + "hands/add/", {"how": "self", "winner": "E", "fan": "8"})
    assert saved.status_code == 503
    assert "Not saved: the database did not answer." in saved.content.decode()


def test_with_the_database_away_a_public_page_says_the_site_is_busy_in_the_readers_language(event):
    client = Client(raise_request_exception=False)
    url = reverse("public:standings", args=[event.slug])
    with _database_away():
        english = client.get(url)
        chinese = client.get(url, headers={"accept-language": "zh-hans"})
    assert english.status_code == chinese.status_code == 503
    assert english["Retry-After"] == "2"
    assert "The site is busy: try again in a moment." in english.content.decode()
    assert "网站繁忙：请稍后再试。" in chinese.content.decode()
    assert 'lang="zh-hans"' in chinese.content.decode()


def test_any_other_error_is_still_the_generic_error_page(table, referee):
    client = Client(raise_request_exception=False)
    client.force_login(referee)
    with mock.patch("scoring.views_referee_table.event_for", side_effect=RuntimeError("a bug")):
        response = client.get(reverse("referee:table", args=[table.round.tournament.slug, 1, 1]))
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()


def test_the_health_check_says_the_cache_is_down_and_the_site_degraded_but_serving(cache_away, client):
    response = client.get("/healthz")
    assert response.status_code == 200  # every page is still served, from the database
    assert response.json() == {"database": "ok", "cache": "down", "status": "degraded"}
    assert "no-cache" in response["Cache-Control"]


def test_the_health_check_answers_503_naming_the_database_when_it_is_down(client):
    with _database_away():
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"database": "down", "cache": "ok", "status": "down"}
