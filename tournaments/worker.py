"""The background worker: a separate process (``manage.py run_worker``) that runs the seating jobs the
web processes queue (``BACKGROUND_WORKER=1``), so a seating search never runs inside a web worker and a
job survives a restart of the web servers.

Claiming is one short transaction: the oldest queued job, or a running one whose worker stopped beating,
is taken with ``select_for_update(skip_locked=True)`` on PostgreSQL (two workers never take the same
row) and under SQLite's immediate transactions (one writer at a time) elsewhere. While it runs, the job's
``heartbeat_at`` is renewed every few seconds; a job whose heartbeat is older than ``STALE_SECONDS``
(its worker was killed) is taken over by another worker, at most ``MAX_ATTEMPTS`` times. A worker
that lost its job (it stalled longer than that) records nothing (``run_seating_job(worker=...)``).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from datetime import timedelta

from django.db import DatabaseError, close_old_connections, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from tournaments.models import SeatingJob

HEARTBEAT_SECONDS = 3.0
STALE_SECONDS = 20.0
MAX_ATTEMPTS = 3

log = logging.getLogger(__name__)


def worker_name() -> str:
    """Host and process id: unique among the live workers of one database."""
    return f"{socket.gethostname()}:{os.getpid()}"


def claim_job(worker: str) -> int | None:
    """Take the next job for ``worker`` (its id), or None when there is nothing to do."""
    stale = timezone.now() - timedelta(seconds=STALE_SECONDS)
    waiting = Q(status=SeatingJob.Status.QUEUED) | Q(
        status=SeatingJob.Status.RUNNING, heartbeat_at__lt=stale, attempts__gt=0
    )
    with transaction.atomic():
        job = (
            SeatingJob.objects.select_for_update(skip_locked=True)
            .filter(waiting)
            .order_by("id")
            .values("id", "attempts")
            .first()
        )
        if job is None:
            return None
        if job["attempts"] >= MAX_ATTEMPTS:
            SeatingJob.objects.filter(pk=job["id"]).update(
                status=SeatingJob.Status.FAILED,
                message=f"The seating stopped unexpectedly {MAX_ATTEMPTS} times; start it again.",
                finished_at=timezone.now(),
            )
            log.warning("seating job %s given up after %s attempts", job["id"], job["attempts"])
            return None
        SeatingJob.objects.filter(pk=job["id"]).update(
            status=SeatingJob.Status.RUNNING,
            worker=worker,
            heartbeat_at=timezone.now(),
            attempts=F("attempts") + 1,
        )
    return int(job["id"])


def _beat(job_id: int, worker: str, stop: threading.Event) -> None:
    """Keep telling the others this job's worker is alive (own database connection, closed at the end)."""
    try:
        while not stop.wait(HEARTBEAT_SECONDS):
            try:
                SeatingJob.objects.filter(pk=job_id, worker=worker, status=SeatingJob.Status.RUNNING).update(
                    heartbeat_at=timezone.now()
                )
            except DatabaseError:  # busy for a moment (the job storing its plan): the next beat will do
                log.warning("heartbeat of seating job %s missed", job_id, exc_info=True)
    finally:
        connection.close()


def run_job(job_id: int, worker: str) -> None:
    """Run a claimed job with its heartbeat going."""
    from tournaments.services import run_seating_job

    stop = threading.Event()
    beat = threading.Thread(
        target=_beat, args=(job_id, worker, stop), name=f"heartbeat-{job_id}", daemon=True
    )
    beat.start()
    try:
        log.info("seating job %s started by %s", job_id, worker)
        run_seating_job(job_id, worker=worker)
        log.info("seating job %s ended", job_id)
    finally:
        stop.set()
        beat.join()


def work(*, worker: str, poll: float, stop: threading.Event, once: bool = False) -> int:
    """Run jobs until ``stop`` is set (or, with ``once``, until none is waiting); the number run."""
    done = 0
    while not stop.is_set():
        close_old_connections()  # a restarted database costs a reconnect, not the worker
        try:
            job_id = claim_job(worker)
        except Exception:  # the database is away: wait and try again
            log.exception("claiming a job failed")
            connection.close()
            job_id = None
        if job_id is not None:
            run_job(job_id, worker)
            done += 1
            continue
        if once:
            break
        stop.wait(poll)
    return done
