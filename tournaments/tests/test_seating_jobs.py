"""Seating worked out in a background thread while the session page polls its progress."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments import errors
from tournaments.models import Seat, SeatingJob
from tournaments.services import events as event_services
from tournaments.services import registrations, seating_jobs


def make_event(name: str = "Thread Open"):
    organiser = get_user_model().objects.create_user("olga", password="pw-olga-123")
    tournament = event_services.create_tournament(
        event_services.EventDetails(name=name, num_sessions=3, hands_per_session=4), acting_user=organiser
    )
    for n in range(16):
        registrations.register_player(
            tournament, registrations.PlayerRow(name=f"P{n}"), acting_user=organiser
        )
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=1, acting_user=organiser
    )
    return tournament, organiser


def wait_for(job: SeatingJob, seconds: float = 30) -> SeatingJob:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status != SeatingJob.Status.RUNNING:
            return job
        time.sleep(0.05)
    raise AssertionError("the seating job did not finish")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_background_job_seats_the_whole_event_and_records_how_it_ended():
    tournament, organiser = make_event()
    job = seating_jobs.start_seating_job(
        tournament.rounds.get(number=1), whole_plan=True, acting_user=organiser
    )
    assert job.status == SeatingJob.Status.RUNNING
    job = wait_for(job)
    assert job.status == SeatingJob.Status.DONE, job.message
    assert job.message == "Sessions 1 to 3 seated."
    assert Seat.objects.filter(round__tournament=tournament).count() == 16 * 3


@pytest.mark.django_db(transaction=True)
def test_a_job_the_engine_refuses_ends_failed_with_the_reason():
    tournament, organiser = make_event("Odd Open")
    registrations.register_player(
        tournament, registrations.PlayerRow(name="Seventeenth"), acting_user=organiser
    )
    job = wait_for(
        seating_jobs.start_seating_job(
            tournament.rounds.get(number=1), whole_plan=False, acting_user=organiser
        )
    )
    assert job.status == SeatingJob.Status.FAILED
    assert "17 players" in job.message
    assert not Seat.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_page_polls_a_running_job_and_reloads_when_it_ends(client):
    tournament, organiser = make_event("Poll Open")
    client.force_login(organiser)
    job = SeatingJob.objects.create(  # running in a thread of the web process
        tournament=tournament,
        from_round=1,
        time_limit=5,
        started_by=organiser,
        status=SeatingJob.Status.RUNNING,
    )
    url = reverse("manage:seating_job", args=[tournament.slug, 1])
    running = client.get(url, headers={"HX-Request": "true"})
    assert "Working out the seating" in running.content.decode()
    assert "HX-Refresh" not in running
    assert "<progress" in client.get(reverse("manage:session", args=[tournament.slug, 1])).content.decode()
    SeatingJob.objects.filter(pk=job.pk).update(status=SeatingJob.Status.DONE, message="Session 1 seated.")
    done = client.get(url, headers={"HX-Request": "true"})
    assert done["HX-Refresh"] == "true"


@pytest.mark.django_db
def test_a_second_job_is_refused_while_one_runs_and_a_dead_one_is_marked_failed(organiser):
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Busy Open"), acting_user=organiser
    )
    job = SeatingJob.objects.create(  # running in a thread of the web process
        tournament=tournament,
        from_round=1,
        time_limit=5,
        started_by=organiser,
        status=SeatingJob.Status.RUNNING,
    )
    with pytest.raises(errors.ServiceError) as error:
        seating_jobs.start_seating_job(
            tournament.rounds.get(number=1), whole_plan=False, acting_user=organiser
        )
    assert error.value.code == "job_running"
    SeatingJob.objects.filter(pk=job.pk).update(
        started_at=job.started_at - timedelta(seconds=5 + seating_jobs.JOB_GRACE_SECONDS + 1)
    )
    assert seating_jobs.current_seating_job(tournament).status == SeatingJob.Status.FAILED
