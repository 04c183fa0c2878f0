"""Organiser pages: create events, register and check in players, seat sessions, watch the tables."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from scoring.services import table_state, tables_with_results
from tournaments import seating_bridge, services
from tournaments.access import event_for, round_of, table_of
from tournaments.errors import ServiceError
from tournaments.forms import (
    CardForm,
    EventForm,
    PlayerForm,
    PlayerImportForm,
    SchemeForm,
    SeatingForm,
    SeatingOptionsForm,
    SettlementForm,
    StaffForm,
    SwapForm,
    TieBreakForm,
)
from tournaments.models import EventRole, Registration, Role, Tournament


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    if request.user.is_superuser:
        events = Tournament.objects.all()
    else:
        events = Tournament.objects.filter(roles__user=request.user).distinct()
    return render(request, "tournaments/organiser/dashboard.html", {"tournaments": events})


@login_required
def create_event(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.create_tournament(
                services.EventDetails(
                    name=data["name"],
                    slug=data["slug"],
                    rules=data["rules"],
                    start_date=data["start_date"],
                    end_date=data["end_date"],
                    num_sessions=data["num_sessions"],
                    hands_per_session=data["hands_per_session"],
                    session_minutes=data["session_minutes"],
                ),
                acting_user=request.user,
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, f"Created {tournament.name}.")
            return redirect("manage_event", slug=tournament.slug)
    return render(request, "tournaments/organiser/create_event.html", {"form": form})


def _sessions_overview(tournament: Tournament) -> list[dict]:
    tables = tables_with_results(tournament)
    sessions = []
    for round_ in tournament.rounds.all():
        mine = [t for t in tables if t.round_id == round_.pk]
        states = [table_state(t) for t in mine]
        sessions.append(
            {
                "round": round_,
                "tables": len(mine),
                "complete": states.count("complete"),
                "in_play": states.count("in play"),
                "not_started": states.count("not started"),
            }
        )
    return sessions


@login_required
def event_dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    staff_form = StaffForm(request.POST or None)
    if request.method == "POST" and staff_form.is_valid():
        services.grant_role(
            tournament,
            staff_form.cleaned_data["username"],
            staff_form.cleaned_data["role"],
            acting_user=request.user,
        )
        messages.success(request, "Role granted.")
        return redirect("manage_event", slug=slug)
    registrations = tournament.registrations.all()
    return render(
        request,
        "tournaments/organiser/event.html",
        {
            "tournament": tournament,
            "sessions": _sessions_overview(tournament),
            "registered": registrations.count(),
            "checked_in": registrations.filter(checked_in=True).count(),
            "staff": EventRole.objects.filter(tournament=tournament).select_related("user"),
            "staff_form": staff_form,
            "audit": tournament.audit_entries.select_related("actor")[:15],
        },
    )


@login_required
def players(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    form = PlayerForm(request.POST if "add" in request.POST else None)
    import_form = PlayerImportForm(
        request.POST if "import" in request.POST else None,
        request.FILES if "import" in request.POST else None,
    )
    import_errors: list[str] = []
    if request.method == "POST" and "add" in request.POST and form.is_valid():
        try:
            registration = services.register_player(
                tournament, services.PlayerRow(**form.cleaned_data), acting_user=request.user
            )
        except ServiceError as error:
            form.add_error(None, error.message[0].upper() + error.message[1:] + ".")
        else:
            messages.success(request, f"Registered {registration.player.name} as {registration.code}.")
            return redirect("manage_players", slug=slug)
    if request.method == "POST" and "import" in request.POST and import_form.is_valid():
        upload = import_form.cleaned_data["file"]
        try:
            report = services.import_players(tournament, upload.read(), upload.name, acting_user=request.user)
        except ServiceError as error:
            import_errors = [error.message]
        else:
            if report.errors:
                import_errors = report.errors
            else:
                messages.success(request, f"Imported {len(report.created)} players.")
                return redirect("manage_players", slug=slug)
    registrations = tournament.registrations.select_related("player").order_by("player__name")
    return render(
        request,
        "tournaments/organiser/players.html",
        {
            "tournament": tournament,
            "registrations": registrations,
            "form": form,
            "import_form": import_form,
            "import_errors": import_errors,
        },
    )


@login_required
@require_POST
def check_in(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    registration = get_object_or_404(Registration, tournament=tournament, code=code)
    services.set_checked_in(registration, request.POST.get("checked_in") == "1", acting_user=request.user)
    if request.htmx:
        return render(
            request, "tournaments/organiser/_check_in.html", {"tournament": tournament, "r": registration}
        )
    return redirect("manage_players", slug=slug)


@login_required
def session(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Seat a session (or it and all later ones), swap two players, and see the plan's quality."""
    tournament = event_for(request, slug, Role.ORGANISER)
    round_ = round_of(tournament, number)
    form = SeatingForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.start_seating_job(
                round_,
                whole_plan=request.POST.get("scope") == "remaining",
                seed=form.cleaned_data["seed"] or 0,
                acting_user=request.user,
                background=settings.SEATING_IN_BACKGROUND,
            )
        except ServiceError as error:
            messages.error(request, error.message)
        return redirect("manage_session", slug=slug, number=number)
    tables = tables_with_results(tournament, round_)
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
            "form": form,
            "swap_form": SwapForm(players=seated),
            "tables": [
                {"table": t, "state": table_state(t), "seats": sorted(t.seats.all(), key=_wind_order)}
                for t in tables
            ],
            "has_results": services.round_has_results(round_),
            "quality": seating_report(tournament),
            "seating_settings": seating_bridge.settings_of(tournament),
            "job": _job_context(tournament),
        },
    )


