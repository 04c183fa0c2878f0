"""Players' own pages polling while referees save hands: do the pages' targets (docs/scale.md) hold with a
hall of phones signed in to "My event", each polling as its page does?

    .venv/bin/python bench/player_pages.py [--db sqlite|postgres|both] [--players 400] [--phones N]
        [--sessions 10] [--duration 15] [--referees 8] [--pace 1] [--nginx] [--quick]

Each database gets a throw-away stack on loopback (bench/stack.py: the generated event, the last two sessions
seated but unplayed, the public pool 4 workers x 6 threads (2 working at once) at SCHED_IDLE and nice 10
and the referees' pool 2 x 2, as deploy/serve runs them). Every player gets a PIN (``pins.issue_pins``, as printing the seat slips
does). Then:

1. ``--phones`` players (all of them by default) sign in to their own page (``/e/<event>/me/``: the code and
   PIN form, as the seat slip's QR address opens it) and load it once;
2. entry alone: ``--referees`` referees save a hand every ``--pace`` seconds each (the hand form with htmx,
   the whole page after a table's first and last hand, as bench/entry_load.py's referees) for ``--duration``
   seconds: save p50/p95;
3. entry with the phones: the same while every signed-in phone polls as its page does, at the intervals the
   page itself gives (read from it, not assumed): the notices (``#notices``' ``data-url`` every
   ``data-poll`` seconds after the previous answer, with the version it has as If-None-Match: 304 while
   nothing changed, static/js/notices.js), which follow the player's table: when an answer's table digest
   differs from the one shown, the table's fragment (``#my-table``'s ``hx-get``) is asked for at once; and
   the clock when the page shows one ("every 20s"); each phone starts
   at a random point of its interval, as a hall's phones are out of step; the phones poll one interval
   before the figures count, as a hall that has been polling (a phone's first poll of its table has no copy
   to revalidate: a full answer). Printed: p50/p95, errors and the share answered 304 of
   each kind of poll, the saves beside step 2's, and the targets (docs/scale.md: p95 <= 100 ms per page,
   saves within 20 % of unloaded at p50 and p95 <= 200 ms, 0 errors).

The phones are threads of a child process of this script, one kept-alive connection each (closed after 4 s
idle, as gunicorn closes them after 5 s), at nice 10: a hall's phones are elsewhere. Their latencies include
the child's own time, so a loaded machine shows in them; the cores each part used are printed.
``--nginx`` puts nginx in front as deployed (deploy/nginx.conf: /e/ to the public pool, /referee/ to the
referees'). ``--quick`` is the CI-sized run (40 players, 4 sessions, 4 s phases).
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import os
import random
import re
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack import (
    HOST,
    REFEREE_PASSWORD,
    Browser,
    Stack,
    cpu_by_name,
    cpu_line,
    event_stack,
    free_base,
    load_line,
    nginx,
    percentile,
    referee_tables,
)

PUBLIC_WORKERS, PUBLIC_THREADS, PUBLIC_NICE = 4, 6, 10  # as deploy/serve runs the public pool
STAFF_WORKERS = 2
HANDS_PER_TABLE = 16


@dataclass
class Figures:
    """Latencies (ms) by what was asked, errors by what was asked, and the phase they are counted in."""

    latencies: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    errors: dict[tuple[str, str], int] = field(default_factory=dict)
    not_modified: dict[tuple[str, str], int] = field(default_factory=dict)
    signed_in: int = 0
    referees_in: int = 0
    phase: str = "warm-up"
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, what: str, started: float, ok: bool, *, kept: bool = False) -> None:
        """One answer; ``kept``: a 304 (the phone's copy still holds)."""
        elapsed = (time.perf_counter() - started) * 1000
        with self.lock:
            key = (self.phase, what)
            self.latencies.setdefault(key, []).append(elapsed)
            if kept:
                self.not_modified[key] = self.not_modified.get(key, 0) + 1
            if not ok:
                self.errors[key] = self.errors.get(key, 0) + 1


class Phone(Browser):
    """A player's phone: :class:`stack.Browser` with the headers a page's own polls send, and the browser's
    HTTP cache: an answer with an ETag that may be kept (not ``no-store``) is revalidated the next time with
    ``If-None-Match``, as the browser does under htmx's polls (htmx's XHR then sees the kept copy)."""

    def __init__(self, port: int) -> None:
        super().__init__(port)
        self.kept: dict[str, str] = {}  # path -> the ETag of the copy the browser keeps

    def get(self, path: str, headers: dict[str, str]) -> tuple[int, str]:
        if path in self.kept and "If-None-Match" not in headers:
            headers = {**headers, "If-None-Match": self.kept[path]}
        status, text = self._get(path, headers)
        etag = self.headers.get("ETag", "")
        if status == 200 and etag and "no-store" not in self.headers.get("Cache-Control", ""):
            self.kept[path] = etag
        elif status == 200:
            self.kept.pop(path, None)
        return status, text

    def _get(self, path: str, headers: dict[str, str]) -> tuple[int, str]:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.conn is None or (self.conn.sock is not None and self._idle() > 4):
            if self.conn is not None:
                self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
        self.last_used = time.monotonic()
        try:
            self.conn.request("GET", path, headers={"Host": HOST, "Cookie": cookie, **headers})
            response = self.conn.getresponse()
            text = response.read().decode("utf-8", "replace")
        except OSError:
            self.conn.close()
            self.conn = None
            raise
        self.headers = response.headers
        return response.status, text


@dataclass
class Polls:
    """What a player's page polls and how often (seconds), read from the page as the browser would."""

    notices: str
    notices_every: float
    version: str
    table: str | None
    table_shown: str  # the digest of the table the page shows (#notices' data-table)
    clock: str | None
    clock_every: float


def attribute(page: str, element: str, name: str) -> str | None:
    """An attribute of the element with id ``element`` (the pages' own markup, not a parser: enough here)."""
    tag = re.search(rf'<[^>]*\bid="{element}"[^>]*>', page)
    if tag is None:
        return None
    found = re.search(rf'\b{name}="([^"]*)"', tag.group(0))
    return html.unescape(found.group(1)) if found else None


def every(trigger: str | None, default: float) -> float:
    found = re.search(r"every (\d+(?:\.\d+)?)s", trigger or "")
    return float(found.group(1)) if found else default


def read_polls(page: str) -> Polls:
    clock = re.search(r'<div class="clock-slot" hx-get="([^"]+)" hx-trigger="([^"]+)"', page)
    return Polls(
        notices=attribute(page, "notices", "data-url") or "",
        notices_every=float(attribute(page, "notices", "data-poll") or 5),
        version=attribute(page, "notices", "data-version") or "",
        table=attribute(page, "my-table", "hx-get"),
        table_shown=attribute(page, "notices", "data-table") or "",
        clock=html.unescape(clock.group(1)) if clock else None,
        clock_every=every(clock.group(2) if clock else None, 20),
    )


def sign_in(port: int, slug: str, code: str, pin: str, figures: Figures) -> tuple[Phone, Polls] | None:
    """The seat slip's QR address, the PIN typed, the page it lands on: None when refused."""
    phone = Phone(port)
    started = time.perf_counter()
    phone.request("GET", f"/e/{slug}/me/?code={code}")
    status, location, _ = phone.request("POST", f"/e/{slug}/me/sign-in/", {"code": code, "pin": pin})
    figures.add("sign-in", started, status == 302)
    if status != 302:
        return None
    started = time.perf_counter()
    status, _, page = phone.request("GET", urlsplit(location).path or f"/e/{slug}/me/")
    figures.add("page", started, status == 200)
    with figures.lock:
        figures.signed_in += 1
    return phone, read_polls(page)


def poll(phone: Phone, polls: Polls, figures: Figures, stop: threading.Event, rng: random.Random) -> None:
    """As the page's scripts poll: the notices after each answer (they say when the table changed: its
    fragment is asked for then, at once), the clock on a fixed beat."""
    now = time.monotonic()
    due = {
        "notices": now + rng.random() * polls.notices_every,
        **({"clock": now + rng.random() * polls.clock_every} if polls.clock else {}),
    }
    beat = dict(due)  # htmx's timer for the clock (the notices are asked after each answer)
    queued: set[str] = set()
    version, table_shown = polls.version, polls.table_shown
    while not stop.is_set():
        what = min(due, key=due.__getitem__)
        stop.wait(max(0.0, due[what] - time.monotonic()))
        if stop.is_set():
            return
        started = time.perf_counter()
        try:
            if what == "notices":
                headers = {
                    "If-None-Match": version,
                    "Accept": "application/json",
                    "Cache-Control": "no-store",
                }
                status, text = phone.get(polls.notices, headers)
                if status == 200:
                    answer = json.loads(text)
                    version = answer.get("version", version)
                    if polls.table and answer.get("table", table_shown) != table_shown:
                        table_shown = answer["table"]
                        due["table"] = time.monotonic()  # notices.js: htmx asks for the fragment now
            else:
                status, _ = phone.get(
                    (polls.table if what == "table" else polls.clock) or "", {"HX-Request": "true"}
                )
            figures.add(what, started, status in (200, 304), kept=status == 304)
        except OSError:
            figures.add(what, started, False)
        answered = time.monotonic()
        if what == "notices":
            due[what] = answered + polls.notices_every  # after the answer (notices.js)
            continue
        if what == "table":
            del due[what]  # asked for again when the notices say it changed
            continue
        # htmx's "every": a beat on the clock; the beats that come while a request is out are queued as one
        # (hx-sync's default, "last") and sent on the answer. Not a burst catching up every beat missed,
        # which fed an overloaded server more polls than the phones send.
        every = polls.clock_every
        if what in queued:
            queued.discard(what)  # the queued one: the beat stands
        else:
            beat[what] += every
        if beat[what] <= answered:
            while beat[what] <= answered:
                beat[what] += every
            due[what] = answered
            queued.add(what)
        else:
            due[what] = beat[what]


def referee(
    index: int,
    port: int,
    slug: str,
    tables: list[tuple[int, int]],
    pace: float,
    figures: Figures,
    stop: threading.Event,
) -> None:
    """A referee saving a hand every ``pace`` seconds with htmx (the whole page when told to load it)."""
    browser = Browser(port)
    browser.login(f"bench-ref{index}", REFEREE_PASSWORD)
    with figures.lock:
        figures.referees_in += 1
    rng = random.Random(index)
    next_at = time.monotonic() + rng.random() * pace
    for session, table in tables:
        for number in range(1, HANDS_PER_TABLE + 1):
            stop.wait(max(0.0, next_at - time.monotonic()))
            if stop.is_set():
                return
            next_at = max(next_at + pace, time.monotonic())
            winner, discarder = rng.sample(["E", "S", "W", "N"], 2)
            data = {"how": "discard", "winner": winner, "discarder": discarder, "fan": "8"}
            data["expected_number"] = str(number)
            started = time.perf_counter()
            try:
                status, _, _ = browser.request(
                    "POST", f"/referee/{slug}/sessions/{session}/tables/{table}/hands/add/", data, htmx=True
                )
                page = browser.headers.get("HX-Redirect", "")
                if status == 200 and page:
                    browser.request("GET", page.split("#")[0])
            except OSError:
                status = 0
            figures.add("save", started, status == 200)


def pins_by_code(stack: Stack, slug: str) -> dict[str, str]:
    """Every player's PIN by their code, issued as printing the seat slips issues them."""
    pins: dict[str, str] = json.loads(
        stack.shell(
            "import json\n"
            "from scoring.services.pins import issue_pins\n"
            "from tournaments.models import Tournament\n"
            f"t = Tournament.objects.get(slug={slug!r})\n"
            "pins = issue_pins(t, acting_user=None)\n"
            "print(json.dumps({r.code: pins[r.pk] for r in t.registrations.all() if r.pk in pins}))\n"
        )
    )
    return pins


def line(
    figures: Figures, phase: str, what: str, seconds: float | None, target: float | None, label: str = ""
) -> tuple[str, bool]:
    """One figure's line: how many (per second over ``seconds``), p50/p95, errors, against ``target``."""
    times = figures.latencies.get((phase, what), [])
    errors = figures.errors.get((phase, what), 0)
    p50, p95 = percentile(times, 50), percentile(times, 95)
    good = bool(times) and errors == 0 and (target is None or p95 <= target)
    verdict = "" if target is None else f"  (p95 <= {target:.0f} ms: {'ok' if good else 'MISSED'})"
    count = f"{len(times) / seconds:7.1f}/s" if seconds else f"{len(times):7d}  "
    kept = figures.not_modified.get((phase, what), 0)
    share = f"  304 {100 * kept / len(times):3.0f} %" if kept and times else ""
    text = f"  {label or what:12} {count}  p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  errors {errors}{share}"
    return text + verdict, good


def phones_elsewhere(
    phones: list[tuple[Phone, Polls]], figures: Figures, settle: float, duration: float
) -> Callable[[], None]:
    """Start the phones polling in a child process of their own at nice 10: a hall's phones are elsewhere,
    and 400 threads of this script at the referees' priority took CPU from the servers they measure (and,
    holding the interpreter's lock, from the referees' threads beside them). Not at ``SCHED_IDLE`` beside
    the public pool, as ``bench/entry_load.py`` runs its readers' wrk: 400 Python threads there were
    starved by the pool they measure, and their figures counted their own wait for the CPU. Returns what
    waits for the child and adds its figures to ``figures``."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the phones, in a session of their own (cpu_by_name counts them apart)
        os.close(read)
        os.setsid()
        code = 1
        try:
            os.nice(PUBLIC_NICE)
            mine, stop = Figures(phase="settling"), threading.Event()
            pollers = [
                threading.Thread(target=poll, args=(phone, polls, mine, stop, random.Random(n)), daemon=True)
                for n, (phone, polls) in enumerate(phones)
            ]
            for thread in pollers:
                thread.start()
            time.sleep(settle)
            mine.phase = "phones"
            time.sleep(duration)
            mine.phase = "after"
            stop.set()
            for thread in pollers:
                thread.join(timeout=60)
            counted = {
                "latencies": [[*key, values] for key, values in mine.latencies.items()],
                "errors": [[*key, n] for key, n in mine.errors.items()],
                "not_modified": [[*key, n] for key, n in mine.not_modified.items()],
            }
            with os.fdopen(write, "w") as out:
                json.dump(counted, out)
            code = 0
        finally:
            os._exit(code)
    os.close(write)

    def done() -> None:
        with os.fdopen(read) as answers:
            counted = json.load(answers)
        os.waitpid(child, 0)
        with figures.lock:
            for phase, what, values in counted["latencies"]:
                figures.latencies.setdefault((phase, what), []).extend(values)
            for phase, what, n in counted["errors"]:
                figures.errors[(phase, what)] = figures.errors.get((phase, what), 0) + n
            for phase, what, n in counted["not_modified"]:
                figures.not_modified[(phase, what)] = figures.not_modified.get((phase, what), 0) + n

    return done


def run(db: str, args: argparse.Namespace, port: int) -> bool:
    port = free_base(port)
    print(f"\n=== {db}: {args.players} players x {args.sessions} sessions; {load_line()}")
    stack, slug, played = event_stack(
        db, port=port, players=args.players, sessions=args.sessions, referees=args.referees
    )
    try:
        stack.gunicorn(port, workers=PUBLIC_WORKERS, threads=args.public_threads, nice=PUBLIC_NICE, idle=True)
        stack.gunicorn(port + 1, workers=STAFF_WORKERS, threads=2, name="mahjong-staff")
        public, staff = port, port + 1
        if args.nginx:
            nginx(stack, port + 2, public=port, staff=port + 1)
            public = staff = port + 2
        pins = pins_by_code(stack, slug)
        figures = Figures()
        stop = threading.Event()
        codes = sorted(pins, key=lambda code: int(re.sub(r"\D", "", code) or 0))[: args.phones]
        phones: list[tuple[Phone, Polls]] = []
        started = time.monotonic()
        for code in codes:
            signed = sign_in(public, slug, code, pins[code], figures)
            if signed is not None:
                phones.append(signed)
        polled = sum(1 for _, polls in phones if polls.table)
        print(
            f"{len(phones)} of {len(codes)} phones signed in ({time.monotonic() - started:.1f} s), "
            f"{polled} with a table to follow; their page polls: notices every "
            f"{phones[0][1].notices_every:g} s (which ask for the table when it changed)"
            + (
                f", clock every {phones[0][1].clock_every:g} s"
                if phones and phones[0][1].clock
                else ", no clock"
            )
            if phones
            else "no phone signed in"
        )
        tables = args.players // 4
        assignment = referee_tables(played + 1, args.sessions, tables, args.referees)
        referees = [
            threading.Thread(
                target=referee, args=(i, staff, slug, assignment[i], args.pace, figures, stop), daemon=True
            )
            for i in range(args.referees)
        ]
        for thread in referees:
            thread.start()
        deadline = time.monotonic() + 300  # logins hash passwords (slow on purpose): measured once all are in
        while figures.referees_in < args.referees and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(2)  # the sessions' first hands (the whole page after them)
        figures.phase = "alone"
        time.sleep(args.duration)
        intervals = [p.notices_every for _, p in phones]
        settle = max(intervals, default=0) + 1
        figures.phase = "settling"  # not counted: each phone's first poll (no copy kept yet) is a full answer
        cpu_before: dict[str, float] = {}
        phones_done = phones_elsewhere(phones, figures, settle, args.duration)
        time.sleep(settle)
        figures.phase = "phones"
        cpu_before = cpu_by_name()
        time.sleep(args.duration)
        cpu_after = cpu_by_name()
        figures.phase = "after"
        phones_done()
        stop.set()
        for thread in referees:
            thread.join(timeout=60)

        d = args.duration
        print(f"\nsign-in and first page ({len(codes)} phones, one after another):")
        for what in ("sign-in", "page"):
            print(line(figures, "warm-up", what, None, None)[0])
        print(
            f"\n{args.referees} referees saving a hand every {args.pace:g} s each (htmx), then with "
            f"{len(phones)} phones polling their pages, {d:g} s each ({load_line()}):"
        )
        ok = True
        for what in ("notices", "table", "clock"):
            if (("phones", what)) in figures.latencies:
                text, good = line(figures, "phones", what, d, 100)
                ok &= good
                print(text)
        alone_text, _ = line(figures, "alone", "save", d, None, "saves alone")
        loaded_text, loaded_good = line(figures, "phones", "save", d, 200, "saves+phones")
        print(alone_text)
        print(loaded_text)
        alone = percentile(figures.latencies.get(("alone", "save"), []), 50)
        loaded = percentile(figures.latencies.get(("phones", "save"), []), 50)
        within = loaded_good and loaded <= 1.2 * alone
        ok &= within
        print(
            f"  saves within 20 % of unloaded (p50) and p95 <= 200 ms, 0 errors: {'ok' if within else 'MISSED'}"
        )
        print(f"  cores used with the phones: {cpu_line(cpu_before, cpu_after, d)}")
        return ok
    finally:
        stack.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="sqlite")
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--phones", type=int, default=0, help="players whose phones poll (0: every player)")
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--duration", type=float, default=15, help="seconds per phase")
    parser.add_argument("--referees", type=int, default=8)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a referee's saves")
    parser.add_argument(
        "--nginx", action="store_true", help="nginx in front, as deployed (deploy/nginx.conf)"
    )
    parser.add_argument(
        "--public-threads",
        type=int,
        default=PUBLIC_THREADS,
        help=f"threads per public worker (default {PUBLIC_THREADS}, as deploy/serve)",
    )
    parser.add_argument("--port", type=int, default=18700)
    parser.add_argument("--quick", action="store_true", help="40 players, 4 sessions, 4 s phases")
    args = parser.parse_args()
    if args.quick:
        args.players, args.sessions, args.duration = 40, 4, 4
    args.phones = args.phones or args.players
    dbs = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    results = [run(db, args, args.port + 10 * n) for n, db in enumerate(dbs)]
    print(
        "\nall targets met"
        if all(results)
        else "\nsome targets missed (see above; figures depend on the load)"
    )


if __name__ == "__main__":
    tempfile.tempdir = tempfile.gettempdir()
    main()
