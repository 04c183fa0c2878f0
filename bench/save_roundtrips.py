"""Benchmark: the database round trips of a referee's hand save, in-process and single-threaded.

Each query of a save is a round trip to the database; on PostgreSQL under load each is a wake-up on a busy
core (docs/scale.md). On a generated 64-player event (bench/make_event.py, session 1 played, session 2
seated), a logged-in referee posts the hand form (``referee:table`` + ``hands/add/``) through Django's test
client, table after table, 16 hands each: the queries of each save and the wall time of all of them. A
throw-away PostgreSQL cluster for ``--db postgres`` and a redis-server for the cache (bench/stack.py); no load
tools. ``--session cached_db`` keeps the sessions in Redis too (Django's cached_db engine): the session's read
is then a Redis round trip instead of a database query.

    .venv/bin/python bench/save_roundtrips.py [--db sqlite|postgres|both] [--saves 200] [--session cached_db]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = 64  # 16 tables x 16 hands: room for 256 saves


def child(saves: int) -> None:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    import django

    django.setup()
    from django.conf import settings

    settings.SESSION_ENGINE = f"django.contrib.sessions.backends.{os.environ['BENCH_SESSIONS']}"
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from make_event import make_event

    from scoring.interchange import import_event
    from tournaments.models import Role, Tournament
    from tournaments.services import events as event_services

    call_command("migrate", verbosity=0)
    import_event(make_event(players=PLAYERS, sessions=2, played=1, hands=16, seed=12, slug="saves"))
    user = get_user_model().objects.create_user("bench-referee")
    event_services.grant_role(Tournament.objects.get(slug="saves"), user, Role.REFEREE, acting_user=None)
    client = Client()
    client.force_login(user)
    client.get("/referee/saves/sessions/2/tables/1/")  # warm: imports, templates, the connection
    counts, times, waits = [], [], []
    for n in range(saves):
        path = f"/referee/saves/sessions/2/tables/{n // 16 + 1}/hands/add/"
        data = {"how": "discard", "winner": "ESWN"[n % 4], "discarder": "SWNE"[n % 4], "fan": "8"}
        data["expected_number"] = str(n % 16 + 1)
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            status = client.post(path, data).status_code
            times.append((time.perf_counter() - start) * 1000)
        assert status == 302, (path, status)
        counts.append(len(queries))
        waits.append(sum(float(query["time"]) for query in queries) * 1000)
    print(
        f"{connection.vendor:10} {os.environ['BENCH_SESSIONS']:9} queries per save {min(counts)}-{max(counts)} (median "
        f"{statistics.median(counts):.0f}); {saves} saves in {sum(times) / 1000:.2f} s: "
        f"{statistics.mean(times):.1f} ms a save, p50 {statistics.median(times):.1f} ms, of which waiting "
        f"for the database {statistics.mean(waits):.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--saves", type=int, default=200)
    parser.add_argument("--session", choices=("db", "cached_db"), default="db", help="SESSION_ENGINE")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(min(args.saves, PLAYERS // 4 * 16))
        return
    sys.path.insert(0, str(ROOT / "bench"))
    from stack import Stack, free_base, load_line

    print(load_line())
    for db in ("sqlite", "postgres") if args.db == "both" else (args.db,):
        stack = Stack(db, port=free_base(56400))  # and a redis-server for the cache, as deployed
        try:
            env = {**stack.env, "ALLOWED_HOSTS": "testserver", "BENCH_SESSIONS": args.session}
            command = [sys.executable, "-W", "ignore", __file__, "--child", f"--saves={args.saves}"]
            subprocess.run(command, cwd=ROOT, env=env, check=True)
        finally:
            stack.stop()


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    main()
