"""The public standings drawn ahead by the background worker (``scoring.standings_page``): what it stores is
what a reader's request draws, in each language, and it draws each new public version once it is committed."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from unittest import mock

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from scoring import standings_page
from scoring.services.confirmation import confirm_table
from scoring.services.entry import HandEntry, record_hand, set_table_finished
from tournaments import public_read, worker
from tournaments.models import Tournament

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
LANGUAGES = {"en": "en", "zh-hans": "zh-Hans,zh;q=0.9"}


def finish(table, referee, organiser, fan):
    record_hand(table, HandEntry(winner="S", fan=fan), acting_user=referee)
    set_table_finished(table, True, acting_user=referee)
    confirm_table(table, acting_user=organiser)


def poll(client, tournament, accept_language):
    url = reverse("public:standings", args=[tournament.slug])
    return client.get(url, headers={**HTMX, "Accept-Language": accept_language})


def not_drawn_by_the_reader():
    return mock.patch.object(standings_page, "draw_standings_table", side_effect=AssertionError("drawn"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_what_is_drawn_ahead_is_what_a_reader_is_served_uncached(client, table, referee, organiser, language):
    tournament = table.round.tournament
    finish(table, referee, organiser, 88)
    cache.clear()
    standings_page.draw_ahead(tournament.pk)
    with not_drawn_by_the_reader():  # the reader finds the drawing stored
        ahead = poll(client, tournament, LANGUAGES[language])
    assert ahead.status_code == 200 and ">288<" in ahead.content.decode().replace(" ", "")  # MCR rule 67
    cache.clear()
    uncached = poll(client, tournament, LANGUAGES[language])
    assert ahead.content == uncached.content and ahead["Content-Language"] == language


def test_drawn_ahead_in_the_event_s_time_zone_and_the_worker_s_zone_left_alone(table, referee, organiser):
    tournament = table.round.tournament
    finish(table, referee, organiser, 8)
    with mock.patch.object(standings_page, "use_event_zone") as zone:
        standings_page.draw_ahead(tournament.pk)
    zone.assert_called_once()
    assert zone.call_args.args[0].pk == tournament.pk


def test_only_public_events_are_watched(table, demo_event):
    tournament = table.round.tournament
    assert tournament.pk in standings_page.public_versions()
    Tournament.objects.filter(pk=tournament.pk).update(published_at=None)  # a draft
    assert tournament.pk not in standings_page.public_versions()
    Tournament.objects.filter(pk=tournament.pk).update(
        published_at="2026-01-01T00:00Z", rehearsal_of=demo_event
    )
    assert tournament.pk not in standings_page.public_versions()


@pytest.mark.django_db(transaction=True)  # the thread reads with its own connection what the test commits
def test_the_worker_s_thread_draws_a_new_version_once_committed(table, referee, organiser):
    tournament = table.round.tournament
    drawn: list[int] = []
    stop = threading.Event()
    with (
        mock.patch.object(standings_page, "_shared_cache", return_value=True),
        mock.patch.object(
            standings_page, "draw_ahead", side_effect=lambda pk, *args, **kwargs: drawn.append(pk) or True
        ),
    ):
        thread = threading.Thread(
            target=standings_page.keep_drawn_ahead, args=(stop,), kwargs={"every": 0.01}
        )
        thread.start()
        try:
            time.sleep(0.1)
            assert drawn == []  # the versions seen at start are the readers' to draw
            finish(table, referee, organiser, 8)
            deadline = time.monotonic() + 5
            while not drawn and time.monotonic() < deadline:
                time.sleep(0.01)
        finally:
            stop.set()
            thread.join(5)
    assert drawn and set(drawn) == {tournament.pk}
    assert not thread.is_alive()


def test_nothing_is_drawn_ahead_into_a_cache_no_reader_shares(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    with mock.patch.object(standings_page, "public_versions") as versions:
        standings_page.keep_drawn_ahead(threading.Event(), every=0.01)  # returns at once
    versions.assert_not_called()


def test_the_worker_runs_its_companions_until_stopped_and_none_with_once():
    started = threading.Event()

    def companion(stop: threading.Event) -> None:
        started.set()
        stop.wait(5)

    with mock.patch.dict(worker.COMPANIONS, {"test": companion}, clear=True):
        worker.work(worker="test", poll=0.01, stop=threading.Event(), once=True)
        assert not started.is_set()
        stop = threading.Event()
        working = threading.Thread(target=worker.work, kwargs={"worker": "t", "poll": 0.01, "stop": stop})
        working.start()
        assert started.wait(5)
        stop.set()
        working.join(5)
        assert not working.is_alive()


def test_drawing_ahead_never_waits_on_a_reader_drawing_the_same_version(table, referee, organiser):
    """A reader of the public pool (lowest CPU priority) that began the drawing first holds its lock; the
    worker draws and stores it itself instead of waiting on it (tournaments.public_read)."""
    tournament = table.round.tournament
    finish(table, referee, organiser, 8)
    cache.clear()
    fresh = Tournament.objects.get(pk=tournament.pk)
    request = standings_page.reader_request(fresh)
    key = f"standings-table:{standings_page.standings_inputs(fresh, request, False)}"
    cache.add(f"{key}:computing", 1)  # a reader is drawing it
    with mock.patch.object(public_read, "_stored_by_another", return_value="the reader's") as waited:
        standings_page.draw_ahead(tournament.pk)
        waited.assert_not_called()
        assert "<table" in cache.get(key) and cache.get(f"{key}:computing") == 1  # ours; its lock left to it
        cache.delete(key)
        assert public_read.computed_once(key, lambda: "drawn") == "the reader's"  # a reader does wait
        waited.assert_called_once()


def stored_later(key: str, value: str, after: float = 0.1) -> threading.Thread:
    """The worker storing its drawing of ``key`` a moment from now."""
    thread = threading.Timer(after, lambda: cache.set(key, value))
    thread.start()
    return thread


def reader_key(tournament, query: str = ""):
    """A reader's request of the standings (sorted by ``query``) and the key of its drawing."""
    fresh = Tournament.objects.get(pk=tournament.pk)
    request = standings_page.reader_request(fresh)
    if query:
        request.GET = request.GET.copy()  # type: ignore[assignment]  # a mutable copy
        request.GET["sort"] = query  # type: ignore[misc]
    return request, f"standings-table:{standings_page.standings_inputs(fresh, request, False)}"


