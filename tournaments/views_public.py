"""Pages anyone can read about an event and its seating (results and standings are in
``scoring.views_public``, the layer that owns them)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from players.folding import MAX_QUERY, matches, query_words
from tournaments import public_names
from tournaments.access import has_role, public_event, public_round
from tournaments.models import WINDS, EntryWindow, Registration, Role, Seat, Table, Tournament
from tournaments.services import substitutions


def home(request: HttpRequest) -> HttpResponse:
    events = Tournament.objects.filter(published_at__isnull=False, rehearsal_of__isnull=True)
    return render(request, "tournaments/home.html", {"tournaments": events})


def event(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = public_event(slug)
    rounds = list(tournament.rounds.all())
    return render(
        request,
        "tournaments/event.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "players": tournament.registrations.filter(withdrawn_at__isnull=True).count(),
            "is_organiser": has_role(request.user, tournament, Role.ORGANISER),
            "is_referee": has_role(request.user, tournament, Role.REFEREE),
            # Opening and closing registration bump the public version (tournaments.services.entries).
            "registration_open": EntryWindow.objects.filter(
                tournament=tournament, opened=True, closes_at__gt=timezone.now()
            ).exists(),
        },
    )


def seat_rows(table: Table) -> list[dict[str, Any]]:
    """The table's seats by wind, each with its substitutions (prefetch ``substitutions.seat_prefetch("seats__")``)."""
    by_wind = {seat.wind: seat for seat in table.seats.all()}
    return [
        {"wind": w, "seat": by_wind[w], "substitutions": substitutions.of_seat(by_wind[w])}
        for w in WINDS
        if w in by_wind
    ]


def seating(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = public_event(slug)
    round_ = public_round(tournament, number, "seating")
    tables = list(
        Table.objects.filter(round=round_)
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("registration__player")),
            substitutions.seat_prefetch("seats__"),
        )
        .order_by("number")
    )
    rows: list[dict[str, Any]] = [
        {
            "name": public_names.public_name(s.registration, tournament),
            "code": s.registration.code,
            "table": t.number,
            "wind": s.wind,  # named in the page's language by the template (wind_name)
            "substitutions": substitutions.of_seat(s),
        }
        for t in tables
        for s in t.seats.all()
    ]
    # A substitute who came in at a seat mid-session finds themselves too, at the seat they played.
    rows += [
        {
            "name": public_names.public_name(item.substitute, tournament),
            "code": item.substitute.code,
            "table": t.number,
            "wind": s.wind,
            "substitutions": [item],
        }
        for t in tables
        for s in t.seats.all()
        for item in substitutions.of_seat(s)
    ]
    by_player = sorted(rows, key=lambda item: item["name"].lower())
    return render(
        request,
        "tournaments/seating.html",
        {
            "tournament": tournament,
            "round": round_,
            "rounds": tournament.rounds.all(),
            "tables": [{"table": t, "seats": seat_rows(t)} for t in tables],
            "by_player": by_player,
        },
    )


FIND_LIMIT = 30
"""At most this many players listed for one search (a one-letter query would list everyone)."""


def find(request: HttpRequest, slug: str) -> HttpResponse:
    """A player finds themselves by name (case, accents and punctuation ignored, ``players.folding``)
    or id, and sees their seat in the latest seated session and a link to their page."""
    tournament = public_event(slug)
    # Shown back to the reader: control characters (a NUL, a bell) are dropped, never echoed.
    query = "".join(char for char in request.GET.get("q", "")[:MAX_QUERY] if char.isprintable())
    words = query_words(query)
    found: list[Registration] = []
    if words:
        # Plain values first (folding 200 names is quick; building 200 model objects is not), then the
        # few players that match. Only what the public may see is searched: a hidden full name finds
        # nobody (tournaments.public_names).
        policy = public_names.event_policy(tournament)
        rows = [
            (public_names.narrowest(policy, own), pk, code, name, given, family)
            for pk, name, given, family, own, code in tournament.registrations.filter(
                # a reserve is found once they played a seat as a substitute
                Q(is_substitute=False) | Q(substitutions__isnull=False),
                withdrawn_at=None,
            )
            .distinct()
            .order_by("player__name", "pk")
            .values_list(
                "pk", "player__name", "player__given_name", "player__family_name", "public_name", "code"
            )
        ]
        candidates = [
            (public_names.shown_name(rule, code, *names), pk, code) for rule, pk, code, *names in rows
        ]
        if any(row[0] != public_names.FULL for row in rows):
            # listed by what is shown, so the order tells nothing of a hidden name
            candidates.sort(key=lambda item: item[0].casefold())
        matched = [pk for text, pk, code in candidates if matches(words, text, code)]
        shown = {
            r.pk: r for r in Registration.objects.filter(pk__in=matched[:FIND_LIMIT]).select_related("player")
        }
        found = [shown[pk] for pk in matched[:FIND_LIMIT]]
        more = len(matched) - len(found)
    else:
        more = 0
    latest = (
        tournament.rounds.exclude(seated_at=None)
        .exclude(seating_published_at=None)  # a draft seating is not shown
        .order_by("-number")
        .first()
    )
    seats: dict[int, Seat] = {}
    stood_in: dict[int, list[Any]] = {}
    if latest is not None and found:
        seats = {
            seat.registration_id: seat
            for seat in Seat.objects.filter(round=latest, registration__in=found).select_related("table")
        }
        if len(seats) < len(found):  # someone without a seat may have played one as a substitute
            for item in (
                substitutions.substitutions_queryset()
                .filter(seat__round=latest, substitute__in=[r for r in found if r.pk not in seats])
                .select_related("seat__table", "seat__registration__player")
            ):
                seats.setdefault(item.substitute_id, item.seat)
                stood_in.setdefault(item.substitute_id, []).append(item)
    return render(
        request,
        "tournaments/find.html",
        {
            "tournament": tournament,
            "query": query,
            "searched": bool(query.strip()),
            "usable": bool(words),
            "results": [
                {"registration": r, "seat": seats.get(r.pk), "substitutions": stood_in.get(r.pk, [])}
                for r in found
            ],
            "more": more,
            "round": latest,
        },
    )
