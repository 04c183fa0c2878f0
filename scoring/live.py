"""Public pages that update themselves: each page polls a fragment of itself (htmx, the same address with
``HX-Request: true``). A poll when nothing changed is answered 304 with no body: the fragment's ETag is a
digest of its body (ConditionalGetMiddleware; stored answers carry theirs, ``tournaments.public_read``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

POLL_SECONDS = 30
"""How often the public pages ask for their fragment (the standings have always polled this often)."""


def poll_seconds() -> int:
    """``settings.PUBLIC_POLL_SECONDS`` when set (the browser tests poll every second), else 30."""
    from django.conf import settings

    return int(getattr(settings, "PUBLIC_POLL_SECONDS", POLL_SECONDS))


STANDINGS_POLL_SECONDS = 1
"""How often the public standings page asks for its table: a confirmation is on a phone left open on the
standings within about 2 s, as on the projector (bench/entry_load.py measures it). A poll when nothing
changed is a 304 from the stored answer's ETag (tournaments/public_read.py), or from nginx's copy."""


def standings_poll_seconds() -> int:
    """``settings.STANDINGS_POLL_SECONDS`` when set, else :data:`STANDINGS_POLL_SECONDS`, never slower than
    the other pages (:func:`poll_seconds`)."""
    from django.conf import settings

    return min(poll_seconds(), int(getattr(settings, "STANDINGS_POLL_SECONDS", STANDINGS_POLL_SECONDS)))


def vary_on_htmx(response: HttpResponse) -> HttpResponse:
    """The page and its fragment share a URL: tell caches (the browser's too) they differ, so going
    back never shows a bare fragment. ``no-cache``: the browser keeps its copy but asks each time."""
    patch_vary_headers(response, ["HX-Request"])
    if not response.has_header("Cache-Control"):
        response["Cache-Control"] = "no-cache"
    return response


def holds_etag(request: HttpRequest, etag: str) -> bool:
    """Whether a poll's If-None-Match holds ``etag``, compared weakly as HTTP says for it: GZipMiddleware
    marks the ETag of what it compresses weak (W/), and the browser sends it back so."""
    return etag in {tag.removeprefix("W/") for tag in parse_etags(request.headers.get("If-None-Match", ""))}
