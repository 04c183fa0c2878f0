"""What the prints read, loaded once per print: a session's seated tables with their results, the
players' details, how final the standings are, team standings."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext

from scoring.exports.base import PrintError, made_at
from scoring.models import TableTotals, in_force_q
from scoring.services.confirmation import table_state
from scoring.services.queries import tables_with_results
from scoring.services.standings import session_result
from scoring.standings_cache import public_progress, session_progress
from tournaments.models import WINDS, Registration, Round, Table, Tournament


def not_seated(round_: Round) -> PrintError:
    return PrintError(
        gettext("Session %(number)s is not seated yet: seat it on the session page, then print.")
        % {"number": round_.number},
        code="not_seated",
    )


def check_seated(round_: Round) -> None:
    """The cheap part of ``seated_tables``'s refusal, checked before a print is queued."""
    if not Table.objects.filter(round=round_).exists():
        raise not_seated(round_)


def check_event_seated(tournament: Tournament, message: str) -> None:
    """Refuse (with ``message``) a print of an event that has no seated session yet."""
    if not Table.objects.filter(round__tournament=tournament).exists():
        raise PrintError(message, code="not_seated")


def seated_tables(round_: Round) -> list[Table]:
    """The session's tables with results prefetched; a clear refusal when the session is not seated."""
    tables = tables_with_results(round_.tournament, round_)
    if not tables:
        raise not_seated(round_)
    short = [t.number for t in tables if len(t.seats.all()) != 4]
    if short:
        raise PrintError(
            gettext("Session %(number)s: table(s) %(tables)s do not have four players seated.")
            % {"number": round_.number, "tables": ", ".join(map(str, short))},
            code="table_not_seated",
        )
    return tables


def seats_by_wind(table: Table) -> dict[str, Registration]:
    return {seat.wind: seat.registration for seat in table.seats.all()}


def registrations(tournament: Tournament) -> dict[str, Registration]:
    return {r.code: r for r in tournament.registrations.select_related("player")}


@dataclass(frozen=True)
class Status:
    """How far the standings are: after which session, and whether that is final."""

    after: int | None
    final: bool
    made_at: str

    @property
    def text(self) -> str:
        """In the active language (the page's, for a download)."""
        if self.after is None:
            return gettext("before the first session, made at %(at)s") % {"at": self.made_at}
        if self.final:
            return gettext("after session %(number)s, final, made at %(at)s") % {
                "number": self.after,
                "at": self.made_at,
            }
        return gettext("after session %(number)s, provisional, made at %(at)s") % {
            "number": self.after,
            "at": self.made_at,
        }


def standings_status(tournament: Tournament, tables: list[Table] | None = None) -> Status:
    """After the last session with results; final when every table of every session up to it is
    complete, provisional otherwise. Without loaded ``tables`` it counts hands in one query instead
    of loading every hand of the event (the same states as ``table_state``)."""
    if tables is not None:
        states = [(t.round.number, table_state(t)) for t in tables]
    else:
        states = _table_states(tournament)
    started = [number for number, state in states if state != "not started"]
    if not started:
        return Status(after=None, final=False, made_at=made_at(tournament.zone))
    after = max(started)
    final = all(state == "complete" for number, state in states if number <= after)
    return Status(after=after, final=final, made_at=made_at(tournament.zone))


def public_standings_status(tournament: Tournament) -> Status:
    """The status of the public standings: after the last session they count (results published, not
    after a frozen session) with a confirmed table; final when every table of it is confirmed. Only what
    is published and confirmed, as the standings themselves (an entry at an unconfirmed table changes no
    public download: ``tournaments.public_read``)."""

    counted = [p for p in public_progress(tournament, session_progress(tournament)) if p.confirmed]
    if not counted:
        return Status(after=None, final=False, made_at=made_at(tournament.zone))
    return Status(after=counted[-1].number, final=counted[-1].final, made_at=made_at(tournament.zone))


