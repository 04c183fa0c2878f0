"""The public read path: every anonymous page, fragment and download of an event is answered here.

One rule, in three steps (``docs/public-pages.md``):

1. **Visibility first.** :func:`public_stamp` reads, in one query, whether an anonymous reader may see the
   page at all (the event published; for a session's page, that session's seating or results published) and
   the versions the page depends on. A page the reader may not see is never looked up in the cache: the view
   answers it (404).
2. **One key holding everything the answer depends on**: the event (id and creation time, so a replaced event
   never reads its predecessor's pages), ``Tournament.public_version`` (bumped in the writing transaction by
   every change a public page shows), ``Round.entry_version`` for a session's live results, the language as
   Django's locale middleware reads it, htmx as django-htmx reads it (only ``HX-Request: true`` is a fragment)
   and the address with its query.
3. **Stored only what an anonymous reader was answered**: a 200 to a GET that set no cookie, in the language
   the key names. Nothing older than the current versions is ever served: a reader who finds no copy for the
   current versions waits for the one reader rendering it (at most ``WAIT_SECONDS``) or renders it.

Each worker also keeps the answers it served last in its own memory, under the same keys
(``PUBLIC_PAGE_LOCAL_BYTES``): a key names every version, so such a copy is never out of date.

A request is served from here only when it is anonymous (no session or messages cookie). The per-process copy
of the versions (``PUBLIC_VERSION_SECONDS``, 0.25 s in production) is the only window in which a change is not yet
seen; nginx keeps answers one second more (``deploy/nginx-public-cache.conf``).
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db.models import OuterRef, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django_htmx.middleware import HtmxDetails

from config.working import waiting
from tournaments.models import Registration, Round, Tournament

log = logging.getLogger(__name__)

_T = TypeVar("_T")

PAGE_SECONDS = 3600
"""How long a stored answer is kept (a new version makes a new key long before)."""

LOCK_SECONDS = 30
"""How long one reader may take to render a version before another tries (a dead worker's lock expires)."""

WAIT_SECONDS = 2.0
"""How long a reader waits for another reader's rendering of the same version before rendering it too."""

MAX_QUERY = 200
"""Longer query strings are answered without the cache (made-up addresses do not fill it)."""

VERSIONS_REMEMBERED = 1000
"""At most this many (event, session) versions remembered per process."""

NOT_STORED_HEADERS = frozenset({"set-cookie", "content-length", "content-encoding", "etag", "date"})

View = Callable[..., HttpResponseBase]


@dataclass(frozen=True)
class PublicPage:
    """What a public view shows, for the read path: ``part`` ("seating" or "results") when the URL's
    ``number`` names a session whose part must be published; ``live`` when the page shows that session's
    results as they are entered (keyed on ``Round.entry_version`` too); ``players`` for a page about
    players across events (``player_id``, and ``other_id`` for a head-to-head), keyed on every published
    event they played (:func:`players_stamp`)."""

    part: str | None = None
    live: bool = False
    players: bool = False


def public_page(
    view: View | None = None, *, part: str | None = None, live: bool = False, players: bool = False
) -> Any:
    """Mark a view taking ``slug`` (or, with ``players``, ``player_id``) as a public page answered
    through the read path."""
    page = PublicPage(part=part, live=live, players=players)

    def mark(view: View) -> View:
        view.public_page = page  # type: ignore[attr-defined]  # read by PublicReadMiddleware
        return view

    return mark(view) if view is not None else mark


@dataclass(frozen=True)
class PublicStamp:
    """An event page an anonymous reader may see, and the versions its answer depends on."""

    event: str
    version: str


def _read_stamp(slug: str, page: PublicPage, number: int | None) -> PublicStamp | None:
    events = Tournament.objects.filter(slug=slug, published_at__isnull=False, rehearsal_of__isnull=True)
    if page.part is None:
        event = events.values_list("pk", "created_at", "public_version").first()
        if event is None:
            return None
        return PublicStamp(f"{event[0]}:{event[1].timestamp()}", str(event[2]))
    published = {"seating": "seating_published_at__isnull", "results": "results_published_at__isnull"}[
        page.part
    ]
    session = Round.objects.filter(tournament=OuterRef("pk"), number=number or 0, **{published: False})
    row = (
        events.annotate(entry=Subquery(session.values("entry_version")[:1]))
        .values_list("pk", "created_at", "public_version", "entry")
        .first()
    )
    if row is None or row[3] is None:
        return None  # no such event, or the session's part is a draft (or there is no such session)
    entry = f".e{row[3]}" if page.live else ""
    return PublicStamp(f"{row[0]}:{row[1].timestamp()}", f"{row[2]}{entry}:{page.part}{number}")


def _read_players_stamp(ids: tuple[int, ...]) -> PublicStamp | None:
    """The players' published events with their versions, and the players' details, in one query; None
    when one of them played no published event (a record seen only in drafts, or merged into another)."""
    rows = list(
        Registration.objects.filter(
            player_id__in=ids, tournament__published_at__isnull=False, tournament__rehearsal_of__isnull=True
        )
        .order_by("player_id", "tournament_id")
        .values_list(
            "player_id",
            "player__name",
            "player__country",
            "player__ema_id",
            "tournament_id",
            "tournament__created_at",
            "tournament__public_version",
        )
    )
    if {row[0] for row in rows} != set(ids):
        return None
    # Every published event of the players, by id, creation time and public version: a change any of
    # them shows (a confirmed table, a name, a merge: audited in each event), an event published or
    # withdrawn, or a detail of the record edited elsewhere makes a new key.
    version = hashlib.sha256(repr(rows).encode()).hexdigest()[:32]
    return PublicStamp("players:" + "-".join(map(str, ids)), version)


_stamps: dict[tuple[Any, PublicPage, int | None], tuple[int, PublicStamp | None]] = {}
_stamps_lock = threading.Lock()


def _remembered(
    key: tuple[Any, PublicPage, int | None], read: Callable[[], PublicStamp | None]
) -> PublicStamp | None:
    """``read()``, at most once every ``PUBLIC_VERSION_SECONDS`` per process (0 in the tests: every
    time). The periods are the clock's (whole seconds), the same in every worker: they all see a change at
    the same moment, so a page that changes with every hand (a session's live results) is rendered about
    once a period, not once per worker."""
    seconds = float(getattr(settings, "PUBLIC_VERSION_SECONDS", 0))
    if seconds <= 0:
        return read()
    period = int(time.time() // seconds)
    remembered = _stamps.get(key)
    if remembered is not None and remembered[0] == period:
        return remembered[1]
    stamp = read()
    with _stamps_lock:
        if len(_stamps) > VERSIONS_REMEMBERED:
            _stamps.clear()  # made-up slugs cannot grow it without bound
        _stamps[key] = (period, stamp)
    return stamp


def public_stamp(slug: str, page: PublicPage, number: int | None = None) -> PublicStamp | None:
    """What an anonymous reader may see of the page (None: nothing, the view answers 404)."""
    return _remembered((slug, page, number), lambda: _read_stamp(slug, page, number))


def players_stamp(page: PublicPage, ids: tuple[int, ...]) -> PublicStamp | None:
    """What an anonymous reader may see of a page about players across events (None: the view answers)."""
    return _remembered((ids, page, None), lambda: _read_players_stamp(ids))


_not_waiting = threading.local()


@contextmanager
def computing_without_waiting() -> Iterator[None]:
    """Within it, :func:`computed_once` computes what is not stored yet rather than wait for another caller
    computing it: the background worker drawing ahead (``scoring.standings_page``) must not wait on a reader
    of the public pool, which runs at the lowest CPU priority, that began the same drawing first."""
    before = getattr(_not_waiting, "on", False)
    _not_waiting.on = True
    try:
        yield
    finally:
        _not_waiting.on = before


def stored_within(key: str, seconds: float, *, unless: Callable[[], bool] | None = None) -> Any:
    """What another caller stores under ``key`` within ``seconds`` (None: not in time, ``unless()`` became
    true meanwhile, or this thread computes without waiting: :func:`computing_without_waiting`)."""
    if getattr(_not_waiting, "on", False):
        return None
    deadline = time.monotonic() + seconds
    with waiting():  # another request of this worker works meanwhile (config/working.py)
        while time.monotonic() < deadline:
            time.sleep(0.02)
            stored = cache.get(key)
            if stored is not None:
                return stored
            if unless is not None and unless():
                return None
    return None


def _stored_by_another(key: str) -> Any:
    """What another worker, which holds the key's lock, stores under ``key``: waited for at most
    ``WAIT_SECONDS`` (None then: the caller computes it too)."""
    return stored_within(key, WAIT_SECONDS)


def computed_once(key: str, compute: Callable[[], _T], *, timeout: int = PAGE_SECONDS) -> _T:
    """``compute()``, stored under ``key`` (which must name every input of the result): while one caller
    computes a key, the others wait for its result (at most ``WAIT_SECONDS``, then compute too) instead of
    all computing at once; never an older result. With the cache away, computed every time."""
    try:
        stored: _T | None = cache.get(key)  # what ``compute()`` gave under this key
        if stored is not None:
            return stored
        computing = cache.add(f"{key}:computing", 1, timeout=LOCK_SECONDS)
        if not computing and not getattr(_not_waiting, "on", False):
            stored = _stored_by_another(key)
            if stored is not None:
                return stored
    except Exception:
        log.warning("cache unavailable; computing %s", key, exc_info=True)
        return compute()
    try:
        result = compute()
        try:
            cache.set(key, result, timeout=timeout)
        except Exception:
            log.warning("cache unavailable; %s not stored", key, exc_info=True)
        return result
    finally:
        if computing:
            try:
                cache.delete(f"{key}:computing")
            except Exception:
                log.warning("cache unavailable; the lock of %s left to expire", key)


class _RecentAnswers:
    """The answers this worker served last, in its own memory (``PUBLIC_PAGE_LOCAL_BYTES``): a hall polling
    the same pages is answered without a round trip to the shared cache (the entry benchmark: 40 % more
    stored pages a second). Kept under the same keys, which name every version: nothing here is ever out of
    date, it is only dropped when the budget is spent."""

    def __init__(self) -> None:
        self._entries: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def put(self, key: str, entry: dict[str, Any]) -> None:
        budget = int(getattr(settings, "PUBLIC_PAGE_LOCAL_BYTES", 0))
        size = len(entry["gz"])
        if size > budget // 8:
            return
        with self._lock:
            if key in self._entries:
                return
            self._entries[key] = entry
            self._bytes += size
            while self._bytes > budget:
                _, dropped = self._entries.popitem(last=False)
                self._bytes -= len(dropped["gz"])

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0


recent_answers = _RecentAnswers()


def anonymous_read(request: HttpRequest) -> bool:
    """A GET or HEAD with nothing personal: no session, no pending messages, a short query."""
    if request.method not in ("GET", "HEAD") or not getattr(settings, "PUBLIC_PAGE_CACHE", True):
        return False
    if settings.SESSION_COOKIE_NAME in request.COOKIES or "messages" in request.COOKIES:
        return False
    return len(request.META.get("QUERY_STRING", "")) <= MAX_QUERY


def page_key(request: HttpRequest, stamp: PublicStamp, language: str) -> str:
    """The stored answer's key: every input of an anonymous reader's answer."""
    fragment = int(bool(HtmxDetails(request)))  # as django-htmx reads it: only "HX-Request: true"
    address = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:32]
    return f"public:{stamp.event}:{stamp.version}:{language}:{fragment}:{address}"


def _entry(response: HttpResponse) -> dict[str, Any]:
    body = response.content
    headers = [(name, value) for name, value in response.items() if name.lower() not in NOT_STORED_HEADERS]
    return {
        "status": response.status_code,
        "gz": gzip.compress(body, compresslevel=6, mtime=0),
        "size": len(body),
        "headers": headers,
        "etag": '"' + hashlib.sha256(body).hexdigest()[:32] + '"',
    }


def _answer(request: HttpRequest, entry: dict[str, Any]) -> HttpResponse:
    """The stored answer; compressed as stored for a reader who takes gzip (the page holds no secret: a page
    that set a cookie is never stored). ConditionalGetMiddleware answers 304 to a poll holding the ETag."""
    response = HttpResponse(status=entry["status"])
    for name, value in entry["headers"]:
        response[name] = value
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response.content = entry["gz"]
        response["Content-Encoding"] = "gzip"
    else:
        response.content = gzip.decompress(entry["gz"])
    patch_vary_headers(response, ("Accept-Encoding",))
    response["ETag"] = entry["etag"]
    if not response.has_header("Cache-Control"):
        response["Cache-Control"] = "no-cache"  # keep a copy, but ask each time (304 when unchanged)
    return response


def _storable(request: HttpRequest, response: HttpResponseBase, language: str) -> bool:
    return (
        request.method == "GET"
        and isinstance(response, HttpResponse)
        and not response.streaming
        and response.status_code == 200
        and not response.cookies
        and response.get("Content-Language", language) == language
    )


class PublicReadMiddleware:
    """Answers anonymous reads of public pages (views marked with :func:`public_page`) from the shared
    cache, ahead of the session, locale, CSRF and authentication middleware (the security and frame headers
    above it still apply)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        read = self._key(request)
        if read is None:
            return self.get_response(request)
        key, language = read
        entry = recent_answers.get(key)
        if entry is None:
            try:
                entry = cache.get(key)
            except Exception:  # the cache is away: answer as if there were none
                log.warning("page cache unavailable; rendering %s", request.path, exc_info=True)
                return self.get_response(request)
            if entry is None:
                return self._render(request, key, language)
            recent_answers.put(key, entry)
        return _answer(request, entry)

    def _key(self, request: HttpRequest) -> tuple[str, str] | None:
        """The key and language of an anonymous read of a page the reader may see, else None (the stack
        answers)."""
        if not anonymous_read(request):
            return None
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        page: PublicPage | None = getattr(match.func, "public_page", None)
        if page is None or ("slug" not in match.kwargs and not page.players):
            return None
        try:
            if page.players:
                ids = tuple(match.kwargs[name] for name in ("player_id", "other_id") if name in match.kwargs)
                stamp = players_stamp(page, ids)
            else:
                stamp = public_stamp(match.kwargs["slug"], page, match.kwargs.get("number"))
        except Exception:  # the database is away: the stack says so
            log.warning("versions unavailable; rendering %s", request.path, exc_info=True)
            return None
        if stamp is None:
            return None  # not visible: never looked up, the view answers 404
        language = translation.get_language_from_request(request)
        return page_key(request, stamp, language), language

    def _render(self, request: HttpRequest, key: str, language: str) -> HttpResponseBase:
        """Render the page once for every reader asking for this version at the same time: the first takes
        the key's lock and renders; the others wait for its answer (or render themselves after
        ``WAIT_SECONDS``). Never an older version."""
        lock = f"{key}:rendering"
        try:
            rendering = cache.add(lock, 1, timeout=LOCK_SECONDS)
            if not rendering:
                entry = _stored_by_another(key)
                if entry is not None:
                    return _answer(request, entry)
        except Exception:
            rendering = False
        try:
            response = self.get_response(request)
            if not _storable(request, response, language):
                return response
            entry = _entry(response)  # type: ignore[arg-type]  # _storable checked it
            try:
                cache.set(key, entry, timeout=PAGE_SECONDS)
            except Exception:
                log.warning("page cache unavailable; %s not stored", request.path, exc_info=True)
            recent_answers.put(key, entry)
            return _answer(request, entry)
        finally:
            if rendering:
                try:
                    cache.delete(lock)
                except Exception:
                    log.warning("page cache unavailable; lock of %s left to expire", request.path)
