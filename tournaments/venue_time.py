"""The venue's clock: every time shown for an event is in the event's own time zone (an IANA name on
``Tournament.time_zone``), whatever zone the server runs in.

Pages: the access helpers (``tournaments/access.py``) activate the event's zone as soon as a view has its
event, so Django's ``date``/``time`` filters and ``timezone.localtime()`` read venue time; the middleware
here puts the site's zone back after every request, so a thread never carries one event's zone into the
next request. Prints and exports made outside a request (``tournaments/worker.py``) convert explicitly
with :func:`venue_time`. What is stored stays UTC, and the event JSON keeps UTC ISO times with their
offset (``/work/shared/specs/event-json.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, tzinfo
from functools import cache
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils import timezone
from django.utils.translation import gettext


class Event(Protocol):
    """An event as this module reads it (``tournaments.models.Tournament``; not imported: the model
    imports this module for its field's default and validator)."""

    @property
    def zone(self) -> tzinfo: ...


MAX_LENGTH = 64
"""The longest IANA name is 32 characters (America/Argentina/ComodRivadavia); room to spare."""


@cache
def zone_names() -> tuple[str, ...]:
    """The IANA names this machine knows (``zoneinfo.available_timezones()``), sorted for a choice list."""
    return tuple(sorted(available_timezones()))


def default_time_zone() -> str:
    """A new event's zone: the site's ``TIME_ZONE`` (config/settings.py)."""
    return str(settings.TIME_ZONE)


def zone_problem(name: str) -> str | None:
    """Why ``name`` cannot be an event's time zone, or None: only the names in :func:`zone_names`."""
    if name not in zone_names():
        return gettext("%(name)s is not a known time zone: choose one such as Europe/Amsterdam.") % {
            "name": repr(name)
        }
    return None


def validate_time_zone(name: str) -> None:
    """The model field's validator (the admin, ``full_clean``)."""
    problem = zone_problem(name)
    if problem:
        raise ValidationError(problem, code="bad_time_zone")


def zone_named(name: str) -> tzinfo:
    """The zone of that name; the site's zone for a name this machine does not know (a row written
    before a system's tz database dropped a name must still show)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(default_time_zone())


def venue_time(value: datetime, tournament: Event) -> datetime:
    """``value`` (aware) as the venue's clock shows it: for prints and exports, which may be made outside
    a request."""
    return timezone.localtime(value, tournament.zone)


def venue_now(tournament: Event) -> datetime:
    return venue_time(timezone.now(), tournament)


def use_event_zone(tournament: Event) -> None:
    """The rest of this request shows times in the event's zone (called by the access helpers)."""
    timezone.activate(tournament.zone)


class SiteZoneAfterRequest:
    """Every request starts and ends in the site's zone: a zone an access helper activated for one event
    must not leak, through the thread, into another event's request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
