"""Public pages about a player across events: ``/players/<id>/`` and a head-to-head
``/players/<id>/vs/<other>/``, answered through the read path (``tournaments/public_read.py``, keyed on
every published event of the players: ``players_stamp``); the other player is picked by a search of the
public names (``/players/<id>/vs/?q=``, never stored: it answers each query)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache

from players.folding import MAX_QUERY
from players.models import Player, PlayerMerge
from scoring.player_history import event_lines, find_players, head_to_head, published_registrations
from tournaments.public_names import history_names, noindex


def _player(player_id: int) -> Player | HttpResponse:
    """The record, or a redirect to the record it was merged into; 404 for a record with no published
    event (a player seen only in drafts is not public)."""
    player = get_object_or_404(Player, pk=player_id)
    merge = PlayerMerge.objects.filter(merged=player, undone_at=None).first()
    if merge is not None:
        return redirect("public:player_history", player_id=merge.kept_id)
    if not published_registrations(player):
        raise Http404("No such player")
    return player


def player_history(request: HttpRequest, player_id: int) -> HttpResponse:
    """Every published event the player played, and everyone they met at a counted table."""
    player = _player(player_id)
    if isinstance(player, HttpResponse):
        return player
    opponents = head_to_head(player)
    names = history_names([player.pk, *(pair.other.pk for pair in opponents)])
    context = {
        "player": player,
        "name": names.get(player.pk, ""),
        "full_name": names.get(player.pk) == player.name,  # the EMA id would name a hidden player
        "events": event_lines(player),
        "opponents": [(pair, names.get(pair.other.pk, "")) for pair in opponents],
        "noindex": True,
    }
    return noindex(render(request, "scoring/public/player_history.html", context), indexable=False)


def versus(request: HttpRequest, player_id: int, other_id: int) -> HttpResponse:
    """Two players' meetings at counted tables across events, and who finished higher each time."""
    player, other = _player(player_id), _player(other_id)
    if isinstance(player, HttpResponse) or isinstance(other, HttpResponse):
        kept = [p.pk if isinstance(p, Player) else None for p in (player, other)]
        ids = [kept[0] or _kept_id(player_id), kept[1] or _kept_id(other_id)]
        return redirect("public:versus", player_id=ids[0], other_id=ids[1])
    if player.pk == other.pk:
        raise Http404("The same player")
    found = head_to_head(player, other)
    pair = found[0] if found else None
    names = history_names([player.pk, other.pk])
    context = {
        "player": player,
        "other": other,
        "pair": pair,
        "name": names.get(player.pk, ""),
        "other_name": names.get(other.pk, ""),
        "noindex": True,
    }
    return noindex(render(request, "scoring/public/versus.html", context), indexable=False)


@never_cache
def versus_search(request: HttpRequest, player_id: int) -> HttpResponse:
    """Pick the other player of a head-to-head by name or player id, among the public names only."""
    player = _player(player_id)
    if isinstance(player, HttpResponse):
        return redirect("public:versus_search", player_id=_kept_id(player_id))
    # Shown back to the reader: control characters are dropped, never echoed (as find-a-player does).
    query = "".join(char for char in request.GET.get("q", "")[:MAX_QUERY] if char.isprintable()).strip()
    found, more = find_players(query, exclude=player.pk)
    context = {
        "player": player,
        "name": history_names([player.pk]).get(player.pk, ""),
        "query": query,
        "found": found,
        "more": more,
        "noindex": True,
    }
    return noindex(render(request, "scoring/public/versus_search.html", context), indexable=False)


def _kept_id(player_id: int) -> int:
    merge = PlayerMerge.objects.filter(merged_id=player_id, undone_at=None).values_list("kept_id", flat=True)
    return merge.first() or player_id
