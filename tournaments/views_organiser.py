"""Organiser pages: create events, register and check in players, seat sessions, watch the tables."""

from __future__ import annotations

from typing import Any, TypedDict

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from scoring.rules.settings import Setting
from tournaments import event_settings, staff_accounts, views_clock
from tournaments.access import HtmxHttpRequest, event_for, round_of, table_of
from tournaments.archive import set_archived
from tournaments.errors import ServiceError
from tournaments.forms import (
    AllowedForm,
    CardForm,
    EventForm,
    NewStaffAccountForm,
    SeatingForm,
    SettingsForm,
    StaffForm,
    SwapForm,
    TimeZoneForm,
)
from tournaments.models import EventRole, Role, Round, Seat, SeatingJob, Table, Tournament
from tournaments.roles import table_roles
from tournaments.seating import LowerBound, QualityReport, lower_bound
from tournaments.services import events, seating, seating_bridge, seating_jobs, tie_lots
from tournaments.venue_time import default_time_zone


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert user.is_authenticated  # login_required
    if user.is_superuser:
        events = Tournament.objects.all()
    else:
        events = Tournament.objects.filter(roles__user=user, roles__role=Role.ORGANISER).distinct()
    refereeing = (
        Tournament.objects.filter(roles__user=user, roles__role__in=table_roles())
        .exclude(pk__in=events.values("pk"))
        .distinct()
    )
    return render(
        request, "tournaments/organiser/dashboard.html", {"tournaments": events, "refereeing": refereeing}
    )


@login_required
def create_event(request: HttpRequest) -> HttpResponse:
    """Creating events is a site-level permission an administrator grants, not every account's."""
    if not request.user.has_perm("tournaments.add_tournament"):
        raise PermissionDenied(
            gettext("Creating events needs the permission of an administrator of this site.")
        )
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = events.create_tournament(
                events.EventDetails(
                    name=data["name"],
                    slug=data["slug"],
                    rules=data["rules"],
                    start_date=data["start_date"],
                    end_date=data["end_date"],
                    num_sessions=data["num_sessions"],
                    hands_per_session=data["hands_per_session"],
                    session_minutes=data["session_minutes"],
                    time_zone=data["time_zone"] or default_time_zone(),
                ),
                acting_user=request.user,
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, gettext("Created %(name)s.") % {"name": tournament.name})
            return redirect("manage:event", slug=tournament.slug)
    return render(request, "tournaments/organiser/create_event.html", {"form": form})


def _tables(tournament: Tournament, round_: Round | None = None) -> list[Table]:
    """The event's (or one session's) tables with their players."""
    tables = Table.objects.filter(round__tournament=tournament).select_related("round")
    if round_ is not None:
        tables = tables.filter(round=round_)
    seats = Prefetch("seats", queryset=Seat.objects.select_related("registration__player"))
    return list(tables.prefetch_related(seats).order_by("round__number", "number"))


def _render_event(
    request: HttpRequest,
    tournament: Tournament,
    staff_form: StaffForm | None = None,
    account_form: NewStaffAccountForm | None = None,
) -> HttpResponse:
    registrations = tournament.registrations.filter(
        withdrawn_at__isnull=True
    )  # a withdrawn player is not counted
    return render(
        request,
        "tournaments/organiser/event.html",
        {
            "tournament": tournament,
            **views_clock.event_live_context(tournament),
            "registered": registrations.count(),
            "checked_in": registrations.filter(checked_in=True).count(),
            "staff": EventRole.objects.filter(tournament=tournament).select_related("user"),
            "staff_form": staff_form or StaffForm(),
            "account_form": account_form or NewStaffAccountForm(),
            "audit": tournament.audit_entries.select_related("actor")[:15],
            "release_rounds": tournament.rounds.annotate(table_count=Count("tables")),
        },
        status=422 if staff_form is not None or account_form is not None else 200,
    )


@login_required
def event_dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    return _render_event(request, event_for(request, slug, Role.ORGANISER))


