"""Degrade, never fail (issue 25): with Redis away every page is computed from the database; with the
database away for a moment a save says plainly it was not stored; the health check names the part that is
down."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import override_settings
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
