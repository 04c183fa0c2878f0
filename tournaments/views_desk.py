"""The registration desk (the organiser's players page): register, import, edit, withdraw and
check in players, by scanning a seat slip or by a name search that ignores case and accents; open the
players' self check-in and turn a tablet into the check-in kiosk. The list updates itself (polled)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from players import countries
from tournaments import desk, kiosk, results
from tournaments.access import HtmxHttpRequest, event_for
from tournaments.errors import ServiceError
from tournaments.forms import (
    CheckInForm,
    DeskForm,
    FixedTableForm,
    PlayerForm,
    PlayerImportForm,
    RegisterForm,
    SelfCheckInForm,
    WithdrawForm,
)
from tournaments.models import Registration, Role, Tournament
from tournaments.services import entries, registrations, seating
from tournaments.venue_time import venue_time
from tournaments.views_entries import entry_link


def _message(error: ServiceError) -> str:
    text = error.message
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _list_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """The players' list as the desk shows it (the page and its live fragment): everyone, or the
    matches of ``?q=``."""
    query = request.GET.get("q", "").strip()[:300]
    if query:
        registrations = desk.find(tournament, query)
    else:
        registrations = desk.in_desk_order(tournament.registrations.select_related("player"))
    everyone = tournament.registrations.filter(withdrawn_at__isnull=True)
    return {
        "tournament": tournament,
        "registrations": registrations,
        "query": query,
        "counts": {
            "registered": everyone.count(),
            "checked_in": everyone.filter(checked_in=True).count(),
        },
        "players_url": reverse("manage:players", args=[tournament.slug]),
        "list_url": reverse("manage:players_list", args=[tournament.slug])
        + ("?" + urlencode({"q": query}) if query else ""),
    }


def _render_players(
    request: HttpRequest,
    tournament: Tournament,
    *,
    form: RegisterForm | None = None,
    import_form: PlayerImportForm | None = None,
    import_errors: list[str] | None = None,
    duplicate: bool = False,
) -> HttpResponse:
    failed = form is not None or import_form is not None or bool(import_errors)
    return render(
        request,
        "tournaments/organiser/players.html",
        {
            **_list_context(request, tournament),
            "desk_form": DeskForm(initial={"q": request.GET.get("q", "").strip()[:300]}),
            "form": form or RegisterForm(),
            "duplicate": duplicate,
            "import_form": import_form or PlayerImportForm(),
            "import_errors": import_errors or [],
            "countries": countries.choices(),
            "self_check_in_form": SelfCheckInForm(),
        },
        status=422 if failed else 200,
    )


@login_required
def players(request: HttpRequest, slug: str) -> HttpResponse:
    """The registration desk: check-in first (one field for a scan or a name), then the players and
    the forms to register one or import a list."""
    return _render_players(request, event_for(request, slug, Role.ORGANISER))


@login_required
def players_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The desk's list alone, polled every few seconds: check-ins from the players' phones and the kiosk
    show up without reloading."""
    tournament = event_for(request, slug, Role.ORGANISER)
    return render(request, "tournaments/organiser/_players_list.html", _list_context(request, tournament))


