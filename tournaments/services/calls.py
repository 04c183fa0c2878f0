"""A table calls a referee: called from a player's own page or the referee's table page, taken by the
referee who goes there ("Kim is coming"), closed once settled.

One open call per table at a time (a second press is told the table has called already; the
``one_open_call_per_table`` constraint backs the check made under the table's lock). Closing a call another
referee took is for that referee or a chief referee (who runs the referees, MCR rule 94's first instance).
Every write is in a transaction and audited; a player's own call names the registration in the entry, as a
PIN signature does (``scoring/services/pins.py``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournaments.access import has_role
from tournaments.archive import check_open
from tournaments.audit import AuditAction, User, acting, audit
from tournaments.errors import ServiceError
from tournaments.models import RefereeCall, Registration, Role, Round, Substitution, Table, Tournament
from tournaments.venue_time import venue_time


def display_name(user: Any) -> str:
    """How a referee is named to the hall: their full name, else their user name."""
    if user is None:
        return ""
    return str(user.get_full_name() or user.get_username())


def open_call(table: Table) -> RefereeCall | None:
    """The table's call not yet closed, if any."""
    return (
        RefereeCall.objects.select_related("table__round__tournament", "taken_by")
        .filter(table=table, closed_at=None)
        .first()
    )


def open_calls(tournaments: Iterable[Tournament]) -> list[RefereeCall]:
    """The events' open calls, oldest first (the one waiting longest at the top)."""
    ids = [t.pk for t in tournaments]
    if not ids:
        return []
    return list(
        RefereeCall.objects.filter(table__round__tournament_id__in=ids, closed_at=None)
        .select_related("table__round__tournament", "taken_by", "called_by_registration__player")
        .order_by("created_at", "id")
    )


def _plays_at(table: Table, registration: Registration) -> bool:
    return (
        table.seats.filter(registration=registration).exists()
        or Substitution.objects.filter(seat__table=table, substitute=registration).exists()
    )


@transaction.atomic
def call_referee(
    table: Table,
    *,
    reason: str = "",
    registration: Registration | None = None,
    acting_user: User = None,
) -> RefereeCall:
    """Call a referee to ``table``, by one of its players (``registration``, from their own page) or by a
    staff member (``acting_user``, from the table page). Refused (code ``already_called``) while the table's
    earlier call is open."""
    locked = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    tournament = locked.round.tournament
    check_open(tournament)
    if reason not in RefereeCall.Reason.values and reason != "":
        raise ServiceError(gettext("Choose a reason from the list, or none."), code="bad_reason")
    if registration is None and acting(acting_user) is None:
        raise ServiceError(gettext("Say who calls: a player or a referee."), code="no_caller")
    if registration is not None and (
        registration.tournament_id != tournament.pk or not _plays_at(locked, registration)
    ):
        raise ServiceError(
            gettext("Only a player of this table may call a referee to it."), code="not_at_table"
        )
    earlier = RefereeCall.objects.filter(table=locked, closed_at=None).first()
    if earlier is not None:
        raise ServiceError(
            gettext("Table %(number)s has already called a referee (at %(time)s).")
            % {"number": locked.number, "time": venue_time(earlier.created_at, tournament).strftime("%H:%M")},
            code="already_called",
        )
    call = RefereeCall.objects.create(
        table=locked,
        reason=reason,
        called_by_registration=registration,
        called_by_user=acting(acting_user) if registration is None else None,
    )
    who = registration.player.name if registration is not None else display_name(acting(acting_user))
    audit(
        tournament,
        acting_user if registration is None else None,
        AuditAction.REFEREE_CALL,
        f"{locked.round}, table {locked.number} calls a referee"
        + (f" ({RefereeCall.Reason(reason).label})" if reason else "")
        + f": called by {who}",
        public_pages=False,
        round=locked.round.number,
        table=locked.number,
        reason=reason,
        **({"code": registration.code} if registration is not None else {}),
    )
    return call


def _locked_call(call: RefereeCall) -> RefereeCall:
    locked = (
        RefereeCall.objects.select_for_update(of=("self",))
        .select_related("table__round__tournament", "taken_by")
        .get(pk=call.pk)
    )
    check_open(locked.table.round.tournament)
    return locked


def _where(call: RefereeCall) -> str:
    round_: Round = call.table.round
    return f"{round_}, table {call.table.number}"


@transaction.atomic
def take_call(call: RefereeCall, *, acting_user: User) -> RefereeCall:
    """``acting_user`` goes to the table; taking a call one has taken already changes nothing, and a call
    another referee took is refused (code ``taken``), so two referees do not both walk over."""
    user = acting(acting_user)
    if user is None:
        raise ServiceError(gettext("Log in as a referee to take a call."), code="no_referee")
    locked = _locked_call(call)
    if locked.closed_at is not None:
        raise ServiceError(gettext("This call was closed already."), code="closed")
    if locked.taken_by_id == user.pk:
        return locked
    if locked.taken_by_id is not None:
        raise ServiceError(
            gettext("%(name)s is already going to table %(number)s.")
            % {"name": display_name(locked.taken_by), "number": locked.table.number},
            code="taken",
        )
    now = timezone.now()
    locked.taken_by = user
    locked.taken_at = now
    locked.save(update_fields=["taken_by", "taken_at"])
    waited = int((now - locked.created_at).total_seconds())
    audit(
        locked.table.round.tournament,
        acting_user,
        AuditAction.TAKE_CALL,
        f"{_where(locked)}: {display_name(user)} takes the call after {waited} s",
        public_pages=False,
        round=locked.table.round.number,
        table=locked.table.number,
        waited_seconds=waited,
    )
    return locked


@transaction.atomic
def close_call(call: RefereeCall, *, acting_user: User) -> RefereeCall:
    """The call is settled. A call taken by another referee is closed by that referee or a chief referee
    (code ``not_yours`` otherwise); closing a closed call again changes nothing."""
    user = acting(acting_user)
    if user is None:
        raise ServiceError(gettext("Log in as a referee to close a call."), code="no_referee")
    locked = _locked_call(call)
    if locked.closed_at is not None:
        return locked
    tournament = locked.table.round.tournament
    if (
        locked.taken_by_id is not None
        and locked.taken_by_id != user.pk
        and not has_role(user, tournament, Role.CHIEF_REFEREE)
    ):
        raise ServiceError(
            gettext("%(name)s took this call: only they or a chief referee may close it.")
            % {"name": display_name(locked.taken_by)},
            code="not_yours",
        )
    now = timezone.now()
    locked.closed_at = now
    locked.closed_by = user
    locked.save(update_fields=["closed_at", "closed_by"])
    audit(
        tournament,
        acting_user,
        AuditAction.CLOSE_CALL,
        f"{_where(locked)}: call closed by {display_name(user)} after "
        f"{int((now - locked.created_at).total_seconds())} s",
        public_pages=False,
        round=locked.table.round.number,
        table=locked.table.number,
    )
    return locked
