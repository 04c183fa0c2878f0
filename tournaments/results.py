"""What the event layer needs to know about results, provided from the layer above.

``tournaments`` may not import ``scoring`` (the layers point one way), yet seating must know whether a
session has results, Swiss seating needs the standings, and the organiser's pages show each table's
progress. ``scoring`` registers a :class:`ResultsSource` when the app is ready; the pages and services
here ask :func:`source`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from tournaments.models import Registration, Round, Table, Tournament


@dataclass(frozen=True)
class TableProgress:
    state: str  # "not started", "in play" or "complete"
    hands: int
    limit: int | None
    last_entry_at: datetime | None = None  # when a hand was last entered or corrected


@dataclass(frozen=True)
class TablesPlayed:
    """Of some tables, those with anything entered (a hand or totals in force) and those whose result is
    confirmed: what a player's seat now needs (``tournaments.services.player_seats``)."""

    begun: frozenset[int]
    confirmed: frozenset[int]


class ResultsSource(Protocol):
    def round_has_results(self, round_: Round) -> bool: ...

    def swiss_scores(self, tournament: Tournament) -> dict[str, float]: ...

    def table_progress(self, tables: Sequence[Table]) -> dict[int, TableProgress]: ...

    def tables_played(self, table_ids: Collection[int]) -> TablesPlayed: ...

    def unconfirmed_tables(self, round_: Round) -> int:
        """How many of the session's tables have no confirmed result (not started counts too)."""
        ...

    def qualifying_order(self, tournament: Tournament, after: int) -> list[tuple[str, int]]:
        """The ranked players (id, rank) best first over the confirmed, published tables of sessions 1 to
        ``after`` (MCR rule 73 and the event's tie-breaks): the order a cut to the final takes."""
        ...

    def final_order(self, tournament: Tournament, through: int) -> list[tuple[str, int | None]]:
        """The finalists (id, rank or None when out of the ranking) best first by the final standings over
        the confirmed, published tables up to session ``through``: what they carry over plus the final
        sessions played (MCR rule 73): the order a later final session is re-seated by."""
        ...

    def disqualification(self, registration: Registration) -> str:
        """The rule and session of a disqualification in force against the player, or "" (the desk
        does not reinstate a disqualified player: only an upheld appeal does)."""
        ...


_source: ResultsSource | None = None


def register(source: ResultsSource) -> None:
    global _source
    _source = source


def source() -> ResultsSource:
    if _source is None:
        raise RuntimeError("No results source is registered (is the scoring app installed?)")
    return _source
