"""The background worker: a separate process (``manage.py run_worker``) that runs the jobs the web
processes queue (``BACKGROUND_WORKER=1``): seating plans and, registered by the scoring app, long prints
and exports (``scoring.export_jobs``). A seating search or a 3 s workbook never runs inside a web worker,
and a job survives a restart of the web servers.

Each kind of job is a :class:`Queue`: its model, a ``tournaments.jobs.Job`` (which claims the next job
atomically, keeps its heartbeat, takes over a dead worker's job at most ``MAX_ATTEMPTS`` times and
records the end only while the job is still its worker's), and the function that runs one job. The event
layer cannot import scoring, so scoring registers its queue (``register``) when it is ready. While a job
runs, its heartbeat is renewed every ``HEARTBEAT_SECONDS``; a job whose heartbeat is older than
``STALE_SECONDS`` (its worker was killed) is taken over by another worker.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass

from django.db import DatabaseError, close_old_connections, connection

from tournaments.jobs import MAX_ATTEMPTS as MAX_ATTEMPTS
from tournaments.jobs import STALE_SECONDS as STALE_SECONDS
from tournaments.jobs import Job
from tournaments.models import SeatingJob
from tournaments.services.seating_jobs import run_seating_job

HEARTBEAT_SECONDS = 3.0

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Queue:
    """One kind of background job: where its jobs wait and how one is run (``run(job_id, worker=...)``
    records the end only while the job is still that worker's, as ``Job.finish`` does)."""

    name: str
    model: type[Job]
    run: Callable[..., None]


def _run_seating(job_id: int, *, worker: str) -> None:

    run_seating_job(job_id, worker=worker)


SEATING = Queue("seating", SeatingJob, _run_seating)
QUEUES: dict[str, Queue] = {SEATING.name: SEATING}


def register(queue: Queue) -> None:
    """Let the worker run another kind of job (called from an app's ``ready()``)."""
    QUEUES[queue.name] = queue


COMPANIONS: dict[str, Callable[[threading.Event], None]] = {}
"""Threads the worker runs beside its jobs for as long as it works (not with ``once``), each given the
worker's stop event: scoring's drawing of the standings ahead (``scoring.standings_page``)."""


def register_companion(name: str, run: Callable[[threading.Event], None]) -> None:
    """Let the worker run ``run(stop)`` in a thread of its own (called from an app's ``ready()``)."""
    COMPANIONS[name] = run


def _start_companions(stop: threading.Event) -> list[threading.Thread]:
    threads = [
        threading.Thread(target=run, args=(stop,), name=f"companion-{name}", daemon=True)
        for name, run in COMPANIONS.items()
    ]
    for thread in threads:
        thread.start()
    return threads


def worker_name() -> str:
    """Host and process id: unique among the live workers of one database."""
    return f"{socket.gethostname()}:{os.getpid()}"


def claim_job(worker: str, queue: Queue = SEATING) -> int | None:
    """Take the next job of ``queue`` for ``worker`` (its id), or None when there is nothing to do."""
    return queue.model.claim(worker)


def claim_next(worker: str) -> tuple[Queue, int] | None:
    """The next job of any queue (seating first: organisers wait on it), or None."""
    for queue in list(QUEUES.values()):
        job_id = claim_job(worker, queue)
        if job_id is not None:
            return queue, job_id
    return None


def _beat(job_id: int, worker: str, stop: threading.Event, queue: Queue) -> None:
    """Keep telling the others this job's worker is alive (own database connection, closed at the end)."""
    try:
        while not stop.wait(HEARTBEAT_SECONDS):
            try:
                queue.model.beat(job_id, worker)
            except DatabaseError:  # busy for a moment (the job storing its result): the next beat will do
                log.warning("heartbeat of %s job %s missed", queue.name, job_id, exc_info=True)
    finally:
        connection.close()


def run_job(job_id: int, worker: str, queue: Queue = SEATING) -> None:
    """Run a claimed job with its heartbeat going."""
    stop = threading.Event()
    beat = threading.Thread(
        target=_beat, args=(job_id, worker, stop, queue), name=f"heartbeat-{job_id}", daemon=True
    )
    beat.start()
    try:
        log.info("%s job %s started by %s", queue.name, job_id, worker)
        queue.run(job_id, worker=worker)
        log.info("%s job %s ended", queue.name, job_id)
    finally:
        stop.set()
        beat.join()


CLAIM_TRIES_ONCE = 5
"""With ``once``, how many failed claims in a row end the run (the database busy for a moment, or away)."""


def work(*, worker: str, poll: float, stop: threading.Event, once: bool = False) -> int:
    """Run jobs until ``stop`` is set (or, with ``once``, until none is waiting); the number run. The
    companions run beside the jobs until ``stop`` is set (a run with ``once`` starts none)."""
    companions = [] if once else _start_companions(stop)
    try:
        return _work(worker=worker, poll=poll, stop=stop, once=once)
    finally:
        for thread in companions:
            thread.join(timeout=5)


def _work(*, worker: str, poll: float, stop: threading.Event, once: bool) -> int:
    done = failed_claims = 0
    while not stop.is_set():
        close_old_connections()  # a restarted database costs a reconnect, not the worker
        try:
            claimed = claim_next(worker)
        except Exception:  # the database is away or busy: wait and try again
            log.exception("claiming a job failed")
            connection.close()
            failed_claims += 1
            # A failed claim does not say that nothing is waiting: even ``once`` tries again (a few times).
            if once and failed_claims >= CLAIM_TRIES_ONCE:
                break
            stop.wait(poll)
            continue
        failed_claims = 0
        if claimed is not None:
            queue, job_id = claimed
            run_job(job_id, worker, queue)
            done += 1
            continue
        if once:
            break
        stop.wait(poll)
    return done
