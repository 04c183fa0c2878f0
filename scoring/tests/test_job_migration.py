"""Both job models take their state from ``tournaments.jobs.Job`` (scoring 0009, tournaments 0017): a job
made before keeps its row, who asked for it and when, and its stored file."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [
    ("tournaments", "0016_public_version_for_every_public_change"),
    ("scoring", "0008_pin_attempts_per_person_and_event"),
]
AFTER = [("tournaments", "0017_seating_job_is_a_job"), ("scoring", "0009_export_job_is_a_job")]


@pytest.mark.django_db(transaction=True)
def test_jobs_made_before_the_shared_job_model_keep_their_rows():
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("auth", "User").objects.create(username="olga")
    event = old.get_model("tournaments", "Tournament").objects.create(name="Old Open", slug="old-open")
    asked = timezone.now().replace(microsecond=0)
    export = old.get_model("scoring", "ExportJob").objects.create(
        tournament=event,
        kind="workbook",
        version="3.14",
        status="done",
        requested_by=user,
        worker="w1",
        attempts=1,
        filename="old-open.xlsx",
        size=4,
        content=b"PK\x03\x04",
    )
    old.get_model("scoring", "ExportJob").objects.filter(pk=export.pk).update(requested_at=asked)
    seating = old.get_model("tournaments", "SeatingJob").objects.create(
        tournament=event, from_round=1, time_limit=5, status="running", started_by=user, worker="w2"
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    made = new.get_model("scoring", "ExportJob").objects.get(pk=export.pk)
    assert (made.started_by_id, made.started_at, made.status) == (user.pk, asked, "done")
    assert (made.kind, made.version, made.worker, made.attempts) == ("workbook", "3.14", "w1", 1)
    assert (made.filename, bytes(made.content)) == ("old-open.xlsx", b"PK\x03\x04")
    seated = new.get_model("tournaments", "SeatingJob").objects.get(pk=seating.pk)
    assert (seated.started_by_id, seated.started_at, seated.status) == (
        user.pk,
        seating.started_at,
        "running",
    )
    assert (seated.from_round, seated.time_limit, seated.worker) == (1, 5, "w2")
    MigrationExecutor(connection).migrate(latest)  # the rest of the suite runs on the latest schema
