"""The rehearsal's organiser page plays its next session with simulated referees
(``scoring.services.simulated_referees``), for a rehearsal small enough to be played within a request; a larger
one is played with ``manage.py play_rehearsal``. A real event is refused (by the service too)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.services.simulated_referees import play_rehearsal
from tournaments.access import event_for
from tournaments.errors import ServiceError
from tournaments.models import Role

MOST_PLAYERS_IN_A_REQUEST = 48
"""12 tables of 16 hands (a few seconds); more are played by the command, outside a web request."""


@login_required
@require_POST
def play_next_session(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    if tournament.registrations.filter(withdrawn_at__isnull=True).count() > MOST_PLAYERS_IN_A_REQUEST:
        messages.error(
            request,
            gettext(
                "This rehearsal is too large to be played from the page: run manage.py play_rehearsal %(slug)s."
            )
            % {"slug": tournament.slug},
        )
        return redirect("manage:event", slug=slug)
    try:
        played = play_rehearsal(tournament, sessions=1, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("manage:event", slug=slug)
    if not played.sessions:
        messages.info(request, gettext("Every session of the rehearsal is played."))
    else:
        messages.success(
            request,
            gettext(
                "Session %(number)s played by simulated referees: %(tables)s tables, %(hands)s hands, "
                "confirmed and published in the rehearsal."
            )
            % {"number": played.sessions[0], "tables": played.tables, "hands": played.hands},
        )
    return redirect("manage:event", slug=slug)
