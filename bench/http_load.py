"""HTTP load on loopback: gunicorn (4 workers) serving a generated event, measured with wrk.

    .venv/bin/python bench/http_load.py [--players 400] [--sessions 10] [--duration 10] [--connections 16]
        [--workers 4] [--threads 2] [--quick]

It generates the event (bench/make_event.py), imports it into DATABASE_URL (a new SQLite file in a temporary
directory when DATABASE_URL is not set; with PostgreSQL the event ``bench-<players>`` is replaced in that
database), starts gunicorn on 127.0.0.1 with config/gunicorn_config.py (DEBUG off, access log off, CACHE_URL
as set, or each worker's own memory), warms every page once, then runs wrk against each page in turn and prints
requests per second and latency percentiles. Pages: /healthz (the floor: no database, no template), the public
standings, a session's results (every table) and a player's page, then the read API's standings, session
results, players and event (``docs/api.md``; its rate limit off: wrk reads from one address). Requests send ``Accept-Encoding: gzip`` as
phones do. ``--quick`` is the CI version (40 players, 3 sessions, 2 s per page). Only 127.0.0.1 is targeted.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only, by design: there is no option to aim this elsewhere
UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * UNITS[unit]


def parse_wrk(output: str) -> dict[str, float]:
    result = {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))}
    for pct in ("50", "75", "90", "99"):
        result[f"p{pct}"] = _ms(re.search(rf"^\s+{pct}%\s+(\S+)", output, re.M).group(1))
    result["requests"] = int(re.search(r"(\d+) requests in", output).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    result["non2xx"] = int(bad.group(1)) if bad else 0
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    result["errors"] = sum(int(g) for g in errors.groups()) if errors else 0
    return result


def fetch(url: str) -> tuple[int, int, int]:
    """Status, body size, gzip size of one GET."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=60) as response:
        body = response.read()
        plain = gzip.decompress(body) if response.headers.get("Content-Encoding") == "gzip" else body
        return response.status, len(plain), len(body)


def _timed(url: str) -> float:
    t0 = time.perf_counter()
    fetch(url)
    return time.perf_counter() - t0


