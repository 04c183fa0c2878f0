"""python manage.py import_event FILE [--replace]: all or nothing; every problem listed with its path."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand

from scoring.interchange import MAX_DOCUMENT_BYTES, EventImportError, import_event, read_document


class Command(BaseCommand):
    help = "Create an event from its JSON (or replace the event with the same slug with --replace)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="JSON file, or - for standard input")
        parser.add_argument("--replace", action="store_true", help="replace an existing event with this slug")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["file"] == "-":
                raw = sys.stdin.buffer.read(MAX_DOCUMENT_BYTES + 1)
            else:
                with open(options["file"], "rb") as handle:
                    raw = handle.read(MAX_DOCUMENT_BYTES + 1)
        except OSError as error:
            self._fail([f"$: cannot read {options['file']}: {error.strerror}"])
        try:
            tournament = import_event(read_document(raw), replace=options["replace"])
        except EventImportError as error:
            self._fail(error.problems)
        self.stdout.write(f"Imported {tournament.name} ({tournament.slug}).")

    def _fail(self, problems: list[str]) -> None:
        self.stderr.write(f"Nothing was imported; {len(problems)} problem(s):")
        for problem in problems:
            self.stderr.write(f"  {problem}")
        sys.exit(1)
