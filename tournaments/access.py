"""Access helpers: every view gets its event through one of these (404 when absent, 403 when not allowed).

Each one also sets the venue's clock for the rest of the request (``tournaments/venue_time.py``): the
narrowest place every page about an event passes, with no query of its own."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from django_htmx.middleware import HtmxDetails

from tournaments.archive import ARCHIVED_MESSAGE
from tournaments.citations import cite
from tournaments.models import EventRole, Role, Round, Table, Tournament
from tournaments.prepared import Statement, fields_of
from tournaments.venue_time import use_event_zone


class HtmxHttpRequest(HttpRequest):
    """The type of a request that passed ``django_htmx``'s middleware (for views that read ``request.htmx``)."""

    htmx: HtmxDetails


IMPLIED: dict[str, frozenset[str]] = {
    Role.REFEREE: frozenset({Role.CHIEF_REFEREE, Role.SCORER}),
    Role.SCORER: frozenset({Role.REFEREE, Role.CHIEF_REFEREE}),
}
"""Roles that also give a role: a chief referee is a referee too, and a scorer (who enters and confirms
results) uses the referee's table pages; organisers may do everything."""


def granting(role: str) -> frozenset[str]:
    """The roles that give ``role``: itself, the organiser's, and those that imply it."""
    return frozenset({role, Role.ORGANISER}) | IMPLIED.get(role, frozenset())


def has_role(user: User | AnonymousUser, tournament: Tournament, role: str) -> bool:
    """Organisers may do everything referees may; superusers may do everything."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return EventRole.objects.filter(tournament=tournament, user=user, role__in=granting(role)).exists()


def can_decide_appeals(user: User | AnonymousUser, tournament: Tournament) -> bool:
    """MCR rule 94: an appeal against a referee's judgment goes to the chief referee or to the appeals
    committee (the organisers); a referee or scorer may not decide one."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return EventRole.objects.filter(
        tournament=tournament, user=user, role__in=(Role.CHIEF_REFEREE, Role.ORGANISER)
    ).exists()


def appeals_event_for(request: HttpRequest, slug: str) -> Tournament:
    """The event, for a page that decides appeals (404 when absent, 403 for anyone but a chief referee
    or an organiser)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    use_event_zone(tournament)
    if not can_decide_appeals(request.user, tournament):
        raise PermissionDenied(
            cite(
                tournament.rule_set,
                "appeal",
                gettext("Only the chief referee or the appeals committee decides appeals (%(rule)s)."),
                gettext("Only the chief referee or the appeals committee decides appeals."),
            )
        )
    return tournament


DRAFT_MESSAGE = "This event is not published yet."


def _event_query(slug: str) -> QuerySet[Tournament, tuple[Any, ...]]:
    return Tournament._default_manager.filter(slug=slug).values_list(*fields_of(Tournament))


EVENT = Statement("public_event", _event_query, ("slug",), text=("slug",))
"""The event of every public page and player's poll: read as a statement prepared once per connection (the
ORM's compiling and PostgreSQL's planning each time cost more than reading the row: docs/scale.md)."""


def public_event(slug: str) -> Tournament:
    """The event for a public page: a draft answers 404 to everyone (staff use their own pages, and no
    cached public page may ever hold a draft)."""
    found = EVENT.objects(Tournament, slug=slug)
    if not found:
        raise Http404("No such event.")
    tournament = found[0]
    if tournament.published_at is None or tournament.is_rehearsal:  # a rehearsal is never public
        raise Http404(DRAFT_MESSAGE)
    use_event_zone(tournament)
    return tournament


def public_round(tournament: Tournament, number: int, part: str) -> Round:
    """A session for a public page of its ``part`` ("seating" or "results"): 404 while that is a draft."""
    round_ = round_of(tournament, number)
    published = round_.seating_published_at if part == "seating" else round_.results_published_at
    if published is None:
        raise Http404(f"The {part} of session {number} is not published yet.")
    return round_


def event_for(request: HttpRequest, slug: str, role: str, *, archived_ok: bool = False) -> Tournament:
    """The event for a staff page; a post to an archived event is refused here, before any view runs
    (only taking it out of the archive passes ``archived_ok``)."""
    user = request.user
    # The role is read with the event, in one query (every query of a referee's save is a round trip,
    # docs/scale.md); the same answer as ``has_role``.
    holds = EventRole.objects.filter(tournament=OuterRef("pk"), user=user.pk, role__in=granting(role))
    tournament = get_object_or_404(Tournament.objects.annotate(viewer_holds_role=Exists(holds)), slug=slug)
    allowed = user.is_superuser or tournament.viewer_holds_role  # type: ignore[attr-defined]  # annotated
    if not (user.is_authenticated and allowed):
        raise PermissionDenied(gettext("You do not have that role in this event."))
    if request.method == "POST" and tournament.archived_at is not None and not archived_ok:
        raise PermissionDenied(ARCHIVED_MESSAGE % {"name": tournament.name})
    use_event_zone(tournament)
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
