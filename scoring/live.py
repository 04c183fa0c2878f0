"""Public pages that update themselves: each page polls a small fragment of itself (htmx), and the
fragment carries an ETag made from the event's standings version, so a poll when nothing changed is
answered 304 with no body. Every counted write bumps that version (``tournaments.audit.bump_standings``)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from scoring.standings_cache import standings_cache_key
from tournaments.models import Tournament

POLL_SECONDS = 30
"""How often the public pages ask for their fragment (the standings have always polled this often)."""


def poll_seconds() -> int:
    """``settings.PUBLIC_POLL_SECONDS`` when set (the browser tests poll every second), else 30."""
    from django.conf import settings

    return int(getattr(settings, "PUBLIC_POLL_SECONDS", POLL_SECONDS))


def version_key(tournament: Tournament, *parts: object) -> str:
    """A key naming one page's fragment at the event's current standings version, in the page's language
    (each language has its own copy and ETag)."""
    rest = ":".join(str(part) for part in parts)
    return f"{standings_cache_key(tournament)}:{tournament.standings_version}:{rest}:{get_language()}"


def etag_for(key: str) -> str:
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def unchanged(request: HttpRequest, etag: str) -> bool:
    """Whether the poller already holds this fragment. GZipMiddleware weakens the ETag it sends
    ("W/..."), so the comparison ignores the weak marker."""
    sent = request.headers.get("If-None-Match", "")
    return any(tag.strip().removeprefix("W/") == etag for tag in sent.split(","))


def fragment_response(request: HttpRequest, key: str, render: Callable[[], str]) -> HttpResponse:
    """The fragment for a poll: 304 when the poller's copy is current, else the rendered HTML with
    its ETag (``no-cache``: the browser keeps the copy but asks each time)."""
    etag = etag_for(key)
    if unchanged(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(render())
        response["Cache-Control"] = "no-cache"
    response["ETag"] = etag
    return vary_on_htmx(response)


def vary_on_htmx(response: HttpResponse) -> HttpResponse:
    """The page and its fragment share a URL: tell caches (the browser's too) they differ, so going
    back never shows a bare fragment."""
    patch_vary_headers(response, ["HX-Request"])
    return response
