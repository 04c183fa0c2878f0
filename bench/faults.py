"""Faults during entry: what readers and referees see, and what is lost.

    .venv/bin/python bench/faults.py [--quick] [--db postgres|sqlite] [--players 400] [--referees 8]
        [--readers 16] [--redis-down 10] [--settle 5]

A throw-away stack on loopback (bench/stack.py: its own PostgreSQL cluster or SQLite file, its own
redis-server, the public gunicorn pool, the referees' pool and the background worker, as deploy/serve runs
them). While ``--referees`` referees save hands as browsers do (logged in through the form, posting the hand
form with its hidden ``expected_number``, one hand a second each) and ``--readers`` readers read the public
pages (standings, results, players, event; a short pause between pages), one fault at a time:

1. Redis stopped for ``--redis-down`` seconds, then started again (empty); then Redis hung (SIGSTOP: it
   accepts connections and never answers) as long, then let go (SIGCONT);
2. PostgreSQL restarted (``pg_ctl restart -m fast`` of the bench's own cluster: every connection dropped);
3. kill -9 of the public pool, of the referees' pool (master and workers) and of the worker, one at a time,
   each started again at once as a supervisor would; the time from the kill until it answers (its
   ``/healthz``; the worker: its "waiting for jobs" line) is printed.

Each fault's phase lasts until ``--settle`` seconds after it is over. Per phase: the readers' answers by
status ("no answer": connection refused or cut), and the referees' saves: acknowledged (302), refused with
the "Not saved" message (503; the referee saves again a second later, as the page asks), repeats (422: an
earlier post that got no answer was stored), no answer (retried) and errors (anything else).

The data check at the end: every acknowledged hand stored exactly once, each table's hand numbers 1..n
without a gap, no refused save found stored (a retry of a refused save must be stored, not answered "already
entered"), and a refused save never retried absent. Exit 1 if a hand was lost or stored twice, a table has a
gap, a refused save was stored, a reader saw a 500 while Redis was stopped, hung or just back, or a referee's save
met an error instead of being stored or refused with the message.
``--quick``: 40 players, 5 referees, 8 readers, Redis down 4 s, 3 s to settle (about a minute).
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack import (
    HOST,
    REFEREE_PASSWORD,
    Browser,
    Hand,
    Stack,
    check_hands,
    event_stack,
    free_base,
    kill_group,
    load_line,
    referee_tables,
    stored_hands,
)

PUBLIC_WORKERS, PUBLIC_THREADS, PUBLIC_NICE = 4, 6, 10  # as deploy/serve runs them (SCHED_IDLE too)
STAFF_WORKERS = 2
NOT_SAVED = "Not saved: the database did not answer"  # templates/503.html, for a POST
BUSY = "The site is busy"  # the same, for a GET
REDIS_PHASES = ("redis stopped", "redis back", "redis hung", "redis back after hang")


@dataclass
class Record:
    """What readers and referees met, counted by the phase in which each request started."""

    phase: str = "set-up"
    readers: dict[str, Counter[str]] = field(default_factory=dict)
    referees: dict[str, Counter[str]] = field(default_factory=dict)
    acknowledged: list[Hand] = field(default_factory=list)
    refused: list[Hand] = field(default_factory=list)
    refused_then_stored: list[Hand] = field(default_factory=list)  # "already entered" on the retry
    reader_503_not_busy: int = 0  # a reader's 503 without the "busy" page
    logged_in: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, who: str, phase: str, outcome: str) -> None:
        with self.lock:
            getattr(self, who).setdefault(phase, Counter())[outcome] += 1


def reader(port: int, pages: list[str], record: Record, stop: threading.Event, seed: int) -> None:
    """A phone reading public pages one after another with a short pause, counting answers by status."""
    rng = random.Random(seed)
    conn: http.client.HTTPConnection | None = None
    while not stop.is_set():
        phase = record.phase
        try:
            if conn is None:
                conn = http.client.HTTPConnection(HOST, port, timeout=15)
            conn.request("GET", rng.choice(pages), headers={"Host": HOST, "Accept-Encoding": "gzip"})
            response = conn.getresponse()
            body = response.read()
            if response.getheader("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            record.count("readers", phase, str(response.status))
            if response.status == 503 and BUSY.encode() not in body:
                with record.lock:
                    record.reader_503_not_busy += 1
            if response.getheader("Connection", "").lower() == "close":
                conn.close()
                conn = None
        except (OSError, http.client.HTTPException) as error:
            record.count("readers", phase, f"no answer ({type(error).__name__})")
            if conn is not None:
                conn.close()
            conn = None
            time.sleep(0.2)
        time.sleep(rng.uniform(0.05, 0.15))


def referee(
    index: int, port: int, slug: str, tables: list[tuple[int, int]], record: Record, stop: threading.Event
) -> None:
    """A referee saving a hand a second, table after table (16 hands each); a save that got no answer, an
    error or the "Not saved" page is posted again (the hidden ``expected_number`` makes a repeat harmless)."""
    browser = Browser(port)
    while True:
        try:
            browser.login(f"bench-ref{index}", REFEREE_PASSWORD)
            break
        except OSError:
            time.sleep(0.2)
    with record.lock:
        record.logged_in += 1
    rng = random.Random(index)
    next_at = time.monotonic() + rng.random()
    for session, table in tables:
        number = 1
        last = "new"  # what the previous post of this hand met: new, refused, no answer, error
        while number <= 16 and not stop.is_set():
            time.sleep(max(0.0, next_at - time.monotonic()))
            next_at = max(next_at + 1.0, time.monotonic())
            winner, discarder = rng.sample(["E", "S", "W", "N"], 2)
            data = {
                "how": "discard",
                "winner": winner,
                "discarder": discarder,
                "fan": str(rng.choice([8, 8, 9, 12, 16, 24])),
                "expected_number": str(number),
            }
            hand = (session, table, number)
            phase = record.phase
            try:
                status, _, text = browser.request(
                    "POST", f"/referee/{slug}/sessions/{session}/tables/{table}/hands/add/", data
                )
            except OSError as error:  # the pool died under us: not acknowledged, post it again
                record.count("referees", phase, f"no answer ({type(error).__name__}; posted again)")
                last = "no answer"
                time.sleep(0.2)
                continue
            if status == 302:
                record.count("referees", phase, "acknowledged")
                with record.lock:
                    record.acknowledged.append(hand)
                number, last = number + 1, "new"
            elif status == 503 and NOT_SAVED in text:
                record.count("referees", phase, "refused: not saved (503)")
                with record.lock:
                    record.refused.append(hand)
                last = "refused"
            elif status == 422 and last != "new":  # "already entered": an earlier post of it was stored
                record.count("referees", phase, f"already entered after {last}")
                if last == "refused":
                    with record.lock:
                        record.refused_then_stored.append(hand)
                number, last = number + 1, "new"
            else:
                record.count("referees", phase, f"error {status}")
                last = "error"
                time.sleep(0.5)
        if stop.is_set():
            return


def wait_answers(port: int, started: float, limit: float = 60) -> float:
    """Seconds from ``started`` until ``/healthz`` on ``port`` answers 200."""
    while time.monotonic() - started < limit:
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return time.monotonic() - started
        except OSError:
            pass
        time.sleep(0.05)
    return float("inf")


def wait_worker(log: Path, started: float, limit: float = 60) -> float:
    """Seconds from ``started`` until the worker's log says it waits for jobs."""
    while time.monotonic() - started < limit:
        if log.exists() and b"waiting for jobs" in log.read_bytes():
            return time.monotonic() - started
        time.sleep(0.05)
    return float("inf")


