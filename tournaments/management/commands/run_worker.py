"""``manage.py run_worker``: the background worker process (tournaments/worker.py)."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.worker import work, worker_name


class Command(BaseCommand):
    help = "Run queued background jobs (seating plans, long prints; BACKGROUND_WORKER=1) until stopped; SIGTERM lets the current job finish."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--poll", type=float, default=1.0, help="seconds between looks for work (default 1)"
        )
        parser.add_argument("--once", action="store_true", help="run what is waiting, then exit")
        parser.add_argument("--name", default="", help="this worker's name (default host:pid)")

    def handle(self, *args: Any, **options: Any) -> None:
        stop = threading.Event()

        def finish(signum: int, frame: Any) -> None:
            stop.set()  # the current job runs to its end (systemd waits TimeoutStopSec)

        signal.signal(signal.SIGTERM, finish)
        signal.signal(signal.SIGINT, finish)
        name = options["name"] or worker_name()
        self.stdout.write(f"worker {name}: waiting for jobs (poll {options['poll']} s)")
        count = work(worker=name, poll=options["poll"], stop=stop, once=options["once"])
        self.stdout.write(f"worker {name}: stopped after {count} job(s)")
