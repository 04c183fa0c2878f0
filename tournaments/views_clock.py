"""The session clock's pages and the organiser's live view.

Organisers start, pause, resume and extend a session's clock and give a table extra time (each form
posts to its own endpoint and calls one service in ``tournaments.clock``). Everyone reads the clock
as a small fragment (``public:clock``) that the referee's table page, the projector and the players'
phones poll; the browser counts down between polls (``static/js/clock.js``). The organiser's event
and session pages poll their tables' state (``manage:live``, ``manage:session_live``), answered 304
when nothing changed.
"""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from tournaments import clock as session_clock
from tournaments import live, results
from tournaments.access import DRAFT_MESSAGE, HtmxHttpRequest, event_for, has_role, round_of, table_of
from tournaments.errors import ServiceError
from tournaments.models import Role, Round, Seat, SessionClock, Table, Tournament
from tournaments.services import calls
from tournaments.venue_time import use_event_zone, venue_time


class MinutesForm(forms.Form):
    """Minutes as typed; the service says what is wrong with zero or a negative number."""

    minutes = forms.IntegerField(min_value=-10_000, max_value=10_000)


class TableExtraForm(MinutesForm):
    table = forms.IntegerField(min_value=1, max_value=10_000)


def clock_context(round_: Round, *, table_number: int | None = None) -> dict[str, Any]:
    """What ``tournaments/_clock.html`` shows: the reading and the session's structure in the rule
    set's words (MCR: "Session 2: 16 hands or 120 minutes"; NMJL: "Round 2: 4 games, 60 minutes")."""
    tournament = round_.tournament
    clock = session_clock.clock_of(round_)
    rules = tournament.rule_set
    settings = session_clock.clock_settings(tournament)
    now = timezone.now()
    reading = session_clock.reading(
        clock,
        now=now,
        table_number=table_number,
        last_hand_minutes=settings["last_hand_minutes"],
    )
    # Start and end in the venue's clock (tournaments/venue_time.py), whichever zone the page runs in; the
    # countdown itself (static/js/clock.js) is seconds left and needs no zone.
    started_at = venue_time(clock.started_at, tournament) if clock is not None else None
    ends_at = None
    if reading.time_up_at is not None:
        ends_at = reading.time_up_at
    elif reading.started and not reading.paused:
        ends_at = now + timedelta(seconds=reading.remaining)
    return {
        "tournament": tournament,
        "round": round_,
        "reading": reading,
        "started_at": started_at.strftime("%H:%M") if started_at is not None else "",
        "ends_at": venue_time(ends_at, tournament).strftime("%H:%M") if ends_at is not None else "",
        "minutes": clock.minutes if clock is not None else tournament.session_minutes,
        "extra_minutes": round((reading.total - (clock.minutes * 60 if clock else 0)) / 60),
        "limit": rules.hands_allowed(tournament.hands_per_session),
        "words": rules.words,
        "time_ends_session": rules.time_ends_session,
        "table_number": table_number,
        "poll_url": _clock_url(tournament, round_, table_number),
    }


def _clock_url(tournament: Tournament, round_: Round, table_number: int | None) -> str:
    url = reverse("public:clock", args=[tournament.slug]) + f"?session={round_.number}"
    return url + (f"&table={table_number}" if table_number is not None else "")


