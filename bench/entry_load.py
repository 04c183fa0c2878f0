"""Referees saving hands while a hall of phones reads the public pages: the figures of docs/scale.md.

    .venv/bin/python bench/entry_load.py [--db sqlite|postgres|both] [--players 400] [--sessions 10]
        [--duration 15] [--referees 8] [--readers 64] [--reader-think MS] [--nginx] [--cpus split]
        [--kill 0] [--full-page | --post-only] [--api] [--quick]

Each database gets a throw-away stack on loopback (bench/stack.py: its own PostgreSQL cluster or SQLite file,
its own redis-server): the generated event (bench/make_event.py, the last two sessions seated but unplayed),
the public gunicorn pool (4 workers x 6 threads, 2 of them working at once) and the referees' pool (2 workers
x 2 threads), as deploy/serve runs them behind nginx (deploy/nginx.conf routes /referee/ to the second). Then:

1. throughput alone: wrk with ``--readers`` connections on /healthz (a trivial view), then on the cached
   standings; the ratio is the target "cached standings >= 0.5 of a trivial view";
2. entry alone: ``--referees`` referees (logged in, each a browser with JavaScript on: the hand form posted
   with htmx and answered with the new row, the totals and the next form; the first and the last hand of a
   table load the whole page after it, as htmx is told to; ``--full-page`` for a browser without
   JavaScript, the post and the table page it redirects to; ``--post-only`` for the post alone) save hands
   continuously for ``--duration`` seconds: save p50/p95, a save being every request it takes;
3. entry with readers: the same, while ``--readers`` connections (4 wrk processes, a quarter each) read the
   standings, a session's results (all sessions in turn), players' pages (all players in turn) and the event
   page: p50/p95 and errors per page, the referees' saves beside step 2's, and the share of a core each
   part of the stack used meanwhile. The readers behave as phones: each connection pauses about
   ``--reader-think`` ms (default 1000, 0.5-1.5 x) between pages, as the open standings page polls every
   second (64 readers: 64 pages a second, a 400-player hall's phones at one poll every 6 s each);
   ``--reader-think 0`` is the stress run: each asks again the moment it is answered (a closed loop: the
   readers take every cycle the machine has, whatever serves them);
4. confirmations with readers (10 s): a chief referee withdraws and gives back confirmations at tables of
   the played sessions while the referees save and the readers read, and a phone left open on the standings
   page (polling every second with the ETag it holds, as the page does) says when it shows each change:
   p50/p95/max from the referee's answer (target 2 s); the hall's projector's slides, polled the same way,
   likewise.

``--kill N`` (the fault run) instead kills the referees' gunicorn with SIGKILL (master and workers) N times
during entry and starts it again; referees retry what was not answered. At the end every acknowledged hand
must be stored exactly once and each table's hand numbers must run 1..n without a gap.

Figures are printed against the targets (2 cores, 4 workers, 400 x 10: p95 <= 100 ms per page, ratio >= 0.5,
saves within 20 % of unloaded and p95 <= 200 ms, 0 errors) with the load average: on a shared machine they
are noisy. ``--quick`` is the CI version (40 players, 3 s phases).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack import (
    REFEREE_PASSWORD,
    Browser,
    Stack,
    check_hands,
    cpu_by_name,
    cpu_line,
    event_stack,
    free_base,
    kill_group,
    load_line,
    nginx,
    percentile,
    referee_tables,
    stored_hands,
)

PUBLIC_WORKERS = 4
PUBLIC_THREADS = 6  # as deploy/serve: 2 of them working at once (config/working.py)
PUBLIC_NICE = (
    10  # as deploy/serve, systemd and compose run the public pool: referees' saves get the CPU first
)
PUBLIC_IDLE = True  # SCHED_IDLE, as deploy/serve (PUBLIC_SCHED=idle), systemd and compose run it
STAFF_WORKERS = 2
SAVE = "htmx"  # how a referee's browser saves: "htmx" (JavaScript on), "full-page" (--full-page), "post-only"
SAVE_WORDS = {
    "htmx": ", each save the post with htmx and its small answer (the whole page after a table's first and "
    "last hand)",
    "full-page": ", each save the post and the page it loads after it (no JavaScript)",
    "post-only": ", the post alone",
}
READER_THINK_MS = 1000  # --reader-think: each reader's pause between two pages (0: none, a closed loop)
PUBLIC_CPUS: str | None = None  # --cpus split: "1" (taskset), the public side's core
STAFF_CPUS: str | None = None  # and the referees' core: "0"
PASSWORD = REFEREE_PASSWORD

WRK_SCRIPT = """
local paths = {%s}
local think = %d
local i = math.random(#paths)
wrk.headers["Accept-Encoding"] = "gzip"
request = function()
  i = i %% #paths + 1
  return wrk.format("GET", paths[i])
end
if think > 0 then
  delay = function() return math.random(math.floor(think / 2), math.floor(think * 3 / 2)) end
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %%d %%.3f %%.3f %%.3f %%d %%d %%d\\n", summary.requests,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    e.status, e.connect + e.read + e.write + e.timeout, summary.duration))
end
"""


@dataclass
class Entry:
    """What the referees did: save latencies by phase, acknowledged hands, errors."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    acknowledged: list[tuple[int, int, int]] = field(default_factory=list)
    errors: int = 0
    retries: int = 0
    logged_in: int = 0
    phase: str = "warm-up"
    pace: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)


