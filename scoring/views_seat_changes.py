"""Organiser pages for changing seats while a session is played: a substitute takes over a seat, two
players' seats are fixed after hands were played (the services are in ``scoring.services.seat_changes``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.services import seat_changes
from tournaments.access import event_for, round_of
from tournaments.errors import ServiceError
from tournaments.models import Registration, Role, Seat, Substitution


@login_required
def seat_changes_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The session's tables with their seats and substitutions, and the two forms."""
    tournament = event_for(request, slug, Role.ORGANISER)
    round_ = round_of(tournament, number)
    seats = list(
        Seat.objects.filter(round=round_)
        .select_related("registration__player", "table")
        .order_by("table__number", "wind")
    )
    taken = {s.registration_id for s in seats} | set(
        Substitution.objects.filter(seat__round=round_).values_list("substitute_id", flat=True)
    )
    free = [
        r
        for r in tournament.registrations.select_related("player").order_by("player__name")
        if r.pk not in taken
    ]
    by_seat: dict[int, list[Substitution]] = {}
    for item in Substitution.objects.filter(seat__round=round_).select_related("substitute__player"):
        by_seat.setdefault(item.seat_id, []).append(item)
    tables: dict[int, list[dict[str, Any]]] = {}
    for seat in sorted(seats, key=lambda s: (s.table.number, "ESWN".index(s.wind))):
        tables.setdefault(seat.table.number, []).append(
            {"seat": seat, "substitutions": by_seat.get(seat.pk, [])}
        )
    return render(
        request,
        "scoring/organiser/seat_changes.html",
        {
            "tournament": tournament,
            "round": round_,
            "tables": sorted(tables.items()),
            "players": sorted(seats, key=lambda s: s.registration.player.name.lower()),
            "free": free,
        },
    )


@login_required
@require_POST
def substitute(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A substitute (registered, or a new registration by name) takes over a seat from the next hand."""
    tournament = event_for(request, slug, Role.ORGANISER)
    round_ = round_of(tournament, number)
    absent = request.POST.get("absent", "")
    seat = Seat.objects.filter(round=round_, registration__code=absent).select_related("table").first()
    try:
        if seat is None:
            raise ServiceError(gettext("Choose the player whose seat is taken over."), code="not_seated")
        new_name = request.POST.get("new_name", "").strip()
        reason = request.POST.get("reason", "")
        if new_name:
            done = seat_changes.substitute_new_player(
                seat.table,
                absent,
                new_name,
                acting_user=request.user,
                reason=reason,
                joins_event=request.POST.get("joins_event") == "on",
            )
        else:
            found = Registration.objects.filter(
                tournament=tournament, code=request.POST.get("substitute", "")
            ).first()
            if found is None:
                raise ServiceError(
                    gettext("Choose a substitute or type a new player's name."), code="no_substitute"
                )
            done = seat_changes.substitute_seat(
                seat.table, absent, found, acting_user=request.user, reason=reason
            )
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            gettext("%(name)s plays %(wind)s at table %(number)s from hand %(from_hand)s.")
            % {
                "name": done.substitute.player.name,
                "wind": seat.wind,
                "number": seat.table.number,
                "from_hand": done.from_hand,
            },
        )
    return redirect("manage:seat_changes", slug=slug, number=number)


@login_required
@require_POST
def fix_seats(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Exchange two players' seats after hands were played; their hands move with them."""
    tournament = event_for(request, slug, Role.ORGANISER)
    round_ = round_of(tournament, number)
    try:
        moved = seat_changes.fix_seats_after_play(
            round_, request.POST.get("a", ""), request.POST.get("b", ""), acting_user=request.user
        )
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            gettext("Seats exchanged; %(moved)s hands moved with the players (as new versions).")
            % {"moved": moved},
        )
    return redirect("manage:seat_changes", slug=slug, number=number)
