"""python manage.py restore_db INPUT [--no-input]: put a backup made by ``backup_db`` back into the database.

Everything in the database is replaced by the backup's contents. Stop the application (or accept that pages
served during the restore may fail), restore, run ``manage.py migrate`` if the backup comes from an older
version, start it again. The cache is cleared afterwards: cached standings of the replaced data must not be
served for the restored events.

SQLite: SQLite's backup API copies the backup into the live database file (no file swapping, the WAL stays
consistent). PostgreSQL: ``pg_restore --clean --if-exists --single-transaction`` (all or nothing).
"""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.core.cache import caches
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections

from players.management.commands.backup_db import postgres_env, postgres_tool

SQLITE_HEADER = b"SQLite format 3\x00"
PGDUMP_HEADER = b"PGDMP"


class Command(BaseCommand):
    help = "Replace the whole database with a backup written by backup_db."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("input", help="backup file written by backup_db")
        parser.add_argument(
            "--no-input", "--noinput", action="store_false", dest="interactive", help="do not ask to confirm"
        )
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="database alias (default: default)")

    def handle(self, *args: Any, **options: Any) -> None:
        source = Path(options["input"])
        if not source.is_file():
            raise CommandError(f"{source} is not a file.")
        header = source.open("rb").read(16)
        connection = connections[options["database"]]
        name = connection.settings_dict["NAME"]
        if options["interactive"]:
            answer = input(
                f"Every row of the {connection.vendor} database {name} will be replaced. Type 'yes': "
            )
            if answer.strip() != "yes":
                raise CommandError("Nothing restored.")
        if connection.vendor == "sqlite":
            if not header.startswith(SQLITE_HEADER):
                raise CommandError(f"{source} is not an SQLite backup.")
            self._sqlite(connection, source)
        elif connection.vendor == "postgresql":
            if not header.startswith(PGDUMP_HEADER):
                raise CommandError(f"{source} is not a pg_dump custom-format backup.")
            self._postgres(connection, source)
        else:
            raise CommandError(f"No restore method for {connection.vendor}.")
        for cache in caches.all():
            cache.clear()
        self.stdout.write(f"Restored {source} into {name}; cache cleared. Run `manage.py migrate` if needed.")

    def _sqlite(self, connection: Any, source: Path) -> None:
        backup = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            (check,) = backup.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise CommandError(f"{source} failed SQLite's check: {check}")
            connection.ensure_connection()
            if connection.in_atomic_block:
                raise CommandError("Cannot restore inside a transaction.")
            backup.backup(connection.connection)
        finally:
            backup.close()

    def _postgres(self, connection: Any, source: Path) -> None:
        connection.close()  # our own idle connection must not hold locks on the tables being replaced
        command = [
            postgres_tool("pg_restore"),
            "--clean",
            "--if-exists",
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            "--exit-on-error",
            f"--dbname={connection.settings_dict['NAME']}",
            str(source.resolve()),
        ]
        result = subprocess.run(  # noqa: S603  (absolute tool path, argument list, no shell)
            command, env=postgres_env(connection.settings_dict), capture_output=True, text=True
        )
        if result.returncode != 0:
            raise CommandError(f"pg_restore failed (nothing was changed): {result.stderr.strip()}")
