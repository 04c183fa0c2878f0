"""python manage.py anonymise_player PLAYER_ID [--yes]: replace a person's identifying data by a stable
pseudonym everywhere, keeping every score, table point and rank (docs/privacy.md). The site's
administrator runs it: the command may erase anyone (the organiser's page asks ``may_erase``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from players.models import Player
from scoring.services.personal_data import anonymise_player, events_of, pseudonym


class Command(BaseCommand):
    help = "Replace a player's name, EMA number, email, PINs and the audit log's copies by a pseudonym."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("player_id", type=int, help="the record's number, as in /players/<number>/")
        parser.add_argument("--yes", action="store_true", help="do not ask to type the record's number again")

    def handle(self, *args: Any, **options: Any) -> None:
        player = Player.objects.filter(pk=options["player_id"]).first()
        if player is None:
            raise CommandError(f"No player record #{options['player_id']}.")
        events = ", ".join(event.name for event in events_of(player)) or "none"
        if not options["yes"]:
            self.stdout.write(
                f"{player.name} (#{player.pk}) becomes {pseudonym(player.pk)} in every event ({events}). "
                "This cannot be undone."
            )
            if input("Type the record's number to confirm: ").strip() != str(player.pk):
                raise CommandError("Not confirmed: nothing was changed.")
        report = anonymise_player(player, acting_user=None)
        self.stdout.write(
            f"#{player.pk} is now {report.pseudonym}: {report.registrations} registrations, "
            f"{report.entries} entries, {report.pins} PINs deleted, {report.audit_entries} audit entries "
            f"and {report.free_texts} staff texts rewritten, in {len(report.events)} events."
        )
