"""The referee's appeal pages (MCR rule 94): filing a written appeal against a ruling (a penalty, a
lateness or a hand's result), and the chief referee's list of the event's appeals, each decided there."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_POST

from scoring.forms import AppealForm, DecisionForm
from scoring.models import Appeal, Hand, LateArrival, Penalty
from scoring.services import appeals as appeals_service
from scoring.services import confirmation, queries
from scoring.views_referee_table import hand_text, load_table, player_choices, table_registrations
from tournaments.access import appeals_event_for
from tournaments.errors import ServiceError
from tournaments.models import Table


def _ruling(table: Table, subject: str, pk: int) -> Penalty | LateArrival | Hand:
    if subject == "penalty":
        return get_object_or_404(Penalty, table=table, pk=pk)
    if subject == "late":
        return get_object_or_404(LateArrival, table=table, pk=pk)
    if subject == "hand":
        return get_object_or_404(Hand.objects.in_force(), table=table, number=pk)
    raise Http404("No such ruling.")


@login_required
def appeal(
    request: HttpRequest, slug: str, number: int, table: int, penalty: int, subject: str = "penalty"
) -> HttpResponse:
    """File a written appeal against a ruling (MCR rule 94): a penalty, a lateness or a hand's result."""
    table_obj = load_table(request, slug, number, table)
    ruling = _ruling(table_obj, subject, penalty)
    tournament = table_obj.round.tournament
    fee = appeals_service.appeal_fee(tournament)
    form = AppealForm(
        request.POST or None, players=player_choices(table_obj), fee=fee, rules=tournament.rule_set
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            appeals_service.file_appeal(
                ruling,
                statement=data["statement"],
                signed_by=data["signed_by"],
                appellant=table_registrations(table_obj).get(data["appellant"]),
                fee_received=data.get("fee_received", False),
                acting_user=request.user,
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, gettext("Appeal filed: the chief referee or the appeals committee decides it.")
            )
            return redirect("referee:table", slug=slug, number=number, table=table)
    deadline = ruling.created_at + timedelta(minutes=appeals_service.APPEAL_DEADLINE_MINUTES)
    return render(
        request,
        "scoring/referee/appeal.html",
        {
            "tournament": tournament,
            "table": table_obj,
            "subject": subject,
            "ruling": ruling,
            "ruling_text": _ruling_text(
                ruling,
                tournament,
                hidden=subject == "hand" and not confirmation.figures_visible(table_obj, request.user),
            ),
            "deadline": deadline,
            "fee": fee,
            "form": form,
        },
    )


def _ruling_text(ruling: Penalty | LateArrival | Hand, tournament: Any, *, hidden: bool = False) -> str:
    """The ruling appealed against in one line; a hand's result withheld when ``hidden`` (a blind table
    before its second entry)."""
    if isinstance(ruling, Penalty):
        return appeals_service.penalty_line(ruling, queries.event_rules(tournament))
    if isinstance(ruling, LateArrival):
        return appeals_service.late_line(ruling)
    hand = tournament.rule_set.word("hand", get_language())
    return gettext("%(hand)s %(number)s: %(text)s") % {
        "hand": hand[:1].upper() + hand[1:],
        "number": ruling.number,
        "text": gettext("Hidden until the blind second entry agrees.")
        if hidden
        else hand_text(ruling, tournament),
    }


@login_required
def appeals(request: HttpRequest, slug: str) -> HttpResponse:
    """The chief referee's page: every appeal of the event, pending ones first, each decided here."""
    tournament = appeals_event_for(request, slug)
    items = appeals_service.event_appeals(tournament)
    items.sort(key=lambda a: (a.status != "pending", a.created_at))
    return render(
        request,
        "scoring/referee/appeals.html",
        {
            "tournament": tournament,
            "appeals": [
                {"appeal": a, "text": appeals_service.ruling_line(a), "own": a.ruled_by_id == request.user.pk}
                for a in items
            ],
        },
    )


@login_required
@require_POST
def decide_appeal(request: HttpRequest, slug: str, appeal: int, **_: Any) -> HttpResponse:
    """Decide an appeal (chief referee or appeals committee only; never the ruling referee)."""
    tournament = appeals_event_for(request, slug)
    appeal_obj = get_object_or_404(Appeal, table__round__tournament=tournament, pk=appeal)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            gettext("Not saved: choose whether the appeal is granted or rejected, and give the reasons."),
        )
    else:
        try:
            appeals_service.decide_appeal(
                appeal_obj,
                form.cleaned_data["status"],
                reasons=form.cleaned_data["reasons"],
                revise=form.cleaned_data["revise"],
                acting_user=request.user,
            )
        except ServiceError as error:
            messages.error(request, gettext("Not saved: %(problem)s") % {"problem": error.message})
        else:
            messages.success(
                request,
                gettext("Appeal granted: ruling withdrawn. The decision is recorded.")
                if form.cleaned_data["status"] == "upheld"
                else gettext("Appeal rejected: ruling stands. The decision is recorded."),
            )
    return redirect("referee:appeals", slug=slug)
