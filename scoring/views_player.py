"""A player's own page on their own phone, without an account: "My event".

The seat slip's QR code leads to ``public:me`` with the player's code; the player types the PIN printed on
the slip (``services.pins.sign_in_with_pin``, throttled as the PIN signing is) and this browser is signed in
to that event as that registration only (``tournaments.player_session``; a staff login is separate and
untouched). The page shows the player's seat now and in the next published session, their table's hands as
they are entered (a small fragment polled every few seconds), their results and rank from the public
standings (``scoring.standings_cache``, confirmed and published only), the clock, and the rulings that name
them with the appeal deadline (MCR rule 94a). When their table is complete and the event lets players sign
(``confirmation.by``), they sign the result (``pins.sign_as_player``) or say they do not agree
(``services.disputes``), which calls a referee and holds the confirmation.

None of these pages is a ``public_page``: they are the player's own. The pages are never stored
(``never_cache``). The polled table fragment is kept by the player's own browser only (``Cache-Control:
no-cache, private``) and revalidated: its ETag is a digest of everything it shows (:func:`table_version`: the
player's table, whether they are still signed in, and everything the fragment shows of it, in one statement
prepared once per database connection, ``tournaments.prepared``), so a poll while nothing changed is answered
304 from the session and that statement before anything is drawn, and the browser hands htmx the copy it
kept.
"""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.db.models import Count, Exists, IntegerField, Max, Model, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from config.security import client_ip
from scoring.forms import PlayerSignInForm
from scoring.live import holds_etag, poll_seconds
from scoring.models import BlindEntry, Confirmation, LateArrival, Penalty, Signature, TableDispute
from scoring.services import appeals, confirmation, disputes, pins, queries, standings
from scoring.views_public import player_context
from tournaments import player_session
from tournaments.access import public_event
from tournaments.errors import ServiceError
from tournaments.models import WINDS, Registration, Seat, Substitution, Table, Tournament
from tournaments.prepared import Statement
from tournaments.public_names import public_name
from tournaments.services import player_seats
from tournaments.views_clock import clock_context

PLAYER_POLL_SECONDS = 5
"""How often a signed-in player's page asks for their table (hands arriving, the signing): a few seconds,
or the public pages' interval when shorter (the browser tests)."""


def table_poll_seconds() -> int:
    return min(poll_seconds(), PLAYER_POLL_SECONDS)


@never_cache
def me(request: HttpRequest, slug: str) -> HttpResponse:
    """The player's own page once signed in; else the form asking for the code (prefilled from the seat
    slip's QR address, ``?code=``) and the PIN."""
    tournament = public_event(slug)
    registration = player_session.signed_in(request, tournament)
    if registration is None:
        code = request.GET.get("code", "")[:40]
        form = PlayerSignInForm(initial={"code": code})
        return _sign_in_page(request, tournament, form, code)
    return render(request, "scoring/player/me.html", my_event(request, tournament, registration))


def _sign_in_page(
    request: HttpRequest, tournament: Tournament, form: PlayerSignInForm, code: str, status: int = 200
) -> HttpResponse:
    public_code = tournament.registrations.filter(code=code).values_list("code", flat=True).first()
    context = {"tournament": tournament, "form": form, "public_code": public_code}
    return render(request, "scoring/player/sign_in.html", context, status=status)


