"""The session clock: reading it (pure arithmetic on stored moments) and running it (services).

The organiser starts a session's clock, pauses and resumes it, extends it for every table, or gives
one table extra time. Nothing ticks in the database: a :class:`~tournaments.models.SessionClock` keeps
when the clock started, how long it was paused and how much was added, and :func:`read` works out the
time left at any moment. Pages send the seconds left and count down in the browser
(``static/js/clock.js``), polling now and then to pick up pauses and extensions.

Time limits and rule 74f (Sloper, line 2335): "In a tournament, there may be a time limit imposed for
each game. In such an event, the game ends when the time limit runs out or four rounds are played,
whichever happens first." Whether time ends the session is the rule set's to say
(``RuleSet.time_ends_session``); see :func:`after_time_refusal` for how "the hand in play" is read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language, gettext

from tournaments.archive import check_open
from tournaments.audit import AuditAction, User, audit
from tournaments.errors import ServiceError
from tournaments.event_settings import CLOCK_SETTINGS
from tournaments.event_settings import current as current_settings
from tournaments.models import Round, SessionClock, Table, Tournament
from tournaments.venue_time import venue_time

MAX_MINUTES = 600
"""No session or extension is longer than ten hours: a larger number is a typing slip."""

NOT_STARTED = "not started"
RUNNING = "running"
PAUSED = "paused"
LAST_HAND = "last hand"
TIME = "time"


@dataclass(frozen=True)
class ClockReading:
    """What a clock says at one moment, for one table or for the session as a whole."""

    state: str  # NOT_STARTED, RUNNING, PAUSED, LAST_HAND or TIME
    remaining: int  # whole seconds left (negative once time is up)
    total: int  # seconds the session (or the table) has in all, extensions included
    elapsed: int  # seconds of play so far (pauses not counted)
    paused: bool
    time_up_at: datetime | None  # when the time ran out (only once it has)
    last_hand_seconds: int

    @property
    def started(self) -> bool:
        return self.state != NOT_STARTED

    @property
    def shown(self) -> str:
        """The time left as the clock face shows it (h:mm:ss or m:ss; 0:00 once time is up)."""
        seconds = max(self.remaining, 0)
        hours, rest = divmod(seconds, 3600)
        minutes, secs = divmod(rest, 60)
        return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def reading(
    clock: SessionClock | None,
    *,
    now: datetime,
    table_number: int | None = None,
    last_hand_minutes: int = 5,
) -> ClockReading:
    """The clock at ``now``; with ``table_number``, that table's clock (its extra time added)."""
    last_hand_seconds = last_hand_minutes * 60
    if clock is None:
        return ClockReading(NOT_STARTED, 0, 0, 0, False, None, last_hand_seconds)
    total = clock.minutes * 60 + clock.extra_seconds
    if table_number is not None:
        total += int(clock.table_extra.get(str(table_number), 0))
    paused = clock.paused_seconds
    if clock.paused_at is not None:
        paused += max(0, int((now - clock.paused_at).total_seconds()))
    elapsed = max(0, int((now - clock.started_at).total_seconds()) - paused)
    remaining = total - elapsed
    time_up_at = None
    if remaining <= 0:
        state = TIME
        # Pausing is refused once the session's time is up, so the clock ran without pause since.
        time_up_at = now + timedelta(seconds=remaining)
    elif clock.paused_at is not None:
        state = PAUSED
    elif remaining <= last_hand_seconds:
        state = LAST_HAND
    else:
        state = RUNNING
    return ClockReading(
        state, remaining, total, elapsed, clock.paused_at is not None, time_up_at, last_hand_seconds
    )


def clock_settings(tournament: Tournament) -> dict[str, int]:
    """The event's clock settings (``clock.*`` in its settings), defaults filled in."""

    values = current_settings(tournament.rules, tournament.settings)
    return {s.key.removeprefix("clock."): int(values[s.key]) for s in CLOCK_SETTINGS}


def clock_of(round_: Round) -> SessionClock | None:
    return SessionClock.objects.filter(round=round_).first()