@login_required
@require_POST
def self_check_in_window(request: HttpRequest, slug: str) -> HttpResponse:
    """Open self check-in (the players' own page and the kiosk) for some minutes, or close it."""
    tournament = event_for(request, slug, Role.ORGANISER)
    form = SelfCheckInForm(request.POST)
    if not form.is_valid() or not (form.cleaned_data["close"] or form.cleaned_data["minutes"]):
        messages.error(
            request,
            gettext("Open self check-in for 1 to %(most)s minutes.")
            % {"most": desk.SELF_CHECK_IN_MAX_MINUTES},
        )
        return redirect("manage:players", slug=slug)
    minutes = None if form.cleaned_data["close"] else form.cleaned_data["minutes"]
    try:
        tournament = desk.set_self_check_in(tournament, minutes, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        if tournament.self_check_in_until is None:
            messages.success(request, gettext("Self check-in is closed: players check in at the desk."))
        else:
            messages.success(
                request,
                gettext("Players can check themselves in until %(time)s.")
                % {"time": formats.time_format(venue_time(tournament.self_check_in_until, tournament))},
            )
    return redirect("manage:players", slug=slug)


@login_required
@require_POST
def kiosk_on(request: HttpRequest, slug: str) -> HttpResponse:
    """Make this browser the event's check-in kiosk; the organiser's login on it ends (``tournaments.kiosk``)."""
    tournament = event_for(request, slug, Role.ORGANISER)
    kiosk.turn_on(request, tournament)
    return redirect("public:kiosk", slug=slug)


@login_required
@require_POST
def add_player(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    form = RegisterForm(request.POST)
    duplicate = False
    if form.is_valid():
        data = dict(form.cleaned_data)
        anyway = data.pop("register_anyway")
        try:
            registration = desk.register(
                tournament, registrations.PlayerRow(**data), register_anyway=anyway, acting_user=request.user
            )
        except ServiceError as error:
            duplicate = error.code == "probable_duplicate"
            form.add_error(None, _message(error))
        else:
            messages.success(
                request,
                gettext("Registered %(name)s as %(code)s.")
                % {"name": registration.player.name, "code": registration.code},
            )
            return redirect("manage:players", slug=slug)
    return _render_players(request, tournament, form=form, duplicate=duplicate)


@login_required
@require_POST
def import_players(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    import_form = PlayerImportForm(request.POST, request.FILES)
    if not import_form.is_valid():
        return _render_players(request, tournament, import_form=import_form)
    upload = import_form.cleaned_data["file"]
    try:
        report = registrations.import_players(
            tournament, upload.read(), upload.name, acting_user=request.user
        )
    except ServiceError as error:
        return _render_players(request, tournament, import_errors=[error.message])
    if report.errors:
        return _render_players(request, tournament, import_errors=report.errors)
    messages.success(request, gettext("Imported %(count)s players.") % {"count": len(report.created)})
    return redirect("manage:players", slug=slug)


@login_required
@require_POST
def desk_check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """One field for the desk: a scanned slip (or typed code) checks the player in at once; anything
    else is a name search, listed with a check-in button per match."""
    tournament = event_for(request, slug, Role.ORGANISER)
    form = DeskForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Scan a seat slip or type a name."))
        return redirect("manage:players", slug=slug)
    query = form.cleaned_data["q"]
    try:
        registration = desk.check_in_by_code(tournament, query, acting_user=request.user)
    except ServiceError as error:
        if error.code == "withdrawn":
            messages.error(request, error.message)
            return redirect("manage:players", slug=slug)
        return redirect(reverse("manage:players", args=[slug]) + "?" + urlencode({"q": query}))
    messages.success(
        request,
        gettext("%(name)s (%(code)s) is checked in.")
        % {"name": registration.player.name, "code": registration.code},
    )
    return redirect("manage:players", slug=slug)


@login_required
@require_POST
def check_in(request: HtmxHttpRequest, slug: str, code: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    registration = get_object_or_404(Registration, tournament=tournament, code=code)
    form = CheckInForm(request.POST)
    form.is_valid()  # a missing or odd value reads as "not checked in"
    if registration.withdrawn and form.cleaned_data.get("checked_in", False):
        messages.error(
            request,
            gettext("%(name)s has withdrawn: reinstate them first.") % {"name": registration.player.name},
        )
        return redirect("manage:players", slug=slug)
    registrations.set_checked_in(
        registration, form.cleaned_data.get("checked_in", False), acting_user=request.user
    )
    if request.htmx:
        return render(
            request,
            "tournaments/organiser/_check_in.html",
            {
                "tournament": tournament,
                "r": registration,
                "players_url": reverse("manage:players", args=[tournament.slug]),
            },
        )
    return redirect("manage:players", slug=slug)


def _edit_context(tournament: Tournament, registration: Registration, form: PlayerForm) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "r": registration,
        "form": form,
        "countries": countries.choices(),
        "later": desk.later_seatings(registration) if registration.withdrawn else [],
        # Withdrawn by a disqualification (MCR 89): the page offers no reinstate (only an appeal does).
        "disqualified": results.source().disqualification(registration) if registration.withdrawn else "",
    }


@login_required
def edit_player(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    """Correct a player's details; withdraw or reinstate them."""
    tournament = event_for(request, slug, Role.ORGANISER)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), tournament=tournament, code=code
    )
    player = registration.player
    initial = {
        "name": player.name,
        "family_name": player.family_name,
        "given_name": player.given_name,
        "country": player.country,
        "ema_id": player.ema_id,
        "team": registration.team,
        "public_name": registration.public_name,
    }
    form = PlayerForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            desk.edit(registration, registrations.PlayerRow(**form.cleaned_data), acting_user=request.user)
        except ServiceError as error:
            form.add_error(None, _message(error))
        else:
            messages.success(request, gettext("Saved %(name)s.") % {"name": form.cleaned_data["name"]})
            return redirect("manage:players", slug=slug)
    status = 422 if request.method == "POST" else 200
    return render(
        request,
        "tournaments/organiser/edit_player.html",
        _edit_context(tournament, registration, form),
        status=status,
    )


@login_required
@require_POST
def withdraw(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    registration = get_object_or_404(Registration, tournament=tournament, code=code)
    form = WithdrawForm(request.POST)
    form.is_valid()
    try:
        registration = desk.set_withdrawn(
            registration, form.cleaned_data.get("withdrawn", False), acting_user=request.user
        )
    except ServiceError as error:  # a disqualified player is reinstated by an upheld appeal only
        messages.error(request, error.message)
        return redirect("manage:edit_player", slug=slug, code=code)
    if registration.withdrawn:
        # a place the desk's player held goes to the waiting list (tournaments/services/entries.py)
        moved = entries.fill_places(tournament)
        entries.notify_moved_up(moved, lambda entry: entry_link(request, entry))
        later = desk.later_seatings(registration)
        text = gettext("%(name)s is withdrawn: kept in the history, no longer seated or ranked.") % {
            "name": registration.player.name
        }
        if later:
            text += " " + gettext("Still seated in session %(sessions)s: re-seat it.") % {
                "sessions": ", ".join(map(str, later))
            }
        messages.success(request, text)
    else:
        messages.success(request, gettext("%(name)s is reinstated.") % {"name": registration.player.name})
    return redirect("manage:edit_player", slug=slug, code=code)


@login_required
@require_POST
def fixed_table(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    registration = get_object_or_404(Registration, tournament=tournament, code=code)
    form = FixedTableForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("A fixed table is a table number (1 to 500), or empty for none."))
    else:
        table = form.cleaned_data["fixed_table"]
        seating.set_fixed_table(registration, table, acting_user=request.user)
        messages.success(
            request,
            gettext("%(name)s: fixed table %(value)s.")
            % {"name": registration.player.name, "value": table or gettext("none")},
        )
    return redirect("manage:players", slug=slug)
