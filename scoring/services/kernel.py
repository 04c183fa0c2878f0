"""The one write kernel for a table's results: every write of a hand, totals, a penalty, a lateness, a
ruling, an appeal's decision or a seat change goes through :func:`table_write` (or :func:`tables_write`
for a change at two tables at once).

It runs the write in one transaction holding the table's row lock (:func:`lock_table`, which also
refuses an archived event: ``tournaments.archive.check_open``), and when the writer says what changed
(:meth:`TableWrite.done`) it withdraws the players' signatures and the table's confirmation (the result
is provisional again until a second person confirms it, Sloper rule 72,
shared/seeds/003_2541481d343502a5.txt line 2320), bumps the versions the pages are cached by
(``bump_entry``, ``bump_standings``) and writes the audit entry. A write that finds nothing to change (a
repeated post) says so with :meth:`TableWrite.unchanged`; leaving the block with neither is a bug and
raises.

Filing an appeal changes no result: it writes through the kernel with ``changes_result=False`` (locked,
audited; the confirmation and versions are left alone). A confirmation, a signature and a blind second
entry are not changes of the result either: ``services.confirmation`` takes the lock with
:func:`lock_table` and writes its own audit entry.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from scoring.models import Confirmation, Signature
from scoring.rules.errors import HandInputError
from scoring.services.queries import is_confirmed
from tournaments.archive import check_open
from tournaments.audit import AuditAction, User, audit, bump_entry, bump_standings
from tournaments.errors import ServiceError
from tournaments.messages import rule_sentence
from tournaments.models import Table

ENTRY_ACTIONS = frozenset(
    {
        AuditAction.RECORD_HAND,
        AuditAction.CORRECT_HAND,
        AuditAction.VOID_HAND,
        AuditAction.RECORD_TOTALS,
        AuditAction.FINISH_TABLE,
        AuditAction.REOPEN_TABLE,
        AuditAction.PENALTY,
        AuditAction.LATE,
        AuditAction.APPEAL,
        AuditAction.DECIDE_APPEAL,
    }
)
"""Entry at a table: until the table is confirmed it shows only on its session's live results page (and in
the provisional standings), so the event's other cached public pages are kept (``bump_standings``)."""


def lock_table(table: Table) -> Table:
    """Take the table's row lock so two referees saving at once are serialised (PostgreSQL);
    SQLite's IMMEDIATE transactions already serialise writers. Refuses a table no longer seated and an
    archived event. Call it inside a transaction."""
    try:
        locked = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    except Table.DoesNotExist:
        raise ServiceError(
            gettext(
                "This table is no longer in the seating (its session was seated again); nothing was saved."
            ),
            code="table_gone",
        ) from None
    check_open(locked.round.tournament)
    return locked


def service_error(error: HandInputError) -> ServiceError:
    """The engine's refusal as a service error, in the reader's language (tournaments/messages.py)."""
    return ServiceError(rule_sentence(error), code=error.code)


class TableWrite:
    """The write in progress: the locked tables, and what the writer reports when it is made."""

    def __init__(
        self, tables: Sequence[Table], *, acting_user: User, action: AuditAction, changes_result: bool
    ) -> None:
        self.tables = list(tables)
        self.acting_user = acting_user
        self.action = action
        self.changes_result = changes_result
        self.finished = False

    @property
    def table(self) -> Table:
        """The locked table (the first one of a write at several tables)."""
        return self.tables[0]

    def done(
        self, summary: str, *, signed: bool | None = None, confirmed: bool | None = None, **data: Any
    ) -> None:
        """The write is made: withdraw the confirmation, bump the versions and log ``summary`` at every
        locked table, now (what the writer does next, such as a disqualification's withdrawal, is
        logged after it)."""
        if self.finished:
            raise RuntimeError("A table write reports once.")
        self.finished = True
        for table in self.tables:
            if self.changes_result:
                self._after_write(table, summary, signed=signed, confirmed=confirmed, data=data)
            else:
                audit(
                    table.round.tournament,
                    self.acting_user,
                    self.action,
                    f"Session {table.round.number} table {table.number}: {summary}",
                    **data,
                )

    def _after_write(
        self, table: Table, summary: str, *, signed: bool | None, confirmed: bool | None, data: dict[str, Any]
    ) -> None:
        """A change to a table's results: withdraw its signatures and confirmation, bump the versions, log
        it. Entry at an unconfirmed table renews its session's results page only (``Round.entry_version``):
        the standings, player, team and event pages count confirmed tables, so a hall of phones keeps them
        cached while hands pour in. ``signed`` and ``confirmed``: whether signatures or a confirmation are in
        force, when the writer read it under the lock (a hand save: no query for what is not there);
        otherwise read here."""
        tournament = table.round.tournament
        bump_entry(table)
        was_confirmed = False
        signatures = [] if signed is False else list(Signature.objects.in_force().filter(table=table))
        for signature in signatures:
            # The result changed: every player's signature of it is withdrawn (kept as a voided version).
            Signature.supersede(
                table=table, registration=signature.registration, voided=True, acting_user=self.acting_user
            )
        if confirmed is None:
            confirmed = is_confirmed(table, fresh=True)
        if confirmed:
            was_confirmed = True
            Confirmation.supersede(table=table, voided=True, acting_user=self.acting_user)
            audit(
                tournament,
                self.acting_user,
                AuditAction.UNCONFIRM_TABLE,
                f"Session {table.round.number} table {table.number}: confirmation withdrawn ({self.action.label.lower()})",
            )
        public = was_confirmed or self.action not in ENTRY_ACTIONS
        bump_standings(tournament, public=public)
        audit(
            tournament,
            self.acting_user,
            self.action,
            f"Session {table.round.number} table {table.number}: {summary}",
            public_pages=public,
            **data,
        )

    def unchanged(self) -> None:
        """Nothing was written (the same post again, or the state asked for is already so)."""
        self.finished = True


@contextmanager
def tables_write(
    tables: Sequence[Table], *, acting_user: User, action: AuditAction, changes_result: bool = True
) -> Iterator[TableWrite]:
    """A write at ``tables``, locked in the order of their ids (two writers at the same tables lock them
    alike, never each waiting for the other), in one transaction; the block calls
    :meth:`TableWrite.done` or :meth:`TableWrite.unchanged`."""
    with transaction.atomic():
        locked = [lock_table(table) for table in sorted(tables, key=lambda table: table.pk)]
        write = TableWrite(locked, acting_user=acting_user, action=action, changes_result=changes_result)
        yield write
        if not write.finished:
            raise RuntimeError(f"A table write ({action}) ended without saying what it changed.")


@contextmanager
def table_write(
    table: Table, *, acting_user: User, action: AuditAction, changes_result: bool = True
) -> Iterator[TableWrite]:
    """A write at one table (:func:`tables_write`); ``write.table`` is the locked row."""
    with tables_write(
        [table], acting_user=acting_user, action=action, changes_result=changes_result
    ) as write:
        yield write
