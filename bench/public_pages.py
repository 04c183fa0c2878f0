"""Benchmark: the public pages players poll on their phones, on a generated 200-player MCR
event (7 sessions of 16 hands, every table confirmed).

For each page: the first view after a change (nothing cached), a poll of its fragment when nothing
changed (answered 304), and the database queries each makes. The page cache for anonymous readers is
off here, so the figures are the views' own. Run: .venv/bin/python bench/public_pages.py
"""

from __future__ import annotations

import time

import in_process  # noqa: F401  # Django set up before the app is imported

# isort: split

from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from make_event import make_event

PLAYERS, SESSIONS, HANDS = 200, 7, 16


def timed(client: Client, url: str, **headers: str) -> tuple[float, int, int, str]:
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        response = client.get(url, headers=headers)
        elapsed = time.perf_counter() - start
    return elapsed * 1000, len(queries), response.status_code, response.get("ETag", "")


def main() -> None:
    settings.PUBLIC_PAGE_CACHE = False
    call_command("migrate", verbosity=0)
    from scoring.interchange import import_event

    doc = make_event(players=PLAYERS, sessions=SESSIONS, played=SESSIONS, hands=HANDS, seed=15, slug="bench")
    import_event(doc)
    client = Client()
    pages = {
        "results, session 1": "/e/bench/results/1/",
        "player page": "/e/bench/players/p7/",
        "side rankings": "/e/bench/side-rankings/",
        "team standings": "/e/bench/teams/",
        "find a player": "/e/bench/find/?q=" + doc["players"][6]["name"].split()[0].lower(),
    }
    print(
        f"event: {PLAYERS} players, {SESSIONS} sessions of {HANDS} hands, all confirmed ({connection.vendor})"
    )
    print(f"{'page':22} {'first view':>12} {'queries':>8} {'warm':>10} {'304 poll':>10} {'queries':>8}")
    for name, url in pages.items():
        cache.clear()
        first, first_queries, status, _ = timed(client, url)
        assert status == 200, (url, status)
        warm, _, _, _ = timed(client, url)
        _, _, _, etag = timed(client, url, HX_Request="true")
        poll = poll_queries = 0.0
        if etag:
            poll, poll_queries, status, _ = timed(client, url, HX_Request="true", If_None_Match=etag)
            assert status == 304, (url, status)
        poll_text = f"{poll:8.1f} ms {poll_queries:8.0f}" if etag else f"{'-':>11} {'-':>8}"
        print(f"{name:22} {first:9.1f} ms {first_queries:8d} {warm:7.1f} ms {poll_text}")


if __name__ == "__main__":
    main()