def drain(base: str, floor: float) -> None:
    """Wait until the requests wrk left in flight are done (the server answers /healthz about as fast as when
    idle), so that one page's backlog is not measured as the next page's latency."""
    deadline = time.monotonic() + 120
    quick = 0
    while quick < 3 and time.monotonic() < deadline:
        quick = quick + 1 if _timed(f"{base}/healthz") < 3 * floor + 0.05 else 0
        time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--duration", type=int, default=10, help="seconds of wrk per page")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--wrk-threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=2, help="threads per gunicorn worker")
    parser.add_argument("--port", type=int, default=18100)
    parser.add_argument("--quick", action="store_true", help="40 players, 3 sessions, 2 s per page (CI)")
    args = parser.parse_args()
    if args.quick:
        args.players, args.sessions, args.duration = 40, 3, 2
    if shutil.which("wrk") is None:
        sys.exit("wrk not found: apt-get install wrk")

    python = sys.executable
    work = Path(tempfile.mkdtemp(prefix="mahjong-bench."))
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": HOST,
        "SECURE_SSL_REDIRECT": "0",
        "GUNICORN_BIND": f"{HOST}:{args.port}",
        "WEB_CONCURRENCY": str(args.workers),
        "GUNICORN_THREADS": str(args.threads),
        "GUNICORN_ACCESS_LOG": "/dev/null",
        "GUNICORN_ERROR_LOG": str(work / "gunicorn.log"),
        "STATIC_ROOT": str(work / "static"),
        "LOG_LEVEL": "ERROR",
        "API_RATE": "",  # wrk reads from one address: the API's rate limit is tested (api/tests), not benched
    }
    env.setdefault("DATABASE_URL", f"sqlite:///{work / 'bench.sqlite3'}")
    slug = f"bench-{args.players}"
    event_file = work / "event.json"
    database = env["DATABASE_URL"].split("://")[0]
    cache = env.get("CACHE_URL") or "local memory (per worker)"
    print(f"database {database}, cache {cache}, gunicorn {args.workers} workers x {args.threads} threads")
    load = os.getloadavg()[0]
    cores = os.cpu_count() or 1
    print(f"{cores} cores, load average {load:.2f} at the start", end="")
    print(" (busy machine: figures are low and noisy)" if load > cores / 2 else "")

    def manage(*command: str) -> None:
        subprocess.run(
            [python, "manage.py", *command], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL
        )

    started = time.perf_counter()
    subprocess.run(  # its own summary line goes to standard error
        [
            *(python, "bench/make_event.py", f"--players={args.players}", f"--sessions={args.sessions}"),
            *(f"--slug={slug}", f"--output={event_file}"),
        ],
        cwd=ROOT,
        check=True,
    )
    manage("migrate", "--noinput")
    manage("collectstatic", "--noinput")
    t0 = time.perf_counter()
    manage("import_event", str(event_file), "--replace")
    print(f"import_event: {time.perf_counter() - t0:.1f} s (set-up {time.perf_counter() - started:.1f} s)")

    server = subprocess.Popen(
        [str(Path(python).parent / "gunicorn"), "-c", "config/gunicorn_config.py"], cwd=ROOT, env=env
    )
    base = f"http://{HOST}:{args.port}"
    try:
        for _ in range(120):
            try:
                fetch(f"{base}/healthz")
                break
            except OSError:
                if server.poll() is not None:
                    sys.exit((work / "gunicorn.log").read_text())
                time.sleep(0.25)
        floor = min(_timed(f"{base}/healthz") for _ in range(5))
        pages = [
            ("health (no DB)", "/healthz"),
            ("standings", f"/e/{slug}/standings/"),
            ("results, session 1", f"/e/{slug}/results/1/"),
            ("player page", f"/e/{slug}/players/p1/"),
            # The read API's readers (docs/api.md): the same public read path as the pages.
            ("API standings", f"/api/v1/events/{slug}/standings/"),
            ("API results, s. 1", f"/api/v1/events/{slug}/sessions/1/results/"),
            ("API players", f"/api/v1/events/{slug}/players/"),
            ("API event", f"/api/v1/events/{slug}/"),
        ]
        print(
            f"\nwrk: {args.wrk_threads} threads, {args.connections} connections, {args.duration} s per page"
        )
        header = f"{'page':20} {'first':>8} {'size':>9} {'gzip':>8} {'req/s':>8} {'p50':>8} {'p75':>8} {'p90':>8} {'p99':>8}"
        print(header)
        print("-" * len(header))
        failed = False
        for label, path in pages:
            drain(base, floor)
            t0 = time.perf_counter()
            status, size, compressed = fetch(base + path)  # the first request fills the caches
            first = (time.perf_counter() - t0) * 1000
            for _ in range(args.workers * 2):  # warm every worker's cache and connection
                fetch(base + path)
            output = subprocess.run(
                [
                    *(
                        "wrk",
                        f"-t{args.wrk_threads}",
                        f"-c{args.connections}",
                        f"-d{args.duration}s",
                        "--latency",
                    ),
                    *("--timeout", "30s"),  # a slow page is measured, not counted as a socket error
                    *("-H", "Accept-Encoding: gzip", base + path),
                ],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            r = parse_wrk(output)
            flag = ""
            if status != 200 or r["non2xx"]:
                flag = f"  !! status {status}, {r['non2xx']} non-2xx"
                failed = True
            if r["errors"]:
                flag += f"  ({r['errors']} socket errors/timeouts)"
            print(
                f"{label:20} {first:7.0f}ms {size:>9,} {compressed:>8,} {r['rps']:8.1f} {r['p50']:6.1f}ms "
                f"{r['p75']:6.1f}ms {r['p90']:6.1f}ms {r['p99']:6.1f}ms{flag}"
            )
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        shutil.rmtree(work, ignore_errors=True)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
