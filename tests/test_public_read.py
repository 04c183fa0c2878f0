"""The public read path (tournaments/public_read.py, docs/public-pages.md): visibility decided before the
cache, one key holding every input of an anonymous reader's answer, never an older version served."""

from __future__ import annotations

import gzip
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import views_public
from scoring.services.confirmation import confirm_table
from scoring.services.entry import HandEntry, record_hand, set_table_finished
from tournaments import public_read, release
from tournaments.services import registrations, reseating

pytestmark = pytest.mark.django_db


def public_urls(slug: str) -> list[str]:
    return [
        reverse("public:event", args=[slug]),
        reverse("public:seating", args=[slug, 1]),
        reverse("public:results", args=[slug, 1]),
        reverse("public:standings", args=[slug]),
        reverse("public:player", args=[slug, "p1"]),
        reverse("public:teams", args=[slug]),
        reverse("public:side", args=[slug]),
        reverse("public:standings_download", args=[slug, "csv"]),
    ]


def _uncached(client: Client, url: str, **headers: str):
    with CaptureQueriesContext(connection):
        from django.test import override_settings

        dummy = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
        with override_settings(CACHES=dummy, PUBLIC_PAGE_CACHE=False):
            return client.get(url, headers=headers)


def test_a_second_reader_gets_each_page_from_the_cache_with_one_query(
    client, table, django_assert_num_queries
):
    for url in public_urls(table.round.tournament.slug):
        first = client.get(url)
        assert first.status_code == 200, url
        with django_assert_num_queries(1):  # what the reader may see, and its versions
            again = client.get(url)
        assert again.status_code == 200 and again.content == first.content, url


def test_a_cached_answer_is_exactly_the_uncached_one(client, table, referee):
    record_hand(table, HandEntry(winner="E", discarder="S", fan=12), acting_user=referee)
    for url in public_urls(table.round.tournament.slug):
        for headers in ({}, {"HX-Request": "true"}):
            client.get(url, headers=headers)  # stored
            cached = client.get(url, headers=headers)
            fresh = _uncached(client, url, **headers)
            assert (cached.status_code, cached.content) == (fresh.status_code, fresh.content), (url, headers)
            assert cached["Content-Type"] == fresh["Content-Type"]


def test_hx_request_false_is_a_whole_page_and_never_poisons_the_fragment(client, event):
    # Found by an outsider: an anonymous GET with "HX-Request: false" right after a change stored the whole
    # page under the fragment's key, and every phone's poll then swapped a whole page into its live area.
    for url in (
        reverse("public:standings", args=[event.slug]),
        reverse("public:results", args=[event.slug, 1]),
    ):
        page = client.get(url, headers={"HX-Request": "false"})
        assert "<html" in page.content.decode()
        fragment = client.get(url, headers={"HX-Request": "true"})
        assert fragment.status_code == 200 and "<html" not in fragment.content.decode(), url
        assert "<html" in client.get(url).content.decode()


def test_anonymous_provisional_standings_are_the_public_ones_and_not_offered(client, event, table, referee):
    # Found by an outsider: ?provisional=1 counted every table, drafts and frozen sessions included.
    record_hand(table, HandEntry(winner="E", discarder="S", fan=88), acting_user=referee)
    url = reverse("public:standings", args=[event.slug])
    public = client.get(url)
    provisional = client.get(url + "?provisional=1")
    assert "Provisional:" not in provisional.content.decode()
    assert provisional.content.replace(b"?provisional=1", b"") == public.content
    assert "provisional=1" not in public.content.decode()  # no link offered to an anonymous reader
    for fragment in (True, False):
        headers = {"HX-Request": "true"} if fragment else {}
        assert "Provisional:" not in client.get(url + "?provisional=1", headers=headers).content.decode()


def test_the_staff_still_preview_the_provisional_standings(client, event, table, referee, organiser):
    record_hand(table, HandEntry(winner="E", discarder="S", fan=88), acting_user=referee)
    url = reverse("public:standings", args=[event.slug])
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert "provisional=1" in page
    assert "Provisional:" in client.get(url + "?provisional=1").content.decode()
    client.force_login(referee)
    assert "Provisional:" in client.get(url + "?provisional=1").content.decode()


def test_an_event_taken_back_to_draft_answers_404_on_every_page_at_once(client, event, table, organiser):
    # Found by an outsider: after "back to draft" anonymous readers kept the old page for up to an hour.
    urls = public_urls(event.slug)
    for url in urls:
        assert client.get(url).status_code == 200, url
        assert client.get(url, headers={"HX-Request": "true"}).status_code == 200, url
    release.publish_event(event, False, acting_user=organiser)
    for url in urls:
        assert client.get(url).status_code == 404, url
        assert client.get(url, headers={"HX-Request": "true"}).status_code == 404, url
    release.publish_event(event, True, acting_user=organiser)
    assert all(client.get(url).status_code == 200 for url in urls)


