"""Standings as data for every reader (pages, projector, exports, the ``standings`` command), and
their cache: computed once per standings version, which every counted write bumps."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.services import event_standings
from scoring.standings import StandingRow
from tournaments.models import Tournament


def standings_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """Standings in the spec's JSON shape, best first."""
    names = {r.code: r.player.name for r in tournament.registrations.select_related("player")}
    return [_standing_dict(row, names, tournament.uses_table_points) for row in event_standings(tournament)]


def standings_cache_key(tournament: Tournament) -> str:
    """Identifies one event for the standings caches; the creation time keeps a replaced event
    (import --replace may reuse the row id) from ever reading its predecessor's cache."""
    return f"{tournament.pk}:{tournament.created_at.timestamp()}"


def cached_standings_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """Standings for the public pages, computed once per standings version: every result write bumps
    the version (``bump_standings``), so a cached copy is never stale and a busy projector or a room
    full of phones polling the page costs one computation per change."""
    from django.core.cache import cache

    version = Tournament.objects.filter(pk=tournament.pk).values_list("standings_version", flat=True).first()
    key = f"standings:{standings_cache_key(tournament)}:{version}"
    rows = cache.get(key)
    if rows is None:
        rows = standings_rows(tournament)
        cache.set(key, rows, timeout=3600)
    return rows


def _standing_dict(row: StandingRow, names: Mapping[str, str], table_points: bool) -> dict[str, Any]:
    data: dict[str, Any] = {"rank": row.rank, "player": row.player, "name": names.get(row.player, row.player)}
    if table_points:
        data["table_points"] = float(row.table_points or 0)
    data["score"] = row.score
    sessions = []
    for line in row.sessions:
        session: dict[str, Any] = {"round": line.round_number}
        if table_points:
            session["table_points"] = float(line.table_points or 0)
        session["score"] = line.score
        sessions.append(session)
    data["sessions"] = sessions
    return data
