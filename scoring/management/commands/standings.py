"""python manage.py standings SLUG --format json|csv|xlsx|pdf [--output FILE]."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.exports import STANDINGS_EXPORTS
from scoring.standings_cache import standings_rows
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Print or write the event's standings."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", default="json", choices=["json", *STANDINGS_EXPORTS])
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No event with the slug {options['slug']!r}.")
        if options["format"] == "json":
            content = (json.dumps(standings_rows(tournament), indent=2, ensure_ascii=False) + "\n").encode()
        else:
            _, _, content = STANDINGS_EXPORTS[options["format"]](tournament).render()
        if options["output"]:
            with open(options["output"], "wb") as handle:
                handle.write(content)
        elif options["format"] in ("xlsx", "pdf"):
            if sys.stdout.isatty():
                raise CommandError(f"Use --output FILE for {options['format']}.")
            sys.stdout.buffer.write(content)
        else:
            self.stdout.write(content.decode(), ending="")
