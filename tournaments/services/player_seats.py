"""A player's seat now and next: one rule for the kiosk's "table 4, East", the call-a-referee button and the
player's own page.

Of the sessions whose seating is published, the player's seat now is in the latest one whose table has begun
(a hand or totals entered, or marked complete), until that table's result is confirmed; then the following
session's. Before anything is played it is the first. So a player who finished early and waits for the
signatures still sees (and signs, and calls a referee to) that table, a player already playing the next
session is not sent back to an unconfirmed earlier one, and when every table of theirs is confirmed the last
one stays shown (``coming`` is then None: there is no seat to go to). A substitute brought in holds the seat
they took over (``Substitution``); the player replaced keeps it too, for the hands they played there.

What was entered and confirmed is asked of ``scoring`` through ``results.source()``: a fixed number of
queries whatever the number of sessions."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, Q

from tournaments import results
from tournaments.models import Registration, Seat, Substitution, Table


@dataclass(frozen=True)
class SeatNow:
    """The player's seat now and in the next published session, and whether now's result is confirmed."""

    now: Seat | None
    next: Seat | None
    now_confirmed: bool = False

    @property
    def coming(self) -> Seat | None:
        """The seat to go to (the kiosk, checking in): now, unless its result is confirmed already."""
        return None if self.now_confirmed else self.now

    @property
    def table(self) -> Table | None:
        """The table the player plays at now (where a call from their page goes)."""
        return self.now.table if self.now is not None else None


def published_seats(registration: Registration) -> list[Seat]:
    """The seats the player has, or took over as a substitute, in sessions whose seating is published, in
    session order, with each table's seats and players (two queries)."""
    taken_over = Substitution.objects.filter(substitute=registration).values("seat_id")
    return list(
        Seat.objects.filter(
            # Each through its own index: an OR across the substitutions' join read every seat of the event.
            Q(registration=registration) | Q(pk__in=taken_over),
            round__tournament_id=registration.tournament_id,
            round__seating_published_at__isnull=False,
        )
        .select_related("round__tournament", "table__round")
        .prefetch_related(
            Prefetch("table__seats", queryset=Seat.objects.select_related("registration__player"))
        )
        .order_by("round__number")
    )


def seat_now(registration: Registration) -> SeatNow:
    """The player's seat now and next by the module's rule (five queries)."""
    seats = published_seats(registration)
    if not seats:
        return SeatNow(now=None, next=None)
    played = results.source().tables_played([seat.table_id for seat in seats])
    begun = [
        index
        for index, seat in enumerate(seats)
        if seat.table_id in played.begun or seat.table_id in played.confirmed or seat.table.finished_at
    ]
    index = begun[-1] if begun else 0
    if seats[index].table_id in played.confirmed and index + 1 < len(seats):
        index += 1
    now = seats[index]
    return SeatNow(
        now=now,
        next=seats[index + 1] if index + 1 < len(seats) else None,
        now_confirmed=now.table_id in played.confirmed,
    )
