"""Substitutions: who played a seat when a substitute came in during a session, as the pages and prints
show it: "from hand N: <substitute> for <player>".

Each is a :class:`~tournaments.models.Substitution` (written by ``scoring/services/seat_changes.py``,
since it moves entered hands, which only ``scoring`` may do); the seat
keeps its player, so every page that lists seats asks here who else played them. Pages load the
seats with :func:`seat_prefetch` (one more query, whatever the number of tables) and read
:func:`of_seat` without further queries.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q, QuerySet

from tournaments.models import Registration, Seat, Substitution, Tournament


def substitutions_queryset() -> QuerySet[Substitution]:
    """Substitutions with what the pages print of them (the substitute's name and code)."""
    return Substitution.objects.select_related("substitute__player").order_by("from_hand", "pk")


def seat_prefetch(prefix: str = "") -> Prefetch[str, QuerySet[Substitution], str]:
    """Prefetch a seat's substitutions (``prefix``: the path to the seats, e.g. ``"seats__"``)."""
    return Prefetch(f"{prefix}substitutions", queryset=substitutions_queryset())


def of_seat(seat: Seat) -> list[Substitution]:
    """The substitutions at ``seat`` in hand order (prefetch with :func:`seat_prefetch`)."""
    return sorted(seat.substitutions.all(), key=lambda item: (item.from_hand, item.pk))


def involving(registration: Registration, tournament: Tournament) -> list[Substitution]:
    """In one query: the substitutions at ``registration``'s seats and those where they came in as the
    substitute, in the event, by session, with the seat's table, session and player."""
    return list(
        Substitution.objects.filter(
            Q(substitute=registration) | Q(seat__registration=registration),
            seat__round__tournament=tournament,
        )
        .select_related("seat__table", "seat__round", "seat__registration__player", "substitute__player")
        .order_by("seat__round__number", "from_hand")
    )


def substitute_winds(seats: Any) -> dict[int, str]:
    """Registration id -> the wind of the seat they played, for every substitute of these prefetched seats:
    a penalty or lateness naming a substitute counts at the seat they played (``scoring.services``)."""
    return {item.substitute_id: seat.wind for seat in seats for item in seat.substitutions.all()}
