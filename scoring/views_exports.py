"""The organiser's long prints as background jobs (scoring.export_jobs): asking for one redirects to its
job page, which polls (htmx) until the file is ready, then offers it (and opens it once made); the file
comes from the database, so any app server can hand it out."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone

from scoring import export_jobs
from scoring.exports import PrintError
from scoring.models import ExportJob
from tournaments.access import HtmxHttpRequest, event_for
from tournaments.models import Role, Tournament


def start(
    request: HttpRequest, tournament: Tournament, kind: str, what: str, *, round_number: int = 0, paper: str
) -> HttpResponse:
    """Queue (or reuse) the job for this print and send the organiser to its page; a print that cannot
    be made at all answers 409 at once, naming what is missing (nothing queued)."""
    try:
        job = export_jobs.request_export(
            tournament,
            kind,
            round_number=round_number,
            paper=paper,
            base_url=request.build_absolute_uri("/"),
            acting_user=request.user,
        )
    except PrintError as error:
        return render(
            request,
            "scoring/organiser/print_error.html",
            {"tournament": tournament, "what": what, "error": error},
            status=409,
        )
    if job.status == ExportJob.Status.DONE:  # made already for this version of the event: no wait
        return redirect("manage:export_download", tournament.slug, job.pk)
    return redirect("manage:export_job", tournament.slug, job.pk)


def _job_of(request: HttpRequest, slug: str, job_id: int) -> tuple[Tournament, ExportJob]:
    """The job of an event the user organises (prints are for organisers: docs/prints.md)."""
    tournament = event_for(request, slug, Role.ORGANISER)
    job = get_object_or_404(ExportJob.objects.defer("content"), pk=job_id, tournament=tournament)
    return tournament, job


def _print_url(job: ExportJob) -> str:
    """The address that asks for this print again (a new job once the event changed or this one failed)."""
    if job.round_number:
        url = reverse("manage:session_print", args=[job.tournament.slug, job.round_number, job.kind])
    else:
        url = reverse("manage:event_print", args=[job.tournament.slug, job.kind])
    return f"{url}?paper={job.paper}" if job.paper else url


def _context(tournament: Tournament, job: ExportJob) -> dict[str, Any]:
    cls = export_jobs.export_class(job.kind, session=bool(job.round_number))
    end = job.finished_at or timezone.now()
    return {
        "tournament": tournament,
        "job": job,
        "label": cls.label if cls is not None else job.kind,
        "elapsed": max(0, round((end - job.started_at).total_seconds())),
        "again_url": _print_url(job),
        "current": job.version == export_jobs.event_version(tournament),
    }


def recent(tournament: Tournament, count: int = 10) -> list[ExportJob]:
    """The newest long prints made for the event, to download again without waiting (the prints page)."""
    return list(
        ExportJob.objects.defer("content")
        .filter(tournament=tournament, status=ExportJob.Status.DONE)
        .select_related("started_by")[:count]
    )


@login_required
def export_job(request: HtmxHttpRequest, slug: str, job_id: int) -> HttpResponse:
    """The job's page; its card polls every second while the job waits or runs. When a poll finds the
    file made, the browser is sent to it (HX-Redirect)."""
    tournament, job = _job_of(request, slug, job_id)
    context = _context(tournament, job)
    if request.htmx:
        response = render(request, "scoring/organiser/_export_job.html", context)
        if job.status == ExportJob.Status.DONE:
            response["HX-Redirect"] = reverse("manage:export_download", args=[tournament.slug, job.pk])
        return response
    return render(request, "scoring/organiser/export_job.html", context)


@login_required
def export_download(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    """The stored file, from whichever app server is asked."""
    _, job = _job_of(request, slug, job_id)
    if job.status != ExportJob.Status.DONE:
        raise Http404("This file is not ready.")
    response = HttpResponse(export_jobs.content_of(job), content_type=job.content_type)
    disposition = "inline" if job.content_type == "application/pdf" else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{job.filename}"'
    response["Cache-Control"] = "private, no-store"
    return response
