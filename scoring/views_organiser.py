"""Organiser pages about results: one print page per session and one for the event, and one view
that streams any print (docs/prints.md)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext, gettext_lazy
from django.views.decorators.http import require_POST

from scoring import views_exports
from scoring.exports import EVENT_PRINTS, SESSION_PRINTS, Export, PrintError, ema_check
from scoring.services import appeals
from scoring.services import pins as pins_service
from tournaments.access import event_for, round_of
from tournaments.errors import ServiceError
from tournaments.models import Registration, Role, Tournament

PAPERS = (("a4", "A4"), ("letter", gettext_lazy("US Letter")))


def _paper(request: HttpRequest) -> str:
    return request.GET.get("paper", "a4")


def _stream(request: HttpRequest, tournament: Tournament, export: Export, what: str) -> HttpResponse:
    """The print as a download, or a page saying what is missing (409) when it cannot be made."""
    try:
        filename, content_type, content = export.render()
    except PrintError as error:
        return render(
            request,
            "scoring/organiser/print_error.html",
            {"tournament": tournament, "what": what, "error": error},
            status=409,
        )
    response = HttpResponse(content, content_type=content_type)
    disposition = "inline" if content_type == "application/pdf" else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return response


@login_required
def session_print(request: HttpRequest, slug: str, number: int, kind: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    round_ = round_of(tournament, number)
    export_class = SESSION_PRINTS.get(kind)
    if export_class is None:
        raise Http404("No such print.")
    what = gettext("%(session)s · %(print)s") % {"session": round_, "print": export_class.label}
    if export_class.background:
        return views_exports.start(
            request, tournament, kind, what, round_number=number, paper=_paper(request)
        )
    export = export_class(round_, request.build_absolute_uri("/"), _paper(request))
    return _stream(request, tournament, export, what)


@login_required
def scoresheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Printable scoresheets for every table of a session, with QR codes to the entry pages."""
    return session_print(request, slug, number, "scoresheets")


@login_required
def event_print(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    export_class = EVENT_PRINTS.get(kind)
    if export_class is None:
        raise Http404("No such print.")
    what = str(export_class.label)
    if export_class.background:
        return views_exports.start(request, tournament, kind, what, paper=_paper(request))
    export = export_class(tournament, request.build_absolute_uri("/"), _paper(request))
    return _stream(request, tournament, export, what)


def _event_context(tournament: Tournament) -> dict[str, Any]:
    ema = None
    if tournament.uses_table_points:
        try:
            ema = ema_check(tournament)
        except PrintError:
            ema = None
    return {
        "tournament": tournament,
        "event_prints": [(kind, cls.label) for kind, cls in EVENT_PRINTS.items()],
        "papers": PAPERS,
        "ema": ema,
        "sessions": list(tournament.rounds.order_by("number")),
        "recent_files": views_exports.recent(tournament),
    }


@login_required
def prints(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every print of one session, and the event's, on one page."""
    tournament = event_for(request, slug, Role.ORGANISER)
    round_ = round_of(tournament, number)
    context = _event_context(tournament)
    context.update(
        round=round_,
        seated=round_.tables.exists(),
        session_prints=[(kind, cls.label) for kind, cls in SESSION_PRINTS.items()],
        word=tournament.rule_set.word("hand", get_language()),
    )
    return render(request, "scoring/organiser/prints.html", context)


@login_required
def event_prints(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's prints and exports, with a link to each session's print page."""
    tournament = event_for(request, slug, Role.ORGANISER)
    return render(request, "scoring/organiser/prints.html", _event_context(tournament))


@login_required
def pins(request: HttpRequest, slug: str) -> HttpResponse:
    """Every player's PIN for signing results (rule 72), for the desk that hands out lost ones;
    ``?session=N``: only the players seated in session N (after its PINs were reissued), with its slips."""
    tournament = event_for(request, slug, Role.ORGANISER)
    issued = pins_service.pins_for(tournament)
    round_ = None
    try:
        number = int(request.GET.get("session", ""))
    except ValueError:
        registrations = list(
            tournament.registrations.select_related("player").order_by("player__name", "code")
        )
    else:
        if not 0 < number < 10_000:  # a number the database can look up (no 500 on a huge one)
            raise Http404("No such session.")
        round_ = round_of(tournament, number)
        registrations = pins_service.seated_in(round_)
    rows = [{"registration": r, "pin": issued.get(r.pk)} for r in registrations]
    return render(
        request,
        "scoring/organiser/pins.html",
        {
            "tournament": tournament,
            "round": round_,
            "papers": PAPERS,
            "rows": rows,
            "missing": sum(1 for row in rows if row["pin"] is None),
        },
    )


@login_required
@require_POST
def issue_pins(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    pins_service.issue_pins(tournament, acting_user=request.user)
    messages.success(request, gettext("Every player has a PIN."))
    return redirect("manage:pins", slug=slug)


@login_required
@require_POST
def reissue_pin(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    """A new PIN for one player (lost slip, PIN seen by someone else); the old one stops working."""
    tournament = event_for(request, slug, Role.ORGANISER)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), tournament=tournament, code=code
    )
    try:
        pin = pins_service.reissue_pin(registration, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, gettext("Not saved: %(problem)s") % {"problem": error.message})
        return redirect("manage:pins", slug=slug)
    messages.success(
        request,
        gettext("New PIN for %(name)s: %(pin)s. The old one no longer works.")
        % {"name": registration.player.name, "pin": pin},
    )
    return redirect("manage:pins", slug=slug)


@login_required
@require_POST
def reissue_session_pins(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A new PIN for everyone seated in a session (the session page's button); the old ones stop
    working. Goes to the session's PIN list, with its seat slips to print again."""
    tournament = event_for(request, slug, Role.ORGANISER)
    round_ = round_of(tournament, number)
    try:
        issued = pins_service.reissue_session_pins(round_, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, gettext("Not saved: %(problem)s") % {"problem": error.message})
        return redirect("manage:session", slug=slug, number=number)
    messages.success(
        request,
        gettext(
            "New PINs for the %(count)s players seated in %(session)s: the old ones no longer work. "
            "Print the seat slips again."
        )
        % {"count": len(issued), "session": round_},
    )
    return redirect(reverse("manage:pins", args=[slug]) + f"?session={round_.number}")


@login_required
def appeals_register(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's appeals register: every ruling (penalties, warnings, "may not win", loss of rank,
    disqualification, lateness), the appeals against them (rule 94) and each decision, with who made
    each; the same as the register PDF, on a page."""

    tournament = event_for(request, slug, Role.ORGANISER)
    return render(
        request,
        "scoring/organiser/register.html",
        {"tournament": tournament, "rows": appeals.register(tournament)},
    )
