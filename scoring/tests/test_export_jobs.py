"""Long prints made by the background worker (scoring/export_jobs.py, docs/prints.md): one job per print and
event version, made once even with two workers, the same file as the direct render, failures reported
on the job's page, old files removed, and only organisers see them."""

from __future__ import annotations

import io
import re
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring import export_jobs
from scoring.exports import EventWorkbook, PrintError, ScoresheetsPDF, SeatSlipsPDF
from scoring.models import ExportJob, PlayerPin
from scoring.services import entry
from scoring.services.entry import HandEntry
from scoring.tests.jobs import fetch, finish_jobs
from tests.threads import patiently
from tournaments import worker
from tournaments.audit import AuditAction
from tournaments.models import AuditEntry

MADE_AT = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d( [A-Z]+)?")


def untimed(value):
    """A print says when it was made (to the minute): the same print made a minute later is the same."""
    return MADE_AT.sub("(time)", value) if isinstance(value, str) else value


def pdf_pages(content: bytes) -> list[str]:
    return [untimed(" ".join(page.extract_text().split())) for page in PdfReader(io.BytesIO(content)).pages]


def cells(content: bytes) -> dict[str, list[tuple]]:
    book = load_workbook(io.BytesIO(content))
    return {
        sheet.title: [tuple(untimed(v) for v in row) for row in sheet.iter_rows(values_only=True)]
        for sheet in book.worksheets
    }


@pytest.fixture
def played(event, referee):
    table = event.rounds.get(number=1).tables.get(number=1)
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=10), acting_user=referee)
    entry.record_hand(table, HandEntry(winner="W", fan=8), acting_user=referee)
    return table


def start(client, url: str):
    response = client.get(url)
    assert response.status_code == 302, response.content[:300]
    return response


def test_asking_for_the_workbook_queues_a_job_instead_of_rendering_in_the_request(client, played, organiser):
    event = played.round.tournament
    client.force_login(organiser)
    response = start(client, reverse("manage:event_print", args=[event.slug, "workbook"]))
    job = ExportJob.objects.get()
    assert response["Location"] == reverse("manage:export_job", args=[event.slug, job.pk])
    assert (job.kind, job.round_number, job.paper, job.started_by) == ("workbook", 0, "", organiser)
    assert job.status == ExportJob.Status.RUNNING and job.content is None  # the thread makes it
    page = client.get(response["Location"]).content.decode()
    assert "Making the file" in page and 'hx-trigger="every 1s"' in page
    assert client.get(reverse("manage:export_download", args=[event.slug, job.pk])).status_code == 404

    assert finish_jobs() == 1
    job.refresh_from_db()
    assert job.status == ExportJob.Status.DONE and job.size == len(bytes(job.content)) > 0
    assert job.filename == "test-open-results.xlsx"
    poll = client.get(response["Location"], headers={"HX-Request": "true"})
    assert poll["HX-Redirect"] == reverse("manage:export_download", args=[event.slug, job.pk])
    assert "Download test-open-results.xlsx" in poll.content.decode()


