"""Pages anyone can read about results: results per table, standings (with downloads), each player's
page and the projector. Cached per standings version so phones polling them cost little."""

from __future__ import annotations

import copy
import hashlib

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django_tables2 import RequestConfig

from scoring.exports import STANDINGS_EXPORTS
from scoring.projector import projector_context
from scoring.services import is_confirmed, running_scores, session_result, table_state, tables_with_results
from scoring.standings_cache import (
    cached_standings_rows,
    progress_lines,
    session_progress,
    standings_cache_key,
)
from scoring.tables import ScoreStandingsTable, StandingsTable
from tournaments.access import HtmxHttpRequest, public_event, round_of
from tournaments.models import WINDS, Registration, Seat
from tournaments.page_cache import compact_html
from tournaments.views_public import seat_rows


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
        for row in hands:
            row["fans"] = tournament.rule_set.fans(row["hand"].tiles)
        cards.append(
            {
                "table": table,
                "state": state,
                "confirmed": is_confirmed(table),
                "seats": seats,
                "hands": hands,
            }
        )
    return render(
        request,
        "scoring/public/results.html",
        {"tournament": tournament, "round": round_, "rounds": tournament.rounds.all(), "cards": cards},
    )


STANDINGS_PARAMETERS = ("sort", "provisional")
"""The only query parameters the standings page reads; the cached page is keyed by them and its links
carry nothing else (a visitor's other parameters never reach another visitor's page)."""


def _standings_request(request: HttpRequest) -> HttpRequest:
    """The request as the cached standings see it: only the parameters they read, each kept short."""
    clean = copy.copy(request)
    query = QueryDict(mutable=True)
    for name in STANDINGS_PARAMETERS:
        value = request.GET.get(name, "")[:40]
        if value:
            query[name] = value
    query._mutable = False
    clean.GET = query  # type: ignore[assignment]  # the stubs type GET as the immutable subclass
    return clean


def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Sortable standings over the confirmed tables, with each session's progress above them; the
    organiser's provisional view (``?provisional=1``) counts every entered result and says so. The
    fragment is cached per standings version, sort order and view, so the 30-second polling of every
    phone and projector renders it once per change."""
    tournament = public_event(slug)
    clean = _standings_request(request)
    sort = clean.GET.get("sort", "")
    provisional = clean.GET.get("provisional") == "1"
    key = f"standings-html:{standings_cache_key(tournament)}:{tournament.standings_version}:{sort}:{int(provisional)}"
    etag = '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'
    # GZipMiddleware weakens the ETag it sends ("W/..."), so compare without the weak marker.
    if request.htmx and request.headers.get("If-None-Match", "").removeprefix("W/") == etag:
        # A phone polling every 30 seconds: nothing changed, nothing to send (the browser keeps its copy).
        not_modified = HttpResponseNotModified()
        not_modified["ETag"] = etag
        return not_modified
    table_html = cache.get(key)
    if table_html is None:
        rows = [dict(row) for row in cached_standings_rows(tournament, include_provisional=provisional)]
        countries = {r.code: r.player.country for r in tournament.registrations.select_related("player")}
        for row in rows:
            row["country"] = countries.get(row["player"], "")
        table_class = StandingsTable if tournament.uses_table_points else ScoreStandingsTable
        table = table_class(rows, tournament_slug=tournament.slug)
        RequestConfig(clean, paginate=False).configure(table)
        table_html = compact_html(
            render_to_string(
                "scoring/public/_standings_table.html",
                {
                    "table": table,
                    "tournament": tournament,
                    "provisional": provisional,
                    "progress": progress_lines(session_progress(tournament)),
                },
                request=clean,
            )
        )
        cache.set(key, table_html, timeout=3600)
    if request.htmx:
        # The fragment every phone polls: the same for everyone, so it carries an ETag.
        response = HttpResponse(table_html)
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"  # keep a copy, but ask each time (answered 304 when unchanged)
        return response
    return render(
        request,
        "scoring/public/standings.html",
        {
            "tournament": tournament,
            "table_html": table_html,
            "formats": list(STANDINGS_EXPORTS),
            "provisional": provisional,
            "poll_url": clean.get_full_path(),
        },
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
        "scoring/public/player.html",
        {"tournament": tournament, "registration": registration, "standing": standing, "sessions": sessions},
    )


def projector(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The hall's screen: standings in large type, the session's clock and the next session's seating,
    paged and rotated by ``static/js/projector.js`` to fit any screen; the slides are refreshed every
    30 seconds (the standings are computed once per change, see ``cached_standings_rows``).
    ``?seconds=N`` (3 to 60) sets how long each page stays up."""
    tournament = public_event(slug)
    context = projector_context(tournament)
    if request.htmx:
        return render(request, "scoring/public/_projector_slides.html", context)
    seconds = request.GET.get("seconds", "")
    context["seconds"] = min(60, max(3, int(seconds))) if seconds.isdigit() and len(seconds) < 4 else 12
    return render(request, "scoring/public/projector.html", context)
