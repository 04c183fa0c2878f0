"""Public pages kept whole in the shared cache, once per event version, for every anonymous reader.

A room of phones reading the results of a session, their own player page or the event page costs one
rendering per change instead of one per request (the results page scores every table of the session).
A page is keyed by the event's ``standings_version`` (bumped by every counted write in the write's own
transaction) and the event's page generation (bumped by every audited write: ``touch_event_pages``,
called by ``tournaments.audit.audit``), so a cached page is never older than the last change by more than
``PUBLIC_PAGE_MIN_SECONDS``.

- Only anonymous readers without a session or messages cookie are served from the cache (a signed-in
  organiser sees their own menus); a page that set a cookie is never stored. The reader's own CSRF
  token (every page carries one for htmx) is put into the stored page as it is served.
- No stampede: one worker at a time renders a page (its lock spans versions); the others serve the previous
  version meanwhile (as ``scoring.standings_cache`` does for the standings themselves). While results pour
  in (a new version every second), a page is rendered at most every ``PUBLIC_PAGE_MIN_SECONDS`` (settings:
  5 s; 0 in the tests; the standings it is rendered from may be as old): phones polling every 30 s never
  notice, and the workers stay free.
- Each stored page carries an ETag (a digest of its body): a poll with ``If-None-Match`` is answered 304.
- Runs of whitespace around line breaks are folded into one line break before storing (the templates'
  indentation is most of a large table's bytes; pages with ``<pre>`` or ``<textarea>`` are kept as is).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, connections
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.middleware.csrf import (  # type: ignore[attr-defined]  # not in django-stubs, stable since 4.0
    CSRF_TOKEN_LENGTH,
    _unmask_cipher_token,
    get_token,
)
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import patch_vary_headers

from tournaments.models import Round, Tournament

log = logging.getLogger(__name__)

PAGE_SECONDS = 3600
"""How long a rendered page stays in the cache (a new version replaces it long before)."""

LOCK_SECONDS = 30
"""How long one worker may take to render a version before another tries (a dead worker's lock expires)."""

VERSIONS_REMEMBERED = 1000
"""At most this many events' versions remembered per process (``version_of``)."""

MAX_QUERY = 200
"""Longer query strings are rendered each time, not stored (no cache filling with made-up addresses)."""

GZIP_PADDING = 50
"""At most this many random bytes (hex: twice as many characters) in the gzip header (BREACH)."""

STORED_HEADERS = ("Content-Type", "Content-Language", "Cache-Control", "Vary")

CSRF_SLOT = "csrf-token-slot-b7d1e0"
"""Where the reader's CSRF token goes in a stored page."""

_TOKEN = re.compile(rf"(?<![A-Za-z0-9])[A-Za-z0-9]{{{CSRF_TOKEN_LENGTH}}}(?![A-Za-z0-9])")
_GAP = re.compile(r"[ \t\r\f\v]*\n\s*")
_VERBATIM = re.compile(r"<(pre|textarea)\b", re.IGNORECASE)

View = Callable[..., HttpResponseBase]


def compact_html(html: str) -> str:
    """The same page without the templates' indentation: every run of whitespace that holds a line
    break becomes one line break (whitespace in HTML text collapses anyway, so nothing shown changes)."""
    return _GAP.sub("\n", html)


def _generation_key(tournament_id: int) -> str:
    return f"pages-generation:{tournament_id}"


def page_generation(tournament_id: int) -> int:
    """The event's page generation; a new one (from the clock) when the cache has none, so a cache that
    lost the counter but kept some pages never serves those pages again."""
    key = _generation_key(tournament_id)
    generation = cache.get(key)
    if generation is None:
        cache.add(key, time.time_ns(), timeout=None)
        generation = cache.get(key)
    return int(generation or 0)


def touch_event_pages(tournament_id: int) -> None:
    """Every cached page of the event is out of date (called on every audited change)."""
    key = _generation_key(tournament_id)
    try:
        try:
            cache.incr(key)
        except ValueError:  # no counter yet: start one from the clock
            cache.set(key, time.time_ns(), timeout=None)
    except Exception:  # the cache is away: the write goes on (a restarted Redis holds no old pages)
        log.warning("event %s: cached pages could not be marked out of date", tournament_id, exc_info=True)


def _cacheable_request(request: HttpRequest) -> bool:
    """Anonymous GET/HEAD without anything personal: no session, no pending messages."""
    if request.method not in ("GET", "HEAD") or not getattr(settings, "PUBLIC_PAGE_CACHE", True):
        return False
    if settings.SESSION_COOKIE_NAME in request.COOKIES or "messages" in request.COOKIES:
        return False
    return len(request.META.get("QUERY_STRING", "")) <= MAX_QUERY


def _storable(request: HttpRequest, response: HttpResponse) -> bool:
    return not response.streaming and response.status_code == 200 and not response.cookies


def _without_csrf_token(request: HttpRequest, html: str) -> str:
    """The page with the CSRF tokens made for this request (masked: each one differs) replaced by a slot."""
    secret = request.META.get("CSRF_COOKIE")
    if not secret:
        return html
    return _TOKEN.sub(lambda m: CSRF_SLOT if _unmask_cipher_token(m[0]) == secret else m[0], html)


def _entry(request: HttpRequest, response: HttpResponse) -> dict[str, Any]:
    html = _without_csrf_token(request, response.content.decode(response.charset))
    if not _VERBATIM.search(html):
        html = compact_html(html)
    body = html.encode(response.charset)
    headers = {name: response[name] for name in STORED_HEADERS if response.has_header(name)}
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    # No CSRF token in the page (public pages carry none): compressed once, here, for every reader
    # (BREACH needs a secret in the page). A page with a token slot is compressed per reader instead.
    gz = None if CSRF_SLOT.encode() in body else gzip.compress(body, compresslevel=6, mtime=0)
    return {"body": body, "gz": gz, "headers": headers, "etag": etag, "at": time.time()}


def _gzip(body: bytes) -> bytes:
    """Compressed quickly (level 1: a 130 KB results page in 2 ms instead of 6 ms at GZipMiddleware's 6, for
    about 40 % more bytes), with a random-length file name in the header against BREACH, as Django does."""
    data = bytearray(gzip.compress(body, compresslevel=1, mtime=0))
    data[3] = gzip.FNAME
    name = secrets.token_hex(secrets.randbelow(GZIP_PADDING) + 1).encode() + b"\x00"
    return bytes(data[:10]) + name + bytes(data[10:])


def _respond(request: HttpRequest, entry: dict[str, Any]) -> HttpResponse:
    # GZipMiddleware weakens the ETag it sends ("W/..."), so compare without the weak marker.
    sent = [tag.strip().removeprefix("W/") for tag in request.headers.get("If-None-Match", "").split(",")]
    response: HttpResponse
    if entry["etag"] in sent:
        response = HttpResponseNotModified()
    else:
        body: bytes = entry["body"]
        if CSRF_SLOT.encode() in body:
            body = body.replace(CSRF_SLOT.encode(), get_token(request).encode())
        response = HttpResponse()
        for name, value in entry["headers"].items():
            response[name] = value
        if "gzip" in request.headers.get("Accept-Encoding", "") and len(body) >= 200:
            body = entry["gz"] if entry.get("gz") is not None else _gzip(body)
            response["Content-Encoding"] = "gzip"  # GZipMiddleware leaves it as it is
        response.content = body
        patch_vary_headers(response, ("Accept-Encoding",))
    response["ETag"] = entry["etag"]
    if not response.has_header("Cache-Control"):
        response["Cache-Control"] = "no-cache"  # keep a copy, but ask each time (304 when unchanged)
    return response


_STALE_TOLERANCE: ContextVar[float] = ContextVar("stale_tolerance", default=0.0)


def stale_tolerance() -> float:
    """How old (seconds) the data a page is rendered from may be: ``PUBLIC_PAGE_MIN_SECONDS`` while a page
    is rendered for the shared cache (``scoring.standings_cache`` then reuses recent standings), else 0."""
    return _STALE_TOLERANCE.get()


_refreshing = threading.BoundedSemaphore(1)
"""One page rendered behind the answers at a time per worker process (the others keep serving)."""


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def _due(latest: dict[str, Any]) -> bool:
    """Whether the page's latest copy is old enough to render again (``PUBLIC_PAGE_MIN_SECONDS``)."""
    return time.time() - latest["at"] >= getattr(settings, "PUBLIC_PAGE_MIN_SECONDS", 0)


def _previous_while_rendering(base: str) -> dict[str, Any] | None:
    """The fast path's stale answer: the page's previous version while its new one is being rendered (or
    is not due yet); None when this reader's request should start the rendering (the full stack)."""
    try:
        latest = cache.get(f"{base}:latest")
        if latest is None:
            return None
        return latest if not _due(latest) or cache.get(f"{base}:lock") is not None else None
    except Exception:
        return None


def _took_lock_for(base: str) -> bool:
    """Whether to render the page's new version in the background (``PUBLIC_PAGE_BACKGROUND``): this
    worker takes the page's lock and has no other page rendering; else the previous version is simply
    served (another worker renders it, or this one will after its current page)."""
    if not _refreshing.acquire(blocking=False):
        return False
    if cache.add(f"{base}:lock", 1, timeout=LOCK_SECONDS):
        return True
    _refreshing.release()
    return False


def _refresh_later(
    view: View,
    request: HttpRequest,
    language: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    base: str,
    key: str,
) -> None:
    """Render the page's new version in a thread of this worker and store it: after a confirmation the
    reader who asks first gets the previous page at once instead of waiting for the rendering (a
    hall of phones asking for 400 player pages would otherwise hold every worker thread)."""

    def render() -> None:
        token = _STALE_TOLERANCE.set(float(getattr(settings, "PUBLIC_PAGE_MIN_SECONDS", 0)))
        started = time.perf_counter()
        try:
            with translation.override(language):
                rendered = view(request, *args, **kwargs)
            log.info("rendered %s behind the answer in %.0f ms", request.get_full_path(), _ms(started))
            if isinstance(rendered, HttpResponse) and _storable(request, rendered):
                entry = _entry(request, rendered)
                cache.set_many({key: entry, f"{base}:latest": entry}, timeout=PAGE_SECONDS)
                local_pages.put(key, entry)
        except Exception:
            log.warning("background rendering of %s failed", request.path, exc_info=True)
        finally:
            _STALE_TOLERANCE.reset(token)
            with contextlib.suppress(Exception):
                cache.delete(f"{base}:lock")
            connections.close_all()  # this thread's own database connection
            _refreshing.release()

    threading.Thread(target=render, name="page-refresh", daemon=True).start()


def _previous_or_none(base: str) -> dict[str, Any] | None:
    """The page's previous version, to serve instead of rendering the new one now: while another worker
    renders the page (its lock is taken), or when the previous one is younger than
    ``PUBLIC_PAGE_MIN_SECONDS`` (while results pour in, a page renders at most that often). None: this
    worker renders (it took the lock, or there is nothing older to serve)."""
    latest = cache.get(f"{base}:latest")
    if latest is None:
        cache.add(f"{base}:lock", 1, timeout=LOCK_SECONDS)
        return None
    if not _due(latest):
        return latest
    return None if cache.add(f"{base}:lock", 1, timeout=LOCK_SECONDS) else latest


@dataclass(frozen=True)
class PageSpec:
    """What a cached public page depends on beyond the event's public version and page generation."""

    session: bool = False
    """The page shows a session's live results (the URL's ``number``): keyed on that session's
    ``Round.entry_version`` too, so it follows every hand entered at its tables."""
    progress: bool = False
    """The page says which sessions are in play: keyed on the event's ``progress_version`` too."""
    live_params: tuple[str, ...] = ()
    """Query parameters that make the page count every entered result (the provisional standings):
    keyed on the event's ``standings_version`` when one of them is present."""


@dataclass(frozen=True)
class EventVersion:
    """The versions a public page of the event is keyed on (``version_of``)."""

    pk: int
    created: str
    public: int
    progress: int
    standings: int
    entry: int | None
    generation: int


_versions: dict[tuple[str, int | None], tuple[float, EventVersion | None]] = {}
_versions_lock = threading.Lock()


def _read_version(slug: str, number: int | None) -> EventVersion | None:
    """One query, written out (the ORM's query building cost more than the query itself): the event's
    id, creation time (a replaced event never reads its predecessor's pages), versions, and the
    session's entry version when the page shows one session's live results."""
    quote = connection.ops.quote_name
    event, round_ = quote(Tournament._meta.db_table), quote(Round._meta.db_table)
    columns = ", ".join(
        f"t.{quote(name)}"
        for name in ("id", "created_at", "public_version", "progress_version", "standings_version")
    )
    entry = f"r.{quote('entry_version')}"
    where = f"r.{quote('tournament_id')} = t.{quote('id')} AND r.{quote('number')} = %s"
    # Fixed names only; the slug and the number are parameters.
    sql = f"SELECT {columns}, (SELECT {entry} FROM {round_} r WHERE {where}) FROM {event} t WHERE t.{quote('slug')} = %s"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, [number if number is not None else -1, slug])
        row = cursor.fetchone()
    if row is None:
        return None
    pk = int(row[0])
    return EventVersion(
        pk=pk,
        created=re.sub(r"\W", "", str(row[1])),
        public=int(row[2]),
        progress=int(row[3]),
        standings=int(row[4]),
        entry=None if row[5] is None else int(row[5]),
        generation=page_generation(pk),
    )


