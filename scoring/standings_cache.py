"""Standings as data for every reader (pages, projector, exports, the ``standings`` command), and
their cache: computed once per standings version, which every counted write bumps."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from scoring.services import event_standings
from scoring.standings import StandingRow
from tournaments.models import Tournament
from tournaments.page_cache import stale_tolerance


def standings_rows(tournament: Tournament, *, include_provisional: bool = False) -> list[dict[str, Any]]:
    """Standings in the spec's JSON shape, best first: confirmed tables only, unless
    ``include_provisional`` (the organiser's preview)."""
    names = {r.code: r.player.name for r in tournament.registrations.select_related("player")}
    rows = event_standings(tournament, include_provisional=include_provisional)
    return [_standing_dict(row, names, tournament.uses_table_points) for row in rows]


@dataclass(frozen=True)
class SessionProgress:
    """How far a session has got, for the line above the standings ("session 3 in play: 5 of 8
    tables confirmed")."""

    number: int
    tables: int
    started: int
    confirmed: int

    @property
    def in_play(self) -> bool:
        return self.started > 0 and self.confirmed < self.tables

    @property
    def final(self) -> bool:
        return self.tables > 0 and self.confirmed == self.tables


def progress_lines(progress: list[SessionProgress]) -> list[tuple[str, str]]:
    """What the standings say about the sessions: (css class, text) lines, such as
    "After session 2 (final)." and "Session 3 in play: 5 of 8 tables confirmed." """
    lines = []
    final = [p.number for p in progress if p.final]
    if final:
        lines.append(("final", gettext("After session %(number)s (final).") % {"number": final[-1]}))
    lines.extend(
        (
            "in-play",
            gettext("Session %(number)s in play: %(confirmed)s of %(tables)s tables confirmed.")
            % {"number": p.number, "confirmed": p.confirmed, "tables": p.tables},
        )
        for p in progress
        if p.in_play
    )
    return lines


def session_progress(tournament: Tournament) -> list[SessionProgress]:
    """Each seated session's tables: how many have results and how many are confirmed."""
    from scoring.models import Confirmation, Hand, TableTotals
    from tournaments.models import Table

    tables = Table.objects.filter(round__tournament=tournament).values_list("id", "round__number")
    in_event = {"table__round__tournament": tournament}
    started = set(Hand.objects.filter(is_current=True, **in_event).values_list("table_id", flat=True))
    started |= set(TableTotals.objects.filter(is_current=True, **in_event).values_list("table_id", flat=True))
    confirmed = set(
        Confirmation.objects.filter(is_current=True, voided=False, **in_event).values_list(
            "table_id", flat=True
        )
    )
    by_round: dict[int, list[int]] = {}
    for table_id, number in tables:
        by_round.setdefault(number, []).append(table_id)
    return [
        SessionProgress(
            number=number,
            tables=len(ids),
            started=sum(1 for i in ids if i in started),
            confirmed=sum(1 for i in ids if i in confirmed),
        )
        for number, ids in sorted(by_round.items())
    ]


def frozen_lines(tournament: Tournament) -> list[tuple[str, str]]:
    """The line that says the public standings are frozen (release controls), else nothing."""
    if tournament.standings_frozen_after is None:
        return []
    return [
        (
            "frozen",
            gettext("Standings after session %(number)s, frozen until the prize-giving.")
            % {"number": tournament.standings_frozen_after},
        )
    ]


def public_progress(tournament: Tournament, progress: list[SessionProgress]) -> list[SessionProgress]:
    """Only the sessions the public standings count: results published, and not after the session the
    standings are frozen at (release controls, ``tournaments.release``), so "after session N" never
    speaks of a session the standings leave out."""
    from tournaments.release import counted_rounds

    counted = counted_rounds(tournament)
    return [p for p in progress if p.number in counted]


def standings_cache_key(tournament: Tournament) -> str:
    """Identifies one event for the standings caches; the creation time keeps a replaced event
    (import --replace may reuse the row id) from ever reading its predecessor's cache."""
    return f"{tournament.pk}:{tournament.created_at.timestamp()}"


def cached_standings_rows(
    tournament: Tournament, *, include_provisional: bool = False
) -> list[dict[str, Any]]:
    """Standings for the public pages, computed once per standings version: every result write bumps
    the version (``bump_standings``), so a cached copy is never stale and a busy projector or a room
    full of phones polling the page costs one computation per change.

    With several workers sharing the cache (Redis), only the worker that takes the version's lock
    computes; the others serve the previous version meanwhile instead of all recomputing at once (no
    stampede). Nothing older is ever served once the new version is in the cache, except to a public
    page being rendered for the shared page cache (``tournaments.page_cache``), which may use standings
    computed up to ``PUBLIC_PAGE_MIN_SECONDS`` ago: while results pour in, they are then computed at most
    that often instead of after every hand."""
    from django.core.cache import cache

    version = Tournament.objects.filter(pk=tournament.pk).values_list("standings_version", flat=True).first()
    base = f"standings:{standings_cache_key(tournament)}:{int(include_provisional)}"
    rows = cache.get(f"{base}:{version}")
    if rows is not None:
        return rows
    tolerance = stale_tolerance()
    if tolerance:  # a public page for the shared cache: the previous version will do if it is recent
        kept = cache.get_many([f"{base}:latest", f"{base}:latest-at"])
        if f"{base}:latest" in kept and time.time() - kept.get(f"{base}:latest-at", 0) < tolerance:
            return kept[f"{base}:latest"]
    # One lock for every version: while results pour in (a new version every second), one worker at a
    # time computes, instead of one per version at once.
    locked = cache.add(f"{base}:computing", 1, timeout=STAMPEDE_LOCK_SECONDS)
    if not locked:
        latest = cache.get(f"{base}:latest")
        if latest is not None:
            return latest
    try:
        rows = standings_rows(tournament, include_provisional=include_provisional)
        cache.set_many(
            {f"{base}:{version}": rows, f"{base}:latest": rows, f"{base}:latest-at": time.time()},
            timeout=3600,
        )
    finally:
        if locked:
            cache.delete(f"{base}:computing")
    return rows


STAMPEDE_LOCK_SECONDS = 30
"""How long one worker may take to compute a version before another tries (a dead worker's lock expires)."""


def _standing_dict(row: StandingRow, names: Mapping[str, str], table_points: bool) -> dict[str, Any]:
    data: dict[str, Any] = {"rank": row.rank, "player": row.player, "name": names.get(row.player, row.player)}
    if row.status:
        data["status"] = row.status  # out of the ranking by a ruling (MCR 77e-f, 89); rank is None
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