def run(args: argparse.Namespace) -> bool:
    port = free_base(args.port)
    print(f"=== faults during entry, {args.db}: {args.players} players; {load_line()}")
    t0 = time.perf_counter()
    stack, slug, played = event_stack(
        args.db, port=port, players=args.players, sessions=4, referees=args.referees
    )
    stack.env["PYTHONUNBUFFERED"] = "1"  # the worker's "waiting for jobs" line, at once
    record = Record()
    stop = threading.Event()
    threads: list[threading.Thread] = []
    restarts: dict[str, float] = {}
    try:

        def start_public() -> subprocess.Popen:
            return stack.gunicorn(
                port, workers=PUBLIC_WORKERS, threads=PUBLIC_THREADS, nice=PUBLIC_NICE, idle=True
            )

        def start_staff() -> subprocess.Popen:
            return stack.gunicorn(port + 1, workers=STAFF_WORKERS, threads=2, name="mahjong-staff")

        public, staff = start_public(), start_staff()
        worker = stack.worker("w1")
        tables = args.players // 4
        pages = [
            f"/e/{slug}/standings/",
            f"/e/{slug}/",
            *(f"/e/{slug}/results/{n}/" for n in range(1, 5)),
            *(f"/e/{slug}/players/p{n}/" for n in range(1, args.players + 1)),
        ]
        print(
            f"set-up {time.perf_counter() - t0:.0f} s; public pool {PUBLIC_WORKERS}x{PUBLIC_THREADS} on :{port} "
            f"(SCHED_IDLE, nice {PUBLIC_NICE}), referees' pool {STAFF_WORKERS}x2 on :{port + 1}, the worker, "
            f"cache {stack.env.get('CACHE_URL')}; {args.referees} referees at a hand a second each, "
            f"{args.readers} readers pausing 50-150 ms between pages"
        )
        assignment = referee_tables(played + 1, 4, tables, args.referees)
        threads = [
            threading.Thread(
                target=referee, args=(i, port + 1, slug, assignment[i], record, stop), daemon=True
            )
            for i in range(args.referees)
        ] + [
            threading.Thread(target=reader, args=(port, pages, record, stop, i), daemon=True)
            for i in range(args.readers)
        ]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 120
        while record.logged_in < args.referees and time.monotonic() < deadline:
            time.sleep(0.1)
        settle = args.settle

        record.phase = "steady"
        time.sleep(settle)

        begin(record, "redis stopped")
        stack.stop_redis()
        time.sleep(args.redis_down)
        record.phase = "redis back"
        stack.start_redis()
        time.sleep(settle)

        # A Redis that hangs (a stalled machine, a full disk) rather than refusing: the app's 1 s socket timeout
        begin(record, "redis hung")
        assert stack.redis is not None
        stack.redis.send_signal(signal.SIGSTOP)
        time.sleep(args.redis_down)
        record.phase = "redis back after hang"
        stack.redis.send_signal(signal.SIGCONT)
        time.sleep(settle)

        if stack.pg_data is not None:
            begin(record, "postgres restart")
            restarts["postgres (pg_ctl restart)"] = stack.restart_postgres()
            restarts["postgres: public pool answers"] = wait_answers(port, time.monotonic())
            time.sleep(settle)
        else:
            print("SQLite: no database server to restart")

        begin(record, "public pool killed")
        killed = time.monotonic()
        kill_group(public)
        public = start_public()
        restarts["public pool"] = wait_answers(port, killed)
        time.sleep(settle)

        begin(record, "referees' pool killed")
        killed = time.monotonic()
        kill_group(staff)
        staff = start_staff()
        restarts["referees' pool"] = wait_answers(port + 1, killed)
        time.sleep(settle)

        begin(record, "worker killed")
        alive = worker.poll() is None  # through Redis and PostgreSQL
        killed = time.monotonic()
        worker.kill()
        worker.wait()
        worker = stack.worker("w2")  # its own log: worker-w2.log
        restarts["worker"] = wait_worker(stack.work / "worker-w2.log", killed)
        time.sleep(settle)
        record.phase = "after"
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        return report(stack, slug, played, record, restarts, alive)
    finally:
        stop.set()
        stack.stop()


