"""Seating worked out in the background: the session page starts a job and polls it; a worker process
(``manage.py run_worker``, ``tournaments/worker.py``) or a thread of this process runs it."""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import connection, transaction
from django.utils.translation import gettext

from tournaments.audit import User, acting
from tournaments.errors import ServiceError
from tournaments.models import Round, SeatingJob, Tournament
from tournaments.services import seating_bridge
from tournaments.services.reseating import generate_seating, seat_remaining
from tournaments.services.seating import round_has_results

JOB_GRACE_SECONDS = 60  # a job still "running" this long past its time limit died with its process


def start_seating_job(
    round_: Round, *, whole_plan: bool, seed: int = 0, acting_user: User, background: bool = True
) -> SeatingJob:
    """Seat a session (or it and all later ones) in the background; the session page polls the job.

    With ``BACKGROUND_WORKER`` on (production) the job waits in the database for the worker process
    (``manage.py run_worker``, ``tournaments/worker.py``); otherwise a thread of this process runs it.

    Checks what can be checked at once (results already entered, a job already running) so the
    organiser hears of it immediately; the engine's own refusals end the job as failed with its message.
    """
    worker_process = settings.BACKGROUND_WORKER
    tournament = round_.tournament
    if round_has_results(round_):
        raise ServiceError(
            gettext("Session %(number)s already has results; its seating can no longer be changed.")
            % {"number": round_.number},
            code="round_has_results",
        )
    running = current_seating_job(tournament)
    if running is not None and not running.finished:
        raise ServiceError(
            gettext("A seating plan is already being worked out for this event."), code="job_running"
        )
    job = SeatingJob.objects.create(
        tournament=tournament,
        from_round=round_.number,
        whole_plan=whole_plan,
        seed=seed,
        time_limit=seating_bridge.settings_of(tournament)["time_limit"],
        started_by=acting(acting_user),
        status=SeatingJob.Status.QUEUED if background and worker_process else SeatingJob.Status.RUNNING,
    )
    if job.status == SeatingJob.Status.QUEUED:
        return job
    if background:
        thread = threading.Thread(
            target=run_seating_job, args=(job.pk,), name=f"seating-job-{job.pk}", daemon=True
        )
        transaction.on_commit(thread.start)
    else:
        run_seating_job(job.pk)
        job.refresh_from_db()
    return job


def run_seating_job(job_id: int, *, worker: str = "") -> None:
    """Run one job to its end and record how it ended (the thread's own database connection is closed).

    ``worker`` names the worker process that claimed it: the end is recorded only while the job is still
    that worker's (one that lost it, its heartbeat stale, records nothing: ``Job.finish``)."""
    try:
        job = SeatingJob.objects.select_related("tournament", "started_by").get(pk=job_id)
        round_ = job.tournament.rounds.get(number=job.from_round)
        try:
            if job.whole_plan:
                count = seat_remaining(
                    job.tournament, job.from_round, acting_user=job.started_by, seed=job.seed
                )
                message = f"Sessions {job.from_round} to {job.from_round + count - 1} seated."
            else:
                tables = generate_seating(round_, acting_user=job.started_by, seed=job.seed)
                message = f"Session {job.from_round} seated at {len(tables)} tables."
            status = SeatingJob.Status.DONE
        except ServiceError as error:
            message, status = error.message, SeatingJob.Status.FAILED
        SeatingJob.finish(job_id, worker, status, message)
    except Exception:  # the job must end, whatever happened; the log keeps the details
        logging.getLogger(__name__).exception("seating job %s failed", job_id)
        SeatingJob.finish(job_id, worker, SeatingJob.Status.FAILED, SeatingJob.BROKEN)
    finally:
        if threading.current_thread() is not threading.main_thread():
            connection.close()


def current_seating_job(tournament: Tournament) -> SeatingJob | None:
    """The event's latest job; one left "running" by a dead process is marked failed (a worker process's
    job only once its heartbeat has stopped for that long: another worker would have taken it over)."""
    job = tournament.seating_jobs.first()
    if job is not None:
        job.give_up_if_silent(job.time_limit + JOB_GRACE_SECONDS)
    return job
