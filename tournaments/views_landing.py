"""Where a user lands after logging in: organisers on their events, referees on "my tables"."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tournaments import results
from tournaments.models import Role, Table, Tournament
from tournaments.roles import roles_of
from tournaments.views_calls import open_calls_context, referee_events


@login_required
def landing(request: HttpRequest) -> HttpResponse:
    """The page after login: a referee's tables, else the organiser's events (which also says what to
    do when the account has no role yet)."""
    roles = roles_of(request.user)
    if not roles.organises and roles.works_tables:
        return redirect("referee:my_tables")
    return redirect("manage:dashboard")


def _session_in_play(tournament: Tournament, tables: list[Table]) -> dict[str, Any] | None:
    """The first seated session with a table not yet complete (else the last seated one), with each
    table's state and progress."""
    if not tables:
        return None
    progress = results.source().table_progress(tables)
    by_round: dict[int, list[Table]] = {}
    for table in tables:
        by_round.setdefault(table.round.number, []).append(table)
    numbers = sorted(by_round)
    current = next(
        (n for n in numbers if any(progress[t.pk].state != "complete" for t in by_round[n])), numbers[-1]
    )
    return {
        "number": current,
        "tables": [
            {
                "table": t,
                "state": progress[t.pk].state,
                "hands": progress[t.pk].hands,
                "limit": progress[t.pk].limit,
            }
            for t in by_round[current]
        ],
    }


@login_required
def my_tables(request: HttpRequest) -> HttpResponse:
    """A referee's events, each with the session in play and one tap to each of its tables; their open
    calls for a referee at the top."""
    roles = roles_of(request.user)
    events = referee_events(request)
    tables = list(
        Table.objects.filter(round__tournament__in=events)
        .select_related("round")
        .order_by("round__number", "number")
    )
    items = []
    for tournament in events:
        mine = [t for t in tables if t.round.tournament_id == tournament.pk]
        items.append(
            {
                "tournament": tournament,
                "roles": [label for value, label in Role.choices if value in roles.in_event(tournament)],
                "session": _session_in_play(tournament, mine),
            }
        )
    return render(request, "tournaments/my_tables.html", {"events": items, **open_calls_context(events)})