def wrk(
    port: int, paths: list[str], connections: int, seconds: float, work: Path, name: str, think_ms: int = 0
) -> subprocess.Popen:
    """Readers on ``paths``: wrk in a closed loop; with a pause (``think_ms``), bench/phone_readers.py (wrk's
    ``delay()`` misreports the latencies of paused connections: that file says how)."""
    if think_ms:
        reader = [sys.executable, str(Path(__file__).with_name("phone_readers.py"))]
        command = [*reader, str(port), f"{seconds:g}", str(think_ms), str(connections), *paths]
    else:
        script = work / f"{name}.lua"
        script.write_text(WRK_SCRIPT % (", ".join(json.dumps(p) for p in paths), think_ms))
        command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds:.0f}s", "--timeout", "30s"]
        command += ["-s", str(script), f"http://127.0.0.1:{port}/"]
    return subprocess.Popen(
        [
            # The phones are not on the server: the load generator runs at the public pool's priority,
            # so it does not take the CPU from the referees' pool the way readers on other machines cannot.
            *(("taskset", "-c", PUBLIC_CPUS) if PUBLIC_CPUS else ()),
            *(("chrt", "--idle", "0") if PUBLIC_IDLE else ()),
            *("nice", "-n", str(PUBLIC_NICE)),
            *command,
        ],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own session: cpu_by_name counts it apart
    )


def wrk_result(process: subprocess.Popen) -> dict[str, float]:
    out, _ = process.communicate()
    line = next((row for row in out.splitlines() if row.startswith("RESULT")), None)
    if line is None:
        raise RuntimeError(out)
    requests, p50, p95, p99, status, socket, micros = line.split()[1:]
    seconds = int(micros) / 1e6
    return {
        "rps": int(requests) / seconds,
        "p50": float(p50),
        "p95": float(p95),
        "p99": float(p99),
        "errors": int(status) + int(socket),
    }


def referee(
    index: int, port: int, slug: str, tables: list[tuple[int, int]], entry: Entry, stop: threading.Event
):
    """One referee: logs in, then saves hands table after table (16 each), as fast as the pages answer.
    As a browser does (``SAVE``): with htmx, the post and its answer (the new row and the next form), and
    the whole page when the answer says to load it (a table's first and last hand); without JavaScript,
    the post and the table page it redirects to: the time a referee waits for the next form is all of it."""
    browser = Browser(port)
    while True:
        try:
            browser.login(f"bench-ref{index}", PASSWORD)
            with entry.lock:
                entry.logged_in += 1
            break
        except OSError:
            time.sleep(0.2)
    rng = random.Random(index)
    pace = entry.pace
    next_at = time.monotonic() + rng.random() * pace  # referees out of step, as in a hall
    for session, table in tables:
        number = 1
        while number <= 16 and not stop.is_set():
            if pace:
                time.sleep(max(0.0, next_at - time.monotonic()))
                next_at = max(next_at + pace, time.monotonic())
            winner, discarder = rng.sample(["E", "S", "W", "N"], 2)
            data = {
                "how": "discard",
                "winner": winner,
                "discarder": discarder,
                "fan": str(rng.choice([8, 8, 9, 12, 16, 24])),
            }
            data["expected_number"] = str(number)
            path = f"/referee/{slug}/sessions/{session}/tables/{table}/hands/add/"
            started = time.perf_counter()
            try:
                status, location, _ = browser.request("POST", path, data, htmx=SAVE == "htmx")
                location = location or browser.headers.get("HX-Redirect", "")
            except OSError:  # the server died under us (the fault run): not acknowledged, post it again
                with entry.lock:
                    entry.retries += 1
                time.sleep(0.2)
                continue
            saved = status == (200 if SAVE == "htmx" else 302)
            if saved and location and SAVE != "post-only":
                page = urlsplit(location)
                with contextlib.suppress(OSError):  # saved all the same; the next post says so
                    browser.request("GET", page.path + (f"?{page.query}" if page.query else ""))
            elapsed = (time.perf_counter() - started) * 1000
            with entry.lock:
                if saved:
                    entry.acknowledged.append((session, table, number))
                    entry.latencies.setdefault(entry.phase, []).append(elapsed)
                    number += 1
                elif status == 422:  # refused as a repeat: the earlier, unanswered post was stored
                    number += 1
                else:
                    entry.errors += 1
                    number += 1
        if stop.is_set():
            return


