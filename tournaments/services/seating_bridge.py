"""Between the event's database rows and the pure seating engine (``tournaments.seating``).

The engine sees players as ids (registration codes) and rounds as tuples of tables; this module turns
registrations and seats into those and back, and knows the event's seating settings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tournaments import event_settings
from tournaments.models import WINDS, Registration, Round, Seat, Tournament
from tournaments.seating import (
    QualityReport,
    RoundSeating,
    SeatingPlan,
    SeatingPlayer,
    TableSeating,
    plan_seating,
    quality_report,
)
from tournaments.services.kept_apart import code_pairs


def engine_players(registrations: Sequence[Registration]) -> list[SeatingPlayer]:
    return [
        SeatingPlayer(id=r.code, team=r.team or None, fixed_table=r.fixed_table)
        for r in registrations
        if not r.is_substitute
    ]


def seated_rounds(tournament: Tournament, *, before: int | None = None) -> dict[int, RoundSeating]:
    """The seating stored for each seated session (all, or those numbered below ``before``)."""
    seats = Seat.objects.filter(round__tournament=tournament).select_related("table", "round", "registration")
    if before is not None:
        seats = seats.filter(round__number__lt=before)
    tables: dict[int, dict[int, dict[str, str]]] = {}
    for seat in seats:
        tables.setdefault(seat.round.number, {}).setdefault(seat.table.number, {})[seat.wind] = (
            seat.registration.code
        )
    return {
        number: RoundSeating(
            tables=tuple(
                TableSeating(number=t, seats=tuple(by_table[t][w] for w in WINDS))  # type: ignore[arg-type]
                for t in sorted(by_table)
                if len(by_table[t]) == 4
            )
        )
        for number, by_table in sorted(tables.items())
    }


def settings_of(tournament: Tournament) -> dict[str, Any]:
    """The event's seating options, defaults filled in (the schema is in ``event_settings``)."""
    values = event_settings.current(tournament.rules, tournament.settings)
    return {
        "substitute_policy": values["seating.substitute_policy"],
        "swiss": bool(values["seating.swiss"]),
        "time_limit": float(values["seating.time_limit"]),
    }


def plan_rounds(
    tournament: Tournament,
    registrations: Sequence[Registration],
    first: Round,
    count: int,
    *,
    seed: int,
    swiss_scores: Mapping[str, float] | None = None,
    time_limit: float | None = None,
) -> SeatingPlan:
    """Plan ``count`` sessions from ``first`` on, after the sessions seated before it."""
    settings = settings_of(tournament)
    history = tuple(seated_rounds(tournament, before=first.number).values())
    players = engine_players(registrations)
    return plan_seating(
        players,
        count,
        seed=seed,
        time_limit=time_limit or settings["time_limit"],
        history=history,
        substitute_policy=settings["substitute_policy"],
        swiss_scores=swiss_scores,
        kept_apart=seated_pairs(tournament, {p.id for p in players}),
    )


def seated_pairs(tournament: Tournament, codes: set[str]) -> list[frozenset[str]]:
    """The event's kept-apart pairs among the players being seated (a withdrawn player's pair has nobody
    to keep apart)."""
    return [pair for pair in code_pairs(tournament) if pair <= codes]


def event_quality(tournament: Tournament) -> QualityReport | None:
    """The quality report over every seated session, with teammates and kept-apart pairs counted as
    conflicts (the pairs also on their own)."""
    rounds = list(seated_rounds(tournament).values())
    if not rounds:
        return None
    teams: dict[str, list[str]] = {}
    for registration in tournament.registrations.filter(is_substitute=False).exclude(team=""):
        teams.setdefault(registration.team, []).append(registration.code)
    apart = {frozenset((a, b)) for members in teams.values() for a in members for b in members if a < b}
    return quality_report(rounds, apart=apart, kept_apart=code_pairs(tournament))
