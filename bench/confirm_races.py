"""Eight people pressing the same button at once, many times, on a real database.

    .venv/bin/python bench/confirm_races.py [--races 20] [--database-url postgres://.../empty_db] [--quick]

Without ``--database-url`` it uses a fresh SQLite file with the production settings (WAL, IMMEDIATE
transactions, busy timeout), so unlike the suite's in-memory test database no write is ever told "locked"
and retried: each of the eight threads posts once. Each race is eight threads released together on one
table: adding hand n with the same expected number, then deleting the last hand with the same expected
last number, then confirming (eight different referees), then reopening. Afterwards it checks that every
race stored exactly one write and prints the time a race took (p50/p95) and the refusals by code.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
THREADS = 8


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--races", type=int, default=20, help="tables raced on (4 races each)")
    parser.add_argument("--database-url", default="", help="an empty database (default: a new SQLite file)")
    parser.add_argument("--quick", action="store_true", help="4 tables (the suite runs the races too)")
    args, _ = parser.parse_known_args()  # bench/run_all.py passes its arguments to every script
    if args.quick:
        args.races = 4
    folder = tempfile.mkdtemp(prefix="confirm-races-")
    os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{folder}/bench.sqlite3"
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from scoring.models import Confirmation, Hand
    from scoring.services import confirmation
    from scoring.services import entry as entry_service
    from tournaments.errors import ServiceError
    from tournaments.models import AuditEntry, Table
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    organiser = users.create_user("bench-olga")
    tables_needed = args.races
    sessions = max(1, -(-tables_needed // 2))
    event = event_services.create_tournament(
        event_services.EventDetails(name="Race Open", num_sessions=min(sessions, 50), hands_per_session=4),
        acting_user=organiser,
    )
    event_services.set_seating_options(
        event, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    referees = []
    for index in range(THREADS):
        user = users.create_user(f"bench-ref{index}")
        event_services.grant_role(event, user, "referee", acting_user=organiser)
        referees.append(user)
    for name in "ABCDEFGH":
        registrations.register_player(
            event, registrations.PlayerRow(name=f"Player {name}"), acting_user=organiser
        )
    reseating.seat_remaining(event, 1, acting_user=organiser)
    tables = list(Table.objects.filter(round__tournament=event).order_by("round__number", "number"))[
        :tables_needed
    ]
    print(f"{connection.vendor}: {len(tables)} tables, {THREADS} threads per race")

    durations: dict[str, list[float]] = {}
    refused: Counter[str] = Counter()
    wrong: list[str] = []

    def race(name: str, action: Callable[[int], Any]) -> int:
        start = threading.Barrier(THREADS)
        stored = []
        lock = threading.Lock()

        def run(index: int) -> None:
            began = time.perf_counter()
            try:
                start.wait()
                began = time.perf_counter()
                action(index)
                with lock:
                    stored.append(index)
            except ServiceError as error:
                with lock:
                    refused[f"{name}: {error.code}"] += 1
            finally:
                durations.setdefault(name, []).append(time.perf_counter() - began)
                connection.close()

        threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        return len(stored)

    first = referees[0]
    for table in tables:
        for _ in range(3):
            entry_service.record_hand(table, entry_service.HandEntry(winner=None), acting_user=first)
        entry = entry_service.HandEntry(winner="E", discarder="S", fan=8)
        if (
            race(
                "add hand 4",
                lambda i, t=table, e=entry: entry_service.record_hand(
                    t, e, acting_user=first, expected_number=4
                ),
            )
            != 1
        ):
            wrong.append(f"{table}: hand 4 stored more than once")
        if (
            race(
                "delete last",
                lambda i, t=table: entry_service.void_last_hand(t, acting_user=first, expected_last=4),
            )
            != 1
        ):
            wrong.append(f"{table}: more than one hand deleted")
        entry_service.record_hand(table, entry, acting_user=first, expected_number=4)
        race("confirm", lambda i, t=table: confirmation.confirm_table(t, acting_user=referees[1 + i % 7]))
        entry_service.set_table_finished(table, True, acting_user=first)
        race("reopen", lambda i, t=table: entry_service.set_table_finished(t, False, acting_user=first))
        if Hand.objects.in_force().filter(table=table).count() != 4:
            wrong.append(f"{table}: not four hands")
        if Confirmation.objects.filter(table=table, voided=False).count() != 1:
            wrong.append(f"{table}: not one confirmation")
    reopened = AuditEntry.objects.filter(tournament=event, action="reopen_table").count()
    if reopened != len(tables):
        wrong.append(f"{reopened} reopenings logged for {len(tables)} tables")
    for name, values in durations.items():
        values.sort()
        p50, p95 = values[len(values) // 2], values[int(len(values) * 0.95)]
        print(
            f"  {name:12s} {len(values) // THREADS:4d} races  per press p50 {p50 * 1000:6.1f} ms  p95 {p95 * 1000:6.1f} ms"
        )
    for code, count in sorted(refused.items()):
        print(f"  refused {code}: {count}")
    print("every race stored exactly one write" if not wrong else "WRONG:\n  " + "\n  ".join(wrong))
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