@dataclass
class Watch:
    """What a phone polling the public standings saw: when each different page arrived."""

    changes: list[tuple[float, float, str]] = field(default_factory=list)  # asked at, answered at, digest
    polls: int = 0
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def seen_after(self, moment: float, digest: str) -> tuple[float, float] | None:
        """When the phone first showed a page other than ``digest`` (what it showed at ``moment``, as the
        change was sent), if it has, and when it had asked for it: a poll in flight may show the change
        before its referee has the answer (the lag is then 0)."""
        with self.lock:
            return next(
                ((asked, at) for asked, at, seen in self.changes if at >= moment and seen != digest), None
            )

    def latest(self) -> str:
        with self.lock:
            return self.changes[-1][2] if self.changes else ""


def watch_standings(port: int, path: str, watch: Watch, stop: threading.Event, every: float) -> None:
    """A phone left open on the public standings: the page asks for its table every ``every`` seconds
    (``scoring.live.standings_poll_seconds``), as htmx does, holding the ETag of what it shows (a 304
    keeps it), whatever serves it (nginx's copy, the stored answer, the view)."""
    browser = Browser(port)
    shown, etag = "", ""
    while not stop.is_set():
        asked = time.perf_counter()
        try:
            asked_at = {"X-Bench-Asked": f"{time.time():.3f}"}  # in the public pool's log (BENCH_KEEP_LOGS)
            status, _, text = browser.request("GET", path, htmx=True, etag=etag, headers=asked_at)
        except OSError:
            with watch.lock:
                watch.errors += 1
            time.sleep(every)
            continue
        answered = time.perf_counter()
        if status == 200:
            shown, etag = hashlib.sha256(text.encode()).hexdigest(), browser.headers.get("ETag", "")
        elif status != 304:
            with watch.lock:
                watch.errors += 1
        with watch.lock:
            watch.polls += 1
            if not watch.changes or watch.changes[-1][2] != shown:
                watch.changes.append((asked, answered, shown))
        time.sleep(max(0.0, every - (answered - asked)))