def test_while_the_worker_draws_ahead_a_reader_waits_for_its_drawing(table):
    tournament = Tournament.objects.get(pk=table.round.tournament_id)
    cache.clear()
    request, key = reader_key(tournament)
    cache.set(standings_page.AHEAD_ALIVE_KEY, 1)
    later = stored_later(key, "<p>the worker's</p>")
    with not_drawn_by_the_reader():
        assert standings_page.standings_table_html(tournament, request, False) == "<p>the worker's</p>"
    later.join()


def test_a_reader_draws_itself_with_no_worker_or_another_sort_than_the_one_drawn_ahead(
    table, referee, organiser
):
    finish(table, referee, organiser, 8)
    tournament = Tournament.objects.get(pk=table.round.tournament_id)
    cache.clear()
    request, _ = reader_key(tournament)
    with mock.patch.object(standings_page, "stored_within") as waited:
        assert "<table" in standings_page.standings_table_html(tournament, request, False)  # no worker alive
        cache.set(standings_page.AHEAD_ALIVE_KEY, 1)
        by_name, _ = reader_key(tournament, "name")
        assert "<table" in standings_page.standings_table_html(tournament, by_name, False)
    waited.assert_not_called()


def test_the_worker_never_waits_for_its_own_drawing(table, referee, organiser):
    tournament = table.round.tournament
    finish(table, referee, organiser, 8)
    cache.clear()
    cache.set(standings_page.AHEAD_ALIVE_KEY, 1)
    with mock.patch.object(public_read.time, "sleep", side_effect=AssertionError("waited")):
        standings_page.draw_ahead(tournament.pk)
    _, key = reader_key(tournament)
    assert "<table" in cache.get(key)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("sort", ["", "rank", "-rank", "name", "-name", "-table_points", "score", "-score"])
