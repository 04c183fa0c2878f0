"""What the public read API answers, as plain data: only what the public pages show (published events, a
session's published seating or results, confirmed tables), read through the pages' own rules
(``tournaments.access.public_event``/``public_round``, ``scoring.standings_cache``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q

from scoring.rules.finals import stage_of
from scoring.services.queries import is_confirmed, running_scores, tables_with_results
from scoring.services.standings import session_result
from scoring.standings_cache import EXPLAINED, cached_standings_rows
from tournaments.models import WINDS, Round, Seat, Table, Tournament
from tournaments.public_names import public_name, public_rows
from tournaments.services import substitutions


def published_events() -> list[dict[str, Any]]:
    """Every published event, newest first (a draft is never listed)."""
    events = Tournament.objects.filter(published_at__isnull=False, rehearsal_of__isnull=True).order_by(
        "-start_date", "-pk"
    )
    return [_event_summary(event) for event in events]


def _event_summary(event: Tournament) -> dict[str, Any]:
    return {
        "slug": event.slug,
        "name": event.name,
        "rules": event.rules,
        "start_date": event.start_date.isoformat() if event.start_date else None,
        "end_date": event.end_date.isoformat() if event.end_date else None,
    }


def event_detail(event: Tournament) -> dict[str, Any]:
    """An event and its sessions (what the event page shows)."""
    return {
        **_event_summary(event),
        "sessions_planned": event.num_sessions,
        "hands_per_session": event.hands_per_session,
        "uses_table_points": event.uses_table_points,
        "standings_frozen_after": event.standings_frozen_after,
        "sessions": event_sessions(event),
    }


def event_sessions(event: Tournament) -> list[dict[str, Any]]:
    """Each session and which of its parts are public (a draft part has no answer: 404), and in an event with
    finals its stage (``scoring.rules.finals.stage_of``, as the pages say it)."""
    return [
        {
            "number": round_.number,
            "seating_published": round_.seating_published_at is not None,
            "results_published": round_.results_published_at is not None,
            **({"stage": stage.lower()} if (stage := stage_of(event.settings, round_.number)) else {}),
        }
        for round_ in event.rounds.order_by("number")
    ]


def event_players(event: Tournament) -> list[dict[str, Any]]:
    """The event's players, by their public names (``tournaments.public_names``: the event's policy and each
    player's own choice): no PIN, no email, no EMA number (the pages show none of them). As the
    "find a player" page (``tournaments.views_public.find``): withdrawn players are left out, and a reserve is
    listed once a published seating seats them or they played a seat as a substitute."""
    seated = Q(seats__round__seating_published_at__isnull=False)
    registrations = (
        event.registrations.filter(
            Q(is_substitute=False) | seated | Q(substitutions__isnull=False), withdrawn_at=None
        )
        .distinct()
        .select_related("player")
    )
    named = [(public_name(r, event), r) for r in registrations]
    return [
        {
            "code": r.code,
            "name": name,
            "country": r.player.country,
            "team": r.team,
            "substitute": r.is_substitute,
        }
        for name, r in sorted(named, key=lambda item: (item[0].lower(), item[1].code))
    ]


def _substitutions(seat: Seat, event: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "from_hand": item.from_hand,
            "player": item.substitute.code,
            "name": public_name(item.substitute, event),
        }
        for item in substitutions.of_seat(seat)
    ]


def _seat(seat: Seat, event: Tournament) -> dict[str, Any]:
    """A seat with its player's public name (``tournaments.public_names``)."""
    return {
        "wind": seat.wind,
        "player": seat.registration.code,
        "name": public_name(seat.registration, event),
        "substitutions": _substitutions(seat, event),
    }


def _seats_by_wind(table: Table) -> list[Seat]:
    by_wind = {seat.wind: seat for seat in table.seats.all()}
    return [by_wind[wind] for wind in WINDS if wind in by_wind]


def session_seating(round_: Round) -> dict[str, Any]:
    """A session's published seating, table by table (the seating page's tables)."""
    tables = (
        Table.objects.filter(round=round_)
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("registration__player")),
            substitutions.seat_prefetch("seats__"),
        )
        .order_by("number")
    )
    return {
        "session": round_.number,
        "tables": [
            {"table": t.number, "seats": [_seat(s, round_.tournament) for s in _seats_by_wind(t)]}
            for t in tables
        ],
    }


def session_results(event: Tournament, round_: Round) -> dict[str, Any]:
    """A session's published results: its confirmed tables only, each seat's score and table points (the
    live results page also shows unconfirmed hands as they are entered; the API never does)."""
    tables = []
    for table in tables_with_results(event, round_):
        if not is_confirmed(table):
            continue
        result = session_result(table)
        seats = []
        for seat in _seats_by_wind(table):
            row = _seat(seat, event)
            row["score"] = result.scores[seat.wind]
            if result.table_points is not None:
                row["table_points"] = float(result.table_points[seat.wind])
            seats.append(row)
        tables.append({"table": table.number, "seats": seats, "hands": _hands(event, table)})
    return {"session": round_.number, "tables": tables}


def _hands(event: Tournament, table: Table) -> list[dict[str, Any]]:
    """A confirmed table's hands as the results page lists them: the rule set's words (in English, the API's
    one language), each seat's points and running total by starting wind, and the fans when the hand was
    entered with its tiles (MCR). Players are named by wind: the seats above say who sat where."""
    rules = event.rule_set
    return [
        {
            "number": row["hand"].number,
            "description": rules.describe(row["record"]),
            "points": {wind: row["delta"][wind] for wind in WINDS},
            "totals": {wind: row["totals"][wind] for wind in WINDS},
            "fans": [{"name": name, "points": points} for name, points in rules.fans(row["hand"].tiles)],
        }
        for row in running_scores(table)
    ]


def standings(event: Tournament) -> list[dict[str, Any]]:
    """The public standings: exactly the rows of ``manage.py standings --format json`` (the standings spec),
    from the cache the pages read (one computation per public version). The pages' rows also say what decided
    each place (``EXPLAINED``); the spec's JSON, and so the API, leaves those keys out. Names are the public
    names (``tournaments.public_names``), as on the standings page."""
    return [
        {key: value for key, value in row.items() if key not in EXPLAINED}
        for row in public_rows(event, cached_standings_rows(event))
    ]