def test_a_sessions_seating_or_results_taken_back_to_draft_answer_404_at_once(client, event, organiser):
    round_ = event.rounds.get(number=1)
    seating = reverse("public:seating", args=[event.slug, 1])
    results = reverse("public:results", args=[event.slug, 1])
    player = reverse("public:player", args=[event.slug, "p1"])
    assert client.get(seating).status_code == client.get(results).status_code == 200
    seated_at = client.get(player).content.decode()
    release.publish_session(round_, "seating", False, acting_user=organiser)
    assert client.get(seating).status_code == 404
    assert client.get(player).content.decode() != seated_at  # the player's page no longer shows the seat
    release.publish_session(round_, "results", False, acting_user=organiser)
    assert client.get(results).status_code == 404
    assert client.get(results, headers={"HX-Request": "true"}).status_code == 404


def test_frozen_standings_are_never_served_from_before_the_freeze(client, event, table, referee, organiser):
    url = reverse("public:standings", args=[event.slug])
    record_hand(table, HandEntry(winner="E", discarder="S", fan=88), acting_user=referee)
    set_table_finished(table, True, acting_user=referee)
    confirm_table(table, acting_user=organiser)
    counted = client.get(url).content.decode()
    assert "1 of 2 tables confirmed" in counted
    session_two = event.rounds.get(number=2)
    reseating.generate_seating(session_two, acting_user=organiser)
    release.freeze_standings(event, 1, acting_user=organiser)
    frozen = client.get(url).content.decode()
    assert "frozen until the prize-giving" in frozen
    assert frozen == _uncached(client, url).content.decode()


def test_a_change_that_counts_for_nothing_still_renews_the_pages(client, event, organiser):
    # Checking a player in changes no standings, but it is audited: every public page renders again.
    url = reverse("public:event", args=[event.slug])
    client.get(url)
    version = type(event).objects.get(pk=event.pk).public_version
    registrations.set_checked_in(event.registrations.get(code="p1"), True, acting_user=organiser)
    assert type(event).objects.get(pk=event.pk).public_version > version
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    assert len(queries) > 1


def test_hands_at_an_unconfirmed_table_renew_only_their_sessions_results_page(
    client, table, referee, django_assert_num_queries
):
    slug = table.round.tournament.slug
    kept = [
        reverse("public:standings", args=[slug]),
        reverse("public:player", args=[slug, "p1"]),
        reverse("public:event", args=[slug]),
    ]
    before = {url: client.get(url).content for url in kept}
    results = reverse("public:results", args=[slug, 1])
    old_results = client.get(results).content
    record_hand(table, HandEntry(winner="E", discarder="S", fan=88), acting_user=referee)
    for url in kept:
        with django_assert_num_queries(1):  # still stored: only the versions are read
            assert client.get(url).content == before[url], url
    assert b"88" in client.get(results).content != old_results


def test_only_a_confirmation_puts_a_session_in_play_on_the_public_standings(
    client, table, referee, organiser
):
    url = reverse("public:standings", args=[table.round.tournament.slug])
    assert "in play" not in client.get(url).content.decode()
    record_hand(table, HandEntry(winner="S", fan=88), acting_user=referee)
    assert "in play" not in client.get(url).content.decode()  # entered, not confirmed: nothing public
    client.force_login(organiser)
    assert "0 of 2 tables confirmed" in client.get(url + "?provisional=1").content.decode()
    client.logout()
    set_table_finished(table, True, acting_user=referee)
    confirm_table(table, acting_user=organiser)
    assert "1 of 2 tables confirmed" in client.get(url).content.decode()


