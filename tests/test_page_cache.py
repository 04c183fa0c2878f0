"""Public pages cached whole per event version (tournaments/page_cache.py): one rendering per change for
every anonymous reader, never a page older than the last change, 304 for an unchanged poll."""

from __future__ import annotations

import gzip
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import views_public
from scoring.services import HandEntry, record_hand
from tournaments import page_cache, services

pytestmark = pytest.mark.django_db


def public_urls(slug: str) -> list[str]:
    return [
        reverse("public:results", args=[slug, 1]),
        reverse("public:player", args=[slug, "p1"]),
        reverse("public:event", args=[slug]),
        reverse("public:seating", args=[slug, 1]),
        reverse("public:standings", args=[slug]),
    ]


def test_a_second_reader_gets_each_page_from_the_cache_with_one_query(
    client, table, django_assert_num_queries
):
    for url in public_urls(table.round.tournament.slug):
        first = client.get(url)
        assert first.status_code == 200, url
        with django_assert_num_queries(1):
            again = client.get(url)  # only the event's version is read
        assert again.status_code == 200 and _page(again) == _page(first), url


def test_a_recorded_hand_shows_at_once_on_the_results_and_player_pages(client, table, referee):
    slug = table.round.tournament.slug
    results_url = reverse("public:results", args=[slug, 1])
    before = client.get(results_url).content.decode()
    record_hand(table, HandEntry(winner="E", discarder="S", fan=88), acting_user=referee)
    after = client.get(results_url).content.decode()
    assert after != before and "88" in after


def test_a_change_that_counts_for_nothing_still_renews_the_pages(
    client, event, organiser, django_assert_num_queries
):
    # Checking a player in bumps no standings, but it is an audited change: the event page renders again.
    url = reverse("public:event", args=[event.slug])
    client.get(url)
    generation = page_cache.page_generation(event.pk)
    services.set_checked_in(event.registrations.get(code="p1"), True, acting_user=organiser)
    assert page_cache.page_generation(event.pk) > generation
    client.get(url)
    with django_assert_num_queries(1):
        client.get(url)  # cached for the new generation...
    services.set_checked_in(event.registrations.get(code="p1"), False, acting_user=organiser)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)  # ...and rendered again after the next change
    assert len(queries) > 1


def test_an_unchanged_page_is_answered_304_and_a_changed_one_in_full(client, table, referee):
    url = reverse("public:results", args=[table.round.tournament.slug, 1])
    first = client.get(url)
    etag = first["ETag"]
    assert etag and first["Cache-Control"] == "no-cache"
    unchanged = client.get(url, headers={"If-None-Match": f"W/{etag}"})  # gzip's weak form
    assert unchanged.status_code == 304 and not unchanged.content
    record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_signed_in_organiser_is_never_served_an_anonymous_page(client, event, organiser):
    url = reverse("public:event", args=[event.slug])
    anonymous = client.get(url).content.decode()
    client.force_login(organiser)
    own = client.get(url).content.decode()
    assert own != anonymous and "olga" in own


class _LockHeldElsewhere:
    """The shared cache as a worker sees it while another worker renders the new version."""

    def __getattr__(self, name: str):
        return getattr(cache, name)

    def add(self, *args, **kwargs) -> bool:
        return False


def test_while_another_worker_renders_a_new_version_the_previous_page_is_served(
    client, table, referee, monkeypatch, django_assert_num_queries
):
    url = reverse("public:results", args=[table.round.tournament.slug, 1])
    old = _page(client.get(url))
    record_hand(table, HandEntry(winner="E", discarder="S", fan=88), acting_user=referee)
    monkeypatch.setattr(page_cache, "cache", _LockHeldElsewhere())
    with django_assert_num_queries(1):
        assert _page(client.get(url)) == old  # no stampede: nothing rendered here
    monkeypatch.undo()
    assert _page(client.get(url)) != old


def test_a_public_page_holds_no_csrf_token_sets_no_cookie_and_its_language_switch_needs_none(event, settings):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    url = reverse("public:event", args=[event.slug])
    page = strict.get(url)
    assert page.status_code == 200 and not page.cookies
    assert "csrfmiddlewaretoken" not in page.content.decode() and "X-CSRFToken" not in page.content.decode()
    switched = strict.post(reverse("set_language"), {"language": "zh-hans", "next": url})
    assert switched.status_code == 302
    assert switched.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"