@never_cache
@require_POST
def sign_in(request: HttpRequest, slug: str) -> HttpResponse:
    """Check the code and PIN; a right pair signs this browser in to the event as that player."""
    tournament = public_event(slug)
    form = PlayerSignInForm(request.POST)
    if form.is_valid():
        try:
            registration = pins.sign_in_with_pin(
                tournament, form.cleaned_data["code"], form.cleaned_data["pin"], address=client_ip(request)
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            player_session.sign_in(request, registration)
            return redirect("public:me", slug=slug)
    return _sign_in_page(request, tournament, form, str(request.POST.get("code", ""))[:40], status=422)


@never_cache
@require_POST
def sign_out(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = public_event(slug)
    player_session.sign_out(request, tournament)
    messages.success(request, gettext("Signed out."))
    return redirect("public:me", slug=slug)


TABLE_TEMPLATE = "scoring/player/_my_table.html"

TABLE_CACHE_CONTROL = "no-cache, private"
"""The player's own browser keeps the table fragment and asks again every time with its ETag (no-cache); no
shared cache keeps it (private). Not no-store: the browser needs the copy to answer htmx on a 304."""


def my_table(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The polled fragment: the player's table in session ``number`` (its hands, totals, the signing); 304
    while the poll holds its version (:func:`table_version`); a browser not signed in as a player of that
    table is sent back to their page (never stored)."""
    tournament = public_event(slug)
    registration_id = player_session.registration_id(request, tournament)
    stamp = _table_stamp(registration_id, tournament, number) if registration_id is not None else []
    if registration_id is None or not stamp:  # not signed in, withdrawn since, or no table that session
        return _back_to_my_page(slug)
    inputs = table_inputs(tournament, registration_id, stamp)
    version = table_version(request, inputs)
    response: HttpResponse
    if holds_etag(request, version):
        response = HttpResponseNotModified()  # from the session and one statement: nothing else is read
    else:
        registration = player_session.signed_in(request, tournament)
        if registration is None:  # withdrawn this very moment
            return _back_to_my_page(slug)
        table = Table.objects.get(pk=stamp[0][0])
        context = {"tournament": tournament, "panel": table_panel(table, registration)}
        response = render(request, TABLE_TEMPLATE, context)
        # After drawing: a browser without a CSRF secret yet got one with the forms (sign, disagree).
        version = table_version(request, inputs)
    response["ETag"] = version
    response["Cache-Control"] = TABLE_CACHE_CONTROL
    response["Vary"] = "Cookie, Accept-Language"
    return response


def _back_to_my_page(slug: str) -> HttpResponse:
    """The poll of a browser not signed in as a player of that table: htmx goes to the player's page."""
    response = HttpResponse("")
    response["HX-Redirect"] = reverse("public:me", args=[slug])
    add_never_cache_headers(response)
    return response


PERSON = (
    "code",
    "public_name",
    "is_substitute",
    "withdrawn_at",
    "player__name",
    "player__given_name",
    "player__family_name",
)
"""What the fragment shows of a player (``tournaments.public_names``, the player's own name) or computes the
session's result from (``standings.table_facts``)."""


def _rows(model: type[Model]) -> dict[str, Subquery]:
    """How many rows of ``model`` the table has and the newest one's id, as subqueries on the table's row:
    superseded versions stay as rows (``VersionedResult.supersede``) and ids are never reused, so a version
    added or a row removed changes them."""
    name = model.__name__.lower()
    rows = model._default_manager.filter(table=OuterRef("pk")).order_by().values("table")
    return {
        f"{name}_count": Subquery(rows.annotate(n=Count("pk")).values("n"), output_field=IntegerField()),
        f"{name}_last": Subquery(rows.annotate(n=Max("pk")).values("n"), output_field=IntegerField()),
    }


def _stamp_query(registration: int, tournament: int, number: int) -> QuerySet[Table, tuple[Any, ...]]:
    """Everything the fragment shows of the table ``registration`` plays at in session ``number`` of
    ``tournament`` (:func:`_table_of`: their own seat, else one they took over, once the seating is
    published), as one query, with no row when there is none or the registration is withdrawn: the
    table's row (``results_version`` is bumped by every result written there, ``scoring.services.kernel``:
    hands, totals, penalties, lateness, appeals' decisions, seat changes, finishing and reopening), its
    session's number and whether its results are published; the rows no result write bumps it for
    (signatures, confirmations, blind entries, disagreements, and how many are not settled); each seat with
    its player and any substitute, as the names and the session's result read them. One row per seat and
    substitution."""
    published = {"round__tournament_id": tournament, "round__number": number}
    own_seat = Seat.objects.filter(registration_id=registration, **published).filter(
        round__seating_published_at__isnull=False
    )
    taken_over = Substitution.objects.filter(
        substitute_id=registration, **{f"seat__{key}": value for key, value in published.items()}
    ).filter(seat__round__seating_published_at__isnull=False)
    signed_in = player_session.standing(registration, tournament)
    open_disputes = (
        TableDispute.objects.filter(table=OuterRef("pk"), settled_at=None).order_by().values("table")
    )
    stamps = {
        **_rows(Signature),
        **_rows(Confirmation),
        **_rows(BlindEntry),
        **_rows(TableDispute),
        "open_disputes": Subquery(
            open_disputes.annotate(n=Count("pk")).values("n"), output_field=IntegerField()
        ),
    }
    table = Coalesce(
        Subquery(own_seat.order_by().values("table_id")[:1]),
        Subquery(taken_over.order_by().values("seat__table_id")[:1]),
    )
    return (
        Table.objects.filter(Exists(signed_in), pk=table)
        .annotate(**stamps)
        .values_list(
            "id",
            "number",
            "results_version",
            "finished_at",
            "round__number",
            "round__results_published_at",
            *stamps,
            "seats__wind",
            "seats__registration_id",
            *(f"seats__registration__{field}" for field in PERSON),
            "seats__substitutions__id",
            "seats__substitutions__from_hand",
            "seats__substitutions__substitute_id",
            *(f"seats__substitutions__substitute__{field}" for field in PERSON),
        )
        .order_by("seats__wind", "seats__substitutions__from_hand")
    )


TABLE_STAMP = Statement("player_table_stamp", _stamp_query, ("registration", "tournament", "number"))
""":func:`_stamp_query`, compiled once per process and prepared on PostgreSQL (``tournaments.prepared``):
every phone's poll asks it, and built by the ORM and planned each time it cost more than the rest of a 304."""


def _table_stamp(registration_id: int, tournament: Tournament, number: int) -> list[tuple[Any, ...]]:
    """:func:`_stamp_query`'s rows, as the database gives them (nothing is built from them but a digest;
    none: the player has no table in that session, or is no longer signed in)."""
    return TABLE_STAMP.rows(registration=registration_id, tournament=tournament.pk, number=number)


def _template_digest() -> str:
    """The fragment's template as the server has it now: a new release's drawing is not the copy a browser
    kept (the template loader keeps the parsed template; hashing its few kilobytes takes microseconds)."""
    source = get_template(TABLE_TEMPLATE).template.source  # type: ignore[attr-defined]
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def table_inputs(tournament: Tournament, registration_id: int, stamp: list[tuple[Any, ...]]) -> list[Any]:
    """Everything :func:`table_panel` and the fragment's template read, but the browser's CSRF secret
    (:func:`table_version`). Besides the table (its ``stamp``, :func:`_table_stamp`): whose page it is, the
    language, the event (its id and creation time, and what the rule set, the signing, blind entry and the
    public names follow: rules, hands per session, settings), the poll's interval and the template. Not the
    event's ``public_version``: every confirmation anywhere in the hall bumps it, which would make every
    phone draw its table again (as the notices poll leaves it out); the step-by-step test finds each input
    needed."""
    return [
        registration_id,
        get_language(),
        [tournament.pk, tournament.created_at, tournament.slug],
        [tournament.rules, tournament.hands_per_session, tournament.settings],
        table_poll_seconds(),
        _template_digest(),
        stamp,
    ]


def digest_of(parts: list[Any]) -> str:
    """A short digest of ``parts`` (JSON, keys sorted, anything else as text): the players' polls' versions."""
    return hashlib.sha256(json.dumps(parts, default=str, sort_keys=True).encode()).hexdigest()[:32]


def table_digest(tournament: Tournament, registration_id: int, number: int) -> str:
    """The player's table in session ``number`` as the notices poll reports it (``scoring.views_notices``):
    a digest of :func:`table_inputs`, which changes whenever the fragment would; empty when the player has
    no table that session. The page asks for the fragment when it changes."""
    stamp = _table_stamp(registration_id, tournament, number)
    if not stamp:
        return ""
    return digest_of(table_inputs(tournament, registration_id, stamp))


def table_version(request: HttpRequest, inputs: list[Any]) -> str:
    """The fragment's version, a quoted ETag: a digest of its ``inputs`` and the browser's CSRF secret,
    which the tokens of the sign and "I do not agree" forms carry (a kept copy's token is then always one
    the server accepts)."""
    return f'"{digest_of([*inputs, request.META.get("CSRF_COOKIE", "")])}"'


def _player_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    tournament = public_event(slug)
    registration = player_session.signed_in(request, tournament)
    if registration is None:
        return redirect("public:me", slug=slug)
    table = _table_of(registration, number)
    try:
        if table is None:
            raise ServiceError(gettext("You do not play at this table."), code="not_at_table")
        if action == "sign":
            result = pins.sign_as_player(table, registration)
            message = (
                gettext("Signed. Every player has signed: the results are confirmed and count.")
                if result.confirmed
                else gettext("Signed: %(signed)s of %(seats)s signed.")
                % {"signed": result.signed, "seats": result.seats}
            )
        else:
            disputes.disagree(table, registration)
            message = gettext("A referee is called to your table; nothing is confirmed until they settle it.")
    except ServiceError as error:
        messages.error(request, gettext("Not saved: %(problem)s") % {"problem": error.message})
    else:
        messages.success(request, message)
    return redirect(reverse("public:me", args=[slug]) + "#my-table")


@never_cache
@require_POST
def sign(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The player signs their table's complete result (``pins.sign_as_player``)."""
    return _player_action(request, slug, number, "sign")


@never_cache
@require_POST
def disagree(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The player does not agree with their table's result (``disputes.disagree``): a referee is called."""
    return _player_action(request, slug, number, "disagree")


def _table_of(registration: Registration, number: int) -> Table | None:
    """The table the player sits at, or played a seat of as a substitute, in session ``number`` once its
    seating is published."""
    published = {"round__number": number, "round__seating_published_at__isnull": False}
    seat = (
        Seat.objects.filter(registration=registration, round__tournament_id=registration.tournament_id)
        .filter(**published)
        .select_related("table")
        .first()
    )
    if seat is not None:
        return seat.table
    item = (
        Substitution.objects.filter(
            substitute=registration, seat__round__tournament_id=registration.tournament_id
        )
        .filter(**{f"seat__{key}": value for key, value in published.items()})
        .select_related("seat__table")
        .first()
    )
    return item.seat.table if item is not None else None


def seat_line(seat: Seat) -> dict[str, Any]:
    """A session's seat as the page shows it: session, table, wind, and the opponents with theirs, named
    as the public sees them (``tournaments.public_names``: the page is the player's, not the staff's)."""
    others = sorted((s for s in seat.table.seats.all() if s.pk != seat.pk), key=lambda s: WINDS.index(s.wind))
    tournament = seat.round.tournament
    return {
        "round": seat.round,
        "table": seat.table,
        "wind": seat.wind,
        "opponents": [{"wind": s.wind, "name": public_name(s.registration, tournament)} for s in others],
    }


def table_panel(table: Table, registration: Registration) -> dict[str, Any]:
    """The player's table as the polled fragment shows it: seats and totals, the hands (unless the event's
    blind double entry hides them from the public until confirmed), and the signing."""
    loaded = queries.table_with_results(table)
    tournament = loaded.round.tournament
    state = confirmation.table_state(loaded)
    visible = confirmation.figures_visible(loaded, None)
    result = standings.session_result(loaded)
    by_wind = {seat.wind: seat for seat in loaded.seats.all()}
    seats = [
        {
            "wind": w,
            "name": by_wind[w].registration.player.name
            if by_wind[w].registration_id == registration.pk
            else public_name(by_wind[w].registration, tournament),
            "mine": by_wind[w].registration_id == registration.pk,
            "total": result.scores[w],
            "table_points": float(result.table_points[w])
            if result.table_points is not None and state != "not started"
            else None,
        }
        for w in WINDS
        if w in by_wind
    ]
    confirmed = queries.is_confirmed(loaded)
    signing = confirmation.players_sign(tournament) and state == "complete" and visible and not confirmed
    signed_ids = pins.signatures(loaded) if signing else set()
    signed, sign_seats = pins.signing_progress(loaded, signed_ids) if signing else (0, 0)
    open_disputes = disputes.open_disputes(loaded) if state == "complete" and not confirmed else []
    return {
        "table": loaded,
        "state": state,
        "visible": visible,
        "seats": seats,
        "rows": queries.running_scores(loaded) if visible else [],
        "uses_table_points": tournament.uses_table_points,
        "confirmed": confirmed,
        "signing": signing,
        "signed": signed,
        "sign_seats": sign_seats,
        "i_signed": registration.pk in signed_ids,
        "disputes": open_disputes,
        "poll": table_poll_seconds(),
    }


def my_rulings(registration: Registration) -> list[dict[str, Any]]:
    """The penalties, rulings and lateness that name the player, at any table of the event, newest first,
    each with how long is left to appeal it (MCR rule 94a: ``appeals.APPEAL_DEADLINE_MINUTES`` from the
    ruling, ``appeals.minutes_since``)."""
    named = {"registration": registration, "table__round__tournament_id": registration.tournament_id}
    rules = registration.tournament.rule_set
    found: list[tuple[Any, str]] = [
        (penalty, appeals.penalty_line(penalty, rules))
        for penalty in Penalty.objects.in_force()
        .filter(**named)
        .select_related("table__round", "registration__player")
        .prefetch_related("appeals__decisions")
    ]
    found += [
        (late, appeals.late_line(late))
        for late in LateArrival.objects.in_force()
        .filter(**named)
        .select_related("table__round", "registration__player")
        .prefetch_related("appeals__decisions")
    ]
    now = timezone.now()
    lines = []
    for ruling, text in sorted(found, key=lambda item: item[0].created_at, reverse=True):
        left = appeals.APPEAL_DEADLINE_MINUTES - appeals.minutes_since(ruling.created_at, now)
        lines.append(
            {
                "ruling": ruling,
                "text": text,
                "round": ruling.table.round.number,
                "table": ruling.table.number,
                "cancelled": ruling.cancelled,
                "minutes_left": max(left, 0),
                "until": ruling.created_at + timedelta(minutes=appeals.APPEAL_DEADLINE_MINUTES),
            }
        )
    return lines


def my_event(request: HttpRequest, tournament: Tournament, registration: Registration) -> dict[str, Any]:
    """Everything "My event" shows."""
    seats = player_seats.seat_now(registration)
    now, following = seats.now, seats.next
    clock_round = now.round if now is not None else None
    return {
        **player_context(tournament, registration),
        "now": seat_line(now) if now is not None else None,
        "next": seat_line(following) if following is not None else None,
        "panel": table_panel(now.table, registration) if now is not None else None,
        "rulings": my_rulings(registration),
        "clock": clock_context(clock_round, table_number=now.table.number)
        if clock_round is not None and now is not None
        else None,
        "deadline_minutes": appeals.APPEAL_DEADLINE_MINUTES,
    }
