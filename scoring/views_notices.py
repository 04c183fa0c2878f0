"""Notices while a player's own page is open ("My event"): the next seating published, a session's clock
started, "last hand" and "time" (``tournaments/clock.py``), the player's table waiting for their signature,
their table's call for a referee taken.

``static/js/notices.js`` polls ``public:me_notices`` every few seconds with the version it last saw
(``If-None-Match``). The version is a digest of what the notices depend on, read in a few small statements
prepared once per connection (the event's settings; the player's seats in published sessions, which a
seating published changes, with whether each table has begun, is complete, confirmed and signed by the
player, and its ``results_version`` once complete: :class:`SeatFacts`; the clock's state now, which changes
with time alone; the open call at the player's tables): when it has not changed the answer is 304 with no
body and nothing else is read, so a hall of phones polling costs little, and a hand entered at a table in
play changes nothing. ``scoring/tests/test_player_notices.py`` plays a session step by step: an unchanged
version always means the same notices. Otherwise the answer is the notices now, each with a stable id: the page shows
(and, if the player allowed it, notifies) each id once, and the ids the page was drawn with are never shown
(``notices_context``). Texts are in the page's language (the language is part of the version).

Never stored by a shared cache: the answer is one player's (``Cache-Control: private``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Count, Exists, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.http import parse_etags
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext, pgettext

from scoring.models import Confirmation, Hand, Signature, TableTotals
from scoring.services import confirmation
from scoring.views_player import digest_of, table_digest, table_panel, table_poll_seconds
from tournaments import clock as session_clock
from tournaments import player_session
from tournaments.access import public_event
from tournaments.models import RefereeCall, Registration, Seat, SessionClock, Substitution, Tournament
from tournaments.prepared import Statement, fields_of
from tournaments.services import player_seats
from tournaments.services.calls import display_name

CACHE_CONTROL = "no-cache, private"


@dataclass(frozen=True)
class Facts:
    """What the notices depend on, read in a few small queries; its digest is the version."""

    seats: list[SeatFacts]
    clock: SessionClock | None
    clock_session: int | None  # the number of the clock's session
    state: str  # the clock's state now (tournaments.clock: NOT_STARTED ... TIME)
    calls: list[tuple[int, int, int | None]]  # open calls at the player's tables: (call, table id, taker)

    def digest(self, tournament: Tournament, registration_id: int) -> str:
        """The notices' part of the poll's version (:func:`poll_version`)."""
        clock = (self.clock.round_id, self.state) if self.clock is not None else None
        # Not the event's public_version: every confirmation anywhere in the hall bumps it, which would make
        # every phone read its notices again; publishing a seating changes ``seats`` (published rounds only),
        # and the settings (who signs, blind entry) are in the event's row already read.
        parts = [registration_id, get_language(), tournament.settings, self.seats, clock, self.calls]
        return digest_of(parts)


def poll_version(notices_part: str, table_part: str) -> str:
    """The poll's version, a quoted ETag: the notices' digest and the table's (``table_digest``, empty
    without a table to follow), each readable apart by this view alone (to the browser it is opaque)."""
    return f'"{notices_part}.{table_part}"'


def _notices_held(request: HttpRequest) -> set[str]:
    """The notices' digests of the versions the browser holds."""
    held = parse_etags(request.headers.get("If-None-Match", ""))
    return {etag.strip('"').split(".")[0] for etag in held}


def _table_number(request: HttpRequest) -> int | None:
    """The session whose table the page follows (``?table=N``), None without one."""
    number = request.GET.get("table", "")
    return int(number) if number.isdigit() and len(number) <= 4 else None


def _published_seats(registration: int, tournament: int) -> QuerySet[Seat]:
    """The registration's seats in the event's published sessions, its own or taken over as a substitute
    (each through its own index: an ``OR`` across the substitutions' join read every seat of the event)."""
    taken_over = Substitution.objects.filter(substitute_id=registration).values("seat_id")
    return Seat.objects.filter(Q(registration_id=registration) | Q(pk__in=taken_over)).filter(
        round__tournament_id=tournament, round__seating_published_at__isnull=False
    )


def _seats_query(registration: int, tournament: int) -> QuerySet[Seat, tuple[Any, ...]]:
    """Each published seat with what the notices read of its table: its session, table and wind (the
    seating notice, the clock's table), and what decides the seat now and the signing (``seat_now``,
    ``table_state``, ``table_panel``): the hands in force, totals, finished, confirmed, this player's
    signature, and the table's ``results_version`` (kept only once the table is complete: :class:`SeatFacts`)."""
    at_table = {"table": OuterRef("table_id")}
    hands = Hand.objects.in_force().filter(**at_table).order_by().values("table")
    return (
        _published_seats(registration, tournament)
        .annotate(
            hands=Subquery(hands.annotate(n=Count("pk")).values("n"), output_field=IntegerField()),
            totals=Exists(TableTotals.objects.current().filter(**at_table)),
            confirmed=Exists(Confirmation.objects.in_force().filter(**at_table)),
            signed=Exists(Signature.objects.in_force().filter(registration_id=registration, **at_table)),
        )
        .values_list(
            "round__number",
            "table_id",
            "table__number",
            "wind",
            "table__results_version",
            "table__finished_at",
            "hands",
            "totals",
            "confirmed",
            "signed",
        )
    )


