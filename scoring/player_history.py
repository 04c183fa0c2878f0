"""A player across events: every published event they played, from each event's public standings
(``scoring.standings_cache``: confirmed tables of published sessions, up to a freeze), and whom they met
at those tables (head-to-head). Players are the site's records (``players.Player``), which registrations
in different events share when the EMA number matched (``tournaments.services.registrations``) or after
an organiser merged two records (``tournaments.services.player_merge``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from players.folding import matches, query_words
from players.models import Player
from scoring.standings_cache import cached_standings_rows
from tournaments import public_names
from tournaments.models import Registration, Seat, Tournament

FIND_LIMIT = 30
"""At most this many players listed for one search of the head-to-head's other player."""


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


def find_players(query: str, *, exclude: int) -> tuple[list[tuple[int, str]], int]:
    """Players of published events, but ``exclude`` (the page's own), whose public name across events
    (``public_names.history_names``: the narrowest policy of their published events) or latest player id
    has every word of ``query`` (case, accents and punctuation ignored), as (record, name shown) sorted by
    the name shown, at most ``FIND_LIMIT``; and how many more matched. Only what the public may see is
    searched: a hidden full name finds nobody. Two queries and plain values, whatever the number of
    players."""
    words = query_words(query)
    if not words:
        return [], 0
    policies = {
        event.pk: public_names.event_policy(event)
        for event in Tournament.objects.filter(published_at__isnull=False).only("pk", "settings")
    }
    rows = (
        Registration.objects.filter(tournament__published_at__isnull=False)
        .exclude(player_id=exclude)
        .order_by("-tournament__start_date", "-tournament__created_at")
        .values_list(
            "player_id",
            "tournament_id",
            "public_name",
            "code",
            "player__name",
            "player__given_name",
            "player__family_name",
        )
    )
    rules: dict[int, str] = {}
    latest: dict[int, tuple[str, str, str, str]] = {}
    for player_id, event_id, own, code, name, given, family in rows:
        latest.setdefault(player_id, (code, name, given, family))
        rules[player_id] = public_names.narrowest(
            public_names.narrowest(policies[event_id], own), rules.get(player_id, public_names.FULL)
        )
    shown = [(pk, public_names.shown_name(rules[pk], *latest[pk]), latest[pk][0]) for pk in latest]
    found = sorted(
        ((pk, text) for pk, text, code in shown if matches(words, text, code)),
        key=lambda item: (item[1].casefold(), item[0]),
    )
    return found[:FIND_LIMIT], max(len(found) - FIND_LIMIT, 0)
