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
import time
from collections.abc import Callable
from contextvars import ContextVar
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.middleware.csrf import (  # type: ignore[attr-defined]  # not in django-stubs, stable since 4.0
    CSRF_TOKEN_LENGTH,
    _unmask_cipher_token,
    get_token,
)
from django.utils.cache import patch_vary_headers

from tournaments.models import Tournament

log = logging.getLogger(__name__)

PAGE_SECONDS = 3600
"""How long a rendered page stays in the cache (a new version replaces it long before)."""

LOCK_SECONDS = 30
"""How long one worker may take to render a version before another tries (a dead worker's lock expires)."""

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
    return {"body": body, "headers": headers, "etag": etag, "at": time.time()}


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
            body = _gzip(body)
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


def _previous_or_none(base: str) -> dict[str, Any] | None:
    """The page's previous version, to serve instead of rendering the new one now: while another worker
    renders the page (its lock is taken), or when the previous one is younger than
    ``PUBLIC_PAGE_MIN_SECONDS`` (while results pour in, a page renders at most that often). None: this
    worker renders (it took the lock, or there is nothing older to serve)."""
    latest = cache.get(f"{base}:latest")
    if latest is None:
        cache.add(f"{base}:lock", 1, timeout=LOCK_SECONDS)
        return None
    if time.time() - latest["at"] < getattr(settings, "PUBLIC_PAGE_MIN_SECONDS", 0):
        return latest
    return None if cache.add(f"{base}:lock", 1, timeout=LOCK_SECONDS) else latest


def _event_version(slug: str) -> tuple[int, str, int] | None:
    """The event's id, creation time (a replaced event never reads its predecessor's pages) and standings
    version: the one query of a page served from the cache, written out (the ORM's query building cost
    more than the query itself)."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(name) for name in ("id", "created_at", "standings_version"))
    table = quote(Tournament._meta.db_table)
    sql = f"SELECT {columns} FROM {table} WHERE {quote('slug')} = %s"  # noqa: S608  (fixed names; slug a parameter)
    with connection.cursor() as cursor:
        cursor.execute(sql, [slug])
        row = cursor.fetchone()
    return None if row is None else (int(row[0]), re.sub(r"\W", "", str(row[1])), int(row[2]))


def cached_page(view: View) -> View:
    """Serve an event's public page (a view taking ``slug``) from the shared cache per event version."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not _cacheable_request(request):
            return view(request, slug, *args, **kwargs)
        row = _event_version(slug)
        if row is None:
            return view(request, slug, *args, **kwargs)  # the view says what is missing
        pk, created_at, standings_version = row
        language = getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE)
        where = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:24]
        htmx = int("HX-Request" in request.headers)
        base = f"page:{pk}:{created_at}:{language}:{htmx}:{where}"
        try:
            key = f"{base}:{standings_version}.{page_generation(pk)}"
            entry = cache.get(key)
            if entry is None:
                entry = _previous_or_none(base)
        except Exception:  # the shared cache is away: render the page as if there were no cache
            log.warning("page cache unavailable; rendering %s", request.path, exc_info=True)
            return view(request, slug, *args, **kwargs)
        if entry is not None:
            response = _respond(request, entry)
        else:
            entry = None
            token = _STALE_TOLERANCE.set(float(getattr(settings, "PUBLIC_PAGE_MIN_SECONDS", 0)))
            try:
                rendered = view(request, slug, *args, **kwargs)
                if not isinstance(rendered, HttpResponse) or not _storable(request, rendered):
                    return rendered
                entry = _entry(request, rendered)
                cache.set_many({key: entry, f"{base}:latest": entry}, timeout=PAGE_SECONDS)
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

    return wrapper
