"""Pages anyone can read about results: results per table, standings (with downloads), each player's
page and the projector. Cached per standings version so phones polling them cost little."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from scoring import substitutions
from scoring.charts import ChartPoint, progress_chart
from scoring.exports import STANDINGS_EXPORTS
from scoring.history import place_at_table
from scoring.live import holds_etag, poll_seconds, standings_poll_seconds, vary_on_htmx
from scoring.models import Penalty
from scoring.projector import projector_context, projector_poll_seconds
from scoring.rules.side import BEST_HAND, BestHandRow
from scoring.services.confirmation import figures_visible, table_state
from scoring.services.queries import is_confirmed, running_scores, table_with_results, tables_with_results
from scoring.services.standings import session_result
from scoring.side_rankings import (
    SIDE_TITLES,
    SIDE_VALUES,
    UNITS,
    event_side_rankings,
    event_team_standings,
)
from scoring.standings_cache import (
    public_standings_and_places,
    standings_cache_key,
)
from scoring.standings_page import may_preview, standings_etag, standings_request, standings_table_html
from tournaments import public_names
from tournaments.access import HtmxHttpRequest, public_event, public_round
from tournaments.event_settings import team_best
from tournaments.models import WINDS, Registration, Round, Seat, Substitution, Table, Tournament
from tournaments.services import substitutions as seat_substitutions
from tournaments.views_public import seat_rows

log = logging.getLogger(__name__)


def results(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """Each table of a session with its seats, scores and hands. The page polls its cards (answered 304
    while they are unchanged: ConditionalGetMiddleware)."""
    tournament = public_event(slug)
    round_ = public_round(tournament, number, "results")
    context: dict[str, Any] = {"tournament": tournament, "round": round_}
    if request.htmx:
        return vary_on_htmx(
            render(
                request,
                "scoring/public/_results_cards.html",
                {**context, "cards": _result_cards(tournament, round_)},
            )
        )
    context.update(
        rounds=tournament.rounds.all(), cards=_result_cards(tournament, round_), poll=poll_seconds()
    )
    return vary_on_htmx(render(request, "scoring/public/results.html", context))


CARD_SECONDS = 3600
"""How long a table's drawn card stays in the cache (a change to the table makes a new key long before)."""


def _result_cards(tournament: Tournament, round_: Round) -> list[str]:
    """Each table's card, as HTML. A card is kept in the shared cache under the table's
    ``results_version`` (bumped by every result entered there) and the event's public version (every other
    change the public pages show), in the page's language: while hands pour in,
    drawing the session's page again draws only the tables that changed, not every table of the hall."""
    stamps = list(Table.objects.filter(round=round_).order_by("number").values_list("pk", "results_version"))
    try:
        event = f"{standings_cache_key(tournament)}:{tournament.public_version}"
        keys = {pk: f"card:{event}:{get_language()}:{pk}:{version}" for pk, version in stamps}
        drawn: dict[str, str] = cache.get_many(list(keys.values()))
        cached = True
    except Exception:  # the shared cache is away: every card drawn, none kept
        log.warning("card cache unavailable; drawing every card", exc_info=True)
        keys, drawn, cached = {pk: str(pk) for pk, _ in stamps}, {}, False
    missing = [pk for pk, key in keys.items() if key not in drawn]
    if missing:
        new = {
            keys[card["table"].pk]: render_to_string(
                "scoring/public/_result_card.html", {"tournament": tournament, "card": card}
            )
            for card in _result_card_data(tournament, round_, missing)
        }
        drawn.update(new)
        if cached:
            with contextlib.suppress(Exception):  # not kept: drawn again next time
                cache.set_many(new, timeout=CARD_SECONDS)
    return [mark_safe(drawn[keys[pk]]) for pk, _ in stamps]  # noqa: S308  # rendered by our template


def _result_card_data(tournament: Tournament, round_: Round, tables: list[int]) -> list[dict[str, Any]]:
    cards = []
    for table in tables_with_results(tournament, round_, only=tables):
        state = table_state(table)
        # Under blind double entry the first entry's figures stay private until the table is
        # confirmed: the second person must not be able to read them here.
        withheld = not figures_visible(table)
        result = session_result(table) if state != "not started" and not withheld else None
        seats = seat_rows(table)
        for row in seats:
            if result is not None:
                row["score"] = result.scores[row["wind"]]
                if result.table_points is not None:
                    row["table_points"] = float(result.table_points[row["wind"]])
        hands = [] if withheld else running_scores(table)
        for row in hands:
            row["fans"] = tournament.rule_set.fans(row["hand"].tiles)
        cards.append(
            {
                "table": table,
                "state": state,
                "confirmed": is_confirmed(table),
                "withheld": withheld and state != "not started",
                "seats": seats,
                "hands": hands,
            }
        )
    return cards