def version_of(slug: str, number: int | None = None) -> EventVersion | None:
    """The event's versions, read at most once every ``PUBLIC_VERSION_SECONDS`` per process (1 s in
    production: a hall of phones costs one query a second per worker, and a confirmation shows on the
    public pages within that second; 0 in the tests: read every time)."""
    ttl = float(getattr(settings, "PUBLIC_VERSION_SECONDS", 0))
    if ttl <= 0:
        return _read_version(slug, number)
    now = time.monotonic()
    remembered = _versions.get((slug, number))
    if remembered is not None and now - remembered[0] < ttl:
        return remembered[1]
    version = _read_version(slug, number)
    with _versions_lock:
        if len(_versions) > VERSIONS_REMEMBERED:
            _versions.clear()  # made-up slugs cannot grow it without bound
        _versions[(slug, number)] = (now, version)
    return version


class _LocalPages:
    """The pages this worker served last, kept in its own memory (``PUBLIC_PAGE_LOCAL_BYTES``): a page
    already fetched from the shared cache is served again without a round trip to Redis. Keys carry
    the versions, so nothing here is ever out of date."""

    def __init__(self) -> None:
        self._entries: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @staticmethod
    def _size(entry: dict[str, Any]) -> int:
        return len(entry["body"]) + len(entry.get("gz") or b"")

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def put(self, key: str, entry: dict[str, Any]) -> None:
        budget = int(getattr(settings, "PUBLIC_PAGE_LOCAL_BYTES", 0))
        size = self._size(entry)
        if size > budget // 4:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= self._size(old)
            self._entries[key] = entry
            self._bytes += size
            while self._bytes > budget and self._entries:
                _, dropped = self._entries.popitem(last=False)
                self._bytes -= self._size(dropped)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0