def test_a_stored_page_is_served_before_the_view_with_the_security_headers(
    client, event, settings, django_assert_num_queries
):
    settings.PUBLIC_VERSION_SECONDS = 60
    settings.PUBLIC_PAGE_LOCAL_BYTES = 1 << 20
    page_cache.local_pages.clear()
    page_cache._versions.clear()
    url = reverse("public:event", args=[event.slug])
    first = client.get(url, headers={"Accept-Encoding": "gzip"})
    with django_assert_num_queries(0):  # versions remembered, page in this worker's memory
        again = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(again.content) == gzip.decompress(first.content)
    csp = "Content-Security-Policy" + ("" if first.has_header("Content-Security-Policy") else "-Report-Only")
    for header in (csp, "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"):
        assert again[header] == first[header], header
    assert again["Content-Language"] == "en" and again["ETag"] == first["ETag"]
    assert {"Accept-Encoding", "Cookie", "Accept-Language"} <= {v.strip() for v in again["Vary"].split(",")}
    page_cache._versions.clear()


def test_the_fast_path_serves_each_language_its_own_page(client, event):
    url = reverse("public:standings", args=[event.slug])
    for _ in range(2):  # rendered, then served from the cache
        chinese = client.get(url, headers={"Accept-Language": "zh-Hans"})
        english = client.get(url, headers={"Accept-Language": "en"})
        assert chinese["Content-Language"] == "zh-hans" and "排名" in chinese.content.decode()
        assert english["Content-Language"] == "en" and "排名" not in english.content.decode()


def test_hands_at_an_unconfirmed_table_renew_only_their_sessions_results_page(
    client, table, referee, django_assert_num_queries
):
    slug = table.round.tournament.slug
    record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)  # session 1 in play
    kept = [
        reverse("public:standings", args=[slug]),
        reverse("public:player", args=[slug, "p1"]),
        reverse("public:event", args=[slug]),
        reverse("public:results", args=[slug, 2]),
    ]
    before = {url: _page(client.get(url)) for url in kept}
    results = reverse("public:results", args=[slug, 1])
    old_results = _page(client.get(results))
    record_hand(table, HandEntry(winner="E", discarder="S", fan=88), acting_user=referee)
    for url in kept:
        with django_assert_num_queries(1):  # still stored: only the versions are read
            assert _page(client.get(url)) == before[url], url
    assert "88" in _page(client.get(results)) != old_results
    provisional = reverse("public:standings", args=[slug]) + "?provisional=1"
    before_hand = _page(client.get(provisional))
    record_hand(table, HandEntry(winner="E", discarder="S", fan=64), acting_user=referee)
    assert _page(client.get(provisional)) != before_hand  # the provisional view counts every entry


def test_a_sessions_first_hand_and_a_confirmation_renew_the_standings(client, table, referee, organiser):
    from scoring.services import confirm_table, set_table_finished

    url = reverse("public:standings", args=[table.round.tournament.slug])
    assert "in play" not in _page(client.get(url))
    record_hand(table, HandEntry(winner="S", fan=88), acting_user=referee)
    assert "0 of 2 tables confirmed" in _page(client.get(url))  # the session is in play
    set_table_finished(table, True, acting_user=referee)
    confirm_table(table, acting_user=organiser)
    assert "1 of 2 tables confirmed" in _page(client.get(url))


def _page(response: HttpResponse) -> str:
    return _page_text(response.content)


def _token_in(response: HttpResponse) -> str:
    match = re.search(r'"X-CSRFToken": "([A-Za-z0-9]+)"', response.content.decode())
    assert match, "every page carries the CSRF token for htmx (templates/base.html)"
    return match[1]


def test_a_page_that_set_a_cookie_or_a_reader_with_a_session_is_never_cached(event):
    renders: list[str] = []

    def with_cookie(request: HttpRequest, slug: str) -> HttpResponse:
        renders.append(slug)
        response = HttpResponse("<p>hello</p>")
        response.set_cookie("seen", "1")
        return response

    view = page_cache.cached_page(with_cookie)
    factory = RequestFactory()
    view(factory.get("/x"), event.slug)
    view(factory.get("/x"), event.slug)
    assert len(renders) == 2

    def plain(request: HttpRequest, slug: str) -> HttpResponse:
        renders.append(slug)
        return HttpResponse("<p>\n      same for everyone\n    </p>")

    view = page_cache.cached_page(plain)
    first = view(factory.get("/y"), event.slug)
    view(factory.get("/y"), event.slug)
    assert len(renders) == 3
    assert first.content == b"<p>\nsame for everyone\n</p>"
    with_session = factory.get("/y")
    with_session.COOKIES["sessionid"] = "abc"
    view(with_session, event.slug)
    assert len(renders) == 4


