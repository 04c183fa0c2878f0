"""A check-in kiosk: a tablet by the desk where players find their name and check in with their PIN.

An organiser turns a browser into the event's kiosk from the desk page (``views_desk.kiosk_on``): their
login on that browser ends (the session is flushed) and the new session holds only the event's kiosk flag,
so the tablet left on the table reaches no staff page. The kiosk pages (``scoring.views_kiosk``, where the
PINs are checked) answer only in such a session and only while nobody is logged in on it.
"""

from __future__ import annotations

from django.contrib.auth import logout
from django.http import HttpRequest

from tournaments.audit import AuditAction, audit
from tournaments.models import Tournament

SESSION_PREFIX = "kiosk-of-event-"


def _key(tournament: Tournament) -> str:
    return f"{SESSION_PREFIX}{tournament.pk}"


def turn_on(request: HttpRequest, tournament: Tournament) -> None:
    """Make this browser the event's kiosk: logged (by the organiser, before their login ends), then the
    staff login on this browser ends and only the kiosk flag stays."""
    audit(
        tournament,
        request.user,
        AuditAction.KIOSK_ON,
        f"Check-in kiosk turned on by {request.user.get_username()}",
        public_pages=False,
    )
    logout(request)  # flushes the session: nothing of the staff login is left on the tablet
    request.session[_key(tournament)] = True


def is_kiosk(request: HttpRequest, tournament: Tournament) -> bool:
    """This browser is the event's kiosk (an organiser turned it on here) and nobody is logged in on it."""
    return bool(request.session.get(_key(tournament))) and not request.user.is_authenticated