def begin(record: Record, phase: str) -> None:
    """A new phase, then half a second before its fault: a request in flight when the fault strikes is
    counted under the fault, not under the phase before."""
    record.phase = phase
    time.sleep(0.5)


def report(
    stack: Stack, slug: str, played: int, record: Record, restarts: dict[str, float], worker_alive: bool
) -> bool:
    ok = True
    print(f"\nper phase ({load_line()}):")
    phases = [p for p in record.readers if p not in ("set-up", "after")]
    phases += [p for p in record.referees if p not in phases and p not in ("set-up", "after")]
    for phase in phases:
        reads = record.readers.get(phase, Counter())
        saves = record.referees.get(phase, Counter())
        print(f"  {phase}:")
        print("    readers  " + ", ".join(f"{k} {v}" for k, v in sorted(reads.items())))
        print("    referees " + (", ".join(f"{k} {v}" for k, v in sorted(saves.items())) or "-"))
        if phase in REDIS_PHASES and reads["500"]:
            ok = False
            print(f"    FAILED: {reads['500']} HTTP 500 to readers with Redis away")
        errors = sum(v for k, v in saves.items() if k.startswith("error"))
        if errors:
            ok = False
            print(
                f"    FAILED: {errors} saves met an error instead of being stored or refused with a message"
            )
    others = sum(c["500"] for p, c in record.readers.items() if p not in REDIS_PHASES)
    print(
        f"  readers' 500s outside the Redis fault: {others}; 503s without the 'busy' page: {record.reader_503_not_busy}"
    )
    print("back after:")
    for name, seconds in restarts.items():
        print(f"  {name:32} {seconds:5.1f} s  (<= 10 s: {'ok' if seconds <= 10 else 'MISSED'})")
    print(f"  the worker lived through the Redis and database faults: {'yes' if worker_alive else 'NO'}")

    stored = stored_hands(stack, slug, played)
    lost, duplicates, gaps = check_hands(record.acknowledged, stored)
    acknowledged = set(record.acknowledged)
    refused = set(record.refused)
    retried = refused & acknowledged
    never = refused - acknowledged - set(record.refused_then_stored)
    never_stored = never & set(stored)
    print(
        f"data: {len(record.acknowledged)} hands acknowledged, {len(stored)} stored; lost {len(lost)}, stored twice "
        f"{duplicates}, tables with gaps {len(gaps)}; {len(record.refused)} posts of {len(refused)} hands refused "
        "with the message: "
        f"{len(retried)} hands stored once when saved again, {len(record.refused_then_stored)} found already stored "
        f"(refused yet stored), {len(never)} never saved again of which {len(never_stored)} stored"
    )
    good = not lost and not duplicates and not gaps and not record.refused_then_stored and not never_stored
    print(
        f"every acknowledged hand stored once, gap-free, every refused save not stored: {'ok' if good else 'FAILED'}"
    )
    return ok and good


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--referees", type=int, default=8)
    parser.add_argument("--readers", type=int, default=16)
    parser.add_argument("--redis-down", type=float, default=10, help="seconds Redis stays stopped")
    parser.add_argument(
        "--settle", type=float, default=5, help="seconds of entry before and after each fault"
    )
    parser.add_argument("--port", type=int, default=18700)
    parser.add_argument(
        "--quick", action="store_true", help="CI: 40 players, 5 referees, 8 readers, short phases"
    )
    args = parser.parse_args()
    if args.quick:
        args.players, args.referees, args.readers, args.redis_down, args.settle = 40, 5, 8, 4, 3
    ok = run(args)
    print("\nno 500 with Redis away, every save stored once or refused with a message" if ok else "\nFAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    tempfile.tempdir = tempfile.gettempdir()
    main()