class SeatFacts(NamedTuple):
    """A published seat as the notices depend on it. Not the table's ``results_version`` while it is in
    play: every hand bumps it, and the notices of its four players were read again after each hand (the
    signing needs it once the table is complete: a correction asks for the signatures again)."""

    session: int
    table_id: int
    table_number: int
    wind: str
    begun: bool
    complete: bool
    confirmed: bool
    signed: bool
    results_version: int | None

    @classmethod
    def of(cls, row: tuple[Any, ...], limit: int | None) -> SeatFacts:
        session, table_id, number, wind, version, finished_at, hands, totals, confirmed, signed = row
        hands = hands or 0
        # As scoring.services.confirmation.table_state and tournaments.services.player_seats.seat_now read it.
        complete = bool(totals) or finished_at is not None or (limit is not None and hands >= limit)
        begun = bool(hands) or bool(totals) or bool(confirmed) or finished_at is not None
        return cls(
            session,
            table_id,
            number,
            wind,
            begun,
            complete,
            bool(confirmed),
            bool(signed),
            version if complete else None,
        )


def _open_calls_query(registration: int, tournament: int) -> QuerySet[RefereeCall, tuple[Any, ...]]:
    """The calls not closed yet at the tables of the registration's published seats."""
    tables = _published_seats(registration, tournament).values("table_id")
    return (
        RefereeCall.objects.filter(table_id__in=tables, closed_at=None)
        .order_by("id")
        .values_list("id", "table_id", "taken_by_id")
    )


def _clock_query(tournament: int) -> QuerySet[SessionClock, tuple[Any, ...]]:
    """The clock of the event's last started session (``clock.current_round``), with that session's number."""
    clocks = SessionClock.objects.filter(round__tournament_id=tournament).order_by("-round__number")
    return clocks.values_list(*fields_of(SessionClock), "round__number")[:1]


SEATS = Statement("notice_seats", _seats_query, ("registration", "tournament"))
CLOCK = Statement("notice_clock", _clock_query, ("tournament",))
OPEN_CALLS = Statement("notice_open_calls", _open_calls_query, ("registration", "tournament"))
"""Every phone's notices poll asks these: compiled once per process and prepared on PostgreSQL
(``tournaments.prepared``)."""


def read_facts(tournament: Tournament, registration_id: int) -> Facts:
    """The player's published seats (their own or taken over as a substitute), the clock of the session
    in play (``clock.current_round``: the last one started) at the player's table, and open calls."""
    limit = tournament.rule_set.hands_allowed(tournament.hands_per_session)
    rows = SEATS.rows(registration=registration_id, tournament=tournament.pk)
    seats = sorted({SeatFacts.of(row, limit) for row in rows})
    clock, clock_session = None, None
    for *columns, number in CLOCK.values(tournament=tournament.pk):
        clock = SessionClock.from_db(connection.alias, fields_of(SessionClock), columns)
        clock_session = number
    state = session_clock.NOT_STARTED
    if clock is not None:
        table = next((seat.table_number for seat in seats if seat.session == clock_session), None)
        state = session_clock.reading(
            clock,
            now=timezone.now(),
            table_number=table,
            last_hand_minutes=session_clock.clock_settings(tournament)["last_hand_minutes"],
        ).state
    calls = OPEN_CALLS.rows(registration=registration_id, tournament=tournament.pk)
    return Facts(seats=seats, clock=clock, clock_session=clock_session, state=state, calls=calls)


def _session(tournament: Tournament, number: int) -> str:
    """ "Session 2" in the rule set's words and the page's language (NMJL: "Round 2")."""
    word = capfirst(tournament.rule_set.word("session", get_language()))
    return gettext("%(session)s %(number)s") % {"session": word, "number": number}


def _clock_notices(tournament: Tournament, facts: Facts) -> list[dict[str, str]]:
    if facts.clock_session is None or facts.state == session_clock.NOT_STARTED:
        return []
    number = facts.clock_session
    session = _session(tournament, number)
    found = [{"id": f"start-{number}", "text": gettext("%(session)s has started.") % {"session": session}}]
    rules = tournament.rule_set
    hand = rules.word("hand", get_language())
    signal = ""
    if facts.state == session_clock.LAST_HAND:
        signal = gettext("Last %(hand)s") % {"hand": hand}
    elif facts.state == session_clock.TIME:
        signal = (
            gettext("Time: finish the %(hand)s in play") % {"hand": hand}
            if rules.time_ends_session
            else gettext("Time")
        )
    if signal:
        found.append(
            {
                "id": f"{facts.state.replace(' ', '-')}-{number}",
                "text": session + pgettext("punctuation", ": ") + signal,
            }
        )
    return found


