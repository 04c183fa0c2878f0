"""Benchmark: drawing a session's public results page again while hands pour in, on a generated
400-player MCR event (10 sessions, 8 played, every table of session 9 with four hands entered).

The page is drawn again after every change at one of its tables (once per entry version, language and for
htmx's fragment: tournaments/public_read.py). Each table's card is kept under the table's
results_version, so a hand at one table draws that table's card and reads the others from the cache.
Printed: the page drawn with every card (a cold cache, or after a change every card shows) against the page
drawn after one hand at one table; the median of RUNS, milliseconds and queries.

    .venv/bin/python bench/results_page.py
"""

from __future__ import annotations

import statistics
import time

import in_process  # noqa: F401  # Django set up before the app is imported

# isort: split

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from make_event import make_event

PLAYERS, SESSIONS, PLAYED, RUNS = 400, 10, 8, 9


def timed(client: Client, url: str) -> tuple[float, int]:
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        response = client.get(url)
        elapsed = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, response.status_code
    return elapsed, len(queries)


def main() -> None:
    call_command("migrate", verbosity=0)
    from scoring.interchange import import_event
    from scoring.services.entry import HandEntry, record_hand
    from tournaments.models import Tournament

    import_event(
        make_event(players=PLAYERS, sessions=SESSIONS, played=PLAYED, hands=16, seed=12, slug="bench")
    )
    tournament = Tournament.objects.get(slug="bench")
    referee = get_user_model().objects.create_superuser("bench", "bench@example.org", "bench-pw-1234")
    session = tournament.rounds.get(number=PLAYED + 1)
    tables = list(session.tables.order_by("number"))
    hand = HandEntry(winner="E", discarder="S", fan=8)
    for table in tables:
        for _ in range(4):
            record_hand(table, hand, acting_user=referee)
    client = Client()  # an anonymous phone
    url = f"/e/bench/results/{session.number}/"
    client.get(url)

    every, one = [], []
    for run in range(RUNS):
        cache.clear()  # every card drawn (as after a confirmation or any change every card shows)
        every.append(timed(client, url))
        record_hand(tables[run % len(tables)], hand, acting_user=referee)
        one.append(timed(client, url))
    print(
        f"{PLAYERS} players, session {session.number}: {len(tables)} tables, 4-5 hands each; median of {RUNS}"
    )
    for name, figures in (("every card drawn", every), ("after a hand at one table", one)):
        ms = statistics.median(f[0] for f in figures)
        queries = statistics.median(f[1] for f in figures)
        print(f"  {name:28} {ms:8.1f} ms  {queries:4.0f} queries")


if __name__ == "__main__":
    main()