def confirmations(
    port: int,
    slug: str,
    played: int,
    tables: int,
    watch: Watch,
    stop: threading.Event,
    lags: list[float],
    refused: list[str],
    projector: Watch | None = None,
    projector_lags: list[float] | None = None,
) -> None:
    """A chief referee withdrawing and giving back confirmations at tables of the played sessions (marking
    a table complete is a change that withdraws its confirmation, then confirming gives it back; reopening
    withdraws it again and confirming gives it back, leaving the table as imported: confirmed, not marked
    complete. Left unconfirmed, the table would hold the public standings at the session before its own,
    and every change at a later session would never show) while the hall reads;
    each lag is from the referee's answer to the first standings page that shows the change, 10 s at most
    (then counted as 10 s: a missed target, never a hidden one); with ``projector``, the same for the hall's
    projector's slides (``projector_lags``)."""
    browser = Browser(port)
    browser.login("bench-ref0", PASSWORD)
    rng = random.Random(7)
    while not stop.is_set():
        session, table = rng.randint(1, played), rng.randint(1, tables)
        base = f"/referee/{slug}/sessions/{session}/tables/{table}/"
        for action in ("finish", "confirm", "reopen", "confirm"):
            before, sent = watch.latest(), time.perf_counter()
            projected = projector.latest() if projector is not None else ""
            status, location, _ = browser.request("POST", base + f"{action}/", {})
            answered = time.perf_counter()
            if status != 302:
                continue
            _, _, page = browser.request("GET", urlsplit(location).path)  # as the browser: the message
            if 'class="error"' in page:  # refused (said on the page): nothing changed, nothing to see
                refused.append(action)
                continue
            deadline = answered + 10
            seen = None
            while seen is None and time.perf_counter() < deadline and not stop.is_set():
                seen = watch.seen_after(sent, before)
                time.sleep(0.02)
            if seen is None and stop.is_set():
                return  # the step ended while waiting: neither seen nor missed
            lags.append(max(0.0, seen[1] - answered) if seen is not None else 10.0)
            if seen is None:
                print(f"  (not seen within 10 s: {action} at session {session} table {table})", flush=True)
            elif seen[1] - answered > 1.5:  # where a long one went: before the poll, or in it
                print(
                    f"  ({action}: seen {seen[1] - answered:.2f} s after the answer, by a poll asked "
                    f"{seen[0] - answered:+.2f} s after it that took {seen[1] - seen[0]:.2f} s; "
                    f"answered at {time.time() - time.perf_counter() + answered:.3f})",
                    flush=True,
                )
            if projector is not None and projector_lags is not None:
                on_screen = None
                while on_screen is None and time.perf_counter() < deadline and not stop.is_set():
                    on_screen = projector.seen_after(sent, projected)
                    time.sleep(0.02)
                if on_screen is None and stop.is_set():
                    return
                projector_lags.append(max(0.0, on_screen[1] - answered) if on_screen is not None else 10.0)
            time.sleep(rng.uniform(0.2, 0.8))  # the next change comes after this one is seen, or not


def lag_line(where: str, lags: list[float], watch: Watch) -> bool:
    """Print how soon the confirmations reached a watched page (target 2 s, no error); whether it was met."""
    met = bool(lags) and max(lags) <= 2.0 and watch.errors == 0
    print(
        f"  {where} ({watch.polls} answers, {watch.errors} errors), from the referee's answer: "
        f"p50 {percentile(lags, 50):.2f} s  p95 {percentile(lags, 95):.2f} s  "
        f"max {max(lags, default=float('nan')):.2f} s (target <= 2 s: {'ok' if met else 'MISSED'})"
    )
    return met


def server_save_times(log: Path, start: int, end: int) -> list[float]:
    """Milliseconds the referees' pool spent on each hand saved between two offsets of its access log."""
    with log.open("rb") as f:
        f.seek(start)
        lines = f.read(end - start).decode(errors="replace").splitlines()
    return [
        float(parts[3])
        for parts in (line.split() for line in lines)
        if len(parts) == 4
        and parts[0] == "POST"
        and parts[1].endswith("/hands/add/")
        and parts[2] in ("200", "302")
    ]


def wait_logged_in(entry: Entry, referees: int) -> None:
    """Logins hash passwords (slow on purpose): start measuring once every referee is in."""
    deadline = time.monotonic() + 300
    while entry.logged_in < referees and time.monotonic() < deadline:
        time.sleep(0.1)


def make_stack(db: str, args: argparse.Namespace, port: int) -> tuple[Stack, str, int]:
    return event_stack(db, port=port, players=args.players, sessions=args.sessions, referees=args.referees)


