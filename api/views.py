"""The public read API, version 1 (``docs/api.md``): JSON for what the public pages show, nothing more.

Every view reads its event through ``public_event`` and a session through ``public_round``, as the pages do:
a draft event, or a session whose seating or results are not published, answers 404, exactly like the page.
The views taking an event are marked ``public_page`` (``api/urls.py``), so anonymous reads go through
``tournaments/public_read.py`` like the pages: one rendering per public version, never an older one."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.http import Http404, HttpRequest
from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView, exception_handler

from api import data, serializers
from api.docs import api_schema
from tournaments.access import public_event, public_round

NOT_FOUND = OpenApiResponse(serializers.Problem, description="No such event or session, or not published")
TOO_MANY = OpenApiResponse(serializers.TooMany, description="Over the rate limit (api/middleware.py)")


def answers(ok: Any, *, found: bool = True) -> dict[int, Any]:
    """The schema's answers of a view: ``ok`` on 200, 404 when it names an event, 429 always."""
    return {200: ok, **({404: NOT_FOUND} if found else {}), 429: TOO_MANY}


def not_found_alike(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, except that every 404 says the same "Not found.", as every page's 404 does: a draft
    event or session is not told apart from one that does not exist."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    return exception_handler(exc, context)


class JsonOnly(BaseContentNegotiation):
    """Always JSON, whatever the client's Accept header says: the answer depends only on the address (the
    public read path keys stored answers on it)."""

    def select_parser(self, request: Request, parsers: Iterable[BaseParser]) -> BaseParser | None:
        return next(iter(parsers), None)

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))
        return renderer, renderer.media_type


class ReadView(APIView):
    """A read-only API view: GET and HEAD; anything else is 405 (no preflight: a plain GET needs none)."""

    http_method_names = ["get", "head"]
    content_negotiation_class = JsonOnly


class IndexView(ReadView):
    """The API's addresses."""

    @extend_schema(responses=answers(serializers.Index, found=False), summary="Where everything is")
    def get(self, request: HttpRequest) -> Response:
        return Response(
            {
                "version": "1",
                "events": reverse("api:events"),
                "schema": reverse("api:schema"),
                "docs": reverse("api:docs"),
            }
        )


class SchemaView(ReadView):
    """The OpenAPI 3 schema, built once per process (``api.docs.api_schema``: the same the docs page reads)."""

    @extend_schema(exclude=True)
    def get(self, request: HttpRequest) -> Response:
        return Response(api_schema())


class EventsView(ReadView):
    """Every published event (a draft is never listed)."""

    @extend_schema(
        responses=answers(serializers.EventSummary(many=True), found=False), summary="Published events"
    )
    def get(self, request: HttpRequest) -> Response:
        return Response(data.published_events())


class EventView(ReadView):
    """An event and its sessions; 404 for a draft, as its page."""

    @extend_schema(responses=answers(serializers.EventDetail), summary="An event and its sessions")
    def get(self, request: HttpRequest, slug: str) -> Response:
        return Response(data.event_detail(public_event(slug)))


class SessionsView(ReadView):
    """Each session and which of its parts (seating, results) are published."""

    @extend_schema(
        responses=answers(serializers.Session(many=True)),
        summary="An event's sessions and which parts are published",
    )
    def get(self, request: HttpRequest, slug: str) -> Response:
        return Response(data.event_sessions(public_event(slug)))


class PlayersView(ReadView):
    """The event's players: code, name, country, team (no PIN, no email, no EMA number)."""

    @extend_schema(responses=answers(serializers.Player(many=True)), summary="An event's players")
    def get(self, request: HttpRequest, slug: str) -> Response:
        return Response(data.event_players(public_event(slug)))


class SeatingView(ReadView):
    """A session's tables and seats; 404 while its seating is a draft."""

    @extend_schema(responses=answers(serializers.Seating), summary="A session's seating")
    def get(self, request: HttpRequest, slug: str, number: int) -> Response:
        event = public_event(slug)
        return Response(data.session_seating(public_round(event, number, "seating")))


class ResultsView(ReadView):
    """A session's confirmed tables with each seat's score; 404 while its results are a draft."""

    @extend_schema(
        responses=answers(serializers.Results),
        summary="A session's results (confirmed tables)",
    )
    def get(self, request: HttpRequest, slug: str, number: int) -> Response:
        event = public_event(slug)
        return Response(data.session_results(event, public_round(event, number, "results")))


class StandingsView(ReadView):
    """The public standings: confirmed tables of published sessions, up to a freeze (MCR rules 71, 73)."""

    @extend_schema(
        responses=answers(serializers.Standing(many=True)),
        summary="The public standings (the rows of `manage.py standings --format json`)",
    )
    def get(self, request: HttpRequest, slug: str) -> Response:
        return Response(data.standings(public_event(slug)))
