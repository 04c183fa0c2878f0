"""Phones reading pages with a pause between them: the readers of bench/entry_load.py when they think.

    .venv/bin/python bench/phone_readers.py PORT SECONDS THINK_MS CONNECTIONS PATH [PATH ...]

Each of CONNECTIONS threads keeps one connection alive (closed after 4 s idle, as gunicorn closes them after
5 s) and asks for the paths in turn from a random start, pausing 0.5 to 1.5 x THINK_MS between two answers, as
a phone whose owner reads the page (or whose page polls). Prints one line as bench/entry_load.py's wrk script
does: ``RESULT requests p50 p95 p99 status_errors socket_errors microseconds``.

Why not wrk's own ``delay()``: with a pause, wrk 4.1 reported a p95 of 500-700 ms for the stored standings that
this client, against the same server at the same pace, measured at 5 ms (p95; max 8 ms): only the closed loop
(no pause) is measured with wrk.
"""

from __future__ import annotations

import http.client
import random
import sys
import threading
import time


def read(port: int, paths: list[str], until: float, think: float, seed: int, out: dict[str, list]) -> None:
    rng = random.Random(seed)
    index = rng.randrange(len(paths))
    connection: http.client.HTTPConnection | None = None
    last = 0.0
    time.sleep(min(rng.uniform(0, think), max(0.0, until - time.monotonic())))  # out of step, as a hall's
    while time.monotonic() < until:
        index = (index + 1) % len(paths)
        if connection is not None and time.monotonic() - last > 4:
            connection.close()
            connection = None
        connection = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        started = time.perf_counter()
        try:
            connection.request("GET", paths[index], headers={"Accept-Encoding": "gzip"})
            response = connection.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            out["socket"].append(1)
            connection.close()
            connection = None
            continue
        out["latencies"].append((time.perf_counter() - started) * 1000)
        if response.status >= 400:
            out["status"].append(response.status)
        last = time.monotonic()
        time.sleep(max(0.0, min(think * rng.uniform(0.5, 1.5), until - last)))  # done at the deadline


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values) or [float("nan")]
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def main() -> None:
    port, seconds, think_ms, connections = (
        int(sys.argv[1]),
        float(sys.argv[2]),
        int(sys.argv[3]),
        int(sys.argv[4]),
    )
    paths = sys.argv[5:]
    out: dict[str, list] = {"latencies": [], "status": [], "socket": []}
    started = time.monotonic()
    until = started + seconds
    threads = [
        threading.Thread(target=read, args=(port, paths, until, think_ms / 1000, n, out), daemon=True)
        for n in range(connections)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    latencies = out["latencies"]
    print(
        f"RESULT {len(latencies)} {percentile(latencies, 50):.3f} {percentile(latencies, 95):.3f} "
        f"{percentile(latencies, 99):.3f} {len(out['status'])} {len(out['socket'])} "
        f"{int((time.monotonic() - started) * 1e6)}"
    )


if __name__ == "__main__":
    main()
