"""The organiser's page to merge two records of one person and to undo a merge
(``tournaments.services.player_merge``; who may: ``may_merge``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from players.models import Player, PlayerMerge
from tournaments.errors import ServiceError
from tournaments.services import player_merge

RECENT_MERGES = 20


class MergeForm(forms.Form):
    kept = forms.IntegerField(label=gettext_lazy("Record to keep (number)"), min_value=1)
    merged = forms.IntegerField(label=gettext_lazy("Record to merge into it (number)"), min_value=1)


def _record(player: Player) -> dict[str, Any]:
    return {"player": player, "events": player_merge.events_of(player)}


def _recent(user: Any) -> list[PlayerMerge]:
    """The merges in force the user may undo, latest first."""
    merges = PlayerMerge.objects.filter(undone_at=None).select_related("kept", "merged")[:RECENT_MERGES]
    return [merge for merge in merges if player_merge.may_merge(user, merge.kept, merge.merged)]


@login_required
def merge_players(request: HttpRequest) -> HttpResponse:
    """Choose two records (the numbers in their pages' addresses, ``/players/<number>/``), see both with
    their events, and merge them; the merges in force below, each with its undo."""
    form = MergeForm(request.POST if request.method == "POST" else request.GET or None)
    records: list[dict[str, Any]] = []
    allowed = False
    if form.is_valid():
        kept = get_object_or_404(Player, pk=form.cleaned_data["kept"])
        merged = get_object_or_404(Player, pk=form.cleaned_data["merged"])
        records = [_record(kept), _record(merged)]
        allowed = player_merge.may_merge(request.user, kept, merged)
        if request.method == "POST":
            if not allowed:
                raise PermissionDenied(
                    gettext("Only an organiser of every event of both records may merge them.")
                )
            try:
                player_merge.merge_players(kept, merged, acting_user=request.user)
            except ServiceError as error:
                messages.error(request, error.message)
            else:
                messages.success(
                    request,
                    gettext("%(merged)s is now part of %(kept)s.")
                    % {"merged": merged.name, "kept": kept.name},
                )
                return redirect("manage:merge_players")
    context = {"form": form, "records": records, "allowed": allowed, "merges": _recent(request.user)}
    return render(request, "tournaments/organiser/merge_players.html", context)


@login_required
@require_POST
def undo_merge(request: HttpRequest, pk: int) -> HttpResponse:
    merge = get_object_or_404(PlayerMerge.objects.select_related("kept", "merged"), pk=pk)
    if not player_merge.may_merge(request.user, merge.kept, merge.merged):
        raise PermissionDenied(gettext("Only an organiser of every event of both records may merge them."))
    try:
        player_merge.undo_merge(merge, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            gettext("%(merged)s and %(kept)s are two records again.")
            % {"merged": merge.merged.name, "kept": merge.kept.name},
        )
    return redirect("manage:merge_players")
