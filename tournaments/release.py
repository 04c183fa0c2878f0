"""Release controls: an event, each session's seating and each session's results are drafts
until the organiser publishes them, and the public standings can be frozen after session N until the
prize-giving.

Nothing of a draft event is public: every public page gets its event through
``tournaments.access.public_event``, which answers 404 for a draft, and a session's public seating or
results page through ``public_round``. The public standings count only sessions whose results are
published (up to the frozen session): ``scoring.services.standings.event_standings`` asks :func:`counted_rounds`.
Every change bumps the standings version, so no cached page outlives it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournaments.archive import check_open
from tournaments.audit import AuditAction, User, audit, bump_standings
from tournaments.errors import ServiceError
from tournaments.models import Round, Tournament

PARTS = {"seating": "seating_published_at", "results": "results_published_at"}


def counted_rounds(tournament: Tournament) -> set[int]:
    """The session numbers whose results the public may see: published, and not after the session
    the standings are frozen at."""
    numbers = set(
        tournament.rounds.filter(results_published_at__isnull=False).values_list("number", flat=True)
    )
    if tournament.standings_frozen_after is not None:
        numbers = {n for n in numbers if n <= tournament.standings_frozen_after}
    return numbers


def refuse_rehearsal(tournament: Tournament) -> None:
    """A rehearsal copy is never public (``tournaments.services.rehearsals``): publishing it is refused."""
    if tournament.is_rehearsal:
        raise ServiceError(
            gettext("A rehearsal is never published: its pages stay with the staff."), code="rehearsal"
        )


@transaction.atomic
def publish_event(tournament: Tournament, published: bool, *, acting_user: User) -> Tournament:
    """Make the event public (its home, standings, projector...) or take it back to draft."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    check_open(locked)
    if published:
        refuse_rehearsal(locked)
    if locked.is_published == published:
        return locked
    locked.published_at = timezone.now() if published else None
    locked.save(update_fields=["published_at"])
    bump_standings(locked)
    audit(
        locked,
        acting_user,
        AuditAction.PUBLISH_EVENT if published else AuditAction.UNPUBLISH_EVENT,
        f"{locked.name} {'published' if published else 'back to draft'}",
    )
    return locked


@transaction.atomic
def publish_session(round_: Round, part: str, published: bool, *, acting_user: User) -> Round:
    """Publish (or take back to draft) a session's seating or its results. A session that is not seated
    has nothing to publish: refused with code ``not_seated``, nothing changed."""
    if part not in PARTS:
        raise ServiceError(
            gettext("Unknown part %(part)s: seating or results.") % {"part": repr(part)}, code="bad_part"
        )
    tournament = Tournament.objects.select_for_update().get(pk=round_.tournament_id)
    check_open(tournament)
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    field = PARTS[part]
    if published and not locked.tables.exists():
        raise ServiceError(
            gettext("Session %(number)s is not seated yet: seat it before publishing its %(part)s.")
            % {"number": locked.number, "part": part},
            code="not_seated",
        )
    if (getattr(locked, field) is not None) == published:
        return locked
    setattr(locked, field, timezone.now() if published else None)
    locked.save(update_fields=[field])
    bump_standings(tournament)
    audit(
        tournament,
        acting_user,
        AuditAction.PUBLISH_SESSION if published else AuditAction.UNPUBLISH_SESSION,
        f"Session {locked.number} {part} {'published' if published else 'back to draft'}",
        session=locked.number,
        part=part,
    )
    return locked


@transaction.atomic
def freeze_standings(tournament: Tournament, after: int | None, *, acting_user: User) -> Tournament:
    """Freeze the public standings after session ``after`` (until the prize-giving), or unfreeze them
    with ``None``."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    check_open(locked)
    if after is not None and not locked.rounds.filter(number=after).exists():
        raise ServiceError(
            gettext("There is no session %(after)s in this event.") % {"after": after}, code="bad_session"
        )
    if locked.standings_frozen_after == after:
        return locked
    locked.standings_frozen_after = after
    locked.save(update_fields=["standings_frozen_after"])
    bump_standings(locked)
    audit(
        locked,
        acting_user,
        AuditAction.FREEZE_STANDINGS,
        f"Standings frozen after session {after}" if after is not None else "Standings no longer frozen",
        after=after,
    )
    return locked


@transaction.atomic
def publish_everything(tournament: Tournament, *, acting_user: User) -> Tournament:
    """Make a whole event public as it happens: the event, and the seating and results of every
    session, including those not seated yet (they show as soon as they are). An imported event, the
    demo events and the events made before release controls are published this way."""
    refuse_rehearsal(tournament)
    now = timezone.now()
    Tournament.objects.filter(pk=tournament.pk).update(published_at=now)
    Round.objects.filter(tournament=tournament).update(seating_published_at=now, results_published_at=now)
    bump_standings(tournament)
    audit(
        tournament, acting_user, AuditAction.PUBLISH_EVENT, f"{tournament.name} published with every session"
    )
    tournament.published_at = now
    return tournament
