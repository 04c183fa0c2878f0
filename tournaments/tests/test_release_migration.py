"""Events made before the release controls stay public, with every session (migration 0011)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0010_substitution")]
AFTER = [("tournaments", "0011_release_controls")]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_existing_events_and_their_sessions_stay_published():
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    event = old.get_model("tournaments", "Tournament").objects.create(name="Old Open", slug="old-open")
    old.get_model("tournaments", "Round").objects.create(tournament=event, number=1)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    migrated = new.get_model("tournaments", "Tournament").objects.get(slug="old-open")
    assert migrated.published_at is not None
    round_ = new.get_model("tournaments", "Round").objects.get(tournament_id=migrated.pk)
    assert round_.seating_published_at is not None and round_.results_published_at is not None
    MigrationExecutor(connection).migrate(latest)  # the rest of the suite runs on the latest schema