def _whole(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() and len(value) < 6 else None


def clock_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    """The clock for anyone once the event is published (for its staff before): one session's (``?session=N``, default the last started) and one table's
    (``?table=M``, its extra time added). Small, so phones may poll it."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if (not tournament.is_published or tournament.is_rehearsal) and not has_role(
        request.user, tournament, Role.REFEREE
    ):
        # A draft event's clock is for its staff only (their pages poll it before the event is public).
        raise Http404(DRAFT_MESSAGE)
    use_event_zone(tournament)
    number = _whole(request.GET.get("session"))
    round_ = round_of(tournament, number) if number is not None else session_clock.current_round(tournament)
    context: dict[str, Any] = {"clock": None}
    if round_ is not None:
        context["clock"] = clock_context(round_, table_number=_whole(request.GET.get("table")))
    response = render(request, "tournaments/_clock.html", context)
    response["Cache-Control"] = "no-cache"
    return response


CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')

CLOCK_ACTIONS = ("start", "pause", "resume", "extend", "table")


@login_required
@require_POST
def clock_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    """Start, pause, resume or extend the session's clock, or give one table extra time."""
    tournament = event_for(request, slug, Role.ORGANISER)
    round_ = round_of(tournament, number)
    if action not in CLOCK_ACTIONS:
        raise Http404("No such clock action")
    form: forms.Form | None = None
    if action in ("start", "extend"):
        form = MinutesForm(request.POST)
    elif action == "table":
        form = TableExtraForm(request.POST)
    back = reverse("manage:session", args=[slug, number]) + "#clock"
    if form is not None and not form.is_valid():
        messages.error(request, gettext("Enter the minutes as a whole number; nothing was changed."))
        return redirect(back)
    data = form.cleaned_data if form is not None else {}
    try:
        if action == "start":
            session_clock.start_clock(round_, data["minutes"], acting_user=request.user)
            done = gettext("Clock started: %(minutes)s minutes.") % {"minutes": data["minutes"]}
        elif action == "pause":
            session_clock.pause_clock(round_, acting_user=request.user)
            done = gettext("Clock paused.")
        elif action == "resume":
            session_clock.resume_clock(round_, acting_user=request.user)
            done = gettext("Clock resumed.")
        elif action == "extend":
            session_clock.extend_clock(round_, data["minutes"], acting_user=request.user)
            done = gettext("Clock extended by %(minutes)s minutes for every table.") % {
                "minutes": data["minutes"]
            }
        else:
            table = Table.objects.filter(round=round_, number=data["table"]).first()
            if table is None:
                raise ServiceError(
                    gettext("%(round)s has no table %(table)s.") % {"round": round_, "table": data["table"]},
                    code="no_table",
                )
            session_clock.give_table_extra_time(table, data["minutes"], acting_user=request.user)
            done = gettext("Table %(table)s: %(minutes)s minutes of extra time.") % {
                "table": table.number,
                "minutes": data["minutes"],
            }
    except ServiceError as error:
        messages.error(request, gettext("Nothing was changed: %(message)s") % {"message": error.message})
    else:
        messages.success(request, done)
    return redirect(back)


# --- the organiser's live view ----------------------------------------------------------------------


def _tables(round_: Round) -> list[Table]:
    from django.db.models import Prefetch

    seats = Prefetch("seats", queryset=Seat.objects.select_related("registration__player"))
    return list(round_.tables.select_related("round").prefetch_related(seats).order_by("number"))


def session_live_context(tournament: Tournament, round_: Round) -> dict[str, Any]:
    """The session page's table cards: state, progress, late or behind, extra time."""
    tables = _tables(round_)
    progress = results.source().table_progress(tables)
    clock = session_clock.clock_of(round_)
    lines = live.table_lines(tournament, round_, tables, progress, now=timezone.now(), clock=clock)
    return {
        "tournament": tournament,
        "round": round_,
        "lines": lines,
        "summary": live.summary(lines),
        "word": tournament.rule_set.words,
    }


def event_live_context(tournament: Tournament) -> dict[str, Any]:
    """The event dashboard's sessions (tables by state), the session in play, table by table, and the
    tables' open calls for a referee with how long each has waited."""
    rounds = list(tournament.rounds.all())
    # Only what the lines need: a thousand tables on a big event, polled every 15 seconds.
    tables = list(Table.objects.filter(round__tournament=tournament).only("id", "number", "round_id"))
    progress = results.source().table_progress(tables)
    clocks = {c.round_id: c for c in SessionClock.objects.filter(round__tournament=tournament)}
    now = timezone.now()
    sessions = []
    candidates: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    for round_ in rounds:
        mine = sorted((t for t in tables if t.round_id == round_.pk), key=lambda t: t.number)
        lines = live.table_lines(tournament, round_, mine, progress, now=now, clock=clocks.get(round_.pk))
        summary = live.summary(lines)
        sessions.append({"round": round_, **summary})
        if summary["tables"] and summary["complete"] < summary["tables"]:
            # The session in play: the last one whose clock runs, else the first with a table playing.
            rank = (round_.pk in clocks, summary["in_play"] > 0, round_.pk in clocks and round_.number)
            candidates.append((rank, {"round": round_, "lines": lines, "summary": summary}))
    in_play = max(candidates, key=lambda item: item[0])[1] if candidates else None
    return {
        "tournament": tournament,
        "sessions": sessions,
        "in_play": in_play,
        "calls": live.call_lines(calls.open_calls([tournament]), now=now),
        "word": tournament.rule_set.words,
    }


def _fragment(request: HtmxHttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """A polled fragment with an ETag of its content: unchanged tables cost a 304 and no bytes."""
    html = render_to_string(template, context, request=request)
    # The CSRF token in the forms is masked afresh on every render: it is not a change.
    unmasked = CSRF_FIELD.sub("", html)
    etag = '"' + hashlib.sha256(unmasked.encode()).hexdigest()[:32] + '"'
    # GZipMiddleware weakens the ETag it sends ("W/..."), so compare without the weak marker.
    if request.headers.get("If-None-Match", "").removeprefix("W/") == etag:
        not_modified = HttpResponseNotModified()
        not_modified["ETag"] = etag
        return not_modified
    response = HttpResponse(html)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache, private"
    return response


@login_required
def event_live(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    return _fragment(request, "tournaments/organiser/_event_live.html", event_live_context(tournament))


@login_required
def session_live(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    round_ = round_of(tournament, number)
    return _fragment(
        request, "tournaments/organiser/_session_live.html", session_live_context(tournament, round_)
    )


def table_clock_context(tournament: Tournament, round_number: int, table_number: int) -> dict[str, Any]:
    """The clock on a referee's table page (that table's extra time included)."""
    table = table_of(tournament, round_number, table_number)
    return clock_context(table.round, table_number=table.number)
