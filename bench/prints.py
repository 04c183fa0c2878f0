"""Benchmark: the prints of a 400-player MCR event (10 sessions of 16 hands, 100 tables a session).

Builds the event through ``import_event`` (with penalties, lateness and appeals), then times each
print and measures its peak Python memory (tracemalloc, a second run) and the process's peak resident
size. CPU time is printed beside wall time because a shared machine's load stretches the latter.
Targets: scoresheets for 100 tables <= 3 s, the workbook <= 5 s, peak memory <= 300 MB.
Run: .venv/bin/python bench/prints.py
"""

from __future__ import annotations

import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

PLAYERS, SESSIONS, HANDS = 400, 10, 16
FANS = [8] * 18 + [9, 10, 11, 12, 13, 14, 16, 18, 20, 24, 32, 40, 64, 88]
NAMES = [
    "Ana Silva",
    "陈波 Chen Bo",
    "José Müller",
    "Łucja Ćwik",
    "Zoë Ångström",
    "Mary O'Brien",
    "山田 花子",
]
TARGETS = {"scoresheets (100 tables)": 3.0, "workbook": 5.0}
MEMORY_LIMIT_MB = 300


def build_event() -> dict:
    rng = random.Random(400)
    codes = [f"p{i}" for i in range(1, PLAYERS + 1)]
    rounds, appeals = [], []
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
            table = {"number": t + 1, "seats": dict(zip("ESWN", seated, strict=True)), "hands": hands}
            if rng.random() < 0.1:
                table["penalties"] = [
                    {
                        "player": seated[3],
                        "points": 10,
                        "paid_to": "none",
                        "rule": "MCR 83",
                        "reason": "slow play",
                    }
                ]
                if rng.random() < 0.5:
                    appeals.append({"round": number, "table": t + 1, "penalty": 0, "status": "denied"})
            if rng.random() < 0.05:
                table["late"] = [{"player": seated[1], "minutes": 7}]
            tables.append(table)
        rounds.append({"number": number, "tables": tables})
    return {
        "format": "mahjong-event/1",
        "tournament": {
            "name": "Bench <b>Championship</b> 大会",
            "slug": "bench-prints",
            "rules": "mcr",
            "settings": {"hands_per_session": HANDS},
        },
        "players": [
            {
                "id": c,
                "name": f"{NAMES[i % len(NAMES)]} {i}",
                "country": "PT",
                "ema_id": f"{10000000 + i}" if i % 5 else "",
                "team": f"Team {i % 40}",
            }
            for i, c in enumerate(sorted(codes, key=lambda c: int(c[1:])), start=1)
        ],
        "rounds": rounds,
        "appeals": appeals,
    }


def background_job(tournament: Any) -> None:
    """The workbook as a background job (scoring/export_jobs.py): what the web request costs (queue it),
    what the worker does (make and store it), and a second request for the same version (reuse)."""
    from django.test import override_settings

    from scoring import export_jobs
    from tournaments import worker

    with override_settings(BACKGROUND_WORKER=True):
        start = time.perf_counter()
        job = export_jobs.request_export(tournament, "workbook", acting_user=None)
        asked = time.perf_counter() - start
        start = time.perf_counter()
        claimed = worker.claim_job("bench", export_jobs.EXPORTS)
        assert claimed == job.pk
        export_jobs.run_export_job(claimed, worker="bench")
        made = time.perf_counter() - start
        start = time.perf_counter()
        again = export_jobs.request_export(tournament, "workbook", acting_user=None)
        reused = time.perf_counter() - start
        start = time.perf_counter()
        size = len(export_jobs.content_of(again))
        read = time.perf_counter() - start
    print(
        f"workbook as a background job: request {asked * 1000:.0f} ms (queued), worker {made:.2f} s "
        f"(made and stored, {size / 1024:.0f} KB), asked again {reused * 1000:.0f} ms "
        f"({'the same job' if again.pk == job.pk else 'MADE AGAIN'}), file read back {read * 1000:.0f} ms"
    )


def main() -> int:
    call_command("migrate", verbosity=0)
    from scoring.exports import EVENT_PRINTS, SESSION_PRINTS, pdf_font
    from scoring.exports.base import fallback_font
    from scoring.interchange import import_event

    start = time.perf_counter()
    tournament = import_event(build_event())
    print(
        f"import: {time.perf_counter() - start:.1f} s ({PLAYERS} players, {SESSIONS} sessions, {HANDS} hands)"
    )
    start = time.perf_counter()
    pdf_font(), fallback_font()
    print(f"fonts registered (once per process): {time.perf_counter() - start:.2f} s")
    round_ = tournament.rounds.get(number=1)
    from scoring.standings_cache import cached_standings_rows

    start = time.perf_counter()
    cached_standings_rows(tournament)
    print(
        f"standings computed (once per standings version, as the public pages do): "
        f"{time.perf_counter() - start:.2f} s"
    )
    jobs = [
        (
            "scoresheets (100 tables)",
            lambda: SESSION_PRINTS["scoresheets"](round_, "https://hall.example").render(),
        ),
        ("seat slips (400)", lambda: SESSION_PRINTS["seat-slips"](round_, "https://hall.example").render()),
        ("table cards (100)", lambda: SESSION_PRINTS["table-cards"](round_).render()),
        ("seating lists", lambda: SESSION_PRINTS["seating-lists"](round_).render()),
        ("standings PDF", lambda: EVENT_PRINTS["standings"](tournament).render()),
        ("register PDF", lambda: EVENT_PRINTS["register"](tournament).render()),
        ("workbook", lambda: EVENT_PRINTS["workbook"](tournament).render()),
        ("EMA results XLSX", lambda: EVENT_PRINTS["ema"](tournament).render()),
    ]
    failed = False
    print(f"{'print':<26}{'wall s':>8}{'CPU s':>8}{'size KB':>9}{'peak MB':>9}  target (on CPU time)")
    for name, job in jobs:
        start, cpu = time.perf_counter(), time.process_time()
        _, _, content = job()
        wall, seconds = time.perf_counter() - start, time.process_time() - cpu
        tracemalloc.start()
        job()
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        target = TARGETS.get(name)
        verdict = ""
        if target is not None:
            ok = seconds <= target and peak <= MEMORY_LIMIT_MB
            failed |= not ok
            verdict = f"<= {target:g} s: {'ok' if ok else 'MISSED'}"
        print(f"{name:<26}{wall:>8.2f}{seconds:>8.2f}{len(content) / 1024:>9.0f}{peak:>9.1f}  {verdict}")
    background_job(tournament)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    failed |= rss > MEMORY_LIMIT_MB
    print(
        f"process peak resident size: {rss:.0f} MB (<= {MEMORY_LIMIT_MB} MB: {'ok' if rss <= MEMORY_LIMIT_MB else 'MISSED'})"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