def run(db: str, args: argparse.Namespace, port: int) -> bool:
    port = free_base(port)
    print(f"\n=== {db}: {args.players} players x {args.sessions} sessions; {load_line()}")
    t0 = time.perf_counter()
    stack, slug, played = make_stack(db, args, port)
    ok = True
    try:
        stack.gunicorn(
            port,
            workers=PUBLIC_WORKERS,
            threads=PUBLIC_THREADS,
            nice=PUBLIC_NICE,
            idle=PUBLIC_IDLE,
            cpus=PUBLIC_CPUS,
            # kept with the logs: each request's end, milliseconds in the app, and a watching phone's time asked
            access_log=stack.work / "public-access.log" if os.environ.get("BENCH_KEEP_LOGS") else None,
            access_format="%(m)s %(U)s %(s)s %(M)s %(t)s %({x-bench-asked}i)s",
        )
        staff_log = stack.work / "staff-access.log"
        staff = stack.gunicorn(
            port + 1,
            workers=STAFF_WORKERS,
            threads=2,
            name="mahjong-staff",
            access_log=staff_log,
            cpus=STAFF_CPUS,
        )
        if not args.no_worker:  # as deploy/serve: it draws each new public version's standings ahead
            stack.worker("entry", log_level="INFO")
        print(
            f"set-up {time.perf_counter() - t0:.0f} s; public pool {PUBLIC_WORKERS}x{PUBLIC_THREADS} on :{port} ({'SCHED_IDLE, ' if PUBLIC_IDLE else ''}nice {PUBLIC_NICE}), "
            f"referees' pool {STAFF_WORKERS}x2 on :{port + 1}, cache {stack.env.get('CACHE_URL', 'per process')}"
        )
        front, staff_front = port, port + 1
        if args.nginx:  # as deployed: phones and referees through nginx (keep-alive upstreams, routes)
            nginx(
                stack,
                port + 2,
                public=port,
                staff=port + 1,
                unix=args.nginx == "unix",
                cpus=PUBLIC_CPUS,
                idle=args.nginx_sched == "idle",
            )
            front = staff_front = port + 2
            print(
                f"nginx in front on :{front} (deploy/nginx.conf's upstreams, routes and one-second public page cache, "
                f"SCHED_IDLE as deploy/systemd/nginx-idle.conf, no TLS; to the pools over "
                f"{args.nginx.upper() if args.nginx == 'tcp' else 'Unix sockets'}); the trivial view (/healthz) "
                "always reaches the app, the pages mostly come from nginx's cache"
            )
        tables = args.players // 4
        pages = {
            "standings": [f"/e/{slug}/standings/"],
            "results": [f"/e/{slug}/results/{n}/" for n in range(1, args.sessions + 1)],
            "player": [f"/e/{slug}/players/p{n}/" for n in range(1, args.players + 1)],
            "event": [f"/e/{slug}/"],
        }
        if args.api:  # the read API's readers beside the phones (docs/api.md): one more quarter of readers
            pages["api"] = [
                f"/api/v1/events/{slug}/standings/",
                f"/api/v1/events/{slug}/",
                f"/api/v1/events/{slug}/players/",
                *(f"/api/v1/events/{slug}/sessions/{n}/results/" for n in range(1, args.sessions + 1)),
            ]
        browser = Browser(front)
        for paths in pages.values():  # warm: every page once
            for path in paths:
                browser.request("GET", path)
        if args.kill:
            return fault_run(stack, staff, slug, played, tables, args, port)

        # 1. throughput alone
        d = args.duration
        trivial = wrk_result(wrk(front, ["/healthz"], args.readers, d, stack.work, "trivial"))
        standings = wrk_result(wrk(front, pages["standings"], args.readers, d, stack.work, "standings"))
        ratio = standings["rps"] / trivial["rps"]
        print(f"\nalone, {args.readers} connections, {d} s each ({load_line()}):")
        print(
            f"  trivial view   {trivial['rps']:8.0f} req/s  p50 {trivial['p50']:6.1f} ms  p95 {trivial['p95']:6.1f} ms"
        )
        print(
            f"  standings      {standings['rps']:8.0f} req/s  p50 {standings['p50']:6.1f} ms  p95 {standings['p95']:6.1f} ms"
        )
        print(f"  ratio {ratio:.2f} (target >= 0.5) {'ok' if ratio >= 0.5 else 'MISSED'}")
        ok &= ratio >= 0.5

        # 2. entry alone, 3. entry with readers
        entry = Entry(pace=args.pace)
        stop = threading.Event()
        assignment = referee_tables(played + 1, args.sessions, tables, args.referees)
        threads = [
            threading.Thread(
                target=referee, args=(i, staff_front, slug, assignment[i], entry, stop), daemon=True
            )
            for i in range(args.referees)
        ]
        for thread in threads:
            thread.start()
        wait_logged_in(entry, args.referees)
        time.sleep(1)
        # The session's first hands put it "in play" on the standings and event pages: drawn again once, now,
        # as in a hall at a session's start, rather than inside the readers' ten seconds.
        for name in ("standings", "event"):
            browser.request("GET", pages[name][0])
        time.sleep(2)
        entry.phase = "alone"
        alone_from = staff_log.stat().st_size
        time.sleep(d)
        entry.phase = "readers"
        readers_from = staff_log.stat().st_size
        cpu_before, cpu_at = cpu_by_name(), time.monotonic()
        share = max(1, args.readers // 4)
        read = pages if args.readers_on == "pages" else {"trivial": ["/healthz"]}  # diagnosis: CPU only
        readers = {
            name: wrk(front, paths, share, d, stack.work, name, think_ms=READER_THINK_MS)
            for name, paths in read.items()
        }
        time.sleep(max(0.0, d - 1))  # wrk's own time is counted while it runs
        cpu_after, cpu_seconds = cpu_by_name(), time.monotonic() - cpu_at
        figures = {name: wrk_result(process) for name, process in readers.items()}
        entry.phase = "after"
        readers_to = staff_log.stat().st_size
        lags, watch, projector_lags, projector = confirmation_lags(
            front, staff_front, slug, played, tables, pages, share, args, stack.work
        )
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        print(
            f"\n{args.referees} referees saving "
            + (f"a hand every {args.pace:g} s each" if args.pace else "as fast as answered (closed loop)")
            + SAVE_WORDS[SAVE]
            + f" (pool :{port + 1}), then with {share * 4} readers "
            + (f"pausing ~{READER_THINK_MS} ms between pages " if READER_THINK_MS else "")
            + f"(pool :{port}), {d} s each ({load_line()}):"
        )
        for name, r in figures.items():
            good = r["p95"] <= 100 and r["errors"] == 0 and r["rps"] > 0
            ok &= good
            print(
                f"  {name:10} {r['rps']:7.0f} req/s  p50 {r['p50']:6.1f} ms  p95 {r['p95']:6.1f} ms  "
                f"p99 {r['p99']:6.1f} ms  errors {r['errors']}  (p95 <= 100 ms: {'ok' if good else 'MISSED'})"
            )
        alone, loaded = entry.latencies.get("alone", []), entry.latencies.get("readers", [])
        a50, a95, l50, l95 = (
            percentile(alone, 50),
            percentile(alone, 95),
            percentile(loaded, 50),
            percentile(loaded, 95),
        )
        print(f"  saves alone    {len(alone) / d:6.1f}/s  p50 {a50:6.1f} ms  p95 {a95:6.1f} ms")
        print(
            f"  saves + readers{len(loaded) / d:6.1f}/s  p50 {l50:6.1f} ms  p95 {l95:6.1f} ms  errors {entry.errors}"
        )
        server = {
            phase: server_save_times(staff_log, start, end)
            for phase, start, end in (
                ("alone", alone_from, readers_from),
                ("readers", readers_from, readers_to),
            )
        }
        print(
            "  the referees' pool's own time per save (its access log): "
            + ", ".join(
                f"{phase} p50 {percentile(times, 50):.1f} ms p95 {percentile(times, 95):.1f} ms"
                for phase, times in server.items()
            )
        )
        print(f"  cores used with readers: {cpu_line(cpu_before, cpu_after, cpu_seconds)}")
        within = l50 <= 1.2 * a50 and l95 <= 200 and entry.errors == 0
        ok &= within
        print(
            f"  saves within 20 % of unloaded (p50) and p95 <= 200 ms, 0 errors: {'ok' if within else 'MISSED'}"
        )
        print(
            f"\n{len(lags)} confirmations withdrawn or given at tables of played sessions while the referees save "
            f"and the readers read ({args.confirm_seconds:g} s), a phone left open on the standings page and the "
            f"projector's slides, each polled every {STANDINGS_POLL_SECONDS:g} s with the ETag it holds:"
        )
        ok &= lag_line("to the open standings", lags, watch)
        print(f"  each, in seconds: {' '.join(f'{lag:.2f}' for lag in lags)}")
        ok &= lag_line("to the projector's slides", projector_lags, projector)
        worker_log = read_log(stack.work / "worker-entry.log")
        for part, words in (("first", "the site's language"), ("rest", "the places and the other languages")):
            drawn = [
                (float(ms), float(cpu)) for name, ms, cpu in DRAWN_AHEAD.findall(worker_log) if name == part
            ]
            if drawn:
                took, used = [ms for ms, _ in drawn], [cpu for _, cpu in drawn]
                print(
                    f"  the worker drew {words} of {len(drawn)} public versions ahead of the readers: p50 "
                    f"{percentile(took, 50):.0f} ms  max {max(took):.0f} ms each, of which CPU p50 "
                    f"{percentile(used, 50):.0f} ms"
                )
        first = [float(ms) for ms in FIRST_LANGUAGE.findall(worker_log)]
        if first:
            left = worker_log.count(": a newer version")
            print(
                f"  the site's language, which the open pages wait for, drawn within p50 {percentile(first, 50):.0f} "
                f"ms  max {max(first):.0f} ms of the worker seeing the version; {left} drawings left for a newer one"
            )
        return ok
    finally:
        stack.stop()


CONFIRM_SECONDS = 10.0  # step 4's default length (--confirm-seconds)
DRAWN_AHEAD = re.compile(
    r"drawn ahead at version \d+ \((\w+)\) in (\d+) ms \((\d+) ms of CPU"
)  # standings_page.py
FIRST_LANGUAGE = re.compile(r"the site's language in (\d+) ms")


def read_log(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


STANDINGS_POLL_SECONDS = 1.0  # as the page polls (scoring/live.py STANDINGS_POLL_SECONDS)


def confirmation_lags(
    front: int,
    staff_front: int,
    slug: str,
    played: int,
    tables: int,
    pages: dict[str, list[str]],
    share: int,
    args: argparse.Namespace,
    work: Path,
) -> tuple[list[float], Watch, list[float], Watch]:
    """Step 4: how soon a confirmation reaches the public standings and the hall's projector with the hall
    reading and the referees saving: a phone left open on the standings and the projector's slides, each
    polling every second with the ETag of what it shows."""
    watch, lags, refused, stop = Watch(), [], [], threading.Event()
    projector, projector_lags = Watch(), []
    watchers = [
        threading.Thread(
            target=watch_standings, args=(front, path, seen, stop, STANDINGS_POLL_SECONDS), daemon=True
        )
        for path, seen in ((f"/e/{slug}/standings/", watch), (f"/e/{slug}/projector/", projector))
    ]
    for watcher in watchers:
        watcher.start()
    readers = [
        wrk(front, paths, share, args.confirm_seconds, work, f"confirm-{name}", think_ms=READER_THINK_MS)
        for name, paths in pages.items()
    ]
    confirmer = threading.Thread(
        target=confirmations,
        args=(staff_front, slug, played, tables, watch, stop, lags, refused, projector, projector_lags),
        daemon=True,
    )
    confirmer.start()
    time.sleep(args.confirm_seconds)
    stop.set()
    confirmer.join(timeout=15)
    for watcher in watchers:
        watcher.join(timeout=5)
    for process in readers:
        process.communicate()
    if refused:
        print(f"  (refused, so not measured: {', '.join(refused)})")
    return lags, watch, projector_lags, projector


def fault_run(
    stack: Stack, staff, slug: str, played: int, tables: int, args: argparse.Namespace, port: int
) -> bool:
    entry = Entry()
    stop = threading.Event()
    assignment = referee_tables(played + 1, args.sessions, tables, args.referees)
    threads = [
        threading.Thread(target=referee, args=(i, port + 1, slug, assignment[i], entry, stop), daemon=True)
        for i in range(args.referees)
    ]
    for thread in threads:
        thread.start()
    wait_logged_in(entry, args.referees)
    gap = args.duration / (args.kill + 1)
    for kill in range(args.kill):
        time.sleep(gap)
        kill_group(staff)
        print(
            f"  kill -9 #{kill + 1} of the referees' gunicorn after {len(entry.acknowledged)} acknowledged hands"
        )
        time.sleep(0.5)
        staff_log = stack.work / "staff-access.log"
        staff = stack.gunicorn(
            port + 1, workers=STAFF_WORKERS, threads=2, name="mahjong-staff", access_log=staff_log
        )
    time.sleep(gap)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    stored_set = stored_hands(stack, slug, played)
    lost, duplicates, gaps = check_hands(entry.acknowledged, stored_set)
    print(
        f"  {len(entry.acknowledged)} hands acknowledged, {len(stored_set)} stored, {entry.retries} posts retried, "
        f"{entry.errors} errors; lost {len(lost)}, stored twice {duplicates}, tables with gaps {len(gaps)} "
        f"({load_line()})"
    )
    ok = not lost and not duplicates and not gaps and entry.errors == 0
    print(f"  every acknowledged hand stored exactly once, gap-free: {'ok' if ok else 'FAILED'}")
    return ok


def main() -> None:
    global PUBLIC_NICE, PUBLIC_IDLE, PUBLIC_THREADS, PUBLIC_CPUS, STAFF_CPUS, READER_THINK_MS, SAVE
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--duration", type=float, default=15, help="seconds per phase")
    parser.add_argument("--referees", type=int, default=8)
    parser.add_argument("--readers", type=int, default=64)
    parser.add_argument("--kill", type=int, default=0, help="fault run: kill -9 the referees' pool N times")
    parser.add_argument(
        "--pace",
        type=float,
        default=1.0,
        help="each referee saves at most one hand every PACE seconds (8 referees at 1 s: 8 saves/s, "
        "16 times a 400-player hall); 0: as fast as the server answers (closed loop, a stress run)",
    )
    parser.add_argument(
        "--public-nice",
        type=int,
        default=PUBLIC_NICE,
        help=f"CPU priority of the public pool and of the readers' wrk (default {PUBLIC_NICE}, as deploy/serve)",
    )
    parser.add_argument(
        "--api",
        action="store_true",
        help="step 3 adds a quarter more readers on the read API (/api/v1/: standings, event, players, "
        "each session's results) beside the pages' readers",
    )
    parser.add_argument(
        "--readers-on",
        choices=["pages", "trivial"],
        default="pages",
        help="trivial: the readers of step 3 read /healthz only (is it the CPU or the pages' own work?)",
    )
    parser.add_argument(
        "--public-sched",
        choices=["idle", "other"],
        default="idle",
        help="scheduling policy of the public pool and the readers' wrk (default idle, as deploy/serve; "
        "other: the normal policy at --public-nice, to compare)",
    )
    parser.add_argument(
        "--public-threads",
        type=int,
        default=PUBLIC_THREADS,
        help=f"threads per public worker (default {PUBLIC_THREADS}, as deploy/serve)",
    )
    parser.add_argument(
        "--nginx",
        nargs="?",
        const="tcp",
        choices=["tcp", "unix"],
        help="readers and referees through nginx in front of the pools, as deployed (deploy/nginx.conf); "
        "unix: nginx reaches the pools over Unix sockets",
    )
    parser.add_argument(
        "--reader-think",
        type=int,
        default=1000,
        metavar="MS",
        help="each reader connection pauses about MS milliseconds (0.5-1.5 x) between pages, as a phone "
        "polling the standings page (default 1000); 0: none, every connection asks again the moment it is "
        "answered (a closed loop that keeps both cores busy, the stress run)",
    )
    parser.add_argument(
        "--cpus",
        choices=["shared", "split"],
        default="shared",
        help="split: the referees' pool (and this script's referees) on core 0, nginx, the public pool and "
        "the readers' wrk on core 1 (taskset); a diagnosis, not a deployment (docs/scale.md: nginx serves both)",
    )
    saving = parser.add_mutually_exclusive_group()
    saving.add_argument(
        "--full-page",
        action="store_true",
        help="a referee's browser without JavaScript: the post, then the table page it redirects to (by "
        "default, as htmx: the post answered with only what changed)",
    )
    saving.add_argument(
        "--post-only",
        action="store_true",
        help="a save is the post alone (by default, as a browser with htmx; --full-page without JavaScript)",
    )
    parser.add_argument(
        "--nginx-sched",
        choices=["idle", "other"],
        default="idle",
        help="nginx's scheduling policy (default idle, as deploy/systemd/nginx-idle.conf; other: normal)",
    )
    parser.add_argument(
        "--no-worker",
        action="store_true",
        help="no background worker: the first reader draws each new public version's standings (by default "
        "the worker draws them ahead, as deploy/serve runs it)",
    )
    parser.add_argument(
        "--confirm-seconds",
        type=float,
        default=CONFIRM_SECONDS,
        help=f"how long step 4 withdraws and gives confirmations (default {CONFIRM_SECONDS:g}; longer: more of them)",
    )
    parser.add_argument("--port", type=int, default=18300)
    parser.add_argument("--quick", action="store_true", help="CI: 40 players, 4 sessions, 3 s phases")
    args = parser.parse_args()
    PUBLIC_NICE, PUBLIC_IDLE, PUBLIC_THREADS = (
        args.public_nice,
        args.public_sched == "idle",
        args.public_threads,
    )
    READER_THINK_MS = args.reader_think
    SAVE = "post-only" if args.post_only else "full-page" if args.full_page else "htmx"
    if args.cpus == "split":
        PUBLIC_CPUS, STAFF_CPUS = "1", "0"
        os.sched_setaffinity(0, {0})  # the referees' threads: on their pool's core
    if args.quick:
        args.players, args.sessions, args.duration = 40, 4, 3
    dbs = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    results = [run(db, args, args.port + 10 * n) for n, db in enumerate(dbs)]
    print(
        "\nall targets met"
        if all(results)
        else "\nsome targets missed (see above; figures depend on the load)"
    )
    if args.kill and not all(results):
        sys.exit(1)  # data safety is not a matter of load: a lost hand fails the run


if __name__ == "__main__":
    tempfile.tempdir = tempfile.gettempdir()
    main()
