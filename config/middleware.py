"""Addresses holding a NUL character, refused before any view reads them."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponseBase, QueryDict

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