def test_an_unchanged_page_is_answered_304_and_a_changed_one_in_full(client, table, referee, organiser):
    url = reverse("public:results", args=[table.round.tournament.slug, 1])
    first = client.get(url, headers={"HX-Request": "true"})
    etag = first["ETag"]
    assert etag and first["Cache-Control"] == "no-cache"
    unchanged = client.get(url, headers={"HX-Request": "true", "If-None-Match": f"W/{etag}"})
    assert unchanged.status_code == 304 and not unchanged.content
    record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    changed = client.get(url, headers={"HX-Request": "true", "If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    # The staff's own (uncached) answers poll the same way: the ETag is the body's digest.
    client.force_login(organiser)
    staff = client.get(url, headers={"HX-Request": "true"})
    again = client.get(url, headers={"HX-Request": "true", "If-None-Match": staff["ETag"]})
    assert again.status_code == 304


def test_a_signed_in_organiser_is_never_served_an_anonymous_page(client, event, organiser):
    url = reverse("public:event", args=[event.slug])
    anonymous = client.get(url).content.decode()
    client.force_login(organiser)
    own = client.get(url).content.decode()
    assert own != anonymous and "olga" in own
    client.logout()
    assert client.get(url).content.decode() == anonymous


def test_a_public_page_holds_no_csrf_token_sets_no_cookie_and_its_language_switch_needs_none(event, settings):
    strict = Client(enforce_csrf_checks=True)
    url = reverse("public:event", args=[event.slug])
    page = strict.get(url)
    assert page.status_code == 200 and not page.cookies
    assert "csrfmiddlewaretoken" not in page.content.decode() and "X-CSRFToken" not in page.content.decode()
    switched = strict.post(reverse("set_language"), {"language": "zh-hans", "next": url})
    assert switched.status_code == 302
    assert switched.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"


def test_a_stored_page_keeps_the_security_headers_and_says_what_it_varies_on(client, event):
    url = reverse("public:event", args=[event.slug])
    first = client.get(url, headers={"Accept-Encoding": "gzip"})
    again = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(again.content) == gzip.decompress(first.content)
    csp = "Content-Security-Policy" + ("" if first.has_header("Content-Security-Policy") else "-Report-Only")
    for header in (csp, "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"):
        assert again[header] == first[header], header
    assert again["Content-Language"] == "en" and again["ETag"] == first["ETag"]
    vary = {v.strip() for v in again["Vary"].split(",")}
    assert {"Accept-Encoding", "Cookie", "Accept-Language"} <= vary


def test_each_language_has_its_own_stored_page(client, event):
    url = reverse("public:standings", args=[event.slug])
    for _ in range(2):  # rendered, then served from the cache
        chinese = client.get(url, headers={"Accept-Language": "zh-Hans"})
        english = client.get(url, headers={"Accept-Language": "en"})
        assert chinese["Content-Language"] == "zh-hans" and "排名" in chinese.content.decode()
        assert english["Content-Language"] == "en" and "排名" not in english.content.decode()


def test_a_cached_page_is_sent_compressed_to_a_phone_that_accepts_gzip(client, table):
    url = reverse("public:results", args=[table.round.tournament.slug, 1])
    plain = client.get(url)
    compressed = client.get(url, headers={"Accept-Encoding": "gzip, br"})
    assert compressed["Content-Encoding"] == "gzip" and "Accept-Encoding" in compressed["Vary"]
    assert gzip.decompress(compressed.content) == plain.content
    assert len(compressed.content) < len(plain.content) / 2


def test_a_reader_waits_for_another_readers_rendering_and_never_gets_an_older_page(
    client, table, referee, monkeypatch
):
    url = reverse("public:results", args=[table.round.tournament.slug, 1])
    old = client.get(url).content
    record_hand(table, HandEntry(winner="E", discarder="S", fan=88), acting_user=referee)

    class LockHeldElsewhere:
        """The shared cache while another worker renders the new version (and never finishes)."""

        def __getattr__(self, name: str):
            return getattr(cache, name)

        def add(self, *args, **kwargs) -> bool:
            return False

    monkeypatch.setattr(public_read, "cache", LockHeldElsewhere())
    monkeypatch.setattr(public_read, "WAIT_SECONDS", 0.05)
    new = client.get(url).content
    assert new != old and b"88" in new  # waited, then rendered it itself


class _CacheAway:
    """Redis stopped answering."""

    def __getattr__(self, name: str):
        def fail(*args, **kwargs):
            raise ConnectionError("cache unavailable")

        return fail


def test_with_the_cache_away_hands_are_still_saved_and_pages_still_served(
    client, table, referee, monkeypatch
):
    monkeypatch.setattr(public_read, "cache", _CacheAway())
    monkeypatch.setattr(views_public, "cache", _CacheAway())  # the results page's cards are kept there too
    record_hand(table, HandEntry(winner="E", discarder="S", fan=88), acting_user=referee)
    assert table.hands.filter(is_current=True).count() == 1
    for url in public_urls(table.round.tournament.slug):
        page = client.get(url)
        assert page.status_code == 200, url
    assert b"88" in client.get(reverse("public:results", args=[table.round.tournament.slug, 1])).content


def test_the_versions_are_read_once_a_second_and_recent_answers_kept_per_process(
    client, event, organiser, settings, django_assert_num_queries, monkeypatch
):
    settings.PUBLIC_VERSION_SECONDS = 60
    settings.PUBLIC_PAGE_LOCAL_BYTES = 1 << 20
    public_read._stamps.clear()
    public_read.recent_answers.clear()
    url = reverse("public:event", args=[event.slug])
    try:
        first = client.get(url)
        monkeypatch.setattr(public_read, "cache", _CacheAway())  # answered from this worker's memory
        with django_assert_num_queries(0):
            assert client.get(url).content == first.content
        monkeypatch.undo()
        registrations.set_checked_in(event.registrations.get(code="p1"), True, acting_user=organiser)
        public_read._stamps.clear()  # the next period: the new version is read, and a new key
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        assert len(queries) > 1
    finally:
        public_read._stamps.clear()
        public_read.recent_answers.clear()


def test_a_long_or_personal_request_is_answered_without_the_cache(client, event, django_assert_num_queries):
    # The store is never read for them (the data below the page, keyed by its versions, may be: the rows,
    # the standings' table): a stored answer is the one that read path's _answer gives.
    url = reverse("public:standings", args=[event.slug])
    long = url + "?sort=" + "x" * 300
    with mock.patch.object(public_read, "_answer", wraps=public_read._answer) as stored:
        client.get(url)
        client.get(url)
        plain = stored.call_count
        assert plain >= 1  # the probe: a plain second read is the stored answer
        client.get(long)
        client.get(long)
        client.cookies["messages"] = "pending"
        client.get(url)
        client.get(url)
        assert stored.call_count == plain
