"""Fetching a print through its background job in view tests (scoring.export_jobs)."""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import resolve, reverse

from scoring.export_jobs import run_export_job
from scoring.models import ExportJob


def finish_jobs() -> int:
    """Make every claimed or waiting export job here, as the process's thread (claimed at once) or the
    worker would; the number made."""
    done = 0
    for job in ExportJob.objects.defer("content").filter(status__in=("queued", "running")).order_by("id"):
        if job.status == "queued":
            ExportJob.objects.filter(pk=job.pk).update(status="running", worker="test", attempts=1)
            job.worker = "test"
        run_export_job(job.pk, worker=job.worker)
        done += 1
    return done


def fetch(client, url: str) -> HttpResponse:
    """GET a print; a background one is followed through its job page to the file."""
    response = client.get(url)
    if response.status_code != 302:
        return response
    match = resolve(response["Location"])
    if match.url_name == "export_download":
        return client.get(response["Location"])
    assert match.url_name == "export_job", response["Location"]
    finish_jobs()
    return client.get(reverse("manage:export_download", args=[match.kwargs["slug"], match.kwargs["job_id"]]))