def _job_context(tournament: Tournament) -> dict | None:
    from django.utils import timezone

    job = services.current_seating_job(tournament)
    if job is None:
        return None
    elapsed = ((job.finished_at or timezone.now()) - job.started_at).total_seconds()
    return {
        "job": job,
        "elapsed": round(elapsed, 1),
        "percent": min(99, int(100 * elapsed / max(job.time_limit, 0.1))),
    }


@login_required
def seating_job(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The job's state for the session page to poll; when the job has ended the page reloads itself."""
    tournament = event_for(request, slug, Role.ORGANISER)
    context = {
        "tournament": tournament,
        "round": round_of(tournament, number),
        "job": _job_context(tournament),
    }
    response = render(request, "tournaments/organiser/_seating_job.html", context)
    job = context["job"]
    if request.htmx and job is not None and job["job"].status != "running":
        response["HX-Refresh"] = "true"
    return response


def seating_report(tournament: Tournament) -> dict | None:
    """The quality report of every seated session, with the counting bound beside it."""
    from tournaments.seating import lower_bound

    report = seating_bridge.event_quality(tournament)
    if report is None:
        return None
    names = {r.code: r.player.name for r in tournament.registrations.select_related("player")}
    players = len(report.wind_counts)
    bound = lower_bound(players - players % 4, report.rounds) if players >= 4 else None
    winds = sorted(
        (
            {"name": names.get(code, code), "counts": counts, "spread": max(counts) - min(counts)}
            for code, counts in report.wind_counts.items()
        ),
        key=lambda row: (-row["spread"], row["name"]),
    )
    return {
        "report": report,
        "bound": bound,
        "repeated": [(names.get(p.a, p.a), names.get(p.b, p.b), p.meetings) for p in report.repeated[:50]],
        "winds": winds,
    }


@login_required
@require_POST
def swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    round_ = round_of(tournament, number)
    try:
        services.swap_seats(
            round_, request.POST.get("a", ""), request.POST.get("b", ""), acting_user=request.user
        )
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "Players swapped; the quality report below is up to date.")
    return redirect("manage_session", slug=slug, number=number)


