"""A gunicorn worker's threads: at most GUNICORN_WORKING_THREADS work at once, and a thread waiting for another's
drawing gives its slot back meanwhile (config/working.py, tournaments/public_read.stored_within)."""

from __future__ import annotations

import importlib
import threading
import time

import pytest
from django.core.cache import cache
from django.db import connection

from config import working
from tournaments.public_read import stored_within


@pytest.fixture
def one_slot():
    working.limit(1)
    yield
    working.limit(0)


def test_at_most_the_limit_work_at_once():
    working.limit(2)
    try:
        now, most, lock = 0, 0, threading.Lock()

        def work() -> None:
            nonlocal now, most
            with working.working():
                with lock:
                    now += 1
                    most = max(most, now)
                time.sleep(0.03)
                with lock:
                    now -= 1

        threads = [threading.Thread(target=work) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert most == 2
    finally:
        working.limit(0)


def test_a_thread_waiting_for_a_drawing_lets_another_work_meanwhile(one_slot):
    """The one slot is held by a reader waiting for a page another request draws: the drawing request still
    works, and the reader gets its page long before its wait would have ended."""
    cache.delete("drawn-by-another")
    found = []

    def reader() -> None:
        with working.working():
            found.append(stored_within("drawn-by-another", 5.0))

    def drawer() -> None:
        with working.working():
            cache.set("drawn-by-another", "the page")

    waiting_reader = threading.Thread(target=reader)
    started = time.monotonic()
    waiting_reader.start()
    time.sleep(0.05)  # the reader holds the slot, then waits
    drawing = threading.Thread(target=drawer)
    drawing.start()
    drawing.join(timeout=2)
    waiting_reader.join(timeout=6)
    assert not drawing.is_alive()
    assert found == ["the page"]
    assert time.monotonic() - started < 2


def test_a_nested_slot_is_the_one_held(one_slot):
    with working.working(), working.working():  # would block for ever if it took a second slot
        pass


@pytest.mark.django_db
def test_a_request_works_in_a_slot(one_slot, client):
    """The middleware takes the slot (first in the stack) and gives it back after the answer."""
    assert client.get("/").status_code in (200, 302)
    assert client.get("/").status_code in (200, 302)  # the slot came back


def test_gunicorn_limits_only_a_pool_with_more_threads_than_working_ones():
    config = importlib.import_module("config.gunicorn_config")

    class Log:
        def info(self, *args):
            pass

    def worker(threads: int):
        cfg = type("Cfg", (), {"threads": threads})
        return type("Worker", (), {"log": Log(), "cfg": cfg})()

    try:
        config.post_worker_init(worker(6))
        assert working.limited() == config.working_threads == 2
        config.post_worker_init(worker(2))  # the referees' pool: two threads, both working
        assert working.limited() is None
    finally:
        working.limit(0)


@pytest.mark.django_db
def test_the_open_standings_work_while_every_page_slot_is_taken(one_slot, client):
    """The hall's pages hold every slot (here: the one); the open standings, answered from the worker's
    drawing, still work in a lane of their own. The event does not exist: the answer is the view's 404."""
    with working.working():  # another request holds the pages' slot for as long as this test
        answered = []
        standings = threading.Thread(target=_get, args=(client, "/e/no-such-event/standings/", answered))
        standings.start()
        standings.join(timeout=5)
        assert answered and answered[0].status_code == 404

        results = threading.Thread(target=_get, args=(client, "/e/no-such-event/results/1/", answered))
        results.start()
        results.join(timeout=0.3)
        assert results.is_alive()  # a page of the hall waits for the slot
    results.join(timeout=5)
    assert answered[1].status_code == 404


def _get(client, path: str, answered: list) -> None:
    try:
        answered.append(client.get(path))
    finally:
        connection.close()  # this thread's own connection


def test_a_slot_given_back_goes_to_the_longest_waiting_thread():
    """A thread that gives its slot back and asks again at once queues behind the threads already waiting."""
    slots = working.Slots(1)
    slots.acquire()
    order, lock = [], threading.Lock()

    def wait_for_it(name: str) -> None:
        slots.acquire()
        with lock:
            order.append(name)
        slots.release()

    first = threading.Thread(target=wait_for_it, args=("waiting first",))
    first.start()
    time.sleep(0.05)
    second = threading.Thread(target=wait_for_it, args=("waiting second",))
    second.start()
    time.sleep(0.05)
    slots.release()
    slots.acquire()  # asked again at once: served after both
    with lock:
        order.append("asked again")
    slots.release()
    first.join(timeout=2)
    second.join(timeout=2)
    assert order == ["waiting first", "waiting second", "asked again"]
