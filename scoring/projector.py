"""What the hall's projector shows: the standings with "after session N" (provisional or final), the
session's clock, and the next session's seating once it is published. Plain data for the template;
``static/js/projector.js`` pages and rotates it to fit the screen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.utils.translation import gettext

from scoring.standings_cache import SessionProgress, cached_standings_rows, session_progress
from tournaments import clock as session_clock
from tournaments.models import Round, Seat, Table, Tournament
from tournaments.public_names import public_name, public_rows
from tournaments.release import counted_rounds
from tournaments.views_clock import clock_context

POLL_SECONDS = 1
"""How often the projector asks for its slides: a confirmation is on the hall's screen within 2 s (a poll,
then one drawing). A poll when nothing changed is answered 304 with one query (``views_public.projector``)."""


def projector_poll_seconds() -> int:
    """``settings.PROJECTOR_POLL_SECONDS`` when set, else :data:`POLL_SECONDS`."""
    return int(getattr(settings, "PROJECTOR_POLL_SECONDS", POLL_SECONDS))


@dataclass(frozen=True)
class Status:
    """The line above the standings: which session they are after, and whether that is final."""

    session: int | None
    final: bool
    confirmed: int
    tables: int

    @property
    def text(self) -> str:
        """In the page's language."""
        if self.session is None:
            return gettext("Before the first session")
        if self.final:
            return gettext("After session %(number)s (final)") % {"number": self.session}
        return gettext(
            "After session %(number)s (provisional: %(confirmed)s of %(tables)s tables confirmed)"
        ) % {
            "number": self.session,
            "confirmed": self.confirmed,
            "tables": self.tables,
        }


def status(progress: list[SessionProgress], counted: set[int] | None = None) -> Status:
    """The last session the public standings count decides (``counted``: the sessions whose results
    are published, up to a frozen session; all when None): final when every one of its tables is
    confirmed."""
    played = [p for p in progress if (p.started or p.confirmed) and (counted is None or p.number in counted)]
    if not played:
        return Status(None, False, 0, 0)
    last = played[-1]
    return Status(last.number, last.final, last.confirmed, last.tables)


def seating_published(round_: Round) -> bool:
    """Whether a session's seating may be shown in the hall: seated, and published by the organiser
    (release controls: ``tournaments.release``)."""
    return round_.seated_at is not None and round_.seating_published_at is not None


def next_seating(tournament: Tournament, progress: list[SessionProgress]) -> dict[str, Any] | None:
    """The first seated session where no table has started, by player name (players look for their
    own name), or None when there is none or it is not published."""
    started = {p.number for p in progress if p.started or p.confirmed}
    seated = {p.number for p in progress if p.tables}
    upcoming = sorted(seated - started)
    if not upcoming:
        return None
    round_ = Round.objects.get(tournament=tournament, number=upcoming[0])
    if not seating_published(round_):
        return None
    tables = Table.objects.filter(round=round_).prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("registration__player"))
    )
    rows = sorted(
        (
            {"name": public_name(seat.registration, tournament), "table": table.number, "wind": seat.wind}
            for table in tables
            for seat in table.seats.all()
        ),
        key=lambda row: str(row["name"]).lower(),
    )
    return {"round": round_, "rows": rows}


def projector_context(tournament: Tournament) -> dict[str, Any]:

    progress = session_progress(tournament)
    current = session_clock.current_round(tournament)
    clock = clock_context(current) if current is not None else None
    return {
        "tournament": tournament,
        "rows": public_rows(tournament, cached_standings_rows(tournament)),
        "status": status(progress, counted_rounds(tournament)),
        "clock": clock if clock is not None and clock["reading"].started else None,
        "seating": next_seating(tournament, progress),
    }
