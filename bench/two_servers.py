"""Two app servers on loopback against one PostgreSQL and one Redis (as two machines behind a load balancer):

    deploy/two-servers-test      # = .venv/bin/python bench/two_servers.py; run by .ci/run; needs PostgreSQL, redis-server

Starts a throw-away PostgreSQL cluster and redis-server (bench/stack.py), two gunicorn servers A and B and two
background workers, then checks that
1. a table's result entered on A (16 hands, posted as the referee's browser does) and confirmed on B by a
   second referee appears in the standings served by B and by A (the page and the CSV), with no restart and no
   waiting: the standings version lives in the database and the cached pages in the shared Redis;
2. a seating plan started through the organiser's page on B is worked out by exactly one of the two workers,
   once (one claim, one "session seated" entry in the audit log), while both poll for work.
Exit status 0 when both hold.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack import PYTHON, ROOT, Browser, Stack, free_base

PORT = 18500
PASSWORD = "two-servers-pw-1"
SLUG = "two-servers"


def check(label: str, ok: bool, detail: str = "") -> bool:
    print(f"{'ok  ' if ok else 'FAIL'} {label}{f': {detail}' if detail else ''}")
    return ok


def main() -> None:
    port = free_base(PORT)
    stack = Stack("postgres", port=port)
    if "CACHE_URL" not in stack.env:
        stack.stop()
        sys.exit("redis-server is needed (apt-get install redis-server)")
    passed = True
    try:
        event = stack.work / "event.json"
        subprocess.run(
            [
                PYTHON,
                "bench/make_event.py",
                "--players=16",
                "--sessions=3",
                "--played=1",
                f"--slug={SLUG}",
                f"--output={event}",
            ],
            cwd=ROOT,
            check=True,
            stderr=subprocess.DEVNULL,
        )
        stack.prepare(event)
        seated = json.loads(
            stack.shell(
                "import json\n"
                "from django.contrib.auth import get_user_model\n"
                "from tournaments import services\n"
                "from tournaments.models import Role, Seat, Tournament\n"
                f"t = Tournament.objects.get(slug={SLUG!r})\n"
                "users = get_user_model().objects\n"
                "for name, role in (('ref-a', Role.REFEREE), ('ref-b', Role.REFEREE), ('org', Role.ORGANISER)):\n"
                f"    services.grant_role(t, users.create_user(name, password={PASSWORD!r}), role, acting_user=None)\n"
                "east = Seat.objects.get(round__tournament=t, round__number=2, table__number=1, wind='E')\n"
                "print(json.dumps({'code': east.registration.code, 'name': east.registration.player.name}))\n"
            )
        )
        a = stack.gunicorn(port, workers=2, threads=2, name="mahjong-a")
        b = stack.gunicorn(port + 1, workers=2, threads=2, name="mahjong-b")
        stack.worker("w1")
        stack.worker("w2")
        print(
            f"servers A :{port} (pid {a.pid}) and B :{port + 1} (pid {b.pid}), workers w1 and w2, "
            f"one PostgreSQL, one Redis ({stack.env['CACHE_URL']})"
        )

        # 1. a result saved on A, confirmed on B, in the standings of both
        reader_a, reader_b = Browser(port), Browser(port + 1)
        before = reader_b.request("GET", f"/e/{SLUG}/standings/")[2]
        read_at = time.monotonic()
        referee_a = Browser(port)
        referee_a.login("ref-a", PASSWORD)
        table = f"/referee/{SLUG}/sessions/2/tables/1/"
        for number in range(1, 17):  # MCR: 16 hands, East wins each on South's discard with 8 fan
            status, _, _ = referee_a.request(
                "POST",
                table + "hands/add/",
                {
                    "how": "discard",
                    "winner": "E",
                    "discarder": "S",
                    "fan": "8",
                    "expected_number": str(number),
                },
            )
            if status != 302:
                raise SystemExit(f"hand {number} not saved on A: HTTP {status}")
        referee_b = Browser(port + 1)
        referee_b.login("ref-b", PASSWORD)
        status, _, _ = referee_b.request("POST", table + "confirm/", {})
        passed &= check("16 hands saved on A, the table confirmed on B by another referee", status == 302)
        # A public page renders at most every PUBLIC_PAGE_MIN_SECONDS (5 s) while results pour in.
        time.sleep(max(0.0, read_at + 5.1 - time.monotonic()))
        expected = 16 * (8 + 8 + 8 + 8)  # rule 67: the discarder pays 8 + 8, the others 8 each
        for label, reader, served_by in (("B", reader_b, port + 1), ("A", reader_a, port)):
            page = reader.request("GET", f"/e/{SLUG}/standings/")[2]
            rows = list(csv.DictReader(io.StringIO(reader.request("GET", f"/e/{SLUG}/standings.csv")[2])))
            row = next((r for r in rows if seated["name"] in r.values()), {})
            scores = [v for k, v in row.items() if k and "2" in k]
            passed &= check(
                f"standings served by {label} (:{served_by}) count the result",
                page != before and str(expected) in " ".join(scores) and seated["name"] in page,
                f"{seated['name']}: session 2 {scores}",
            )

        # 2. a seating plan started on B's organiser page runs once, on one of the two workers
        organiser = Browser(port + 1)
        organiser.login("org", PASSWORD)
        status, _, _ = organiser.request(
            "POST", f"/manage/{SLUG}/sessions/3/seat/", {"seed": "7", "scope": "one"}
        )
        passed &= check("seating of session 3 started on B", status == 302)
        deadline = time.monotonic() + 120
        job: dict = {}
        while time.monotonic() < deadline:
            job = json.loads(
                stack.shell(
                    "import json\n"
                    "from tournaments.audit import AuditAction\n"
                    "from tournaments.models import AuditEntry, SeatingJob\n"
                    f"j = SeatingJob.objects.filter(tournament__slug={SLUG!r}).values().first()\n"
                    f"n = AuditEntry.objects.filter(event_slug={SLUG!r}, action=AuditAction.SEAT_ROUND).count()\n"
                    "print(json.dumps({**j, 'seatings': n}, default=str))\n"
                )
            )
            if job["status"] in ("done", "failed"):
                break
            time.sleep(0.5)
        time.sleep(2)  # both workers keep polling: a second run would show now
        again = json.loads(
            stack.shell(
                "import json\n"
                "from tournaments.audit import AuditAction\n"
                "from tournaments.models import AuditEntry\n"
                f"print(AuditEntry.objects.filter(event_slug={SLUG!r}, action=AuditAction.SEAT_ROUND).count())\n"
            )
        )
        passed &= check(
            "the seating job ran exactly once, on one worker",
            job.get("status") == "done"
            and job.get("attempts") == 1
            and again == 1
            and job.get("worker") in ("w1", "w2"),
            f"status {job.get('status')}, worker {job.get('worker')}, attempts {job.get('attempts')}, "
            f"'session seated' entries {again}, {job.get('message')}",
        )
    finally:
        stack.stop()
    print("two app servers: passed" if passed else "two app servers: FAILED")
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
