"""Two app servers on loopback against one PostgreSQL and one Redis (as two machines behind a load balancer):

    deploy/two-servers-test      # = .venv/bin/python bench/two_servers.py; run by .ci/run; needs PostgreSQL, redis-server

Starts a throw-away PostgreSQL cluster and redis-server (bench/stack.py), two gunicorn servers A and B and two
background workers, then checks that
1. a table's result entered on A (16 hands, posted as the referee's browser does) and confirmed on B by a
   second referee appears in the standings served by B and by A (the page and the CSV), with no restart, within
   a moment (the page is rendered behind the first reader's answer): the versions live in the database and the
   cached pages in the shared Redis;
2. a seating plan started through the organiser's page on B is worked out by exactly one of the two workers,
   once (one claim, one "session seated" entry in the audit log), while both poll for work;
3. the workbook asked for on B (twice) is made once, by one worker, and downloaded from A: a real XLSX with
   every player; asked for again on A it is handed out at once, not made again (scoring/export_jobs.py).
Exit status 0 when all hold.
"""

from __future__ import annotations

import csv
import http.client
import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack import HOST, PYTHON, ROOT, Browser, Stack, free_base

PORT = 18500
PASSWORD = "two-servers-pw-1"
SLUG = "two-servers"


def check(label: str, ok: bool, detail: str = "") -> bool:
    print(f"{'ok  ' if ok else 'FAIL'} {label}{f': {detail}' if detail else ''}")
    return ok


def download(browser: Browser, path: str) -> tuple[int, str, bytes]:
    """A file as bytes (``Browser.request`` decodes bodies as text), with the browser's cookies."""
    conn = http.client.HTTPConnection(HOST, browser.port, timeout=60)
    try:
        cookies = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        conn.request("GET", path, headers={"Host": HOST, "Cookie": cookies})
        response = conn.getresponse()
        return response.status, response.headers.get("Content-Type", ""), response.read()
    finally:
        conn.close()


def workbook_step(stack: Stack, port: int, organiser_b: Browser, name: str) -> bool:
    """3. The workbook asked for on B, made once by one worker, downloaded from A."""
    from openpyxl import load_workbook

    passed = True
    start = time.monotonic()
    status, first, _ = organiser_b.request("GET", f"/manage/{SLUG}/prints/workbook/")
    status_again, second, _ = organiser_b.request("GET", f"/manage/{SLUG}/prints/workbook/")
    job_page = re.fullmatch(rf"(?:http://[^/]+)?(/manage/{SLUG}/exports/(\d+)/)", first)
    passed &= check(
        "the workbook asked for on B becomes a job (and the same job when asked again)",
        status == 302 and job_page is not None and second in (first, f"{first}download/"),
        f"HTTP {status} {first}; again HTTP {status_again} {second}",
    )
    if job_page is None:
        return False
    organiser_a = Browser(port)
    organiser_a.login("org", PASSWORD)
    deadline = time.monotonic() + 120
    page = ""
    while time.monotonic() < deadline:
        page = organiser_a.request("GET", job_page.group(1))[2]
        if 'data-status="done"' in page or 'data-status="failed"' in page:
            break
        time.sleep(0.2)
    made = time.monotonic() - start
    status, content_type, content = download(organiser_a, f"{job_page.group(1)}download/")
    names: list[str] = []
    try:
        totals = load_workbook(io.BytesIO(content), read_only=True)["Totals"]
        rows = totals.iter_rows(min_row=2, values_only=True)
        names = [str(row[2]) for row in rows if len(row) > 2 and row[1]]  # the last rows: a note
    except Exception as error:  # not a workbook: reported below
        print(f"     the download is not a workbook: {error}")
    passed &= check(
        "the workbook is downloaded from A: an XLSX with every player",
        status == 200 and "spreadsheetml" in content_type and len(names) == 16 and name in names,
        f"HTTP {status}, {len(content)} bytes, {len(names)} players on Totals, ready after {made:.1f} s",
    )
    status, location, _ = organiser_a.request("GET", f"/manage/{SLUG}/prints/workbook/")
    passed &= check(
        "asked for again on A: the file made on B's request is handed out, not made again",
        status == 302 and location.endswith(f"{job_page.group(1)}download/"),
        f"HTTP {status} {location}",
    )
    time.sleep(1)  # both workers keep polling: a second run would show now
    jobs = json.loads(
        stack.shell(
            "import json\n"
            "from scoring.models import ExportJob\n"
            f"print(json.dumps(list(ExportJob.objects.filter(tournament__slug={SLUG!r}).values("
            "'kind', 'status', 'worker', 'attempts', 'size', 'message'))))\n"
        )
    )
    passed &= check(
        "one export job, made once, on one worker",
        len(jobs) == 1
        and jobs[0]["status"] == "done"
        and jobs[0]["attempts"] == 1
        and jobs[0]["worker"] in ("w1", "w2")
        and jobs[0]["size"] == len(content),
        json.dumps(jobs),
    )
    return passed


def _row(page: str, name: str) -> str:
    """The standings page's row of this player (from the name to the end of the row)."""
    at = page.find(name)
    return page[at : page.find("</tr>", at)] if at >= 0 else ""


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
                "from tournaments.services import events\n"
                "from tournaments.models import Role, Seat, Tournament\n"
                f"t = Tournament.objects.get(slug={SLUG!r})\n"
                "users = get_user_model().objects\n"
                "for name, role in (('ref-a', Role.REFEREE), ('ref-b', Role.REFEREE), ('org', Role.ORGANISER)):\n"
                f"    events.grant_role(t, users.create_user(name, password={PASSWORD!r}), role, acting_user=None)\n"
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
        # Each worker reads the event's versions at most once a second (PUBLIC_VERSION_SECONDS).
        time.sleep(max(0.0, read_at + 1.1 - time.monotonic()))
        expected = 16 * (8 + 8 + 8 + 8)  # rule 67: the discarder pays 8 + 8, the others 8 each
        for label, reader, served_by in (("B", reader_b, port + 1), ("A", reader_a, port)):
            # A worker that read the versions less than a second ago may still answer the previous page
            # (tournaments/public_read.py): a phone's next poll, a moment later, has it.
            deadline = time.monotonic() + 10
            while True:
                page = reader.request("GET", f"/e/{SLUG}/standings/")[2]
                if _row(page, seated["name"]) != _row(before, seated["name"]) or time.monotonic() > deadline:
                    break
                time.sleep(0.25)
            rows = list(csv.DictReader(io.StringIO(reader.request("GET", f"/e/{SLUG}/standings.csv")[2])))
            row = next((r for r in rows if seated["name"] in r.values()), {})
            scores = [v for k, v in row.items() if k and "2" in k]
            passed &= check(
                f"standings served by {label} (:{served_by}) count the result",
                page != before
                and _row(page, seated["name"]) != _row(before, seated["name"])
                and str(expected) in " ".join(scores)
                and seated["name"] in page,
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

        # 3. the workbook asked for on B, made once by a worker, downloaded from A
        passed &= workbook_step(stack, port, organiser, seated["name"])
    finally:
        stack.stop()
    print("two app servers: passed" if passed else "two app servers: FAILED")
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