@login_required
@require_POST
def fixed_table(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    registration = get_object_or_404(Registration, tournament=tournament, code=code)
    raw = request.POST.get("fixed_table", "").strip()
    if raw and (not raw.isdigit() or not 1 <= int(raw) <= 500):
        messages.error(request, "A fixed table is a table number (1 or more), or empty for none.")
    else:
        services.set_fixed_table(registration, int(raw) if raw else None, acting_user=request.user)
        messages.success(request, f"{registration.player.name}: fixed table {raw or 'none'}.")
    return redirect("manage_players", slug=slug)


def _wind_order(seat) -> int:
    return "ESWN".index(seat.wind)


@login_required
@require_POST
def totals_only(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    services.set_totals_only(
        table_of(tournament, number, table), request.POST.get("allowed") == "1", acting_user=request.user
    )
    return redirect("manage_session", slug=slug, number=number)


@login_required
def event_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """NMJL: the card and the tournament points scheme. Other rule sets have nothing to set here yet."""
    from scoring.rules.nmjl.tournament import PRESETS

    tournament = event_for(request, slug, Role.ORGANISER)
    current = (tournament.settings.get("scheme") or {}).get("preset", "book")
    scheme_form = SchemeForm(
        request.POST if "scheme" in request.POST else None, presets=list(PRESETS), initial={"preset": current}
    )
    options = tournament.settings.get("settlement") or {}
    settlement_form = SettlementForm(
        request.POST if "settlement" in request.POST else None,
        initial={
            "round_to": options.get("round_to", 1),
            "stakes_limit": options.get("stakes_limit"),
            "limit": tournament.settings.get("limit"),
        },
    )
    seating = seating_bridge.settings_of(tournament)
    seating_form = SeatingOptionsForm(request.POST if "seating" in request.POST else None, initial=seating)
    tie_form = TieBreakForm(
        request.POST if "ties" in request.POST else None,
        initial={"tie_break": tournament.settings.get("tie_break", "shared")},
    )
    card_form = CardForm(
        request.POST if "upload" in request.POST else None,
        request.FILES if "upload" in request.POST else None,
    )
    try:
        if request.method == "POST" and "scheme" in request.POST and scheme_form.is_valid():
            services.set_nmjl_scheme(tournament, scheme_form.cleaned_data["preset"], acting_user=request.user)
            messages.success(request, "Scoring scheme saved.")
            return redirect("manage_settings", slug=slug)
        if request.method == "POST" and "ties" in request.POST and tie_form.is_valid():
            services.set_tie_break(tournament, tie_form.cleaned_data["tie_break"], acting_user=request.user)
            messages.success(request, "Tie policy saved.")
            return redirect("manage_settings", slug=slug)
        if request.method == "POST" and "seating" in request.POST and seating_form.is_valid():
            services.set_seating_options(tournament, acting_user=request.user, **seating_form.cleaned_data)
            messages.success(request, "Seating options saved.")
            return redirect("manage_settings", slug=slug)
        if request.method == "POST" and "settlement" in request.POST and settlement_form.is_valid():
            services.set_classical_settlement(
                tournament,
                round_to=settlement_form.cleaned_data["round_to"],
                stakes_limit=settlement_form.cleaned_data["stakes_limit"],
                limit=settlement_form.cleaned_data["limit"],
                acting_user=request.user,
            )
            messages.success(request, "Settlement options saved.")
            return redirect("manage_settings", slug=slug)
        if request.method == "POST" and "upload" in request.POST and card_form.is_valid():
            name = services.load_event_card(
                tournament, card_form.cleaned_data["card"].read(), acting_user=request.user
            )
            messages.success(request, f"Loaded {name}.")
            return redirect("manage_settings", slug=slug)
    except ServiceError as error:
        messages.error(request, error.message)
    card = None
    if tournament.rules == "nmjl":
        from scoring.services import event_rules

        card = event_rules(tournament).card
    return render(
        request,
        "tournaments/organiser/settings.html",
        {
            "tournament": tournament,
            "scheme_form": scheme_form,
            "card_form": card_form,
            "settlement_form": settlement_form,
            "seating_form": seating_form,
            "tie_form": tie_form,
            "classical": tournament.rules in ("babcock", "chinese-1920s", "foster"),
            "card": card,
            "scheme": PRESETS.get(current),
        },
    )


@login_required
def scoresheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Printable scoresheets for every table of a session, with QR codes to the entry pages."""
    from scoring.exports import ScoresheetsPDF

    tournament = event_for(request, slug, Role.ORGANISER)
    filename, content_type, content = ScoresheetsPDF(
        round_of(tournament, number), request.build_absolute_uri("/")
    ).render()
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
