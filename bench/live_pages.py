"""Benchmark: what polls during a session on a generated 400-player MCR event (10 sessions,
5 played, session 6 in play with its clock running): the organiser's live fragments (every 15 s), the
clock fragment (every phone, every 20-30 s), the projector and the referee's table page.

For each: the median of five requests, the database queries, the bytes, and for the live fragments a
poll when nothing changed (answered 304). Run: .venv/bin/python bench/live_pages.py
"""

from __future__ import annotations

import statistics
import time

import in_process  # noqa: F401  # Django set up before the app is imported

# isort: split

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from make_event import make_event

PLAYERS, SESSIONS, PLAYED, HANDS = 400, 10, 5, 16


def measure(client: Client, url: str, **headers: str) -> tuple[float, int, int, int, str]:
    times = []
    for _ in range(5):
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            response = client.get(url, headers=headers)
            times.append((time.perf_counter() - start) * 1000)
    return (
        statistics.median(times),
        len(queries),
        response.status_code,
        len(response.content),
        response.get("ETag", ""),
    )


def main() -> None:
    if hasattr(settings, "PUBLIC_PAGE_CACHE"):
        settings.PUBLIC_PAGE_CACHE = False
    call_command("migrate", verbosity=0)
    from scoring.interchange import import_event
    from scoring.services.entry import HandEntry, record_hand
    from tournaments import clock
    from tournaments.models import Tournament

    import_event(
        make_event(players=PLAYERS, sessions=SESSIONS, played=PLAYED, hands=HANDS, seed=13, slug="bench")
    )
    tournament = Tournament.objects.get(slug="bench")
    organiser = get_user_model().objects.create_superuser("bench", "bench@example.org", "bench-pw-1234")
    session = tournament.rounds.get(number=PLAYED + 1)
    clock.start_clock(session, 120, acting_user=organiser)
    for table in session.tables.order_by("number")[:60]:
        record_hand(table, HandEntry(winner=None), acting_user=organiser)
    client = Client()
    client.force_login(organiser)
    number = session.number
    pages = {
        "event dashboard fragment": ("/manage/bench/live/", True),
        f"session {number} fragment (100 tables)": (f"/manage/bench/sessions/{number}/live/", True),
        "event dashboard (whole page)": ("/manage/bench/", False),
        "clock fragment (phones)": ("/e/bench/clock/", False),
        "clock fragment, one table": (f"/e/bench/clock/?session={number}&table=7", False),
        "projector (400 players)": ("/e/bench/projector/", False),
        f"referee's table page, session {number}": (f"/referee/bench/sessions/{number}/tables/1/", False),
    }
    print(
        f"{PLAYERS} players, {SESSIONS} sessions ({PLAYED} played, session {number} in play with its clock)"
    )
    print(f"{'page':44} {'ms':>8} {'queries':>8} {'bytes':>8}  unchanged poll")
    for name, (url, polled) in pages.items():
        ms, queries, status, size, etag = (
            measure(client, url, HX_Request="true") if polled else measure(client, url)
        )
        assert status == 200, (url, status)
        unchanged = ""
        if polled:
            ms304, queries304, status304, size304, _ = measure(
                client, url, HX_Request="true", If_None_Match=etag
            )
            unchanged = f"{status304}, {size304} bytes, {ms304:.1f} ms, {queries304} queries"
        print(f"{name:44} {ms:8.1f} {queries:8d} {size:8d}  {unchanged}")


if __name__ == "__main__":
    main()
