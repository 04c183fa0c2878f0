"""python manage.py backup_db OUTPUT [--force]: a consistent copy of the whole database, taken while the site runs.

SQLite: SQLite's online backup API (``sqlite3.Connection.backup``), so referees can go on saving hands; the copy
is an ordinary SQLite file. PostgreSQL: ``pg_dump --format=custom`` (restore with ``restore_db``, or
``pg_restore``). The file is written beside OUTPUT and renamed into place when complete, so OUTPUT is never a
half-written backup. The backup holds sessions, PINs and password hashes: the file is created for its owner
only (mode 0600) before a byte is written, whatever the umask.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections

BACKUP_MODE = 0o600


def create_private(path: Path) -> None:
    """An empty file at ``path`` that only its owner may read or write (``BACKUP_MODE``), for the backup
    to be written into; refused if anything (a file, a link) is already there."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, BACKUP_MODE)
    try:
        os.fchmod(descriptor, BACKUP_MODE)  # the umask can only take bits away; this states them
    finally:
        os.close(descriptor)


def postgres_env(settings_dict: dict[str, Any]) -> dict[str, str]:
    """libpq's environment for the database Django uses (the password never appears on a command line)."""
    env = dict(os.environ)
    for key, name in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"), ("PASSWORD", "PGPASSWORD")):
        if settings_dict.get(key):
            env[name] = str(settings_dict[key])
    env["PGDATABASE"] = settings_dict["NAME"]
    return env


def postgres_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise CommandError(
            f"{name} not found: install Debian's postgresql-client (same major version as the server)."
        )
    return path


class Command(BaseCommand):
    help = "Write a consistent backup of the database to OUTPUT (SQLite file, or pg_dump custom format)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("output", help="backup file to write")
        parser.add_argument("--force", action="store_true", help="replace OUTPUT if it exists")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="database alias (default: default)")

    def handle(self, *args: Any, **options: Any) -> None:
        output = Path(options["output"])
        if output.exists() and not options["force"]:
            raise CommandError(f"{output} exists: choose another name or pass --force.")
        if not output.parent.is_dir():
            raise CommandError(f"{output.parent} is not a directory.")
        connection = connections[options["database"]]
        partial = output.with_name(f".{output.name}.partial")
        partial.unlink(missing_ok=True)
        try:
            # SQLite writes into the empty file (and gives its journal the file's mode); pg_dump truncates it
            # and keeps its mode; the rename keeps it too.
            create_private(partial)
            if connection.vendor == "sqlite":
                self._sqlite(connection, partial)
            elif connection.vendor == "postgresql":
                self._postgres(connection, partial)
            else:
                raise CommandError(f"No backup method for {connection.vendor}.")
            partial.replace(output)
        finally:
            partial.unlink(missing_ok=True)
        self.stdout.write(
            f"Backed up {connection.vendor} database to {output} ({output.stat().st_size:,} bytes)."
        )

    def _sqlite(self, connection: Any, partial: Path) -> None:
        connection.ensure_connection()
        target = sqlite3.connect(partial)
        try:
            # One step: a consistent snapshot (in WAL mode writers go on meanwhile).
            connection.connection.backup(target)
            (check,) = target.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise CommandError(f"The copy failed SQLite's check: {check}")
            target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        finally:
            target.close()

    def _postgres(self, connection: Any, partial: Path) -> None:
        command = [
            postgres_tool("pg_dump"),
            "--format=custom",
            "--no-owner",
            "--no-privileges",
            f"--file={partial}",
        ]
        result = subprocess.run(  # noqa: S603  (absolute tool path, argument list, no shell)
            command, env=postgres_env(connection.settings_dict), capture_output=True, text=True
        )
        if result.returncode != 0:
            raise CommandError(f"pg_dump failed: {result.stderr.strip()}")
