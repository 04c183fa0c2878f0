"""The check-in kiosk: a tablet by the desk where a player finds their name (accents and case ignored,
``tournaments.desk.find``), types their PIN (checked and throttled by ``scoring.services.pins``, hence this
page lives in ``scoring``) and is checked in (``tournaments.desk.self_check_in``, logged as their own
action); the page then clears itself for the next player. It answers only in a browser an organiser made
the event's kiosk (``tournaments.kiosk``), and only while the organiser's self check-in window is open.
Names are searched and shown as the public sees them (``kiosk.find``): the tablet stands in the hall.
"Leave kiosk mode" asks an organiser's login (``kiosk_leave``; why, ``tournaments.kiosk``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache

from config.security import client_ip
from scoring.forms import PinForm
from scoring.services import pins
from tournaments import desk, kiosk, public_names
from tournaments.access import has_role
from tournaments.errors import ServiceError
from tournaments.models import Registration, Role, Tournament
from tournaments.services import player_seats
from tournaments.venue_time import use_event_zone

MOST_MATCHES = 12
"""Names listed for one search; more asks for more of the name (a tablet's screen, not a list)."""

CLEAR_AFTER_SECONDS = 6
"""The answer "Checked in: table 4, East" stays this long, then the page is ready for the next player."""

IDLE_SECONDS = 60
"""A name picked and left without a PIN goes back to the search after this long."""


def _page(
    request: HttpRequest, tournament: Tournament, state: str, status: int = 200, **extra: Any
) -> HttpResponse:
    # "event", not "tournament": the kiosk shows no event navigation (nothing to wander off to)
    context = {
        "event": tournament,
        "state": state,
        "clear_after": CLEAR_AFTER_SECONDS,
        "idle": IDLE_SECONDS,
        "names": public_names.event_policy(tournament),
    }
    registration = extra.get("registration")
    if registration is not None:
        context["shown"] = public_names.public_name(registration, tournament)
    return render(request, "scoring/kiosk/kiosk.html", {**context, **extra}, status=status)


def _refusal(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    if not kiosk.is_kiosk(request, tournament):
        return _page(request, tournament, "off", status=403)
    if not tournament.self_check_in_open:
        return _page(request, tournament, "closed")
    return None


@never_cache
def kiosk_search(request: HttpRequest, slug: str) -> HttpResponse:
    """Type a name, pick yours."""
    tournament = get_object_or_404(Tournament, slug=slug)
    use_event_zone(tournament)  # the venue's clock (tournaments/venue_time.py)
    refused = _refusal(request, tournament)
    if refused is not None:
        return refused
    query = request.GET.get("q", "").strip()[:100]
    found = kiosk.find(tournament, query) if len(query) >= 2 else []
    return _page(
        request,
        tournament,
        "search",
        query=query,
        found=found[:MOST_MATCHES],
        more=len(found) > MOST_MATCHES,
    )


@never_cache
def kiosk_player(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    """The PIN of the player picked; a right PIN checks them in, and the answer names their seat."""
    tournament = get_object_or_404(Tournament, slug=slug)
    use_event_zone(tournament)  # the venue's clock (tournaments/venue_time.py)
    refused = _refusal(request, tournament)
    if refused is not None:
        return refused
    registration = get_object_or_404(
        Registration.objects.select_related("player", "tournament"), tournament=tournament, code=code
    )
    if registration.withdrawn:
        return _page(request, tournament, "withdrawn", status=403, registration=registration)
    if registration.checked_in:
        return _page(
            request,
            tournament,
            "done",
            registration=registration,
            seat=player_seats.seat_now(registration).coming,
        )
    form = PinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            pins.check_own_pin(
                registration, form.cleaned_data["pin"], acting_user=None, address=client_ip(request)
            )
            registration = desk.self_check_in(registration, by_player="kiosk")
        except ServiceError as error:
            form.add_error("pin", error.message)
        else:
            return _page(
                request,
                tournament,
                "done",
                registration=registration,
                seat=player_seats.seat_now(registration).coming,
            )
    status = 422 if request.method == "POST" else 200
    return _page(request, tournament, "pin", status=status, registration=registration, form=form)


@never_cache
def kiosk_leave(request: HttpRequest, slug: str) -> HttpResponse:
    """Leave kiosk mode: an organiser of the event logs in on the tablet (their username and password,
    throttled as every login is); anyone else is refused and nothing changes. Then the organiser is at the
    desk page, logged in on this browser."""
    tournament = get_object_or_404(Tournament, slug=slug)
    use_event_zone(tournament)  # the venue's clock (tournaments/venue_time.py)
    if not kiosk.is_kiosk(request, tournament):
        return _page(request, tournament, "off", status=403)
    form = AuthenticationForm(request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.get_user()
        if has_role(user, tournament, Role.ORGANISER):
            kiosk.turn_off(request, tournament, user)
            return redirect("manage:players", slug=slug)
        form.add_error(None, gettext("Only an organiser of this event can leave kiosk mode."))
    status = 422 if request.method == "POST" else 200
    return _page(request, tournament, "leave", status=status, form=form)
