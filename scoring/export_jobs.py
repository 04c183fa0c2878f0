"""Long prints and exports made by the background worker, not in the request.

The workbook (3.3 s of CPU on a 400 x 10 event), scoresheets (1.8 s), seat slips (2.2 s), the register
(0.9 s) and the EMA XLSX (1.2 s) are the prints whose class says ``background = True``. Asking for one
makes an :class:`~scoring.models.ExportJob`; the worker (``tournaments.worker``, the ``exports`` queue:
claim, heartbeat, takeover, at most 3 attempts, as for every ``tournaments.jobs.Job``) renders it once
and stores the bytes in the database, so any app server can hand the file out (no shared disk). A
second request for the same print of the same event version (the standings version and the event's last
audit entry) gets the same job, queued, running or done; a unique constraint keeps two requests at the
same moment from making two. Only the last ``EXPORT_JOBS_KEEP`` finished jobs per print are kept.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import translation

from scoring.exports import EVENT_PRINTS, SESSION_PRINTS, Export, PrintError
from scoring.exports.base import page_size
from scoring.models import ExportJob
from tournaments import worker as background
from tournaments.audit import User, acting
from tournaments.models import AuditEntry, Tournament

log = logging.getLogger(__name__)


def export_class(kind: str, *, session: bool) -> type[Export] | None:
    return (SESSION_PRINTS if session else EVENT_PRINTS).get(kind)


def event_version(tournament: Tournament) -> str:
    """The event's version for its prints: the standings version and the last audit entry (every service
    write audits), so any change to what a print shows gives a new version."""
    standings = (
        Tournament.objects.filter(pk=tournament.pk).values_list("standings_version", flat=True).first()
    )
    last = AuditEntry.objects.filter(tournament=tournament).aggregate(last=Max("id"))["last"]
    return f"{standings or 0}.{last or 0}"


def build(job: ExportJob) -> Export:
    """The export object a job renders."""
    cls = export_class(job.kind, session=bool(job.round_number))
    if cls is None:
        raise PrintError(
            translation.gettext("There is no print called %(kind)s.") % {"kind": repr(job.kind)},
            code="unknown_print",
        )
    subject: Any = job.tournament
    if job.round_number:
        subject = job.tournament.rounds.get(number=job.round_number)
    return cls(subject, job.base_url, job.paper or "a4")


def _reusable(key: dict[str, Any]) -> ExportJob | None:
    """The live job for ``key`` (queued, running or done); a running one left by a dead web process
    (no worker process to take it over) is marked failed, so it is made again."""
    job = ExportJob.objects.defer("content").filter(**key, status__in=ExportJob.ACTIVE).first()
    if job is None or settings.BACKGROUND_WORKER:
        return job
    return None if job.give_up_if_silent(background.STALE_SECONDS) else job


def request_export(
    tournament: Tournament,
    kind: str,
    *,
    round_number: int = 0,
    paper: str = "a4",
    base_url: str = "",
    acting_user: User,
) -> ExportJob:
    """The job that makes (or made) this print of the event as it is now: an existing one when the same
    print of the same version was asked for already, else a new one for the worker.

    Refusals that cost nothing to check (a session not seated, an EMA file for rules without table
    points) raise :class:`PrintError` here, before anything is queued."""
    cls = export_class(kind, session=bool(round_number))
    if cls is None or not cls.background:
        raise PrintError(
            translation.gettext("There is no background print called %(kind)s.") % {"kind": repr(kind)[:60]},
            code="unknown_print",
        )
    subject: Any = tournament.rounds.get(number=round_number) if round_number else tournament
    if cls.uses_paper:
        page_size(paper)  # raises PrintError for a paper that is not a4 or letter
    if len(base_url) > ExportJob._meta.get_field("base_url").max_length:  # type: ignore[operator]
        raise PrintError(
            translation.gettext("The site's address is too long to print in a QR code."), code="bad_address"
        )
    export = cls(subject, base_url, paper)
    export.check()
    export.prepare(acting_user)
    key: dict[str, Any] = {
        "tournament": tournament,
        "kind": kind,
        "round_number": round_number,
        "paper": paper if cls.uses_paper else "",
        "language": translation.get_language() or settings.LANGUAGE_CODE,
        "base_url": base_url.rstrip("/") if cls.uses_base_url else "",
        "version": event_version(tournament),
    }
    job = _reusable(key)
    if job is not None:
        return job
    in_process = not settings.BACKGROUND_WORKER
    name = f"{background.worker_name()}:{threading.get_ident()}"
    try:
        with transaction.atomic():
            job = ExportJob.objects.create(
                **key,
                started_by=acting(acting_user),
                # Without a worker process a thread of this process makes it, claimed at once.
                **(ExportJob.claimed_fields(name) if in_process else {}),
            )
    except IntegrityError:  # the same print asked for at the same moment: that job does for both
        job = _reusable(key)
        if job is None:
            raise
        return job
    if in_process:
        thread = threading.Thread(
            target=background.run_job, args=(job.pk, name, EXPORTS), name=f"export-job-{job.pk}", daemon=True
        )
        transaction.on_commit(thread.start)
    return job


def run_export_job(job_id: int, *, worker: str) -> None:
    """Render a claimed job and store the file; recorded only while the job is still ``worker``'s (one
    that lost it to a takeover records nothing). A print that cannot be made ends the job with its
    message; anything unexpected with a general one (the details go to the log), never half a file."""
    try:
        job = ExportJob.objects.defer("content").select_related("tournament").get(pk=job_id)
        try:
            with translation.override(job.language or None):
                filename, content_type, content = build(job).render()
        except PrintError as error:
            ExportJob.finish(job_id, worker, ExportJob.Status.FAILED, error.message)
            return
        stored = ExportJob.finish(
            job_id,
            worker,
            ExportJob.Status.DONE,
            filename=filename[:200],
            content_type=content_type,
            size=len(content),
            content=content,
        )
        if stored:
            prune(job)
    except Exception:
        log.exception("export job %s failed", job_id)
        ExportJob.finish(job_id, worker, ExportJob.Status.FAILED, ExportJob.BROKEN)
    finally:
        if threading.current_thread() is not threading.main_thread():
            connection.close()


def prune(job: ExportJob) -> int:
    """Remove all but the newest ``EXPORT_JOBS_KEEP`` finished files of this print (any paper or
    version); the number removed."""
    keep = settings.EXPORT_JOBS_KEEP
    finished = ExportJob.objects.filter(
        tournament_id=job.tournament_id,
        kind=job.kind,
        round_number=job.round_number,
        status__in=(ExportJob.Status.DONE, ExportJob.Status.FAILED),
    ).order_by("-id")
    old = list(finished.values_list("pk", flat=True)[keep:])
    if not old:
        return 0
    return ExportJob.objects.filter(pk__in=old).delete()[0]


def content_of(job: ExportJob) -> bytes:
    """The stored file (PostgreSQL hands a BinaryField back as a memoryview)."""
    data = ExportJob.objects.filter(pk=job.pk).values_list("content", flat=True).first()
    return bytes(data or b"")


EXPORTS = background.Queue("exports", ExportJob, run_export_job)