local_pages = _LocalPages()


def _page_key(request: HttpRequest, spec: PageSpec, language: str, version: EventVersion) -> tuple[str, str]:
    """(base, key): the base names the page in any version (its lock and latest copy), the key one version."""
    where = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:24]
    htmx = int("HX-Request" in request.headers)
    base = f"page:{version.pk}:{version.created}:{language}:{htmx}:{where}"
    parts = [str(version.public), str(version.generation)]
    if spec.session:
        parts.append(f"e{version.entry}")
    if spec.progress:
        parts.append(f"p{version.progress}")
    if any(name in request.GET for name in spec.live_params):
        parts.append(f"s{version.standings}")
    return base, f"{base}:{'.'.join(parts)}"


def _stored(key: str) -> dict[str, Any] | None:
    entry = local_pages.get(key)
    if entry is None:
        entry = cache.get(key)
        if entry is not None:
            local_pages.put(key, entry)
    return entry


def serve_stored_page(request: HttpRequest) -> HttpResponse | None:
    """The fast path (``PublicPageMiddleware``): a stored page for an anonymous reader, before sessions,
    CSRF, authentication and the view run; None when the full stack must answer (not a cached page,
    not stored for this version, a page carrying a CSRF slot, the cache away)."""
    if not _cacheable_request(request):
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    spec: PageSpec | None = getattr(match.func, "public_page", None)
    if spec is None or "slug" not in match.kwargs:
        return None
    language = translation.get_language_from_request(request)
    try:
        version = version_of(match.kwargs["slug"], match.kwargs.get("number") if spec.session else None)
        if version is None:
            return None
        request.public_page_version = version  # type: ignore[attr-defined]  # the view's wrapper reads it once
        base, key = _page_key(request, spec, language, version)
        entry = _stored(key)
    except Exception:  # the cache or the database is away: the full stack says what to do
        log.debug("fast path skipped for %s", request.path, exc_info=True)
        return None
    if entry is None and getattr(settings, "PUBLIC_PAGE_BACKGROUND", False):
        entry = _previous_while_rendering(base)
    if entry is None or entry.get("gz") is None:
        return None
    response = _respond(request, entry)
    response.setdefault("Content-Language", language)
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


