"""python manage.py player_data PLAYER_ID [--output FILE]: a copy of everything held about a person, as
JSON, to answer their access request (docs/privacy.md)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from players.models import Player
from scoring.services.personal_data import player_data


class Command(BaseCommand):
    help = (
        "Print as JSON everything held about a player (record, registrations, entries, results, audit log)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("player_id", type=int, help="the record's number, as in /players/<number>/")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        player = Player.objects.filter(pk=options["player_id"]).first()
        if player is None:
            raise CommandError(f"No player record #{options['player_id']}.")
        content = json.dumps(player_data(player), indent=2, ensure_ascii=False, default=str) + "\n"
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as handle:
                handle.write(content)
        else:
            self.stdout.write(content, ending="")
