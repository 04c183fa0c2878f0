"""Standings as plain domain logic: totals per player over sessions, then a ranked list.

MCR ranking (Sloper, seeds/003_2541481d343502a5.txt, rule 73, line ~2335): by total table points, then by
total score ("contest points"); players equal in both share the rank. Other rule sets rank by score
alone (NMJL tournament points, classical cumulative score). No Django here: the views and the
``standings`` command feed it rows and render what it returns.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class SessionLine:
    """One player's result at one table in one session."""

    player: str
    round_number: int
    score: int
    table_points: Fraction | None = None
    table_number: int | None = None
    forfeit: bool = False
    wins: int = 0


TIE_BREAKS = ("shared", "wins")
"""How players equal on the main keys are told apart: "shared" (they share the rank, MCR rule 73) or
"wins" (more hands or games won ranks higher, an option NMJL organisers use; still equal: shared)."""


@dataclass(slots=True)
class StandingRow:
    player: str
    rank: int = 0
    table_points: Fraction | None = None
    score: int = 0
    wins: int = 0
    sessions: list[SessionLine] = field(default_factory=list)
    tie_break: str = "shared"

    def sort_key(self) -> tuple[Fraction, int, int]:
        wins = self.wins if self.tie_break == "wins" else 0
        return (self.table_points if self.table_points is not None else Fraction(0), self.score, wins)


def compute_standings(
    lines: Iterable[SessionLine],
    players: Iterable[str] = (),
    *,
    use_table_points: bool = True,
    tie_break: str = "shared",
) -> list[StandingRow]:
    """Rank players best first. ``players`` lists everyone registered, so a player with no result yet
    still appears (with zeros). Equal keys share a rank ("1, 1, 3" competition ranking, rule 73)."""
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {TIE_BREAKS}")
    rows: dict[str, StandingRow] = {}
    for player in players:
        rows[player] = StandingRow(
            player=player, table_points=Fraction(0) if use_table_points else None, tie_break=tie_break
        )
    for line in lines:
        row = rows.setdefault(
            line.player,
            StandingRow(
                player=line.player,
                table_points=Fraction(0) if use_table_points else None,
                tie_break=tie_break,
            ),
        )
        row.sessions.append(line)
        row.score += line.score
        row.wins += line.wins
        if use_table_points and line.table_points is not None:
            row.table_points = (row.table_points or Fraction(0)) + line.table_points
    ordered = sorted(rows.values(), key=lambda r: (*(-k for k in r.sort_key()), r.player))
    previous_key = None
    for position, row in enumerate(ordered, start=1):
        key = row.sort_key()
        row.rank = position if key != previous_key else ordered[position - 2].rank
        previous_key = key
        row.sessions.sort(key=lambda s: s.round_number)
    return ordered
