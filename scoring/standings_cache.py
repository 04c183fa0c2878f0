"""Standings as data for every reader (pages, projector, exports, the ``standings`` command), and
their cache: computed once per standings version, which every counted write bumps."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext

from scoring.history import places_after_each_session
from scoring.models import Confirmation, Hand, TableTotals
from scoring.rules.finals import cut_of
from scoring.rules.tie_breaks import TIE_BREAK_CHOICES
from scoring.services.standings import event_standings
from scoring.standings import SHARED, StandingRow, decided_by
from tournaments.models import Table, Tournament
from tournaments.public_read import computed_once
from tournaments.release import counted_rounds


def standings_rows(
    tournament: Tournament, *, include_provisional: bool = False, explained: bool = False
) -> list[dict[str, Any]]:
    """Standings in the spec's JSON shape, best first: confirmed tables only, unless
    ``include_provisional`` (the organiser's preview). ``explained`` adds what decided each place against
    its neighbours (``above_by``, ``below_by``) for the pages and prints; the JSON of
    shared/specs/event-json.md ("Standings") names its keys, so the ``standings`` command leaves them out."""
    names = {r.code: r.player.name for r in tournament.registrations.select_related("player")}
    rows = event_standings(tournament, include_provisional=include_provisional)
    data = [_standing_dict(row, names, tournament.uses_table_points) for row in rows]
    if explained:
        for row, item in zip(rows, data, strict=True):
            item.update({key: value for key, value in zip(EXPLAINED, decided_by(row), strict=True) if value})
    return data


EXPLAINED = ("above_by", "below_by")
"""The keys of an explained row (``scoring.standings.StandingRow``)."""


def decided_text(row: Mapping[str, Any]) -> str:
    """What decided a row's place against its neighbours, in words: "ahead on head-to-head", "behind on
    score" (MCR rule 73's second key), "shared" (equal in everything, rule 73); empty when the main
    ranking did."""
    above, below = decided_by(row)
    parts = []
    if above == SHARED or below == SHARED:
        parts.append(gettext("shared"))
    if above and above != SHARED:
        parts.append(gettext("behind on %(tie_break)s") % {"tie_break": _tie_break_word(above)})
    if below and below != SHARED:
        parts.append(gettext("ahead on %(tie_break)s") % {"tie_break": _tie_break_word(below)})
    return "; ".join(parts)


def _tie_break_word(key: str) -> str:
    if key == "score":
        return gettext("score")
    return gettext(dict(TIE_BREAK_CHOICES).get(key, key))


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


def _table_ids(rows: QuerySet[Any]) -> QuerySet[Any]:
    return rows.order_by().values_list("table_id", flat=True).distinct()


def session_progress(tournament: Tournament) -> list[SessionProgress]:
    """Each seated session's tables: how many have results and how many are confirmed."""

    tables = Table.objects.filter(round__tournament=tournament).values_list("id", "round__number")
    in_event = {"table__round__tournament": tournament}
    started = set(_table_ids(Hand.objects.current().filter(**in_event)))  # each table once: not 16,000 rows
    started |= set(_table_ids(TableTotals.objects.current().filter(**in_event)))
    confirmed = set(_table_ids(Confirmation.objects.in_force().filter(**in_event)))
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
    speaks of a session the standings leave out; and of those only their confirmed tables."""

    counted = counted_rounds(tournament)
    # Only what is confirmed is public: a session is "in play" here once one of its tables is confirmed
    # (the live results page shows the hands as they are entered). The public pages then change only
    # with the event's public version (tournaments/public_read.py), not with every first hand.
    return [replace(p, started=p.confirmed) for p in progress if p.number in counted]


def why_nobody_is_ranked(tournament: Tournament, *, provisional: bool = False) -> str:
    """Why the standings have no row, for the line shown instead: "nothing_entered" (the
    staff's provisional view), "none_confirmed" (no table confirmed yet), "frozen" (the standings were
    frozen before any session with a confirmed table), "unpublished" (confirmed, but the results of those
    sessions are not published yet)."""

    if provisional:
        return "nothing_entered"
    confirmed = {p.number for p in session_progress(tournament) if p.confirmed}
    if not confirmed or confirmed & counted_rounds(tournament):
        return "none_confirmed"
    published = set(
        tournament.rounds.filter(results_published_at__isnull=False).values_list("number", flat=True)
    )
    # Confirmed and published, yet not counted: only a freeze leaves such a session out (counted_rounds).
    return "frozen" if confirmed & published else "unpublished"


def standings_cache_key(tournament: Tournament) -> str:
    """Identifies one event for the standings caches; the creation time keeps a replaced event
    (import --replace may reuse the row id) from ever reading its predecessor's cache."""
    return f"{tournament.pk}:{tournament.created_at.timestamp()}"


def cached_standings_rows(
    tournament: Tournament, *, include_provisional: bool = False
) -> list[dict[str, Any]]:
    """Standings for the public pages, the projector and the exports, computed once per version: the public
    standings per ``public_version`` (every change a public page shows bumps it in the writing transaction),
    the provisional ones (staff only) per ``standings_version`` (every entered result). Never an older copy."""
    field = "standings_version" if include_provisional else "public_version"
    version = Tournament.objects.filter(pk=tournament.pk).values_list(field, flat=True).first()
    return _rows_at(tournament, version or 0, include_provisional=include_provisional)


def _rows_at(tournament: Tournament, version: int, *, include_provisional: bool) -> list[dict[str, Any]]:
    key = f"standings-explained:{standings_cache_key(tournament)}:{int(include_provisional)}:{version}"
    return computed_once(
        key, lambda: standings_rows(tournament, include_provisional=include_provisional, explained=True)
    )


def public_standings_and_places(
    tournament: Tournament,
) -> tuple[list[dict[str, Any]], dict[str, dict[int, tuple[int, int]]]]:
    """The public standings and every player's place after each session (``scoring.history``), both
    computed once per public version (one version read for both): replaying the ranking session by
    session costs more than the rest of a player's page, and a hall reads every player's page."""

    version = (
        Tournament.objects.filter(pk=tournament.pk).values_list("public_version", flat=True).first() or 0
    )
    rows = _rows_at(tournament, version, include_provisional=False)
    places = computed_once(
        f"places:{standings_cache_key(tournament)}:{version}",
        lambda: places_after_each_session(
            rows, use_table_points=tournament.uses_table_points, cut=cut_of(tournament.settings)
        ),
    )
    return rows, places


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
