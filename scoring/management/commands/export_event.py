"""python manage.py export_event SLUG [--output FILE]: the whole event as JSON (event-json.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.interchange import export_event, export_warnings
from scoring.management.output import add_output, json_text, write_text
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write the whole event as JSON (format mahjong-event/1)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")
        add_output(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No event with the slug {options['slug']!r}.")
        write_text(self, json_text(export_event(tournament), sort_keys=True), options["output"])
        for warning in export_warnings(tournament):  # what the format cannot say (docs/seating.md)
            self.stderr.write(f"Warning: {warning}")
