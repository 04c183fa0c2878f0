"""Organiser pages about results: printable scoresheets (more prints follow here)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse

from tournaments.access import event_for, round_of
from tournaments.models import Role


@login_required
def scoresheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Printable scoresheets for every table of a session, with QR codes to the entry pages."""
    from scoring.exports import ScoresheetsPDF

    tournament = event_for(request, slug, Role.ORGANISER)
    filename, content_type, content = ScoresheetsPDF(
        round_of(tournament, number), request.build_absolute_uri("/")
    ).render()
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
