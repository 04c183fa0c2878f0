"""What every background job shares (tournaments/jobs.py), shown on a seating job: its end is recorded only
by the worker that still runs it, and a running job nobody can take over is failed once it is silent."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.jobs import MESSAGE_LENGTH
from tournaments.models import SeatingJob
from tournaments.services import events as event_services


@pytest.fixture
def event(organiser):
    return event_services.create_tournament(
        event_services.EventDetails(name="Job Open"), acting_user=organiser
    )


def test_a_job_made_without_a_worker_process_is_claimed_as_it_is_made(event, organiser):
    job = SeatingJob.objects.create(
        tournament=event,
        from_round=1,
        time_limit=5,
        started_by=organiser,
        **SeatingJob.claimed_fields("web:1"),
    )
    assert (job.status, job.worker, job.attempts) == (SeatingJob.Status.RUNNING, "web:1", 1)
    assert job.heartbeat_at is not None and not job.finished
    queued = SeatingJob.objects.create(tournament=event, from_round=1, time_limit=5)
    assert (queued.status, queued.worker, queued.attempts) == (SeatingJob.Status.QUEUED, "", 0)


def test_only_the_worker_still_running_a_job_records_its_end(event):
    job = SeatingJob.objects.create(
        tournament=event, from_round=1, time_limit=5, **SeatingJob.claimed_fields("w1")
    )
    assert not SeatingJob.beat(job.pk, "w2") and SeatingJob.beat(job.pk, "w1")
    assert not SeatingJob.finish(job.pk, "w2", SeatingJob.Status.DONE, "taken over meanwhile")
    assert SeatingJob.finish(job.pk, "w1", SeatingJob.Status.FAILED, "x" * (MESSAGE_LENGTH + 50))
    job.refresh_from_db()
    assert job.status == SeatingJob.Status.FAILED and job.message == "x" * MESSAGE_LENGTH
    assert job.finished and job.finished_at is not None
    assert not SeatingJob.finish(job.pk, "w1", SeatingJob.Status.DONE)  # ended already: nothing changes
    assert not SeatingJob.beat(job.pk, "w1")


def test_a_running_job_is_failed_once_it_has_been_silent_too_long(event):
    job = SeatingJob.objects.create(
        tournament=event, from_round=1, time_limit=5, **SeatingJob.claimed_fields("w1")
    )
    assert not job.give_up_if_silent(60)  # it has just beaten
    SeatingJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=61))
    job.refresh_from_db()
    assert job.give_up_if_silent(60)
    assert (job.status, job.message) == (SeatingJob.Status.FAILED, SeatingJob.LOST)
    assert job.finished_at is not None
    queued = SeatingJob.objects.create(tournament=event, from_round=1, time_limit=5)
    SeatingJob.objects.filter(pk=queued.pk).update(started_at=timezone.now() - timedelta(hours=1))
    queued.refresh_from_db()
    assert (
        not queued.give_up_if_silent(60) and queued.status == SeatingJob.Status.QUEUED
    )  # waits for a worker