def test_the_standings_fragment_carries_no_indentation(client, demo_event):
    url = reverse("public:standings", args=[demo_event.slug])
    fragment = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert "<table" in fragment
    assert not [line for line in fragment.splitlines() if line.startswith((" ", "\t"))]
    assert "\n\n" not in fragment


def test_while_results_pour_in_a_page_is_rendered_at_most_every_few_seconds(
    client, table, referee, settings, django_assert_num_queries
):
    settings.PUBLIC_PAGE_MIN_SECONDS = 60
    url = reverse("public:results", args=[table.round.tournament.slug, 1])
    old = _page(client.get(url))
    record_hand(table, HandEntry(winner="E", discarder="S", fan=88), acting_user=referee)
    with django_assert_num_queries(1):
        assert _page(client.get(url)) == old  # rendered less than a minute ago: served again
    settings.PUBLIC_PAGE_MIN_SECONDS = 0
    assert "88" in _page(client.get(url)) != old


def test_a_cached_page_is_sent_compressed_to_a_phone_that_accepts_gzip(client, table):
    url = reverse("public:results", args=[table.round.tournament.slug, 1])
    plain = client.get(url)
    compressed = client.get(url, headers={"Accept-Encoding": "gzip, br"})
    assert compressed["Content-Encoding"] == "gzip" and "Accept-Encoding" in compressed["Vary"]
    assert _page_text(gzip.decompress(compressed.content)) == _page(plain)
    assert len(compressed.content) < len(plain.content) / 2


def _page_text(body: bytes) -> str:
    """The page without its CSRF tokens (masked afresh for each response; the htmx header's and the
    language switch's form field)."""
    return re.sub(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[A-Za-z0-9]+', r"\1", body.decode())


def test_a_page_rendered_for_the_cache_may_use_standings_a_few_seconds_old(event, table, referee):
    from scoring.standings_cache import cached_standings_rows
    from tournaments.models import Tournament

    first = cached_standings_rows(Tournament.objects.get(pk=event.pk), include_provisional=True)
    record_hand(table, HandEntry(winner="E", discarder="S", fan=88), acting_user=referee)
    token = page_cache._STALE_TOLERANCE.set(60.0)  # as while cached_page renders, PUBLIC_PAGE_MIN_SECONDS=60
    try:
        assert cached_standings_rows(Tournament.objects.get(pk=event.pk), include_provisional=True) == first
    finally:
        page_cache._STALE_TOLERANCE.reset(token)
    assert cached_standings_rows(Tournament.objects.get(pk=event.pk), include_provisional=True) != first


class _CacheAway:
    """Redis stopped answering."""

    def __getattr__(self, name: str):
        def fail(*args, **kwargs):
            raise ConnectionError("cache unavailable")

        return fail


def test_with_the_cache_away_hands_are_still_saved_and_pages_still_served(
    client, table, referee, monkeypatch
):
    url = reverse("public:results", args=[table.round.tournament.slug, 1])
    monkeypatch.setattr(page_cache, "cache", _CacheAway())
    monkeypatch.setattr(views_public, "cache", _CacheAway())  # the results page's cards are kept there too
    record_hand(table, HandEntry(winner="E", discarder="S", fan=88), acting_user=referee)  # audited: no error
    assert table.hands.filter(is_current=True).count() == 1
    page = client.get(url)
    assert page.status_code == 200 and "88" in page.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_new_version_is_rendered_behind_the_answer_while_the_previous_page_is_served(
    client, table, referee, settings
):
    import threading

    settings.PUBLIC_PAGE_BACKGROUND = True
    url = reverse("public:results", args=[table.round.tournament.slug, 1])
    old = _page(client.get(url))  # nothing stored yet: rendered in the request
    record_hand(table, HandEntry(winner="E", discarder="S", fan=88), acting_user=referee)
    assert _page(client.get(url)) == old  # the previous page at once...
    for thread in threading.enumerate():
        if thread.name == "page-refresh":
            thread.join(timeout=30)
    new = _page(client.get(url))  # ...and the new one once rendered behind it
    assert new != old and "88" in new
