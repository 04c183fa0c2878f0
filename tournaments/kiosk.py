"""A check-in kiosk: a tablet by the desk where players find their name and check in with their PIN.

An organiser turns a browser into the event's kiosk from the desk page (``views_desk.kiosk_on``): their
login on that browser ends (the session is flushed) and the new session holds only the event's kiosk flag,
so the tablet left on the table reaches no staff page. The kiosk pages (``scoring.views_kiosk``, where the
PINs are checked) answer only in such a session and only while nobody is logged in on it.

Leaving kiosk mode asks an organiser of the event to log in on the tablet (``turn_off``), with their own
username and password, refused to anyone else and throttled like every login (django-axes): the tablet
stands in the hall, so a bare "Leave" button would let any passer-by end the check-in and leave a browser
on the desk, and a login names who ended it in the audit log.

The kiosk stands in the hall too, so it searches and shows players by the event's public-name policy
(``tournaments.public_names``, ``find``): a name the public may not see is neither found nor shown there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import login, logout
from django.http import HttpRequest

from players.folding import matches, query_words
from tournaments import public_names
from tournaments.audit import AuditAction, audit
from tournaments.desk import code_of, name_order
from tournaments.models import Registration, Tournament

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


def turn_off(request: HttpRequest, tournament: Tournament, organiser: Any) -> None:
    """Leave kiosk mode on this browser: logged as ``organiser``'s action (who logged in on the tablet,
    checked by the caller to be an organiser of the event), then the kiosk session ends and the organiser
    is logged in on it, back at the desk."""
    audit(
        tournament,
        organiser,
        AuditAction.KIOSK_OFF,
        f"Check-in kiosk turned off by {organiser.get_username()}",
        public_pages=False,
    )
    request.session.flush()  # nothing of the kiosk is left
    login(request, organiser)


@dataclass(frozen=True)
class Found:
    """A player the kiosk lists, with the name the public may see (``tournaments.public_names``)."""

    registration: Registration
    name: str


def find(tournament: Tournament, query: str) -> list[Found]:
    """The players not withdrawn whose code is the query (a scanned seat slip, ``desk.code_of``), else
    whose public name or code has every word of it (case, accents and punctuation ignored), listed by the
    name shown, so the order tells nothing of a hidden name."""
    policy = public_names.event_policy(tournament)
    everyone = [
        Found(r, public_names.name_under(r, public_names.narrowest(policy, r.public_name)))
        for r in tournament.registrations.filter(withdrawn_at=None).select_related("player")
    ]
    code = code_of(query).casefold()
    by_code = [item for item in everyone if item.registration.code.casefold() == code]
    if by_code:
        return by_code
    words = query_words(query)
    found = [item for item in everyone if matches(words, item.name, item.registration.code)]
    return sorted(found, key=lambda item: (*name_order(item.name), item.registration.code))