def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Sortable standings over the published, confirmed tables, with each session's progress above them;
    the staff's provisional view (``?provisional=1``) counts every entered result and says so. Phones poll
    the table (answered 304 while it is unchanged)."""
    tournament = public_event(slug)
    clean = standings_request(request)
    can_preview = may_preview(request.user, tournament)
    provisional = clean.GET.get("provisional") == "1" and can_preview
    if request.htmx:  # the poll (every second): unchanged versions answer 304 before anything is drawn
        etag = standings_etag(tournament, clean, provisional)
        fragment: HttpResponse = (
            HttpResponseNotModified()
            if holds_etag(request, etag)
            else HttpResponse(standings_table_html(tournament, clean, provisional))
        )
        fragment["ETag"] = etag
        return _not_kept_by_nginx(vary_on_htmx(fragment))  # fresher than nginx's copy (scoring/live.py)
    table_html = standings_table_html(tournament, clean, provisional)
    return vary_on_htmx(
        render(
            request,
            "scoring/public/standings.html",
            {
                "tournament": tournament,
                "table_html": table_html,
                "formats": list(STANDINGS_EXPORTS),
                "provisional": provisional,
                "can_preview": can_preview,
                "poll_url": clean.get_full_path(),
                "poll": standings_poll_seconds(),
            },
        )
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


def player(request: HtmxHttpRequest, slug: str, code: str) -> HttpResponse:
    """One player's event on a phone: where they sit in each session, whom they play, how each
    session went (score, place at the table and in the standings after it), penalties, and a chart.
    The page polls its body (answered 304 while it is unchanged)."""
    tournament = public_event(slug)
    registration = get_object_or_404(
        Registration.objects.select_related("player").annotate(
            stood_in=Exists(Substitution.objects.filter(substitute=OuterRef("pk")))
        ),
        tournament=tournament,
        code=code,
    )
    if registration.is_substitute and not getattr(registration, "stood_in", False):
        # A reserve has a page once they took over a seat, to show what they played.
        raise Http404("No such player")
    indexable = public_names.indexable(tournament)
    if request.htmx:
        return vary_on_htmx(
            public_names.noindex(
                render(request, "scoring/public/_player_body.html", player_context(tournament, registration)),
                indexable=indexable,
            )
        )
    context = {**player_context(tournament, registration), "poll": poll_seconds(), "noindex": not indexable}
    return vary_on_htmx(
        public_names.noindex(render(request, "scoring/public/player.html", context), indexable=indexable)
    )


def player_context(tournament: Tournament, registration: Registration) -> dict[str, Any]:
    """What the player page shows, from the cached standings (confirmed tables only) and the seats."""
    rows, places = public_standings_and_places(tournament)
    standing = next((row for row in rows if row["player"] == registration.code), None)
    by_round = {line["round"]: line for line in (standing or {}).get("sessions", [])}
    session_scores = {
        (row["player"], line["round"]): line["score"] for row in rows for line in row.get("sessions", [])
    }
    history = places.get(registration.code, {})
    # Every seat at the player's tables in one query: their own, and their opponents'.
    seats: dict[int, Seat] = {}
    table_mates: dict[int, list[Seat]] = {}
    for at_table in (
        Seat.objects.filter(table__seats__registration=registration)
        .select_related("table", "round", "registration__player")
        .annotate(taken_over=Exists(Substitution.objects.filter(seat=OuterRef("pk"))))
    ):
        if at_table.registration_id == registration.pk:
            seats[at_table.round_id] = at_table
        else:
            table_mates.setdefault(at_table.table_id, []).append(at_table)
    # Takeovers, read only when there is one: of this player's seats (who took over from which
    # hand), and the seats this person took over as a substitute (which seat, from which hand, for whom).
    taken_over: dict[int, list[Any]] = {}
    stood_in: dict[int, list[Any]] = {}
    if getattr(registration, "stood_in", True) or any(
        getattr(seat, "taken_over", True) for seat in seats.values()
    ):
        for item in seat_substitutions.involving(registration, tournament):
            if item.substitute_id == registration.pk:
                stood_in.setdefault(item.seat.round_id, []).append(item)
            else:
                taken_over.setdefault(item.seat_id, []).append(item)
    counted = set(by_round) | {
        items[0].seat.round.number
        for items in stood_in.values()
        if items[0].seat.round.results_published_at is not None
        and is_confirmed(items[0].seat.table, fresh=True)
    }
    carried = (
        [item for items in taken_over.values() for item in items]
        if substitutions.policy(tournament.settings) == substitutions.DEFAULT_POLICY
        else []
    )
    penalties = _counted_penalties(registration, counted_rounds=counted, carried=carried)
    sessions = []
    for round_ in tournament.rounds.all():
        # A draft seating shows neither the seat nor the opponents.
        mine = seats.get(round_.pk) if round_.seating_published_at is not None else None
        mates = sorted(table_mates.get(mine.table_id, []) if mine else [], key=lambda s: WINDS.index(s.wind))
        opponents = [
            {
                "wind": other.wind,
                "name": public_names.public_name(other.registration, tournament),
                "code": other.registration.code,
            }
            for other in mates
        ]
        result = by_round.get(round_.number)
        place = None
        if result is not None and mine is not None:
            others = [session_scores.get((o.registration.code, round_.number)) for o in mates]
            if None in others:
                # A substitute sat here (not in the standings): score the table itself (rare, a few queries).
                scores = session_result(table_with_results(mine.table)).scores
                others = [scores[o.wind] for o in mates]
            place = place_at_table(result["score"], [score for score in others if score is not None])
        after = history.get(round_.number)
        sessions.append(
            {
                "round": round_,
                "seat": mine,
                "opponents": opponents,
                "result": result,
                "place": place,
                "standing_after": after[0] if after else None,
                "penalties": penalties.get(round_.number, []),
                "substitutions": taken_over.get(mine.pk, []) if mine is not None else [],
                "stood_in": stood_in.get(round_.pk, []) if round_.seating_published_at is not None else [],
            }
        )
    chart = progress_chart(
        [
            ChartPoint(label=str(number), place=place_after, score=score)
            for number, (place_after, score) in sorted(history.items())
        ],
        players=len(rows),
        title=gettext("Place in the standings and total score after each session"),
        place_label=gettext("place"),
        score_label=gettext("score"),
        session_axis=gettext("Session"),
        place_axis=gettext("Place"),
        score_axis=gettext("Score"),
        place_key=gettext("place in the standings (1 at the top)"),
        score_key=gettext("total score"),
    )
    return {
        "tournament": tournament,
        "registration": registration,
        "standing": standing,
        "sessions": sessions,
        "chart": mark_safe(chart),  # noqa: S308  # built by scoring.charts, which escapes every text
        "penalties": [item for items in penalties.values() for item in items],
    }


def _counted_penalties(
    registration: Registration, *, counted_rounds: set[int], carried: Sequence[Any] = ()
) -> dict[int, list[Penalty]]:
    """The player's penalties at tables the standings count (confirmed), by session number, and those of
    the substitutes in ``carried`` (substitutions at this player's seats) at those seats' tables: under the
    default substitute policy the seat's score, and so this player's, carries them."""
    named = Q(registration=registration)
    for item in carried:
        named |= Q(registration_id=item.substitute_id, table_id=item.seat.table_id)
    found: dict[int, list[Penalty]] = {}
    for penalty in (
        Penalty.objects.in_force()
        .filter(named)
        .select_related("table__round", "registration__player")
        .prefetch_related("appeals__decisions")
        .order_by("table__round__number", "position")
    ):
        if penalty.table.round.number in counted_rounds:
            found.setdefault(penalty.table.round.number, []).append(penalty)
    return found


def teams(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Team standings: each team's best N members (event setting ``teams.best``) or all of them,
    over the confirmed tables; updates itself like the standings."""
    tournament = public_event(slug)
    return _live_page(
        request,
        tournament,
        "scoring/public/teams.html",
        "scoring/public/_teams_body.html",
        lambda: {
            "teams": event_team_standings(tournament),
            "best": team_best(tournament),
        },
    )


def side(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Side rankings the event's rule set offers (best single hand, most hands or games won, ...),
    over the confirmed tables; updates itself like the standings."""
    tournament = public_event(slug)
    return _live_page(
        request,
        tournament,
        "scoring/public/side.html",
        "scoring/public/_side_body.html",
        lambda: {
            "rankings": _side_context(tournament),
        },
    )


def _side_context(tournament: Tournament) -> list[dict[str, Any]]:
    names = public_names.public_names(tournament)
    rules = tournament.rule_set
    out = []
    for ranking in event_side_rankings(tournament):
        rows = []
        for row in ranking.rows:
            if isinstance(row, BestHandRow):
                tiles = row.hand.tiles if isinstance(row.hand.tiles, dict) else None
                rows.append(
                    {
                        "rank": row.rank,
                        "code": row.hand.winner,
                        "name": names.get(row.hand.winner, row.hand.winner),
                        "value": row.value,
                        "hand": row.hand,
                        "tiles": tiles if tiles and tiles.get("concealed") else None,
                        "fans": rules.fans(tiles) if tiles else [],
                    }
                )
            else:
                rows.append(
                    {
                        "rank": row.rank,
                        "code": row.player,
                        "name": names.get(row.player, row.player),
                        "value": row.count,
                    }
                )
        best = ranking.key == BEST_HAND
        out.append(
            {
                "key": ranking.key,
                "best": best,
                "title": SIDE_TITLES.get(ranking.key, ranking.key),
                "value_label": UNITS.get(rules.hand_value_unit) if best else SIDE_VALUES.get(ranking.key),
                "rows": rows,
            }
        )
    return out


def _live_page(
    request: HtmxHttpRequest,
    tournament: Tournament,
    template: str,
    fragment: str,
    build: Callable[[], dict[str, Any]],
) -> HttpResponse:
    """A public page whose body polls itself: the fragment for a poll (answered 304 while it is
    unchanged), the full page otherwise."""
    base = {"tournament": tournament}
    if request.htmx:
        return vary_on_htmx(render(request, fragment, {**base, **build()}))
    return vary_on_htmx(render(request, template, {**base, **build(), "poll": poll_seconds()}))


def projector(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The hall's screen: standings in large type, the session's clock and the next session's seating,
    paged and rotated by ``static/js/projector.js`` to fit any screen. The slides poll every
    ``PROJECTOR_POLL_SECONDS`` (1 s), so a confirmation is on the screen within 2 s: a poll when nothing
    changed is answered 304 before anything is drawn (:func:`projector_etag`), and the standings are
    computed once per change (``cached_standings_rows``). ``?seconds=N`` (3 to 60) sets how long each
    page stays up."""
    tournament = public_event(slug)
    if request.htmx:
        etag = projector_etag(tournament)
        if holds_etag(request, etag):
            response: HttpResponse = HttpResponseNotModified()
        else:
            response = render(request, "scoring/public/_projector_slides.html", projector_context(tournament))
        response["ETag"] = etag
        return _not_kept_by_nginx(vary_on_htmx(response))
    context = projector_context(tournament)
    seconds = request.GET.get("seconds", "")
    context["seconds"] = min(60, max(3, int(seconds))) if seconds.isdigit() and len(seconds) < 4 else 12
    context["poll"] = projector_poll_seconds()
    return _not_kept_by_nginx(render(request, "scoring/public/projector.html", context))


def projector_etag(tournament: Tournament) -> str:
    """What the projector's slides depend on, apart from the clock's countdown (counted in the browser):
    the event and its ``public_version``, which every change they show bumps in the writing transaction
    (confirmations, published results and seating, a session's first hand, the clock: tournaments/audit.py),
    and the language."""
    return f'"p{tournament.pk}.{int(tournament.created_at.timestamp())}.{tournament.public_version}.{get_language()}"'


def _not_kept_by_nginx(response: HttpResponse) -> HttpResponse:
    """nginx's one-second copy of public answers (deploy/nginx-public-cache.conf) would add up to 2 s to
    the projector's and the standings' polls (every second), which cost a 304 when nothing changed (the
    projector: one query; the standings: the stored answer's ETag, kept in the worker's memory):
    ``X-Accel-Expires: 0`` keeps them out of it (nginx reads it even with ``proxy_ignore_headers
    Cache-Control``). The whole pages still come from nginx's copy."""
    response["X-Accel-Expires"] = "0"
    return response