def test_the_downloaded_workbook_is_the_same_as_the_direct_render(client, played, organiser):
    event = played.round.tournament
    client.force_login(organiser)
    response = fetch(client, reverse("manage:event_print", args=[event.slug, "workbook"]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="test-open-results.xlsx"'
    _, content_type, direct = EventWorkbook(event).render()
    assert response["Content-Type"] == content_type
    made = cells(response.content)
    assert made == cells(direct)
    assert {"Totals", "Hands"} <= set(made)


def test_the_downloaded_scoresheets_are_the_same_as_the_direct_render(client, played, organiser):
    event = played.round.tournament
    client.force_login(organiser)
    url = reverse("manage:session_print", args=[event.slug, 1, "scoresheets"]) + "?paper=letter"
    response = fetch(client, url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    direct = ScoresheetsPDF(played.round, "http://testserver/", "letter").render()[2]
    assert pdf_pages(response.content) == pdf_pages(direct)
    assert PdfReader(io.BytesIO(response.content)).pages[0].mediabox.width == 612  # US Letter
    assert ExportJob.objects.get().base_url == "http://testserver"  # the QR codes' address


def test_asking_again_for_the_same_event_version_reuses_the_job(client, played, organiser, referee):
    event = played.round.tournament
    client.force_login(organiser)
    url = reverse("manage:event_print", args=[event.slug, "register"])
    first = start(client, url)
    assert start(client, url)["Location"] == first["Location"]  # still being made: the same job
    finish_jobs()
    job = ExportJob.objects.get()
    again = start(client, url)  # made: straight to the file, nothing made again
    assert again["Location"] == reverse("manage:export_download", args=[event.slug, job.pk])
    assert finish_jobs() == 0 and ExportJob.objects.count() == 1
    assert start(client, url + "?paper=letter")["Location"] != first["Location"]  # another paper

    entry.record_hand(played, HandEntry(winner="N", fan=9), acting_user=referee)  # the event changed
    page = client.get(first["Location"]).content.decode()
    assert "The event has changed since this file was made" in page
    newer = start(client, url)
    assert newer["Location"] not in (first["Location"], again["Location"])
    assert ExportJob.objects.filter(paper="a4").count() == 2


def test_two_requests_at_once_make_one_job(played, organiser, monkeypatch):
    """Two app servers asking at the same moment both find no job; the unique constraint on a live job
    per print and version refuses the second one's, which then returns the first job."""
    event = played.round.tournament
    first = export_jobs.request_export(event, "workbook", acting_user=organiser)
    lookup = export_jobs._reusable
    calls: list[int] = []

    def raced(key):
        calls.append(1)
        return None if len(calls) == 1 else lookup(key)  # the first look happened before the other's write

    monkeypatch.setattr(export_jobs, "_reusable", raced)
    second = export_jobs.request_export(event, "workbook", acting_user=organiser)
    assert second.pk == first.pk and len(calls) == 2
    assert ExportJob.objects.count() == 1


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_export_job_runs_once_with_two_workers_claiming(settings, played, organiser):
    settings.BACKGROUND_WORKER = True
    event = played.round.tournament
    job = export_jobs.request_export(event, "workbook", acting_user=organiser)
    assert job.status == ExportJob.Status.QUEUED and job.worker == ""
    runs: dict[str, int] = {}
    go = threading.Barrier(2)

    def run(name: str) -> None:
        try:
            go.wait()
            runs[name] = worker.work(worker=name, poll=0.05, stop=threading.Event(), once=True)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(name,)) for name in ("w1", "w2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    job.refresh_from_db()
    assert sum(runs.values()) == 1
    assert job.status == ExportJob.Status.DONE and job.attempts == 1 and job.worker in runs
    assert cells(bytes(job.content)) == cells(EventWorkbook(event).render()[2])


@pytest.mark.django_db(transaction=True)
def test_a_dead_workers_export_is_taken_over_and_one_that_keeps_dying_is_given_up(
    settings, played, organiser
):
    settings.BACKGROUND_WORKER = True
    event = played.round.tournament
    job = export_jobs.request_export(event, "register", acting_user=organiser)
    assert worker.claim_next("dead:1") == (export_jobs.EXPORTS, job.pk)
    ExportJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(minutes=1))
    assert worker.work(worker="alive:2", poll=0.05, stop=threading.Event(), once=True) == 1
    job.refresh_from_db()
    assert (job.status, job.worker, job.attempts) == (ExportJob.Status.DONE, "alive:2", 2)

    other = export_jobs.request_export(event, "register", paper="letter", acting_user=organiser)
    ExportJob.objects.filter(pk=other.pk).update(
        status="running", attempts=worker.MAX_ATTEMPTS, heartbeat_at=timezone.now() - timedelta(minutes=5)
    )
    assert worker.claim_job("w3", export_jobs.EXPORTS) is None
    other.refresh_from_db()
    assert other.status == ExportJob.Status.FAILED and "ask for it again" in other.message


def test_a_render_that_fails_is_reported_on_the_job_page(client, played, organiser, monkeypatch):
    event = played.round.tournament
    client.force_login(organiser)

    def broken(self):
        raise ZeroDivisionError("a bug in the workbook")

    monkeypatch.setattr(EventWorkbook, "content", broken)
    response = start(client, reverse("manage:event_print", args=[event.slug, "workbook"]))
    finish_jobs()
    job = ExportJob.objects.get()
    assert job.status == ExportJob.Status.FAILED and job.content is None
    page = client.get(response["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert "The file was not made" in html and "ask for it again" in html and "hx-trigger" not in html
    assert client.get(reverse("manage:export_download", args=[event.slug, job.pk])).status_code == 404
    monkeypatch.undo()
    retry = start(client, reverse("manage:event_print", args=[event.slug, "workbook"]))  # failed: made again
    assert retry["Location"] != response["Location"]


def test_a_print_refused_while_rendering_shows_its_message(client, event, organiser):
    """The EMA check runs in the worker: an event with unplayed sessions gets the check's problems."""
    client.force_login(organiser)
    response = start(client, reverse("manage:event_print", args=[event.slug, "ema"]))
    finish_jobs()
    job = ExportJob.objects.get()
    assert job.status == ExportJob.Status.FAILED
    assert job.message.startswith("The EMA results file was not made")
    assert job.message in client.get(response["Location"]).content.decode()


def test_a_print_that_cannot_be_made_answers_409_at_once_and_queues_nothing(client, event, organiser):
    client.force_login(organiser)
    response = client.get(reverse("manage:session_print", args=[event.slug, 2, "seat-slips"]))
    assert response.status_code == 409 and "Session 2 is not seated yet" in response.content.decode()
    response = client.get(reverse("manage:event_print", args=[event.slug, "register"]) + "?paper=a3")
    assert response.status_code == 409 and "Paper must be a4 or letter" in response.content.decode()
    with pytest.raises(PrintError) as refused:
        export_jobs.request_export(
            event, "scoresheets", round_number=1, base_url="http://x/" * 30, acting_user=None
        )
    assert refused.value.code == "bad_address"
    assert not ExportJob.objects.exists()


def test_seat_slips_issue_missing_pins_in_the_name_of_the_organiser_who_asked(played, organiser):
    event = played.round.tournament
    PlayerPin.objects.filter(tournament=event).delete()
    export_jobs.request_export(
        event, "seat-slips", round_number=1, base_url="http://hall/", acting_user=organiser
    )
    issued = AuditEntry.objects.get(tournament=event, action=AuditAction.ISSUE_PINS)
    assert issued.actor == organiser and PlayerPin.objects.filter(tournament=event).count() == 8
    job = ExportJob.objects.get()
    assert job.version == export_jobs.event_version(event)  # read after the PINs were issued
    finish_jobs()
    job.refresh_from_db()
    assert job.status == ExportJob.Status.DONE
    assert pdf_pages(bytes(job.content)) == pdf_pages(SeatSlipsPDF(played.round, "http://hall/").render()[2])


def test_only_the_last_few_files_of_a_print_are_kept(settings, played, organiser, referee):
    settings.EXPORT_JOBS_KEEP = 2
    event = played.round.tournament
    made = []
    other = played.round.tables.get(number=2)
    for fan in (8, 9, 10):
        made.append(export_jobs.request_export(event, "workbook", acting_user=organiser).pk)
        finish_jobs()
        entry.record_hand(other, HandEntry(winner="S", fan=fan), acting_user=referee)
    export_jobs.request_export(event, "register", acting_user=organiser)
    finish_jobs()
    assert set(ExportJob.objects.filter(kind="workbook").values_list("pk", flat=True)) == set(made[1:])
    assert ExportJob.objects.filter(kind="register").count() == 1


def test_a_job_left_running_by_a_dead_web_process_is_made_again(played, organiser):
    event = played.round.tournament
    job = export_jobs.request_export(event, "workbook", acting_user=organiser)
    ExportJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(minutes=2))
    again = export_jobs.request_export(event, "workbook", acting_user=organiser)
    assert again.pk != job.pk
    job.refresh_from_db()
    assert job.status == ExportJob.Status.FAILED and "restarted" in job.message


def test_jobs_and_files_are_for_the_events_organisers_only(client, played, organiser, referee, stranger):
    event = played.round.tournament
    client.force_login(organiser)
    fetch(client, reverse("manage:event_print", args=[event.slug, "workbook"]))
    job = ExportJob.objects.get()
    page = reverse("manage:export_job", args=[event.slug, job.pk])
    download = reverse("manage:export_download", args=[event.slug, job.pk])
    for user in (referee, stranger):
        client.force_login(user)
        assert client.get(page).status_code == 403
        assert client.get(download).status_code == 403
        assert client.get(reverse("manage:event_print", args=[event.slug, "workbook"])).status_code == 403
    client.logout()
    assert client.get(download).status_code == 302  # to the login page
    assert ExportJob.objects.count() == 1


def test_a_job_of_another_event_is_not_found(client, played, organiser):
    from tournaments.services import events as event_services

    event = played.round.tournament
    other = event_services.create_tournament(
        event_services.EventDetails(name="Other Open", slug="other", num_sessions=1), acting_user=organiser
    )
    client.force_login(organiser)
    fetch(client, reverse("manage:event_print", args=[event.slug, "workbook"]))
    job = ExportJob.objects.get()
    assert client.get(reverse("manage:export_download", args=[other.slug, job.pk])).status_code == 404


def test_short_prints_stay_direct(client, played, organiser):
    event = played.round.tournament
    client.force_login(organiser)
    response = client.get(reverse("manage:session_print", args=[event.slug, 1, "table-cards"]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert client.get(reverse("manage:event_print", args=[event.slug, "standings"])).status_code == 200
    assert not ExportJob.objects.exists()


def test_a_background_print_that_is_not_one_is_refused(event, organiser):
    with pytest.raises(PrintError) as refused:
        export_jobs.request_export(event, "standings", acting_user=organiser)
    assert refused.value.code == "unknown_print"


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_without_a_worker_process_a_thread_of_the_web_process_makes_the_file(client, played, organiser):
    event = played.round.tournament
    client.force_login(organiser)
    response = start(client, reverse("manage:event_print", args=[event.slug, "register"]))
    job = ExportJob.objects.get()
    deadline = time.monotonic() + 30
    while job.status in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.2)
        patiently(job.refresh_from_db)  # the in-memory test database says "locked" instead of waiting
    assert job.status == ExportJob.Status.DONE, job.message
    assert job.worker.startswith(worker.worker_name()) and job.attempts == 1
    poll = client.get(response["Location"], headers={"HX-Request": "true"})
    download = client.get(poll["HX-Redirect"])
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    assert "penalties" in download["Content-Disposition"]


def test_the_prints_page_lists_the_files_made_recently(client, played, organiser):
    event = played.round.tournament
    client.force_login(organiser)
    assert (
        "Files made recently"
        not in client.get(reverse("manage:event_prints", args=[event.slug])).content.decode()
    )
    fetch(client, reverse("manage:event_print", args=[event.slug, "workbook"]))
    job = ExportJob.objects.get()
    page = client.get(reverse("manage:prints", args=[event.slug, 1])).content.decode()
    assert "Files made recently" in page and "test-open-results.xlsx" in page
    assert reverse("manage:export_download", args=[event.slug, job.pk]) in page
