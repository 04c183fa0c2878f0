"""Calling a referee: the player's button (``public:player_call``, for a player signed in to the event on
their own phone, ``tournaments.player_session``), the referee's table page's button, and "My tables"' open
calls with "I'm coming" and "Close", polled every few seconds (``referee:open_calls``).

Each form posts to its own endpoint and calls one service in ``tournaments.services.calls``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import live, player_session
from tournaments.access import HtmxHttpRequest, event_for, table_of
from tournaments.errors import ServiceError
from tournaments.models import RefereeCall, Role, Tournament
from tournaments.roles import roles_of
from tournaments.services import calls, player_seats
from tournaments.venue_time import use_event_zone

CALL_BUTTON = "tournaments/_call_button.html"
OPEN_CALLS = "tournaments/_open_calls.html"


def _private(response: HttpResponse) -> HttpResponse:
    """A page about one person or one referee's events: never stored by a shared cache."""
    response["Cache-Control"] = "no-cache, private"
    return response


def _back(request: HttpRequest, tournament: Tournament) -> str:
    """Where the player's page sent the form from (this site only), else the event's page."""
    wanted = request.POST.get("next", "") or request.GET.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return reverse("public:event", args=[tournament.slug])


@require_http_methods(["GET", "POST"])
def player_call(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A signed-in player calls a referee to their table now (POST); GET answers the button's fragment,
    which polls itself while the call is open so the player sees "Kim is coming"."""
    tournament = get_object_or_404(Tournament, slug=slug)
    use_event_zone(tournament)  # the venue's clock (tournaments/venue_time.py)
    registration = player_session.signed_in(request, tournament)
    if registration is None:
        raise PermissionDenied(gettext("Sign in to your own page of this event first."))
    message = ""
    if request.method == "POST":
        table = player_seats.seat_now(registration).table
        if table is None:
            message = gettext("You have no table in play now.")
        else:
            try:
                calls.call_referee(table, reason=request.POST.get("reason", ""), registration=registration)
            except ServiceError as error:
                message = error.message
            else:
                message = gettext("A referee is called to table %(number)s.") % {"number": table.number}
        if not request.htmx:
            messages.info(request, message)
            return redirect(_back(request, tournament))
    context = {
        "tournament": tournament,
        "registration": registration,
        "call_message": message,
        "call_next": _back(request, tournament),  # not this fragment's own address
    }
    return _private(render(request, CALL_BUTTON, context))


@login_required
@require_POST
def table_call(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """A referee or scorer at the table calls a (chief) referee from the table page."""
    tournament = event_for(request, slug, Role.REFEREE)
    the_table = table_of(tournament, number, table)
    try:
        calls.call_referee(the_table, reason=request.POST.get("reason", ""), acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("A referee is called to table %(number)s.") % {"number": table})
    return redirect(reverse("referee:table", args=[slug, number, table]) + "#call-referee")


def _call_of(request: HttpRequest, slug: str, pk: int) -> RefereeCall:
    tournament = event_for(request, slug, Role.REFEREE)
    return get_object_or_404(RefereeCall, pk=pk, table__round__tournament=tournament)


@login_required
@require_POST
def take_call(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """ "I'm coming": the referee takes the call."""
    try:
        calls.take_call(_call_of(request, slug, pk), acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("referee:my_tables")


@login_required
@require_POST
def close_call(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The call is settled."""
    try:
        calls.close_call(_call_of(request, slug, pk), acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("Call closed."))
    return redirect("referee:my_tables")


def referee_events(request: HttpRequest) -> list[Tournament]:
    """The events whose tables the user works at or organises (every event for a superuser)."""
    roles = roles_of(request.user)
    if roles.is_superuser:
        return list(Tournament.objects.all())
    return list(Tournament.objects.filter(pk__in=roles.by_event))


def open_calls_context(events: list[Tournament]) -> dict[str, Any]:
    """What ``tournaments/_open_calls.html`` shows: the events' open calls, the longest waiting first."""
    lines = live.call_lines(calls.open_calls(events), now=timezone.now())
    return {"calls": lines, "several_events": len(events) > 1}


@login_required
def open_calls(request: HttpRequest) -> HttpResponse:
    """The fragment "My tables" polls every few seconds."""
    return _private(render(request, OPEN_CALLS, open_calls_context(referee_events(request))))
