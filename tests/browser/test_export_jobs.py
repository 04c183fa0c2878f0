"""A long print in real Chromium: the organiser clicks the workbook on the prints page, waits on
the job's page (htmx polling) while a thread of the server makes it, and the file downloads by itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def seated_event():
    from tournaments import release
    from tournaments.services import events as event_services
    from tournaments.services import registrations, reseating

    organiser = get_user_model().objects.create_user("olga", password="pw-olga-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(
            name="Print Open", slug="print-open", num_sessions=1, hands_per_session=4
        ),
        acting_user=organiser,
    )
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ana", "Bo", "Cy", "Di"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    release.publish_everything(tournament, acting_user=organiser)
    return tournament


def test_the_workbook_is_made_in_the_background_and_downloads_when_ready(page, live_server, seated_event):
    from scoring.exports import EventWorkbook
    from scoring.models import ExportJob

    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "olga")
    page.fill("input[name=password]", "pw-olga-123")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)  # the login answered, its cookie set
    page.goto(f"{base}/manage/print-open/prints/")
    with page.expect_download(timeout=30000) as waiting:
        page.click("a[data-print=workbook]")
        page.wait_for_url(f"{base}/manage/print-open/exports/*/")
    download = waiting.value
    assert download.suggested_filename == "print-open-results.xlsx"
    from scoring.tests.test_export_jobs import cells

    made = cells(Path(download.path()).read_bytes())
    assert {"Totals", "Hands"} <= set(made)
    assert made == cells(EventWorkbook(seated_event).render()[2])
    job = ExportJob.objects.get()
    assert job.status == ExportJob.Status.DONE and job.started_by.username == "olga"
    # The job's page now offers the file for downloading again.
    page.goto(f"{base}/manage/print-open/exports/{job.pk}/")
    assert page.locator("[data-download=workbook]").is_visible()
