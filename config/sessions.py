"""The database's sessions, read by a statement prepared once per connection.

Every request of a signed-in browser reads its session: a referee's save, and at 400 phones about 100 polls a
second. Django's own store builds the query with the ORM each time and PostgreSQL plans it each time: 0.3 ms
of the database's CPU for a row read by its key (``docs/scale.md``), about a third of that prepared.
Everything else (saving, rotating the key, expiry) is Django's ``db`` store as it is.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db.models import QuerySet
from django.utils import timezone

from tournaments.prepared import Statement


def _session_data(key: str, now: Any) -> QuerySet[Session, tuple[Any, ...]]:
    """The session's data while it has not expired at ``now``."""
    return Session.objects.filter(session_key=key, expire_date__gt=now).values_list("session_data")


SESSION_DATA = Statement("session_data", _session_data, ("key", "now"), text=("key",), moments=("now",))


class SessionStore(db.SessionStore):
    """``SESSION_ENGINE = "config.sessions"``."""

    def load(self) -> dict[str, Any]:
        """As Django's ``db`` store loads a session: its data, or nothing (and no key) when there is none
        or it expired."""
        rows = SESSION_DATA.rows(key=self.session_key, now=timezone.now()) if self.session_key else []
        if not rows:
            self._session_key = None
            return {}
        return self.decode(rows[0][0])
