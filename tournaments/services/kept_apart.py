"""Pairs of players the seating keeps apart (family, couples): the organiser adds and removes them, every
change audited; the seating engine (``tournaments.seating``, ``kept_apart``) never seats a pair at one
table when it can avoid it, and the quality report counts the meetings it could not avoid."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from tournaments.audit import AuditAction, User, audit
from tournaments.errors import ServiceError
from tournaments.models import KeptApart, Registration, Tournament


def pairs_of(tournament: Tournament) -> list[KeptApart]:
    """The event's pairs, oldest first, with both players loaded (for the organiser's page)."""
    return list(
        KeptApart.objects.filter(tournament=tournament).select_related("first__player", "second__player")
    )


def code_pairs(tournament: Tournament) -> frozenset[frozenset[str]]:
    """The event's pairs as the engine takes them: unordered pairs of registration codes."""
    rows = KeptApart.objects.filter(tournament=tournament).values_list("first__code", "second__code")
    return frozenset(frozenset(row) for row in rows)


@transaction.atomic
def keep_apart(first: Registration, second: Registration, *, acting_user: User) -> KeptApart:
    """Keep two players of one event apart in every seating planned from now on; a pair is unordered,
    named once, and two different players."""
    tournament = first.tournament
    if first.tournament_id != second.tournament_id:
        raise ServiceError(gettext("Both players must be in this event."), code="other_event")
    if first.pk == second.pk:
        raise ServiceError(gettext("Choose two different players."), code="same_player")
    low, high = sorted((first, second), key=lambda r: r.pk)
    try:
        with transaction.atomic():
            pair = KeptApart.objects.create(tournament=tournament, first=low, second=high)
    except IntegrityError as error:  # one_kept_apart_pair: the pair is there already
        raise ServiceError(
            gettext("%(first)s and %(second)s are kept apart already.") % {"first": low, "second": high},
            code="duplicate_pair",
        ) from error
    audit(
        tournament,
        acting_user,
        AuditAction.KEEP_APART,
        f"{low} ({low.code}) kept apart from {high} ({high.code})",
        public_pages=False,
        players=[low.code, high.code],
    )
    return pair


@transaction.atomic
def stop_keeping_apart(pair: KeptApart, *, acting_user: User) -> None:
    """Let the two players meet again in seatings planned from now on (sessions seated already stay)."""
    first, second = pair.first, pair.second
    KeptApart.objects.filter(pk=pair.pk).delete()
    audit(
        pair.tournament,
        acting_user,
        AuditAction.UNKEEP_APART,
        f"{first} ({first.code}) no longer kept apart from {second} ({second.code})",
        public_pages=False,
        players=[first.code, second.code],
    )
