"""Re-seating the rest of an event (after drops or late arrivals) with a preview of the plan's quality
before anything is stored, and uploading a prepared seating (``tournaments.services.reseating``,
``tournaments.services.seating_upload``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from tournaments.access import event_for
from tournaments.errors import ServiceError
from tournaments.models import Role
from tournaments.services import reseating, seating_upload
from tournaments.services.seating import seating_players


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
        "players": len(seating_players(tournament)),
    }
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "store":
                proposal = reseating.from_token(tournament, request.POST.get("plan", ""))
                reseating.store(proposal, acting_user=request.user)
                messages.success(
                    request,
                    gettext("Sessions %(first)s to %(last)s seated at %(tables_after)s tables.")
                    % {"first": proposal.first, "last": proposal.last, "tables_after": proposal.tables_after},
                )
                return redirect("manage:session", slug=slug, number=proposal.first)
            first = _int(request.POST.get("first"), first_free or 0)
            proposal = reseating.propose(tournament, first, seed=_int(request.POST.get("seed"), 0))
            context["proposal"] = proposal
        except ServiceError as error:
            context["error"] = error.message
    return render(request, "tournaments/organiser/reseat.html", context)


MAX_UPLOAD = 2 * 1024 * 1024


@login_required
def upload_seating(request: HttpRequest, slug: str) -> HttpResponse:
    """POST a file: checked, each problem by row, and its quality shown (nothing stored). POST ``store``
    with the checked seating: stored after checking again that nothing was entered meanwhile."""
    tournament = event_for(request, slug, Role.ORGANISER)
    context: dict[str, Any] = {"tournament": tournament}
    if request.method == "POST":
        try:
            if request.POST.get("action") == "store":
                report = seating_upload.from_token(tournament, request.POST.get("plan", ""))
                seating_upload.store_upload(tournament, report, acting_user=request.user)
                first = min(report.rounds)
                messages.success(
                    request,
                    gettext("Seating stored for sessions %(str)s.")
                    % {"str": ", ".join(map(str, sorted(report.rounds)))},
                )
                return redirect("manage:session", slug=slug, number=first)
            upload = request.FILES.get("file")
            if upload is None:
                raise ServiceError(gettext("Choose a CSV or XLSX file."), code="no_file")
            name = upload.name or ""
            if not name.lower().endswith((".csv", ".xlsx", ".txt")):
                raise ServiceError(gettext("Upload a .csv or .xlsx file."), code="bad_file")
            if (upload.size or 0) > MAX_UPLOAD:
                raise ServiceError(gettext("The file is larger than 2 MB."), code="bad_file")
            context["report"] = seating_upload.check_upload(tournament, upload.read(), name)
        except ServiceError as error:
            context["error"] = error.message
    return render(request, "tournaments/organiser/upload_seating.html", context)
