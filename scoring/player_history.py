"""A player across events: every published event they played, from each event's public standings
(``scoring.standings_cache``: confirmed tables of published sessions, up to a freeze), and whom they met
at those tables (head-to-head). Players are the site's records (``players.Player``), which registrations
in different events share when the EMA number matched (``tournaments.services.registrations``) or after
an organiser merged two records (``tournaments.services.player_merge``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from players.models import Player
from scoring.standings_cache import cached_standings_rows
from tournaments.models import Registration, Seat, Tournament


@dataclass(frozen=True)
class EventLine:
    """One published event a player played: their standings row there."""

    tournament: Tournament
    code: str
    rank: int | None
    status: str
    table_points: float | None
    score: int
    sessions: int
    players: int


@dataclass(frozen=True)
class Meeting:
    """Two players at one counted table: each one's score in that session (higher finished higher)."""

    tournament: Tournament
    round_number: int
    table_number: int
    score: int
    other_score: int


@dataclass
class HeadToHead:
    """How often a player met another at a counted table, and who finished higher there."""

    other: Player
    meetings: list[Meeting] = field(default_factory=list)

    @property
    def met(self) -> int:
        return len(self.meetings)

    @property
    def ahead(self) -> int:
        return sum(1 for m in self.meetings if m.score > m.other_score)

    @property
    def behind(self) -> int:
        return sum(1 for m in self.meetings if m.score < m.other_score)

    @property
    def level(self) -> int:
        return self.met - self.ahead - self.behind


def published_registrations(player: Player) -> list[Registration]:
    """The player's registrations in published events, the latest event first."""
    return list(
        Registration.objects.filter(
            player=player, tournament__published_at__isnull=False, tournament__rehearsal_of__isnull=True
        )
        .select_related("tournament")
        .order_by("-tournament__start_date", "-tournament__created_at")
    )


class _Rows:
    """Each event's public standings rows by player code, read once per event and page."""

    def __init__(self) -> None:
        self._by_event: dict[int, dict[str, dict[str, Any]]] = {}

    def of(self, tournament: Tournament) -> dict[str, dict[str, Any]]:
        if tournament.pk not in self._by_event:
            self._by_event[tournament.pk] = {row["player"]: row for row in cached_standings_rows(tournament)}
        return self._by_event[tournament.pk]

    def session_score(self, tournament: Tournament, code: str, number: int) -> int | None:
        row = self.of(tournament).get(code)
        for line in (row or {}).get("sessions", []):
            if line["round"] == number:
                return int(line["score"])
        return None


def event_lines(player: Player) -> list[EventLine]:
    """Every published event in which the player has a counted session: place, table points (rule sets
    that use them), score and sessions, as that event's public standings say."""
    rows = _Rows()
    lines = []
    for registration in published_registrations(player):
        tournament = registration.tournament
        by_code = rows.of(tournament)
        row = by_code.get(registration.code)
        if row is None or not row.get("sessions"):
            continue  # registered, not (yet) counted: a reserve, a withdrawal, nothing confirmed
        lines.append(
            EventLine(
                tournament=tournament,
                code=registration.code,
                rank=row["rank"],
                status=row.get("status", ""),
                table_points=row.get("table_points"),
                score=int(row["score"]),
                sessions=len(row["sessions"]),
                players=len(by_code),
            )
        )
    return lines


def head_to_head(player: Player, other: Player | None = None) -> list[HeadToHead]:
    """Everyone the player met (or only ``other``) at a table both players' public standings count
    (confirmed, in a published session of a published event, not after a freeze), most met first. A seat
    a substitute played part of counts for the seat's player, as the standings do."""
    seats = Seat.objects.filter(
        table__seats__registration__player=player,
        round__tournament__published_at__isnull=False,
        round__tournament__rehearsal_of__isnull=True,
        round__results_published_at__isnull=False,
    ).select_related("registration__player", "round__tournament", "table")
    by_table: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats:
        by_table[seat.table_id].append(seat)
    rows = _Rows()
    found: dict[int, HeadToHead] = {}
    for at_table in by_table.values():
        mine = next(seat for seat in at_table if seat.registration.player_id == player.pk)
        tournament, number = mine.round.tournament, mine.round.number
        for seat in at_table:
            opponent = seat.registration.player
            if opponent.pk == player.pk or (other is not None and opponent.pk != other.pk):
                continue
            score = rows.session_score(tournament, mine.registration.code, number)
            other_score = rows.session_score(tournament, seat.registration.code, number)
            if score is None or other_score is None:
                continue  # not counted: unconfirmed, or after the freeze
            found.setdefault(opponent.pk, HeadToHead(opponent)).meetings.append(
                Meeting(tournament, number, mine.table.number, score, other_score)
            )
    for pair in found.values():
        pair.meetings.sort(key=lambda m: (m.tournament.start_date is None, m.tournament.pk, m.round_number))
    return sorted(found.values(), key=lambda pair: (-pair.met, pair.other.name))
