"""Access helpers: every view gets its event through one of these (404 when absent, 403 when not allowed)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django_htmx.middleware import HtmxDetails

from tournaments.archive import ARCHIVED_MESSAGE
from tournaments.models import EventRole, Role, Round, Table, Tournament


class HtmxHttpRequest(HttpRequest):
    """The type of a request that passed ``django_htmx``'s middleware (for views that read ``request.htmx``)."""

    htmx: HtmxDetails


def has_role(user: User | AnonymousUser, tournament: Tournament, role: str) -> bool:
    """Organisers may do everything referees may; superusers may do everything."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    roles = set(EventRole.objects.filter(tournament=tournament, user=user).values_list("role", flat=True))
    return role in roles or Role.ORGANISER in roles


def public_event(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def event_for(request: HttpRequest, slug: str, role: str, *, archived_ok: bool = False) -> Tournament:
    """The event for a staff page; a post to an archived event is refused here, before any view runs
    (only taking it out of the archive passes ``archived_ok``)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not has_role(request.user, tournament, role):
        raise PermissionDenied("You do not have that role in this event.")
    if request.method == "POST" and tournament.archived_at is not None and not archived_ok:
        raise PermissionDenied(ARCHIVED_MESSAGE.format(name=tournament.name))
    return tournament


def round_of(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def table_of(tournament: Tournament, round_number: int, table_number: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament=tournament,
        round__number=round_number,
        number=table_number,
    )
