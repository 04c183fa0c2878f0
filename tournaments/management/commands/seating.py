"""``python manage.py seating``: print a seating plan without touching the database.

Contract: /work/shared/specs/seating-cli.md (ids "1".."N" as strings; ``rounds[r][t]`` is table t+1 of round
r+1 in seat order East, South, West, North; bad N or R: a message on stderr, exit status 2, no stdout).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.seating import SeatingError, SeatingPlayer, plan_seating


class Command(BaseCommand):
    help = "Print a seating plan for N players over R rounds (JSON), without touching the database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="number of players, a multiple of 4")
        parser.add_argument("--rounds", type=int, required=True, help="number of rounds, at least 1")
        parser.add_argument("--seed", type=int, default=0, help="same seed, same plan (default 0)")
        parser.add_argument(
            "--time-limit", type=float, default=10.0, help="search time limit in seconds (default 10)"
        )
        parser.add_argument("--format", choices=["json", "text"], default="json", help="output format")

    def handle(self, *args: Any, **options: Any) -> None:
        players: int = options["players"]
        rounds: int = options["rounds"]
        if players < 4 or players % 4:
            raise CommandError(f"--players must be a positive multiple of 4, not {players}.", returncode=2)
        if rounds < 1:
            raise CommandError(f"--rounds must be at least 1, not {rounds}.", returncode=2)
        if not options["time_limit"] > 0:
            raise CommandError("--time-limit must be positive.", returncode=2)
        ids = [str(i) for i in range(1, players + 1)]
        try:
            plan = plan_seating(
                [SeatingPlayer(id=pid) for pid in ids],
                rounds,
                seed=options["seed"],
                time_limit=options["time_limit"],
            )
        except SeatingError as error:
            raise CommandError(error.message, returncode=2) from error
        grid = [[list(table.seats) for table in r.tables] for r in plan.rounds]
        if options["format"] == "json":
            self.stdout.write(json.dumps({"players": ids, "rounds": grid}))
            return
        for r, tables in enumerate(grid, start=1):
            self.stdout.write(f"Round {r}")
            for t, seats in enumerate(tables, start=1):
                self.stdout.write(
                    f"  Table {t}: " + "  ".join(f"{w} {p}" for w, p in zip("ESWN", seats, strict=True))
                )
        q = plan.quality
        self.stdout.write(
            f"repeated pairs {q.repeated_pairs}, worst pair {q.worst_pair}, "
            f"wind imbalance {q.wind_imbalance}, table returns {q.table_returns}"
        )
