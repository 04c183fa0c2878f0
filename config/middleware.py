"""Addresses holding a NUL character, refused before any view reads them; a database that went away answered
"not saved, try again" rather than the generic error page."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.views import defaults

log = logging.getLogger(__name__)

NUL = "\x00"


class RefuseNulCharacters:
    """PostgreSQL cannot compare text holding NUL (U+0000): a player code or search term with one would end
    in a database error (a 500) on PostgreSQL and a plain "not found" on SQLite. An address whose path holds
    one names no page: answered with the site's 404 (after the locale middleware, so in the reader's
    language). NUL characters in the query string's values are dropped (a search for "a<NUL>b" reads "ab").
    Posted forms need nothing here: Django's form fields already refuse NUL with a message."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if NUL in request.path_info:
            raise Http404("no such page")
        if any(NUL in key or any(NUL in value for value in values) for key, values in request.GET.lists()):
            cleaned = QueryDict(mutable=True)
            for key, values in request.GET.lists():
                cleaned.setlist(key.replace(NUL, ""), [value.replace(NUL, "") for value in values])
            cleaned._mutable = False
            request.GET = cleaned  # type: ignore[assignment]  # read-only again, as Django's own
        return self.get_response(request)


DATABASE_ERRORS = (OperationalError, InterfaceError)
"""What a database that went away (a restart, a dropped connection, a failover) raises."""


def database_away(request: HttpRequest) -> HttpResponse:
    """503 for a request the database did not answer: a save says plainly that it was not stored (every
    service writes in one transaction, so nothing is half-written) and the browser's Back keeps what was
    typed; a read says to try again in a moment. Drawn without the database (no context processors, no
    user) in the reader's language."""
    saving = request.method not in {"GET", "HEAD", "OPTIONS"}
    with translation.override(translation.get_language_from_request(request)):
        body = render_to_string("503.html", {"saving": saving, "LANGUAGE_CODE": translation.get_language()})
    response = HttpResponse(body, status=503)
    response["Retry-After"] = "2"
    add_never_cache_headers(response)
    return response


class DatabaseAway:
    """A view that the database did not answer (``OperationalError``/``InterfaceError``) answers
    :func:`database_away` instead of the generic error page. Errors raised before the view (the public read
    path, sessions) reach ``config.urls.handler500``, which answers the same."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_ERRORS):
            return None
        log.warning("database unavailable: %s %s answered 503 (%s)", request.method, request.path, exception)
        return database_away(request)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: the database's errors raised outside a view answer :func:`database_away`; anything
    else Django's own 500 page (``templates/500.html``)."""
    if isinstance(sys.exc_info()[1], DATABASE_ERRORS):
        return database_away(request)
    return defaults.server_error(request)
