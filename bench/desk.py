"""Benchmark: the registration desk at a 200-player event, as the desk's phone sees it.

Times the players page, a check-in by a scanned seat slip, a name search ignoring accents, a
registration (with its duplicate check) and a publication, with the database queries each makes.
Run: .venv/bin/python bench/desk.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Permission  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

PLAYERS = 200
FIRST = ["Ana", "José", "María", "Zoë", "Björn", "Chen", "Łukasz", "Nuño", "Ågot", "Timo"]
LAST = ["García", "Silva", "Novák", "Müller", "Øster", "Wang", "Kowalski", "Brontë", "Duarte", "Sato"]


def timed(label: str, call) -> None:
    runs = []
    for _ in range(5):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = call()
            runs.append(time.perf_counter() - started)
    size = len(getattr(response, "content", b""))
    print(
        f"{label:<44} {min(runs) * 1000:7.1f} ms  {len(queries):3d} queries  {size / 1024:6.1f} KB  {response.status_code}"
    )


def main() -> None:
    from tournaments.services import events as event_services
    from tournaments.services import registrations

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("desk", password="pw-desk-bench-1")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    event = event_services.create_tournament(
        event_services.EventDetails(name="Desk Bench", slug="desk-bench", num_sessions=7), acting_user=user
    )
    for n in range(PLAYERS):
        name = f"{FIRST[n % 10]} {LAST[(n // 10) % 10]} {n}"
        registrations.register_player(
            event, registrations.PlayerRow(name=name, country="PT"), acting_user=user
        )
    client = Client()
    client.force_login(user)
    base = "/manage/desk-bench/players/"
    print(f"Registration desk, {PLAYERS} players (best of 5):")
    timed("players page", lambda: client.get(base))
    timed("name search 'garcia' (accents ignored)", lambda: client.get(base + "?q=garcia"))
    timed(
        "check-in by scanned slip URL",
        lambda: client.post(base + "check-in/", {"q": "https://x.example/e/desk-bench/players/p77/"}),
    )
    timed(
        "register with duplicate check (refused)",
        lambda: client.post(base + "add/", {"name": "ana garcia 0", "country": "Portugal"}),
    )
    timed("publish the event", lambda: client.post("/manage/desk-bench/publish/", {"published": "true"}))
    timed("my events", lambda: client.get("/manage/"))


if __name__ == "__main__":
    main()
