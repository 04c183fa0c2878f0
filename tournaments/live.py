"""What the organiser's live pages show about each table: state, progress (9/16), and whether it is
late (nothing entered for a while) or slow (behind the clock's pace); and the tables' open calls for a
referee with how long each has waited. Plain data for the templates."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext

from tournaments import clock as session_clock
from tournaments.models import WINDS, RefereeCall, Round, SessionClock, Table, Tournament
from tournaments.results import TableProgress
from tournaments.services.calls import display_name

BEHIND_BY = 2
"""A table this many hands short of the clock's pace is marked slow (one hand short is ordinary)."""


@dataclass(frozen=True)
class TableLine:
    table: Table
    state: str
    hands: int
    limit: int | None
    reading: session_clock.ClockReading
    idle_minutes: int | None  # minutes since the last entry (or the clock's start), while in play
    late: bool  # nothing entered for the event's "slow" minutes
    pace: int | None  # hands the clock's pace expects by now
    behind: bool
    extra_minutes: int  # this table's own extra time

    @property
    def time_up(self) -> bool:
        """Time is up for this table and it is not complete (finishing the hand in play, rule 74f)."""
        return self.state != "complete" and self.reading.state == session_clock.TIME

    @property
    def flagged(self) -> bool:
        return self.late or self.behind

    @property
    def seats(self) -> list[Any]:
        """The table's seats in wind order (E, S, W, N); prefetch them for a page of tables."""
        return sorted(self.table.seats.all(), key=lambda seat: WINDS.index(seat.wind))

    @property
    def progress(self) -> str:
        return f"{self.hands}/{self.limit}" if self.limit else str(self.hands)


def table_lines(
    tournament: Tournament,
    round_: Round,
    tables: Sequence[Table],
    progress: dict[int, TableProgress],
    *,
    now: datetime,
    clock: SessionClock | None = None,
) -> list[TableLine]:
    """One line per table of ``round_`` (``tables`` in table order)."""
    settings = session_clock.clock_settings(tournament)
    lines = []
    for table in tables:
        line = progress[table.pk]
        reading = session_clock.reading(
            clock, now=now, table_number=table.number, last_hand_minutes=settings["last_hand_minutes"]
        )
        # Once time is up the clock's pace and idleness mean nothing: the card says "time" instead.
        playing = line.state != "complete" and reading.started and reading.state != session_clock.TIME
        since = line.last_entry_at or (clock.started_at if clock is not None else None)
        idle = int((now - since).total_seconds() // 60) if playing and since is not None else None
        late = idle is not None and idle >= settings["slow_minutes"]
        pace = None
        if playing and line.limit and reading.total > 0:
            pace = min(line.limit, math.floor(line.limit * reading.elapsed / reading.total))
        behind = pace is not None and pace - line.hands >= BEHIND_BY
        lines.append(
            TableLine(
                table=table,
                state=line.state,
                hands=line.hands,
                limit=line.limit,
                reading=reading,
                idle_minutes=idle,
                late=late,
                pace=pace,
                behind=behind,
                extra_minutes=int(clock.table_extra.get(str(table.number), 0)) // 60 if clock else 0,
            )
        )
    return lines


def summary(lines: Sequence[TableLine]) -> dict[str, Any]:
    states = [line.state for line in lines]
    return {
        "tables": len(lines),
        "not_started": states.count("not started"),
        "in_play": states.count("in play"),
        "complete": states.count("complete"),
        "flagged": sum(1 for line in lines if line.flagged),
    }


def duration(seconds: int) -> str:
    """A wait as people say it: "1 min 20 s", "40 s"."""
    seconds = max(0, seconds)
    if seconds < 60:
        return gettext("%(seconds)s s") % {"seconds": seconds}
    return gettext("%(minutes)s min %(seconds)s s") % {"minutes": seconds // 60, "seconds": seconds % 60}


@dataclass(frozen=True)
class CallLine:
    """An open call for a referee: which table, why, how long it has waited (until taken, while not)."""

    call: RefereeCall
    waited_seconds: int
    taker: str  # who is coming ("" while nobody took it)

    @property
    def table(self) -> Table:
        return self.call.table

    @property
    def reason(self) -> str:
        return str(self.call.get_reason_display()) if self.call.reason else ""

    @property
    def waited(self) -> str:
        return duration(self.waited_seconds)


def call_lines(calls: Sequence[RefereeCall], *, now: datetime) -> list[CallLine]:
    """The lines of ``calls`` (``taken_by`` selected with them): a taken call's wait ends when it was taken."""
    lines = []
    for call in calls:
        until = call.taken_at or now
        lines.append(
            CallLine(
                call=call,
                waited_seconds=int((until - call.created_at).total_seconds()),
                taker=display_name(call.taken_by),
            )
        )
    return lines
