"""python manage.py export_event SLUG [--output FILE]: the whole event as JSON (event-json.md)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.interchange import export_event, export_warnings
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write the whole event as JSON (format mahjong-event/1)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No event with the slug {options['slug']!r}.")
        text = json.dumps(export_event(tournament), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as handle:
                handle.write(text)
        else:
            self.stdout.write(text, ending="")
        for warning in export_warnings(tournament):  # what the format cannot say (docs/seating.md)
            self.stderr.write(f"Warning: {warning}")
