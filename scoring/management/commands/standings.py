"""python manage.py standings SLUG --format json|csv|xlsx|pdf|register|workbook|ema|ema-csv [--output FILE]
[--paper a4|letter]

``ema`` writes the EMA results file as XLSX, ``ema-csv`` as CSV; both are checked first: problems stop
the export (each named), players without an EMA number are named as warnings on standard error."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.exports import EVENT_PRINTS, STANDINGS_EXPORTS, PrintError, ema_check
from scoring.management.output import add_output
from scoring.standings_cache import standings_rows
from tournaments.models import Tournament

PRINTS = {kind: export for kind, export in EVENT_PRINTS.items() if kind != "standings"}
BINARY = ("xlsx", "pdf", "register", "workbook", "ema")


class Command(BaseCommand):
    help = "Print or write the event's standings, its register of penalties and appeals, its workbook or its EMA results file."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", default="json", choices=["json", *STANDINGS_EXPORTS, *PRINTS])
        add_output(parser)
        parser.add_argument(
            "--include-provisional",
            action="store_true",
            help="count every entered result as if final (the organiser's preview; default: confirmed tables)",
        )
        parser.add_argument("--paper", default="a4", choices=["a4", "letter"], help="page size of PDFs")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No event with the slug {options['slug']!r}.")
        fmt = options["format"]
        try:
            if fmt == "json":
                rows = standings_rows(tournament, include_provisional=options["include_provisional"])
                content = (json.dumps(rows, indent=2, ensure_ascii=False) + "\n").encode()
            elif fmt in STANDINGS_EXPORTS:
                _, _, content = STANDINGS_EXPORTS[fmt](tournament, paper=options["paper"]).render()
            else:
                if fmt.startswith("ema"):
                    for warning in ema_check(tournament).warnings:
                        self.stderr.write(f"warning: {warning}")
                _, _, content = PRINTS[fmt](tournament, paper=options["paper"]).render()
        except PrintError as error:
            raise CommandError(error.message) from None
        if options["output"]:
            with open(options["output"], "wb") as handle:
                handle.write(content)
        elif fmt in BINARY:
            if sys.stdout.isatty():
                raise CommandError(f"Use --output FILE for {fmt}.")
            sys.stdout.buffer.write(content)
        else:
            self.stdout.write(content.decode(), ending="")