@pytest.mark.parametrize("demo", ["demo-mcr", "demo-nmjl", "demo-babcock"])
def test_the_fast_rows_are_django_tables2_s_rows(db, demo, sort, language):
    """StandingsTable.body_html draws what django-tables2's body would (compared parsed: whitespace aside),
    for every sort, both languages and each rule set's table, with a ruling's status, a country, a name to
    escape and tie-break words in the rows."""
    import json

    from django.template import Context, Template
    from django.test.html import parse_html
    from django.utils import translation

    from scoring.interchange import import_event
    from scoring.tables import FAST_CELLS

    with (FIXTURES / f"{demo}.json").open(encoding="utf-8") as handle:
        document = json.load(handle)
    document["players"][0]["name"] = "O'Brien <Ann> & Co"  # escaped alike
    document["players"][1]["country"] = "NL"
    document["players"][2]["country"] = ""  # a player without a country: the column's default
    demo_event = import_event(document)
    real_rows = standings_page.cached_standings_rows

    def with_a_ruling(tournament, **kwargs):  # a player out of the ranking (MCR rule 89): rank None, status
        rows = [dict(row) for row in real_rows(tournament, **kwargs)]
        rows[-1].update(rank=None, status="disqualification")
        return rows

    request = standings_page.reader_request(demo_event)
    if sort:
        request.GET = request.GET.copy()
        request.GET["sort"] = sort
    with translation.override(language):
        captured = {}
        real = standings_page.StandingsTable.body_html

        def keep_table(table):
            captured["table"] = table
            return real(table)

        with (
            mock.patch.object(standings_page.StandingsTable, "body_html", keep_table),
            mock.patch.object(standings_page, "cached_standings_rows", with_a_ruling),
        ):
            page = standings_page.draw_standings_table(demo_event, request, False)
        fast = re.search(r"<tbody[^>]*>(.*)</tbody>", page, re.S)[1]
        table = captured["table"]
        reference = Template(
            "{% for row in table.paginated_rows %}<tr {{ row.attrs.as_html }}>{% for column, cell in row.items %}"
            "<td {{ column.attrs.td.as_html }}>{{ cell }}</td>{% endfor %}</tr>{% endfor %}"
        ).render(Context({"table": table}))
    assert parse_html(fast) == parse_html(reference)
    assert fast.count("<tr") == len(table.rows) > 0 and {c.name for c in table.columns} <= set(FAST_CELLS)
    assert "O&#x27;Brien &lt;Ann&gt; &amp; Co" in fast and ">NL<" in fast
    assert ">disqualified<" in fast or language != "en"


def test_the_worker_computes_the_players_places_ahead_too(table, referee, organiser):
    """Every player page reads each player's place after each session: computed once per version by the
    worker, a reader of a player page finds them stored (scoring.standings_cache)."""
    from scoring import standings_cache

    tournament = table.round.tournament
    finish(table, referee, organiser, 8)
    cache.clear()
    standings_page.draw_ahead(tournament.pk)
    fresh = Tournament.objects.get(pk=tournament.pk)
    with mock.patch.object(
        standings_cache, "places_after_each_session", side_effect=AssertionError("computed")
    ):
        rows, places = standings_cache.public_standings_and_places(fresh)
    assert rows and places


def test_drawing_ahead_leaves_an_old_version_for_a_newer_one(table, referee, organiser):
    """A confirmation committed while the worker draws the places and the other language of the version
    before it: the worker leaves the rest of the old version (False) and draws the new one, whose first
    language the open standings pages wait for."""
    from scoring import standings_cache

    tournament = table.round.tournament
    finish(table, referee, organiser, 8)
    cache.clear()
    version = Tournament.objects.get(pk=tournament.pk).public_version
    drawn: list[str] = []
    real_draw_in = standings_page._draw_in

    def draw_then_a_confirmation(language, *args):
        drawn.append(language)
        real_draw_in(language, *args)
        Tournament.objects.filter(pk=tournament.pk).update(public_version=version + 1)

    with (
        mock.patch.object(standings_page, "_draw_in", side_effect=draw_then_a_confirmation),
        mock.patch.object(standings_cache, "places_after_each_session", side_effect=AssertionError("places")),
    ):
        assert standings_page.draw_ahead(tournament.pk, version) is False
        assert drawn == ["en"]  # the site's language only: neither the places nor Chinese of the old version
        assert standings_page.draw_ahead(tournament.pk, version) is False  # asked for an old one: nothing
        assert drawn == ["en"]


