"""How many of a gunicorn worker's threads may work at once; the others may only wait.

A public worker's thread spends much of a busy minute waiting, not working: for the background worker's drawing
of a new version of the standings, or for another reader's rendering of the same page
(``tournaments.public_read.stored_within``). With two threads per worker, a hall's player pages and API readers
waiting after each confirmation held every thread, and the open standings' poll that would show the change was
queued behind them for 1-2.5 s (``bench/entry_load.py``, step 4). More threads alone let more requests query the
database at once, at the referees' priority (the saves' p95 rose to 286 ms with four).

So a worker has more threads (``GUNICORN_THREADS``, 6 for the public pool) but only ``GUNICORN_WORKING_THREADS``
(2) hold a working slot at once: each request takes one (:class:`WorkingSlots`), and a thread gives it back
while it waits (:func:`waiting`). The open standings and the projector have slots of their own (:data:`QUICK`).
Outside gunicorn (runserver, tests) there is no limit.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TypeVar

from django.http import HttpRequest, HttpResponseBase
from django.urls import Resolver404, resolve

_View = TypeVar("_View", bound=Callable[..., HttpResponseBase])

PAGES, QUICK = "pages", "quick"
"""The lanes: every request works in ``PAGES``, but the views marked :func:`quick_lane` (the pages answered
from the worker's drawing ahead: the open standings and the projector) have slots of their own. After a
confirmation the hall's other pages are all drawn anew in the public pool (15 a second, most taking 0.3-2 s at
the lowest CPU priority), and the standings' poll that shows the change queued behind them for a slot twice
(before and after waiting for the worker's drawing): up to 4.2 s in the pool."""


class Slots:
    """A counting semaphore that serves its waiters in the order they came: a slot given back goes straight to
    the longest waiting thread. ``threading.Semaphore`` lets a thread that just finished a request take the
    slot again for its next one ahead of the woken waiter: with 6 threads and 2 slots, some phones' polls
    waited over a second behind others (``bench/player_pages.py``, p95 1.0-1.4 s)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._free = count
        self._lock = threading.Lock()
        self._waiters: deque[threading.Lock] = deque()

    def acquire(self) -> None:
        with self._lock:
            if self._free and not self._waiters:
                self._free -= 1
                return
            handed = threading.Lock()
            handed.acquire()
            self._waiters.append(handed)
        handed.acquire()  # released by the release() that hands this thread the slot

    def release(self) -> None:
        with self._lock:
            if self._waiters:
                self._waiters.popleft().release()  # the slot passes on, never free in between
            else:
                self._free += 1


_lanes: dict[str, Slots] = {}
_held = threading.local()


def limit(working: int, quick: int = 2) -> None:
    """At most ``working`` threads of this process work at once on pages, and ``quick`` more on the quick
    lane's views (0: no limit). Called once per process, before it serves a request
    (``config/gunicorn_config.py``)."""
    _lanes.clear()
    if working > 0:
        _lanes[PAGES] = Slots(working)
        _lanes[QUICK] = Slots(max(1, quick))


def limited() -> int | None:
    """The pages' limit in force (None: none); for the tests."""
    slots = _lanes.get(PAGES)
    return None if slots is None else slots.count


def quick_lane(view: _View) -> _View:
    """Mark a view answered from what the worker draws ahead: it works in slots of its own (:data:`QUICK`)."""
    view.working_lane = QUICK  # type: ignore[attr-defined]  # read by WorkingSlots
    return view


@contextmanager
def working(lane: str = PAGES) -> Iterator[None]:
    """Hold a working slot of ``lane`` for the block (at once if this thread holds one, or without a limit)."""
    slots = _lanes.get(lane)
    if slots is None or getattr(_held, "slots", None) is not None:
        yield
        return
    slots.acquire()
    _held.slots = slots
    try:
        yield
    finally:
        _held.slots = None
        slots.release()


@contextmanager
def waiting() -> Iterator[None]:
    """Give this thread's working slot back for the block, for another request to work meanwhile; take one
    of the same lane again after it (a thread that held none just waits)."""
    slots = getattr(_held, "slots", None)
    if slots is None:
        yield
        return
    _held.slots = None
    slots.release()
    try:
        yield
    finally:
        slots.acquire()
        _held.slots = slots


class WorkingSlots:
    """Middleware, after the static files: each request works in a slot of its view's lane (:func:`working`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        lane = PAGES
        if _lanes:
            with suppress(Resolver404):
                lane = getattr(resolve(request.path_info).func, "working_lane", PAGES)
        with working(lane):
            return self.get_response(request)
