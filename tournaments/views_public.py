"""Pages anyone can read: events, seating, results per table and standings (phone-friendly)."""

from __future__ import annotations

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django_tables2 import RequestConfig

from scoring.exports import STANDINGS_EXPORTS
from scoring.interchange import cached_standings_rows, standings_cache_key
from scoring.services import running_scores, session_result, table_state, tables_with_results
from tournaments.access import has_role, public_event, round_of
from tournaments.models import WINDS, Registration, Role, Seat, Tournament
from tournaments.tables import ScoreStandingsTable, StandingsTable


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
    tables = tables_with_results(tournament, round_)
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


def results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = public_event(slug)
    round_ = round_of(tournament, number)
    cards = []
    for table in tables_with_results(tournament, round_):
        state = table_state(table)
        result = session_result(table) if state != "not started" else None
        seats = seat_rows(table)
        for row in seats:
            if result is not None:
                row["score"] = result.scores[row["wind"]]
                if result.table_points is not None:
                    row["table_points"] = float(result.table_points[row["wind"]])
        hands = running_scores(table)
        if tournament.rules == "mcr":
            for row in hands:
                row["fans"] = fan_list(row["hand"].tiles)
        cards.append({"table": table, "state": state, "seats": seats, "hands": hands})
    return render(
        request,
        "tournaments/results.html",
        {"tournament": tournament, "round": round_, "rounds": tournament.rounds.all(), "cards": cards},
    )


def fan_list(tiles: dict | None) -> list[tuple[str, int]]:
    """The fans of a stored MCR hand, so players can check its score (empty when no tiles were kept)."""
    from scoring.rules.errors import HandInputError
    from scoring.rules.mcr.calculator import score_request

    if not tiles:
        return []
    try:
        return list(score_request(tiles)["fans"].items())
    except HandInputError:
        return []


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """Sortable standings; the table's HTML is cached per standings version and sort order, so the
    30-second polling of every phone and projector renders it once per change."""
    tournament = public_event(slug)
    sort = request.GET.get("sort", "")[:40]
    key = f"standings-html:{standings_cache_key(tournament)}:{tournament.standings_version}:{sort}"
    table_html = cache.get(key)
    if table_html is None:
        rows = [dict(row) for row in cached_standings_rows(tournament)]
        countries = {r.code: r.player.country for r in tournament.registrations.select_related("player")}
        for row in rows:
            row["country"] = countries.get(row["player"], "")
        table_class = StandingsTable if tournament.uses_table_points else ScoreStandingsTable
        table = table_class(rows, tournament_slug=tournament.slug)
        RequestConfig(request, paginate=False).configure(table)
        table_html = render_to_string("tournaments/_standings_table.html", {"table": table}, request=request)
        cache.set(key, table_html, timeout=3600)
    if request.htmx:
        return HttpResponse(table_html)
    return render(
        request,
        "tournaments/standings.html",
        {"tournament": tournament, "table_html": table_html, "formats": list(STANDINGS_EXPORTS)},
    )


def standings_download(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    tournament = public_event(slug)
    export = STANDINGS_EXPORTS.get(fmt)
    if export is None:
        raise Http404("Unknown format")
    filename, content_type, content = export(tournament).render()
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def player(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    """One player's event on a phone: where they sit in each session and how each session went."""
    tournament = public_event(slug)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), tournament=tournament, code=code, is_substitute=False
    )
    rows = cached_standings_rows(tournament)
    standing = next((row for row in rows if row["player"] == code), None)
    by_round = {line["round"]: line for line in (standing or {}).get("sessions", [])}
    seats = {
        seat.round_id: seat
        for seat in Seat.objects.filter(registration=registration).select_related("table", "round")
    }
    table_mates: dict[int, list[Seat]] = {}
    for other in (
        Seat.objects.filter(table_id__in=[seat.table_id for seat in seats.values()])
        .exclude(registration=registration)
        .select_related("registration__player")
    ):
        table_mates.setdefault(other.table_id, []).append(other)
    sessions = []
    for round_ in tournament.rounds.all():
        seat = seats.get(round_.pk)
        opponents = [
            {"wind": other.wind, "name": other.registration.player.name}
            for other in sorted(
                table_mates.get(seat.table_id, []) if seat else [], key=lambda s: WINDS.index(s.wind)
            )
        ]
        sessions.append(
            {"round": round_, "seat": seat, "opponents": opponents, "result": by_round.get(round_.number)}
        )
    return render(
        request,
        "tournaments/player.html",
        {"tournament": tournament, "registration": registration, "standing": standing, "sessions": sessions},
    )


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The hall's screen: standings in large type, refreshed every 30 seconds (only when they changed
    does the server recompute them, see ``cached_standings_rows``)."""
    tournament = public_event(slug)
    rows = cached_standings_rows(tournament)
    template = "tournaments/_projector_rows.html" if request.htmx else "tournaments/projector.html"
    return render(request, template, {"tournament": tournament, "rows": rows})
