"""A player signed in to one event on their own phone, without an account.

A player proves who they are with their registration code and PIN (the seat slip's QR address carries the code;
the PIN is on the slip): the page that checks the PIN (``scoring``, where the PINs are) then calls
:func:`sign_in`. What the player may do is limited to their own registration in that one event: the session
stores only the registration's id under the event's key, never a user, so a player's session and a staff
login never stand in for each other (a staff member who signs in as a player stays staff, and a player never
reaches a staff page). Signing in rotates the session key (no fixation).
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import HttpRequest

from tournaments.models import Registration, Tournament

SESSION_PREFIX = "player-of-event-"


def _key(tournament: Tournament) -> str:
    return f"{SESSION_PREFIX}{tournament.pk}"


def sign_in(request: HttpRequest, registration: Registration) -> None:
    """Remember in this browser's session that it is ``registration``'s, for that event only."""
    request.session.cycle_key()
    request.session[_key(registration.tournament)] = registration.pk


def sign_out(request: HttpRequest, tournament: Tournament) -> None:
    request.session.pop(_key(tournament), None)


def registration_id(request: HttpRequest, tournament: Tournament) -> int | None:
    """The id of the registration this browser signed in as for ``tournament``, from the session alone:
    the caller checks it still stands (:func:`standing`), as the polls do in the statement they ask anyway."""
    pk = request.session.get(_key(tournament))
    return pk if isinstance(pk, int) else None


def standing(registration: int, tournament: int) -> QuerySet[Registration]:
    """The registration while its browser's sign-in still counts: in that event and not withdrawn (the one
    rule of :func:`signed_in` and of the players' polls' prepared statements)."""
    return Registration.objects.filter(pk=registration, tournament_id=tournament, withdrawn_at=None)


def signed_in(request: HttpRequest, tournament: Tournament) -> Registration | None:
    """The registration this browser signed in as for ``tournament`` (None: not signed in, or the player
    was withdrawn or removed since)."""
    pk = registration_id(request, tournament)
    if pk is None:
        return None
    return standing(pk, tournament.pk).select_related("player", "tournament").first()
