"""The organiser's page to replace a person's data by a pseudonym (``scoring.services.personal_data``),
asked twice: this page says what will change, then the organiser types the person's name to confirm.
Who may: ``may_erase`` (an organiser of every event the person played, or a superuser)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_lazy

from players.models import Player
from scoring.services import personal_data


class EraseForm(forms.Form):
    confirm = forms.CharField(label=gettext_lazy("Type the player's name to confirm"), max_length=200)


def _same(typed: str, name: str) -> bool:
    return " ".join(typed.split()).casefold() == " ".join(name.split()).casefold()


@login_required
def erase_player(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    if not personal_data.may_erase(request.user, player):
        raise PermissionDenied(
            gettext("Only an organiser of every event of this player, or an administrator, may erase them.")
        )
    form = EraseForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        if _same(form.cleaned_data["confirm"], player.name):
            report = personal_data.anonymise_player(player, acting_user=request.user)
            messages.success(
                request,
                gettext("The player's data was replaced by the pseudonym %(name)s in %(count)s events.")
                % {"name": report.pseudonym, "count": len(report.events)},
            )
            return redirect("manage:erase_player", pk=player.pk)
        form.add_error("confirm", gettext("This is not the player's name: nothing was changed."))
    context = {
        "player": player,
        "form": form,
        "events": personal_data.events_of(player),
        "pseudonym": personal_data.pseudonym(player.pk),
        "done": personal_data.is_anonymised(player),
    }
    return render(request, "scoring/organiser/erase_player.html", context)
