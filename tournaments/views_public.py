"""Pages anyone can read about an event and its seating (results and standings are in
``scoring.views_public``, the layer that owns them)."""

from __future__ import annotations

from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.access import has_role, public_event, round_of
from tournaments.models import WINDS, Role, Seat, Table, Tournament


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", {"tournaments": Tournament.objects.all()})


def event(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = public_event(slug)
    rounds = list(tournament.rounds.all())
    return render(
        request,
        "tournaments/event.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "players": tournament.registrations.count(),
            "is_organiser": has_role(request.user, tournament, Role.ORGANISER),
            "is_referee": has_role(request.user, tournament, Role.REFEREE),
        },
    )


def seat_rows(table) -> list[dict]:
    by_wind = {seat.wind: seat for seat in table.seats.all()}
    return [{"wind": w, "seat": by_wind[w]} for w in WINDS if w in by_wind]


def seating(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = public_event(slug)
    round_ = round_of(tournament, number)
    tables = list(
        Table.objects.filter(round=round_)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("registration__player")))
        .order_by("number")
    )
    by_player = sorted(
        (
            {
                "name": s.registration.player.name,
                "code": s.registration.code,
                "table": t.number,
                "wind": s.get_wind_display(),
            }
            for t in tables
            for s in t.seats.all()
        ),
        key=lambda item: item["name"].lower(),
    )
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
