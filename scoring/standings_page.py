"""The public standings' table as the standings page and its poll show it, drawn once per version, language
and sort (``tournaments.public_read.computed_once``), and drawn ahead of the first reader.

At 400 players a drawing costs ~200 ms of rows and ~250 ms of table. Drawn by the first phone that polls after
a confirmation, in the public pool at the lowest CPU priority while the hall's other pages are redrawn too, a
confirmation reached an open standings page up to 2.75 s late (``bench/entry_load.py`` step 4). The
background worker therefore draws the new version as soon as it is committed (:func:`keep_drawn_ahead`, two
threads of ``manage.py run_worker``: the site's language at the referees' priority, the places and the other
languages between the referees' and the public pool's): the first poll finds the drawing stored. What it stores is what a reader's request would draw (the same function,
the same key): ``scoring/tests/test_standings_page.py``.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import hashlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import close_old_connections, connection
from django.http import HttpRequest, QueryDict
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import get_language
from django_tables2 import RequestConfig

from scoring.projector import projector_slides
from scoring.services.confirmation import blind_entry_on, previews_unconfirmed
from scoring.standings_cache import (
    SessionProgress,
    cached_standings_rows,
    frozen_lines,
    progress_lines,
    public_progress,
    public_standings_and_places,
    session_progress,
    why_nobody_is_ranked,
)
from scoring.tables import ScoreStandingsTable, StandingsTable
from tournaments import public_names
from tournaments.access import has_role
from tournaments.models import Role, Tournament
from tournaments.public_read import PAGE_SECONDS, computed_once, computing_without_waiting, stored_within
from tournaments.venue_time import use_event_zone

log = logging.getLogger(__name__)

STANDINGS_PARAMETERS = ("sort", "provisional")
"""The only query parameters the standings page reads; its links carry nothing else (a visitor's other
parameters never reach another visitor's page)."""


def standings_request(request: HttpRequest) -> HttpRequest:
    """The request as the standings see it: only the parameters they read, each kept short."""
    clean = copy.copy(request)
    query = QueryDict(mutable=True)
    for name in STANDINGS_PARAMETERS:
        value = request.GET.get(name, "")[:40]
        if value:
            query[name] = value
    query._mutable = False
    clean.GET = query  # type: ignore[assignment]  # the stubs type GET as the immutable subclass
    return clean


def may_preview(user: Any, tournament: Tournament) -> bool:
    """Whether ``user`` may read the provisional standings (every entered result, ``?provisional=1``): the
    event's staff only; under blind double entry only its organisers (the second person must not read the
    first entry's figures). Anyone else is shown the public standings."""
    if blind_entry_on(tournament):
        return previews_unconfirmed(user, tournament)
    return has_role(user, tournament, Role.REFEREE)


def _progress(tournament: Tournament, provisional: bool) -> list[SessionProgress]:
    """The sessions' progress the standings speak of: every entered result for the staff's provisional
    view, what is published and confirmed for everyone else."""
    progress = session_progress(tournament)
    return progress if provisional else public_progress(tournament, progress)


def standings_table_html(tournament: Tournament, clean: HttpRequest, provisional: bool) -> str:
    """The standings' table with the sessions' progress above it: drawn once per public version, language and
    sort for the page and its poll alike (at 400 players a drawing is ~250 ms beside the rows' ~200 ms, and
    the first phones after a confirmation wait for it); the staff's provisional view is drawn each time."""
    if provisional:
        return draw_standings_table(tournament, clean, provisional)
    key = f"standings-table:{standings_inputs(tournament, clean, provisional)}"
    if not clean.GET:  # the default sort, which the worker draws ahead of the readers
        ahead = _drawn_ahead(key, tournament)
        if ahead is not None:
            return ahead
    return computed_once(key, lambda: draw_standings_table(tournament, clean, provisional))


def _drawn_ahead(key: str, tournament: Tournament) -> str | None:
    """The worker's drawing of ``key``: stored already, or, while a worker draws ahead, waited for (at most
    ``READER_WAITS_SECONDS``, and only until the worker leaves this version for a newer one) rather than
    drawn again in the public pool at the lowest CPU priority, where a reader that began first held every
    phone polling behind it for seconds."""
    try:
        stored: str | None = cache.get(key)
        if stored is not None or not cache.get(AHEAD_ALIVE_KEY):
            return stored
    except Exception:  # the cache away: drawn by the reader (computed_once draws it then)
        return None

    def left_for_a_newer_one() -> bool:
        drawing = cache.get(_drawing_key(tournament.pk))
        return drawing is not None and drawing > tournament.public_version

    drawn: str | None = stored_within(key, READER_WAITS_SECONDS, unless=left_for_a_newer_one)
    return drawn


def _drawing_key(tournament_pk: int) -> str:
    """The public version the worker draws (or drew last) for the event: readers of an older one stop
    waiting for it."""
    return f"standings-drawn-ahead:{tournament_pk}:version"


def draw_standings_table(tournament: Tournament, clean: HttpRequest, provisional: bool) -> str:
    rows = [dict(row) for row in cached_standings_rows(tournament, include_provisional=provisional)]
    if not provisional:  # the staff's preview keeps full names
        rows = public_names.public_rows(tournament, rows)
    countries = {r.code: r.player.country for r in tournament.registrations.select_related("player")}
    for place, row in enumerate(rows):
        row["country"] = countries.get(row["player"], "")
        row["place"] = place  # sorting by rank keeps unranked players (rank None) at the bottom
    table_class = StandingsTable if tournament.uses_table_points else ScoreStandingsTable
    table = table_class(rows, tournament_slug=tournament.slug)
    RequestConfig(clean, paginate=False).configure(table)
    return render_to_string(
        "scoring/public/_standings_table.html",
        {
            "table": table,
            "tournament": tournament,
            "provisional": provisional,
            "progress": frozen_lines(tournament) + progress_lines(_progress(tournament, provisional)),
            "unranked_reason": "" if rows else why_nobody_is_ranked(tournament, provisional=provisional),
        },
        request=clean,
    )


def standings_inputs(tournament: Tournament, clean: HttpRequest, provisional: bool) -> str:
    """What the standings' table depends on, the one definition behind its ETag and its stored drawing: the
    event, its ``public_version`` (bumped by every change the public standings show, in the writing
    transaction: docs/public-pages.md), for the staff's provisional view also ``standings_version`` (every
    entered result), the language and the sort asked for."""
    versions = f"{tournament.public_version}.{tournament.standings_version if provisional else '-'}"
    query = hashlib.sha256(clean.GET.urlencode().encode()).hexdigest()[:16]
    return f"s{tournament.pk}.{int(tournament.created_at.timestamp())}.{versions}.{get_language()}.{query}"


def standings_etag(tournament: Tournament, clean: HttpRequest, provisional: bool) -> str:
    """The poll's ETag (:func:`standings_inputs`). Anonymous polls are answered before this by the stored
    answer's ETag (tournaments/public_read.py); this spares the staff's polls, which are never stored, a
    drawing per second."""
    return f'"{standings_inputs(tournament, clean, provisional)}"'


AHEAD_SECONDS = 0.05
"""How often the background worker looks for a new public version to draw (one small query)."""

AHEAD_ALIVE_KEY = "standings-drawn-ahead:alive"
"""Set in the shared cache while a worker draws ahead (for ``AHEAD_ALIVE_SECONDS`` after each look)."""

AHEAD_ALIVE_SECONDS = 2

READER_WAITS_SECONDS = 1.5
"""How long a reader waits for the worker's drawing of a new version before drawing it itself."""

AHEAD_NICE = 5
"""The CPU priority of the thread drawing the other languages (:func:`keep_drawn_ahead`): below the
referees' saves (0), above the public pool (10, SCHED_IDLE), whose readers then find it drawn."""


def public_versions() -> dict[int, int]:
    """Every event a public page may show (published, not a rehearsal: ``tournaments.access.public_event``)
    with its ``public_version``."""
    events = Tournament.objects.filter(published_at__isnull=False, rehearsal_of__isnull=True)
    return dict(events.values_list("pk", "public_version"))


def reader_request(tournament: Tournament) -> HttpRequest:
    """The request of an anonymous reader of the standings page in its default sort, as
    :func:`standings_request` passes it on: what a drawing ahead draws for."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = reverse("public:standings", args=[tournament.slug])
    request.user = AnonymousUser()
    return standings_request(request)


FIRST, REST, WHOLE = "first", "rest", "whole"
"""The parts of a drawing ahead: the site's language, the standings' table and the projector's slides (what
the open standings pages and the projector wait for), every player's places and the other languages (what the player pages and the other language's readers
wait for), or both. The places were in the first part: a newer version committed while the worker computed
them (50-430 ms at 400 players) waited for them, and its confirmation reached the open standings 2.1-2.2 s
late in two entry runs of nine."""


def draw_ahead(
    tournament_pk: int, version: int | None = None, timings: list[float] | None = None, *, part: str = WHOLE
) -> bool:
    """Draw and store the public standings' table at the event's current public version, in the default
    sort and each language of the site (the site's first: most readers'), as the first reader's request
    would (the event's time zone active); never waiting on a reader drawing it too, at a lower priority.
    After the first language, every player's place after each session (``public_standings_and_places``,
    what each player page reads): computed by the first reader of a player page, in the public pool, the
    readers of the others waited for it in the pool's threads, and a phone's standings poll queued behind
    them. ``part`` draws the first part (the site's language), the rest (the places and the other
    languages) or both.

    Given the ``version`` it was asked to draw, it stops as soon as a newer one is committed (False): the
    rest of an old version held a newer confirmation behind it for half a second, and the newer one's
    first language is what the phones left open on the standings wait for. ``timings`` gets the
    milliseconds from the start to the end of each step (the first: the site's language)."""
    tournament = Tournament.objects.get(pk=tournament_pk)
    if version is not None and tournament.public_version != version:
        return False
    version = tournament.public_version
    if part != REST:
        cache.set(_drawing_key(tournament_pk), version, timeout=PAGE_SECONDS)
    request = reader_request(tournament)
    languages = sorted(
        (code for code, _ in settings.LANGUAGES), key=lambda code: code != settings.LANGUAGE_CODE
    )
    steps: list[Callable[[], object]] = []
    if part != REST:
        steps.append(partial(_draw_in, languages[0], tournament, request))
        steps.append(partial(_projector_in, languages[0], tournament))  # the hall's screen: within 2 s too
    if part != FIRST:
        steps.append(partial(public_standings_and_places, tournament))  # readers waiting held the pool
        for language in languages[1:]:
            steps.append(partial(_draw_in, language, tournament, request))
            steps.append(partial(_projector_in, language, tournament))
    use_event_zone(tournament)
    started = time.perf_counter()
    try:
        with computing_without_waiting(), _without_collector_pauses():
            for n, step in enumerate(steps):
                if (n or part == REST) and _public_version(tournament_pk) != version:
                    return False
                step()
                if timings is not None:
                    timings.append((time.perf_counter() - started) * 1000)
    finally:
        timezone.deactivate()
    return True


@contextlib.contextmanager
def _without_collector_pauses() -> Iterator[None]:
    """No cyclic garbage collection while drawing (refcounting still frees nearly everything): the
    collector's passes over the drawing's many small objects took ~15 % of its CPU (measured at 400
    players); they run after it instead. Only the worker's drawing thread does this."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _draw_in(language: str, tournament: Tournament, request: HttpRequest) -> None:
    with translation.override(language):
        standings_table_html(tournament, request, provisional=False)


def _projector_in(language: str, tournament: Tournament) -> None:
    with translation.override(language):
        projector_slides(tournament)


def _public_version(tournament_pk: int) -> int | None:
    return Tournament.objects.filter(pk=tournament_pk).values_list("public_version", flat=True).first()


def _shared_cache() -> bool:
    """Whether what this process stores reaches the web workers (a local-memory cache keeps it here)."""
    backend = str(settings.CACHES["default"]["BACKEND"])
    return not backend.endswith(("LocMemCache", "DummyCache"))


def _lower_this_thread() -> None:
    """Run this thread at ``AHEAD_NICE`` (Linux gives each thread its own nice value); never raise it."""
    try:
        thread = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, thread, max(AHEAD_NICE, os.getpriority(os.PRIO_PROCESS, thread)))
    except OSError:  # not Linux, or not allowed: drawn at the worker's own priority
        log.info("drawing ahead at the worker's priority", exc_info=True)


def _draw_and_log(pk: int, version: int, part: str = WHOLE) -> bool:
    started, cpu = time.perf_counter(), time.thread_time()
    timings: list[float] = []
    whole = draw_ahead(pk, version, timings, part=part)
    took, used = (time.perf_counter() - started) * 1000, (time.thread_time() - cpu) * 1000
    first = f", the site's language in {timings[0]:.0f} ms" if timings and part != REST else ""
    if whole:
        log.info(
            "standings of event %s drawn ahead at version %s (%s) in %.0f ms (%.0f ms of CPU)%s",
            pk,
            version,
            part,
            took,
            used,
            first,
        )
    else:
        log.info(
            "standings of event %s at version %s left after %.0f ms%s: a newer version",
            pk,
            version,
            took,
            first,
        )
    return whole


def keep_drawn_ahead(stop: threading.Event, *, every: float = AHEAD_SECONDS) -> None:
    """Until ``stop``: whenever an event's public version changes, draw its standings ahead
    (:func:`draw_ahead`). The versions seen at start are not drawn (the readers draw them when asked);
    the database or cache away for a moment costs a missed drawing, never the worker.

    This thread draws the first part (the site's language) at the worker's own priority, the referees' (a
    confirmation is a referee's action, and the hall's projector and open standings wait for it: at nice 5,
    behind the referees' saves and the database's work for the readers, it took up to twice its CPU time);
    a second thread at ``AHEAD_NICE`` draws the places and the other languages of the newest version the
    first has drawn (Linux cannot give a thread back the priority it lowered: hence two threads)."""
    if not _shared_cache():
        log.info("no shared cache: the standings are not drawn ahead")
        return
    gc.freeze()  # what the worker loaded at start is never garbage: the collector's passes skip it
    newest: queue.Queue[tuple[int, int]] = queue.Queue(maxsize=1)
    rest = threading.Thread(
        target=_draw_the_rest, args=(stop, newest), name="standings-ahead-rest", daemon=True
    )
    rest.start()
    seen: dict[int, int] | None = None
    wait = every
    try:
        while not stop.wait(wait):
            try:
                close_old_connections()
                cache.set(AHEAD_ALIVE_KEY, 1, timeout=AHEAD_ALIVE_SECONDS)  # the readers wait for it
                now = public_versions()
                superseded = False
                for pk, version in now.items():
                    if seen is not None and seen.get(pk) != version:
                        drawn = _draw_and_log(pk, version, FIRST)
                        superseded |= not drawn
                        if drawn:
                            _hand_on(newest, (pk, version))
                seen = now
                wait = 0 if superseded else every  # a newer version is waiting: draw it at once
            except Exception:  # the database or the cache away: the readers draw; look again in a second
                log.warning("drawing the standings ahead failed", exc_info=True)
                connection.close()
                stop.wait(1.0)
    finally:
        with contextlib.suppress(Exception):
            cache.delete(AHEAD_ALIVE_KEY)  # the readers draw again themselves
        connection.close()
        rest.join(timeout=5)


def _hand_on(newest: queue.Queue[tuple[int, int]], item: tuple[int, int]) -> None:
    """Give the rest thread ``item`` in place of any older version it has not begun."""
    with contextlib.suppress(queue.Empty):
        newest.get_nowait()
    with contextlib.suppress(queue.Full):
        newest.put_nowait(item)


def _draw_the_rest(stop: threading.Event, newest: queue.Queue[tuple[int, int]]) -> None:
    """The places and the other languages of each version the first thread drew, at ``AHEAD_NICE``."""
    _lower_this_thread()
    try:
        while not stop.is_set():
            try:
                pk, version = newest.get(timeout=0.5)
            except queue.Empty:
                continue
            try:
                close_old_connections()
                _draw_and_log(pk, version, REST)
            except Exception:  # as the first thread: the readers draw it
                log.warning("drawing the standings ahead failed", exc_info=True)
                connection.close()
    finally:
        connection.close()
