"""python manage.py play_rehearsal EVENT_SLUG [--sessions N] [--seed S] [--copy]: simulated referees play a
rehearsal copy through (``scoring.services.simulated_referees``): each session seated, its tables given plausible
hands through the referees' own service, confirmed and published. Only a rehearsal may be played: a real event is
refused (``--copy`` first makes a rehearsal copy of the real event and plays that). ``--server PORT``: the
referees are the load benchmark's browsers posting the pages of a running server (``scoring.simulated_browsers``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.services.simulated_referees import play_rehearsal
from scoring.simulated_browsers import OverHttp
from tournaments.errors import ServiceError
from tournaments.models import Tournament
from tournaments.services.rehearsals import copy_as_rehearsal


class Command(BaseCommand):
    help = "Play a rehearsal copy of an event through with simulated referees (a real event is refused)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug", help="the rehearsal's web address (or the real event's, with --copy)")
        parser.add_argument("--sessions", type=int, help="how many sessions to play (default: all left)")
        parser.add_argument("--seed", type=int, default=0, help="same seed, same hands and seating")
        parser.add_argument(
            "--copy", action="store_true", help="make a rehearsal copy of this real event first"
        )
        parser.add_argument(
            "--server",
            type=int,
            metavar="PORT",
            help="post the hands and confirmations to the pages of a server on 127.0.0.1:PORT (same database), "
            "with the load benchmark's browser, instead of calling the services here",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No event with the slug {options['slug']!r}.")
        if options["sessions"] is not None and options["sessions"] < 1:
            raise CommandError("--sessions must be 1 or more.")
        try:
            if options["copy"]:
                tournament = copy_as_rehearsal(tournament, acting_user=None)
                self.stdout.write(f"Rehearsal copy made: {tournament.slug}")
            referees = OverHttp(options["server"]) if options["server"] else None
            played = play_rehearsal(
                tournament,
                sessions=options["sessions"],
                seed=options["seed"],
                progress=self.stdout.write,
                referees=referees,
            )
        except ServiceError as error:
            raise CommandError(error.message) from None
        self.stdout.write(
            f"{tournament.slug}: {len(played.sessions)} sessions, {played.tables} tables, {played.hands} hands "
            "played, confirmed and published (the rehearsal stays private)."
        )
