"""The organiser's page of players the seating keeps apart (family, couples): add and remove pairs
(``tournaments.services.kept_apart``); the session pages' quality report counts their meetings."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.access import event_for
from tournaments.errors import ServiceError
from tournaments.models import KeptApart, Registration, Role, Tournament
from tournaments.services import kept_apart


class PairForm(forms.Form):
    first = forms.ChoiceField(label=gettext_lazy("Keep"))
    second = forms.ChoiceField(label=gettext_lazy("apart from"))

    def __init__(self, *args: Any, players: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *players]
        cast(forms.ChoiceField, self.fields["first"]).choices = choices
        cast(forms.ChoiceField, self.fields["second"]).choices = choices


def _players(tournament: Tournament) -> dict[str, Registration]:
    """Who can be paired: the event's players still in it (substitutes are seated by the plan's own
    substitute seats, not as themselves)."""
    registrations = tournament.registrations.filter(is_substitute=False, withdrawn_at=None).select_related(
        "player"
    )
    return {r.code: r for r in registrations}


def _render(request: HttpRequest, tournament: Tournament, form: PairForm | None = None) -> HttpResponse:
    players = _players(tournament)
    context = {
        "tournament": tournament,
        "pairs": kept_apart.pairs_of(tournament),
        "form": form or PairForm(players=[(code, f"{r} ({code})") for code, r in players.items()]),
    }
    status = 422 if request.method == "POST" else 200
    return render(request, "tournaments/organiser/kept_apart.html", context, status=status)


@login_required
def kept_apart_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The pairs kept apart, each with its remove button, and the form to add one."""
    tournament = event_for(request, slug, Role.ORGANISER)
    if request.method != "POST":
        return _render(request, tournament)
    players = _players(tournament)
    form = PairForm(request.POST, players=[(code, f"{r} ({code})") for code, r in players.items()])
    if form.is_valid():
        first, second = players[form.cleaned_data["first"]], players[form.cleaned_data["second"]]
        try:
            kept_apart.keep_apart(first, second, acting_user=request.user)
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request,
                gettext("%(first)s and %(second)s will not be seated at one table.")
                % {"first": first, "second": second},
            )
            return redirect("manage:kept_apart", slug=slug)
    return _render(request, tournament, form)


@login_required
@require_POST
def remove_pair(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    pair = get_object_or_404(
        KeptApart.objects.select_related("first__player", "second__player", "tournament"),
        pk=pk,
        tournament=tournament,
    )
    kept_apart.stop_keeping_apart(pair, acting_user=request.user)
    messages.success(
        request,
        gettext("%(first)s and %(second)s may meet again in sessions seated from now on.")
        % {"first": pair.first, "second": pair.second},
    )
    return redirect("manage:kept_apart", slug=slug)
