"""What the hall's projector shows: the standings with "after session N" (provisional or final), the
session's clock, and the next session's seating once it is published. Plain data for the template;
``static/js/projector.js`` pages and rotates it to fit the screen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from scoring.standings_cache import SessionProgress, cached_standings_rows, session_progress
from tournaments import clock as session_clock
from tournaments.models import Round, Seat, Table, Tournament
from tournaments.public_names import public_name, public_rows
from tournaments.public_read import computed_once
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
    """The slides' context: the header, status and clock drawn each time (the clock's seconds change), the
    standings and seating slides as :func:`projector_slides` stored them for this public version."""
    progress = session_progress(tournament)
    current = session_clock.current_round(tournament)
    clock = clock_context(current) if current is not None else None
    return {
        "tournament": tournament,
        "slides": projector_slides(tournament, progress),
        "status": status(progress, counted_rounds(tournament)),
        "clock": clock if clock is not None and clock["reading"].started else None,
    }


def projector_slides(tournament: Tournament, progress: list[SessionProgress] | None = None) -> dict[str, str]:
    """The standings and next seating slides (400 rows each at 400 players: 0.3-1 s in the public pool at the
    lowest priority), drawn once per public version and language and drawn ahead by the background worker
    with the standings' table (``scoring.standings_page``). Everything they show changes the event's
    ``public_version`` (a confirmation, published results or seating, a session's first hand), which the
    key names with the event and the language: what is stored is what a drawing now would give."""
    key = (
        f"projector-slides:{tournament.pk}.{int(tournament.created_at.timestamp())}."
        f"{tournament.public_version}.{get_language()}"
    )

    def draw() -> dict[str, str]:
        seen = progress if progress is not None else session_progress(tournament)
        rows = public_rows(tournament, cached_standings_rows(tournament))
        context = {"tournament": tournament, "rows": rows, "seating": next_seating(tournament, seen)}
        return {
            "standings": render_to_string("scoring/public/_projector_standings.html", context),
            "seating": render_to_string("scoring/public/_projector_seating.html", context),
        }

    drawn = computed_once(key, draw)
    return {part: mark_safe(html) for part, html in drawn.items()}  # noqa: S308  (our templates' output)
