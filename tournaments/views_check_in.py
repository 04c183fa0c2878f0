"""A player checks in from their own page ("My event"), signed in to the event on their own phone
(``tournaments.player_session``), while the organiser's self check-in window is open; afterwards, at the
desk. The form is ``templates/tournaments/_check_in.html``, included in the player's page."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournaments import desk, player_session
from tournaments.access import HtmxHttpRequest
from tournaments.errors import ServiceError
from tournaments.models import Tournament
from tournaments.services import player_seats
from tournaments.venue_time import use_event_zone


@never_cache
@require_POST
def me_check_in(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Check the signed-in player in (``desk.self_check_in``, logged as their own action). With htmx the
    answer is the check-in box again; otherwise back to the page it was sent from (``next``)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    use_event_zone(tournament)  # the venue's clock (tournaments/venue_time.py)
    registration = player_session.signed_in(request, tournament)
    if registration is None:
        raise PermissionDenied(gettext("Sign in with your player code and PIN first."))
    error = ""
    try:
        registration = desk.self_check_in(registration, by_player="phone")
    except ServiceError as refusal:
        error = refusal.message
    if request.htmx:
        return render(
            request,
            "tournaments/_check_in.html",
            {
                "tournament": registration.tournament,
                "registration": registration,
                "check_in_error": error,
                "check_in_seat": None if error else player_seats.seat_now(registration).coming,
            },
            status=422 if error else 200,
        )
    if error:
        messages.error(request, error)
    else:
        messages.success(request, gettext("You are checked in."))
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        target = reverse("public:event", args=[slug])
    return redirect(target)