@login_required
@require_POST
def revoke_role(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    event_role = get_object_or_404(EventRole.objects.select_related("user"), tournament=tournament, pk=pk)
    try:
        events.revoke_role(event_role, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            gettext("%(user)s is no longer %(get_role_display)s.")
            % {"user": event_role.user, "get_role_display": event_role.get_role_display().lower()},
        )
    return redirect("manage:event", slug=slug)


@login_required
@require_POST
def grant_role(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    form = StaffForm(request.POST)
    if not form.is_valid():
        return _render_event(request, tournament, form)
    events.grant_role(
        tournament, form.cleaned_data["username"], form.cleaned_data["role"], acting_user=request.user
    )
    messages.success(request, gettext("Role granted."))
    return redirect("manage:event", slug=slug)


@never_cache
@login_required
@require_POST
def create_staff_account(request: HttpRequest, slug: str) -> HttpResponse:
    """A login for a volunteer who has none: shown once, the link to set its password."""
    tournament = event_for(request, slug, Role.ORGANISER)
    form = NewStaffAccountForm(request.POST)
    if not form.is_valid():
        return _render_event(request, tournament, account_form=form)
    try:
        invitation = staff_accounts.create_staff_account(
            tournament,
            form.cleaned_data["new_username"],
            form.cleaned_data["new_role"],
            acting_user=request.user,
        )
    except ServiceError as error:
        form.add_error("new_username", error.message)
        return _render_event(request, tournament, account_form=form)
    return render(
        request,
        "tournaments/organiser/staff_invitation.html",
        {
            "tournament": tournament,
            "username": form.cleaned_data["new_username"].strip(),
            "role": Role(form.cleaned_data["new_role"]).label,
            "link": request.build_absolute_uri(invitation.path),
            "hours": staff_accounts.INVITATION_HOURS,
        },
    )


@never_cache
@login_required
@require_POST
def new_staff_link(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A volunteer lost their set-password link before using it: a new one, shown once."""
    tournament = event_for(request, slug, Role.ORGANISER)
    event_role = get_object_or_404(
        EventRole.objects.select_related("user", "tournament"), tournament=tournament, pk=pk
    )
    try:
        invitation = staff_accounts.reissue_invitation(event_role, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("manage:event", slug=slug)
    return render(
        request,
        "tournaments/organiser/staff_invitation.html",
        {
            "tournament": tournament,
            "username": event_role.user.get_username(),
            "role": event_role.get_role_display(),
            "link": request.build_absolute_uri(invitation.path),
            "hours": staff_accounts.INVITATION_HOURS,
        },
    )


@login_required
@require_POST
def archive_event(request: HttpRequest, slug: str) -> HttpResponse:
    """Archive the event (read-only from now on) or take it out of the archive."""
    tournament = event_for(request, slug, Role.ORGANISER, archived_ok=True)
    archived = request.POST.get("archived") == "1"
    set_archived(tournament, archived, acting_user=request.user)
    messages.success(
        request,
        gettext("Event archived: it is read-only now.")
        if archived
        else gettext("Event taken out of the archive."),
    )
    return redirect("manage:event", slug=slug)


@login_required
def session(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Seat a session (or it and all later ones), swap two players, and see the plan's quality."""
    tournament = event_for(request, slug, Role.ORGANISER)
    round_ = round_of(tournament, number)
    tables = _tables(tournament, round_)
    seated = sorted(
        ((seat.registration.code, seat.registration.player.name) for t in tables for seat in t.seats.all()),
        key=lambda item: item[1].lower(),
    )
    return render(
        request,
        "tournaments/organiser/session.html",
        {
            "tournament": tournament,
            "round": round_,
            "form": SeatingForm(),
            "swap_form": SwapForm(players=seated),
            "tables": tables,
            **views_clock.session_live_context(tournament, round_),
            "clock": views_clock.clock_context(round_),
            "has_results": seating.round_has_results(round_),
            "quality": seating_report(tournament),
            "seating_settings": seating_bridge.settings_of(tournament),
            "substitute_policy": _choice_label("seating.substitute_policy", tournament),
            "job": _job_context(tournament),
            "release_parts": [
                ("seating", round_.seating_published_at),
                ("results", round_.results_published_at),
            ],
        },
    )


@login_required
@require_POST
def seat_session(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    round_ = round_of(tournament, number)
    form = SeatingForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("The seed must be a whole number."))
    else:
        try:
            seating_jobs.start_seating_job(
                round_,
                whole_plan=form.cleaned_data["scope"] == "remaining",
                seed=form.cleaned_data["seed"] or 0,
                acting_user=request.user,
                background=settings.SEATING_IN_BACKGROUND,
            )
        except ServiceError as error:
            messages.error(request, error.message)
    return redirect("manage:session", slug=slug, number=number)


def _choice_label(key: str, tournament: Tournament) -> str:
    """The chosen option of a choice setting, by its label in the page's language."""
    setting = event_settings.field(tournament.rules, key)
    value = event_settings.current(tournament.rules, tournament.settings)[key]
    labels = dict(setting.choices or ()) if setting is not None else {}
    return gettext(labels[value]) if value in labels else str(value)


class SeatingJobState(TypedDict):
    """The event's seating job as the session page shows it (``_seating_job.html``)."""

    job: SeatingJob
    elapsed: float
    percent: int


def _job_context(tournament: Tournament) -> SeatingJobState | None:
    from django.utils import timezone

    job = seating_jobs.current_seating_job(tournament)
    if job is None:
        return None
    elapsed = ((job.finished_at or timezone.now()) - job.started_at).total_seconds()
    return {
        "job": job,
        "elapsed": round(elapsed, 1),
        "percent": min(99, int(100 * elapsed / max(job.time_limit, 0.1))),
    }


@login_required
def seating_job(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """The job's state for the session page to poll; when the job has ended the page reloads itself."""
    tournament = event_for(request, slug, Role.ORGANISER)
    context: dict[str, Any] = {
        "tournament": tournament,
        "round": round_of(tournament, number),
        "job": _job_context(tournament),
    }
    response = render(request, "tournaments/organiser/_seating_job.html", context)
    job = context["job"]
    if request.htmx and job is not None and job["job"].finished:
        response["HX-Refresh"] = "true"
    return response


class SeatingReport(TypedDict):
    """The session page's quality report: the report, the counting bound, the pairs met most, the winds."""

    report: QualityReport
    bound: LowerBound | None
    repeated: list[tuple[str, str, int]]
    winds: list[dict[str, Any]]
    teammates: int
    kept_apart_met: list[tuple[str, str, int]]


def seating_report(tournament: Tournament) -> SeatingReport | None:
    """The quality report of every seated session, with the counting bound beside it."""

    report = seating_bridge.event_quality(tournament)
    if report is None:
        return None
    names = {r.code: r.player.name for r in tournament.registrations.select_related("player")}
    players = len(report.wind_counts)
    bound = lower_bound(players - players % 4, report.rounds) if players >= 4 else None
    rows: list[dict[str, Any]] = [
        {"name": names.get(code, code), "counts": counts, "spread": max(counts) - min(counts)}
        for code, counts in report.wind_counts.items()
    ]
    winds = sorted(rows, key=lambda row: (-row["spread"], row["name"]))
    return {
        "report": report,
        "bound": bound,
        "repeated": [(names.get(p.a, p.a), names.get(p.b, p.b), p.meetings) for p in report.repeated[:50]],
        "winds": winds,
        # conflicts counts teammates and kept-apart pairs together (tournaments/seating/quality.py)
        "teammates": report.conflicts - report.kept_apart_meetings,
        "kept_apart_met": [
            (names.get(p.a, p.a), names.get(p.b, p.b), p.meetings) for p in report.kept_apart_met
        ],
    }


@login_required
@require_POST
def swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    round_ = round_of(tournament, number)
    codes = [seat.registration.code for seat in round_.seats.select_related("registration")]
    form = SwapForm(request.POST, players=[(code, code) for code in codes])
    if not form.is_valid():
        messages.error(request, gettext("Choose two players seated in this session."))
        return redirect("manage:session", slug=slug, number=number)
    try:
        seating.swap_seats(round_, form.cleaned_data["a"], form.cleaned_data["b"], acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("Players swapped; the quality report below is up to date."))
    return redirect("manage:session", slug=slug, number=number)


def _wind_order(seat: Seat) -> int:
    return "ESWN".index(seat.wind)


@login_required
@require_POST
def totals_only(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    form = AllowedForm(request.POST)
    form.is_valid()  # a missing or odd value reads as "not allowed"
    events.set_totals_only(
        table_of(tournament, number, table), form.cleaned_data.get("allowed", False), acting_user=request.user
    )
    return redirect("manage:session", slug=slug, number=number)


def _settings_forms(tournament: Tournament, bound: str = "", data: Any = None) -> list[dict[str, Any]]:
    """One form per group of the event's settings (its rule set's and the seating options)."""
    values = event_settings.current(tournament.rules, tournament.settings)
    groups: dict[str, list[Setting]] = {}
    for setting in event_settings.settings_fields(tournament.rules):
        if setting.group:
            groups.setdefault(setting.group, []).append(setting)
    return [
        {
            "title": gettext(title),
            "slug": slugify(title),
            "form": SettingsForm(
                data if slugify(title) == bound else None,
                settings=settings_,
                values=values,
                prefix=slugify(title),
            ),
        }
        for title, settings_ in groups.items()
    ]


def _render_settings(request: HttpRequest, tournament: Tournament, **extra: Any) -> HttpResponse:
    rule_set = tournament.rule_set
    context = {
        "tournament": tournament,
        "rule_set": rule_set,
        "groups": extra.pop("groups", None) or _settings_forms(tournament),
        "card_form": extra.pop("card_form", None) or CardForm(max_bytes=rule_set.card_max_bytes),
        "lots": tie_lots.drawn_lots(tournament),
        "zone_form": extra.pop("zone_form", None)
        or TimeZoneForm(initial={"time_zone": tournament.time_zone}),
        **rule_set.settings_context(),
        **extra,
    }
    status = 422 if request.method == "POST" else 200
    return render(request, "tournaments/organiser/settings.html", context, status=status)


@login_required
def event_settings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's settings, one form per group; each posts to its own endpoint."""
    return _render_settings(request, event_for(request, slug, Role.ORGANISER))


@login_required
@require_POST
def save_settings(request: HttpRequest, slug: str, group: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    groups = _settings_forms(tournament, group, request.POST)
    chosen = next((g for g in groups if g["slug"] == group), None)
    if chosen is None:
        raise Http404("No such settings")
    form = chosen["form"]
    if form.is_valid():
        try:
            events.update_settings(tournament, form.changes(), acting_user=request.user)
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, gettext("%(chosen)s: saved.") % {"chosen": chosen["title"]})
            return redirect("manage:settings", slug=slug)
    return _render_settings(request, tournament, groups=groups)


@login_required
@require_POST
def save_time_zone(request: HttpRequest, slug: str) -> HttpResponse:
    """The venue's clock (``tournaments/venue_time.py``); a name outside the list is refused with a message."""
    tournament = event_for(request, slug, Role.ORGANISER)
    zone_form = TimeZoneForm(request.POST)
    if zone_form.is_valid():
        try:
            events.set_time_zone(tournament, zone_form.cleaned_data["time_zone"], acting_user=request.user)
        except ServiceError as error:
            zone_form.add_error("time_zone", error.message)
        else:
            messages.success(
                request, gettext("Time zone: %(zone)s.") % {"zone": zone_form.cleaned_data["time_zone"]}
            )
            return redirect("manage:settings", slug=slug)
    return _render_settings(request, tournament, zone_form=zone_form)


@login_required
@require_POST
def load_card(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    card_form = CardForm(request.POST, request.FILES, max_bytes=tournament.rule_set.card_max_bytes)
    if card_form.is_valid():
        try:
            name = events.load_event_card(
                tournament, card_form.cleaned_data["card"].read(), acting_user=request.user
            )
        except ServiceError as error:
            card_form.add_error("card", error.message)
        else:
            messages.success(request, gettext("Loaded %(name)s.") % {"name": name})
            return redirect("manage:settings", slug=slug)
    return _render_settings(request, tournament, card_form=card_form)


@login_required
@require_POST
def draw_lots(request: HttpRequest, slug: str) -> HttpResponse:
    """Draw the lots that break ties last, once (``tournaments.services.tie_lots``)."""
    tournament = event_for(request, slug, Role.ORGANISER)
    try:
        tie_lots.draw_lots(tournament, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("Lots drawn and recorded."))
    return redirect("manage:settings", slug=slug)
