"""Standings as plain domain logic: totals per player over sessions, then a ranked list.

MCR ranking (Sloper, seeds/003_2541481d343502a5.txt, rule 73, line ~2335): by total table points, then by
total score ("contest points"); players equal in both share the rank. Other rule sets rank by score
alone (NMJL tournament points, classical cumulative score). No Django here: the views and the
``standings`` command feed it rows and render what it returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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


UNRANKED_LABELS = {"loss_of_rank": "loss of rank", "disqualification": "disqualified"}
"""Rulings that take a player out of the ranking (MCR rule 77e-f and 89, seeds/003 lines 2358-2359, 2392)."""


def rank_text(row: Mapping[str, object]) -> object:
    """A standings row's rank for prints and files: the rank, or why the player is not ranked."""
    rank = row.get("rank")
    return rank if rank is not None else UNRANKED_LABELS.get(str(row.get("status")), "not ranked")


@dataclass(slots=True)
class StandingRow:
    player: str
    rank: int | None = 0
    """None for a player out of the ranking by a ruling (``status``)."""
    table_points: Fraction | None = None
    score: int = 0
    wins: int = 0
    sessions: list[SessionLine] = field(default_factory=list)
    tie_break: str = "shared"
    status: str = ""
    """"loss_of_rank" or "disqualification" when a ruling took the player out of the ranking."""

    def sort_key(self) -> tuple[Fraction, int, int]:
        wins = self.wins if self.tie_break == "wins" else 0
        return (self.table_points if self.table_points is not None else Fraction(0), self.score, wins)


def compute_standings(
    lines: Iterable[SessionLine],
    players: Iterable[str] = (),
    *,
    use_table_points: bool = True,
    tie_break: str = "shared",
    unranked: Mapping[str, str] | None = None,
) -> list[StandingRow]:
    """Rank players best first. ``players`` lists everyone registered, so a player with no result yet
    still appears (with zeros). Equal keys share a rank ("1, 1, 3" competition ranking, rule 73).

    ``unranked`` maps players to a ruling that takes them out of the ranking (loss of rank, MCR 77e;
    disqualification, 77f and 89): they are listed after everyone else without a rank, and the others
    close up."""
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
    unranked = unranked or {}
    ordered = sorted(
        rows.values(), key=lambda r: (r.player in unranked, *(-k for k in r.sort_key()), r.player)
    )
    previous_key = None
    for position, row in enumerate(ordered, start=1):
        row.sessions.sort(key=lambda s: s.round_number)
        if row.player in unranked:
            row.rank, row.status = None, unranked[row.player]
            continue
        key = row.sort_key()
        row.rank = position if key != previous_key else ordered[position - 2].rank
        previous_key = key
    return ordered
