"""The referee settles a player's "I do not agree" at a table (``services.disputes``): the table page
shows the open disagreements (``{% table_disputes table %}``) with a "Settled" button posting here."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.models import TableDispute
from scoring.services import disputes
from tournaments.access import event_for, table_of
from tournaments.errors import ServiceError
from tournaments.models import Role


@login_required
@require_POST
def settle_dispute(request: HttpRequest, slug: str, number: int, table: int, dispute: int) -> HttpResponse:
    """Mark the disagreement settled (audited); the players may then sign, or a referee confirm."""
    tournament = event_for(request, slug, Role.REFEREE)
    table_obj = table_of(tournament, number, table)
    found = get_object_or_404(TableDispute, pk=dispute, table=table_obj)
    try:
        disputes.settle(found, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, gettext("Not saved: %(problem)s") % {"problem": error.message})
    else:
        messages.success(request, gettext("Disagreement settled: the result may be signed or confirmed."))
    return redirect("referee:table", slug=slug, number=number, table=table)
