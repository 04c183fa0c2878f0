"""Archiving an event: once it has results an event is kept, never deleted; archived, it is read-only.

The admin refuses to delete an event with results (its audit log outlives it in any case); the
organiser archives it instead. An archived event stays public (players look up old results), but no
page or service may change it: result writes check :func:`check_open` under the table's lock, and every
organiser or referee post is refused by :func:`tournaments.access.event_for` before a view runs.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from tournaments.audit import AuditAction, User, audit
from tournaments.errors import ServiceError
from tournaments.models import Tournament

ARCHIVED_MESSAGE = gettext_lazy(
    "%(name)s is archived: its results are kept read-only. An organiser can take it out of the archive."
)


def check_open(tournament: Tournament) -> None:
    """Refuse a change to an archived event (call it inside the write's transaction)."""
    if tournament.archived_at is not None:
        raise ServiceError(ARCHIVED_MESSAGE % {"name": tournament.name}, code="archived")


@transaction.atomic
def set_archived(tournament: Tournament, archived: bool, *, acting_user: User) -> Tournament:
    """Archive the event, or take it out of the archive; a repeated request changes nothing."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if (locked.archived_at is not None) == archived:
        return locked
    locked.archived_at = timezone.now() if archived else None
    locked.save(update_fields=["archived_at"])
    if archived:
        audit(locked, acting_user, AuditAction.ARCHIVE_EVENT, f"Archived {locked.name}")
    else:
        audit(locked, acting_user, AuditAction.UNARCHIVE_EVENT, f"Took {locked.name} out of the archive")
    return locked