def test_a_reader_stops_waiting_once_the_worker_draws_a_newer_version(table):
    """A reader of a version the worker left (a newer one was committed) draws it at once instead of
    holding a thread of the public pool for ``READER_WAITS_SECONDS``; at its own version it waits."""
    tournament = Tournament.objects.get(pk=table.round.tournament_id)
    cache.clear()
    request, key = reader_key(tournament)
    cache.set(standings_page.AHEAD_ALIVE_KEY, 1)
    cache.set(standings_page._drawing_key(tournament.pk), tournament.public_version + 1)
    started = time.monotonic()
    with mock.patch.object(standings_page, "READER_WAITS_SECONDS", 30):
        assert "unranked-reason" in standings_page.standings_table_html(tournament, request, False)
    assert time.monotonic() - started < 10  # not the 30 s wait
    cache.delete(key)
    cache.set(standings_page._drawing_key(tournament.pk), tournament.public_version)  # the reader's
    later = stored_later(key, "<p>the worker's</p>", after=0.2)
    with not_drawn_by_the_reader():
        assert standings_page.standings_table_html(tournament, request, False) == "<p>the worker's</p>"
    later.join()


def test_the_first_part_and_the_rest_draw_what_the_whole_draws(table, referee, organiser):
    """The worker's first thread draws the site's language, its second the places and the other
    languages: together, every key a whole drawing stores, and each part alone only its own."""
    from scoring import standings_cache

    tournament = table.round.tournament
    finish(table, referee, organiser, 8)
    fresh = Tournament.objects.get(pk=tournament.pk)
    keys = {}
    for language in ("en", "zh-hans"):
        with translation.override(language):
            keys[language] = reader_key(fresh)[1]
    cache.clear()
    with mock.patch.object(
        standings_cache, "places_after_each_session", wraps=standings_cache.places_after_each_session
    ) as places:
        assert standings_page.draw_ahead(tournament.pk, fresh.public_version, part=standings_page.FIRST)
        assert cache.get(keys["en"]) and cache.get(keys["zh-hans"]) is None and places.call_count == 0
        assert standings_page.draw_ahead(tournament.pk, fresh.public_version, part=standings_page.REST)
        assert cache.get(keys["zh-hans"]) and places.call_count == 1
    Tournament.objects.filter(pk=tournament.pk).update(public_version=fresh.public_version + 1)
    cache.delete(keys["zh-hans"])
    assert not standings_page.draw_ahead(tournament.pk, fresh.public_version, part=standings_page.REST)
    assert cache.get(keys["zh-hans"]) is None  # an older version's rest is left


def test_the_rest_thread_draws_the_newest_version_handed_on(table, referee, organiser):
    tournament = table.round.tournament
    finish(table, referee, organiser, 8)
    version = Tournament.objects.get(pk=tournament.pk).public_version
    drawn: list[tuple] = []
    stop, newest = threading.Event(), standings_page.queue.Queue(maxsize=1)
    standings_page._hand_on(newest, (tournament.pk, version - 1))
    standings_page._hand_on(newest, (tournament.pk, version))  # replaces the older one not begun
    with mock.patch.object(
        standings_page, "draw_ahead", side_effect=lambda *args, **kwargs: drawn.append((args, kwargs)) or True
    ):
        thread = threading.Thread(target=standings_page._draw_the_rest, args=(stop, newest))
        thread.start()
        deadline = time.monotonic() + 5
        while not drawn and time.monotonic() < deadline:
            time.sleep(0.01)
        stop.set()
        thread.join(5)
    assert [(args[:2], kwargs["part"]) for args, kwargs in drawn] == [((tournament.pk, version), "rest")]