def _table_states(tournament: Tournament) -> list[tuple[int, str]]:
    from django.db.models import Count, Exists, OuterRef

    limit = tournament.rule_set.hands_allowed(tournament.hands_per_session)
    rows = (
        Table.objects.filter(round__tournament=tournament)
        .annotate(
            played=Count("hands", filter=in_force_q("hands")),
            has_totals=Exists(TableTotals.objects.current().filter(table=OuterRef("pk"))),
        )
        .values_list("round__number", "played", "has_totals", "finished_at")
    )
    states = []
    for number, played, has_totals, finished_at in rows:
        if has_totals or finished_at is not None or (limit is not None and played >= limit):
            states.append((number, "complete"))
        else:
            states.append((number, "in play" if played else "not started"))
    return states


@dataclass(frozen=True)
class TeamRow:
    rank: int | None
    """None for an incomplete team: listed below the ranked ones, not ranked."""
    team: str
    members: list[str]
    table_points: Fraction | float | None
    score: int
    counted: list[str] = field(default_factory=list)
    """The members whose results make the total (the best N, or all), best first."""
    incomplete: bool = False
    """Fewer members in the standings than the complete teams count (``team_standings``)."""
    needed: int = 0
    """How many members a complete team counts."""


def team_standings(
    rows: list[dict[str, Any]], teams: dict[str, str], table_points: bool, *, best: int = 0
) -> list[TeamRow]:
    """Teams ranked by the sum of their members' table points (then score), or score alone; equal
    teams share a rank. ``best``: only each team's best N members count (0: all of them; the event
    setting ``teams.best``). Members are listed best first. Empty when nobody has a team.

    A team is complete when it has as many members in the standings as a team counts: N (``best``),
    or with 0 as many as the team with the most; N is lowered to that most when no team reaches it.
    Only complete teams are ranked; a team with fewer members who played is listed below them,
    unranked and ``incomplete`` (a one-member team must not lead the others' four by summing fewer
    results, nor a team whose other tables are not confirmed yet)."""
    members: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        team = teams.get(row["player"], "")
        if team and not row.get("status"):  # a player out of the ranking by a ruling counts for no team
            members.setdefault(team, []).append(row)
    most = max((len(rows_) for rows_ in members.values()), default=0)
    needed = min(best, most) if best > 0 else most
    totals = []
    for team, rows_ in members.items():
        ordered = sorted(rows_, key=lambda r: (-r.get("table_points", 0), -r["score"], r.get("rank", 0)))
        counted = ordered[:best] if best > 0 else ordered
        tp = sum(r.get("table_points", 0) for r in counted) if table_points else None
        totals.append(
            (
                len(counted) < needed,
                team,
                [r["name"] for r in ordered],
                tp,
                sum(r["score"] for r in counted),
                [r["name"] for r in counted],
            )
        )
    totals.sort(key=lambda t: (t[0], -(t[3] or 0), -t[4], t[1]))
    ranked: list[TeamRow] = []
    for index, (incomplete, team, names, tp, score, counted_names) in enumerate(totals):
        rank: int | None = None if incomplete else index + 1
        if rank and ranked and (ranked[-1].table_points, ranked[-1].score) == (tp, score):
            rank = ranked[-1].rank
        ranked.append(
            TeamRow(
                rank=rank,
                team=team,
                members=names,
                table_points=tp,
                score=score,
                counted=counted_names,
                incomplete=incomplete,
                needed=needed,
            )
        )
    return ranked


def table_result(table: Table) -> Any | None:
    """The table's session result, or None before anything was entered."""
    has_hands = any(h.is_in_force for h in table.hands.all())
    has_totals = any(t.is_current for t in table.totals_versions.all())
    if not has_hands and not has_totals:
        return None
    return session_result(table)


WIND_NAMES = dict(zip(WINDS, ("East", "South", "West", "North"), strict=True))