def _seating_notice(tournament: Tournament, facts: Facts) -> list[dict[str, str]]:
    """The last published session the player is seated in (a new seating is the one that matters)."""
    if not facts.seats:
        return []
    last = facts.seats[-1]
    number, table, wind = last.session, last.table_number, last.wind
    where = tournament.rule_set.wind_label(wind, get_language())
    text = gettext("%(session)s: the seating is out. You play at table %(table)s, %(wind)s.") % {
        "session": _session(tournament, number),
        "table": table,
        "wind": where,
    }
    return [{"id": f"seating-{number}-{table}-{wind}", "text": text}]


def _signing_notice(registration: Registration) -> list[dict[str, str]]:
    """The player's table now, complete and waiting for their signature (``table_panel``'s signing)."""
    if not confirmation.players_sign(registration.tournament):
        return []
    now = player_seats.seat_now(registration).now
    if now is None:
        return []
    panel = table_panel(now.table, registration)
    if not panel["signing"] or panel["i_signed"]:
        return []
    table = panel["table"]
    text = gettext("Table %(number)s is complete: sign the result on this page.") % {"number": table.number}
    return [{"id": f"sign-{table.pk}-{table.results_version}", "text": text}]


def _call_notices(facts: Facts) -> list[dict[str, str]]:
    taken = [call_id for call_id, _, taker in facts.calls if taker is not None]
    found = []
    for call in RefereeCall.objects.filter(pk__in=taken).select_related("table", "taken_by"):
        text = gettext("%(name)s is coming to table %(number)s.") % {
            "name": display_name(call.taken_by),
            "number": call.table.number,
        }
        found.append({"id": f"call-{call.pk}-taken", "text": text})
    return found


def notices(tournament: Tournament, registration: Registration, facts: Facts) -> list[dict[str, str]]:
    """The notices that hold now, each with an id that stays the same while its cause does."""
    return [
        *_seating_notice(tournament, facts),
        *_clock_notices(tournament, facts),
        *_signing_notice(registration),
        *_call_notices(facts),
    ]


def notices_context(
    tournament: Tournament, registration: Registration, table_number: int | None = None
) -> dict[str, Any]:
    """What "My event" draws its notices region with: the polled address (with the session of the table
    the page follows, ``table_number``), how often, the version, the table's digest and the ids the page
    already shows (never notified again)."""
    facts = read_facts(tournament, registration.pk)
    url = reverse("public:me_notices", args=[tournament.slug])
    table_part = ""
    if table_number is not None:
        url += f"?table={table_number}"
        table_part = table_digest(tournament, registration.pk, table_number)
    return {
        "url": url,
        "poll": table_poll_seconds(),
        "version": poll_version(facts.digest(tournament, registration.pk), table_part),
        "table": table_part,
        "seen": " ".join(item["id"] for item in notices(tournament, registration, facts)),
    }


def me_notices(request: HttpRequest, slug: str) -> HttpResponse:
    """The page's one poll: the signed-in player's notices, and whether the table the page follows
    (``?table=N``) changed. 304 while both are as the page has them; else JSON: the version, the notices
    now (none when only the table changed: the page has them) and the table's digest, on whose change
    notices.js asks for the table's fragment (``public:me_table``). 403 for a browser not signed in to the
    event. One request every few seconds per phone instead of two (a table poll of its own): at 400 phones
    the public pool answered 180 polls a second, each paying the request, the session and the event."""
    tournament = public_event(slug)
    registration_id = player_session.registration_id(request, tournament)
    if registration_id is None or not STILL_SIGNED_IN.rows(
        registration=registration_id, tournament=tournament.pk
    ):
        return _not_signed_in()
    facts = read_facts(tournament, registration_id)
    notices_part = facts.digest(tournament, registration_id)
    number = _table_number(request)
    table_part = table_digest(tournament, registration_id, number) if number is not None else ""
    version = poll_version(notices_part, table_part)
    if version in parse_etags(request.headers.get("If-None-Match", "")):
        response: HttpResponse = HttpResponseNotModified()  # nothing else is read
    else:
        registration = player_session.signed_in(request, tournament)
        if registration is None:  # withdrawn this very moment
            return _not_signed_in()
        unchanged = notices_part in _notices_held(request)
        response = JsonResponse(
            {
                "version": version,
                "title": tournament.name,
                "notices": [] if unchanged else notices(tournament, registration, facts),
                "table": table_part,
            }
        )
    response["ETag"] = version
    response["Cache-Control"] = CACHE_CONTROL
    response["Vary"] = "Cookie, Accept-Language"
    return response


def _not_signed_in() -> HttpResponse:
    response = JsonResponse({"error": gettext("Sign in to your own page of this event first.")}, status=403)
    response["Cache-Control"] = CACHE_CONTROL
    return response


def _still_signed_in_query(registration: int, tournament: int) -> QuerySet[Registration, Any]:
    """The registration, while it stands (not withdrawn) in the event (``player_session.signed_in``)."""
    return player_session.standing(registration, tournament).values_list("pk")


STILL_SIGNED_IN = Statement("notice_signed_in", _still_signed_in_query, ("registration", "tournament"))
