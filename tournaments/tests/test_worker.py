"""The background worker process (tournaments/worker.py, ``manage.py run_worker``): queued seating jobs
run in it, each exactly once even with two workers, and a job whose worker died is taken over."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import OperationalError, connection
from django.urls import reverse
from django.utils import timezone

from tournaments import errors, worker
from tournaments.audit import AuditAction
from tournaments.models import AuditEntry, Seat, SeatingJob
from tournaments.services import seating_jobs
from tournaments.tests.test_seating_jobs import make_event


@pytest.fixture
def worker_process(settings):
    settings.BACKGROUND_WORKER = True


@pytest.mark.django_db(transaction=True)
def test_with_a_worker_process_a_job_waits_for_it_and_then_seats_the_session(worker_process):
    tournament, organiser = make_event()
    job = seating_jobs.start_seating_job(
        tournament.rounds.get(number=1), whole_plan=False, acting_user=organiser
    )
    assert job.status == SeatingJob.Status.QUEUED
    assert seating_jobs.current_seating_job(tournament).status == SeatingJob.Status.QUEUED
    with pytest.raises(errors.ServiceError) as refused:  # one plan at a time, queued or running
        seating_jobs.start_seating_job(
            tournament.rounds.get(number=1), whole_plan=False, acting_user=organiser
        )
    assert refused.value.code == "job_running"
    assert not Seat.objects.exists()

    call_command("run_worker", "--once", "--name", "w1")

    job.refresh_from_db()
    assert (job.status, job.worker, job.attempts) == (SeatingJob.Status.DONE, "w1", 1), job.message
    assert Seat.objects.filter(round__number=1).count() == 16


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_two_workers_never_claim_the_same_job():
    tournament, _ = make_event()
    ids = {
        SeatingJob.objects.create(tournament=tournament, from_round=1, time_limit=1, status="queued").pk
        for _ in range(40)
    }
    claimed: dict[str, list[int]] = {"a": [], "b": []}
    start = threading.Barrier(2)

    def claim_all(name: str) -> None:
        try:
            start.wait()
            while True:
                try:
                    job_id = worker.claim_job(name)
                except OperationalError:  # SQLite's shared in-memory test database: busy, try again
                    time.sleep(0.01)
                    continue
                if job_id is None:
                    return
                claimed[name].append(job_id)
        finally:
            connection.close()

    threads = [threading.Thread(target=claim_all, args=(name,)) for name in claimed]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    every = claimed["a"] + claimed["b"]
    assert sorted(every) == sorted(ids)  # each job claimed, and only once
    assert set(SeatingJob.objects.values_list("attempts", flat=True)) == {1}
    for name, mine in claimed.items():
        assert set(SeatingJob.objects.filter(pk__in=mine).values_list("worker", flat=True)) <= {name}


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_real_job_runs_exactly_once_with_two_workers_polling(worker_process):
    tournament, organiser = make_event()
    job = seating_jobs.start_seating_job(
        tournament.rounds.get(number=1), whole_plan=False, acting_user=organiser
    )
    stop = threading.Event()
    runs: dict[str, int] = {}

    def run(name: str) -> None:
        try:
            runs[name] = worker.work(worker=name, poll=0.05, stop=stop, once=True)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    job.refresh_from_db()
    assert job.status == SeatingJob.Status.DONE and job.attempts == 1
    assert sum(runs.values()) == 1
    assert AuditEntry.objects.filter(tournament=tournament, action=AuditAction.SEAT_ROUND).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_job_whose_worker_died_is_taken_over_and_finished(worker_process):
    tournament, organiser = make_event()
    job = seating_jobs.start_seating_job(
        tournament.rounds.get(number=1), whole_plan=False, acting_user=organiser
    )
    # The first worker claimed it and was killed (kill -9): its heartbeat stopped half a minute ago.
    assert worker.claim_job("dead:1") == job.pk
    SeatingJob.objects.filter(pk=job.pk).update(
        heartbeat_at=timezone.now() - timedelta(seconds=worker.STALE_SECONDS + 10)
    )
    assert seating_jobs.current_seating_job(tournament).status == SeatingJob.Status.RUNNING  # not given up

    assert worker.work(worker="alive:2", poll=0.05, stop=threading.Event(), once=True) == 1

    job.refresh_from_db()
    assert (job.status, job.worker, job.attempts) == (SeatingJob.Status.DONE, "alive:2", 2)
    assert Seat.objects.filter(round__number=1).count() == 16


@pytest.mark.django_db(transaction=True)
def test_a_live_workers_job_is_not_taken_and_a_job_that_keeps_dying_is_given_up(worker_process):
    tournament, organiser = make_event()
    job = seating_jobs.start_seating_job(
        tournament.rounds.get(number=1), whole_plan=False, acting_user=organiser
    )
    assert worker.claim_job("w1") == job.pk
    assert worker.claim_job("w2") is None  # its heartbeat is fresh
    SeatingJob.objects.filter(pk=job.pk).update(
        attempts=worker.MAX_ATTEMPTS, heartbeat_at=timezone.now() - timedelta(minutes=5)
    )
    assert worker.claim_job("w2") is None
    job.refresh_from_db()
    assert job.status == SeatingJob.Status.FAILED and "start it again" in job.message


@pytest.mark.django_db(transaction=True)
def test_a_worker_that_lost_its_job_records_nothing(worker_process):
    tournament, organiser = make_event()
    job = seating_jobs.start_seating_job(
        tournament.rounds.get(number=1), whole_plan=False, acting_user=organiser
    )
    assert worker.claim_job("slow") == job.pk
    SeatingJob.objects.filter(pk=job.pk).update(worker="other")  # taken over meanwhile
    seating_jobs.run_seating_job(job.pk, worker="slow")
    job.refresh_from_db()
    assert job.status == SeatingJob.Status.RUNNING and job.worker == "other"


@pytest.mark.django_db(transaction=True)
def test_the_session_page_says_so_when_no_worker_takes_a_queued_job(client, worker_process):
    tournament, organiser = make_event()
    job = seating_jobs.start_seating_job(
        tournament.rounds.get(number=1), whole_plan=False, acting_user=organiser
    )
    client.force_login(organiser)
    url = reverse("manage:seating_job", args=[tournament.slug, 1])
    assert "Waiting for the background worker" in client.get(url).content.decode()
    SeatingJob.objects.filter(pk=job.pk).update(started_at=timezone.now() - timedelta(seconds=45))
    page = client.get(url, headers={"HX-Request": "true"})
    assert "No worker has taken it yet" in page.content.decode()
    assert "HX-Refresh" not in page  # still waiting: the page keeps polling


@pytest.mark.django_db(transaction=True)
def test_a_claim_that_fails_for_a_moment_does_not_end_a_once_run_with_the_job_waiting(
    worker_process, monkeypatch
):
    # Seen in the suite: SQLite answered "database table is locked" to one worker's claim while the other
    # wrote, and the --once run took that for "nothing waiting", leaving the job queued.
    tournament, organiser = make_event()
    job = seating_jobs.start_seating_job(
        tournament.rounds.get(number=1), whole_plan=False, acting_user=organiser
    )
    claim, failures = worker.claim_next, []

    def busy_once(name: str):
        if not failures:
            failures.append(name)
            raise OperationalError("database table is locked")
        return claim(name)

    monkeypatch.setattr(worker, "claim_next", busy_once)
    assert worker.work(worker="w1", poll=0.01, stop=threading.Event(), once=True) == 1
    job.refresh_from_db()
    assert failures == ["w1"] and job.status == SeatingJob.Status.DONE


@pytest.mark.django_db(transaction=True)
def test_a_once_run_with_the_database_away_gives_up_after_a_few_claims(monkeypatch):
    tries = []

    def away(name: str):
        tries.append(name)
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(worker, "claim_next", away)
    assert worker.work(worker="w1", poll=0.01, stop=threading.Event(), once=True) == 0
    assert len(tries) == worker.CLAIM_TRIES_ONCE