def read(round_: Round, *, table_number: int | None = None, now: datetime | None = None) -> ClockReading:
    """The session's clock now (or one table's), with the event's "last hand" setting."""
    return reading(
        clock_of(round_),
        now=now or timezone.now(),
        table_number=table_number,
        last_hand_minutes=clock_settings(round_.tournament)["last_hand_minutes"],
    )


def current_round(tournament: Tournament) -> Round | None:
    """The session the public pages' clock shows: the last one whose clock has started."""
    clock = (
        SessionClock.objects.filter(round__tournament=tournament)
        .select_related("round")
        .order_by("-round__number")
        .first()
    )
    return clock.round if clock is not None else None


def after_time_refusal(table: Table, hands_first_entered: Iterable[datetime], *, now: datetime) -> str | None:
    """Why no further hand may be entered at ``table`` because its time is up, or None.

    Rule 74f: the session ends when its time runs out. How "the hand in play" is read here: the hand
    being played when time was called may be finished and entered, so exactly one hand first entered
    after the table's time ran out is accepted; any further hand is refused. ``hands_first_entered`` is
    when each of the table's current hands was first entered (a correction keeps the hand's place,
    and a deleted hand no longer counts, so it can be entered again). A referee who enters hands from
    a paper scoresheet after the time would meet this refusal; the organiser then gives the table
    extra time, which lifts it (and is logged). Only rule sets whose time ends the session refuse.
    """
    if not table.round.tournament.rule_set.time_ends_session:
        return None  # before the clock is read
    moments = list(hands_first_entered)
    return refusal_after_time(table, clock_of(table.round), lambda: moments, now=now)


def refusal_after_time(
    table: Table,
    clock: SessionClock | None,
    hands_first_entered: Callable[[], Iterable[datetime]],
    *,
    now: datetime,
) -> str | None:
    """:func:`after_time_refusal` with the session's ``clock`` read by the caller (a hand save reads it
    with the table's state under the table's lock: one round trip less, docs/scale.md).
    ``hands_first_entered`` is called only once the table's time is up (the moments are read only then)."""
    tournament = table.round.tournament
    if not tournament.rule_set.time_ends_session:
        return None
    now_reading = reading(clock, now=now, table_number=table.number)
    if now_reading.state != TIME or now_reading.time_up_at is None:
        return None
    after = sum(1 for moment in hands_first_entered() if moment >= now_reading.time_up_at)
    if after == 0:
        return None
    called = venue_time(now_reading.time_up_at, tournament).strftime("%H:%M")
    rules, language = tournament.rule_set, get_language()
    return gettext(
        "Time was called at %(called)s and the %(hand)s in play then has been entered: this %(session)s "
        "has ended at this table (rule 74f). Mark the table complete, or ask the organiser for extra time."
    ) % {"called": called, "hand": rules.word("hand", language), "session": rules.word("session", language)}


# --- services -------------------------------------------------------------------------------------


