"""Re-seating the rest of an event (after drops or late arrivals) with a preview of the plan's quality
before anything is stored, and uploading a prepared seating (``tournaments.reseating``,
``tournaments.seating_upload``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tournaments import reseating, services
from tournaments.access import event_for
from tournaments.errors import ServiceError
from tournaments.models import Role


def _int(value: Any, default: int) -> int:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return default


@login_required
def reseat(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the form. POST ``preview``: work the plan out and show its quality (nothing stored).
    POST ``store``: store the previewed plan as shown, after checking again that nothing was entered."""
    tournament = event_for(request, slug, Role.ORGANISER)
    first_free = reseating.replaceable_from(tournament)
    context: dict[str, Any] = {
        "tournament": tournament,
        "first_free": first_free,
        "players": len(services.seating_players(tournament)),
    }
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "store":
                proposal = reseating.from_token(tournament, request.POST.get("plan", ""))
                reseating.store(proposal, acting_user=request.user)
                messages.success(
                    request,
                    f"Sessions {proposal.first} to {proposal.last} seated at {proposal.tables_after} tables.",
                )
                return redirect("manage:session", slug=slug, number=proposal.first)
            first = _int(request.POST.get("first"), first_free or 0)
            proposal = reseating.propose(tournament, first, seed=_int(request.POST.get("seed"), 0))
            context["proposal"] = proposal
        except ServiceError as error:
            context["error"] = error.message
    return render(request, "tournaments/organiser/reseat.html", context)
