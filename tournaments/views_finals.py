"""The organiser's finals page: the cut to the top N after the qualifying sessions, made with one action
and undone while the final has not begun, and, when the final is re-seated each session, the next final
session seated by the final standings so far (``tournaments.services.finals``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.rules.finals import (
    CARRY_CHOICES,
    FIXED,
    RESEAT,
    SEATING_CHOICES,
    carry_over_of,
    cut_of,
    planned,
    reseats,
)
from tournaments import results
from tournaments.access import event_for
from tournaments.errors import ServiceError
from tournaments.models import Role, Seat, Tournament
from tournaments.services import finals


@login_required
def finals_page(request: HttpRequest, slug: str) -> HttpResponse:
    """What the cut is set to, who went through and where they sit, or who would go through now."""
    tournament = event_for(request, slug, Role.ORGANISER, archived_ok=True)
    size, after = planned(tournament.settings)
    cut = cut_of(tournament.settings)
    names = {r.code: r.player.name for r in tournament.registrations.select_related("player")}
    seats = []
    preview: list[tuple[str, int]] = []
    if cut is not None:
        seats = list(
            Seat.objects.filter(round__tournament=tournament, round__number__gt=cut.after)
            .select_related("round", "table", "registration__player")
            .order_by("round__number", "table__number", "wind")
        )
    elif size:
        preview = results.source().qualifying_order(tournament, after)[: size + 1]
    return render(
        request,
        "tournaments/organiser/finals.html",
        {
            "tournament": tournament,
            "size": size,
            "after": after,
            "carry_over": gettext(dict(CARRY_CHOICES)[carry_over_of(tournament.settings)]),
            "cut": cut,
            "seating": gettext(dict(SEATING_CHOICES)[RESEAT if reseats(tournament.settings) else FIXED]),
            "reseats": reseats(tournament.settings),
            "undo_next": cut is not None
            and any(r.seated_at for r in finals.final_rounds(tournament, cut.after)[1:]),
            "next_session": finals.next_final_session(tournament),
            "finalists": [(code, names.get(code, code)) for code in cut.finalists] if cut else [],
            "seats": seats,
            "preview": [(code, names.get(code, code), rank) for code, rank in preview],
        },
    )


def _finals_action(request: HttpRequest, slug: str, act: Callable[[Tournament, Any], str]) -> HttpResponse:
    """One of the Finals page's buttons: ``act`` does it and says what was done; a refusal is said instead."""
    tournament = event_for(request, slug, Role.ORGANISER)
    try:
        done = act(tournament, request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)
    return redirect("manage:finals", slug=slug)


@login_required
@require_POST
def make_cut(request: HttpRequest, slug: str) -> HttpResponse:
    def act(tournament: Tournament, user: Any) -> str:
        finalists = finals.make_cut(tournament, acting_user=user)
        return gettext("The cut is made: %(count)s players go through to the final, seated by rank.") % {
            "count": len(finalists)
        }

    return _finals_action(request, slug, act)


@login_required
@require_POST
def undo_cut(request: HttpRequest, slug: str) -> HttpResponse:
    def act(tournament: Tournament, user: Any) -> str:
        finals.undo_cut(tournament, acting_user=user)
        return gettext("The cut is undone: the final sessions are no longer seated.")

    return _finals_action(request, slug, act)


@login_required
@require_POST
def seat_next(request: HttpRequest, slug: str) -> HttpResponse:
    def act(tournament: Tournament, user: Any) -> str:
        number, _ = finals.seat_next_session(tournament, acting_user=user)
        return gettext("Session %(number)s is seated by the final standings so far.") % {"number": number}

    return _finals_action(request, slug, act)


@login_required
@require_POST
def undo_next(request: HttpRequest, slug: str) -> HttpResponse:
    def act(tournament: Tournament, user: Any) -> str:
        number = finals.undo_next_session(tournament, acting_user=user)
        return gettext("Session %(number)s is no longer seated.") % {"number": number}

    return _finals_action(request, slug, act)
