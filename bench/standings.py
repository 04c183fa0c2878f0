"""Benchmark: a 200-player MCR championship (8 sessions of 16 hands) through the real services.

Prints how long it takes to import the event, compute the standings and render the public standings
page, with the number of database queries the page makes. Run: .venv/bin/python bench/standings.py
"""

from __future__ import annotations

import os
import random
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

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

PLAYERS, SESSIONS, HANDS = 200, 8, 16
FANS = [8] * 18 + [9, 10, 11, 12, 13, 14, 16, 18, 20, 24, 32, 40, 64, 88]


def build_event() -> dict:
    rng = random.Random(200)
    codes = [f"p{i}" for i in range(1, PLAYERS + 1)]
    rounds = []
    for number in range(1, SESSIONS + 1):
        rng.shuffle(codes)
        tables = []
        for t in range(PLAYERS // 4):
            seated = codes[t * 4 : t * 4 + 4]
            hands = []
            for _ in range(HANDS):
                if rng.random() < 0.15:
                    hands.append({"winner": None})
                    continue
                winner = rng.choice(seated)
                discarder = None if rng.random() < 0.3 else rng.choice([p for p in seated if p != winner])
                hands.append({"winner": winner, "discarder": discarder, "fan": rng.choice(FANS)})
            tables.append({"number": t + 1, "seats": dict(zip("ESWN", seated, strict=True)), "hands": hands})
        rounds.append({"number": number, "tables": tables})
    return {
        "format": "mahjong-event/1",
        "tournament": {
            "name": "Bench Championship",
            "slug": "bench",
            "rules": "mcr",
            "settings": {"hands_per_session": HANDS},
        },
        "players": [
            {"id": c, "name": f"Player {c[1:]}", "country": "", "ema_id": "", "team": ""}
            for c in sorted(codes)
        ],
        "rounds": rounds,
        "appeals": [],
    }


def main() -> None:
    call_command("migrate", verbosity=0)
    from scoring.interchange import import_event
    from scoring.services.standings import event_standings
    from tournaments.models import Tournament

    doc = build_event()
    start = time.perf_counter()
    import_event(doc)
    imported = time.perf_counter() - start
    tournament = Tournament.objects.get(slug="bench")
    start = time.perf_counter()
    rows = event_standings(tournament)
    standings = time.perf_counter() - start
    client = Client()
    start = time.perf_counter()
    client.get("/e/bench/standings/")  # the first view after a change computes and caches
    first_page = time.perf_counter() - start
    timings = []
    for _ in range(5):
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            response = client.get("/e/bench/standings/")
            timings.append(time.perf_counter() - start)
    page = sorted(timings)[len(timings) // 2]
    assert response.status_code == 200 and len(rows) == PLAYERS
    hands = SESSIONS * (PLAYERS // 4) * HANDS
    print(f"event: {PLAYERS} players, {SESSIONS} sessions, {hands} hands ({connection.vendor})")
    print(f"import_event:        {imported:8.2f} s")
    print(f"standings (service): {standings * 1000:8.1f} ms")
    print(f"standings page, first view after a change: {first_page * 1000:8.1f} ms")
    print(f"standings page, cached (median of 5):      {page * 1000:8.1f} ms, {len(queries)} queries")


if __name__ == "__main__":
    main()
