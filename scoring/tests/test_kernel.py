"""The write kernel (``scoring/services/kernel.py``): a write that says what it changed withdraws the
table's confirmation and is logged; one that says nothing changed leaves both; one that says neither is a
bug, refused with everything it wrote rolled back; filing an appeal changes no result."""

from __future__ import annotations

import pytest

from scoring.models import Confirmation
from scoring.services.confirmation import confirm_table
from scoring.services.entry import HandEntry, record_hand, set_table_finished
from scoring.services.kernel import table_write
from scoring.services.queries import is_confirmed
from tournaments.audit import AuditAction
from tournaments.models import AuditEntry, Table


def confirmed(table, referee, organiser):
    """A complete table, confirmed by a second person (rule 72)."""
    record_hand(table, HandEntry(winner="E", discarder="S", fan=10), acting_user=referee)
    set_table_finished(table, True, acting_user=referee)
    confirm_table(table, acting_user=organiser)
    assert is_confirmed(table, fresh=True)


def test_a_reported_change_withdraws_the_confirmation_and_is_logged(table, referee, organiser):
    confirmed(table, referee, organiser)
    with table_write(table, acting_user=referee, action=AuditAction.REOPEN_TABLE) as write:
        Table.objects.filter(pk=write.table.pk).update(finished_at=None)
        write.done("reopened")
    assert not is_confirmed(table, fresh=True)
    actions = list(AuditEntry.objects.order_by("-pk").values_list("action", flat=True)[:2])
    assert actions == [AuditAction.REOPEN_TABLE, AuditAction.UNCONFIRM_TABLE]


def test_an_unchanged_write_keeps_the_confirmation_and_logs_nothing(table, referee, organiser):
    confirmed(table, referee, organiser)
    logged = AuditEntry.objects.count()
    with table_write(table, acting_user=referee, action=AuditAction.FINISH_TABLE) as write:
        write.unchanged()
    assert is_confirmed(table, fresh=True)
    assert AuditEntry.objects.count() == logged


def test_a_write_that_says_neither_is_refused_and_rolled_back(table, referee, organiser):
    confirmed(table, referee, organiser)
    with (
        pytest.raises(RuntimeError, match="without saying what it changed"),
        table_write(table, acting_user=referee, action=AuditAction.REOPEN_TABLE) as write,
    ):
        Confirmation.supersede(table=write.table, voided=True, acting_user=referee)
    assert is_confirmed(table, fresh=True)


def test_a_write_that_changes_no_result_is_logged_and_keeps_the_confirmation(table, referee, organiser):
    confirmed(table, referee, organiser)
    with table_write(table, acting_user=referee, action=AuditAction.APPEAL, changes_result=False) as write:
        write.done("appeal against a penalty")
    assert is_confirmed(table, fresh=True)
    entry = AuditEntry.objects.order_by("-pk").first()
    assert entry.action == AuditAction.APPEAL
    assert entry.summary.endswith(f"table {table.number}: appeal against a penalty")
