"""python manage.py player_data PLAYER_ID [--output FILE]: a copy of everything held about a person, as
JSON, to answer their access request (docs/privacy.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from players.models import Player
from scoring.management.output import add_output, json_text, write_text
from scoring.services.personal_data import player_data


class Command(BaseCommand):
    help = (
        "Print as JSON everything held about a player (record, registrations, entries, results, audit log)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("player_id", type=int, help="the record's number, as in /players/<number>/")
        add_output(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        player = Player.objects.filter(pk=options["player_id"]).first()
        if player is None:
            raise CommandError(f"No player record #{options['player_id']}.")
        write_text(self, json_text(player_data(player), default=str), options["output"])