def _minutes(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ServiceError(
            gettext("%(what)s must be a whole number of minutes.") % {"what": what}, code="bad_minutes"
        )
    if value <= 0:
        raise ServiceError(
            gettext(
                "%(what)s must be a positive number of minutes (%(value)s would shorten or stop "
                "the clock); nothing was changed."
            )
            % {"what": what, "value": value},
            code="not_positive",
        )
    if value > MAX_MINUTES:
        raise ServiceError(
            gettext("%(what)s can be at most %(max_minutes)s minutes.")
            % {"what": what, "max_minutes": MAX_MINUTES},
            code="too_long",
        )
    return value


def _locked_clock(round_: Round) -> SessionClock:
    check_open(round_.tournament)
    clock = SessionClock.objects.select_for_update().filter(round=round_).first()
    if clock is None:
        raise ServiceError(
            gettext("The clock of %(round)s has not been started.") % {"round": round_},
            code="clock_not_started",
        )
    return clock


def _save(clock: SessionClock, fields: list[str]) -> None:
    clock.version += 1
    clock.save(update_fields=[*fields, "version"])


@transaction.atomic
def start_clock(round_: Round, minutes: Any, *, acting_user: User) -> SessionClock:
    """Start the session's clock with ``minutes`` of play (the event's time limit by default)."""
    minutes = _minutes(minutes, "The session's length")
    check_open(round_.tournament)
    if not round_.tables.exists():
        raise ServiceError(
            gettext("Seat %(round)s before starting its clock.") % {"round": round_}, code="not_seated"
        )
    if SessionClock.objects.select_for_update().filter(round=round_).exists():
        raise ServiceError(
            gettext("The clock of %(round)s is already running; pause or extend it instead.")
            % {"round": round_},
            code="clock_started",
        )
    clock = SessionClock.objects.create(round=round_, minutes=minutes, started_at=timezone.now())
    audit(
        round_.tournament,
        acting_user,
        AuditAction.CLOCK_START,
        f"{round_}: clock started, {minutes} minutes",
        round=round_.number,
        minutes=minutes,
    )
    return clock


@transaction.atomic
def pause_clock(round_: Round, *, acting_user: User) -> SessionClock:
    """Stop the clock for a while (an incident in the hall); refused once time is up."""
    clock = _locked_clock(round_)
    now = timezone.now()
    if clock.paused_at is not None:
        raise ServiceError(
            gettext("The clock of %(round)s is already paused.") % {"round": round_}, code="already_paused"
        )
    if reading(clock, now=now).state == TIME:
        raise ServiceError(
            gettext("Time is up in %(round)s; extend the clock instead of pausing it.") % {"round": round_},
            code="time_up",
        )
    clock.paused_at = now
    _save(clock, ["paused_at"])
    audit(
        round_.tournament,
        acting_user,
        AuditAction.CLOCK_PAUSE,
        f"{round_}: clock paused",
        round=round_.number,
    )
    return clock


@transaction.atomic
def resume_clock(round_: Round, *, acting_user: User) -> SessionClock:
    clock = _locked_clock(round_)
    if clock.paused_at is None:
        raise ServiceError(
            gettext("The clock of %(round)s is not paused.") % {"round": round_}, code="not_paused"
        )
    pause = max(0, int((timezone.now() - clock.paused_at).total_seconds()))
    clock.paused_seconds += pause
    clock.paused_at = None
    _save(clock, ["paused_seconds", "paused_at"])
    audit(
        round_.tournament,
        acting_user,
        AuditAction.CLOCK_RESUME,
        f"{round_}: clock resumed after a pause of {pause // 60} min {pause % 60} s",
        round=round_.number,
        paused_seconds=pause,
    )
    return clock


@transaction.atomic
def extend_clock(round_: Round, minutes: Any, *, acting_user: User) -> SessionClock:
    """Add time for every table of the session (also after time is up: play resumes)."""
    minutes = _minutes(minutes, "An extension")
    clock = _locked_clock(round_)
    clock.extra_seconds += minutes * 60
    _save(clock, ["extra_seconds"])
    audit(
        round_.tournament,
        acting_user,
        AuditAction.CLOCK_EXTEND,
        f"{round_}: clock extended by {minutes} minutes",
        round=round_.number,
        minutes=minutes,
    )
    return clock


@transaction.atomic
def give_table_extra_time(table: Table, minutes: Any, *, acting_user: User) -> SessionClock:
    """Extra time for one table (it started late, a ruling held it up); added to what it had."""
    minutes = _minutes(minutes, "Extra time")
    round_ = table.round
    clock = _locked_clock(round_)
    extra = dict(clock.table_extra)
    extra[str(table.number)] = int(extra.get(str(table.number), 0)) + minutes * 60
    clock.table_extra = extra
    _save(clock, ["table_extra"])
    audit(
        round_.tournament,
        acting_user,
        AuditAction.CLOCK_TABLE_EXTRA,
        f"{round_}, table {table.number}: {minutes} minutes of extra time",
        round=round_.number,
        table=table.number,
        minutes=minutes,
    )
    return clock
