"""How the standings stood after each session, from the standings rows (plain data, no Django): the
player page's chart and its "place after session" column.

The ranking is the standings' own (``compute_standings``: table points then score for MCR rule 73,
score alone otherwise; equal players share the place). Games-won tie-breaks are not replayed per
session (the rows keep no per-session wins), so players equal after a session share the place."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from scoring.rules.finals import Cut
from scoring.standings import SessionLine, StandingRow, compute_standings


def places_after_each_session(
    rows: Iterable[Mapping[str, Any]], *, use_table_points: bool, cut: Cut | None = None
) -> dict[str, dict[int, tuple[int, int]]]:
    """For each ranked player, per session number they played: (place after that session, total
    score after it). Sessions count in order; a session nobody has a counted result in is skipped.
    After a ``cut`` the final's places are the finalists' own, as the standings rank them
    (``scoring.facts``: what they carried over plus the final sessions so far)."""
    rows = list(rows)
    lines = [
        SessionLine(
            player=row["player"],
            round_number=session["round"],
            score=session["score"],
            table_points=Fraction(session["table_points"]).limit_denominator(12)
            if use_table_points and "table_points" in session
            else None,
        )
        for row in rows
        for session in row.get("sessions", [])
    ]
    # A player out of the ranking by a ruling (MCR 77e-f, 89) has no place; the others close up.
    unranked = {row["player"]: row["status"] for row in rows if row.get("status")}
    history: dict[str, dict[int, tuple[int, int]]] = {}
    for number in sorted({line.round_number for line in lines}):
        upto = [line for line in lines if line.round_number <= number]
        if cut is not None and number > cut.after:
            ranked = _final(upto, cut, use_table_points=use_table_points, unranked=unranked)
        else:
            ranked = compute_standings(upto, use_table_points=use_table_points, unranked=unranked)
        for standing in ranked:
            if standing.rank is not None and any(line.round_number == number for line in standing.sessions):
                history.setdefault(standing.player, {})[number] = (standing.rank, standing.score)
    return history


def _final(
    lines: list[SessionLine], cut: Cut, *, use_table_points: bool, unranked: Mapping[str, str]
) -> list[StandingRow]:
    """The finalists ranked by what they brought from the qualifying sessions plus these final lines."""
    qualifying = compute_standings(
        [line for line in lines if line.round_number <= cut.after],
        use_table_points=use_table_points,
        unranked=unranked,
    )
    carried = {
        row.player: (cut.carried_points(row.table_points or Fraction(0)), cut.carried_score(row.score))
        for row in qualifying
        if row.player in cut.finalists
    }
    return compute_standings(
        [line for line in lines if line.round_number > cut.after and line.player in carried],
        carried,
        use_table_points=use_table_points,
        unranked={code: status for code, status in unranked.items() if code in carried},
    )


def place_at_table(own: int, others: Iterable[int]) -> int:
    """A player's place at their table by score: 1 + how many scored more (equal scores share)."""
    return 1 + sum(1 for score in others if score > own)
