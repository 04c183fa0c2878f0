"""Eight writers released at once, for the threaded tests on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from django.db import OperationalError, connection

from tournaments.errors import ServiceError

THREADS = 8


def patiently(call: Callable[[], Any]) -> Any:
    """Run a write, waiting while the test database is locked: the suite's SQLite test database is
    in memory with a shared cache, where a second writer is told "locked" at once instead of waiting
    for the busy timeout as the real file database does. Through a page, that is the answer "not saved:
    the database did not answer" (503, ``config.middleware.DatabaseAway``), and the post is made again as
    the referee would."""
    for _ in range(2000):
        try:
            result = call()
        except OperationalError as error:
            if "locked" not in str(error):
                raise
            time.sleep(0.005)
            continue
        if getattr(result, "status_code", None) == 503:  # a page's "not saved, try again": saved again
            time.sleep(0.005)
            continue
        return result
    raise AssertionError("the database stayed locked")


def at_once(action: Callable[[int], Any]) -> tuple[list[Any], Counter[str]]:
    """Run ``action(i)`` in eight threads released together; what each returned, and the codes of
    the refusals."""
    start = threading.Barrier(THREADS)
    done: list[Any] = []
    refused: Counter[str] = Counter()
    failures: list[BaseException] = []
    lock = threading.Lock()

    def run(index: int) -> None:
        try:
            start.wait()
            result = patiently(lambda: action(index))
            with lock:
                done.append(result)
        except ServiceError as error:
            with lock:
                refused[error.code] += 1
        except BaseException as error:  # reported below, not lost in the thread
            with lock:
                failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures, failures
    assert len(done) + sum(refused.values()) == THREADS
    return done, refused
