"""A player's "I do not agree" with their table's result, pressed on their own phone, and a referee
settling it. Players sign a score they agree with (Sloper rule 72, shared/seeds/003_2541481d343502a5.txt
line 2320); one who does not calls a referee instead, and until a referee settles the disagreement no
signature and no referee confirms the table (``services.confirmation.refuse_if_disputed``).

Neither changes the result, so neither is a :func:`services.kernel.table_write`: each holds the table's
lock (``services.kernel.lock_table``) in its own transaction and writes its own audit entry. A player's
own action has no user: its audit entry names the registration (``code``).
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import TableDispute
from scoring.services.confirmation import table_state
from scoring.services.kernel import lock_table
from scoring.services.queries import is_confirmed, table_with_results
from tournaments.audit import AuditAction, User, acting, audit
from tournaments.errors import ServiceError
from tournaments.models import Registration, Seat, Substitution, Table

log = logging.getLogger(__name__)


def open_disputes(table: Table) -> list[TableDispute]:
    """The table's disagreements no referee has settled yet, oldest first, with their players."""
    return list(
        TableDispute.objects.filter(table=table, settled_at=None).select_related("registration__player")
    )


def plays_at(table: Table, registration: Registration) -> bool:
    """Whether ``registration`` sat at the table or played one of its seats as a substitute."""
    return (
        Seat.objects.filter(table=table, registration=registration).exists()
        or Substitution.objects.filter(seat__table=table, substitute=registration).exists()
    )


def disagree(table: Table, registration: Registration, *, acting_user: User = None) -> TableDispute:
    """``registration`` does not agree with the table's complete, unconfirmed result: a referee is called
    and the table waits for them. Pressing it again while one's own disagreement is open changes
    nothing (a repeated post)."""
    with transaction.atomic():
        table = lock_table(table)
        if not plays_at(table, registration):
            raise ServiceError(gettext("You do not play at this table."), code="not_at_table")
        loaded = table_with_results(table)
        if is_confirmed(loaded):
            raise ServiceError(gettext("This table's result is already confirmed."), code="already_confirmed")
        if table_state(loaded) != "complete":
            raise ServiceError(
                gettext("The table's result is not complete yet: wait for its last hand."),
                code="not_complete",
            )
        existing = TableDispute.objects.filter(
            table=table, registration=registration, settled_at=None
        ).first()
        if existing is not None:
            return existing
        dispute = TableDispute.objects.create(table=table, registration=registration)
        audit(
            table.round.tournament,
            acting_user,
            AuditAction.DISPUTE_TABLE,
            f"Session {table.round.number} table {table.number}: {registration.player.name} does not agree "
            "with the result; a referee is called",
            public_pages=False,
            code=registration.code,
            table=table.number,
            round=table.round.number,
        )
    log.info("table %s disputed by %s", table.pk, registration.code)
    return dispute


def settle(dispute: TableDispute, *, acting_user: User) -> TableDispute:
    """A referee has settled the disagreement at the table (after which the players may sign again, or
    a referee confirm). Settling a settled one changes nothing."""
    with transaction.atomic():
        lock_table(dispute.table)
        dispute = TableDispute.objects.select_related("table__round__tournament", "registration__player").get(
            pk=dispute.pk
        )
        if dispute.settled_at is not None:
            return dispute
        dispute.settled_at = timezone.now()
        dispute.settled_by = acting(acting_user)
        dispute.save(update_fields=["settled_at", "settled_by"])
        table = dispute.table
        audit(
            table.round.tournament,
            acting_user,
            AuditAction.SETTLE_DISPUTE,
            f"Session {table.round.number} table {table.number}: {dispute.registration.player.name}'s "
            "disagreement settled",
            public_pages=False,
            code=dispute.registration.code,
            table=table.number,
            round=table.round.number,
        )
    return dispute
