"""The organiser's rehearsal actions (``tournaments.services.rehearsals``): copy the event as a rehearsal
(asked once, by the button's confirmation) and throw a rehearsal away (asked twice: the button's confirmation
and the rehearsal's web address typed)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from tournaments.access import event_for
from tournaments.errors import ServiceError
from tournaments.models import Role
from tournaments.services import rehearsals


@login_required
@require_POST
def copy_as_rehearsal(request: HttpRequest, slug: str) -> HttpResponse:
    """Make the copy and open its organiser's page (the real event is only read: an archived one too)."""
    tournament = event_for(request, slug, Role.ORGANISER, archived_ok=True)
    try:
        copy = rehearsals.copy_as_rehearsal(tournament, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("manage:event", slug=slug)
    messages.success(
        request,
        gettext("Rehearsal copy made: nothing of it is public, and the real event is untouched."),
    )
    return redirect("manage:event", slug=copy.slug)


@login_required
@require_POST
def throw_away(request: HttpRequest, slug: str) -> HttpResponse:
    """Delete the rehearsal once its web address is typed; a real event is refused (by the service too)."""
    tournament = event_for(request, slug, Role.ORGANISER, archived_ok=True)
    if request.POST.get("confirm", "").strip() != tournament.slug:
        messages.error(
            request, gettext("Type the rehearsal's web address to throw it away: nothing was deleted.")
        )
        return redirect("manage:event", slug=slug)
    try:
        original = rehearsals.throw_away(tournament, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("manage:event", slug=slug)
    messages.success(request, gettext("The rehearsal was thrown away."))
    return redirect("manage:event", slug=original)
