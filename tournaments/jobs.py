"""What every background job has in common: :class:`Job`, the abstract model of the seating plans
(``tournaments.models.SeatingJob``) and the long prints (``scoring.models.ExportJob``), which say only
what their job is for and how it ends in words.

A job is asked for (``started_by``, ``started_at``) and waits ``queued`` until a worker claims it
(``Job.claim``: the worker process, ``tournaments/worker.py``), or is claimed at once by a thread of the
process that made it when there is no worker process (``Job.claimed_fields``). While it runs, its
claimer renews ``heartbeat_at`` (``Job.beat``); a job whose heartbeat is older than ``STALE_SECONDS``
(its worker was killed) is taken over by another worker, at most ``MAX_ATTEMPTS`` times, then given up
with the model's ``GAVE_UP`` message. It ends ``done`` or ``failed`` with a message (``Job.finish``),
recorded only while it is still its worker's. A running job nobody can take over (its thread died with
its web process) is failed with ``LOST`` once it has been silent too long (``Job.give_up_if_silent``).

Claiming is one short transaction: the oldest queued job, or a running one whose worker stopped beating,
is taken with ``select_for_update(skip_locked=True)`` on PostgreSQL (two workers never take the same
row) and under SQLite's immediate transactions (one writer at a time) elsewhere.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import Any, ClassVar

from django.conf import settings
from django.db import OperationalError, models, transaction
from django.db.models import F, Q
from django.utils import timezone

STALE_SECONDS = 20.0
MAX_ATTEMPTS = 3
MESSAGE_LENGTH = 300  # a longer end message is cut to fit its column

log = logging.getLogger(__name__)


class Job(models.Model):
    """A piece of work done in the background, with its state for the pages that poll it."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting for the worker"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    UNFINISHED: ClassVar[tuple[str, ...]] = (Status.QUEUED, Status.RUNNING)
    # The messages a job ends with when it did not end by itself; each kind of job says them its way.
    GAVE_UP: ClassVar[str] = f"The job stopped unexpectedly {MAX_ATTEMPTS} times; ask for it again."
    LOST: ClassVar[str] = "The job stopped unexpectedly; ask for it again."
    BROKEN: ClassVar[str] = "The job could not be done (an unexpected error, now in the server log)."

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    message = models.CharField(max_length=MESSAGE_LENGTH, blank=True)
    # Who asked for it and when (a queued job has not begun to run yet).
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The claimer: a worker process (manage.py run_worker) or a thread of the web process that made the job.
    worker = models.CharField(max_length=100, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        abstract = True
        ordering = ["-started_at", "-id"]

    @property
    def finished(self) -> bool:
        """Done or failed: the pages that poll the job stop."""
        return self.status not in self.UNFINISHED

    @property
    def last_sign_of_life(self) -> datetime:
        """The last heartbeat, or the moment it was asked for when nothing has beaten yet."""
        return self.heartbeat_at or self.started_at

    @classmethod
    def claimed_fields(cls, worker: str) -> dict[str, Any]:
        """The fields of a job claimed by ``worker`` as it is made (no worker process: a thread of the
        process that asks for it runs it), for ``objects.create``."""
        return {"status": cls.Status.RUNNING, "worker": worker, "heartbeat_at": timezone.now(), "attempts": 1}

    @classmethod
    def claim(cls, worker: str) -> int | None:
        """Take the next job for ``worker`` (its id), or None when there is nothing to do. A job taken over
        ``MAX_ATTEMPTS`` times already is given up instead (its worker keeps dying on it)."""
        jobs = cls._default_manager
        stale = timezone.now() - timedelta(seconds=STALE_SECONDS)
        waiting = Q(status=cls.Status.QUEUED) | Q(
            status=cls.Status.RUNNING, heartbeat_at__lt=stale, attempts__gt=0
        )
        if not jobs.filter(waiting).exists():
            return None  # a plain read first: on SQLite an idle poll of each queue takes no write lock
        with transaction.atomic():
            job = (
                jobs.select_for_update(skip_locked=True)
                .filter(waiting)
                .order_by("pk")
                .values("pk", "attempts")
                .first()
            )
            if job is None:
                return None
            if job["attempts"] >= MAX_ATTEMPTS:
                jobs.filter(pk=job["pk"]).update(
                    status=cls.Status.FAILED, message=cls.GAVE_UP, finished_at=timezone.now()
                )
                log.warning("%s %s given up after %s attempts", cls.__name__, job["pk"], job["attempts"])
                return None
            jobs.filter(pk=job["pk"]).update(
                status=cls.Status.RUNNING,
                worker=worker,
                heartbeat_at=timezone.now(),
                attempts=F("attempts") + 1,
            )
        return int(job["pk"])

    @classmethod
    def beat(cls, job_id: int, worker: str) -> bool:
        """Tell the other workers that ``worker`` is still running the job; False once it is not its."""
        mine = cls._default_manager.filter(pk=job_id, worker=worker, status=cls.Status.RUNNING)
        return bool(mine.update(heartbeat_at=timezone.now()))

    @classmethod
    def finish(cls, job_id: int, worker: str, status: str, message: str = "", **fields: Any) -> bool:
        """Record how a job ended (``done`` or ``failed``, with ``fields`` such as a made file), only while
        it is still running as ``worker``'s: a worker that lost it to a takeover, or whose job was given up,
        records nothing. A moment when the database is locked is waited out (SQLite: a reader of the same
        table in shared-cache mode refuses at once instead of waiting), so a result is not lost to it."""
        mine = cls._default_manager.filter(pk=job_id, worker=worker, status=cls.Status.RUNNING)
        values = {
            **fields,
            "status": status,
            "message": message[:MESSAGE_LENGTH],
            "finished_at": timezone.now(),
        }
        for attempt in range(100):
            try:
                return bool(mine.update(**values))
            except OperationalError as error:
                if "locked" not in str(error) or attempt == 99:
                    raise
                time.sleep(0.02)
        return False

    def give_up_if_silent(self, seconds: float) -> bool:
        """Fail a running job with ``LOST`` when it has given no sign of life for ``seconds`` (its thread
        died with its process, and no worker process will take it over); True when it was silent."""
        if self.status != self.Status.RUNNING:
            return False
        if (timezone.now() - self.last_sign_of_life).total_seconds() <= seconds:
            return False
        type(self)._default_manager.filter(pk=self.pk, status=self.Status.RUNNING).update(
            status=self.Status.FAILED, message=self.LOST, finished_at=timezone.now()
        )
        self.refresh_from_db(fields=["status", "message", "finished_at"])
        return True