class PublicPageMiddleware:
    """Serves stored public pages ahead of the session, locale, CSRF and authentication middleware (placed
    after the security, CSP and frame headers, which it still gets): a stored page costs a dictionary
    lookup and a write, about what a trivial view costs, while a hall of phones polls."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = serve_stored_page(request)
        return response if response is not None else self.get_response(request)


def cached_page(
    view: View | None = None,
    *,
    session: bool = False,
    progress: bool = False,
    live_params: tuple[str, ...] = (),
) -> Any:
    """Serve an event's public page (a view taking ``slug``) from the shared cache per event version:
    ``cached_page(view)``, or ``cached_page(view, session=True)`` for a session's live results page,
    ``progress=True`` for a page that says which sessions are in play, ``live_params=("provisional",)``
    for a page that counts unconfirmed results when asked."""
    spec = PageSpec(session=session, progress=progress, live_params=live_params)

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not _cacheable_request(request):
                return view(request, slug, *args, **kwargs)
            language = getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE)
            try:
                version = getattr(request, "public_page_version", None) or version_of(
                    slug, kwargs.get("number") if spec.session else None
                )
                if version is None:
                    return view(request, slug, *args, **kwargs)  # the view says what is missing
                base, key = _page_key(request, spec, language, version)
                entry = _stored(key)
                if entry is None and getattr(settings, "PUBLIC_PAGE_BACKGROUND", False):
                    entry = cache.get(f"{base}:latest")
                    if entry is not None and _due(entry) and _took_lock_for(base):
                        # Serve the previous version now; render the new one behind this answer.
                        _refresh_later(view, request, language, (slug, *args), kwargs, base, key)
                if entry is None:
                    entry = _previous_or_none(base)
            except Http404:
                raise  # an unknown event or session: the view's friendly page, rendered once, nothing logged
            except Exception:  # the shared cache is away: render the page as if there were no cache
                log.warning("page cache unavailable; rendering %s", request.path, exc_info=True)
                return view(request, slug, *args, **kwargs)
            if entry is not None:
                response = _respond(request, entry)
            else:
                entry = None
                token = _STALE_TOLERANCE.set(float(getattr(settings, "PUBLIC_PAGE_MIN_SECONDS", 0)))
                started = time.perf_counter()
                try:
                    rendered = view(request, slug, *args, **kwargs)
                    log.info("rendered %s in the request in %.0f ms", request.get_full_path(), _ms(started))
                    if not isinstance(rendered, HttpResponse) or not _storable(request, rendered):
                        return rendered
                    entry = _entry(request, rendered)
                    cache.set_many({key: entry, f"{base}:latest": entry}, timeout=PAGE_SECONDS)
                    local_pages.put(key, entry)
                except Exception:
                    if entry is None:
                        raise  # the view's own error
                    log.warning("page cache unavailable; %s not stored", request.path, exc_info=True)
                finally:
                    _STALE_TOLERANCE.reset(token)
                    with contextlib.suppress(Exception):
                        cache.delete(f"{base}:lock")
                response = _respond(request, entry)
            patch_vary_headers(response, ("Cookie",))
            return response

        wrapper.public_page = spec  # type: ignore[attr-defined]  # read by PublicPageMiddleware
        return wrapper

    return decorate(view) if view is not None else decorate
