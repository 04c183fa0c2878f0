"""python manage.py import_event FILE [--replace]: all or nothing; every problem listed with its path."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand

from scoring.interchange import EventImportError, import_event


class Command(BaseCommand):
    help = "Create an event from its JSON (or replace the event with the same slug with --replace)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="JSON file, or - for standard input")
        parser.add_argument("--replace", action="store_true", help="replace an existing event with this slug")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["file"] == "-":
                doc = json.load(sys.stdin)
            else:
                with open(options["file"], encoding="utf-8") as handle:
                    doc = json.load(handle)
        except OSError as error:
            self._fail([f"$: cannot read {options['file']}: {error.strerror}"])
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            self._fail([f"$: not valid JSON ({error})"])
        try:
            tournament = import_event(doc, replace=options["replace"])
        except EventImportError as error:
            self._fail(error.problems)
        self.stdout.write(f"Imported {tournament.name} ({tournament.slug}).")

    def _fail(self, problems: list[str]) -> None:
        self.stderr.write(f"Nothing was imported; {len(problems)} problem(s):")
        for problem in problems:
            self.stderr.write(f"  {problem}")
        sys.exit(1)
