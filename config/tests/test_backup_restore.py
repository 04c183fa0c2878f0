"""backup_db → change → restore_db gives back what was backed up (SQLite always; PostgreSQL when in use)."""

from __future__ import annotations

import os
import shutil
import stat

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connection

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _needs_the_tools():
    if connection.vendor == "postgresql" and not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("pg_dump/pg_restore not installed")


def test_a_backup_restores_the_events_as_they_were(demo_event, tmp_path):
    backup = tmp_path / "mahjong.backup"
    hands = demo_event.rounds.get(number=1).tables.get(number=1).hands.count()
    call_command("backup_db", str(backup))
    assert backup.stat().st_size > 0

    demo_event.delete()
    Tournament.objects.create(name="Created after the backup", slug="after")
    cache.set("standings-html:stale", "old")

    call_command("restore_db", str(backup), interactive=False)

    restored = Tournament.objects.get(slug=demo_event.slug)
    assert restored.rounds.get(number=1).tables.get(number=1).hands.count() == hands
    assert not Tournament.objects.filter(slug="after").exists()
    assert cache.get("standings-html:stale") is None


def test_it_does_not_overwrite_an_existing_backup(db, tmp_path):
    backup = tmp_path / "mahjong.backup"
    backup.write_bytes(b"keep me")
    with pytest.raises(CommandError, match="exists"):
        call_command("backup_db", str(backup))
    assert backup.read_bytes() == b"keep me"
    call_command("backup_db", str(backup), force=True)
    assert backup.read_bytes() != b"keep me"


def test_it_refuses_to_restore_a_file_that_is_no_backup(db, tmp_path):
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a database")
    with pytest.raises(CommandError, match="not a"):
        call_command("restore_db", str(bogus), interactive=False)


def test_the_backup_is_readable_by_its_owner_only(db, tmp_path):
    backup = tmp_path / "mahjong.backup"
    backup.write_bytes(b"an older backup, world-readable")
    backup.chmod(0o644)
    previous = os.umask(0o022)  # a usual umask, which would leave a new file world-readable
    try:
        call_command("backup_db", str(backup), force=True)
    finally:
        os.umask(previous)
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert backup.read_bytes().startswith(b"SQLite format 3" if connection.vendor == "sqlite" else b"PGDMP")
